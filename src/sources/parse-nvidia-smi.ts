import type { GpuProcess, GpuReading } from "../domain/observation.ts";

/** Why nvidia-smi gave us nothing usable. The names match `FailureCause`. */
/** `error`: a companion reading (`who`) failed, so the host cannot be judged. */
export type NvidiaSmiFailure = "command-not-found" | "driver-error" | "parse-error" | "error";

/** nvidia-smi output that is not a reading: the program is missing, the driver failed, or we cannot read it. */
export class NvidiaSmiError extends Error {
  constructor(
    readonly reason: NvidiaSmiFailure,
    /** One line for people, without the host name. */
    message: string,
  ) {
    super(message);
    this.name = "NvidiaSmiError";
  }
}

/** The `--query-gpu` fields the sources ask for, in this order. */
export const GPU_QUERY_FIELDS = [
  "index",
  "uuid",
  "name",
  "utilization.gpu",
  "memory.used",
  "memory.total",
  "power.draw",
  "temperature.gpu",
  "mig.mode.current",
] as const;

/** The `--query-compute-apps` fields the sources ask for, in this order. */
export const COMPUTE_APPS_FIELDS = ["gpu_uuid", "pid", "process_name", "used_memory"] as const;

/** A process from `--query-compute-apps`, before it is attached to its GPU. */
export interface ComputeApp {
  gpuUuid: string | null;
  pid: number | null;
  name: string;
  usedMemoryMiB: number | null;
}

/** The output format the sources ask for; the parsers read `--format=csv` with header and units too. */
export const NVIDIA_SMI_FORMAT = "--format=csv,noheader,nounits";

/** nvidia-smi arguments for a query of `fields`. */
export function nvidiaSmiQueryArgs(query: "gpu" | "compute-apps", fields: readonly string[]): string[] {
  return [`--query-${query}=${fields.join(",")}`, NVIDIA_SMI_FORMAT];
}

const FIELD_ALIASES: Record<string, string> = {
  gpu_name: "name",
  used_gpu_memory: "used_memory",
};

const KNOWN_FIELDS = new Set<string>([
  ...GPU_QUERY_FIELDS,
  ...COMPUTE_APPS_FIELDS,
  "timestamp",
  "count",
  "gpu_name",
  "gpu_bus_id",
  "gpu_serial",
  "used_gpu_memory",
  "utilization.memory",
  "power.draw.average",
  "power.draw.instant",
  "driver_version",
]);

const FAILURE_PATTERNS: ReadonlyArray<readonly [RegExp, NvidiaSmiFailure]> = [
  [/(command not found|: not found)$/im, "command-not-found"],
  [/nvidia-smi[^\n]*No such file or directory/i, "command-not-found"],
  [/NVIDIA-SMI has failed|couldn't communicate with the NVIDIA driver/i, "driver-error"],
  [/No devices were found/i, "driver-error"],
  [
    /Failed to initialize NVML|Driver\/library version mismatch|NVML library version mismatch/i,
    "driver-error",
  ],
  [/Unable to determine the device handle|GPU is lost/i, "driver-error"],
  [/is not a valid field to query/i, "parse-error"],
];

/**
 * Recognises the known failure texts of nvidia-smi (or of the shell that could not find it) in its
 * output. Returns `null` when the text looks like data.
 */
export function detectNvidiaSmiFailure(text: string): NvidiaSmiError | null {
  for (const [pattern, reason] of FAILURE_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return new NvidiaSmiError(reason, oneLine(lineAround(text, match.index)));
  }
  return null;
}

/**
 * Parses `nvidia-smi --query-gpu=… --format=csv[,noheader][,nounits]`.
 *
 * With a header (`--format=csv`) the fields come from it and units are stripped; without one the
 * caller names the `fields` in order. A header line is recognised and used even when `fields` is given.
 * Any bracketed value (`[N/A]`, `[Not Supported]`, `[Requested functionality has been deprecated]`…)
 * is no reading (`null`). With MIG enabled the whole-GPU utilisation is no reading.
 * @throws NvidiaSmiError on failure texts, empty output or output that is not this CSV.
 */
export function parseGpuQuery(text: string, fields?: readonly string[]): GpuReading[] {
  if (text.trim() === "") throw new NvidiaSmiError("parse-error", "nvidia-smi --query-gpu printed nothing");
  const table = parseTable(text, fields, "query-gpu");
  if (table.rows.length === 0)
    throw new NvidiaSmiError("parse-error", "nvidia-smi --query-gpu printed no GPU");
  if (!table.fields.some((field) => GPU_FIELD_SET.has(field))) {
    throw new NvidiaSmiError(
      "parse-error",
      `nvidia-smi --query-gpu printed unknown fields: ${preview(text)}`,
    );
  }
  return table.rows.map((row, position) => {
    const mig = row.get("mig.mode.current")?.toLowerCase() === "enabled";
    const utilPct = number(row, "utilization.gpu");
    return {
      index: integer(row, "index") ?? position,
      uuid: text_(row, "uuid"),
      model: text_(row, "name"),
      utilPct: mig ? null : utilPct,
      memUsedMiB: number(row, "memory.used"),
      memTotalMiB: number(row, "memory.total"),
      powerW:
        number(row, "power.draw") ?? number(row, "power.draw.average") ?? number(row, "power.draw.instant"),
      tempC: number(row, "temperature.gpu"),
      mig,
      processes: [],
    };
  });
}

/**
 * Parses `nvidia-smi --query-compute-apps=… --format=csv[,noheader][,nounits]`; no rows is no
 * processes. Memory as `[N/A]` (Windows/WDDM) is `null`.
 * @throws NvidiaSmiError on failure texts or output that is not this CSV.
 */
export function parseComputeApps(text: string, fields?: readonly string[]): ComputeApp[] {
  const table = parseTable(text, fields, "query-compute-apps");
  if (table.rows.length > 0 && !table.fields.some((field) => APP_FIELD_SET.has(field))) {
    throw new NvidiaSmiError(
      "parse-error",
      `nvidia-smi --query-compute-apps printed unknown fields: ${preview(text)}`,
    );
  }
  return table.rows.map((row) => ({
    gpuUuid: text_(row, "gpu_uuid"),
    pid: integer(row, "pid"),
    name: text_(row, "process_name") ?? "",
    usedMemoryMiB: number(row, "used_memory"),
  }));
}

/**
 * Puts each compute app on the GPU with its UUID (on the only GPU when there is one and the UUIDs
 * do not match, as with MIG instances). `owners` maps pid to login name where known.
 */
export function attachProcesses(
  gpus: readonly GpuReading[],
  apps: readonly ComputeApp[],
  owners: ReadonlyMap<number, string> = new Map(),
): { gpus: GpuReading[]; unattached: ComputeApp[] } {
  const byUuid = new Map<string, GpuProcess[]>();
  const unattached: ComputeApp[] = [];
  for (const gpu of gpus) if (gpu.uuid !== null) byUuid.set(gpu.uuid, []);
  const only = gpus.length === 1 ? (gpus[0]?.uuid ?? "") : null;
  const extra: GpuProcess[] = [];
  for (const app of apps) {
    const process: GpuProcess = {
      pid: app.pid,
      user: app.pid === null ? null : (owners.get(app.pid) ?? null),
      name: app.name,
      usedMemoryMiB: app.usedMemoryMiB,
      container: null,
      pod: null,
      namespace: null,
    };
    const list = app.gpuUuid === null ? undefined : byUuid.get(app.gpuUuid);
    if (list) list.push(process);
    else if (only !== null) extra.push(process);
    else unattached.push(app);
  }
  return {
    gpus: gpus.map((gpu) => ({
      ...gpu,
      processes: [
        ...gpu.processes,
        ...(gpu.uuid === null ? [] : (byUuid.get(gpu.uuid) ?? [])),
        ...(only !== null ? extra : []),
      ],
    })),
    unattached,
  };
}

const GPU_FIELD_SET = new Set<string>([
  ...GPU_QUERY_FIELDS,
  "utilization.memory",
  "power.draw.average",
  "power.draw.instant",
]);
const APP_FIELD_SET = new Set<string>([...COMPUTE_APPS_FIELDS]);

interface Table {
  fields: string[];
  rows: Map<string, string>[];
}

function parseTable(text: string, fields: readonly string[] | undefined, what: string): Table {
  const failure = detectNvidiaSmiFailure(text);
  if (failure) throw failure;
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    // NOTE: nvidia-smi may warn (e.g. a corrupted infoROM) in between the CSV lines.
    .filter((line) => line !== "" && !line.startsWith("WARNING: "));
  const first = lines[0];
  let names: string[];
  let body: string[];
  if (first !== undefined && isHeader(first)) {
    names = splitCells(first).map(fieldName);
    body = lines.slice(1);
  } else if (fields !== undefined) {
    names = fields.map(fieldName);
    body = lines;
  } else if (first === undefined) {
    throw new NvidiaSmiError("parse-error", `nvidia-smi --${what} printed nothing`);
  } else {
    throw new NvidiaSmiError("parse-error", `nvidia-smi --${what} printed no CSV header: ${preview(text)}`);
  }
  const nameIndex = names.indexOf("process_name");
  const rows = body.map((line) => {
    let cells = splitCells(line);
    if (cells.length > names.length && nameIndex >= 0) {
      // NOTE: nvidia-smi does not quote; a process name with ", " in it spills into the next cells.
      const spill = cells.length - names.length;
      cells = [
        ...cells.slice(0, nameIndex),
        cells.slice(nameIndex, nameIndex + spill + 1).join(", "),
        ...cells.slice(nameIndex + spill + 1),
      ];
    }
    if (cells.length !== names.length) {
      throw new NvidiaSmiError(
        "parse-error",
        `nvidia-smi --${what}: expected ${names.length} values on a line, got ${cells.length}: ${preview(line)}`,
      );
    }
    return new Map(names.map((name, i) => [name, cells[i] ?? ""]));
  });
  return { fields: names, rows };
}

function isHeader(line: string): boolean {
  return splitCells(line).some((cell) => KNOWN_FIELDS.has(fieldName(cell)));
}

function splitCells(line: string): string[] {
  return line.split(",").map((cell) => cell.trim());
}

/** `utilization.gpu [%]` → `utilization.gpu`; `used_gpu_memory` → `used_memory`. */
function fieldName(cell: string): string {
  const name = cell.replace(/\s*\[[^\]]*\]$/, "").trim();
  return FIELD_ALIASES[name] ?? name;
}

function isNoReading(value: string): boolean {
  return value === "" || /^\[.*\]$/.test(value) || /^N\/A$/i.test(value);
}

function text_(row: Map<string, string>, field: string): string | null {
  const value = row.get(field);
  return value === undefined || isNoReading(value) ? null : value;
}

function number(row: Map<string, string>, field: string): number | null {
  const value = row.get(field);
  if (value === undefined || isNoReading(value)) return null;
  const match = /^(-?\d+(?:\.\d+)?)(?:\s*[A-Za-z%/]+)?$/.exec(value);
  if (!match?.[1]) {
    throw new NvidiaSmiError("parse-error", `nvidia-smi: ${field} is "${clip(value)}", not a number`);
  }
  return Number(match[1]);
}

function integer(row: Map<string, string>, field: string): number | null {
  const value = number(row, field);
  if (value !== null && !Number.isInteger(value)) {
    throw new NvidiaSmiError("parse-error", `nvidia-smi: ${field} is "${value}", not a whole number`);
  }
  return value;
}

function lineAround(text: string, at: number): string {
  const start = text.lastIndexOf("\n", at) + 1;
  const end = text.indexOf("\n", at);
  return text.slice(start, end === -1 ? undefined : end);
}

function oneLine(text: string): string {
  return clip(text.replace(/\s+/g, " ").trim());
}

function preview(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  return `"${clip(line.trim())}"`;
}

function clip(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
