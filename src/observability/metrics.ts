import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** The bot's own Prometheus metrics, served on `GET /metrics`. */
export interface BotMetrics {
  registry: Registry;
  pollDuration: Histogram<"result">;
  samplesWritten: Counter;
  sourceFailures: Counter<"host" | "source" | "cause">;
  hostsObserved: Gauge<"state">;
  slowCycles: Counter;
  outboxPending: Gauge;
  outboxOldestAge: Gauge;
  /** Slack messages set aside for good (Slack refused them: `channel_not_found`, `invalid_blocks`…). */
  slackSetAside: Counter<"method" | "reason">;
}

/** Values read when `/metrics` is scraped. */
export interface MetricReadings {
  /** Slack calls queued in the store's outbox and not yet delivered. */
  outboxPending: () => number;
  /** How long the oldest undelivered Slack call has waited, in ms; 0 when none waits. */
  outboxOldestAgeMs?: () => number;
}

export function createMetrics(readings: MetricReadings = { outboxPending: () => 0 }): BotMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "gpu_warden_" });
  dropMisnamedGauges(registry);
  return {
    registry,
    pollDuration: new Histogram({
      name: "gpu_warden_poll_duration_seconds",
      help: "Duration of one poll cycle (all sources, store write included).",
      labelNames: ["result"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    samplesWritten: new Counter({
      name: "gpu_warden_samples_written_total",
      help: "GPU samples written to the store.",
      registers: [registry],
    }),
    sourceFailures: new Counter({
      name: "gpu_warden_source_failures_total",
      help: "Failed host observations, by host, source kind and cause.",
      labelNames: ["host", "source", "cause"],
      registers: [registry],
    }),
    hostsObserved: new Gauge({
      name: "gpu_warden_hosts",
      help: "Hosts in the last poll cycle, by state (ok or unknown).",
      labelNames: ["state"],
      registers: [registry],
    }),
    slowCycles: new Counter({
      name: "gpu_warden_poll_slow_cycles_total",
      help: "Poll slots skipped because the previous cycle was still running.",
      registers: [registry],
    }),
    outboxPending: new Gauge({
      name: "gpu_warden_outbox_pending",
      help: "Slack calls waiting in the outbox (not yet delivered).",
      registers: [registry],
      collect() {
        this.set(readings.outboxPending());
      },
    }),
    outboxOldestAge: new Gauge({
      name: "gpu_warden_outbox_oldest_age_seconds",
      help: "How long the oldest Slack call waiting in the outbox has waited (0 when none waits).",
      registers: [registry],
      collect() {
        this.set((readings.outboxOldestAgeMs?.() ?? 0) / 1000);
      },
    }),
    slackSetAside: new Counter({
      name: "gpu_warden_slack_messages_set_aside_total",
      help: "Slack messages the outbox set aside for good, by Web API method and Slack's reason.",
      labelNames: ["method", "reason"],
      registers: [registry],
    }),
  };
}

/**
 * NOTE: prom-client's default metrics include gauges named `…_total` (`nodejs_active_handles_total`
 * and the like), which `promtool check metrics` rejects: only counters may end in `_total`. The
 * per-type gauges without the suffix carry the same information, so the misnamed ones are dropped.
 */
function dropMisnamedGauges(registry: Registry): void {
  for (const metric of registry.getMetricsAsArray()) {
    if (metric.name.endsWith("_total") && !(metric instanceof Counter))
      registry.removeSingleMetric(metric.name);
  }
}
