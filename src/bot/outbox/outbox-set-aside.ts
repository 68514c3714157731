import type { OutboxItem } from "../../store/outbox-store.ts";
import { slackErrorHint } from "../transport/slack-error-hint.ts";
import type { OutboxContext } from "./outbox-context.ts";
import { stringArg } from "./outbox-failure.ts";

/** Marks an item Slack will never accept as dead, with one log line that says how to fix it. */
export function setAside(
  ctx: Pick<OutboxContext, "store" | "clock" | "log" | "botName" | "onSetAside">,
  item: OutboxItem,
  code: string,
  detail: Record<string, unknown> = {},
): void {
  const first = Array.isArray(detail.slackDetail) ? detail.slackDetail[0] : detail.reason;
  const why = typeof first === "string" ? `${code}: ${first.replace(/^\[ERROR\] /, "")}` : code;
  ctx.store.outbox.markDead(item.id, why, ctx.clock.now());
  ctx.onSetAside?.({ method: item.method, reason: code });
  const channel = stringArg(item.args.channel) ?? stringArg(item.args.channel_id);
  const hint = slackErrorHint(code, {
    botName: ctx.botName,
    channel,
    needed: detail.needed as string | undefined,
  });
  ctx.log.error(
    {
      outboxId: item.id,
      method: item.method,
      channel,
      alertId: item.alertId,
      slackError: code,
      hint,
      ...detail,
    },
    `Slack refused ${item.method} for good (${why}); message ${item.id} set aside${hint === undefined ? "" : `: ${hint}`}`,
  );
}
