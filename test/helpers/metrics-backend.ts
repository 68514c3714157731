import { type RunningPrometheus, type StartPrometheusOptions, startPrometheus } from "./prometheus.ts";
import { startVictoriaMetrics } from "./victoria-metrics.ts";

/** The Prometheus-compatible engines the source is tested against. */
export const METRICS_BACKENDS = ["prometheus", "victoriametrics"] as const;
export type MetricsBackend = (typeof METRICS_BACKENDS)[number];

/** Starts one engine on 127.0.0.1 with history and a live exporter, the same options for both. */
export function startMetricsBackend(
  backend: MetricsBackend,
  options: StartPrometheusOptions = {},
): Promise<RunningPrometheus> {
  return backend === "prometheus" ? startPrometheus(options) : startVictoriaMetrics(options);
}
