import assert from "node:assert/strict";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { after, before, describe, test } from "node:test";
import { sourceSchema } from "../../src/config/schema.ts";
import { ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { createAnswerReader, createQueryAnswerReader } from "../../src/sources/prom-answer-reader.ts";
import { createSeriesListBuilder } from "../../src/sources/prom-query-data.ts";
import {
  createPrometheusClient,
  PrometheusError,
  type PromQueryResult,
  parseQueryResponse,
  parseSeriesResponse,
} from "../../src/sources/prometheus-api.ts";
import { createPrometheusSource, type PrometheusSourceConfig } from "../../src/sources/prometheus-source.ts";
import { FIXTURES_DIR } from "../helpers/fixtures.ts";

const fixtures = `${FIXTURES_DIR}/prometheus-api/`;
const read = (file: string) => readFileSync(`${fixtures}${file}`, "utf8");
const successes = readdirSync(fixtures).filter(
  (file) => file.endsWith(".json") && !file.startsWith("error-"),
);

/** The body cut into `size`-byte pieces (UTF-8 characters split across pieces), decoded as a stream. */
function readInPieces(body: string, size: number): PromQueryResult {
  const bytes = Buffer.from(body);
  const reader = createQueryAnswerReader(200, "application/json", "http://prom:9090");
  const decoder = new TextDecoder();
  for (let at = 0; at < bytes.length; at += size) {
    reader.write(decoder.decode(bytes.subarray(at, at + size), { stream: true }));
  }
  reader.write(decoder.decode());
  return reader.end();
}

/** What `JSON.parse` of the whole body gives, reduced by hand: the oracle for the streamed reader. */
function wholeOracle(body: string): PromQueryResult["data"] {
  const json = JSON.parse(body) as { data: { resultType: string; result: unknown } };
  const point = ([seconds, text]: [number, string]) => ({
    atMs: Math.round(seconds * 1000),
    value: Number(text),
  });
  const items = json.data.result as {
    metric: Record<string, string>;
    value?: [number, string];
    values?: [number, string][];
  }[];
  if (json.data.resultType === "vector") {
    const series = items
      .filter((item) => item.value)
      .map((item) => ({ labels: item.metric, ...point(item.value!) }));
    return { resultType: "vector", series };
  }
  if (json.data.resultType === "matrix") {
    const series = items
      .filter((item) => item.values)
      .map((item) => ({ labels: item.metric, points: item.values!.map(point) }));
    return { resultType: "matrix", series };
  }
  return parseQueryResponse(200, "application/json", body).data;
}

describe("a query answer read in pieces", () => {
  test("every fixture, in pieces of 1, 3, 17 and 4096 bytes, reads as JSON.parse of the whole body", () => {
    assert.ok(successes.length >= 8, successes.join(", "));
    for (const file of successes) {
      const body = read(file);
      const whole = parseQueryResponse(200, "application/json", body);
      assert.deepEqual(whole.data, wholeOracle(body), file);
      for (const size of [1, 3, 17, 4096])
        assert.deepEqual(readInPieces(body, size), whole, `${file} in ${size}-byte pieces`);
    }
  });

  test("labels with escapes and characters outside ASCII survive being split mid-character", () => {
    const metric = { Hostname: "gpu-节点-1", note: 'a "quoted"\\ line\nbreak', emoji: "🚀" };
    const body = JSON.stringify({
      status: "success",
      isPartial: true,
      warnings: ["w"],
      data: { resultType: "vector", result: [{ metric, value: [1773114089.5, "42"] }] },
    });
    for (const size of [1, 2, 5]) {
      assert.deepEqual(readInPieces(body, size), {
        data: { resultType: "vector", series: [{ labels: metric, atMs: 1773114089500, value: 42 }] },
        skippedHistograms: 0,
        warnings: ["w"],
        partial: true,
      });
    }
  });

  test("a series list (/api/v1/series) in pieces reads as the whole list; an element that is no label set is malformed", () => {
    const list = [
      {
        __name__: "DCGM_FI_DEV_FB_USED",
        Hostname: "gpu-a",
        gpu: "0",
        UUID: "GPU-bc5610b9-79c8-fedd-8899-07539c7f868a",
      },
      {
        __name__: "DCGM_FI_DEV_FB_USED",
        Hostname: "gpu-b",
        gpu: "0",
        UUID: "GPU-04d228d3-3b5a-3534-f5cf-969706647d56",
      },
    ];
    const body = JSON.stringify({ status: "success", data: list });
    for (const size of [1, 3, 64]) {
      const reader = createAnswerReader(
        200,
        "application/json",
        "http://prom:9090",
        createSeriesListBuilder("http://prom:9090"),
      );
      const bytes = Buffer.from(body);
      for (let at = 0; at < bytes.length; at += size) reader.write(bytes.subarray(at, at + size).toString());
      assert.deepEqual(reader.end().data, list);
    }
    assert.throws(
      () =>
        parseSeriesResponse(
          200,
          "application/json",
          '{"status":"success","data":[{"a":"1"},"x"]}',
          "http://prom:9090",
        ),
      {
        kind: "bad-response",
        message: "Prometheus at http://prom:9090 sent a malformed series list",
      },
    );
  });

  test("result written before resultType still reads", () => {
    const body =
      '{"data":{"result":[{"metric":{"a":"1"},"value":[1,"2"]}],"resultType":"vector"},"status":"success"}';
    assert.deepEqual(readInPieces(body, 4).data, {
      resultType: "vector",
      series: [{ labels: { a: "1" }, atMs: 1000, value: 2 }],
    });
  });

  const rejects = (
    body: string,
    expected: { kind: string; message: string | RegExp; errorType?: string | null },
  ) =>
    assert.throws(
      () => readInPieces(body, 7),
      (error: unknown) => {
        assert.ok(error instanceof PrometheusError);
        assert.equal(error.kind, expected.kind);
        if (typeof expected.message === "string") assert.equal(error.message, expected.message);
        else assert.match(error.message, expected.message);
        if (expected.errorType !== undefined) assert.equal(error.errorType, expected.errorType);
        return true;
      },
    );

  test("a body cut off mid-series says so", () => {
    const body = read("query-vector__DCGM_FI_DEV_GPU_UTIL__16xH100-2nodes__aicr.json");
    const cut = body.slice(0, Math.floor(body.length / 2));
    rejects(cut, {
      kind: "bad-response",
      message: `Prometheus at http://prom:9090 answered HTTP 200 with JSON that stops after ${cut.length} characters: the answer was cut off`,
    });
  });

  test('an HTTP 200 "status":"error" answer keeps its errorType and message', () => {
    rejects('{"status":"error","errorType":"timeout","error":"query timed out in\\nexpression evaluation"}', {
      kind: "bad-response",
      errorType: "timeout",
      message:
        "Prometheus at http://prom:9090 answered HTTP 200 (timeout): query timed out in expression evaluation",
    });
  });

  test("HTML, broken JSON and JSON of another shape are named as such", () => {
    rejects("<html><head><title>Sign in</title></head></html>", {
      kind: "bad-response",
      message: `Prometheus at http://prom:9090 answered HTTP 200 with an HTML page ("Sign in"), not the query API's JSON; check the URL or the proxy in front of it`,
    });
    rejects('{"status":"success","data":{"resultType":"vector","result":[{"metric":{}},,]}}', {
      kind: "bad-response",
      message:
        /^Prometheus at http:\/\/prom:9090 answered HTTP 200 with application\/json, not the query API's JSON: "\{"status":"success","data":/,
    });
    rejects('[{"status":"success"}]', {
      kind: "bad-response",
      message: "Prometheus at http://prom:9090 answered HTTP 200 with JSON that is not a query API response",
    });
    rejects(
      '{"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":"1"},"value":"x"}]}}',
      {
        kind: "bad-response",
        message: "Prometheus at http://prom:9090 sent a malformed vector sample",
      },
    );
    rejects("", {
      kind: "bad-response",
      message:
        "Prometheus at http://prom:9090 answered HTTP 200 with an empty application/json body, not the query API's JSON",
    });
  });
});

describe("a query answer streamed by a server, in pieces and broken off", () => {
  // 5 MiB of blanks inside the JSON: past the client's streaming threshold (1 MiB here) before the middle.
  const streamAbove = 1024 * 1024;
  const padding = " ".repeat(5 * 1024 * 1024);
  const vectorBody = read("query-vector__DCGM_FI_DEV_GPU_UTIL__16xH100-2nodes__aicr.json").replace(
    "{",
    `{${padding}`,
  );
  let server: Server;
  let base = "";
  let mode: "pieces" | "reset" | "cut" | "stall" | "error" = "pieces";

  const writeInPieces = async (res: ServerResponse, body: string, upTo = body.length) => {
    for (let at = 0; at < upTo; at += 16_384) {
      await new Promise((resolve) => res.write(body.slice(at, Math.min(at + 16_384, upTo)), resolve));
    }
  };

  before(async () => {
    server = createServer((req, res) => {
      let form = "";
      req.on("data", (chunk: Buffer) => {
        form += chunk.toString();
      });
      req.on("end", async () => {
        const half = Math.floor(vectorBody.length / 2);
        if (req.url === "/api/v1/status/flags") {
          res.writeHead(404, { "content-type": "text/plain" }).end("404 page not found\n");
          return;
        }
        if (req.url === "/api/v1/series") {
          const metrics = (JSON.parse(vectorBody) as { data: { result: { metric: unknown }[] } }).data.result;
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ status: "success", data: metrics.map((series) => series.metric) }));
          return;
        }
        const query = new URLSearchParams(form).get("query") ?? "";
        if (query !== "up" && !query.includes("DCGM_FI_DEV_GPU_UTIL") && mode === "pieces") {
          res
            .writeHead(200, { "content-type": "application/json" })
            .end(read("query-vector-empty-result__cncf-kops.json"));
          return;
        }
        if (mode === "error") {
          res.writeHead(200, { "content-type": "application/json" });
          await writeInPieces(
            res,
            '{"status":"error","errorType":"execution","error":"many-to-many matching not allowed"}',
          );
          res.end();
          return;
        }
        if (mode === "reset") {
          res.writeHead(200, {
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(vectorBody)),
          });
          await writeInPieces(res, vectorBody, half);
          res.destroy();
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        await writeInPieces(res, vectorBody, mode === "pieces" ? vectorBody.length : half);
        if (mode !== "stall") res.end();
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const client = (timeoutMs = 5_000) =>
    createPrometheusClient({ url: base, timeoutMs, streamAboveBytes: streamAbove });
  const half = Buffer.byteLength(vectorBody.slice(0, Math.floor(vectorBody.length / 2)));

  test("an answer past the streaming threshold, sent in 16 KiB pieces, reads as the whole body", async () => {
    assert.ok(Math.floor(vectorBody.length / 2) > streamAbove);
    mode = "pieces";
    assert.deepEqual(
      await client().query("up"),
      parseQueryResponse(200, "application/json", vectorBody, base),
    );
  });

  test("a vector visited sample by sample, streamed or whole, is the vector the query reads", async () => {
    mode = "pieces";
    const expected = (await client().queryVector("up")).map((sample) => [sample.labels, sample.value]);
    assert.ok(expected.length > 0);
    for (const streamAboveBytes of [streamAbove, 64 * 1024 * 1024]) {
      const visited: [Record<string, string>, number][] = [];
      const each = createPrometheusClient({ url: base, timeoutMs: 5_000, streamAboveBytes });
      const count = await each.queryVectorEach("up", (labels, value) => visited.push([{ ...labels }, value]));
      assert.equal(count, expected.length);
      assert.deepEqual(visited, expected, `streamed above ${streamAboveBytes} bytes`);
    }
    mode = "cut";
    await assert.rejects(
      client().queryVectorEach("up", () => {}),
      { kind: "bad-response", message: /the answer was cut off$/ },
    );
  });

  test("a connection reset mid-answer: unreachable, with how far it got", async () => {
    mode = "reset";
    await assert.rejects(client().query("up"), (error: unknown) => {
      assert.ok(error instanceof PrometheusError);
      assert.equal(error.kind, "unreachable");
      assert.match(
        error.message,
        new RegExp(`^Prometheus at ${base} broke off its answer after ${half} bytes: `),
      );
      return true;
    });
  });

  test("a chunked answer that ends mid-JSON: cut off", async () => {
    mode = "cut";
    await assert.rejects(client().query("up"), {
      kind: "bad-response",
      message: `Prometheus at ${base} answered HTTP 200 with JSON that stops after ${Math.floor(vectorBody.length / 2)} characters: the answer was cut off`,
    });
  });

  test("an answer that stalls mid-body: the client's timeout, and the caller's signal, still end it", async () => {
    mode = "stall";
    await assert.rejects(client(2_000).query("up"), {
      kind: "timeout",
      message: `Prometheus at ${base} did not finish its answer (${half} bytes read) within 2 s`,
    });
    const controller = new AbortController();
    const pending = client(10_000).query("up", { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("poll deadline")), 100);
    await assert.rejects(pending, { kind: "aborted" });
  });

  test('a streamed HTTP 200 "status":"error" answer keeps its errorType', async () => {
    mode = "error";
    await assert.rejects(client().query("up"), {
      kind: "bad-response",
      errorType: "execution",
      message: `Prometheus at ${base} answered HTTP 200 (execution): many-to-many matching not allowed`,
    });
  });

  test("the source: each broken answer makes every known host unknown with the cause, never idle", async () => {
    const lines: { msg: string }[] = [];
    const logger = createLogger(
      "info",
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
          done();
        },
      }),
    );
    const config = sourceSchema.parse({
      kind: "prometheus",
      url: base,
      timeout_seconds: 2,
    }) as PrometheusSourceConfig;
    const clock = new ManualClock(1773114089444);
    const source = createPrometheusSource(config, { clock, logger });
    mode = "pieces";
    const first = await source.poll(new AbortController().signal);
    assert.deepEqual(
      first.map((observation) => [observation.host, observation.ok]),
      [
        ["gpu-node-1", true],
        ["gpu-node-2", true],
      ],
    );
    const cases = [
      {
        mode: "reset",
        cause: "unreachable",
        detail: `Prometheus at ${base} broke off its answer after ${half} bytes`,
      },
      {
        mode: "cut",
        cause: "http-error",
        detail: `Prometheus at ${base} answered HTTP 200 with JSON that stops after`,
      },
      {
        mode: "stall",
        cause: "timeout",
        detail: `Prometheus at ${base} did not finish its answer (${half} bytes read) within 2 s`,
      },
      { mode: "error", cause: "http-error", detail: `Prometheus at ${base} answered HTTP 200 (execution)` },
    ] as const;
    for (const expected of cases) {
      mode = expected.mode;
      clock.advance(MINUTE_MS);
      lines.length = 0;
      const observations = await source.poll(new AbortController().signal);
      assert.deepEqual(
        observations.map((observation) => [
          observation.host,
          observation.ok,
          !observation.ok && observation.cause,
        ]),
        [
          ["gpu-node-1", false, expected.cause],
          ["gpu-node-2", false, expected.cause],
        ],
        expected.mode,
      );
      for (const observation of observations) {
        assert.ok(!observation.ok);
        assert.ok(
          observation.message.startsWith(`no data from ${observation.host}: ${expected.detail}`),
          observation.message,
        );
      }
      assert.ok(
        lines.some((line) =>
          line.msg.startsWith(`Prometheus poll failed, 2 host(s) unknown: ${expected.detail}`),
        ),
      );
    }
  });
});
