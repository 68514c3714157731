import type { AnswerDataBuilder } from "./prom-answer-reader.ts";
import { parsePromValue } from "./prom-value.ts";
import type { PromPoint, PromQueryData, PromRangeSeries, PromVectorSample } from "./prometheus-api.ts";
import { PrometheusError } from "./prometheus-error.ts";

/** What a query answer's `data` reads as: the result, and how many native-histogram series were left out. */
export interface QueryData {
  data: PromQueryData;
  skippedHistograms: number;
}

/**
 * The `data` of a query answer, built one `result` element at a time: vector and matrix elements are
 * reduced to samples as they come (Prometheus and VictoriaMetrics write `resultType` before `result`;
 * elements that come before it are reduced at the end). Malformed parts throw a `bad-response` that
 * names `displayUrl`.
 */
export function createQueryDataBuilder(displayUrl: string): AnswerDataBuilder<QueryData> {
  const bad = (what: string) =>
    new PrometheusError("bad-response", `Prometheus at ${displayUrl} sent a malformed ${what}`, 200, null);
  let resultType: unknown;
  let result: unknown;
  const series: (PromVectorSample | PromRangeSeries)[] = [];
  const unread: unknown[] = [];
  let skippedHistograms = 0;
  const labels = createLabelCopier();
  const add = (item: unknown) => {
    const read =
      resultType === "vector" ? readVectorItem(item, bad, labels) : readMatrixItem(item, bad, labels);
    if (read === null) skippedHistograms++;
    else series.push(read);
  };
  return {
    listData: false,
    setField(key, value) {
      if (key === "resultType") resultType = value;
      else if (key === "result") result = value;
    },
    startResult() {
      result = [];
    },
    addItem(item) {
      if (resultType === "vector" || resultType === "matrix") add(item);
      else unread.push(item);
    },
    finish() {
      if (resultType === "vector" || resultType === "matrix") {
        if (!Array.isArray(result)) throw bad(resultType);
        for (const item of unread.splice(0)) add(item);
        return { data: { resultType, series } as PromQueryData, skippedHistograms };
      }
      return {
        data: readOther(resultType, Array.isArray(result) ? unread : result, bad),
        skippedHistograms: 0,
      };
    },
  };
}

type Bad = (what: string) => PrometheusError;

/** Takes one sample of a vector answer: its labels (read only, not to be kept whole) and value. */
export type VectorVisit = (labels: Readonly<Record<string, string>>, value: number) => void;

/**
 * The `data` of an answer that must be a vector, each sample handed to `visit` as it is read and not
 * kept: no sample object, no copy of the label set (a poll reads ~80,000 per DCGM field at 80,000
 * GPUs). With `copyLabels` (a streamed answer, whose strings may be cut from the parser's text) each
 * label set is copied first, as {@link createQueryDataBuilder} does; a whole answer's label set is
 * handed on as `JSON.parse` made it, unless a value is not a string. Another result type throws
 * `notVector(resultType)`; `finish` returns how many samples were visited.
 */
export function createVectorVisitor(
  displayUrl: string,
  visit: VectorVisit,
  notVector: (resultType: unknown) => PrometheusError,
  copyLabels: boolean,
): AnswerDataBuilder<number> {
  const bad = (what: string) =>
    new PrometheusError("bad-response", `Prometheus at ${displayUrl} sent a malformed ${what}`, 200, null);
  let resultType: unknown;
  let isArray = false;
  let visited = 0;
  const unread: unknown[] = [];
  const copy = createLabelCopier();
  const take = (item: unknown) => {
    if (!isRecord(item) || !isRecord(item.metric)) throw bad("vector element");
    if (item.value === undefined && item.histogram !== undefined) return;
    const point = readPoint(item.value);
    if (!point) throw bad("vector sample");
    visit(
      copyLabels || !allStrings(item.metric) ? copy(item.metric) : (item.metric as Record<string, string>),
      point.value,
    );
    visited++;
  };
  return {
    listData: false,
    setField(key, value) {
      if (key === "resultType") resultType = value;
      else if (key === "result") isArray = Array.isArray(value);
    },
    startResult() {
      isArray = true;
    },
    addItem(item) {
      if (resultType === "vector") take(item);
      else unread.push(item);
    },
    finish() {
      if (resultType !== "vector") {
        if (resultType === "matrix" || resultType === "scalar" || resultType === "string")
          throw notVector(resultType);
        throw bad(`result (resultType ${JSON.stringify(resultType)})`);
      }
      if (!isArray) throw bad("vector");
      for (const item of unread.splice(0)) take(item);
      return visited;
    },
  };
}

function allStrings(metric: Record<string, unknown>): boolean {
  for (const name in metric) if (typeof metric[name] !== "string") return false;
  return true;
}

type LabelCopier = (metric: Record<string, unknown>) => Record<string, string>;

/** The label sets of a `/api/v1/series` answer, each copied as it is read. */
export function createSeriesListBuilder(displayUrl: string): AnswerDataBuilder<Record<string, string>[]> {
  const labels = createLabelCopier();
  const list: Record<string, string>[] = [];
  return {
    listData: true,
    setField() {},
    startResult() {},
    addItem(item) {
      if (!isRecord(item)) {
        throw new PrometheusError(
          "bad-response",
          `Prometheus at ${displayUrl} sent a malformed series list`,
          200,
          null,
        );
      }
      list.push(labels(item));
    },
    finish: () => list,
  };
}

/**
 * Copies a label set with each value held once per answer: most values repeat across series (model,
 * job, namespace, driver), and a value cut from the parser's text would keep that whole piece of the
 * body alive, so each distinct value is copied out of it once.
 */
function createLabelCopier(): LabelCopier {
  const held = new Map<string, string>();
  const hold = (value: string) => {
    let kept = held.get(value);
    if (kept === undefined) {
      kept = JSON.parse(JSON.stringify(value)) as string;
      held.set(kept, kept);
    }
    return kept;
  };
  return (metric) => {
    const copy: Record<string, string> = {};
    for (const name in metric) copy[name] = hold(String(metric[name]));
    return copy;
  };
}

/** A vector element as a sample; null for a native-histogram element. */
function readVectorItem(item: unknown, bad: Bad, labels: LabelCopier): PromVectorSample | null {
  if (!isRecord(item) || !isRecord(item.metric)) throw bad("vector element");
  if (item.value === undefined && item.histogram !== undefined) return null;
  const point = readPoint(item.value);
  if (!point) throw bad("vector sample");
  return { labels: labels(item.metric), atMs: point.atMs, value: point.value };
}

/** A matrix element as a series; null for a native-histogram element. */
function readMatrixItem(item: unknown, bad: Bad, labels: LabelCopier): PromRangeSeries | null {
  if (!isRecord(item) || !isRecord(item.metric)) throw bad("matrix element");
  if (item.values === undefined && item.histograms !== undefined) return null;
  if (!Array.isArray(item.values)) throw bad("matrix element");
  const points: PromPoint[] = [];
  for (const value of item.values as unknown[]) {
    const point = readPoint(value);
    if (!point) throw bad("matrix sample");
    points.push(point);
  }
  return { labels: labels(item.metric), points };
}

function readOther(resultType: unknown, result: unknown, bad: Bad): PromQueryData {
  if (resultType === "scalar") {
    const point = readPoint(result);
    if (!point) throw bad("scalar");
    return { resultType, atMs: point.atMs, value: point.value };
  }
  if (resultType === "string") {
    if (!Array.isArray(result) || typeof result[0] !== "number" || typeof result[1] !== "string") {
      throw bad("string");
    }
    return { resultType, atMs: Math.round(result[0] * 1000), value: result[1] };
  }
  throw bad(`result (resultType ${JSON.stringify(resultType)})`);
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
