import { STATUS_CODES } from "node:http";
import { Agent, request } from "undici";

/** The `fetch` that Bolt and the Web API client accept (`clientOptions.fetch`, `WebClientOptions.fetch`). */
export type FetchFunction = typeof globalThis.fetch;

/**
 * How long to wait for a response's headers, then its body, when the caller gives no signal; a
 * caller's signal governs otherwise, with undici's 300 s as the backstop, as in `fetch`.
 */
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A `fetch` for Slack calls built on undici's `request` (keep-alive connections, no WHATWG streams):
 * Node's built-in `fetch` costs about five times more CPU per call, and every click answers through
 * one (`respond`) and queues others (the outbox), on the thread that acks Slack's requests.
 *
 * It covers what `@slack/web-api` and Bolt's `respond` send: a string, `URLSearchParams` or
 * binary body, headers, `method`, `signal` (rejecting with the signal's reason, as `fetch` does).
 * Anything else (a `Request` object, a `FormData` upload) goes to `fallback`, the global `fetch` by
 * default. The body is read whole before the answer resolves (Slack's answers are small), so a
 * caller that never reads it holds no connection.
 */
export function createLeanFetch(
  options: { timeoutMs?: number; fallback?: FetchFunction; connections?: number } = {},
): FetchFunction {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const fallback = options.fallback ?? globalThis.fetch;
  const dispatcher = new Agent({ connections: options.connections ?? 16 });
  const lean = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const body = init.body;
    const plainBody =
      body === undefined ||
      body === null ||
      typeof body === "string" ||
      body instanceof URLSearchParams ||
      body instanceof Uint8Array;
    if (typeof input !== "string" && !(input instanceof URL)) return fallback(input, init);
    if (!plainBody) return fallback(input, init);
    const headers = new Headers(init.headers);
    if (body instanceof URLSearchParams && !headers.has("content-type")) {
      headers.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8");
    }
    if (typeof body === "string" && !headers.has("content-type")) {
      headers.set("content-type", "text/plain;charset=UTF-8");
    }
    const url = String(input);
    const answer = await request(url, {
      dispatcher,
      method: (init.method ?? "GET").toUpperCase() as "GET",
      headers: Object.fromEntries(headers),
      body: body instanceof URLSearchParams ? body.toString() : (body ?? null),
      ...(init.signal === undefined || init.signal === null
        ? { headersTimeout: timeoutMs, bodyTimeout: timeoutMs }
        : { signal: init.signal }),
    });
    const bytes = Buffer.from(await answer.body.arrayBuffer());
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, one);
    }
    return leanResponse(url, answer.statusCode, responseHeaders, bytes);
  };
  return lean as FetchFunction;
}

/** The part of a `Response` Slack's clients read, over a body already in memory. */
function leanResponse(url: string, status: number, headers: Headers, bytes: Buffer): Response {
  let used = false;
  const take = (): Buffer => {
    if (used) throw new TypeError("Body is unusable: Body has already been read");
    used = true;
    return bytes;
  };
  const response = {
    url,
    status,
    statusText: STATUS_CODES[status] ?? "",
    ok: status >= 200 && status < 300,
    redirected: false,
    type: "basic",
    headers,
    get bodyUsed() {
      return used;
    },
    async text() {
      return take().toString("utf8");
    },
    async json() {
      return JSON.parse(take().toString("utf8")) as unknown;
    },
    async arrayBuffer() {
      const taken = take();
      return taken.buffer.slice(taken.byteOffset, taken.byteOffset + taken.byteLength);
    },
    async bytes() {
      return new Uint8Array(take());
    },
    async blob() {
      return new Blob([take()], { type: headers.get("content-type") ?? "" });
    },
  };
  return response as unknown as Response;
}
