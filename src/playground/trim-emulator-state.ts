import { type EmulatorState, RESPONSE_URL_TTL_MS, TRIGGER_TTL_MS } from "./slack-emulator/emulator-state.ts";

/** Web API calls kept for inspection; older ones are dropped. */
const KEPT_CALLS = 500;
/** Earlier versions kept per edited message. */
const KEPT_EDITS = 3;

/**
 * Keeps a long-running playground's emulator small (tests keep everything): drops old Web API call
 * records, old versions of edited messages, expired response URLs and triggers. What people see
 * (messages, views, files) stays. Returns how many call records were dropped.
 */
export function trimEmulatorState(state: EmulatorState): number {
  const dropped = Math.max(0, state.calls.length - KEPT_CALLS);
  state.calls.splice(0, dropped);
  for (const message of state.messages) {
    if (message.edits.length > KEPT_EDITS) message.edits.splice(0, message.edits.length - KEPT_EDITS);
  }
  for (const message of state.ephemerals) {
    if (message.edits.length > KEPT_EDITS) message.edits.splice(0, message.edits.length - KEPT_EDITS);
  }
  for (const view of state.views.values()) {
    if (view.versions.length > KEPT_EDITS) view.versions.splice(0, view.versions.length - KEPT_EDITS);
  }
  const nowMs = state.nowMs();
  for (const [id, record] of state.responseUrls) {
    if (nowMs - record.issuedAtMs > RESPONSE_URL_TTL_MS) state.responseUrls.delete(id);
  }
  for (const [id, trigger] of state.triggers) {
    if (nowMs - trigger.issuedAtMs > TRIGGER_TTL_MS) state.triggers.delete(id);
  }
  return dropped;
}
