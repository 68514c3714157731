import type { Translator } from "../../../messages/translator.ts";
import { formatPct, hoursIn } from "../../../reports/summary-format.ts";
import type { SummaryModel } from "../../../reports/summary-model.ts";
import type { SummaryMessageOptions } from "../../../usecases/ledger/summary-words.ts";
import { escapeMrkdwn } from "../alerts/alert-format.ts";

/**
 * Text budget of one list: each section stays under Slack's 3,000 characters, and all of them
 * together (hosts, people, stops, containers: 1,500 each; reclaim and do-not-renew: 1,100 each;
 * plus the fixed text) under the ~11,000 that `msg_blocks_too_long` allows.
 */
const SECTION_BUDGET = 1_500;
/** The budget of the two short lists (reclaim, do-not-renew). */
export const SHORT_BUDGET = 1_100;

/** How the summary message writes its values, in the reader's language. */
export interface SummaryMessageFormat {
  tr: Translator;
  maxRows: number;
  money(amount: number): string;
  /** The amount, or "no price" when unknown. */
  moneyOrUnknown(amount: number | null): string;
  hours(h: number): string;
  pct(p: number | null): string;
  date(ms: number): string;
  when(ms: number): string;
  period: string;
  /** `…and N more in the CSV`. */
  more(left: number): string;
  /** A person's display name (escaped), else the user ID. */
  person(user: string): string;
  /** A bold list title with its column note. */
  heading(title: string, note: string): string;
}

/** The summary message's value formats for one reader. */
export function summaryMessageFormat(
  tr: Translator,
  model: SummaryModel,
  options: SummaryMessageOptions,
): SummaryMessageFormat {
  const names = options.names ?? new Map<string, string>();
  const money = (amount: number) => tr.money(amount);
  return {
    tr,
    maxRows: options.maxRows ?? 10,
    money,
    moneyOrUnknown: (amount) => (amount === null ? tr.t("summary.noPrice") : money(amount)),
    hours: (h) => hoursIn(tr, h),
    pct: (p) => formatPct(p),
    date: (ms) => tr.t("summary.day", { at: ms }),
    when: (ms) => tr.t("summary.when", { at: ms }),
    period: tr.t("common.period", { from: model.period.fromMs, to: model.period.toMs }),
    more: (left) => tr.t("summary.more", { count: left }),
    person: (user) => escapeMrkdwn(names.get(user) ?? user),
    heading: (title, note) => tr.t("summary.heading", { title: `*${title}*`, note }),
  };
}

/** At most `maxRows` lines within the section budget, then `…and N more in the CSV`. */
export function summaryRows(
  lines: readonly string[],
  maxRows: number,
  more: (left: number) => string,
  budget = SECTION_BUDGET,
): string {
  const out: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const left = lines.length - i;
    const fits = used + line.length + 1 + more(left).length + 1 <= budget;
    if (i >= maxRows || !fits) {
      out.push(more(left));
      break;
    }
    out.push(line);
    used += line.length + 1;
  }
  return out.join("\n");
}
