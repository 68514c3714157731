/** Why a query to a Prometheus-compatible server failed. */
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

/** A failed query, with a one-line message that names the server and what went wrong. */
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

/** What a body that is not the query API's JSON looks like, for a message: an HTML page's title, or its start. */
export function describeNonJson(contentType: string | null, body: string): string {
  const type = (contentType ?? "").split(";")[0]!.trim() || "no content type";
  if (/html/i.test(type) || /^\s*<(!doctype|html)/i.test(body)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1];
    const what = title ? ` ("${oneLine(title, 80)}")` : "";
    return `with an HTML page${what}, not the query API's JSON; check the URL or the proxy in front of it`;
  }
  if (body.trim() === "") return `with an empty ${type} body, not the query API's JSON`;
  return `with ${type}, not the query API's JSON: "${oneLine(body, 120)}"`;
}

/** `text` on one line, cut to `max` characters. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}
