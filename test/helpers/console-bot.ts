import { PassThrough, type Writable } from "node:stream";
import { readEnv } from "../../src/config/load-config.ts";
import type { Config } from "../../src/config/schema.ts";
import { type RunningBot, startBot } from "../../src/main.ts";
import type { Clock } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";

/**
 * Starts the real bot through its composition root with no Slack tokens (console mode) on `config`:
 * no PATH (so no local nvidia-smi), what it prints going to `stdout` (discarded by default).
 */
export function startConsoleBot(
  config: Config,
  options: { clock?: Clock; stdout?: Writable } = {},
): Promise<RunningBot> {
  return startBot({
    loaded: { config, env: readEnv({}), file: null },
    logger: silentLogger,
    pathEnv: "",
    hostName: "test",
    stdout: options.stdout ?? new PassThrough(),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
}
