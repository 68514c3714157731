import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createReaders } from "../../src/bot/readers.ts";
import { botWords } from "../../src/bot/views/renderers.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { summaryPrometheus } from "../../src/sources/summary-prometheus.ts";
import { createClaimStore } from "../../src/store/claim-store.ts";
import { createReclaimStore } from "../../src/store/reclaim-store.ts";
import { createSummaryStore } from "../../src/store/summary-store.ts";
import { buildSummary } from "../../src/usecases/ledger/build-summary.ts";
import { type HistorySeries, type RunningPrometheus, startPrometheus } from "../helpers/prometheus.ts";
import { shownText } from "../helpers/shown-blocks.ts";
import { LedgerRig } from "./ledger-rig.ts";

const H = 3_600_000;
const MIN = 60_000;
const T = Math.floor(Date.now() / H) * H - H;
const PERIOD = { fromMs: T - 14 * 24 * H, toMs: T };

/** One container of one pod: its CPU request and a constant CPU use, every minute of `[T − 10 h, T − 1 h]`. */
interface Pod {
  namespace: string;
  pod: string;
  container: string;
  cpuRequest: number;
  cpuRate: number;
}

/** The same workload name in both clusters, with different use; only cluster b runs the API server. */
const CLUSTER_A: Pod[] = [
  { namespace: "ml", pod: "trainer-7d9f8b6c5d-x2x4z", container: "main", cpuRequest: 8, cpuRate: 1 },
];
const CLUSTER_B: Pod[] = [
  { namespace: "ml", pod: "trainer-6b7c9d8f5d-q7r8s", container: "main", cpuRequest: 4, cpuRate: 0.5 },
  { namespace: "web", pod: "api-server-0", container: "api", cpuRequest: 2, cpuRate: 1.8 },
];

function* history(pods: Pod[]): Generator<HistorySeries> {
  const minutes: number[] = [];
  for (let atMs = T - 10 * H; atMs <= T - H; atMs += MIN) minutes.push(atMs);
  const labels = (pod: Pod) => ({ namespace: pod.namespace, pod: pod.pod, container: pod.container });
  for (const pod of pods)
    yield {
      name: "kube_pod_container_resource_requests",
      labels: { ...labels(pod), resource: "cpu", unit: "core" },
      points: minutes.map((atMs) => [atMs, pod.cpuRequest] as const),
    };
  for (const pod of pods)
    yield {
      name: "container_cpu_usage_seconds_total",
      labels: labels(pod),
      points: minutes.map((atMs) => [atMs, (pod.cpuRate * (atMs - minutes[0]!)) / 1000] as const),
    };
}

/** The summary's containers section as the channel reads it, in `language`, and its containers CSV. */
async function containersSection(
  rig: LedgerRig,
  language: "en" | "zh-CN",
): Promise<{ text: string; csv: string | undefined }> {
  const config = { ...rig.config, team: { ...rig.config.team, language } };
  const model = await buildSummary(
    {
      config,
      metrics: rig.metrics,
      rolledUpToMs: () => null,
      summaries: createSummaryStore(rig.db),
      claims: createClaimStore(rig.db),
      reclaims: createReclaimStore(rig.db),
      prometheus: summaryPrometheus(config),
      logger: silentLogger,
    },
    PERIOD,
  );
  const words = botWords(createReaders(config.team)).summaryWords;
  const text = shownText(
    words.summary(model, { teamName: "ml-infra", lateSinceMs: null, filesAttached: false }).blocks,
  );
  const title = language === "en" ? "*Containers*" : "*容器*";
  const from = text.indexOf(title);
  assert.ok(from >= 0, text);
  const csv = words.csv(model, "gpu-summary").find((file) => file.filename.endsWith("-containers.csv"));
  return { text: text.slice(from, text.indexOf("\n*", from + title.length)), csv: csv?.content };
}

describe("the summary's containers in several clusters, each cluster's engine asked", {
  timeout: 180_000,
}, () => {
  const dir = mkdtempSync(join(tmpdir(), "gw-summary-clusters-"));
  let a: RunningPrometheus;
  let b: RunningPrometheus;
  let hung: Server;
  let rig: LedgerRig;

  before(async () => {
    hung = createServer(() => {});
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
    [a, b] = await Promise.all([
      startPrometheus({ backfill: history(CLUSTER_A), timeoutMs: 170_000 }),
      startPrometheus({ backfill: history(CLUSTER_B), timeoutMs: 170_000 }),
    ]);
    const source = (cluster: string, url: string, timeout_seconds = 30) => ({
      kind: "prometheus",
      cluster,
      url,
      timeout_seconds,
      history_days: 0,
    });
    rig = new LedgerRig(
      join(dir, "gpu-warden.db"),
      {
        sources: [
          source("a", a.url),
          source("b", b.url),
          source("c", `http://127.0.0.1:${(hung.address() as AddressInfo).port}`, 1),
        ],
      },
      T,
    );
  });

  after(async () => {
    rig?.close();
    hung?.closeAllConnections();
    hung?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  test("every cluster's groups, named cluster/…; a cluster that hangs past its deadline is said, the others kept", async () => {
    const shown = await containersSection(rig, "en");
    const en = shown.text.split("\n");
    assert.equal(en[1], "3 container groups, 2 using under half of what they request.");
    assert.match(en[2]!, /^Prometheus of cluster c did not answer: .* within 1 s$/);
    assert.match(en[3]!, /^• a\/ml\/trainer\/main: CPU peak 1 of 8 cores \(1[23](\.\d)? %\) → request 1\.2$/);
    assert.match(
      en[4]!,
      /^• b\/ml\/trainer\/main: CPU peak 0\.5 of 4 cores \(1[23](\.\d)? %\) → request 0\.6$/,
    );
    assert.equal(en.length, 5, en.join("\n"));
    const csv = shown.csv!.trimEnd().split("\r\n");
    assert.match(csv[0]!, /^cluster,namespace,workload,container,pods,/);
    assert.deepEqual(
      csv.slice(1).map((line) => line.split(",").slice(0, 4).join(",")),
      ["a,ml,trainer,main", "b,ml,trainer,main", "b,web,api-server,api"],
    );

    const zh = (await containersSection(rig, "zh-CN")).text.split("\n");
    assert.equal(zh[1], "3 个容器组，其中 2 个的用量不到请求量的一半。");
    assert.match(zh[2]!, /^集群 c 的 Prometheus 没有响应：/);
    assert.match(zh[3]!, /^• a\/ml\/trainer\/main: CPU 峰值 1 \/ 8 核/);
    assert.match(zh[4]!, /^• b\/ml\/trainer\/main: CPU 峰值 0\.5 \/ 4 核/);
  });

  test("a cluster whose engine is down loses only its own groups", async () => {
    await b.stopServer();
    const en = (await containersSection(rig, "en")).text.split("\n");
    assert.equal(en[1], "1 container group, 1 using under half of what it requests.");
    assert.match(en[2]!, /^Prometheus of cluster b did not answer: .*connection refused/);
    assert.match(en[3]!, /^Prometheus of cluster c did not answer: /);
    assert.match(en[4]!, /^• a\/ml\/trainer\/main: CPU peak 1 of 8 cores/);
    assert.equal(en.length, 5, en.join("\n"));
  });
});
