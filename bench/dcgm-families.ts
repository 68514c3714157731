/** A GPU's value of one metric family, from its host's and GPU's index. */
export type GpuValue = (host: number, gpu: number) => number;

/** The dcgm-exporter families the benchmarks' fleets expose (an 80 GB H100), from a fleet's utilisation and memory used. */
export function dcgmFamilies(util: GpuValue, used: GpuValue): [string, GpuValue][] {
  return [
    ["DCGM_FI_DEV_FB_USED", used],
    ["DCGM_FI_DEV_GPU_UTIL", util],
    ["DCGM_FI_DEV_FB_FREE", (h, g) => 81559 - 512 - used(h, g)],
    ["DCGM_FI_DEV_FB_RESERVED", () => 512],
    ["DCGM_FI_DEV_POWER_USAGE", (h, g) => 70 + util(h, g) * 6.3],
    ["DCGM_FI_DEV_GPU_TEMP", (h, g) => 30 + util(h, g) / 3],
    ["DCGM_FI_PROF_GR_ENGINE_ACTIVE", (h, g) => util(h, g) / 100],
  ];
}
