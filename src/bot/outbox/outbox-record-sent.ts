import type { OutboxItem } from "../../store/outbox-store.ts";
import type { OutboxContext } from "./outbox-context.ts";
import { stringArg } from "./outbox-failure.ts";

/** Records a delivered item: sent, its alert's message ts, and the ID of a channel given by name. */
export function recordSent(
  ctx: Pick<OutboxContext, "store" | "clock" | "channelIds">,
  item: OutboxItem,
  args: Record<string, unknown>,
  result: Record<string, unknown>,
): void {
  const { store } = ctx;
  const atMs = ctx.clock.now();
  store.transaction(() => {
    const ts = stringArg(result.ts);
    const channel = stringArg(result.channel) ?? stringArg(args.channel);
    if (item.role === "alert-post" && item.alertId !== null) {
      if (ts !== undefined && channel !== undefined) store.alerts.setTs(item.alertId, channel, ts);
    }
    ctx.channelIds.remember(stringArg(args.channel), channel);
    store.outbox.markSent(item.id, atMs);
  });
}
