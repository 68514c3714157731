import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

/** What `/healthz` reports: the process is up and when the last poll cycle finished. */
export interface Health {
  ok: boolean;
  lastPollAtMs: number | null;
  [detail: string]: unknown;
}

export interface HttpServerDeps {
  registry: Pick<Registry, "metrics" | "contentType">;
  health: () => Health;
  /** Further routes (e.g. the Slack events endpoint); return false when not handled. */
  extra?: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
}

export interface RunningHttpServer {
  server: Server;
  port: number;
  url: string;
  /** From now on serves these routes instead (the bot's, once composed, over the start's). */
  serve(deps: HttpServerDeps): void;
  close(): Promise<void>;
}

export async function startHttpServer(
  deps: HttpServerDeps,
  host: string,
  port: number,
): Promise<RunningHttpServer> {
  let current = deps;
  const server = createServer((req, res) => {
    handle(current, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    server,
    port: actual,
    url: `http://${host}:${actual}`,
    serve(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(deps: HttpServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? "/").split("?")[0];
  if (req.method === "GET" && path === "/healthz") {
    const health = deps.health();
    res.writeHead(health.ok ? 200 : 503, { "content-type": "application/json" });
    res.end(`${JSON.stringify(health)}\n`);
    return;
  }
  if (req.method === "GET" && path === "/metrics") {
    const body = await deps.registry.metrics();
    res.writeHead(200, { "content-type": deps.registry.contentType });
    res.end(body);
    return;
  }
  if (deps.extra && (await deps.extra(req, res))) return;
  res.writeHead(404, { "content-type": "text/plain" });
  res.end("not found\n");
}
