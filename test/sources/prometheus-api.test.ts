import assert from "node:assert/strict";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { gzipSync } from "node:zlib";
import {
  createPrometheusClient,
  PrometheusError,
  type PromVectorSample,
  parseQueryResponse,
} from "../../src/sources/prometheus-api.ts";
import { FIXTURES_DIR } from "../helpers/fixtures.ts";

const fixtures = `${FIXTURES_DIR}/prometheus-api/`;
const read = (file: string) => readFileSync(`${fixtures}${file}`, "utf8");
const ok = (file: string) => parseQueryResponse(200, "application/json", read(file));

function vector(file: string): PromVectorSample[] {
  const result = ok(file);
  assert.equal(result.data.resultType, "vector");
  return result.data.resultType === "vector" ? result.data.series : [];
}

function byHostGpu(series: PromVectorSample[]): Map<string, PromVectorSample> {
  return new Map(series.map((sample) => [`${sample.labels.Hostname}/${sample.labels.gpu}`, sample]));
}

describe("parseQueryResponse over every prometheus-api fixture", () => {
  test("every file is covered below", () => {
    assert.deepEqual(readdirSync(fixtures).sort(), [
      "error-422-execution-duplicate-series__gmp__opencost-docs.json",
      "query-vector-compact__DCGM_FI_DEV_GPU_TEMP__L40S__cncf-upcloud.json",
      "query-vector-empty-result__cncf-kops.json",
      "query-vector-native-histogram__prometheus-openapi-example.json",
      "query-vector__DCGM_FI_DEV_FB_USED__16xH100-2nodes__aicr.json",
      "query-vector__DCGM_FI_DEV_GPU_UTIL__16xH100-2nodes__aicr.json",
      "query-vector__DCGM_FI_DEV_POWER_USAGE__16xH100-2nodes__aicr.json",
      "query-vector__up__prometheus-docs-example.json",
      "query-vector__victoriametrics-isPartial-stats-int-timestamp__T4__cncf-ericsson.json",
      "query_range-matrix__up__prometheus-docs-example.json",
    ]);
  });

  test("GPU_UTIL: 16 H100 series on two nodes, all 0, with the workload labels on gpu-node-1/0", () => {
    const series = vector("query-vector__DCGM_FI_DEV_GPU_UTIL__16xH100-2nodes__aicr.json");
    assert.equal(series.length, 16);
    assert.ok(series.every((sample) => sample.value === 0 && sample.atMs === 1773114089184));
    const gpu0 = byHostGpu(series).get("gpu-node-1/0")!;
    assert.equal(gpu0.labels.pod, "vllm-agg-0-vllmdecodeworker-s65j5");
    assert.equal(gpu0.labels.container, "main");
    assert.equal(gpu0.labels.UUID, "GPU-c4529c8d-69c4-b61d-e0bc-7b2460096005");
    assert.equal(byHostGpu(series).get("gpu-node-2/3")!.labels.pod, "nvidia-dcgm-exporter-g2fjs");
    assert.equal(new Set(series.map((sample) => sample.labels.Hostname)).size, 2);
  });

  test("FB_USED: 74166 MiB held on gpu-node-1/0 while utilisation is 0", () => {
    const series = vector("query-vector__DCGM_FI_DEV_FB_USED__16xH100-2nodes__aicr.json");
    assert.equal(series.length, 16);
    const map = byHostGpu(series);
    assert.equal(map.get("gpu-node-1/0")!.value, 74166);
    assert.equal(map.get("gpu-node-1/0")!.atMs, 1773114089444);
    assert.equal(series.filter((sample) => sample.value === 0).length, 15);
  });

  test("POWER_USAGE: float strings", () => {
    const map = byHostGpu(vector("query-vector__DCGM_FI_DEV_POWER_USAGE__16xH100-2nodes__aicr.json"));
    assert.equal(map.size, 16);
    assert.equal(map.get("gpu-node-1/0")!.value, 113.611);
    assert.equal(map.get("gpu-node-1/1")!.value, 68.347);
    assert.equal(map.get("gpu-node-2/2")!.value, 68.61);
    assert.equal(map.get("gpu-node-2/7")!.value, 69.523);
  });

  test("compact single-line answer", () => {
    const [temp] = vector("query-vector-compact__DCGM_FI_DEV_GPU_TEMP__L40S__cncf-upcloud.json");
    assert.equal(temp!.value, 32);
    assert.equal(temp!.atMs, 1775721747082);
    assert.equal(temp!.labels.modelName, "NVIDIA L40S");
    assert.equal(temp!.labels.instance, "192.168.1.253:9400");
  });

  test("VictoriaMetrics: isPartial, stats and an integer timestamp", () => {
    const result = ok("query-vector__victoriametrics-isPartial-stats-int-timestamp__T4__cncf-ericsson.json");
    assert.equal(result.partial, false);
    assert.equal(result.data.resultType, "vector");
    if (result.data.resultType !== "vector") return;
    assert.equal(result.data.series.length, 1);
    assert.equal(result.data.series[0]!.atMs, 1772536457000);
    assert.equal(result.data.series[0]!.value, 0);
    assert.equal(result.data.series[0]!.labels.nodename, "cp-bm14r7");
  });

  test("empty result", () => {
    assert.deepEqual(ok("query-vector-empty-result__cncf-kops.json"), {
      data: { resultType: "vector", series: [] },
      skippedHistograms: 0,
      warnings: [],
      partial: false,
    });
  });

  test("native histogram results are skipped and counted", () => {
    const result = ok("query-vector-native-histogram__prometheus-openapi-example.json");
    assert.deepEqual(result.data, { resultType: "vector", series: [] });
    assert.equal(result.skippedHistograms, 1);
  });

  test("documented instant vector of up", () => {
    const series = vector("query-vector__up__prometheus-docs-example.json");
    assert.deepEqual(
      series.map((sample) => [sample.labels.job, sample.labels.instance, sample.value, sample.atMs]),
      [
        ["prometheus", "localhost:9090", 1, 1435781451781],
        ["node", "localhost:9100", 0, 1435781451781],
      ],
    );
  });

  test("documented range matrix", () => {
    const result = ok("query_range-matrix__up__prometheus-docs-example.json");
    assert.equal(result.data.resultType, "matrix");
    if (result.data.resultType !== "matrix") return;
    assert.deepEqual(
      result.data.series.map((series) => series.points),
      [
        [
          { atMs: 1435781430781, value: 1 },
          { atMs: 1435781445781, value: 1 },
          { atMs: 1435781460781, value: 1 },
        ],
        [
          { atMs: 1435781430781, value: 0 },
          { atMs: 1435781445781, value: 0 },
          { atMs: 1435781460781, value: 1 },
        ],
      ],
    );
  });

  test("422 execution error: typed, with errorType and the server's message", () => {
    assert.throws(
      () =>
        parseQueryResponse(
          422,
          "application/json",
          read("error-422-execution-duplicate-series__gmp__opencost-docs.json"),
          "http://prom:9090",
        ),
      (error: unknown) => {
        assert.ok(error instanceof PrometheusError);
        assert.equal(error.kind, "http");
        assert.equal(error.status, 422);
        assert.equal(error.errorType, "execution");
        assert.match(
          error.message,
          /^Prometheus at http:\/\/prom:9090 answered HTTP 422 \(execution\): found duplicate series for the match group/,
        );
        assert.ok(!error.message.includes("\n"));
        return true;
      },
    );
  });

  test("NaN and ±Inf sample strings", () => {
    const body = JSON.stringify({
      status: "success",
      data: {
        resultType: "vector",
        result: [
          { metric: { a: "1" }, value: [1, "NaN"] },
          { metric: { a: "2" }, value: [1, "+Inf"] },
          { metric: { a: "3" }, value: [1, "-Inf"] },
        ],
      },
      warnings: ["a warning"],
    });
    const result = parseQueryResponse(200, "application/json", body);
    assert.equal(result.data.resultType, "vector");
    if (result.data.resultType !== "vector") return;
    const [nan, inf, negInf] = result.data.series;
    assert.ok(Number.isNaN(nan!.value));
    assert.equal(inf!.value, Number.POSITIVE_INFINITY);
    assert.equal(negInf!.value, Number.NEGATIVE_INFINITY);
    assert.deepEqual(result.warnings, ["a warning"]);
  });
});

/** 5,000 series in compact JSON (~400 KB): a label value that reads like an element's boundary, a histogram, warnings. */
const bigVector = JSON.stringify({
  status: "success",
  data: {
    resultType: "vector",
    result: Array.from({ length: 5000 }, (_, i) =>
      i === 4000
        ? { metric: { Hostname: "h" }, histogram: [1, { count: "1", sum: "1" }] }
        : {
            metric: { Hostname: i % 111 === 0 ? `n},{"metric":{"x":"${i}` : `node-${i}`, gpu: String(i % 8) },
            value: [1_700_000_000.5, i % 13 === 0 ? "NaN" : String(i)],
          },
    ),
  },
  warnings: ["a warning"],
});

describe("createPrometheusClient against a local HTTP stub", () => {
  let server: Server;
  let base = "";
  const requests: {
    path: string;
    body: string;
    authorization: string | undefined;
    acceptEncoding: string | undefined;
  }[] = [];
  const routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();

  before(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        const params = new URLSearchParams(body);
        requests.push({
          path: req.url ?? "",
          body,
          authorization: req.headers.authorization,
          acceptEncoding: req.headers["accept-encoding"],
        });
        const path = (req.url ?? "").split("?")[0]!;
        const byPath: Record<string, string> = {
          "/api/v1/series": "series",
          "/api/v1/status/flags": "flags",
          "/flags": "vm-flags",
        };
        const route = routes.get(byPath[path] ?? params.get("query") ?? "");
        if (route) route(req, res);
        else res.writeHead(404).end();
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    routes.set("ok", (_req, res) => {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(read("query-vector__DCGM_FI_DEV_FB_USED__16xH100-2nodes__aicr.json"));
    });
    routes.set("gzip-if-asked", (req, res) => {
      const answer = read("query-vector__DCGM_FI_DEV_FB_USED__16xH100-2nodes__aicr.json");
      if (!/\bgzip\b/.test(req.headers["accept-encoding"] ?? ""))
        return res.writeHead(200, { "content-type": "application/json" }).end(answer);
      res
        .writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" })
        .end(gzipSync(answer));
    });
    routes.set("big", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(bigVector);
    });
    routes.set("big-cut", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(bigVector.slice(0, -200));
    });
    routes.set("bad", (_req, res) => {
      res
        .writeHead(422, { "content-type": "application/json" })
        .end(read("error-422-execution-duplicate-series__gmp__opencost-docs.json"));
    });
    routes.set("busy", (_req, res) => {
      res
        .writeHead(503, { "content-type": "application/json" })
        .end('{"status":"error","errorType":"timeout","error":"query timed out in expression evaluation"}');
    });
    routes.set("html", (_req, res) => {
      res
        .writeHead(503, { "content-type": "text/html; charset=utf-8" })
        .end(
          "<!DOCTYPE html><html><head><title>503 Service Temporarily Unavailable</title></head><body>nginx</body></html>",
        );
    });
    routes.set("login", (_req, res) => {
      res
        .writeHead(200, { "content-type": "text/html" })
        .end("<html><head><title>Sign in</title></head><body><form></form></body></html>");
    });
    routes.set("hang", () => {});
    routes.set("flags", (req, res) => {
      res
        .writeHead(req.method === "GET" ? 200 : 405, { "content-type": "application/json" })
        .end('{"status":"success","data":{"query.lookback-delta":"5m","query.timeout":"2m"}}');
    });
    routes.set("vm-flags", (_req, res) => {
      res
        .writeHead(200, { "content-type": "text/plain; charset=utf-8" })
        .end('-httpListenAddr="127.0.0.1:8428"\n-search.latencyOffset="45s"\n');
    });
    routes.set("series", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          status: "success",
          data: [
            { __name__: "DCGM_FI_DEV_FB_USED", Hostname: "gpu-a", gpu: "0" },
            { __name__: "DCGM_FI_DEV_FB_USED", Hostname: "gpu-a", gpu: "1" },
          ],
        }),
      );
    });
  });

  after(async () => {
    server.closeAllConnections();
    server.close();
  });

  const client = (timeoutMs = 2_000) => createPrometheusClient({ url: `${base}/`, timeoutMs });

  test("POSTs the query and evaluation time as a form to /api/v1/query", async () => {
    const series = await client().queryVector("ok", { atMs: 1773114089444 });
    assert.equal(series.length, 16);
    const last = requests.at(-1)!;
    assert.equal(last.path, "/api/v1/query");
    assert.equal(last.body, "query=ok&time=1773114089.444");
    assert.equal(last.authorization, undefined);
  });

  test("answers are asked uncompressed unless compressed is set; a gzip answer reads the same", async () => {
    const plain = await client().queryVector("gzip-if-asked");
    assert.equal(requests.at(-1)!.acceptEncoding, "identity");
    const compressed = createPrometheusClient({ url: base, timeoutMs: 2_000, compressed: true });
    const gzipped = await compressed.queryVector("gzip-if-asked");
    assert.match(requests.at(-1)!.acceptEncoding ?? "", /\bgzip\b/);
    assert.equal(plain.length, 16);
    assert.deepEqual(gzipped, plain);
  });

  test("a large compact vector, parsed a piece at a time, visits each sample once, as the whole answer reads", async () => {
    const expected = (await client().queryVector("big")).map((sample) => [sample.labels, sample.value]);
    assert.equal(expected.length, 5000 - 1, "the histogram left out");
    const visited: [Record<string, string>, number][] = [];
    const count = await client().queryVectorEach("big", (labels, value) =>
      visited.push([{ ...labels }, value]),
    );
    assert.equal(count, expected.length);
    assert.deepEqual(visited, expected);
    assert.deepEqual(visited[777]![0], { Hostname: 'n},{"metric":{"x":"777', gpu: "1" });
    await assert.rejects(
      client().queryVectorEach("big-cut", () => {}),
      { kind: "bad-response" },
    );
  });

  test("credentials in the URL go out as basic auth", async () => {
    const withAuth = createPrometheusClient({
      url: base.replace("http://", "http://gw:s%40cret@"),
      timeoutMs: 2_000,
    });
    assert.equal(withAuth.displayUrl, base);
    await withAuth.queryVector("ok");
    assert.equal(requests.at(-1)!.authorization, `Basic ${Buffer.from("gw:s@cret").toString("base64")}`);
  });

  test("series: label sets from /api/v1/series for a selector and a time range", async () => {
    const series = await client().series("DCGM_FI_DEV_FB_USED", {
      startMs: 1_700_000_000_000,
      endMs: 1_700_010_800_000,
    });
    assert.deepEqual(series, [
      { __name__: "DCGM_FI_DEV_FB_USED", Hostname: "gpu-a", gpu: "0" },
      { __name__: "DCGM_FI_DEV_FB_USED", Hostname: "gpu-a", gpu: "1" },
    ]);
    const last = requests.at(-1)!;
    assert.equal(last.path, "/api/v1/series");
    assert.equal(last.body, "match%5B%5D=DCGM_FI_DEV_FB_USED&start=1700000000.000&end=1700010800.000");
  });

  test("flags: the server's command-line flags by GET", async () => {
    assert.deepEqual(await client().flags(), { "query.lookback-delta": "5m", "query.timeout": "2m" });
  });

  test("victoriaFlags: VictoriaMetrics' /flags at the server's root, by GET; anything else is no flags", async () => {
    const prefixed = createPrometheusClient({ url: `${base}/select/0/prometheus`, timeoutMs: 2_000 });
    assert.deepEqual(await prefixed.victoriaFlags(), {
      httpListenAddr: "127.0.0.1:8428",
      "search.latencyOffset": "45s",
    });
    assert.equal(requests.at(-1)!.path, "/flags");
    routes.set("vm-flags", (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Sign in</body></html>");
    });
    await assert.rejects(client().victoriaFlags(), { name: "PrometheusError", kind: "bad-response" });
    routes.set("vm-flags", (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" }).end("");
    });
    await assert.rejects(client().victoriaFlags(), { name: "PrometheusError", kind: "bad-response" });
  });

  test("an instant query with maxLookbackSeconds sends it as max_lookback", async () => {
    await client().queryVector("ok", { atMs: 1_700_000_000_000, maxLookbackSeconds: 270 });
    assert.equal(requests.at(-1)!.body, "query=ok&time=1700000000.000&max_lookback=270s");
  });

  test("a base URL with a path prefix keeps it", async () => {
    const prefixed = createPrometheusClient({ url: `${base}/prometheus`, timeoutMs: 2_000 });
    await prefixed.queryVector("ok");
    assert.equal(requests.at(-1)!.path, "/prometheus/api/v1/query");
  });

  test("422 → http error with the server's errorType and message", async () => {
    await assert.rejects(client().query("bad"), (error: unknown) => {
      assert.ok(error instanceof PrometheusError);
      assert.equal(error.kind, "http");
      assert.equal(error.status, 422);
      assert.equal(error.errorType, "execution");
      assert.match(
        error.message,
        new RegExp(`^Prometheus at ${base} answered HTTP 422 \\(execution\\): found duplicate series`),
      );
      return true;
    });
  });

  test("503 with a JSON error body", async () => {
    await assert.rejects(client().query("busy"), {
      name: "PrometheusError",
      kind: "http",
      status: 503,
      errorType: "timeout",
      message: `Prometheus at ${base} answered HTTP 503 (timeout): query timed out in expression evaluation`,
    });
  });

  test("503 with an HTML page from a proxy", async () => {
    await assert.rejects(client().query("html"), {
      kind: "http",
      status: 503,
      message: `Prometheus at ${base} answered HTTP 503 with an HTML page ("503 Service Temporarily Unavailable"), not the query API's JSON; check the URL or the proxy in front of it`,
    });
  });

  test("200 with an HTML login page is a bad response, not data", async () => {
    await assert.rejects(client().query("login"), {
      kind: "bad-response",
      status: 200,
      message: `Prometheus at ${base} answered HTTP 200 with an HTML page ("Sign in"), not the query API's JSON; check the URL or the proxy in front of it`,
    });
  });

  test("a server that never answers → timeout", async () => {
    await assert.rejects(client(300).query("hang"), {
      kind: "timeout",
      message: `Prometheus at ${base} did not answer within 0.3 s`,
    });
  });

  test("the caller's signal cancels a hanging query", async () => {
    const controller = new AbortController();
    const pending = client(10_000).query("hang", { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("poll deadline")), 50);
    await assert.rejects(pending, { kind: "aborted" });
  });

  test("nothing listening → unreachable, connection refused", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = createPrometheusClient({ url: `http://user:secret@127.0.0.1:${port}`, timeoutMs: 2_000 });
    await assert.rejects(refused.query("up"), (error: unknown) => {
      assert.ok(error instanceof PrometheusError);
      assert.equal(error.kind, "unreachable");
      assert.match(
        error.message,
        new RegExp(
          `^Prometheus at http://127\\.0\\.0\\.1:${port} is unreachable: connection refused \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)$`,
        ),
      );
      assert.ok(!error.message.includes("secret"));
      return true;
    });
  });
});
