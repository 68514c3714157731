import { hostname } from "node:os";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { BotDeps } from "../bot/bot-deps.ts";
import { budgetNoticeText } from "../bot/views/ledger/budget-notice.ts";
import type { botWords } from "../bot/views/renderers.ts";
import { hygieneWords } from "../bot/views/warden/hygiene-messages.ts";
import { engineRawRetentionDays, rawRetentionDays } from "../config/raw-retention.ts";
import type { Config } from "../config/schema.ts";
import { budgetJob } from "../jobs/budget-job.ts";
import { claimsJobs } from "../jobs/claims-jobs.ts";
import { hygieneJob, hygieneSummaryJob } from "../jobs/hygiene-jobs.ts";
import { ledgerJob } from "../jobs/ledger-job.ts";
import { reclaimReviewJob } from "../jobs/reclaim-review-job.ts";
import type { Job } from "../jobs/schedule-jobs.ts";
import { summaryJob } from "../jobs/summary-job.ts";
import { wardenAnnounceJob } from "../jobs/warden-announce-job.ts";
import { DAY_MS } from "../shared/clock.ts";
import { cronForInterval } from "../shared/cron-for-interval.ts";
import { summaryPrometheus } from "../sources/summary-prometheus.ts";
import { createHygieneStore } from "../store/hygiene-store.ts";
import { createSummaryStore } from "../store/summary-store.ts";
import { endInterruptedStops } from "../usecases/power/interrupted-stops.ts";
import type { BotStores } from "./bot-stores.ts";
import type { Delivery } from "./create-delivery.ts";
import { hygieneDeps } from "./hygiene-once.ts";

/**
 * Every job of the running bot: poll, rollup, retention, ledger, warden, summary, reclaim review,
 * claims, interrupted stops.
 */
export function botJobs(
  poll: () => Promise<void>,
  deps: { botDeps: BotDeps; stores: BotStores; delivery: Delivery; words: ReturnType<typeof botWords> },
): Job[] {
  const { botDeps, stores, delivery, words } = deps;
  const { config, clock, logger, warden } = botDeps;
  const { store, state, reclaims, costStores, costWarden } = stores;
  const { notifier, people } = delivery;
  const projectReport = {
    ...costWarden.costLedger,
    config,
    claims: state.claims,
    queue: state.queue,
    workloads: state.workloads,
  };
  return [
    ...storeJobs(config, poll, stores, botDeps.clock),
    ledgerJob(costWarden.costLedger),
    wardenAnnounceJob(botDeps, projectReport),
    summaryJob({
      config,
      metrics: store,
      rolledUpToMs: costStores.rolledUpToMs,
      rollUp: costWarden.costLedger.rollUp,
      summaries: createSummaryStore(stores.db),
      claims: state.claims,
      reclaims,
      prometheus: summaryPrometheus(config),
      logger,
      notifier,
      warden,
      summaryWords: words.summaryWords,
      people,
      projectReport,
      procurement: { config, clock, metrics: store, procurement: state.procurement },
    }),
    reclaimReviewJob({
      config,
      metrics: store,
      reclaims,
      state,
      notifier,
      warden,
      clock,
      logger,
      reclaimWords: words.reclaimWords,
    }),
    ...claimsJobs(botDeps),
    budgetJob(
      {
        ...costWarden.costLedger,
        config,
        claims: state.claims,
        queue: state.queue,
        workloads: state.workloads,
        budgetNotices: state.budgetNotices,
        notifier,
        warden,
        transaction: state.transaction,
      },
      (notice, user) => budgetNoticeText(botDeps.readers.person(user), notice),
    ),
    interruptedStopsJob(botDeps),
    ...hygieneJobs(botDeps, stores, notifier),
  ];
}

/** The weekly host hygiene run and the summary's hygiene section, over the sources' ssh and local access. */
function hygieneJobs(
  botDeps: BotDeps,
  stores: Pick<BotStores, "db" | "store">,
  notifier: Delivery["notifier"],
): Job[] {
  const { config, clock, logger, warden, readers } = botDeps;
  const hygiene = createHygieneStore(stores.db);
  const words = hygieneWords(readers);
  return [
    hygieneJob({
      config,
      check: hygieneDeps(config, hostname(), clock),
      hygiene,
      notifier,
      warden,
      hygieneWords: words,
      logger,
    }),
    hygieneSummaryJob({
      config,
      metrics: stores.store,
      hygiene,
      notifier,
      hygieneWords: words,
      channel: config.slack.channel,
    }),
  ];
}

/** Stop runs a dead process left `running`: ended as interrupted at start and once a minute after. */
function interruptedStopsJob(deps: BotDeps): Job {
  return {
    name: "interrupted-stops",
    schedule: "40 * * * * *",
    timezone: "UTC",
    runAtStart: true,
    run: () => {
      endInterruptedStops(deps);
    },
  };
}

function storeJobs(
  config: Config,
  poll: () => Promise<void>,
  stores: Pick<BotStores, "store" | "state">,
  clock: BotDeps["clock"],
): Job[] {
  const { store, state } = stores;
  return [
    {
      name: "poll",
      schedule: cronForInterval(config.poll.interval_seconds) ?? "0 * * * * *",
      timezone: "UTC",
      runAtStart: true,
      run: poll,
    },
    {
      name: "rollup",
      schedule: "30 5 * * * *",
      timezone: "UTC",
      runAtStart: true,
      // NOTE: a restart's catch-up (the hours a look-back or a long stop left) runs on the same event
      // loop as the first poll, which is what people wait for: after it, not beside it (at 80,000 GPUs
      // after a 14-day look-back, 6 s of rolling up that made the first poll 9 s instead of ~3).
      startAfter: "poll",
      run: async () => {
        // NOTE: bounded batches with a turn of the event loop between them: a long catch-up
        // must not hold up Slack acks.
        while (!store.rollup(clock.now(), config.policy.idle_util_pct, 24).complete) await yieldToLoop();
        const [raw, rollups, engine] = retention(config);
        while (!store.prune(clock.now(), raw, rollups, 500, engine).complete) await yieldToLoop();
      },
    },
    {
      name: "retention",
      schedule: "0 17 3 * * *",
      timezone: "UTC",
      run: async () => {
        const [raw, rollups, engine] = retention(config);
        while (!store.prune(clock.now(), raw, rollups, 500, engine).complete) await yieldToLoop();
        state.deliveries.prune(clock.now() - DAY_MS);
      },
    },
  ];
}

/** Raw retention of local hosts, rollup retention, raw retention of engine hosts: days. */
function retention(config: Config): [number, number, number] {
  return [rawRetentionDays(config), config.store.rollup_retention_days, engineRawRetentionDays(config)];
}
