/**
 * MIG GPU instances as `nvidia-smi -q -x` lists them: per GPU (by UUID) its `<mig_devices>`, each
 * with its GPU instance id and its own framebuffer memory, and which GPU instance each process runs
 * on (`<process_info>`). nvidia-smi reports no utilisation for a MIG instance.
 */

/** One MIG device (GPU instance) of a GPU. */
export interface MigInstance {
  gpuInstanceId: number;
  memUsedMiB: number | null;
  memTotalMiB: number | null;
}

export interface MigLayout {
  /** GPU UUID → its instances, in the order listed; GPUs without MIG devices are absent. */
  instances: Map<string, MigInstance[]>;
  /** pid → the GPU instance it runs on, for processes on a MIG instance. */
  processInstance: Map<number, { gpuUuid: string; gpuInstanceId: number }>;
}

const blocks = (xml: string, tag: string): string[] =>
  [...xml.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, "g"))].map((match) => match[1]!);

const textOf = (xml: string, tag: string): string | null =>
  new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1]?.trim() ?? null;

const integerOf = (xml: string, tag: string): number | null => {
  const text = textOf(xml, tag);
  return text !== null && /^\d+$/.test(text) ? Number(text) : null;
};

const mibOf = (xml: string | undefined, tag: string): number | null => {
  const text = xml === undefined ? null : textOf(xml, tag);
  const match = text === null ? null : /^(\d+(?:\.\d+)?)\s*MiB$/.exec(text);
  return match ? Number(match[1]) : null;
};

/** Reads the MIG layout out of `nvidia-smi -q -x`; a document without MIG devices gives empty maps. */
export function parseMigDevices(xml: string): MigLayout {
  const layout: MigLayout = { instances: new Map(), processInstance: new Map() };
  for (const gpu of blocks(xml, "gpu")) {
    const own = gpu.replace(/<mig_devices>[\s\S]*?<\/mig_devices>|<processes>[\s\S]*?<\/processes>/g, "");
    const uuid = textOf(own, "uuid");
    if (uuid === null) continue;
    const instances = blocks(gpu, "mig_device").flatMap((device): MigInstance[] => {
      const gpuInstanceId = integerOf(device, "gpu_instance_id");
      if (gpuInstanceId === null) return [];
      const memory = blocks(device, "fb_memory_usage")[0];
      return [{ gpuInstanceId, memUsedMiB: mibOf(memory, "used"), memTotalMiB: mibOf(memory, "total") }];
    });
    if (instances.length > 0) layout.instances.set(uuid, instances);
    for (const process of blocks(gpu, "process_info")) {
      const pid = integerOf(process, "pid");
      const gpuInstanceId = integerOf(process, "gpu_instance_id");
      if (pid !== null && gpuInstanceId !== null)
        layout.processInstance.set(pid, { gpuUuid: uuid, gpuInstanceId });
    }
  }
  return layout;
}
