import { parsePromValue } from "../src/sources/prom-value.ts";
import { createPrometheusClient, type PromVectorSample } from "../src/sources/prometheus-api.ts";

// One read of the bench's synthetic answer, in a fresh process so its peak RSS is this read's alone:
// `streamed` is the client as it is (each series reduced as it arrives); `whole` is what the client
// did before: the body as one string, `JSON.parse`, then the same reduction. Prints one JSON line.
const [mode, url] = process.argv.slice(2) as ["whole" | "streamed", string];
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mb = (bytes: number) => bytes / 1024 / 1024;

/** The client before streaming, kept here as the baseline: whole text, whole tree, then reduced. */
async function readWhole(onProgress: () => void): Promise<PromVectorSample[]> {
  const response = await fetch(new URL("api/v1/query", url), { method: "POST", body: "query=up" });
  const text = await response.text();
  onProgress();
  const json = JSON.parse(text) as {
    data: { result: { metric: Record<string, string>; value: [number, string] }[] };
  };
  onProgress();
  const series = json.data.result.map((item) => ({
    labels: item.metric,
    atMs: Math.round(item.value[0] * 1000),
    value: parsePromValue(item.value[1]) ?? Number.NaN,
  }));
  onProgress();
  return series;
}

async function readStreamed(onProgress: () => void): Promise<PromVectorSample[]> {
  const counting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const body = response.body!.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          onProgress();
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const client = createPrometheusClient({ url, timeoutMs: 120_000, fetch: counting });
  return client.queryVector("up");
}

gc();
const startRss = process.memoryUsage().rss;
const startHeap = process.memoryUsage().heapUsed;
let peakHeap = startHeap;
const onProgress = () => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
};
const startedAt = performance.now();
const series = await (mode === "whole" ? readWhole : readStreamed)(onProgress);
const ms = performance.now() - startedAt;
onProgress();
gc();
const keptHeap = process.memoryUsage().heapUsed;
const peakRss = process.resourceUsage().maxRSS * 1024;
process.stdout.write(
  `${JSON.stringify({
    mode,
    series: series.length,
    ms,
    peak_rss_mb: mb(peakRss - startRss),
    peak_heap_mb: mb(peakHeap - startHeap),
    kept_heap_mb: mb(keptHeap - startHeap),
  })}\n`,
);
