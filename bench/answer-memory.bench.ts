import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, report, round } from "./report.ts";

// Memory of reading one instant-vector answer for 80,000 GPUs (10,000 hosts × 8, dcgm-exporter's label
// set): the client as it is, reading the body as it arrives and reducing each series at once
// (`streamed`), against reading it whole with `JSON.parse` as it did before (`whole`, the baseline).
// The answer comes from a local HTTP server in this process, in 64 KiB writes; each read runs in a
// fresh child process (interleaved, ROUNDS each) so that its peak RSS is that read's alone.
// `value` is the median peak RSS growth of the streamed read, MB.
const HOSTS = 10_000;
const GPUS_PER_HOST = 8;
const ROUNDS = 3;
const here = dirname(fileURLToPath(import.meta.url));

function syntheticAnswer(): Buffer {
  const parts: string[] = [];
  for (let host = 0; host < HOSTS; host++) {
    for (let gpu = 0; gpu < GPUS_PER_HOST; gpu++) {
      const metric = {
        DCGM_FI_DRIVER_VERSION: "580.105.08",
        Hostname: `gpu-node-${host}`,
        UUID: `GPU-${(host * 8 + gpu).toString(16).padStart(8, "0")}-79c8-fedd-8899-07539c7f868a`,
        __name__: "DCGM_FI_DEV_GPU_UTIL",
        cluster: `cluster-${host % 4}`,
        container: "nvidia-dcgm-exporter",
        device: `nvidia${gpu}`,
        endpoint: "gpu-metrics",
        gpu: String(gpu),
        instance: `10.${host >> 16}.${(host >> 8) & 255}.${host & 255}:9400`,
        job: "nvidia-dcgm-exporter",
        modelName: "NVIDIA H100 80GB HBM3",
        namespace: "gpu-operator",
        pci_bus_id: `00000000:${(0x18 + gpu * 16).toString(16)}:00.0`,
        pod: `nvidia-dcgm-exporter-${host.toString(36)}`,
        service: "nvidia-dcgm-exporter",
      };
      parts.push(JSON.stringify({ metric, value: [1773114089.444, String((host + gpu) % 101)] }));
    }
  }
  return Buffer.from(`{"status":"success","data":{"resultType":"vector","result":[${parts.join(",")}]}}`);
}

interface ChildResult {
  mode: string;
  series: number;
  ms: number;
  peak_rss_mb: number;
  peak_heap_mb: number;
  kept_heap_mb: number;
}

const answer = syntheticAnswer();
const server = createServer((req, res) => {
  req.resume();
  req.on("end", async () => {
    res.writeHead(200, { "content-type": "application/json" });
    for (let at = 0; at < answer.length; at += 65_536) {
      if (!res.write(answer.subarray(at, at + 65_536))) await once(res, "drain");
    }
    res.end();
  });
});
server.listen(0, "127.0.0.1");
await once(server, "listening");
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

const runs: Record<"whole" | "streamed", ChildResult[]> = { whole: [], streamed: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ["whole", "streamed"] as const) {
      const child = await runChild(mode);
      runs[mode].push(child);
    }
  }
} finally {
  server.close();
}

async function runChild(mode: "whole" | "streamed"): Promise<ChildResult> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--expose-gc", join(here, "answer-memory-child.ts"), mode, url],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`answer-memory child (${mode}) exited with ${code}`);
  return JSON.parse(out.trim().split("\n").at(-1)!) as ChildResult;
}

const med = (mode: "whole" | "streamed", field: keyof Omit<ChildResult, "mode">) =>
  round(median(runs[mode].map((run) => run[field] as number)), 1);
const streamedRss = med("streamed", "peak_rss_mb");
const wholeRss = med("whole", "peak_rss_mb");
report({
  name: "answer-memory",
  value: streamedRss,
  unit: "MB peak RSS growth",
  baseline: wholeRss,
  ratio: round(streamedRss / wholeRss, 2),
  gpus: HOSTS * GPUS_PER_HOST,
  answer_mb: round(answer.length / 1024 / 1024, 1),
  series: runs.streamed[0]!.series,
  streamed_peak_heap_mb: med("streamed", "peak_heap_mb"),
  whole_peak_heap_mb: med("whole", "peak_heap_mb"),
  kept_heap_mb: med("streamed", "kept_heap_mb"),
  streamed_ms: med("streamed", "ms"),
  whole_ms: med("whole", "ms"),
  runs,
});
