import { readFileSync } from "node:fs";
import { join } from "node:path";
import { collectDefaultMetrics, Registry } from "prom-client";
import { createMetrics } from "../../src/observability/metrics.ts";

export const METRICS_START = "<!-- generated:metrics (npm run docs) -->";
export const METRICS_END = "<!-- end:metrics -->";

/** The bot's own metrics (not Node's process metrics, which differ by platform), by name. */
async function botMetrics(): Promise<{ name: string; type: string; help: string; labels: string[] }[]> {
  const defaults = new Registry();
  collectDefaultMetrics({ register: defaults, prefix: "gpu_warden_" });
  const defaultNames = new Set((await defaults.getMetricsAsJSON()).map((metric) => metric.name));
  const { registry } = createMetrics();
  const all = await registry.getMetricsAsJSON();
  return all
    .filter((metric) => !defaultNames.has(metric.name))
    .map((metric) => ({
      name: metric.name,
      type: String(metric.type),
      help: metric.help,
      // NOTE: prom-client keeps the declared label names on the metric object, not in its JSON.
      labels: [
        ...((registry.getSingleMetric(metric.name) as unknown as { labelNames?: string[] }).labelNames ?? []),
      ],
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The generated metrics table of docs/operations.md. */
export async function metricsSection(): Promise<string> {
  const rows = (await botMetrics()).map(
    (metric) =>
      `| \`${metric.name}\` | ${metric.type} | ${metric.labels.join(", ") || "—"} | ${metric.help} |`,
  );
  return [
    METRICS_START,
    "",
    "| metric | type | labels | meaning |",
    "|---|---|---|---|",
    ...rows,
    "",
    METRICS_END,
  ].join("\n");
}

/** docs/operations.md with its generated metrics table replaced. */
export async function operationsDoc(root: string): Promise<string> {
  const text = readFileSync(join(root, "docs", "operations.md"), "utf8");
  const start = text.indexOf(METRICS_START);
  const end = text.indexOf(METRICS_END);
  if (start < 0 || end < start) throw new Error(`docs/operations.md lacks the ${METRICS_START} markers`);
  return `${text.slice(0, start)}${await metricsSection()}${text.slice(end + METRICS_END.length)}`;
}
