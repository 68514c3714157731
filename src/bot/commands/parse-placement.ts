/** `gpus>=40g`, `gpu>=80gb`, `gpus>=24GiB`: a memory floor in GiB instead of a model. */
const MEMORY_FLOOR = /^gpus?>=(\d{1,4})(g|gb|gib)?$/i;
const VALLEY_FLAG = /^(--|—|–)valley$/i;

/** What the cost-aware words of `/gpu claim` ask for. */
export interface PlacementWords {
  /** The memory floor in MiB; `null` when none was given. */
  floorMiB: number | null;
  /** `--valley`: batch work, granted only in the tariff's valley window. */
  valley: boolean;
  /** The words left for the rest of the claim grammar. */
  rest: string[];
}

/**
 * Takes `--valley` (anywhere after the target) and a memory floor (right after the count) out of the
 * words of `claim <n> gpus>=<GiB> [for <duration>] [note…] [--valley]`. Pure.
 */
export function placementWords(words: readonly string[]): PlacementWords {
  const valley = words.slice(1).some((word) => VALLEY_FLAG.test(word));
  const rest = words.filter((word, i) => i === 0 || !VALLEY_FLAG.test(word));
  const floor = rest.length > 1 && /^\d+$/.test(rest[0] ?? "") ? MEMORY_FLOOR.exec(rest[1] ?? "") : null;
  if (floor === null) return { floorMiB: null, valley, rest };
  return { floorMiB: Number(floor[1]) * 1024, valley, rest: [rest[0] as string, ...rest.slice(2)] };
}
