import type { GpuReading, HostObservation } from "../domain/observation.ts";
import type { MessageId } from "../messages/catalog.ts";
import { type Translator, translator } from "../messages/translator.ts";

const HEADER = [
  "collect.header.host",
  "collect.header.source",
  "collect.header.state",
  "collect.header.gpus",
  "collect.header.util",
  "collect.header.memory",
  "collect.header.power",
  "collect.header.sessions",
  "collect.header.load",
  "collect.header.note",
] as const satisfies readonly MessageId[];

const ENGLISH = translator({ language: "en", timeZone: "UTC", currency: "USD" });

/** A plain-text table, one row per host, for people at a terminal, in `tr`'s language (English by default). */
export function fleetTable(observations: readonly HostObservation[], tr: Translator = ENGLISH): string {
  const header = HEADER.map((id) => tr.t(id));
  const rows = [...observations]
    .sort((a, b) => a.host.localeCompare(b.host))
    .map((obs) => {
      if (!obs.ok)
        return [
          obs.host,
          obs.source,
          tr.t("collect.state.unknown"),
          "-",
          "-",
          "-",
          "-",
          "-",
          "-",
          obs.message,
        ];
      const gpus = obs.gpus;
      return [
        obs.host,
        obs.source,
        tr.t("collect.state.ok"),
        gpus.length === 0 ? "0" : `${gpus.length}× ${modelSummary(gpus)}`,
        gpus.map((gpu) => (gpu.utilPct === null ? "?" : String(Math.round(gpu.utilPct)))).join(" ") || "-",
        memorySummary(gpus),
        powerSummary(gpus),
        obs.sessions === null
          ? tr.t("collect.sessions.notRead")
          : obs.sessions.length === 0
            ? tr.t("collect.sessions.none")
            : sessionSummary(obs.sessions.map((s) => s.user)),
        obs.cpuLoad1 === null ? "-" : obs.cpuLoad1.toFixed(2),
        processSummary(tr, gpus),
      ];
    });
  return renderTable([header, ...rows]);
}

export function renderTable(rawRows: readonly (readonly string[])[]): string {
  const rows = rawRows.map((row) => row.map(escapeControl));
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return `${rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n")}\n`;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const SHORT_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Control bytes (C0, DEL, C1) written as JSON writes them (`\n`, `\u001b`), so text from a broken
 * nvidia-smi or a remote host cannot move the cursor, clear the screen or recolour the terminal.
 */
export function escapeControl(text: string): string {
  return text.replace(
    CONTROL,
    (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

function modelSummary(gpus: readonly GpuReading[]): string {
  const models = [...new Set(gpus.map((gpu) => shortModel(gpu.model)))];
  return models.join("/");
}

/** `NVIDIA H100 80GB HBM3` → `H100 80GB HBM3`. */
export function shortModel(model: string | null): string {
  if (model === null) return "GPU";
  return (
    model
      .replace(/^NVIDIA\s+/i, "")
      .replace(/^(Tesla|GeForce)\s+/i, "")
      .trim() || model
  );
}

function memorySummary(gpus: readonly GpuReading[]): string {
  let used = 0;
  let total = 0;
  let unknown = false;
  for (const gpu of gpus) {
    if (gpu.memUsedMiB === null || gpu.memTotalMiB === null) unknown = true;
    used += gpu.memUsedMiB ?? 0;
    total += gpu.memTotalMiB ?? 0;
  }
  if (gpus.length === 0) return "-";
  const text = `${gib(used)}/${gib(total)} GiB`;
  return unknown ? `${text}?` : text;
}

function powerSummary(gpus: readonly GpuReading[]): string {
  const known = gpus.filter((gpu) => gpu.powerW !== null);
  if (known.length === 0) return "-";
  const watts = known.reduce((sum, gpu) => sum + (gpu.powerW ?? 0), 0);
  return `${Math.round(watts)} W${known.length < gpus.length ? "?" : ""}`;
}

function sessionSummary(users: readonly string[]): string {
  const unique = [...new Set(users)];
  return `${users.length} (${unique.slice(0, 3).join(", ")}${unique.length > 3 ? ", …" : ""})`;
}

function processSummary(tr: Translator, gpus: readonly GpuReading[]): string {
  const names = new Map<string, number>();
  for (const gpu of gpus) {
    for (const proc of gpu.processes) {
      const label = proc.user ? `${proc.user}:${baseName(proc.name)}` : baseName(proc.name);
      names.set(label, (names.get(label) ?? 0) + 1);
    }
  }
  const parts = [...names].slice(0, 3).map(([name, count]) => (count > 1 ? `${name}×${count}` : name));
  return parts.length === 0
    ? ""
    : tr.t("collect.processes", { names: `${parts.join(", ")}${names.size > 3 ? ", …" : ""}` });
}

function baseName(name: string): string {
  const parts = name.split(/[\\/]/);
  return parts[parts.length - 1] || name;
}

function gib(mib: number): string {
  const value = mib / 1024;
  return value >= 10 ? value.toFixed(0) : value.toFixed(1);
}
