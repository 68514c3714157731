import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ControlledFleet } from "./controlled-fleet.ts";

export interface PowerSwitch {
  /** `http://127.0.0.1:<port>`; a stop is `POST <url>/stop` with `{ "host": … }`, a start `POST <url>/start`. */
  url: string;
  close(): Promise<void>;
}

/**
 * The simulated fleet's power switch, on loopback: the playground's hosts are stopped by the bot's
 * real webhook executor, which posts here; the host then powers off and reports nothing (or, started
 * again, comes back idle).
 */
export async function startPowerSwitch(fleet: ControlledFleet, onChange: () => void): Promise<PowerSwitch> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const host = hostOf(Buffer.concat(chunks).toString("utf8"));
      const route = req.url === "/stop" || req.url === "/start" ? req.url : null;
      if (req.method !== "POST" || route === null || host === null || fleet.host(host) === undefined) {
        res.writeHead(404, { "content-type": "text/plain" }).end("no such host\n");
        return;
      }
      fleet.setMode(host, route === "/stop" ? "off" : "idle");
      onChange();
      const said = route === "/stop" ? "powering off" : "powering on";
      res.writeHead(200, { "content-type": "text/plain" }).end(`${host}: ${said}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function hostOf(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      "host" in parsed &&
      typeof parsed.host === "string"
    ) {
      return parsed.host;
    }
    return null;
  } catch (error) {
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}
