import type { ServerResponse } from "node:http";
import type { CustomRoute } from "@slack/bolt";
import type { Registry } from "prom-client";
import type { Health } from "../../observability/http-server.ts";
import type { Logger } from "../../shared/logger.ts";

/** What `/healthz` and `/metrics` serve; the same answers as `startHttpServer`. */
export interface HealthEndpoints {
  registry: Registry;
  health: () => Health;
}

/**
 * `GET /healthz` and `GET /metrics` as Bolt custom routes, so in HTTP mode one port serves Slack's
 * requests and the operator's probes.
 */
export function healthRoutes(endpoints: HealthEndpoints, logger: Logger): CustomRoute[] {
  const fail = (res: ServerResponse, error: unknown): void => {
    logger.error({ err: error }, "GET /metrics failed");
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end(`internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  };
  return [
    {
      path: "/healthz",
      method: "GET",
      handler: (_req, res) => {
        const health = endpoints.health();
        res.writeHead(health.ok ? 200 : 503, { "content-type": "application/json" });
        res.end(`${JSON.stringify(health)}\n`);
      },
    },
    {
      path: "/metrics",
      method: "GET",
      handler: (_req, res) => {
        endpoints.registry.metrics().then(
          (body) => {
            res.writeHead(200, { "content-type": endpoints.registry.contentType });
            res.end(body);
          },
          (error: unknown) => fail(res, error),
        );
      },
    },
  ];
}
