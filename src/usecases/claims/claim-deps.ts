import type { ClaimRules } from "../../checks/claim-due.ts";
import type { IdlePolicy } from "../../checks/idle-policy.ts";
import type { Config } from "../../config/schema.ts";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../../shared/clock.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import type { HostActionDeps } from "../authorise.ts";
import type { Notifier } from "../ports.ts";
import type { ClaimWords } from "./claim-words.ts";

/** What the claim use-cases need: the host actions' deps, plus DMs, the stored GPUs and their samples. */
export interface ClaimDeps extends HostActionDeps {
  /** DMs (reminders, nudges, notices, the waitlist) and Home tab publishes go through it. */
  notifier: Notifier;
  /** The fleet's GPUs with their model names, and recent samples for "claimed but idle". */
  metrics: Pick<MetricsStore, "hosts" | "gpuSamplesSince" | "rollupsBetween" | "rollupHours">;
  idlePolicy: IdlePolicy;
  /** The claim DMs' and the Home tab's words (the bot's views: `claimWords`). */
  claimWords: ClaimWords;
}

/** The claim rules from `claims.*` in the config, in milliseconds. */
export function claimRulesOf(config: Pick<Config, "claims">): ClaimRules {
  const { claims } = config;
  return {
    defaultMs: claims.default_hours * HOUR_MS,
    maxMs: claims.max_days * DAY_MS,
    reminderMs: claims.reminder_minutes * MINUTE_MS,
    nudgeMs: claims.claim_idle_nudge_minutes * MINUTE_MS,
    releaseMs:
      claims.claim_idle_release_minutes === null ? null : claims.claim_idle_release_minutes * MINUTE_MS,
  };
}
