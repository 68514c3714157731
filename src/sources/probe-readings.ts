import type { GpuReading, HostReadings } from "../domain/observation.ts";
import { migModel, migSlot } from "../shared/gpu-slot.ts";
import { type MigLayout, parseMigDevices } from "./parse-mig-devices.ts";
import {
  attachProcesses,
  COMPUTE_APPS_FIELDS,
  type ComputeApp,
  detectNvidiaSmiFailure,
  GPU_QUERY_FIELDS,
  NvidiaSmiError,
  parseComputeApps,
  parseGpuQuery,
} from "./parse-nvidia-smi.ts";
import { parsePsOwners } from "./parse-ps-owners.ts";
import { parseWho } from "./parse-who.ts";

/** What one command printed (stdout and stderr together) and how it ended. */
export interface CommandOutput {
  /** `null` when it was killed or never ran. */
  exitCode: number | null;
  text: string;
  /** The nvidia-smi query fields asked for, when the output has no header. */
  fields?: readonly string[];
}

/** Everything read on one host, before interpretation. */
export interface ProbeOutputs {
  gpus: CommandOutput;
  apps: CommandOutput;
  /** `null` when `who` could not be run. */
  who: CommandOutput | null;
  /** `ps` owners of the GPU pids; `null` when not run. */
  owners: CommandOutput | null;
  /** `nvidia-smi -q -x`, read when a GPU is in MIG mode ({@link MIG_XML_ARGS}); `null` when not run. */
  mig: CommandOutput | null;
  cpuLoad1: number | null;
}

/** The nvidia-smi arguments that list MIG instances (read only when a GPU is in MIG mode). */
export const MIG_XML_ARGS = ["-q", "-x"] as const;

/** Whether a `--query-gpu` output shows a GPU in MIG mode (so its instances are read too). */
export function migEnabled(gpus: CommandOutput): boolean {
  if (gpus.exitCode !== 0) return false;
  try {
    return parseGpuQuery(gpus.text, gpus.fields ?? GPU_QUERY_FIELDS).some((gpu) => gpu.mig);
  } catch (error) {
    if (error instanceof NvidiaSmiError) return false;
    throw error;
  }
}

/**
 * A GPU in MIG mode as its instances, as the Prometheus source shows it: each instance is a slot of
 * its own (`0.3`: GPU 0, instance 3) with its own memory and processes, the GPU's UUID and model, and
 * no utilisation reading (nvidia-smi gives none for MIG), so it is unknown, never idle. A GPU whose
 * instances were not listed stays whole.
 */
export function splitMigInstances(gpus: readonly GpuReading[], layout: MigLayout): GpuReading[] {
  return gpus.flatMap((gpu) => {
    const instances = gpu.mig && gpu.uuid !== null ? layout.instances.get(gpu.uuid) : undefined;
    if (instances === undefined) return [gpu];
    return instances.flatMap((instance): GpuReading[] => {
      const index = migSlot(gpu.index, instance.gpuInstanceId);
      if (index === null) return [];
      const onInstance = (pid: number | null) =>
        pid !== null && layout.processInstance.get(pid)?.gpuInstanceId === instance.gpuInstanceId;
      return [
        {
          ...gpu,
          index,
          model: migModel(gpu.model, null),
          utilPct: null,
          memUsedMiB: instance.memUsedMiB,
          memTotalMiB: instance.memTotalMiB,
          powerW: null,
          tempC: null,
          processes: gpu.processes.filter((process) => onInstance(process.pid)),
        },
      ];
    });
  });
}

/**
 * Turns one host's command outputs into readings; process owners are `null` where `ps` did not
 * name them.
 * @throws NvidiaSmiError when either nvidia-smi query is missing, failed or unreadable, or when
 * `who` failed: without the login sessions the host cannot be judged idle, so it is unknown.
 */
export function probeReadings(outputs: ProbeOutputs): HostReadings & { unattached: ComputeApp[] } {
  const gpus = parseGpuQuery(checked(outputs.gpus, "--query-gpu"), outputs.gpus.fields ?? GPU_QUERY_FIELDS);
  const apps = parseComputeApps(
    checked(outputs.apps, "--query-compute-apps"),
    outputs.apps.fields ?? COMPUTE_APPS_FIELDS,
  );
  const owners =
    outputs.owners && (outputs.owners.exitCode === 0 || outputs.owners.exitCode === 1)
      ? parsePsOwners(outputs.owners.text)
      : new Map<number, string>();
  const attached = attachProcesses(gpus, apps, owners);
  if (outputs.who === null || outputs.who.exitCode !== 0) {
    const firstLine = outputs.who?.text.trim().split(/\r?\n/)[0]?.slice(0, 160) ?? "";
    throw new NvidiaSmiError(
      "error",
      `who failed${firstLine ? `: ${firstLine}` : ""}; login sessions unknown`,
    );
  }
  const sessions = parseWho(outputs.who.text);
  const mig = outputs.mig?.exitCode === 0 ? parseMigDevices(outputs.mig.text) : null;
  return {
    gpus: mig === null ? attached.gpus : splitMigInstances(attached.gpus, mig),
    sessions,
    cpuLoad1: outputs.cpuLoad1,
    cpuUtilPct: null,
    containers: [],
    unattached: attached.unattached,
  };
}

/** pids in a compute-apps output, for asking `ps` about their owners; none when it is unreadable. */
export function computeAppPids(apps: CommandOutput): number[] {
  if (apps.exitCode !== 0) return [];
  try {
    const pids = parseComputeApps(apps.text, apps.fields ?? COMPUTE_APPS_FIELDS).map((app) => app.pid);
    return [...new Set(pids.filter((pid): pid is number => pid !== null))];
  } catch (error) {
    if (error instanceof NvidiaSmiError) return [];
    throw error;
  }
}

function checked(output: CommandOutput, query: string): string {
  if (output.exitCode === 0) return output.text;
  const known = detectNvidiaSmiFailure(output.text);
  if (known) throw known;
  const firstLine =
    output.text
      .split(/\r?\n/)
      .find((line) => line.trim() !== "")
      ?.trim() ?? "";
  if (output.exitCode === 127 || output.exitCode === 126) {
    throw new NvidiaSmiError("command-not-found", `nvidia-smi ${query}: ${firstLine || "command not found"}`);
  }
  const status = output.exitCode === null ? "did not finish" : `exited with code ${output.exitCode}`;
  throw new NvidiaSmiError(
    "driver-error",
    `nvidia-smi ${query} ${status}${firstLine ? `: ${firstLine.slice(0, 160)}` : ""}`,
  );
}
