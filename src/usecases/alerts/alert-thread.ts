import type { AlertRecord } from "../../domain/alert-record.ts";
import { alertTs, type RenderedMessage } from "../ports.ts";
import type { AlertRun } from "./idle-alert-run.ts";

/** Rewrites the alert's channel message (through the outbox, after its post). */
export function sendUpdate(run: AlertRun, alert: AlertRecord, message: RenderedMessage): void {
  const { notifier, channel } = run;
  notifier.send(
    "chat.update",
    {
      channel: alert.channel ?? channel,
      ts: alertTs(alert.id),
      text: message.text,
      blocks: message.blocks,
    },
    { alertId: alert.id, role: "alert-update" },
  );
}

/** Posts in the alert's thread. */
export function postInAlertThread(run: AlertRun, alert: AlertRecord, text: string, blocks?: unknown[]): void {
  const { notifier, channel } = run;
  const args: Record<string, unknown> = {
    channel: alert.channel ?? channel,
    thread_ts: alertTs(alert.id),
    text,
  };
  if (blocks !== undefined) args.blocks = blocks;
  notifier.send("chat.postMessage", args, { alertId: alert.id, role: "message" });
}
