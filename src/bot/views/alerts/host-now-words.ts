import type { Translator } from "../../../messages/translator.ts";
import { slackEscape } from "../../../usecases/power/action-text.ts";
import type { HostNowFacts } from "../../../usecases/power/stop-facts.ts";
import { whenWords } from "../when-words.ts";

/** `a, b and c` in the reader's words. */
function listAnd(tr: Translator, items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return tr.t("host.list", {
    rest: items.slice(0, -1).join(tr.t("host.list.separator")),
    last: items.at(-1)!,
  });
}

/** Why the re-check finds `host` not idle now: `gpu-a is busy now: GPU 3 at 97 %`. */
export function hostNowWords(tr: Translator, host: string, facts: HostNowFacts): string {
  const slots = (list: readonly string[]) => list.join(tr.t("host.list.separator"));
  switch (facts.reason) {
    case "busy": {
      const busy = facts.gpus.map((gpu) => tr.t("stop.now.busyGpu", { slot: gpu.slot, pct: gpu.utilPct }));
      const shown =
        busy.length > 3 ? [...busy.slice(0, 2), tr.t("stop.now.busyMore", { count: busy.length - 2 })] : busy;
      return tr.t("stop.now.busy", { host, gpus: listAnd(tr, shown) });
    }
    case "in-use": {
      const users = facts.users.map(slackEscape);
      const who = users.length === 0 ? tr.t("stop.now.someone") : listAnd(tr, users);
      const lines = facts.lines.join(", ");
      return tr.t("stop.now.inUse", { host, who, count: Math.max(users.length, 1), lines });
    }
    case "no-data":
      return noDataWords(tr, host, facts);
    case "no-gpus":
      return tr.t("stop.now.noGpus", { host });
    case "no-reading":
      return tr.t("stop.now.noReading", { host, count: facts.slots.length, slots: slots(facts.slots) });
    case "suspect":
      return tr.t("stop.now.suspect", { host, count: facts.slots.length, slots: slots(facts.slots) });
    default:
      return facts satisfies never;
  }
}

function noDataWords(
  tr: Translator,
  host: string,
  facts: Extract<HostNowFacts, { reason: "no-data" }>,
): string {
  const cause = facts.cause === null ? null : slackEscape(facts.cause);
  if (facts.lastOkAtMs === null) {
    return cause === null
      ? tr.t("stop.now.noDataYet", { host })
      : tr.t("stop.now.noDataYetCause", { host, cause });
  }
  const since = whenWords(tr, facts.lastOkAtMs, facts.nowMs);
  return cause === null
    ? tr.t("stop.now.noDataSince", { host, since })
    : tr.t("stop.now.noDataSinceCause", { host, since, cause });
}
