import type { AnyMiddlewareArgs, Middleware } from "@slack/bolt";
import type { Clock } from "../../shared/clock.ts";
import type { Logger } from "../../shared/logger.ts";
import type { DeliveryStore } from "../../store/delivery-store.ts";

/**
 * The identity of one user-side delivery, the same on every redelivery of it: `event:<event_id>`
 * (Events API), `action:<user>:<action_id>:<action_ts>` (a click), `command:<trigger_id>`
 * (a slash command), `view:<trigger_id>` (a modal submission), `shortcut:<trigger_id>`.
 * Undefined for payloads that must be answered every time (`block_suggestion`, `view_closed`).
 */
export function deliveryKey(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.event_id === "string") return `event:${b.event_id}`;
  const triggerId = typeof b.trigger_id === "string" ? b.trigger_id : undefined;
  if (typeof b.command === "string") return triggerId === undefined ? undefined : `command:${triggerId}`;
  switch (b.type) {
    case "block_actions": {
      const action = Array.isArray(b.actions)
        ? (b.actions[0] as Record<string, unknown> | undefined)
        : undefined;
      const user = (b.user as { id?: unknown } | undefined)?.id;
      if (action === undefined || typeof user !== "string") return undefined;
      return `action:${user}:${String(action.action_id)}:${String(action.action_ts)}`;
    }
    case "view_submission":
      return triggerId === undefined ? undefined : `view:${triggerId}`;
    case "shortcut":
    case "message_action":
      return triggerId === undefined ? undefined : `shortcut:${triggerId}`;
    default:
      return undefined;
  }
}

/**
 * A global middleware that runs each delivery's listeners once. Slack redelivers events it thinks
 * were not acked (`X-Slack-Retry-Num`), and Bolt accepts an exact replay of a signed request within
 * its 5-minute window: both are recognised by {@link deliveryKey} in the store, acked (so Slack stops
 * retrying) and not handed to any listener.
 */
export function dedupeDeliveries(deps: {
  deliveries: DeliveryStore;
  clock: Clock;
  logger: Logger;
}): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const key = deliveryKey(args.body);
    if (key === undefined || deps.deliveries.firstTime(key, deps.clock.now())) {
      await args.next();
      return;
    }
    deps.logger.info(
      { key, retryNum: args.context.retryNum, retryReason: args.context.retryReason },
      "duplicate Slack delivery acked and ignored",
    );
    if ("ack" in args && typeof args.ack === "function") await (args.ack as () => Promise<void>)();
  };
}
