import type { GpuProcess, GpuReading, HostObservation, HostReadings } from "../domain/observation.ts";
import { migModel, migParts, migSlot } from "../shared/gpu-slot.ts";
import { internString } from "../shared/intern.ts";
import { round } from "./prom-value.ts";
import { hostFromLabel } from "./prometheus-hosts.ts";
import type { DcgmField } from "./prometheus-queries.ts";

export interface GpuAccumulator {
  index: number;
  uuid: string | null;
  model: string | null;
  fields: Partial<Record<DcgmField, number>>;
  mig: boolean;
  /** A MIG GPU instance's profile (`1g.5gb`); `null` for a whole GPU. */
  profile: string | null;
  /** The workloads by `namespace/pod/container`; add them with {@link addWorkload} (this map may be shared). */
  workloads: ReadonlyMap<string, Workload>;
  /** Memory total, filled in from this or an earlier cycle. */
  totalMiB: number | null;
}

/** The workloads of a GPU without any, shared (an empty `Map` costs ~300 bytes: 24 MB at 80,000 GPUs). */
const NO_WORKLOADS: ReadonlyMap<string, Workload> = new Map();

/** Adds a workload to the GPU, giving it its own map on the first. */
export function addWorkload(gpu: GpuAccumulator, workload: Workload): void {
  const own =
    gpu.workloads === NO_WORKLOADS ? new Map<string, Workload>() : (gpu.workloads as Map<string, Workload>);
  own.set(`${workload.namespace}/${workload.pod}/${workload.container}`, workload);
  gpu.workloads = own;
}

export function emptyGpu(index: number, uuid: string | null, model: string | null): GpuAccumulator {
  return {
    index,
    uuid,
    model,
    fields: {},
    mig: false,
    profile: null,
    workloads: NO_WORKLOADS,
    totalMiB: null,
  };
}

/** A GPU as earlier cycles saw it. */
export interface KnownGpu {
  uuid: string | null;
  model: string | null;
  lastMs: number;
  /** used + free + reserved when last read; `null` when the exporter does not give it. */
  totalMiB: number | null;
  /** False until FB_FREE has been read for this GPU. */
  totalKnown: boolean;
}

export function memoryTotalMiB(gpu: GpuAccumulator): number | null {
  const { fbUsed, fbFree, fbReserved } = gpu.fields;
  return fbUsed !== undefined && fbFree !== undefined ? fbUsed + fbFree + (fbReserved ?? 0) : null;
}

export interface GpuFleet {
  /** Fresh hosts → GPU index → accumulator. */
  hosts: Map<string, Map<number, GpuAccumulator>>;
  /**
   * Hosts seen within the forget window but not fresh → their raw host-label values (none for a host
   * known only from an earlier cycle of this process).
   */
  stale: Map<string, Set<string>>;
  /** Fresh series without the host label. */
  unlabelled: number;
}

/**
 * A MIG GPU whose instances report is shown as its instances: each is a slot of its own (its own
 * GR_ENGINE_ACTIVE and, where the exporter sends it, memory), and the whole-GPU series (power,
 * temperature, total memory) are not a slot. Instances take the whole GPU's UUID and model.
 */
export function splitMigGpus(gpus: Map<number, GpuAccumulator>): void {
  const split = new Set<number>();
  for (const gpu of gpus.values()) {
    const parts = migParts(gpu.index);
    if (parts === null) continue;
    split.add(parts.gpu);
    const whole = gpus.get(parts.gpu);
    if (whole === undefined) continue;
    gpu.uuid ??= whole.uuid;
    gpu.model ??= whole.model;
  }
  for (const index of split) gpus.delete(index);
}

/** Where a dcgm-exporter series belongs: its host and GPU slot, with what its labels say about the GPU. */
export interface SeriesSlot {
  host: string;
  slot: number;
  uuid: string | null;
  model: string | null;
  /** The MIG profile of a GPU-instance series; `null` for a whole GPU. */
  profile: string | null;
  instance: boolean;
}

export function slotOf(labels: Record<string, string>, hostLabel: string): SeriesSlot | null {
  const raw = labels[hostLabel];
  const index = Number(labels.gpu);
  if (!raw || labels.gpu === undefined || labels.gpu === "" || !Number.isInteger(index)) return null;
  const instance = labels.GPU_I_ID;
  const isInstance = instance !== undefined && instance !== "";
  const slot = isInstance ? migSlot(index, Number(instance)) : index;
  if (slot === null) return null;
  return {
    host: hostFromLabel(raw),
    slot,
    uuid: labels.UUID || null,
    model: internString(labels.modelName || null),
    profile: isInstance ? labels.GPU_I_PROFILE || null : null,
    instance: isInstance,
  };
}

/** The accumulator of a series' slot in `hosts`, made on first use. */
export function accumulatorIn(
  hosts: Map<string, Map<number, GpuAccumulator>>,
  where: SeriesSlot,
): GpuAccumulator {
  let gpus = hosts.get(where.host);
  if (!gpus) {
    gpus = new Map();
    hosts.set(where.host, gpus);
  }
  let gpu = gpus.get(where.slot);
  if (!gpu) {
    gpu = emptyGpu(where.slot, null, null);
    gpus.set(where.slot, gpu);
  }
  gpu.uuid ??= where.uuid;
  gpu.model ??= where.model;
  if (where.instance) {
    gpu.mig = true;
    gpu.profile ??= where.profile;
  }
  return gpu;
}

/** A host's answered observation from Prometheus: its GPUs by index; no login sessions (unknown). */
export function prometheusObservation(
  host: string,
  atMs: number,
  gpus: Map<number, GpuAccumulator>,
  cpu: Pick<HostReadings, "cpuLoad1" | "cpuUtilPct" | "containers">,
): HostObservation {
  return {
    host,
    source: "prometheus",
    atMs,
    ok: true,
    gpus: [...gpus.values()].sort((a, b) => a.index - b.index).map(toReading),
    sessions: null,
    ...cpu,
  };
}

export function toReading(gpu: GpuAccumulator): GpuReading {
  const { fields } = gpu;
  const util = fields.util !== undefined && fields.util >= 0 && fields.util <= 100 ? fields.util : null;
  const gr =
    fields.grActive !== undefined && fields.grActive >= 0 && fields.grActive <= 1
      ? round(fields.grActive * 100, 2)
      : null;
  const memUsedMiB = fields.fbUsed ?? null;
  const soleWorkload = gpu.workloads.size === 1 && !gpu.mig;
  const processes: GpuProcess[] = [...gpu.workloads.values()].map((workload) => ({
    pid: null,
    user: null,
    name: workload.container ? `${workload.pod}/${workload.container}` : workload.pod,
    usedMemoryMiB: soleWorkload ? memUsedMiB : null,
    container: workload.container,
    pod: workload.pod,
    namespace: workload.namespace,
    ...(workload.label === null ? {} : { projectLabel: workload.label }),
  }));
  return {
    index: gpu.index,
    uuid: gpu.uuid,
    model: migParts(gpu.index) === null ? gpu.model : migModel(gpu.model, gpu.profile),
    utilPct: util ?? gr,
    memUsedMiB,
    memTotalMiB: gpu.totalMiB,
    powerW: fields.power ?? null,
    tempC: fields.temp ?? null,
    mig: gpu.mig,
    processes,
  };
}

/**
 * The Kubernetes workload a dcgm-exporter series is attributed to, if any.
 * NOTE: without honor_labels, a scrape through a ServiceMonitor stamps the exporter's own pod on every
 * series (`pod="nvidia-dcgm-exporter-…"`) and renames the workload's labels to `exported_*`.
 */
export function workloadOf(labels: Record<string, string>): Workload | null {
  const label = labels.exported_project || labels.project || null;
  if (labels.exported_pod) {
    return {
      pod: labels.exported_pod,
      namespace: labels.exported_namespace || null,
      container: labels.exported_container || null,
      label,
    };
  }
  const pod = labels.pod;
  if (!pod || /dcgm-exporter/i.test(pod)) return null;
  return { pod, namespace: labels.namespace || null, container: labels.container || null, label };
}

/** A Kubernetes workload on a GPU; `label`: its `project` label, when the series has one. */
export interface Workload {
  pod: string;
  namespace: string | null;
  container: string | null;
  label: string | null;
}
