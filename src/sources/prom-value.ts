/** Values as the Prometheus text format and HTTP API write them, and DCGM's "no reading" sentinels. */

// NOTE: DCGM's blank sentinels (dcgm_structs.h). INT64 ones (0x7ffffffffffffff0 + 0..15, e.g. the
// README's 9223372036854775794) all round to 2^63 as doubles; INT32 and FP64 ones are exact.
const DCGM_INT64_BLANK_FLOOR = 9223372036854775000;
const DCGM_INT32_BLANK = 0x7ffffff0;
const DCGM_FP64_BLANK = 140737488355328;
const DCGM_BLANK_CODES = 4;

/**
 * True when `value` is one of DCGM's "blank" sentinels (blank, not found, not supported, no permission):
 * anything ≥ 9223372036854775000, or exactly 2147483632–2147483635 or 2^47 + 0…3.
 */
export function isDcgmBlank(value: number): boolean {
  if (value >= DCGM_INT64_BLANK_FLOOR) return true;
  if (value >= DCGM_INT32_BLANK && value < DCGM_INT32_BLANK + DCGM_BLANK_CODES && Number.isInteger(value)) {
    return true;
  }
  return value >= DCGM_FP64_BLANK && value < DCGM_FP64_BLANK + DCGM_BLANK_CODES && Number.isInteger(value);
}

const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Parses a Go `strconv.ParseFloat` value as exposition text writes it, NaN and ±Inf included. */
export function parsePromValue(token: string): number | null {
  if (FLOAT.test(token)) return Number(token);
  switch (token.toLowerCase()) {
    case "nan":
      return Number.NaN;
    case "inf":
    case "+inf":
    case "infinity":
    case "+infinity":
      return Number.POSITIVE_INFINITY;
    case "-inf":
    case "-infinity":
      return Number.NEGATIVE_INFINITY;
    default:
      return null;
  }
}

/** `value` rounded to `digits` decimals. */
export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
