import type { RecentInput } from "../../../checks/recent-input.ts";
import type { Translator } from "../../../messages/translator.ts";
import { MINUTE_MS } from "../../../shared/clock.ts";
import {
  alertDuration,
  code,
  escapeMrkdwn,
  formatGiB,
  truncate,
  truncateMiddle,
} from "../alerts/alert-format.ts";

const PEOPLE_SHOWN = 2;
const NAME_CHARS = 24;

/**
 * Who typed on the host recently, for the Stop confirm dialog and the `/gpu stop` preview:
 * `⚠️ Recent input on gpu-a: bob 14 h ago (`python`, 20.0 GiB). A stop ends their sessions, which the
 * autopilot leaves alone.` At most two people named; never over `maxChars`; `null` when nobody typed
 * there recently.
 */
export function recentInputText(
  tr: Translator,
  host: string,
  recent: readonly RecentInput[],
  maxChars: number,
): string | null {
  if (recent.length === 0) return null;
  const people = recent.slice(0, PEOPLE_SHOWN).map((input) => personText(tr, input));
  if (recent.length > PEOPLE_SHOWN)
    people.push(tr.t("stop.recent.more", { count: recent.length - PEOPLE_SHOWN }));
  const text = tr.t("stop.recent", {
    host: escapeMrkdwn(host),
    people: people.join(", "),
  });
  return truncate(text, maxChars);
}

function personText(tr: Translator, input: RecentInput): string {
  const what = [
    ...input.processes.slice(0, 1).map((name) => code(truncateMiddle(name, NAME_CHARS))),
    ...(input.memMiB !== null && input.memMiB > 0 ? [formatGiB(input.memMiB)] : []),
  ].join(", ");
  return tr.t("stop.recent.person", {
    user: escapeMrkdwn(truncate(input.user, 16)),
    ago: alertDuration(tr, input.idleMinutes * MINUTE_MS),
    held: what === "" ? "" : tr.t("stop.recent.held", { what }),
  });
}
