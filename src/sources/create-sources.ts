import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import type { Config, SourceConfig } from "../config/schema.ts";
import { sourceSchema } from "../config/schema.ts";
import type { Source } from "../domain/source.ts";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import { inCluster } from "./cluster-source.ts";
import { createLocalSource } from "./local-source.ts";
import { createPrometheusSource } from "./prometheus-source.ts";
import { createSimulatedSource } from "./simulated-source.ts";
import { createSshSource } from "./ssh-source.ts";

export interface SourceDeps {
  clock: Clock;
  logger: Logger;
  hostName: string;
  /** The PATH to look for nvidia-smi on when no source is configured. */
  pathEnv: string;
}

/**
 * The configured sources, or the embedded default: the local GPUs when nvidia-smi is on the PATH,
 * else a simulated fleet.
 */
export function createSources(config: Config, deps: SourceDeps): Source[] {
  const configured = config.sources.length > 0 ? config.sources : [defaultSource(deps.pathEnv)];
  const named = clustersNamed(configured);
  return configured.map((source) => {
    const created = createSource(source, config, deps);
    const cluster = "cluster" in source ? source.cluster : undefined;
    return named && cluster !== undefined ? inCluster(created, cluster) : created;
  });
}

/**
 * True when the sources span two or more clusters (a source without `cluster` counts as one): then
 * hosts of a source with a `cluster` are named `cluster/host`. One cluster keeps plain host names.
 */
export function clustersNamed(sources: readonly SourceConfig[]): boolean {
  return new Set(sources.map((source) => ("cluster" in source ? source.cluster : undefined))).size > 1;
}

export function defaultSource(pathEnv: string): SourceConfig {
  return sourceSchema.parse(findOnPath("nvidia-smi", pathEnv) ? { kind: "local" } : { kind: "simulated" });
}

function createSource(source: SourceConfig, config: Config, deps: SourceDeps): Source {
  const { clock, logger } = deps;
  switch (source.kind) {
    case "local":
      return createLocalSource(source, { clock, logger, hostName: source.host ?? deps.hostName });
    case "ssh":
      return createSshSource(source, { clock, logger });
    case "prometheus":
      return createPrometheusSource(source, { clock, logger });
    case "simulated":
      return createSimulatedSource(source, { clock, timezone: config.team.timezone });
    default:
      return source satisfies never;
  }
}

/** True when an executable `name` is in one of the PATH's folders. */
export function findOnPath(name: string, pathEnv: string): boolean {
  return pathEnv
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}
