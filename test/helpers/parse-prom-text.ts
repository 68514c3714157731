import { isDcgmBlank, parsePromValue } from "../../src/sources/prom-value.ts";

/**
 * The tests' parser for the Prometheus text exposition format (0.0.4), as served on `/metrics` by dcgm-exporter,
 * node_exporter, kube-state-metrics and cAdvisor. HELP and TYPE lines are optional; label values may be
 * escaped (`\\`, `\"`, `\n`); labels may be separated by `", "`; a sample may carry a timestamp in
 * epoch milliseconds; `# EOF` and OpenMetrics exemplars are tolerated.
 */

/** One sample line. */
export interface PromTextSample {
  name: string;
  labels: Record<string, string>;
  /**
   * The value as written, NaN and ±Inf included; `null` for a DCGM "blank" sentinel on a `DCGM_*`
   * metric (the exporter's way of saying "no reading").
   */
  value: number | null;
  /** Explicit sample timestamp in epoch milliseconds, when the line carries one. */
  timestampMs: number | null;
}

export interface PromTextFamily {
  name: string;
  /** From `# TYPE`: `gauge`, `counter`, `untyped`…; `null` without a TYPE line. */
  type: string | null;
  /** From `# HELP`, unescaped; `null` without a HELP line. */
  help: string | null;
}

export interface PromText {
  /** Samples in input order. */
  samples: PromTextSample[];
  /** Families named by HELP or TYPE lines, in input order (a family may have no samples). */
  families: Map<string, PromTextFamily>;
}

/** A line that is not valid exposition text; `line` is 1-based. */
export class PromTextParseError extends Error {
  readonly line: number;

  constructor(line: number, problem: string, text: string) {
    super(`line ${line}: ${problem}: ${text.length > 120 ? `${text.slice(0, 117)}...` : text}`);
    this.name = "PromTextParseError";
    this.line = line;
  }
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TIMESTAMP = /^-?\d+$/;

/** Parses a whole exposition; throws {@link PromTextParseError} on the first malformed line. */
export function parsePromText(text: string): PromText {
  const samples: PromTextSample[] = [];
  const families = new Map<string, PromTextFamily>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === "") continue;
    if (trimmed.startsWith("#")) {
      readComment(trimmed, i + 1, families);
      continue;
    }
    samples.push(readSample(trimmed, i + 1));
  }
  return { samples, families };
}

function readComment(line: string, lineNo: number, families: Map<string, PromTextFamily>): void {
  const match = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s+(.*))?$/.exec(line);
  if (!match) return;
  const [, keyword, name, rest] = match;
  if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name!)) {
    throw new PromTextParseError(lineNo, `bad metric name in # ${keyword}`, line);
  }
  const family = families.get(name!) ?? { name: name!, type: null, help: null };
  if (keyword === "TYPE") family.type = (rest ?? "").trim() || null;
  else family.help = unescapeHelp(rest ?? "");
  families.set(name!, family);
}

function readSample(line: string, lineNo: number): PromTextSample {
  const nameMatch = METRIC_NAME.exec(line);
  if (!nameMatch) throw new PromTextParseError(lineNo, "expected a metric name", line);
  const name = nameMatch[0];
  let pos = skipSpaces(line, name.length);
  const labels: Record<string, string> = {};
  if (line[pos] === "{") pos = readLabels(line, pos + 1, lineNo, labels);

  let rest = line.slice(pos).trim();
  const exemplar = rest.indexOf(" # ");
  if (exemplar >= 0) rest = rest.slice(0, exemplar).trim();
  const tokens = rest.split(/\s+/).filter(Boolean);
  if (tokens.length < 1 || tokens.length > 2) {
    throw new PromTextParseError(lineNo, "expected a value and an optional timestamp", line);
  }
  const parsed = parsePromValue(tokens[0]!);
  if (parsed === null) throw new PromTextParseError(lineNo, `bad value "${tokens[0]}"`, line);
  let timestampMs: number | null = null;
  if (tokens[1] !== undefined) {
    if (!TIMESTAMP.test(tokens[1])) {
      throw new PromTextParseError(lineNo, `bad timestamp "${tokens[1]}" (epoch milliseconds)`, line);
    }
    timestampMs = Number(tokens[1]);
  }
  const value = name.startsWith("DCGM_") && isDcgmBlank(parsed) ? null : parsed;
  return { name, labels, value, timestampMs };
}

/** Reads `name="value", …}` from just after `{`; returns the position after `}`. */
function readLabels(line: string, start: number, lineNo: number, labels: Record<string, string>): number {
  let pos = start;
  for (;;) {
    pos = skipSpaces(line, pos);
    if (line[pos] === "}") return pos + 1;
    const labelMatch = LABEL_NAME.exec(line.slice(pos));
    if (!labelMatch) throw new PromTextParseError(lineNo, "expected a label name", line);
    const label = labelMatch[0];
    pos = skipSpaces(line, pos + label.length);
    if (line[pos] !== "=") throw new PromTextParseError(lineNo, `expected = after label ${label}`, line);
    pos = skipSpaces(line, pos + 1);
    if (line[pos] !== '"') throw new PromTextParseError(lineNo, `expected " to open label ${label}`, line);
    pos++;
    let value = "";
    for (;;) {
      const ch = line[pos];
      if (ch === undefined)
        throw new PromTextParseError(lineNo, `unterminated value of label ${label}`, line);
      if (ch === '"') break;
      if (ch === "\\") {
        const next = line[pos + 1];
        if (next === "n") value += "\n";
        else if (next === "\\" || next === '"') value += next;
        else value += `\\${next ?? ""}`;
        pos += 2;
        continue;
      }
      value += ch;
      pos++;
    }
    if (Object.hasOwn(labels, label)) throw new PromTextParseError(lineNo, `duplicate label ${label}`, line);
    Object.defineProperty(labels, label, { value, enumerable: true, writable: true, configurable: true });
    pos = skipSpaces(line, pos + 1);
    if (line[pos] === ",") {
      pos++;
      continue;
    }
    if (line[pos] === "}") return pos + 1;
    throw new PromTextParseError(lineNo, `expected , or } after label ${label}`, line);
  }
}

function skipSpaces(line: string, pos: number): number {
  let at = pos;
  while (line[at] === " " || line[at] === "\t") at++;
  return at;
}

function unescapeHelp(text: string): string {
  return text.replace(/\\(\\|n)/g, (_, ch: string) => (ch === "n" ? "\n" : "\\"));
}
