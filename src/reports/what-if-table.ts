import { WOULD_BE_FALSE_STOP_HOURS } from "../checks/what-if-replay.ts";
import type { WhatIfPolicyReport, WhatIfReport, WhatIfStop } from "../domain/what-if-report.ts";
import type { Translator } from "../messages/translator.ts";
import { formatLocal } from "../shared/time.ts";
import { alignedRows, fixed } from "./ledger-table.ts";

/**
 * `gpu-warden what-if`'s table for a terminal, in `tr`'s language: per policy its stops, hours off,
 * capacity freed, money saved and would-be false stops; then each policy's stops; then each
 * would-be false stop with its host, time and owner.
 */
export function whatIfTable(tr: Translator, report: WhatIfReport): string {
  const zone = report.timezone;
  const at = (ms: number) => formatLocal(ms, zone);
  if (report.fromMs === null || report.toMs === null)
    return `${tr.t("whatIf.none", { since: at(report.askedFromMs) })}\n`;
  const { currency } = report;
  const out = [tr.t("whatIf.title", { from: at(report.fromMs), to: at(report.toMs), zone, currency })];
  if (report.fromMs - report.askedFromMs > 60 * 60_000)
    out.push(tr.t("whatIf.shorter", { from: at(report.fromMs) }));
  out.push(...historyLines(tr, report));
  out.push("", ...summaryRows(tr, report), "", tr.t("whatIf.seam"));
  for (const policy of report.policies) out.push("", ...stopLines(tr, policy, at));
  const falseStops = report.policies
    .flatMap((policy) => policy.stops.map((stop) => ({ policy, stop })))
    .filter(({ stop }) => stop.falseStop !== null);
  if (falseStops.length > 0) {
    out.push("", tr.t("whatIf.falseStops.title", { hours: WOULD_BE_FALSE_STOP_HOURS }));
    for (const { policy, stop } of falseStops) out.push(`  ${falseStopLine(tr, policy.policy, stop, at)}`);
  }
  const unpriced = [...new Set(report.policies.flatMap((policy) => policy.unpricedHosts))];
  if (unpriced.length > 0) out.push("", tr.t("whatIf.unpriced", { hosts: unpriced.join(", ") }));
  return `${out.join("\n")}\n`;
}

/** Where the hosts' history came from, and what an engine's history cannot show. */
function historyLines(tr: Translator, report: WhatIfReport): string[] {
  const { engineHosts, engineStepMs, storeHosts, engineFailures } = report.history;
  const lines: string[] = [];
  if (engineHosts > 0)
    lines.push(tr.t("whatIf.fromEngine", { hosts: engineHosts, seconds: (engineStepMs ?? 0) / 1000 }));
  if (engineHosts > 0 || engineFailures.length > 0)
    lines.push(tr.t("whatIf.fromStore", { hosts: storeHosts }));
  for (const error of engineFailures) lines.push(tr.t("whatIf.engineFailed", { error }));
  return lines;
}

function summaryRows(tr: Translator, report: WhatIfReport): string[] {
  const { currency } = report;
  return alignedRows([
    [
      tr.t("whatIf.header.policy"),
      tr.t("whatIf.header.stops"),
      tr.t("whatIf.header.offHours"),
      tr.t("whatIf.header.capacity", { currency }),
      tr.t("whatIf.header.saved", { currency }),
      tr.t("whatIf.header.falseStops"),
    ],
    ...report.policies.map((p) => [
      p.policy,
      String(p.stops.length),
      fixed(p.offHours, 1),
      fixed(p.capacityFreed, 2),
      fixed(p.moneySaved, 2),
      String(p.falseStops),
    ]),
  ]);
}

function stopLines(tr: Translator, policy: WhatIfPolicyReport, at: (ms: number) => string): string[] {
  return [
    tr.t("whatIf.stopsOf", { policy: policy.policy }),
    ...policy.stops.map(
      (stop) =>
        `  ${tr.t("whatIf.stopLine", {
          host: stop.host,
          at: at(stop.atMs),
          back: stop.backAtMs === null ? tr.t("whatIf.notBack") : at(stop.backAtMs),
          hours: fixed(stop.offHours, 1),
          saved: stop.moneySaved === null ? "—" : fixed(stop.moneySaved, 2),
        })}`,
    ),
  ];
}

/** One would-be false stop: policy, host, time, what it hit and whose it was. */
export function falseStopLine(
  tr: Translator,
  policy: string,
  stop: WhatIfStop,
  at: (ms: number) => string,
): string {
  const hit = stop.falseStop!;
  return tr.t("whatIf.falseStop", {
    policy,
    host: stop.host,
    at: at(stop.atMs),
    reason: hit.reason,
    when: at(hit.atMs),
    owner: hit.owners === null ? tr.t("whatIf.ownerUnknown") : hit.owners.join(", "),
  });
}
