/** What the simulator needs to know about a GPU model to produce believable readings. */
export interface GpuModelSpec {
  /** The name as `nvidia-smi --query-gpu=name` prints it. */
  name: string;
  memTotalMiB: number;
  powerLimitW: number;
  /** Board power with no context on the GPU. */
  idlePowerW: number;
  /** Board power with a context holding memory but no kernels running (P0, clocks up). */
  heldPowerW: number;
  idleTempC: number;
  /** Typical core temperature at full load in a data-centre chassis. */
  busyTempC: number;
  /** `memory.used` with no process on the GPU. */
  idleMemUsedMiB: number;
}

export const H100_80GB: GpuModelSpec = {
  name: "NVIDIA H100 80GB HBM3",
  memTotalMiB: 81_559,
  powerLimitW: 700,
  idlePowerW: 70,
  heldPowerW: 118,
  idleTempC: 32,
  busyTempC: 67,
  idleMemUsedMiB: 0,
};

export const A100_80GB: GpuModelSpec = {
  name: "NVIDIA A100-SXM4-80GB",
  memTotalMiB: 81_920,
  powerLimitW: 400,
  idlePowerW: 58,
  heldPowerW: 82,
  idleTempC: 31,
  busyTempC: 62,
  idleMemUsedMiB: 4,
};

export const L40S: GpuModelSpec = {
  name: "NVIDIA L40S",
  memTotalMiB: 46_068,
  powerLimitW: 350,
  idlePowerW: 33,
  heldPowerW: 78,
  idleTempC: 30,
  busyTempC: 70,
  idleMemUsedMiB: 0,
};

export const RTX_4090: GpuModelSpec = {
  name: "NVIDIA GeForce RTX 4090",
  memTotalMiB: 24_564,
  powerLimitW: 450,
  idlePowerW: 18,
  heldPowerW: 34,
  idleTempC: 34,
  busyTempC: 73,
  idleMemUsedMiB: 1,
};

/**
 * The order in which hosts get their models, cycled from a seed-chosen start: any eight consecutive
 * hosts carry every model, in proportions close to a small team that bought over the years
 * (A100 3/8, H100 2/8, L40S 2/8, RTX 4090 1/8).
 */
export const MODEL_CYCLE: readonly GpuModelSpec[] = [
  H100_80GB,
  A100_80GB,
  L40S,
  A100_80GB,
  H100_80GB,
  RTX_4090,
  A100_80GB,
  L40S,
];
