import type { Config } from "../config/schema.ts";
import { clustersNamed } from "./create-sources.ts";
import { createPrometheusClient, type PrometheusClient } from "./prometheus-api.ts";

/** One Prometheus-compatible source the container section asks, with its own deadline. */
export interface ContainerSource {
  /** The source's cluster when hosts are named `cluster/host`; `null` with one cluster. */
  cluster: string | null;
  /** Its queries time out after the source's `timeout_seconds`. */
  client: PrometheusClient;
}

/** Every Prometheus source that queries containers, in config order; empty when there is none. */
export function summaryPrometheus(config: Pick<Config, "sources">): ContainerSource[] {
  const named = clustersNamed(config.sources);
  const out: ContainerSource[] = [];
  for (const source of config.sources) {
    if (source.kind !== "prometheus" || !source.containers) continue;
    out.push({
      cluster: named ? (source.cluster ?? null) : null,
      client: createPrometheusClient({
        url: source.url,
        timeoutMs: source.timeout_seconds * 1000,
        compressed: source.compress_answers,
      }),
    });
  }
  return out;
}
