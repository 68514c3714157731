import { parsePromValue } from "./prom-value.ts";

/**
 * A small client for the Prometheus HTTP query API (`/api/v1/query`, `/api/v1/query_range`), also
 * spoken by VictoriaMetrics, Thanos and Mimir. Every failure is a {@link PrometheusError} with a
 * one-line message that names the server and what went wrong.
 */

export type PrometheusErrorKind =
  /** Nothing answered: connection refused, DNS, reset. */
  | "unreachable"
  /** No complete answer within the client's timeout. */
  | "timeout"
  /** The caller's signal was aborted. */
  | "aborted"
  /** A non-2xx answer: a query error (400 bad_data, 422 execution), 503, a proxy's error page. */
  | "http"
  /** A 2xx answer that is not the API's JSON (an HTML login page, truncated JSON). */
  | "bad-response";

export class PrometheusError extends Error {
  readonly kind: PrometheusErrorKind;
  /** HTTP status, when an answer came. */
  readonly status: number | null;
  /** The API's `errorType` (`bad_data`, `execution`, `timeout`…), when the body carried one. */
  readonly errorType: string | null;

  constructor(kind: PrometheusErrorKind, message: string, status: number | null, errorType: string | null) {
    super(message);
    this.name = "PrometheusError";
    this.kind = kind;
    this.status = status;
    this.errorType = errorType;
  }
}

/** One series of an instant vector: its labels (`__name__` included when kept) and its sample. */
export interface PromVectorSample {
  labels: Record<string, string>;
  /** Sample time as the server reports it (the evaluation time for instant queries), epoch ms. */
  atMs: number;
  /** NaN and ±Inf as the server wrote them. */
  value: number;
}

export interface PromPoint {
  atMs: number;
  value: number;
}

export interface PromRangeSeries {
  labels: Record<string, string>;
  points: PromPoint[];
}

export type PromQueryData =
  | { resultType: "vector"; series: PromVectorSample[] }
  | { resultType: "matrix"; series: PromRangeSeries[] }
  | { resultType: "scalar"; atMs: number; value: number }
  | { resultType: "string"; atMs: number; value: string };

export interface PromQueryResult {
  data: PromQueryData;
  /** Native-histogram series (a `histogram` instead of a `value`), left out of `data`. */
  skippedHistograms: number;
  warnings: string[];
  /** VictoriaMetrics' `isPartial`: some storage nodes did not answer. */
  partial: boolean;
}

export interface QueryOptions {
  /** Evaluation time, epoch ms; the server's now when absent. */
  atMs?: number;
  signal?: AbortSignal;
}

export interface PrometheusClient {
  /** The server's base URL without credentials, for messages. */
  readonly displayUrl: string;
  /** An instant query (`/api/v1/query`). */
  query(promql: string, options?: QueryOptions): Promise<PromQueryResult>;
  /** An instant query that must return a vector. */
  queryVector(promql: string, options?: QueryOptions): Promise<PromVectorSample[]>;
  /**
   * Label sets of the series matching `selector` with samples in `[startMs, endMs]`
   * (`/api/v1/series`): answered from the index, without reading samples.
   */
  series(
    selector: string,
    range: { startMs: number; endMs: number },
    options?: { signal?: AbortSignal },
  ): Promise<Record<string, string>[]>;
  /** The server's command-line flags (`/api/v1/status/flags`), e.g. `query.lookback-delta` → `5m`. */
  flags(options?: { signal?: AbortSignal }): Promise<Record<string, string>>;
  /** A range query (`/api/v1/query_range`); `stepSeconds` > 0. */
  queryRange(
    promql: string,
    range: { startMs: number; endMs: number; stepSeconds: number },
    options?: { signal?: AbortSignal },
  ): Promise<PromQueryResult>;
}

export interface PrometheusClientOptions {
  /**
   * Base URL, e.g. `http://prometheus:9090` or `https://host/prometheus/`; `user:password@` in it is sent
   * as basic auth and never shown in messages.
   */
  url: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** Where and how queries go: the URL without credentials, basic auth, the timeout and the fetch to use. */
interface PrometheusTarget {
  base: URL;
  authorization: string | null;
  displayUrl: string;
  timeoutMs: number;
  doFetch: typeof fetch;
}

/** POSTs `form` as a form, or GETs `path` when there is none (endpoints that take no POST). */
async function sendToPrometheus(
  target: PrometheusTarget,
  path: string,
  form: URLSearchParams | null,
  signal?: AbortSignal,
): Promise<RawAnswer> {
  const { base, authorization, displayUrl } = target;
  const timeout = AbortSignal.timeout(target.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const url = new URL(path, base);
  try {
    const response = await target.doFetch(url, {
      method: form ? "POST" : "GET",
      headers: {
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        accept: "application/json",
        ...(authorization ? { authorization } : {}),
      },
      ...(form ? { body: form.toString() } : {}),
      signal: combined,
    });
    const status = response.status;
    const contentType = response.headers.get("content-type");
    return { status, contentType, body: await response.text() };
  } catch (error) {
    const timeoutS = target.timeoutMs / 1000;
    if (timeout.aborted) {
      throw new PrometheusError(
        "timeout",
        `Prometheus at ${displayUrl} did not answer within ${timeoutS} s`,
        null,
        null,
      );
    }
    if (signal?.aborted) {
      throw new PrometheusError("aborted", `query to Prometheus at ${displayUrl} was cancelled`, null, null);
    }
    throw new PrometheusError(
      "unreachable",
      `Prometheus at ${displayUrl} is unreachable: ${networkReason(error)}`,
      null,
      null,
    );
  }
}

export function createPrometheusClient(options: PrometheusClientOptions): PrometheusClient {
  const given = new URL(options.url.endsWith("/") ? options.url : `${options.url}/`);
  const authorization = given.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(given.username)}:${decodeURIComponent(given.password)}`).toString("base64")}`
    : null;
  const base = withoutCredentials(given);
  const displayUrl = base.toString().replace(/\/$/, "");
  const doFetch = options.fetch ?? fetch;

  const target: PrometheusTarget = { base, authorization, displayUrl, timeoutMs: options.timeoutMs, doFetch };
  const send = (path: string, form: URLSearchParams | null, signal?: AbortSignal) =>
    sendToPrometheus(target, path, form, signal);

  return {
    displayUrl,
    query(promql, queryOptions = {}) {
      const form = new URLSearchParams({ query: promql });
      if (queryOptions.atMs !== undefined) form.set("time", formatSeconds(queryOptions.atMs));
      return send("api/v1/query", form, queryOptions.signal).then((answer) =>
        parseAnswer(answer, displayUrl),
      );
    },
    async queryVector(promql, queryOptions = {}) {
      const result = await this.query(promql, queryOptions);
      if (result.data.resultType !== "vector") {
        throw new PrometheusError(
          "bad-response",
          `Prometheus at ${displayUrl} returned a ${result.data.resultType}, not a vector, for ${promql}`,
          200,
          null,
        );
      }
      return result.data.series;
    },
    queryRange(promql, range, queryOptions = {}) {
      const form = new URLSearchParams({
        query: promql,
        start: formatSeconds(range.startMs),
        end: formatSeconds(range.endMs),
        step: String(range.stepSeconds),
      });
      return send("api/v1/query_range", form, queryOptions.signal).then((answer) =>
        parseAnswer(answer, displayUrl),
      );
    },
    async series(selector, range, queryOptions = {}) {
      const form = new URLSearchParams({
        "match[]": selector,
        start: formatSeconds(range.startMs),
        end: formatSeconds(range.endMs),
      });
      const answer = await send("api/v1/series", form, queryOptions.signal);
      return parseSeriesResponse(answer.status, answer.contentType, answer.body, displayUrl);
    },
    async flags(queryOptions = {}) {
      const answer = await send("api/v1/status/flags", null, queryOptions.signal);
      const json = readEnvelope(answer.status, answer.contentType, answer.body, displayUrl);
      if (!isRecord(json.data)) {
        throw new PrometheusError(
          "bad-response",
          `Prometheus at ${displayUrl} sent malformed flags`,
          answer.status,
          null,
        );
      }
      return Object.fromEntries(Object.entries(json.data).map(([name, value]) => [name, String(value)]));
    },
  };
}

interface RawAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

function parseAnswer(answer: RawAnswer, displayUrl: string): PromQueryResult {
  return parseQueryResponse(answer.status, answer.contentType, answer.body, displayUrl);
}

/** Turns an answer from `/api/v1/series` into label sets, or throws like {@link parseQueryResponse}. */
export function parseSeriesResponse(
  status: number,
  contentType: string | null,
  body: string,
  displayUrl = "the server",
): Record<string, string>[] {
  const json = readEnvelope(status, contentType, body, displayUrl);
  if (!Array.isArray(json.data) || !json.data.every(isRecord)) {
    throw new PrometheusError(
      "bad-response",
      `Prometheus at ${displayUrl} sent a malformed series list`,
      status,
      null,
    );
  }
  return json.data as Record<string, string>[];
}

/**
 * Turns an HTTP answer from the query API into a result, or throws a {@link PrometheusError}: an
 * `"status":"error"` body (with `errorType` and `error`), a non-2xx status, HTML or other non-JSON.
 */
export function parseQueryResponse(
  status: number,
  contentType: string | null,
  body: string,
  displayUrl = "the server",
): PromQueryResult {
  const json = readEnvelope(status, contentType, body, displayUrl);
  if (!isRecord(json.data)) {
    throw new PrometheusError(
      "bad-response",
      `Prometheus at ${displayUrl} answered HTTP ${status} with JSON that is not a query API response`,
      status,
      null,
    );
  }
  const warnings = Array.isArray(json.warnings) ? json.warnings.map(String) : [];
  const partial = json.isPartial === true;
  const { data, skippedHistograms } = readData(json.data, displayUrl);
  return { data, skippedHistograms, warnings, partial };
}

/** The API's `{"status":"success",…}` object, or a {@link PrometheusError} for anything else. */
function readEnvelope(
  status: number,
  contentType: string | null,
  body: string,
  displayUrl: string,
): Record<string, unknown> {
  const ok = status >= 200 && status < 300;
  const json = tryParseJson(body);
  if (json === undefined) {
    const kind = ok ? "bad-response" : "http";
    throw new PrometheusError(
      kind,
      `Prometheus at ${displayUrl} answered HTTP ${status} ${describeNonJson(contentType, body)}`,
      status,
      null,
    );
  }
  if (!isRecord(json)) {
    throw new PrometheusError(
      ok ? "bad-response" : "http",
      `Prometheus at ${displayUrl} answered HTTP ${status} with JSON that is not a query API response`,
      status,
      null,
    );
  }
  if (json.status === "error" || !ok) {
    const errorType = typeof json.errorType === "string" ? json.errorType : null;
    const detail = typeof json.error === "string" ? json.error : "no error message";
    throw new PrometheusError(
      ok ? "bad-response" : "http",
      `Prometheus at ${displayUrl} answered HTTP ${status}${errorType ? ` (${errorType})` : ""}: ${oneLine(detail, 300)}`,
      status,
      errorType,
    );
  }
  if (json.status !== "success") {
    throw new PrometheusError(
      "bad-response",
      `Prometheus at ${displayUrl} answered HTTP ${status} with JSON that is not a query API response`,
      status,
      null,
    );
  }
  return json;
}

function readData(
  data: Record<string, unknown>,
  displayUrl: string,
): { data: PromQueryData; skippedHistograms: number } {
  const bad = (what: string) =>
    new PrometheusError("bad-response", `Prometheus at ${displayUrl} sent a malformed ${what}`, 200, null);
  const { resultType, result } = data;
  switch (resultType) {
    case "vector": {
      if (!Array.isArray(result)) throw bad("vector");
      const series: PromVectorSample[] = [];
      let skippedHistograms = 0;
      for (const item of result as unknown[]) {
        if (!isRecord(item) || !isRecord(item.metric)) throw bad("vector element");
        if (item.value === undefined && item.histogram !== undefined) {
          skippedHistograms++;
          continue;
        }
        const point = readPoint(item.value);
        if (!point) throw bad("vector sample");
        series.push({ labels: item.metric as Record<string, string>, atMs: point.atMs, value: point.value });
      }
      return { data: { resultType, series }, skippedHistograms };
    }
    case "matrix": {
      if (!Array.isArray(result)) throw bad("matrix");
      const series: PromRangeSeries[] = [];
      let skippedHistograms = 0;
      for (const item of result as unknown[]) {
        if (!isRecord(item) || !isRecord(item.metric)) throw bad("matrix element");
        if (item.values === undefined && item.histograms !== undefined) {
          skippedHistograms++;
          continue;
        }
        if (!Array.isArray(item.values)) throw bad("matrix element");
        const points: PromPoint[] = [];
        for (const value of item.values as unknown[]) {
          const point = readPoint(value);
          if (!point) throw bad("matrix sample");
          points.push(point);
        }
        series.push({ labels: item.metric as Record<string, string>, points });
      }
      return { data: { resultType, series }, skippedHistograms };
    }
    case "scalar": {
      const point = readPoint(result);
      if (!point) throw bad("scalar");
      return { data: { resultType, atMs: point.atMs, value: point.value }, skippedHistograms: 0 };
    }
    case "string": {
      if (!Array.isArray(result) || typeof result[0] !== "number" || typeof result[1] !== "string") {
        throw bad("string");
      }
      return {
        data: { resultType, atMs: Math.round(result[0] * 1000), value: result[1] },
        skippedHistograms: 0,
      };
    }
    default:
      throw bad(`result (resultType ${JSON.stringify(resultType)})`);
  }
}

/** `[1435781451.781, "1"]` (or an integer timestamp, as VictoriaMetrics writes) → a point. */
function readPoint(raw: unknown): PromPoint | null {
  if (!Array.isArray(raw) || raw.length !== 2) return null;
  const [seconds, text] = raw as [unknown, unknown];
  if (typeof seconds !== "number" || typeof text !== "string") return null;
  const value = parsePromValue(text);
  if (value === null) return null;
  return { atMs: Math.round(seconds * 1000), value };
}

function tryParseJson(body: string): unknown {
  const start = body.trimStart()[0];
  if (start !== "{" && start !== "[") return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function describeNonJson(contentType: string | null, body: string): string {
  const type = (contentType ?? "").split(";")[0]!.trim() || "no content type";
  if (/html/i.test(type) || /^\s*<(!doctype|html)/i.test(body)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1];
    const what = title ? ` ("${oneLine(title, 80)}")` : "";
    return `with an HTML page${what}, not the query API's JSON; check the URL or the proxy in front of it`;
  }
  if (body.trim() === "") return `with an empty ${type} body, not the query API's JSON`;
  return `with ${type}, not the query API's JSON: "${oneLine(body, 120)}"`;
}

function networkReason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ECONNREFUSED") return `connection refused (${oneLine(cause.message, 120)})`;
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `host name not found (${code})`;
    return oneLine(code && !cause.message.includes(code) ? `${code} ${cause.message}` : cause.message, 160);
  }
  return oneLine(String(cause), 160);
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

function formatSeconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function withoutCredentials(url: URL): URL {
  const copy = new URL(url);
  copy.username = "";
  copy.password = "";
  return copy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
