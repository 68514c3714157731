import type { GpuSample } from "../domain/metrics.ts";
import type { MetricsStore } from "../store/metrics-types.ts";

/**
 * A read-through cache of the store's recent GPU samples for the claims job, which reads up to
 * `keepMs` of samples per claim every minute: each call reads from the store only the cycles written
 * since the previous one. Older reads go to the store. The samples are the store's own rows.
 */
export function recentSamples(
  metrics: Pick<MetricsStore, "hosts" | "gpuSamplesSince" | "rollupsBetween">,
  keepMs: number,
): Pick<MetricsStore, "hosts" | "gpuSamplesSince" | "rollupsBetween"> {
  const byHost = new Map<string, { fromMs: number; readUpToMs: number; samples: GpuSample[] }>();
  return {
    hosts: () => metrics.hosts(),
    rollupsBetween: (fromMs, toMs, host) => metrics.rollupsBetween(fromMs, toMs, host),
    gpuSamplesSince(host, sinceMs) {
      let cached = byHost.get(host);
      if (cached === undefined || sinceMs < cached.fromMs) {
        const samples = metrics.gpuSamplesSince(host, sinceMs);
        cached = { fromMs: sinceMs, readUpToMs: samples.at(-1)?.atMs ?? sinceMs - 1, samples };
        byHost.set(host, cached);
      } else {
        const fresh = metrics.gpuSamplesSince(host, cached.readUpToMs + 1);
        if (fresh.length > 0) {
          cached.samples.push(...fresh);
          cached.readUpToMs = fresh.at(-1)!.atMs;
        }
      }
      const lastMs = cached.readUpToMs;
      if (cached.samples.length > 0 && cached.samples[0]!.atMs < lastMs - keepMs) {
        const keep = cached.samples.findIndex((sample) => sample.atMs >= lastMs - keepMs);
        cached.samples.splice(0, keep);
        cached.fromMs = lastMs - keepMs;
      }
      return cached.samples.slice(firstAtOrAfter(cached.samples, sinceMs));
    },
  };
}

/** The index of the first sample at or after `ms` (samples in time order), by bisection. */
function firstAtOrAfter(samples: readonly GpuSample[], ms: number): number {
  let lo = 0;
  let hi = samples.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (samples[mid]!.atMs < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
