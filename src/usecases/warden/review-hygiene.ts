import { hygieneFingerprint } from "../../checks/hygiene.ts";
import { DEFAULT_RUN_ADVICE } from "../../checks/run-advice.ts";
import type { Config } from "../../config/schema.ts";
import { type HygieneCheckRecord, type HygieneResult, hygieneKey } from "../../domain/hygiene.ts";
import type { Logger } from "../../shared/logger.ts";
import type { HygieneStore } from "../../store/hygiene-store.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import { summaryPeriod } from "../ledger/build-summary.ts";
import type { Notifier, WardenLookup } from "../ports.ts";
import { readRunAdvice } from "../queue/read-run-advice.ts";
import { type CheckHygieneDeps, checkHygiene } from "./check-hygiene.ts";
import type { HygieneWords } from "./hygiene-words.ts";

export interface ReviewHygieneDeps {
  check: CheckHygieneDeps;
  hygiene: HygieneStore;
  notifier: Notifier;
  warden: WardenLookup;
  hygieneWords: HygieneWords;
  logger: Logger;
}

/** A scheduled slot (the job runner's `JobSlot`). */
export interface HygieneSlot {
  atMs: number;
  commit(effect: () => void): boolean;
}

/** One run's results as the hygiene memory keeps them. */
export function hygieneRecords(results: readonly HygieneResult[]): HygieneCheckRecord[] {
  return results.map(({ host, check, outcome }) => {
    switch (outcome.status) {
      case "checked":
        return {
          host,
          check,
          status: "checked",
          items: outcome.findings.map((finding) => ({
            key: hygieneKey(finding),
            fingerprint: hygieneFingerprint(finding),
            item: { kind: "finding", finding },
          })),
        };
      case "not-applicable":
        return { host, check, status: "checked", items: [] };
      case "could-not-check":
        return {
          host,
          check,
          status: "unknown",
          items: [
            {
              key: `could-not-check:${check}`,
              fingerprint: outcome.why.cause,
              item: { kind: "could-not-check", why: outcome.why },
            },
          ],
        };
      default:
        return outcome satisfies never;
    }
  });
}

/**
 * The weekly hygiene run: every check on every host with shell access, recorded; what is new or
 * changed goes to the cost warden by DM, once (in the transaction that marks the slot done).
 * Without a warden the items wait for the next one, and for the summary.
 */
export async function reviewHygiene(deps: ReviewHygieneDeps, slot: HygieneSlot): Promise<{ shown: number }> {
  const results = await checkHygiene(deps.check, []);
  let shown = 0;
  slot.commit(() => {
    const nowMs = deps.check.clock.now();
    deps.hygiene.record(hygieneRecords(results), nowMs);
    const warden = deps.warden.current(nowMs);
    const fresh = deps.hygiene.unshown("warden");
    if (warden === null || fresh.length === 0) return;
    deps.notifier.send("chat.postMessage", {
      channel: warden,
      ...deps.hygieneWords.checklist(fresh, warden),
    });
    deps.hygiene.markShown("warden", fresh, nowMs);
    shown = fresh.length;
  });
  deps.logger.info({ hosts: new Set(results.map((r) => r.host)).size, shown }, "hygiene checked");
  return { shown };
}

/** The summary's hygiene and advice section: open items the summary has not shown, and the period's advice. */
export function postHygieneSection(
  deps: Pick<ReviewHygieneDeps, "hygiene" | "notifier" | "hygieneWords"> & {
    channel: string;
    config: Pick<Config, "team" | "costs" | "hosts" | "advice">;
    metrics: Pick<MetricsStore, "rollupsBetween">;
  },
  /** `atMs`: the summary's slot, the end of its period. */
  slot: HygieneSlot,
): number {
  const advice = readRunAdvice(deps, summaryPeriod(slot.atMs, deps.config.team.timezone));
  const hasAdvice = advice.spot.length + advice.valley.length + advice.mixedHosts.length > 0;
  let shown = 0;
  slot.commit(() => {
    const fresh = deps.hygiene.unshown("summary");
    if (fresh.length === 0 && !hasAdvice) return;
    const adviceInput = {
      advice,
      spotMaxHours: DEFAULT_RUN_ADVICE.spotMaxHours,
      spotDiscountPct: deps.config.advice.spot_discount_pct,
    };
    deps.notifier.send("chat.postMessage", {
      channel: deps.channel,
      ...deps.hygieneWords.summarySection(fresh, hasAdvice ? adviceInput : null),
    });
    deps.hygiene.markShown("summary", fresh, slot.atMs);
    shown = fresh.length;
  });
  return shown;
}
