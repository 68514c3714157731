import type { Notifier } from "../../usecases/ports.ts";

/**
 * The Notifier when no Slack tokens are set: what would go to Slack is printed, one line a message.
 * An alert edited in place is printed again only when its text changed.
 */
export function createConsoleNotifier(out: NodeJS.WritableStream, channel: string): Notifier {
  const lastText = new Map<number, string>();
  return {
    send(method, args, options) {
      const text = typeof args.text === "string" ? args.text : "";
      const target = String(args.channel ?? "");
      const where = target === channel ? target : target.startsWith("U") ? `DM ${target}` : target;
      const alertId = options?.alertId;
      if (method === "chat.update") {
        if (alertId === undefined || lastText.get(alertId) === text) return;
        lastText.set(alertId, text);
        out.write(`[${where}] (updated) ${text}\n`);
        return;
      }
      if (method !== "chat.postMessage" && method !== "chat.postEphemeral") return;
      if (alertId !== undefined && options?.role === "alert-post") lastText.set(alertId, text);
      const thread = args.thread_ts !== undefined ? " (thread)" : "";
      out.write(`[${where}]${thread} ${text}\n`);
    },
  };
}
