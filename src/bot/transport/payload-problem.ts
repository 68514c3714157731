/** A delivery Slack would never send: refused at once (HTTP 400), never handed to a listener. */
export class MalformedPayloadError extends Error {
  override readonly name = "MalformedPayloadError";
}

/** Interaction payload types Bolt routes (`helpers.getTypeAndConversation`). */
const INTERACTIVE_TYPES = new Set([
  "block_actions",
  "interactive_message",
  "dialog_submission",
  "dialog_suggestion",
  "block_suggestion",
  "shortcut",
  "message_action",
  "view_submission",
  "view_closed",
  "event_callback",
]);

/**
 * What is wrong with a delivery's body, or `null` when it has the fields every Slack payload of its
 * kind carries (a slash command: command, user and channel; `block_actions`: a user and actions each
 * with an `action_id`; views: a user and a view with its `callback_id`; events: an event with a type).
 * Without this, a half-formed payload reaches no listener and Bolt answers 404 after 3 s.
 */
export function payloadProblem(body: unknown): string | null {
  if (!isRecord(body)) return "the body is not an object";
  if ("command" in body) {
    const missing = ["command", "user_id", "channel_id"].filter((key) => !isText(body[key]));
    if (typeof body.text !== "string" && body.text !== undefined) missing.push("text");
    return missing.length === 0 ? null : `slash command without ${missing.join(", ")}`;
  }
  const type = body.type;
  if (typeof type !== "string") return "no type, command or event";
  if (!INTERACTIVE_TYPES.has(type)) return `unknown payload type ${JSON.stringify(type.slice(0, 40))}`;
  switch (type) {
    case "event_callback":
      return isRecord(body.event) && isText(body.event.type) ? null : "event_callback without an event type";
    case "block_actions": {
      if (!hasUser(body)) return "block_actions without a user id";
      const actions = body.actions;
      if (!Array.isArray(actions) || actions.length === 0) return "block_actions without actions";
      const bad = actions.findIndex((action) => !isRecord(action) || !isText(action.action_id));
      return bad < 0 ? null : `block_actions action ${bad} without an action_id`;
    }
    case "view_submission":
    case "view_closed":
      if (!hasUser(body)) return `${type} without a user id`;
      return isRecord(body.view) && isText(body.view.callback_id) && isText(body.view.id)
        ? null
        : `${type} without a view id and callback_id`;
    default:
      return hasUser(body) ? null : `${type} without a user id`;
  }
}

function hasUser(body: Record<string, unknown>): boolean {
  return isRecord(body.user) && isText(body.user.id);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}
