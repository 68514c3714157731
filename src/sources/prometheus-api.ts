import { createSlots } from "../shared/slots.ts";
import { type AnswerDataBuilder, createAnswerReader, createQueryAnswerReader } from "./prom-answer-reader.ts";
import {
  createQueryDataBuilder,
  createSeriesListBuilder,
  createVectorVisitor,
  type VectorVisit,
} from "./prom-query-data.ts";
import { describeNonJson, oneLine, PrometheusError } from "./prometheus-error.ts";

/**
 * A small client for the Prometheus HTTP query API (`/api/v1/query`, `/api/v1/query_range`), also
 * spoken by VictoriaMetrics, Thanos and Mimir. Every failure is a {@link PrometheusError} with a
 * one-line message that names the server and what went wrong.
 */

export { PrometheusError, type PrometheusErrorKind } from "./prometheus-error.ts";

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
  /**
   * Sent as VictoriaMetrics' `max_lookback`: a selector reads no sample older than this before the
   * evaluation time (Prometheus ignores it and keeps its lookback delta).
   */
  maxLookbackSeconds?: number;
}

export interface PrometheusClient {
  /** The server's base URL without credentials, for messages. */
  readonly displayUrl: string;
  /** An instant query (`/api/v1/query`). */
  query(promql: string, options?: QueryOptions): Promise<PromQueryResult>;
  /** An instant query that must return a vector. */
  queryVector(promql: string, options?: QueryOptions): Promise<PromVectorSample[]>;
  /**
   * {@link PrometheusClient.queryVector} with each sample handed to `visit` as it is read, none kept
   * (the label set is lent: copy what is kept). Resolves to how many samples were visited.
   */
  queryVectorEach(promql: string, visit: VectorVisit, options?: QueryOptions): Promise<number>;
  /**
   * Label sets of the series matching `selector` with samples in `[startMs, endMs]`
   * (`/api/v1/series`): answered from the index, without reading samples.
   */
  series(
    selector: string,
    range: { startMs: number; endMs: number },
    options?: { signal?: AbortSignal },
  ): Promise<Record<string, string>[]>;
  /**
   * The label names of the series matching `selector` with samples in `[startMs, endMs]`
   * (`/api/v1/labels`): answered from the index; empty when no series matches.
   */
  labelNames(
    selector: string,
    range: { startMs: number; endMs: number },
    options?: { signal?: AbortSignal },
  ): Promise<string[]>;
  /** The server's command-line flags (`/api/v1/status/flags`), e.g. `query.lookback-delta` → `5m`. */
  flags(options?: { signal?: AbortSignal }): Promise<Record<string, string>>;
  /**
   * VictoriaMetrics' flags set on its command line (`/flags` at the server's root: `-name="value"` lines,
   * the flags left at their defaults absent), e.g. `search.latencyOffset` → `30s`. Throws a
   * `bad-response` error for any other answer, an empty one included.
   */
  victoriaFlags(options?: { signal?: AbortSignal }): Promise<Record<string, string>>;
  /**
   * A range query (`/api/v1/query_range`); `stepSeconds` > 0. `maxLookbackSeconds` is sent as
   * VictoriaMetrics' `max_lookback` (the longest window a selector without one may read back;
   * Prometheus ignores it and keeps its lookback delta).
   */
  queryRange(
    promql: string,
    range: { startMs: number; endMs: number; stepSeconds: number; maxLookbackSeconds?: number },
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
  /** Answers longer than this many bytes are parsed as they arrive (16 MiB by default). */
  streamAboveBytes?: number;
  /** Asks for gzip-compressed answers; otherwise for uncompressed ones (`accept-encoding: identity`). */
  compressed?: boolean;
}

/** Where and how queries go: the URL without credentials, basic auth, the timeout and the fetch to use. */
interface PrometheusTarget {
  base: URL;
  authorization: string | null;
  displayUrl: string;
  timeoutMs: number;
  doFetch: typeof fetch;
  compressed: boolean;
}

/** How far an answer got: its headers came, and how many bytes of its body. */
interface Progress {
  answered: boolean;
  bytes: number;
}

/**
 * POSTs `form` as a form, or GETs `path` when there is none (endpoints that take no POST), and hands the
 * response to `read` inside the same timeout: a body that stalls or breaks off is a timeout or a failure.
 */
async function sendToPrometheus<T>(
  target: PrometheusTarget,
  request: { path: string; form: URLSearchParams | null; signal?: AbortSignal | undefined },
  read: (response: Response, progress: Progress) => Promise<T>,
): Promise<T> {
  const { base, authorization } = target;
  const { path, form, signal } = request;
  const timeout = AbortSignal.timeout(target.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const url = new URL(path, base);
  const progress: Progress = { answered: false, bytes: 0 };
  try {
    const response = await target.doFetch(url, {
      method: form ? "POST" : "GET",
      headers: {
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        accept: "application/json",
        // NOTE: fetch asks for gzip by default; a poll's answers at 80,000 GPUs are ~30 MB, and compressing
        // them cost VictoriaMetrics about a fifth of its CPU for the poll, and the bot its decompression.
        ...(target.compressed ? {} : { "accept-encoding": "identity" }),
        ...(authorization ? { authorization } : {}),
      },
      ...(form ? { body: form.toString() } : {}),
      signal: combined,
    });
    progress.answered = true;
    return await read(response, progress);
  } catch (error) {
    if (error instanceof PrometheusError) throw error;
    throw sendFailure(error, { target, timeout, signal, progress });
  }
}

function sendFailure(
  error: unknown,
  context: {
    target: PrometheusTarget;
    timeout: AbortSignal;
    signal?: AbortSignal | undefined;
    progress: Progress;
  },
): PrometheusError {
  const { target, timeout, signal, progress } = context;
  const { displayUrl } = target;
  if (timeout.aborted) {
    const what = progress.answered ? `finish its answer (${progress.bytes} bytes read)` : "answer";
    return new PrometheusError(
      "timeout",
      `Prometheus at ${displayUrl} did not ${what} within ${target.timeoutMs / 1000} s`,
      null,
      null,
    );
  }
  if (signal?.aborted) {
    return new PrometheusError("aborted", `query to Prometheus at ${displayUrl} was cancelled`, null, null);
  }
  if (progress.answered) {
    return new PrometheusError(
      "unreachable",
      `Prometheus at ${displayUrl} broke off its answer after ${progress.bytes} bytes: ${networkReason(error)}`,
      null,
      null,
    );
  }
  return new PrometheusError(
    "unreachable",
    `Prometheus at ${displayUrl} is unreachable: ${networkReason(error)}`,
    null,
    null,
  );
}

/** The whole body as text, for small answers (flags, series, errors). */
async function readWhole(response: Response, progress: Progress): Promise<RawAnswer> {
  const body = await response.text();
  progress.bytes = body.length;
  return { status: response.status, contentType: response.headers.get("content-type"), body };
}

/**
 * Answers up to this many bytes are parsed whole (native `JSON.parse`, 2–3× faster than the streaming
 * tokenizer); longer ones as they arrive, so no answer holds more. A poll's answers are aggregated: a
 * few MB at 80,000 GPUs.
 */
const STREAM_ABOVE_BYTES = 16 * 1024 * 1024;

/**
 * Answers of one server read at once: the others' queries are sent and run on the server, their bodies
 * wait (TCP holds them), so a cycle's dozen answers per source never pile up in the heap together (at
 * 80,000 GPUs they held ~30 MB of text at once). Per client, so a slow server holds back only its own.
 */
const BODIES_READ_AT_ONCE = 2;

type AnswerWriter<T> = { write(text: string): void; end(): T };

/**
 * A 2xx answer: held and parsed whole by `whole` while it stays within `streamAbove` bytes, else read
 * as it arrives into `reader` (what was held first), so no answer is held whole past that size. A
 * non-2xx answer (small: an error) is read whole.
 */
async function streamAnswer<T>(
  response: Response,
  progress: Progress,
  parse: {
    reader: (status: number, contentType: string | null) => AnswerWriter<T>;
    whole: (answer: RawAnswer) => T;
  },
  streamAbove: number,
): Promise<T> {
  const { status } = response;
  const contentType = response.headers.get("content-type");
  if (status < 200 || status >= 300 || !response.body)
    return parse.whole(await readWhole(response, progress));
  let streaming: AnswerWriter<T> | null = null;
  const held: string[] = [];
  const take = (text: string) => {
    if (streaming) return streaming.write(text);
    held.push(text);
    if (progress.bytes <= streamAbove) return;
    streaming = parse.reader(status, contentType);
    for (const piece of held.splice(0)) streaming.write(piece);
  };
  const decoder = new TextDecoder();
  const chunks = response.body.getReader();
  try {
    for (let next = await chunks.read(); !next.done; next = await chunks.read()) {
      progress.bytes += next.value.byteLength;
      take(decoder.decode(next.value, { stream: true }));
    }
  } catch (error) {
    chunks.cancel().catch(() => {});
    throw error;
  }
  take(decoder.decode());
  const streamed = streaming as AnswerWriter<T> | null;
  return streamed ? streamed.end() : parse.whole({ status, contentType, body: held.join("") });
}

/** A reader of `/api/v1/series` answers: the label sets, each copied as it is read. */
function seriesReader(displayUrl: string) {
  return (status: number, contentType: string | null) => {
    const reader = createAnswerReader(status, contentType, displayUrl, createSeriesListBuilder(displayUrl));
    return { write: reader.write, end: () => reader.end().data };
  };
}

/** Where and how the client's queries go, from its options. */
function targetOf(options: PrometheusClientOptions): PrometheusTarget {
  const given = new URL(options.url.endsWith("/") ? options.url : `${options.url}/`);
  const authorization = given.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(given.username)}:${decodeURIComponent(given.password)}`).toString("base64")}`
    : null;
  const base = withoutCredentials(given);
  return {
    base,
    authorization,
    displayUrl: base.toString().replace(/\/$/, ""),
    timeoutMs: options.timeoutMs,
    doFetch: options.fetch ?? fetch,
    compressed: options.compressed ?? false,
  };
}

export function createPrometheusClient(options: PrometheusClientOptions): PrometheusClient {
  const target = targetOf(options);
  const { displayUrl } = target;
  const streamAbove = options.streamAboveBytes ?? STREAM_ABOVE_BYTES;
  const send = (path: string, form: URLSearchParams | null, signal?: AbortSignal) =>
    sendToPrometheus(target, { path, form, signal }, readWhole);
  const bodies = createSlots(BODIES_READ_AT_ONCE);
  const sendStreamed = <T>(
    request: { path: string; form: URLSearchParams; signal: AbortSignal | undefined },
    parse: Parameters<typeof streamAnswer<T>>[2],
  ) =>
    sendToPrometheus(target, request, (response, progress) =>
      bodies.run(() => streamAnswer(response, progress, parse, streamAbove)),
    );
  const sendQuery = (path: string, form: URLSearchParams, signal?: AbortSignal) =>
    sendStreamed(
      { path, form, signal },
      {
        reader: (status, contentType) => createQueryAnswerReader(status, contentType, displayUrl),
        whole: (answer) => parseQueryResponse(answer.status, answer.contentType, answer.body, displayUrl),
      },
    );

  return {
    displayUrl,
    query(promql, queryOptions = {}) {
      const form = instantForm(promql, queryOptions);
      return sendQuery("api/v1/query", form, queryOptions.signal);
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
    queryVectorEach(promql, visit, queryOptions = {}) {
      const form = instantForm(promql, queryOptions);
      return sendStreamed(
        { path: "api/v1/query", form, signal: queryOptions.signal },
        vectorVisitParse(displayUrl, promql, visit),
      );
    },
    queryRange(promql, range, queryOptions = {}) {
      const form = new URLSearchParams({
        query: promql,
        start: formatSeconds(range.startMs),
        end: formatSeconds(range.endMs),
        step: String(range.stepSeconds),
      });
      if (range.maxLookbackSeconds !== undefined) form.set("max_lookback", `${range.maxLookbackSeconds}s`);
      return sendQuery("api/v1/query_range", form, queryOptions.signal);
    },
    async series(selector, range, queryOptions = {}) {
      const form = new URLSearchParams({
        "match[]": selector,
        start: formatSeconds(range.startMs),
        end: formatSeconds(range.endMs),
      });
      return sendStreamed(
        { path: "api/v1/series", form, signal: queryOptions.signal },
        {
          reader: seriesReader(displayUrl),
          whole: (answer) => parseSeriesResponse(answer.status, answer.contentType, answer.body, displayUrl),
        },
      );
    },
    async labelNames(selector, range, queryOptions = {}) {
      const form = new URLSearchParams({
        "match[]": selector,
        start: formatSeconds(range.startMs),
        end: formatSeconds(range.endMs),
      });
      return labelNamesOf(await send("api/v1/labels", form, queryOptions.signal), displayUrl);
    },
    async flags(queryOptions = {}) {
      return flagsOf(await send("api/v1/status/flags", null, queryOptions.signal), displayUrl);
    },
    async victoriaFlags(queryOptions = {}) {
      return victoriaFlagsOf(await send("/flags", null, queryOptions.signal), displayUrl);
    },
  };
}

function instantForm(promql: string, options: QueryOptions): URLSearchParams {
  const form = new URLSearchParams({ query: promql });
  if (options.atMs !== undefined) form.set("time", formatSeconds(options.atMs));
  if (options.maxLookbackSeconds !== undefined) form.set("max_lookback", `${options.maxLookbackSeconds}s`);
  return form;
}

/** The flags in a VictoriaMetrics `/flags` answer, or throws a `bad-response` error for anything else. */
function victoriaFlagsOf(answer: RawAnswer, displayUrl: string): Record<string, string> {
  const lines = answer.body.split("\n").filter((line) => line.trim() !== "");
  const flags = lines.map((line) => /^-([\w.-]+)="(.*)"$/.exec(line.trim()));
  const plain = answer.contentType?.startsWith("text/plain") ?? false;
  if (answer.status !== 200 || !plain || flags.length === 0 || flags.some((flag) => flag === null)) {
    throw new PrometheusError(
      answer.status === 200 ? "bad-response" : "http",
      `${displayUrl} sent no VictoriaMetrics flags (HTTP ${answer.status})`,
      answer.status,
      null,
    );
  }
  return Object.fromEntries(flags.map((flag) => [flag![1]!, flag![2]!]));
}

/** The flags in an answer from `/api/v1/status/flags`, each value as text, or throws like {@link parseQueryResponse}. */
function flagsOf(answer: RawAnswer, displayUrl: string): Record<string, string> {
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
}

/** The names in an answer from `/api/v1/labels`, or throws like {@link parseQueryResponse}. */
function labelNamesOf(answer: RawAnswer, displayUrl: string): string[] {
  const json = readEnvelope(answer.status, answer.contentType, answer.body, displayUrl);
  if (!Array.isArray(json.data)) {
    throw new PrometheusError(
      "bad-response",
      `Prometheus at ${displayUrl} sent malformed label names`,
      answer.status,
      null,
    );
  }
  return json.data.map(String);
}

interface RawAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

/** Turns an answer from `/api/v1/series` into label sets, or throws like {@link parseQueryResponse}. */
export function parseSeriesResponse(
  status: number,
  contentType: string | null,
  body: string,
  displayUrl = "the server",
): Record<string, string>[] {
  if (status < 200 || status >= 300) readEnvelope(status, contentType, body, displayUrl);
  const json = tryParseJson(body);
  if (isRecord(json) && json.status === "success" && Array.isArray(json.data)) {
    const builder = createSeriesListBuilder(displayUrl);
    for (const item of json.data as unknown[]) builder.addItem(item);
    return builder.finish();
  }
  const reader = seriesReader(displayUrl)(status, contentType);
  reader.write(body);
  return reader.end();
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
  if (status < 200 || status >= 300) readEnvelope(status, contentType, body, displayUrl);
  const json = tryParseJson(body);
  if (isRecord(json) && json.status === "success" && isRecord(json.data))
    return readQueryJson(json, displayUrl);
  const reader = createQueryAnswerReader(status, contentType, displayUrl);
  reader.write(body);
  return reader.end();
}

/** How `queryVectorEach` reads an answer: streamed (labels copied) or whole, each sample to `visit`. */
function vectorVisitParse(displayUrl: string, promql: string, visit: VectorVisit) {
  const notVector = (resultType: unknown) =>
    new PrometheusError(
      "bad-response",
      `Prometheus at ${displayUrl} returned a ${String(resultType)}, not a vector, for ${promql}`,
      200,
      null,
    );
  const visitor = (copyLabels: boolean) => createVectorVisitor(displayUrl, visit, notVector, copyLabels);
  return {
    reader: (status: number, contentType: string | null) => {
      const reader = createAnswerReader(status, contentType, displayUrl, visitor(true));
      return { write: reader.write, end: () => reader.end().data };
    },
    whole: (answer: RawAnswer) => visitWholeAnswer(answer, displayUrl, visitor),
  };
}

/**
 * A whole vector answer visited by the builder `visitor(false)` makes (over the parsed answer), or, where
 * it is no `"status":"success"` object, through the streaming reader for the same errors as a query.
 */
function visitWholeAnswer(
  answer: RawAnswer,
  displayUrl: string,
  visitor: (copyLabels: boolean) => AnswerDataBuilder<number>,
): number {
  const { status, contentType, body } = answer;
  if (status < 200 || status >= 300) readEnvelope(status, contentType, body, displayUrl);
  const builder = visitor(false);
  const json = parseVectorInPieces(body, builder);
  if (isRecord(json) && json.status === "success" && isRecord(json.data)) {
    for (const [key, value] of Object.entries(json.data)) {
      if (key !== "result" || !Array.isArray(value)) {
        builder.setField(key, value);
        continue;
      }
      builder.startResult();
      for (const item of value as unknown[]) builder.addItem(item);
    }
    return builder.finish();
  }
  const reader = createAnswerReader(status, contentType, displayUrl, visitor(true));
  reader.write(body);
  return reader.end().data;
}

/** A compact vector answer's opening, as Prometheus and VictoriaMetrics write it. */
const VECTOR_OPENING = '{"status":"success","data":{"resultType":"vector","result":[';
/** Where one element of a compact answer's `result` ends and the next begins. */
const NEXT_ELEMENT = '},{"metric":';
/** About how much of a vector answer's text is parsed at a time. */
const PIECE_CHARS = 64 * 1024;

/**
 * A compact vector answer parsed a piece of its `result` at a time, each piece's elements handed to
 * `builder` before the next is parsed; returns the answer left once those are taken out (its envelope
 * and last piece), parsed, or `undefined` where it is no JSON. Any other answer is parsed whole.
 * NOTE: a whole answer's tree (~10 MB for 20,000 GPUs) outgrew `npm start`'s 8 MB young generation, so
 * most of it was copied and promoted before it died; a piece's dies young. `},{"metric":` can only be
 * the boundary of two elements: a quote inside a JSON string is escaped.
 */
function parseVectorInPieces(body: string, builder: AnswerDataBuilder<number>): unknown {
  let start = VECTOR_OPENING.length;
  let cut = body.startsWith(VECTOR_OPENING) ? body.indexOf(NEXT_ELEMENT, start + PIECE_CHARS) : -1;
  if (cut < 0) return tryParseJson(body);
  builder.setField("resultType", "vector");
  builder.startResult();
  while (cut >= 0) {
    const items = tryParseJson(`[${body.slice(start, cut + 1)}]`);
    if (!Array.isArray(items)) return undefined;
    for (const item of items) builder.addItem(item);
    start = cut + 2;
    cut = body.indexOf(NEXT_ELEMENT, start + PIECE_CHARS);
  }
  return tryParseJson(VECTOR_OPENING + body.slice(start));
}

/** A whole, parsed `"status":"success"` query answer as a result, through the same builder as a streamed one. */
function readQueryJson(json: Record<string, unknown>, displayUrl: string): PromQueryResult {
  const builder = createQueryDataBuilder(displayUrl);
  for (const [key, value] of Object.entries(json.data as Record<string, unknown>)) {
    if (key !== "result" || !Array.isArray(value)) {
      builder.setField(key, value);
      continue;
    }
    builder.startResult();
    for (const item of value as unknown[]) builder.addItem(item);
  }
  const { data, skippedHistograms } = builder.finish();
  const warnings = Array.isArray(json.warnings) ? json.warnings.map(String) : [];
  return { data, skippedHistograms, warnings, partial: json.isPartial === true };
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

function tryParseJson(body: string): unknown {
  const start = body.trimStart()[0];
  if (start !== "{" && start !== "[") return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
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
