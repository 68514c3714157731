/** Kubernetes and Compose quantities in the units the rules use. Pure; `null` for what is not a quantity. */

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
const DECIMAL: Record<string, number> = { k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };

/** CPU cores from `500m`, `2`, `0.5`. */
export function cpuCores(quantity: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)(m?)\s*$/.exec(quantity);
  if (match === null) return null;
  const value = Number(match[1]);
  return match[2] === "m" ? value / 1000 : value;
}

/**
 * GPU memory in MiB: a plain number is MiB (HAMi's `nvidia.com/gpumem`), a suffixed one is bytes
 * (`2Gi`, `2G`, `512Mi`).
 */
export function gpuMemoryMiB(quantity: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]i|[kKMGT])?\s*$/.exec(quantity);
  if (match === null) return null;
  const value = Number(match[1]);
  const unit = match[2];
  if (unit === undefined) return value;
  return (value * (BINARY[unit] ?? DECIMAL[unit] ?? 1)) / 2 ** 20;
}
