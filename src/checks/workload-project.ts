import type { HostObservation } from "../domain/observation.ts";
import type { WorkloadHour } from "../domain/workload-hour.ts";

export type { WorkloadHour };

/** What in `projects:` ties GPU time to a project. */
export interface ProjectMatchers {
  namespaces?: readonly string[] | undefined;
  prometheus_label?: string | undefined;
  logins?: readonly string[] | undefined;
}

const HOUR_MS = 3_600_000;

/**
 * The workload on each GPU of the observations that has a process (the first process naming a
 * namespace, else the first naming its owner), for the clock hour of the poll. Pure.
 */
export function workloadHoursOf(observations: readonly HostObservation[]): WorkloadHour[] {
  const hours: WorkloadHour[] = [];
  for (const obs of observations) {
    if (!obs.ok) continue;
    const hourMs = obs.atMs - (obs.atMs % HOUR_MS);
    for (const gpu of obs.gpus) {
      const process =
        gpu.processes.find((p) => p.namespace !== null || p.projectLabel !== undefined) ??
        gpu.processes.find((p) => p.user !== null);
      if (process === undefined) continue;
      hours.push({
        hourMs,
        host: obs.host,
        gpuIndex: gpu.index,
        namespace: process.namespace,
        label: process.projectLabel ?? null,
        login: process.user,
      });
    }
  }
  return hours;
}

/**
 * Which project a workload counts for: its `project` label's, else its namespace's, else its
 * process owner's default project (the first listing the login); `null` when none. Pure.
 */
export function workloadProjectResolver(
  projects: Readonly<Record<string, ProjectMatchers>>,
): (workload: Pick<WorkloadHour, "namespace" | "label" | "login">) => string | null {
  const byLabel = new Map<string, string>();
  const byNamespace = new Map<string, string>();
  const byLogin = new Map<string, string>();
  for (const [name, project] of Object.entries(projects)) {
    if (project.prometheus_label !== undefined && !byLabel.has(project.prometheus_label)) {
      byLabel.set(project.prometheus_label, name);
    }
    for (const namespace of project.namespaces ?? []) {
      if (!byNamespace.has(namespace)) byNamespace.set(namespace, name);
    }
    for (const login of project.logins ?? []) if (!byLogin.has(login)) byLogin.set(login, name);
  }
  return (workload) =>
    (workload.label === null ? undefined : byLabel.get(workload.label)) ??
    (workload.namespace === null ? undefined : byNamespace.get(workload.namespace)) ??
    (workload.login === null ? undefined : byLogin.get(workload.login)) ??
    null;
}
