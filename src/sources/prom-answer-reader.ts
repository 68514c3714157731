import { none } from "stream-chain/defs.js";
import Assembler from "stream-json/assembler.js";
import { jsonParser, type Token } from "stream-json/parser.js";
import { createQueryDataBuilder } from "./prom-query-data.ts";
import type { PromQueryResult } from "./prometheus-api.ts";
import { describeNonJson, oneLine, PrometheusError } from "./prometheus-error.ts";

/**
 * Where the pieces of an answer's `data` go as they are read: `data` is an object whose `result` array
 * is handed on one element at a time (query answers), or itself an array handed on one element at a
 * time (`listData`: the series endpoint). Every other value is small and given whole to `setField`.
 */
export interface AnswerDataBuilder<T> {
  readonly listData: boolean;
  /** A field of `data` other than the `result` array (`resultType`, or a `result` that is no array). */
  setField(key: string, value: unknown): void;
  /** `data.result` is an array (query answers); its elements follow through `addItem`. */
  startResult(): void;
  addItem(item: unknown): void;
  finish(): T;
}

/**
 * Reads a 2xx answer of the HTTP API as it arrives: `write` each decoded piece of the body, then `end`.
 * Each element of the data's list is assembled alone and handed on at once, so neither the body's text
 * nor its whole parsed tree is ever held. Throws a {@link PrometheusError} like a whole read would:
 * non-JSON, an `"status":"error"` answer, malformed data, or JSON that stops short.
 */
export interface AnswerReader<T> {
  write(text: string): void;
  end(): { data: T; warnings: string[]; partial: boolean };
}

/** An {@link AnswerReader} of a query answer (`/api/v1/query`, `/api/v1/query_range`). */
export interface QueryAnswerReader {
  write(text: string): void;
  end(): PromQueryResult;
}

export function createQueryAnswerReader(
  status: number,
  contentType: string | null,
  displayUrl: string,
): QueryAnswerReader {
  const reader = createAnswerReader(status, contentType, displayUrl, createQueryDataBuilder(displayUrl));
  return {
    write: reader.write,
    end() {
      const { data, warnings, partial } = reader.end();
      return { data: data.data, skippedHistograms: data.skippedHistograms, warnings, partial };
    },
  };
}

const HEAD_CHARS = 4_096;

export function createAnswerReader<T>(
  status: number,
  contentType: string | null,
  displayUrl: string,
  builder: AnswerDataBuilder<T>,
): AnswerReader<T> {
  const tokenize = jsonParser({ streamValues: false });
  const walker = createEnvelopeWalker(builder);
  let head = "";
  let received = 0;
  let json: boolean | null = null;
  const notJson = () =>
    new PrometheusError(
      "bad-response",
      `Prometheus at ${displayUrl} answered HTTP ${status} ${describeNonJson(contentType, head)}`,
      status,
      null,
    );
  const feed = (text: string) => {
    try {
      const tokens = tokenize(text);
      if (tokens !== none) for (const token of tokens.values) walker.take(token);
    } catch (error) {
      if (error instanceof PrometheusError) throw error;
      if (error instanceof NotApiShape) throw notApiResponse(status, displayUrl);
      throw notJson();
    }
  };
  return {
    write(text) {
      received += text.length;
      if (head.length < HEAD_CHARS) head += text.slice(0, HEAD_CHARS - head.length);
      json ??= startsJson(head);
      if (json) feed(text);
    },
    end() {
      if (!json) throw notJson();
      try {
        feed(none as unknown as string);
      } catch (error) {
        if (walker.closed()) throw error;
      }
      if (!walker.closed()) {
        throw new PrometheusError(
          "bad-response",
          `Prometheus at ${displayUrl} answered HTTP ${status} with JSON that stops after ${received} characters: the answer was cut off`,
          status,
          null,
        );
      }
      return walker.finish(status, displayUrl);
    },
  };
}

/** Whether the body's first non-blank character opens JSON; null while only blanks came. */
function startsJson(head: string): boolean | null {
  const first = head.trimStart()[0];
  if (first === undefined) return null;
  return first === "{" || first === "[";
}

interface EnvelopeWalker<T> {
  take(token: Token): void;
  closed(): boolean;
  finish(status: number, displayUrl: string): { data: T; warnings: string[]; partial: boolean };
}

/**
 * Follows the tokens of `{"status":…,"data":{"resultType":…,"result":[…]},…}` (or `"data":[…]`): every
 * value outside the data's list is assembled whole (they are small), each element of the list alone.
 */
function createEnvelopeWalker<T>(builder: AnswerDataBuilder<T>): EnvelopeWalker<T> {
  const envelope: Record<string, unknown> = {};
  let depth = 0;
  let topKey = "";
  let dataKey = "";
  let sawData = false;
  let closed = false;
  let assembling: ValueAssembly | null = null;
  const place = (token: Token): ((value: unknown) => void) | null => {
    const opensObject = token.name === "startObject";
    if (depth === 0) {
      if (!opensObject) throw notApi();
      return null;
    }
    if (depth === 1 && topKey === "data") {
      sawData = builder.listData ? token.name === "startArray" : opensObject;
      if (sawData) return null;
    }
    if (depth === 1) return (value) => (envelope[topKey] = value);
    if (builder.listData) return (value) => builder.addItem(value);
    if (depth === 2 && dataKey === "result" && token.name === "startArray") {
      builder.startResult();
      return null;
    }
    if (depth === 2) return (value) => builder.setField(dataKey, value);
    return (value) => builder.addItem(value);
  };
  return {
    take(token) {
      if (assembling) {
        if (assembling.take(token)) assembling = null;
        return;
      }
      if (token.name === "keyValue") {
        if (depth === 1) topKey = token.value;
        else dataKey = token.value;
        return;
      }
      if (token.name === "endObject" || token.name === "endArray") {
        depth--;
        closed = depth === 0;
        return;
      }
      const done = place(token);
      if (done === null) depth++;
      else assembling = assembleValue(token, done);
    },
    closed: () => closed,
    finish(status, displayUrl) {
      return finishAnswer(envelope, sawData, builder, status, displayUrl);
    },
  };
}

/** Feeds one value's tokens to an {@link Assembler}; `take` is true once the value is whole. */
interface ValueAssembly {
  take(token: Token): boolean;
}

function assembleValue(first: Token, done: (value: unknown) => void): ValueAssembly | null {
  if (first.name !== "startObject" && first.name !== "startArray") {
    done(primitive(first));
    return null;
  }
  const assembler = new Assembler();
  assembler.consume(first);
  let level = 1;
  return {
    take(token) {
      assembler.consume(token);
      if (token.name === "startObject" || token.name === "startArray") level++;
      else if (token.name === "endObject" || token.name === "endArray") level--;
      if (level > 0) return false;
      done(assembler.current);
      return true;
    },
  };
}

function primitive(token: Token): unknown {
  switch (token.name) {
    case "stringValue":
      return token.value;
    case "numberValue":
      return Number(token.value);
    case "nullValue":
    case "trueValue":
    case "falseValue":
      return token.value;
    default:
      return undefined;
  }
}

/** Marks JSON whose shape is not the API's; replaced by a message that names the server in `finishAnswer`. */
class NotApiShape extends Error {}

function notApi(): Error {
  return new NotApiShape("not a query API response");
}

function notApiResponse(status: number, displayUrl: string): PrometheusError {
  return new PrometheusError(
    "bad-response",
    `Prometheus at ${displayUrl} answered HTTP ${status} with JSON that is not a query API response`,
    status,
    null,
  );
}

function finishAnswer<T>(
  envelope: Record<string, unknown>,
  sawData: boolean,
  builder: AnswerDataBuilder<T>,
  status: number,
  displayUrl: string,
): { data: T; warnings: string[]; partial: boolean } {
  if (envelope.status === "error") {
    const errorType = typeof envelope.errorType === "string" ? envelope.errorType : null;
    const detail = typeof envelope.error === "string" ? envelope.error : "no error message";
    throw new PrometheusError(
      "bad-response",
      `Prometheus at ${displayUrl} answered HTTP ${status}${errorType ? ` (${errorType})` : ""}: ${oneLine(detail, 300)}`,
      status,
      errorType,
    );
  }
  if (envelope.status !== "success" || !sawData) throw notApiResponse(status, displayUrl);
  const warnings = Array.isArray(envelope.warnings) ? envelope.warnings.map(String) : [];
  const partial = envelope.isPartial === true;
  return { data: builder.finish(), warnings, partial };
}
