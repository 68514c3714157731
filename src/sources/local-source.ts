import { loadavg } from "node:os";
import type { SourceConfig } from "../config/schema.ts";
import { type FailureCause, failed, type HostObservation } from "../domain/observation.ts";
import type { Source } from "../domain/source.ts";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import {
  COMPUTE_APPS_FIELDS,
  GPU_QUERY_FIELDS,
  NvidiaSmiError,
  nvidiaSmiQueryArgs,
} from "./parse-nvidia-smi.ts";
import { psOwnersArgs } from "./parse-ps-owners.ts";
import {
  type CommandOutput,
  computeAppPids,
  MIG_XML_ARGS,
  migEnabled,
  probeReadings,
} from "./probe-readings.ts";
import { type CommandResult, runCommand } from "./run-command.ts";

export type LocalSourceConfig = Extract<SourceConfig, { kind: "local" }>;

export interface LocalSourceDeps {
  clock: Clock;
  logger: Logger;
  /** Name of this host when the config does not give one (the OS host name). */
  hostName: string;
  /** 1-minute load average; default: the OS's (none on Windows). */
  loadAvg1?: () => number | null;
}

/**
 * The bot's own host: nvidia-smi (query-gpu and compute-apps, and `-q -x` for the instances of a GPU
 * in MIG mode), `who`, the load average and `ps`
 * owners of GPU processes, each a child process with the configured timeout. nvidia-smi missing,
 * failing, unreadable or too slow makes the host a failed observation; `who` or `ps` failing only
 * loses the sessions or the owners.
 */
export function createLocalSource(config: LocalSourceConfig, deps: LocalSourceDeps): Source {
  const host = config.host ?? deps.hostName;
  const timeoutMs = config.timeout_seconds * 1000;
  const loadAvg1 = deps.loadAvg1 ?? (() => (process.platform === "win32" ? null : (loadavg()[0] ?? null)));

  const run = (argv: string[], signal: AbortSignal): Promise<CommandResult> =>
    runCommand(argv, { timeoutMs, signal });

  const readGpus = async (signal: AbortSignal): Promise<CommandResult & { fields: readonly string[] }> => {
    const result = await run([config.nvidia_smi, ...nvidiaSmiQueryArgs("gpu", GPU_QUERY_FIELDS)], signal);
    if (result.exitCode !== 0 && /is not a valid field to query/i.test(result.stdout + result.stderr)) {
      // NOTE: drivers older than MIG (R450) reject mig.mode.current.
      const fields = GPU_QUERY_FIELDS.filter((field) => field !== "mig.mode.current");
      return { ...(await run([config.nvidia_smi, ...nvidiaSmiQueryArgs("gpu", fields)], signal)), fields };
    }
    return { ...result, fields: GPU_QUERY_FIELDS };
  };

  const readWho = async (signal: AbortSignal): Promise<CommandResult> => {
    const result = await run(["who", "-u"], signal);
    return result.exitCode === 0 || result.timedOut || result.aborted ? result : run(["who"], signal);
  };

  const observe = async (signal: AbortSignal): Promise<HostObservation> => {
    const atMs = deps.clock.now();
    const fail = (cause: FailureCause, detail: string): HostObservation => {
      const message = `${host}: ${cause}: ${detail}`;
      deps.logger.warn({ host, source: "local", cause }, message);
      return failed(host, "local", atMs, cause, message);
    };

    const [gpus, apps, who] = await Promise.all([
      readGpus(signal),
      run([config.nvidia_smi, ...nvidiaSmiQueryArgs("compute-apps", COMPUTE_APPS_FIELDS)], signal),
      readWho(signal),
    ]);
    for (const result of [gpus, apps]) {
      if (result.aborted) return fail("timeout", "poll cancelled before nvidia-smi answered");
      if (result.timedOut)
        return fail("timeout", `nvidia-smi gave no answer within ${config.timeout_seconds} s`);
      if (result.spawnError) {
        const notFound = result.spawnError.startsWith("ENOENT") || result.spawnError.startsWith("EACCES");
        return notFound
          ? fail("command-not-found", `${config.nvidia_smi}: command not found`)
          : fail("error", `cannot run ${config.nvidia_smi}: ${result.spawnError}`);
      }
      if (result.truncated) return fail("parse-error", "nvidia-smi printed more than we read");
    }

    const appsOutput = asOutput(apps, COMPUTE_APPS_FIELDS);
    const gpusOutput = asOutput(gpus, gpus.fields);
    const pids = computeAppPids(appsOutput);
    const [owners, mig] = await Promise.all([
      pids.length > 0 ? run(psOwnersArgs(pids), signal) : null,
      migEnabled(gpusOutput) ? run([config.nvidia_smi, ...MIG_XML_ARGS], signal) : null,
    ]);
    try {
      const readings = probeReadings({
        gpus: gpusOutput,
        apps: appsOutput,
        who: who.spawnError || who.timedOut || who.aborted ? null : asOutput(who),
        owners: owners && !owners.spawnError && !owners.timedOut ? asOutput(owners) : null,
        mig: mig && !mig.spawnError && !mig.timedOut && !mig.truncated ? asOutput(mig) : null,
        cpuLoad1: loadAvg1(),
      });
      const { unattached, ...rest } = readings;
      if (unattached.length > 0) {
        deps.logger.debug(
          { host, unattached },
          `${host}: ${unattached.length} GPU process(es) on no listed GPU`,
        );
      }
      return { host, source: "local", atMs, ok: true, ...rest };
    } catch (error) {
      if (error instanceof NvidiaSmiError) return fail(error.reason, error.message);
      throw error;
    }
  };

  return {
    kind: "local",
    hosts: [host],
    poll: async (signal) => [await observe(signal)],
  };
}

function asOutput(result: CommandResult, fields?: readonly string[]): CommandOutput {
  const text = result.exitCode === 0 ? result.stdout : `${result.stdout}\n${result.stderr}`;
  return { exitCode: result.exitCode, text, ...(fields === undefined ? {} : { fields }) };
}
