import type { OutboxItem } from "../../store/outbox-store.ts";
import { classifySlackFailure, type SlackFailure } from "../transport/classify-slack-failure.ts";
import { missingScope } from "../transport/slack-error-hint.ts";
import { callSlack } from "./outbox-call.ts";
import type { OutboxContext } from "./outbox-context.ts";
import { findEarlierPost } from "./outbox-earlier-post.ts";
import { findEarlierUpload } from "./outbox-earlier-upload.ts";
import { failureLine, mayHaveCompleted, platformDetail } from "./outbox-failure.ts";
import { resolvePlaceholders, withLateNotice } from "./outbox-placeholders.ts";
import { recordSent } from "./outbox-record-sent.ts";
import { withOutboxMetadata } from "./outbox-recovery.ts";
import { setAside } from "./outbox-set-aside.ts";

/**
 * Sends one outbox item and records what happened: sent (or found already posted by an interrupted
 * attempt), skipped, set aside for good, or scheduled again after a back-off or a rate limit.
 * `true` when Slack took a call that counts against its per-channel limit (a post it accepted).
 */
export async function deliverOutboxItem(ctx: OutboxContext, item: OutboxItem): Promise<boolean> {
  const { store, clock, log } = ctx;
  if (store.outbox.isSuperseded(item)) {
    store.outbox.markDead(item.id, "superseded", clock.now());
    log.debug({ outboxId: item.id, alertId: item.alertId }, "alert update superseded by a newer one");
    return false;
  }
  if (item.role === "alert-post" && item.alertId !== null && store.alerts.byId(item.alertId)?.ts) {
    store.outbox.markDead(item.id, "already_posted", clock.now());
    log.warn({ outboxId: item.id, alertId: item.alertId }, "alert already posted; second post skipped");
    return false;
  }
  const resolved = resolvePlaceholders(withLateNotice(item, clock.now()), (id) => store.alerts.byId(id));
  if (!resolved.ok) {
    setAside(ctx, item, "no_alert_message", { reason: resolved.reason });
    return false;
  }
  if (resolved.threadDropped) {
    log.warn(
      { outboxId: item.id, alertId: item.alertId },
      "the alert message was never posted; posting this thread reply in the channel instead",
    );
  }
  const args = item.method === "chat.postMessage" ? withOutboxMetadata(resolved.args, item) : resolved.args;
  const upload = item.method === "files.uploadV2";
  const traceable = args !== resolved.args || upload;
  let posting = false;
  try {
    if (traceable) {
      const sinceMs = store.outbox.inFlightSince(item.id);
      const findEarlier = upload ? findEarlierUpload : findEarlierPost;
      const found = sinceMs === null ? undefined : await findEarlier(ctx, item, args, sinceMs);
      if (found !== undefined) {
        log.info(
          { outboxId: item.id, alertId: item.alertId, channel: found.channel, ts: found.ts },
          "found the message an interrupted call had already posted; not posting it again",
        );
        recordSent(ctx, item, args, { ...found });
        return false;
      }
      // NOTE: the first unrecorded attempt's time is kept: a late answer to it may still post.
      if (sinceMs === null) store.outbox.markInFlight(item.id, clock.now());
    }
    posting = true;
    recordSent(ctx, item, args, await callSlack(ctx.client, item.method, args));
    return true;
  } catch (error) {
    const failure = classifySlackFailure(error);
    if (traceable && posting && !mayHaveCompleted(failure)) store.outbox.clearInFlight(item.id);
    scheduleAfterFailure(ctx, item, error, failure, traceable);
    return false;
  }
}

/** After a failed call: set the item aside for good, or schedule it again (and pause on a 429). */
function scheduleAfterFailure(
  ctx: OutboxContext,
  item: OutboxItem,
  error: unknown,
  failure: SlackFailure,
  traceable: boolean,
): void {
  const { store, log } = ctx;
  const nowMs = ctx.clock.now();
  switch (failure.kind) {
    case "permanent":
      setAside(ctx, item, failure.code, { needed: missingScope(error), slackDetail: platformDetail(error) });
      return;
    case "unexpected":
      if (item.attempts + 1 >= ctx.maxUnexpected) {
        setAside(ctx, item, failure.code, { err: error });
        return;
      }
      store.outbox.retryLater(item.id, failure.code, nowMs + ctx.backoffMs(item.attempts));
      log.error({ err: error, outboxId: item.id, method: item.method }, "unexpected error sending to Slack");
      return;
    case "rate-limited":
      store.outbox.retryLater(item.id, failure.code, nowMs + failure.retryAfterMs);
      ctx.pauseUntil(nowMs + failure.retryAfterMs);
      log.warn(
        { outboxId: item.id, method: item.method, retryAfterMs: failure.retryAfterMs },
        "Slack rate limit: holding the outbox for Retry-After",
      );
      return;
    case "transient": {
      const waitMs = ctx.backoffMs(item.attempts);
      store.outbox.retryLater(item.id, failure.code, nowMs + waitMs);
      log.warn(
        {
          outboxId: item.id,
          method: item.method,
          slackError: failure.code,
          attempts: item.attempts + 1,
          waitMs,
        },
        failureLine(item.method, failure.timedOut, traceable),
      );
      return;
    }
    default:
      failure satisfies never;
  }
}
