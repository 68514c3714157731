import { readFileSync } from "node:fs";
import { stringify } from "yaml";
import { z } from "zod";
import { configSchema } from "../../src/config/schema.ts";
import { commentFor, type KeyComment, schemaComments } from "./schema-comments.ts";

/** What the generator reads of a zod 4 schema node (`schema._zod.def`). */
interface Def {
  type: string;
  innerType?: Node;
  defaultValue?: unknown;
  shape?: Record<string, Node>;
  element?: Node;
  options?: Node[];
  keyType?: Node;
  valueType?: Node;
  discriminator?: string;
  checks?: { _zod: { def: { check: string; format?: string; error?: (issue: object) => unknown } } }[];
}
interface Node {
  _zod: { def: Def };
}

interface Row {
  key: string;
  type: string;
  defaultValue: string;
  bounds: string;
  example: string;
  description: string;
}

interface Section {
  title: string;
  description: string | null;
  rows: Row[];
}

/** Examples for keys that have no default (and a few whose default says little), by key name. */
const EXAMPLES: Record<string, unknown> = {
  "http.host": "0.0.0.0",
  name: "vision",
  timezone: "Europe/Berlin",
  channel: "#gpu",
  admins: ["U024BE7LH"],
  roster: ["U0G9QF9C6", "U024BE7LH"],
  owners: ["U0G9QF9C6"],
  host: "gpu-box",
  target: "ops@10.0.0.5",
  ssh_args: ["-p", "2222"],
  url: "http://prometheus:9090",
  webhook: "https://ops.example/stop",
  headers: { Authorization: { env: "STOP_TOKEN", prefix: "Bearer " } },
  body: { reason_code: "idle" },
  command: ["ssh", "gpu-a", "sudo", "poweroff"],
  cost_per_hour: 12.5,
  purchase_price: 250000,
  lifetime_months: 36,
  rated_watts: 2400,
  upkeep_pct: 30,
  from: "22:00",
  to: "06:00",
  price_per_kwh: 0.18,
  after_minutes: 60,
  dry_run: true,
  path: "/var/lib/gpu-warden/gpu-warden.db",
};

const SAFE = Number.MAX_SAFE_INTEGER;
const def = (node: Node): Def => node._zod.def;
const inline = (value: unknown): string => stringify(value, { flow: true }).trim();

/** Peels default/prefault/optional/nullable layers off a node. */
function unwrap(node: Node): { inner: Node; defaultValue: unknown; optional: boolean; nullable: boolean } {
  let inner = node;
  let defaultValue: unknown;
  let optional = false;
  let nullable = false;
  for (;;) {
    const d = def(inner);
    if (d.type === "default" || d.type === "prefault") defaultValue ??= d.defaultValue;
    else if (d.type === "optional") optional = true;
    else if (d.type === "nullable") nullable = true;
    else return { inner, defaultValue, optional, nullable };
    inner = d.innerType!;
  }
}

/** The messages of refinements and patterns: what check-config says when the value breaks them. */
function ruleMessages(node: Node): string[] {
  return (def(node).checks ?? []).flatMap((check) => {
    const { check: kind, format, error } = check._zod.def;
    if (!error || !(kind === "custom" || (kind === "string_format" && format === "regex"))) return [];
    const message = error({});
    return typeof message === "string" ? [message] : [];
  });
}

type Json = Record<string, unknown>;

function jsonType(schema: Json): string {
  if (schema.const !== undefined) return `\`${inline(schema.const)}\``;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => `\`${v}\``).join(", ")}`;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map(jsonType).join(" or ");
  if (schema.type === "array") return `list of ${jsonType(schema.items as Json)}`;
  if (schema.type === "object") return "map";
  if (schema.format === "uri") return "URL";
  if (schema.format === "date") return "date (YYYY-MM-DD)";
  return String(schema.type ?? "any");
}

function jsonBounds(schema: Json): string[] {
  const bounds: string[] = [];
  const num = (key: string) => (typeof schema[key] === "number" ? (schema[key] as number) : null);
  const [min, max, gt, lt] = [
    num("minimum"),
    num("maximum"),
    num("exclusiveMinimum"),
    num("exclusiveMaximum"),
  ];
  if (min !== null && min > -SAFE) bounds.push(`≥ ${min}`);
  if (gt !== null) bounds.push(`> ${gt}`);
  if (max !== null && max < SAFE) bounds.push(`≤ ${max}`);
  if (lt !== null) bounds.push(`< ${lt}`);
  const [minLength, maxLength] = [num("minLength"), num("maxLength")];
  if (minLength !== null && minLength === maxLength) bounds.push(`exactly ${minLength} characters`);
  else {
    if (minLength === 1) bounds.push("not empty");
    else if (minLength !== null) bounds.push(`at least ${minLength} characters`);
    if (maxLength !== null) bounds.push(`at most ${maxLength} characters`);
  }
  const minItems = num("minItems");
  if (minItems !== null) bounds.push(`at least ${minItems} item${minItems === 1 ? "" : "s"}`);
  if (Array.isArray(schema.anyOf)) bounds.push(...(schema.anyOf as Json[]).flatMap(jsonBounds));
  if (schema.type === "array" && schema.items)
    bounds.push(...jsonBounds(schema.items as Json).map((b) => `each ${b}`));
  return bounds;
}

function leafRow(key: string, node: Node, description: string | null, path = key): Row {
  const { inner, defaultValue, optional, nullable } = unwrap(node);
  const schema = z.toJSONSchema(inner as never, { io: "input", unrepresentable: "any" }) as Json;
  let type = jsonType(schema);
  if (nullable) type += " or null";
  const rules = [
    ...ruleMessages(inner),
    ...(def(inner).type === "array" ? ruleMessages(def(inner).element!) : []),
  ];
  const bounds =
    rules.length > 0
      ? [...jsonBounds(schema).filter((b) => !b.includes("pattern")), ...rules]
      : jsonBounds(schema);
  const name = key.replace(/\[\]$/, "").split(".").at(-1)!;
  const example = EXAMPLES[path] ?? EXAMPLES[name] ?? defaultValue ?? exampleOf(schema);
  return {
    key,
    type,
    defaultValue:
      defaultValue !== undefined
        ? `\`${inline(defaultValue)}\``
        : optional || nullable
          ? "(none)"
          : "required",
    bounds: bounds.join("; "),
    example: example === undefined ? "" : `\`${name}: ${inline(example)}\``,
    description: description ?? "",
  };
}

function exampleOf(schema: Json): unknown {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.type === "integer" || schema.type === "number") {
    const min = typeof schema.minimum === "number" ? schema.minimum : null;
    return min !== null && min > -SAFE ? Math.max(min, 1) : 1;
  }
  if (schema.type === "boolean") return true;
  return undefined;
}

interface Walk {
  comments: KeyComment[];
  sections: Section[];
}

/** Rows for the keys of an object node; nested objects, unions of objects and maps get their own sections. */
function objectRows(walk: Walk, prefix: string, node: Node): Row[] {
  const shape = def(node).shape!;
  const keys = Object.keys(shape);
  return keys.flatMap((key) =>
    keyRows(
      walk,
      key,
      prefix === "" ? key : `${prefix}.${key}`,
      shape[key]!,
      commentFor(walk.comments, key, keys),
    ),
  );
}

const isObject = (node: Node) => def(unwrap(node).inner).type === "object";

function keyRows(walk: Walk, key: string, path: string, node: Node, description: string | null): Row[] {
  const d = def(unwrap(node).inner);
  if (d.type === "object") return [objectRow(walk, key, path, node, description)];
  if (d.type === "record" && isObject(d.valueType!)) {
    const row = objectRow(walk, key, `${path}.<name>`, node, description, unwrap(d.valueType!).inner);
    const type = `map of name to object (see \`${path}.<name>\`)`;
    return [{ ...row, type, bounds: `each name: ${ruleMessages(d.keyType!).join("; ")}` }];
  }
  if (d.type === "record" && def(unwrap(d.valueType!).inner).type === "union") {
    const [row] = unionRows(walk, key, `${path}.<name>`, d.valueType!, description);
    return [{ ...leafRow(key, node, description, path), type: `map of name to: ${row!.type}` }];
  }
  if (d.type === "array" && isObject(d.element!)) {
    const row = objectRow(walk, key, `${path}[]`, node, description, unwrap(d.element!).inner);
    return [{ ...row, type: `list of objects (see \`${path}[]\`)` }];
  }
  if (d.type === "union" && d.options!.some(isObject)) return unionRows(walk, key, path, node, description);
  if (d.type === "array" && def(unwrap(d.element!).inner).type === "union") {
    return [listOfUnionRow(walk, key, path, node, description)];
  }
  return [leafRow(key, node, description, path)];
}

/** A list whose items take several forms: the sources (one section per kind) or SSH hosts (a name or an object). */
function listOfUnionRow(walk: Walk, key: string, path: string, node: Node, description: string | null): Row {
  const element = def(unwrap(node).inner).element!;
  const list = leafRow(key, node, description);
  if (def(unwrap(element).inner).options!.every(isObject)) {
    unionSections(walk, `${path}[]`, unwrap(element).inner, description);
    return { ...list, type: `list (see \`${path}[]\`)`, example: "" };
  }
  const [row] = unionRows(walk, key, `${path}[]`, element, description);
  return {
    ...list,
    type: `list of: ${row!.type}`,
    bounds: [list.bounds, row!.bounds].filter(Boolean).join("; "),
  };
}

/** The row of a key whose value is an object, and the object's own section. */
function objectRow(
  walk: Walk,
  key: string,
  path: string,
  node: Node,
  description: string | null,
  object?: Node,
): Row {
  const inner = object ?? unwrap(node).inner;
  const section: Section = { title: path, description, rows: [] };
  walk.sections.push(section);
  section.rows = objectRows(walk, path, inner);
  const rules = ruleMessages(inner);
  if (rules.length > 0) {
    section.description = [description, ...rules.map((rule) => `Checked: ${rule}.`)]
      .filter(Boolean)
      .join(" ");
  }
  return { ...leafRow(key, node, description), type: `object (see \`${path}\`)`, bounds: "", example: "" };
}

/** A key whose value is one of several objects (or a plain value): one section per object form. */
function unionRows(walk: Walk, key: string, path: string, node: Node, description: string | null): Row[] {
  const options = def(unwrap(node).inner).options!;
  const plainTypes = options.filter((o) => !isObject(o)).map((o) => leafRow(key, o, null));
  const formNames: string[] = [];
  for (const form of options.filter(isObject)) {
    const inner = unwrap(form).inner;
    const title = `${path} (${Object.keys(def(inner).shape!)[0]})`;
    formNames.push(`\`${title}\``);
    const section: Section = { title, description, rows: [] };
    walk.sections.push(section);
    section.rows = objectRows(walk, path, inner);
  }
  const type = [...plainTypes.map((p) => p.type), `object: ${formNames.join(" or ")}`].join(", or ");
  const bounds = plainTypes
    .map((p) => p.bounds)
    .filter(Boolean)
    .join("; ");
  return [{ ...leafRow(key, node, description), type, bounds, example: "" }];
}

/** A list of a discriminated union (the sources): one section per kind. */
function unionSections(walk: Walk, path: string, union: Node, description: string | null): void {
  const d = def(union);
  for (const option of d.options!) {
    const inner = unwrap(option).inner;
    const shape = def(inner).shape!;
    const tag = d.discriminator
      ? `${d.discriminator}: ${inline(z.toJSONSchema(shape[d.discriminator]! as never).const)}`
      : "";
    walk.sections.push({ title: `${path} ${tag}`.trim(), description, rows: [] });
    const section = walk.sections.at(-1)!;
    section.rows = objectRows(walk, path, inner);
  }
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function renderSection(section: Section): string {
  const lines = [`## \`${section.title}\``, ""];
  if (section.description) lines.push(section.description, "");
  lines.push("| key | type | default | bounds | example | description |", "|---|---|---|---|---|---|");
  for (const row of section.rows) {
    lines.push(
      `| \`${row.key}\` | ${[row.type, row.defaultValue, row.bounds, row.example, row.description].map(escapeCell).join(" | ")} |`,
    );
  }
  return lines.join("\n");
}

/** docs/configuration.md: every key of the configuration schema, from src/config/schema.ts. */
export function configurationDoc(schemaSource: string): string {
  const walk: Walk = { comments: schemaComments(schemaSource), sections: [] };
  const top: Section = { title: "(top level)", description: null, rows: [] };
  walk.sections.push(top);
  top.rows = objectRows(walk, "", configSchema as unknown as Node);
  return [
    "# Configuration reference",
    "",
    "<!-- Generated from src/config/schema.ts by `npm run docs`; edit the schema, not this file. -->",
    "",
    "One YAML file: `gpu-warden.yaml` in the working folder, or `--config FILE`; without either, the",
    "embedded defaults (the local GPUs when `nvidia-smi` is on the PATH, else a simulated fleet). Every",
    "object is strict: an unknown key is an error, and `gpu-warden check-config` lists every problem with",
    "its path and a hint. Secrets never live here: `SLACK_BOT_TOKEN`, `SLACK_APP_TOKEN`,",
    "`SLACK_SIGNING_SECRET`, `SLACK_API_URL`, `PORT` (overrides `http.port`), `LOG_LEVEL` and `LOG_FORMAT`",
    "(`json|pretty`) come from the environment. A commented example:",
    "[`gpu-warden.example.yaml`](../gpu-warden.example.yaml).",
    "",
    "*default* `required` means the key must be given; `(none)` means it may be left out. *bounds* are",
    "checked when the file is loaded. Durations are in the unit the key names (`_seconds`, `_minutes`,",
    "`_hours`, `_days`); times of day are `HH:MM` in `team.timezone`.",
    "",
    ...walk.sections.flatMap((section) => [renderSection(section), ""]),
  ].join("\n");
}

/** Reads the schema source next to the schema module. */
export function readSchemaSource(root: string): string {
  return readFileSync(`${root}/src/config/schema.ts`, "utf8");
}
