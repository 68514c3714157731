import type { ContainerUsage } from "../domain/observation.ts";
import { round } from "./prom-value.ts";
import type { PromVectorSample } from "./prometheus-api.ts";

export function containersByNode(
  requests: PromVectorSample[],
  podNodes: PromVectorSample[],
  usage: PromVectorSample[],
): HostIndex<ContainerUsage[]> {
  const nodeOfPod = new Map<string, string>();
  for (const { labels } of podNodes) {
    if (labels.namespace && labels.pod && labels.node)
      nodeOfPod.set(`${labels.namespace}/${labels.pod}`, labels.node);
  }
  const rows = new Map<string, { usage: ContainerUsage; node: string | null }>();
  const rowOf = (labels: Record<string, string>) => {
    const { namespace, pod, container } = labels;
    if (!namespace || !pod || !container) return null;
    const key = `${namespace}/${pod}/${container}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        usage: { namespace, pod, container, cpuRequestCores: null, cpuUsageCores: null, gpuRequest: null },
        node: null,
      };
      rows.set(key, row);
    }
    row.node ??= labels.node || nodeOfPod.get(`${namespace}/${pod}`) || null;
    return row;
  };
  for (const sample of requests) {
    const row = rowOf(sample.labels);
    if (!row || !Number.isFinite(sample.value)) continue;
    if (sample.labels.resource === "cpu") row.usage.cpuRequestCores = sample.value;
    else if (sample.labels.resource === "nvidia_com_gpu") row.usage.gpuRequest = sample.value;
  }
  for (const sample of usage) {
    const row = rowOf(sample.labels);
    if (!row || !Number.isFinite(sample.value)) continue;
    row.usage.cpuUsageCores = round(Math.max(0, sample.value), 4);
  }
  const byNode = new HostIndex<ContainerUsage[]>();
  const lists = new Map<string, ContainerUsage[]>();
  for (const { usage: row, node } of rows.values()) {
    if (!node) continue;
    let list = lists.get(node);
    if (!list) {
      list = [];
      lists.set(node, list);
    }
    list.push(row);
  }
  for (const [node, list] of lists) {
    list.sort((a, b) =>
      `${a.namespace}/${a.pod}/${a.container}` < `${b.namespace}/${b.pod}/${b.container}` ? -1 : 1,
    );
    byNode.set(node, list);
  }
  return byNode;
}

/**
 * Host names as keys, matched case-insensitively, falling back to the short name (`gpu-a` for
 * `gpu-a.lab.example.com`) when that is unambiguous: node_exporter's `instance` often carries an FQDN
 * where dcgm-exporter's `Hostname` has the short name.
 */
export class HostIndex<T> {
  readonly #full = new Map<string, T>();
  /** Short name → the one full name that has it, or `null` when several do. */
  readonly #short = new Map<string, string | null>();

  set(host: string, value: T): void {
    const full = host.toLowerCase();
    this.#full.set(full, value);
    const short = shortName(full);
    const owner = this.#short.get(short);
    this.#short.set(short, owner === undefined || owner === full ? full : null);
  }

  get(host: string): T | undefined {
    const full = host.toLowerCase();
    const exact = this.#full.get(full);
    if (exact !== undefined) return exact;
    const owner = this.#short.get(shortName(full));
    return owner ? this.#full.get(owner) : undefined;
  }
}

export function hostIndex(samples: PromVectorSample[], label: string): HostIndex<number> {
  const index = new HostIndex<number>();
  for (const sample of samples) {
    const raw = sample.labels[label];
    if (raw && Number.isFinite(sample.value)) index.set(hostFromLabel(raw), sample.value);
  }
  return index;
}

/** `gpu-a:9100` → `gpu-a`, `[::1]:9100` → `::1`; anything else unchanged. */
export function hostFromLabel(value: string): string {
  if (!value.includes(":")) return value;
  const v6 = /^\[(.+)\]:\d+$/.exec(value);
  if (v6) return v6[1]!;
  const v4 = /^([^:]+):\d+$/.exec(value);
  return v4 ? v4[1]! : value;
}

export function shortName(host: string): string {
  if (/^[\d.]+$/.test(host) || host.includes(":")) return host;
  return host.split(".")[0]!;
}
