import { POLICY_NAMES, type PolicyName } from "../../src/simulation/team-policy.ts";

/** The options of `npm run bench -- waste`. */
export interface WasteArgs {
  /** The seeds to run, in order: `--seed N` (default 42) and the `--seeds COUNT - 1` after it. */
  seeds: number[];
  /** `--policies a,b`: only these (`none` is always run: every share is of its idle cost). */
  policies: PolicyName[];
  /** `--events FILE`: the event log of every run, as JSON lines. */
  eventsPath: string | null;
  writeDocs: boolean;
  jobs: number;
  /** The answer-speed runs: only when every policy runs (`--policies` not given). */
  sensitivity: boolean;
}

/** Reads `--flag value` and `--flag=value`; throws with the reason on a bad value. */
export function parseWasteArgs(argv: readonly string[], defaultSeed: number): WasteArgs {
  const value = (flag: string): string | null => {
    const eq = argv.find((arg) => arg.startsWith(`${flag}=`));
    if (eq !== undefined) return eq.slice(flag.length + 1);
    const at = argv.indexOf(flag);
    return at === -1 ? null : (argv[at + 1] ?? null);
  };
  const integer = (flag: string, fallback: number, min: number): number => {
    const raw = value(flag);
    if (raw === null) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`${flag} wants an integer ≥ ${min}, not ${raw}`);
    return n;
  };
  const first = integer("--seed", defaultSeed, 0);
  const count = integer("--seeds", 1, 1);
  const listed = value("--policies");
  const policies = listed === null ? [...POLICY_NAMES] : listed.split(",").map((name) => name.trim());
  const unknown = policies.filter((name) => !(POLICY_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`unknown policies ${unknown.join(", ")}; known: ${POLICY_NAMES.join(", ")}`);
  const wanted = new Set<string>(["none", ...policies]);
  return {
    seeds: Array.from({ length: count }, (_, i) => first + i),
    policies: POLICY_NAMES.filter((name) => wanted.has(name)),
    eventsPath: value("--events"),
    writeDocs: argv.includes("--write-docs"),
    jobs: Math.max(1, integer("--jobs", 1, 1)),
    sensitivity: listed === null,
  };
}
