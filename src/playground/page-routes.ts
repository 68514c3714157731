import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { BadRequest, type PageActionDeps, pageActions } from "./page-actions.ts";
import { pageSnapshot, type SnapshotSources } from "./page-snapshot.ts";
import { localisePage, pageWords } from "./page-words.ts";
import { PLAYGROUND_USERS } from "./playground-config.ts";
import { isObject, type JsonObject } from "./slack-emulator/json.ts";
import { trimEmulatorState } from "./trim-emulator-state.ts";

/** The bot is a function: the routes exist before it (they are served on its port). */
export type PageRouteDeps = PageActionDeps;

export interface PageRoutes {
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Tells open pages that something changed (they fetch their snapshot again). */
  changed(): void;
  close(): void;
}

const PAGE_DIR = new URL("./page/", import.meta.url);
const STATIC: Readonly<Record<string, string>> = {
  "/": "index.html",
  "/page/app.js": "app.js",
  "/page/blocks.js": "blocks.js",
  "/page/mrkdwn.js": "mrkdwn.js",
  "/page/words.js": "words.js",
  "/page/style.css": "style.css",
};
const TYPES: Readonly<Record<string, string>> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  png: "image/png",
  csv: "text/csv; charset=utf-8",
};

/**
 * The playground page and its API on the bot's HTTP port: the page's files (its labels in the team's
 * language, see {@link localisePage}), a snapshot per person
 * (`GET /api/state?user=`), server-sent change events (`GET /api/events`), what a person does
 * (`POST /api/command|click|submit|close|home`, through the emulator as Slack would deliver it),
 * the fleet panel (`POST /api/fleet`) and the clock control (`POST /api/clock`), and uploaded files.
 */
export function pageRoutes(deps: PageRouteDeps): PageRoutes {
  const streams = new Set<ServerResponse>();
  let version = 0;
  let lastPrint = "";
  const changed = () => {
    version++;
    for (const stream of streams) stream.write(`event: change\ndata: ${version}\n\n`);
  };
  let droppedCalls = 0;
  const watch = setInterval(() => {
    const print = fingerprint(deps, droppedCalls);
    if (print !== lastPrint) {
      lastPrint = print;
      changed();
    }
  }, 100);
  const keepAlive = setInterval(() => {
    for (const stream of streams) stream.write(": keep-alive\n\n");
    // NOTE: right after a fingerprint, and the fingerprint taken again: trimming is no change.
    droppedCalls += trimEmulatorState(deps.emulator.state);
    lastPrint = fingerprint(deps, droppedCalls);
  }, 15_000);

  const actions = pageActions(deps, changed);
  const words = pageWords(deps.config.team);

  return {
    changed,
    close() {
      clearInterval(watch);
      clearInterval(keepAlive);
      for (const stream of streams) stream.end();
      streams.clear();
    },
    async handle(req, res) {
      const url = new URL(req.url ?? "/", "http://playground");
      const path = url.pathname;
      const file = STATIC[path];
      if (req.method === "GET" && file !== undefined) {
        const read = await readFile(new URL(file, PAGE_DIR));
        const body = file === "index.html" ? localisePage(read.toString("utf8"), words) : read;
        res.writeHead(200, { "content-type": TYPES[file.split(".").pop() ?? ""] ?? "text/plain" }).end(body);
        return true;
      }
      if (req.method === "GET" && path === "/api/state") {
        const user = url.searchParams.get("user") ?? PLAYGROUND_USERS[0]?.id ?? "";
        sendJson(res, 200, pageSnapshot(deps, user));
        return true;
      }
      if (req.method === "GET" && path === "/api/events") {
        res.writeHead(200, {
          "content-type": "text/event-stream",
          "cache-control": "no-cache",
          connection: "keep-alive",
        });
        res.write(`event: change\ndata: ${version}\n\n`);
        streams.add(res);
        req.on("close", () => streams.delete(res));
        return true;
      }
      if (req.method === "GET" && path.startsWith("/files/")) return sendFile(deps, path, url, res);
      const action = path.startsWith("/api/") ? actions[path.slice("/api/".length)] : undefined;
      if (req.method === "POST" && action !== undefined) {
        try {
          sendJson(res, 200, { ok: true, ...(await action(await readJson(req))) });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          deps.logger.warn({ path, err: error }, "playground action refused");
          sendJson(res, error instanceof BadRequest ? 400 : 409, { ok: false, error: message });
        } finally {
          changed();
        }
        return true;
      }
      return false;
    },
  };
}

async function sendFile(deps: PageRouteDeps, path: string, url: URL, res: ServerResponse): Promise<boolean> {
  const id = decodeURIComponent(path.split("/")[2] ?? "");
  const file = deps.emulator.state.files.get(id);
  if (file?.bytes === undefined) return false;
  const extension = file.filename.split(".").pop()?.toLowerCase() ?? "";
  const headers: Record<string, string> = { "content-type": TYPES[extension] ?? "application/octet-stream" };
  if (url.searchParams.has("download")) {
    headers["content-disposition"] = `attachment; filename="${file.filename.replace(/[^\w.-]/g, "_")}"`;
  }
  res.writeHead(200, headers).end(file.bytes);
  return true;
}

/** Cheap to compute, and different whenever anyone could see something new. */
function fingerprint({ emulator, fleet, clock }: SnapshotSources, droppedCalls: number): string {
  const { state } = emulator;
  let posts = 0;
  for (const record of state.responseUrls.values()) posts += record.posts.length;
  let views = 0;
  for (const view of state.views.values())
    views += view.versions.length + (view.errors === undefined ? 0 : 1);
  const stacks = [...state.modalStacks.values()].map((stack) => stack.join(",")).join(";");
  return [
    droppedCalls + state.calls.length,
    posts,
    state.ephemerals.length,
    state.failures.length,
    views,
    stacks,
    fleet.version,
    clock.paused,
    clock.rate,
  ].join("|");
}

async function readJson(req: IncomingMessage): Promise<JsonObject> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    if (!isObject(parsed)) throw new BadRequest("a JSON object is expected");
    return parsed;
  } catch (error) {
    if (error instanceof SyntaxError) throw new BadRequest("invalid JSON");
    throw error;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
}
