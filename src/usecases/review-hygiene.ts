import { hygieneFingerprint } from "../checks/hygiene.ts";
import { type HygieneCheckRecord, type HygieneResult, hygieneKey } from "../domain/hygiene.ts";
import type { Logger } from "../shared/logger.ts";
import type { HygieneStore } from "../store/hygiene-store.ts";
import { type CheckHygieneDeps, checkHygiene } from "./check-hygiene.ts";
import type { HygieneWords } from "./hygiene-words.ts";
import type { Notifier, WardenLookup } from "./ports.ts";

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

/** The summary's hygiene section: open items the summary has not shown, posted once after it. */
export function postHygieneSection(
  deps: Pick<ReviewHygieneDeps, "hygiene" | "notifier" | "hygieneWords"> & { channel: string },
  slot: HygieneSlot,
): number {
  let shown = 0;
  slot.commit(() => {
    const fresh = deps.hygiene.unshown("summary");
    if (fresh.length === 0) return;
    deps.notifier.send("chat.postMessage", {
      channel: deps.channel,
      ...deps.hygieneWords.summarySection(fresh),
    });
    deps.hygiene.markShown("summary", fresh, slot.atMs);
    shown = fresh.length;
  });
  return shown;
}
