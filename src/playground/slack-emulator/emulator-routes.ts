import type { IncomingMessage, ServerResponse } from "node:http";
import type { Clock } from "../../shared/clock.ts";
import { applyResponse } from "./apply-response.ts";
import type { EmulatorIdentity } from "./emulator-identity.ts";
import {
  type EmulatorState,
  RESPONSE_URL_MAX_USES,
  RESPONSE_URL_TTL_MS,
  type WebApiCall,
} from "./emulator-state.ts";
import type { FailureInjector } from "./failure-injector.ts";
import { isObject, type JsonObject } from "./json.ts";
import { callWebApi, type WebApiContext } from "./web-api.ts";

const JSON_ARGS = ["blocks", "view", "files", "attachments", "metadata"];

/** What the emulator's HTTP routes read and change. */
export interface RouteContext {
  state: EmulatorState;
  identity: EmulatorIdentity;
  clock: Clock;
  injector: FailureInjector;
  apiContext: WebApiContext;
  blocksTextLimitChars: number;
  /** Timers of injected delays, cleared on close. */
  pendingTimers: Set<NodeJS.Timeout>;
  baseUrl: string;
}

/** The emulator's request handler: Web API methods, response URLs, uploads and uploaded files. */
export function createEmulatorRoute(
  ctx: RouteContext,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return (req, res) => route(ctx, req, res);
}

const delay = (ctx: RouteContext, ms: number): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => {
      ctx.pendingTimers.delete(timer);
      resolve();
    }, ms);
    ctx.pendingTimers.add(timer);
  });

/**
 * Applies an injected failure; true when the request was answered (or left hanging) by it,
 * `"hang-after"` when the call is to be done and then left unanswered.
 */
async function injected(
  ctx: RouteContext,
  name: string,
  isApiMethod: boolean,
  res: ServerResponse,
  call?: WebApiCall,
): Promise<boolean | "hang-after"> {
  const mode = ctx.injector.next(name, isApiMethod, call?.args);
  if (mode === undefined) return false;
  if ("delayMs" in mode) {
    await delay(ctx, mode.delayMs);
    return false;
  }
  if ("hangAfter" in mode && isApiMethod) return "hang-after";
  if ("hang" in mode || "hangAfter" in mode) {
    if (call !== undefined) call.error = "hang";
    return true;
  }
  if ("error" in mode) {
    if (call !== undefined) {
      call.status = 200;
      call.error = mode.error;
    }
    sendJson(res, 200, { ok: false, error: mode.error });
    return true;
  }
  if (call !== undefined) {
    call.status = mode.status;
    call.error = `http_${mode.status}`;
  }
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (mode.retryAfterS !== undefined) headers["retry-after"] = String(mode.retryAfterS);
  const error = mode.status === 429 ? "ratelimited" : "service_unavailable";
  res.writeHead(mode.status, headers).end(JSON.stringify({ ok: false, error }));
  return true;
}

async function handleApi(
  ctx: RouteContext,
  method: string,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const args = await readArgs(req, url).catch((error: unknown) => {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  });
  if (args === undefined) {
    sendJson(res, 200, { ok: false, error: "invalid_json" });
    return;
  }
  const header = req.headers.authorization;
  const bearer = header?.startsWith("Bearer ") ? header.slice("Bearer ".length) : undefined;
  const token =
    bearer !== undefined && bearer !== "" ? bearer : typeof args.token === "string" ? args.token : undefined;
  delete args.token;
  for (const key of JSON_ARGS) if (key in args) args[key] = decodeJsonArg(args[key]);
  const call: WebApiCall = { method, args, token, atMs: ctx.clock.now(), status: 0, error: undefined };
  ctx.state.calls.push(call);
  const injection = await injected(ctx, method, true, res, call);
  if (injection === true) return;
  const body = callWebApi(ctx.apiContext, method, args, token);
  call.status = 200;
  call.error = body.ok === true ? undefined : String(body.error);
  if (injection === "hang-after") call.error = "hang";
  else sendJson(res, 200, body);
}

async function handleResponseUrl(
  ctx: RouteContext,
  id: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const raw = await readBody(req);
  if ((await injected(ctx, "response_url", false, res)) !== false) return;
  const record = ctx.state.responseUrls.get(id);
  if (record === undefined) {
    sendJson(res, 404, { ok: false, error: "invalid_url" });
    return;
  }
  const body = parseResponseBody(req, raw);
  const accepted = record.posts.filter((p) => p.status === 200).length;
  const result =
    ctx.clock.now() - record.issuedAtMs > RESPONSE_URL_TTL_MS
      ? { status: 404, body: { ok: false, error: "expired_url" } }
      : accepted >= RESPONSE_URL_MAX_USES
        ? { status: 404, body: { ok: false, error: "used_url" } }
        : applyResponse(
            { state: ctx.state, identity: ctx.identity, blocksTextLimitChars: ctx.blocksTextLimitChars },
            record,
            body,
            "response_url",
          );
  record.posts.push({ body, status: result.status });
  sendJson(res, result.status, result.body);
}

async function handleUpload(
  ctx: RouteContext,
  id: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const raw = await readBody(req);
  if ((await injected(ctx, "upload", false, res)) !== false) return;
  const file = ctx.state.files.get(id);
  if (file === undefined) {
    res.writeHead(404).end("file_not_found");
    return;
  }
  file.bytes = await uploadedBytes(req, raw);
  res.writeHead(200, { "content-type": "text/plain" }).end(`OK - ${file.bytes.length}`);
}

async function route(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestUrl = new URL(req.url ?? "/", ctx.baseUrl);
  const [, area, id] = requestUrl.pathname.split("/");
  if (area === "api" && id !== undefined && id !== "") return handleApi(ctx, id, req, res, requestUrl);
  if (req.method === "POST" && area === "response" && id !== undefined)
    return handleResponseUrl(ctx, id, req, res);
  if (req.method === "POST" && area === "upload" && id !== undefined) return handleUpload(ctx, id, req, res);
  const file = area === "files" && id !== undefined ? ctx.state.files.get(id) : undefined;
  if (req.method === "GET" && file?.bytes !== undefined) {
    res.writeHead(200, { "content-type": "application/octet-stream" }).end(file.bytes);
    return;
  }
  res.writeHead(404, { "content-type": "text/plain" }).end("not found");
}

function sendJson(res: ServerResponse, status: number, body: JsonObject): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}

function mediaType(req: IncomingMessage): string {
  return (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

async function multipartEntries(
  req: IncomingMessage,
  raw: Buffer,
): Promise<Array<[string, string | Buffer]>> {
  const request = new Request("http://emulator/", {
    method: "POST",
    headers: { "content-type": req.headers["content-type"] ?? "" },
    body: raw,
  });
  const entries: Array<[string, string | Buffer]> = [];
  for (const [key, value] of await request.formData()) {
    entries.push([key, typeof value === "string" ? value : Buffer.from(await value.arrayBuffer())]);
  }
  return entries;
}

/** The call's arguments from query, form, JSON or multipart body (as web-api 8 may send them). */
async function readArgs(req: IncomingMessage, url: URL): Promise<JsonObject> {
  const raw = await readBody(req);
  const args: JsonObject = Object.fromEntries(url.searchParams);
  const type = mediaType(req);
  if (type === "application/json" && raw.length > 0) {
    const parsed: unknown = JSON.parse(raw.toString("utf8"));
    if (isObject(parsed)) Object.assign(args, parsed);
  } else if (type === "multipart/form-data") {
    for (const [key, value] of await multipartEntries(req, raw)) args[key] = value;
  } else if (raw.length > 0) {
    Object.assign(args, Object.fromEntries(new URLSearchParams(raw.toString("utf8"))));
  }
  return args;
}

/** web-api sends `blocks`, `view`, … as JSON strings; a string that is not JSON stays a string. */
function decodeJsonArg(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function parseResponseBody(req: IncomingMessage, raw: Buffer): unknown {
  const text = raw.toString("utf8");
  if (mediaType(req) === "application/x-www-form-urlencoded") {
    return decodeJsonArg(new URLSearchParams(text).get("payload") ?? "");
  }
  return decodeJsonArg(text);
}

async function uploadedBytes(req: IncomingMessage, raw: Buffer): Promise<Buffer> {
  if (mediaType(req) !== "multipart/form-data") return raw;
  const entries = await multipartEntries(req, raw);
  const part = entries.find(([key]) => key === "body") ?? entries.find(([, value]) => Buffer.isBuffer(value));
  const value = part?.[1] ?? "";
  return Buffer.isBuffer(value) ? value : Buffer.from(value);
}
