import type { ContainerFacts, DiskFacts, DockerFacts, SshdFacts } from "../domain/hygiene.ts";

type Section = { name: string; arg: string; lines: string[] };

/** `ClientAliveInterval` from `sshd -T`, or the first setting outside a `Match` block, `Include`s read where they stand. */
export function parseSshd(sections: readonly Section[]): SshdFacts | null {
  const dashT = sections.find((s) => s.name === "sshd-T");
  if (dashT !== undefined) {
    const line = dashT.lines.find((l) => /^clientaliveinterval\s/i.test(l));
    const seconds = line === undefined ? null : sshdSeconds(line.split(/\s+/)[1] ?? "");
    return { via: "sshd -T", clientAliveSeconds: seconds, mainFile: dashT.arg };
  }
  const files = new Map<string, string[]>();
  const globs = new Map<string, string[]>();
  for (const section of sections) {
    if (section.name === "file" && !files.has(section.arg)) files.set(section.arg, section.lines);
    if (section.name === "glob") {
      const [pattern = "", ...file] = section.arg.split(" ");
      globs.set(pattern, [...(globs.get(pattern) ?? []), file.join(" ")]);
    }
  }
  const mainFile = sections.find((s) => s.name === "file")?.arg;
  if (mainFile === undefined) return null;
  const found = firstSetting(mainFile, files, globs, 0);
  return { via: "files", clientAliveSeconds: found?.seconds ?? null, at: found?.at ?? null, mainFile };
}

function firstSetting(
  file: string,
  files: Map<string, string[]>,
  globs: Map<string, string[]>,
  depth: number,
): { seconds: number | null; at: { file: string; line: number } } | null {
  const lines = files.get(file) ?? [];
  for (let i = 0; i < lines.length; i++) {
    const [keyword = "", ...args] = (lines[i] ?? "")
      .replace(/#.*/, "")
      .trim()
      .split(/\s*=\s*|\s+/);
    const key = keyword.toLowerCase();
    if (key === "match") return null;
    if (key === "clientaliveinterval")
      return { seconds: sshdSeconds(args[0] ?? ""), at: { file, line: i + 1 } };
    if (key === "include" && depth < 8) {
      for (const included of args.flatMap((pattern) => globs.get(pattern) ?? [])) {
        const found = firstSetting(included, files, globs, depth + 1);
        if (found !== null) return found;
      }
    }
  }
  return null;
}

const TIME_UNITS: Record<string, number> = { "": 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** sshd's time format: `300`, `5m`, `1h30m`; `null` when it is not one. */
function sshdSeconds(text: string): number | null {
  if (!/^(\d+[smhdw]?)+$/i.test(text)) return null;
  let total = 0;
  for (const [, n, unit] of text.toLowerCase().matchAll(/(\d+)([smhdw]?)/g))
    total += Number(n) * (TIME_UNITS[unit ?? ""] ?? 1);
  return total;
}

/** `df -P -k`: mount, use % and free KiB per filesystem; the header and odd lines are skipped. */
export function parseDf(lines: readonly string[]): DiskFacts[] {
  const out: DiskFacts[] = [];
  for (const line of lines) {
    const match = /^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)%\s+(\/.*)$/.exec(line.trim());
    if (match === null) continue;
    out.push({ mount: match[6]!, usedPct: Number(match[5]), availableKiB: Number(match[4]) });
  }
  return out;
}

const DOCKER_UNITS: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12 };

/** Docker's human sizes (`12.06GB`, `512kB`, `0B`, `1.2GB (71%)`) in bytes; `null` for anything else. */
export function dockerBytes(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kKMGT]?B)\b/.exec(text);
  if (match === null) return null;
  return Math.round(Number(match[1]) * (DOCKER_UNITS[match[2]!.toUpperCase()] ?? 1));
}

/** Docker's `CreatedAt` (`2024-05-02 10:11:12 +0000 UTC`) in ms; `null` when it is not one. */
function dockerTimeMs(text: string): number | null {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) ([+-]\d{2})(\d{2})/.exec(text);
  if (match === null) return null;
  const ms = Date.parse(`${match[1]}T${match[2]}${match[3]}:${match[4]}`);
  return Number.isFinite(ms) ? ms : null;
}

function jsonLines(lines: readonly string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of lines) {
    if (!line.trim().startsWith("{")) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "object" && value !== null) out.push(value as Record<string, unknown>);
    } catch {
      // NOTE: a line docker cut short is not a reading; the rest still are.
    }
  }
  return out;
}

/** The docker check's sections: `system df`, the images and the images containers use. */
export function parseDocker(sections: readonly Section[]): DockerFacts {
  if (sections.some((s) => s.name === "no-docker")) return { present: false };
  const lines = (name: string) => sections.find((s) => s.name === name)?.lines ?? [];
  const usage = jsonLines(lines("system-df")).map((row) => ({
    type: String(row.Type ?? ""),
    sizeBytes: dockerBytes(String(row.Size ?? "")) ?? 0,
    reclaimableBytes: dockerBytes(String(row.Reclaimable ?? "")) ?? 0,
  }));
  const images = jsonLines(lines("images")).flatMap((row) => {
    const createdAtMs = dockerTimeMs(String(row.CreatedAt ?? ""));
    const id = String(row.ID ?? "");
    return createdAtMs === null || id === ""
      ? []
      : [{ id, createdAtMs, sizeBytes: dockerBytes(String(row.Size ?? "")) ?? 0 }];
  });
  const usedImageIds = lines("used")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  return { present: true, usage, images, usedImageIds };
}

/** The containers check's `name|image|memory bytes` lines. */
export function parseContainers(sections: readonly Section[]): ContainerFacts {
  if (sections.some((s) => s.name === "no-docker")) return { present: false };
  const containers = (sections.find((s) => s.name === "containers")?.lines ?? []).flatMap((line) => {
    const [name = "", image = "", memory = ""] = line.split("|");
    return /^\d+$/.test(memory.trim())
      ? [{ name: name.replace(/^\//, ""), image, memoryBytes: Number(memory) }]
      : [];
  });
  return { present: true, containers };
}
