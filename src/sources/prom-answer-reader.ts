import { none } from "stream-chain/defs.js";
import Assembler from "stream-json/assembler.js";
import { jsonParser, type Token } from "stream-json/parser.js";
import { createQueryDataBuilder, type QueryDataBuilder } from "./prom-query-data.ts";
import type { PromQueryResult } from "./prometheus-api.ts";
import { describeNonJson, oneLine, PrometheusError } from "./prometheus-error.ts";

/**
 * Reads a 2xx answer of the query API as it arrives: `write` each decoded piece of the body, then `end`.
 * Each element of `data.result` is assembled alone and reduced to a sample or a series at once, so neither
 * the body's text nor its whole parsed tree is ever held. Throws a {@link PrometheusError} like a whole
 * read would: non-JSON, an `"status":"error"` answer, malformed data, or JSON that stops short.
 */
export interface QueryAnswerReader {
  write(text: string): void;
  end(): PromQueryResult;
}

const HEAD_CHARS = 4_096;

export function createQueryAnswerReader(
  status: number,
  contentType: string | null,
  displayUrl: string,
): QueryAnswerReader {
  const tokenize = jsonParser({ streamValues: false });
  const walker = createEnvelopeWalker(createQueryDataBuilder(displayUrl));
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

interface EnvelopeWalker {
  take(token: Token): void;
  closed(): boolean;
  finish(status: number, displayUrl: string): PromQueryResult;
}

/**
 * Follows the tokens of `{"status":…,"data":{"resultType":…,"result":[…]},…}`: every value outside
 * `data.result` is assembled whole (they are small), each element of `data.result` alone.
 */
function createEnvelopeWalker(builder: QueryDataBuilder): EnvelopeWalker {
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
    if (depth === 1 && topKey === "data" && opensObject) {
      sawData = true;
      return null;
    }
    if (depth === 1) return (value) => (envelope[topKey] = value);
    if (depth === 2 && dataKey === "result" && token.name === "startArray") {
      builder.setResult([]);
      return null;
    }
    if (depth === 2) return (value) => saveDataField(builder, dataKey, value);
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

function saveDataField(builder: QueryDataBuilder, key: string, value: unknown): void {
  if (key === "resultType") builder.setResultType(value);
  else if (key === "result") builder.setResult(value);
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

function finishAnswer(
  envelope: Record<string, unknown>,
  sawData: boolean,
  builder: QueryDataBuilder,
  status: number,
  displayUrl: string,
): PromQueryResult {
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
  const { data, skippedHistograms } = builder.finish();
  return { data, skippedHistograms, warnings, partial };
}
