import { PassThrough } from "node:stream";
import { type Browser, chromium, type Page } from "playwright-core";
import { parseConfig, readEnv } from "../../src/config/load-config.ts";
import { type RunningPlayground, startPlayground } from "../../src/playground/start-playground.ts";
import type { Logger } from "../../src/shared/logger.ts";

/** The playground on a free port at `startMs` (a minute a second), and Debian's chromium on a 1440×900 page. */
export interface PlaygroundInBrowser {
  playground: RunningPlayground;
  browser: Browser;
  page: Page;
}

export async function playgroundInBrowser(options: {
  startMs: number;
  hostName: string;
  logger: Logger;
  /** The team's settings (language, zone, currency, name) when not the defaults. */
  team?: Record<string, string>;
  /** A chromium the test file shares between its playgrounds (default: one of its own). */
  browser?: Browser;
}): Promise<PlaygroundInBrowser> {
  const playground = await startPlayground(
    {
      loaded: {
        config: parseConfig({
          http: { port: 0 },
          ...(options.team === undefined ? {} : { team: options.team }),
        }),
        env: readEnv({ LOG_LEVEL: "warn" }),
        file: null,
      },
      logger: options.logger,
      pathEnv: "",
      hostName: options.hostName,
      stdout: new PassThrough(),
    },
    { startMs: options.startMs, rate: 60 },
  );
  const browser = options.browser ?? (await launchChromium());
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  return { playground, browser, page };
}

/** Debian's chromium, headless (about 1.3 s of CPU to start). */
export function launchChromium(): Promise<Browser> {
  // NOTE: without the background-networking flags Chromium dials out and is refused by the closed network.
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}
