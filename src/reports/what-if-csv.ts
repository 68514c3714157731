import type { WhatIfReport } from "../domain/what-if-report.ts";
import type { MessageId } from "../messages/catalog.ts";
import type { Translator } from "../messages/translator.ts";
import { toCsv } from "../shared/csv.ts";
import { fixed } from "./ledger-table.ts";

/** The CSV columns' ids, one row per stop a policy would have made. */
export const WHAT_IF_CSV_COLUMNS = [
  "whatIf.col.policy",
  "whatIf.col.host",
  "whatIf.col.stopAt",
  "whatIf.col.idleSince",
  "whatIf.col.backAt",
  "whatIf.col.offHours",
  "whatIf.col.capacityFreed",
  "whatIf.col.moneySaved",
  "whatIf.col.currency",
  "whatIf.col.falseStop",
  "whatIf.col.falseAt",
  "whatIf.col.owners",
] as const satisfies readonly MessageId[];

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The replay's stops as CSV (RFC 4180, `\r\n`), headers in `tr`'s language: instants in ISO 8601
 * UTC, hours to 3 decimals, money to 2; `would_be_false_stop` is the reason (`process`, `login`,
 * `work-soon`) or empty; owners joined with a space; unknown values empty.
 */
export function whatIfCsv(tr: Translator, report: WhatIfReport): string {
  return toCsv(
    WHAT_IF_CSV_COLUMNS.map((id) => tr.t(id)),
    report.policies.flatMap((policy) =>
      policy.stops.map((stop) => [
        policy.policy,
        stop.host,
        iso(stop.atMs),
        iso(stop.idleSinceMs),
        iso(stop.backAtMs),
        fixed(stop.offHours, 3),
        stop.capacityFreed === null ? null : fixed(stop.capacityFreed, 2),
        stop.moneySaved === null ? null : fixed(stop.moneySaved, 2),
        report.currency,
        stop.falseStop?.reason ?? null,
        iso(stop.falseStop?.atMs ?? null),
        stop.falseStop?.owners?.join(" ") ?? null,
      ]),
    ),
  );
}
