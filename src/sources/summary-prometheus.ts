import type { Config } from "../config/schema.ts";
import { createPrometheusClient, type PrometheusClient } from "./prometheus-api.ts";

/** The client for the first Prometheus source that queries containers; `null` when there is none. */
export function summaryPrometheus(config: Pick<Config, "sources">): PrometheusClient | null {
  for (const source of config.sources) {
    if (source.kind === "prometheus" && source.containers) {
      return createPrometheusClient({ url: source.url, timeoutMs: source.timeout_seconds * 1000 });
    }
  }
  return null;
}
