import type { HostObservation } from "../domain/observation.ts";
import type { HistoryRequest } from "../domain/source.ts";
import { historyObservations, MAX_STEPS_PER_QUERY, rangeChunks, readRange } from "./prometheus-history.ts";
import { hostFromLabel } from "./prometheus-hosts.ts";
import type { PromState } from "./prometheus-state.ts";

/**
 * The hosts whose GPU 0 has samples in `[fromMs, toMs]`, from the series API (the index only, as the
 * poll's `seen` query): one series per host, however long the span.
 */
export async function hostsIn(
  s: PromState,
  span: { fromMs: number; toMs: number },
  signal: AbortSignal,
): Promise<string[]> {
  const labels = await s.historyClient.series(
    s.queries.seen.selector,
    { startMs: span.fromMs, endMs: span.toMs },
    { signal },
  );
  const hosts = new Set<string>();
  for (const set of labels) {
    const raw = set[s.config.host_label];
    if (raw) hosts.add(hostFromLabel(raw));
  }
  return [...hosts].sort();
}

/**
 * Utilisation, memory (with the Kubernetes workloads on each GPU) and power of the given hosts at each
 * step: four range queries per 10,000 steps, read one chunk after the other; it changes no counter of
 * the source's. Without the heartbeat check: a sample counts at a step within the server's lookback delta.
 */
export async function readingsHistory(
  s: PromState,
  hosts: readonly string[],
  request: HistoryRequest,
  signal: AbortSignal,
): Promise<HostObservation[]> {
  if (hosts.length === 0) return [];
  const stepSeconds = Math.max(1, Math.round(request.stepMs / 1000));
  const queries = s.queries.readingsOf(hosts);
  const fields = ["util", "grActive", "fbUsed", "power"] as const;
  const out: HostObservation[] = [];
  for (const chunk of rangeChunks(request.fromMs, request.toMs, stepSeconds * 1000, MAX_STEPS_PER_QUERY)) {
    const answers = await Promise.all(
      fields.map(async (field) => ({
        field,
        series: await readRange(s, queries[field], chunk, stepSeconds, signal),
      })),
    );
    for (const observation of historyObservations(answers, s.config.host_label)) out.push(observation);
  }
  return out;
}
