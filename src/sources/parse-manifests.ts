import { LineCounter, type Node, parseAllDocuments } from "yaml";
import type {
  Located,
  ManifestContainer,
  ManifestFile,
  ManifestWorkload,
  WorkloadRole,
} from "../domain/manifest.ts";
import { type YamlReader, yamlReader } from "./yaml-nodes.ts";

/** Where the pod spec is in each workload kind, and whether it serves or runs to completion. */
const POD_SPEC: Record<string, { path: string[]; role: WorkloadRole }> = {
  Pod: { path: ["spec"], role: "experiment" },
  Job: { path: ["spec", "template", "spec"], role: "experiment" },
  CronJob: { path: ["spec", "jobTemplate", "spec", "template", "spec"], role: "experiment" },
  Deployment: { path: ["spec", "template", "spec"], role: "serving" },
  StatefulSet: { path: ["spec", "template", "spec"], role: "serving" },
  DaemonSet: { path: ["spec", "template", "spec"], role: "serving" },
  ReplicaSet: { path: ["spec", "template", "spec"], role: "serving" },
};

/** A resource name that asks for a GPU or a share of one (whole GPUs, MIG slices, HAMi memory). */
const GPU_RESOURCE = /(^|\/)(gpu|mig-|gpumem|gpucores|vgpu)/i;

/**
 * Reads Kubernetes manifests (any number of documents, `List`s included) and Compose files into
 * what the lint rules need, with the line of each value in `text`. A document that is not valid
 * YAML is kept as an error at its line and the others are still read. Never throws.
 */
export function parseManifests(file: string, text: string): ManifestFile {
  const result: ManifestFile = {
    file,
    workloads: [],
    priorityClasses: {},
    namespacesWithDefaults: [],
    errors: [],
  };
  const lines = new LineCounter();
  const docs = Array.from(
    parseAllDocuments(text, { lineCounter: lines, merge: true, uniqueKeys: false, prettyErrors: false }),
  );
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error !== undefined) {
      result.errors.push({ value: error.message.split("\n")[0]!, line: lines.linePos(error.pos[0]).line });
      continue;
    }
    const reader = yamlReader(doc, lines);
    readDocument(reader, doc.contents, result, 0);
  }
  return result;
}

function readDocument(r: YamlReader, root: unknown, into: ManifestFile, depth: number): void {
  const kind = r.text(r.get(root, "kind"));
  if (kind === undefined) {
    if (r.entries(r.get(root, "services")).length > 0) into.workloads.push(...composeServices(r, root));
    return;
  }
  if (kind === "List" && depth < 4) {
    for (const item of r.items(r.get(root, "items"))) readDocument(r, item, into, depth + 1);
    return;
  }
  const namespace = r.text(r.at(root, "metadata", "namespace")) ?? "default";
  if (kind === "PriorityClass") {
    const name = r.text(r.at(root, "metadata", "name"));
    const value = Number(r.text(r.get(root, "value")));
    if (name !== undefined && Number.isFinite(value)) into.priorityClasses[name] = value;
  } else if (kind === "ResourceQuota" || (kind === "LimitRange" && hasDefaults(r, root))) {
    into.namespacesWithDefaults.push(namespace);
  } else if (POD_SPEC[kind] !== undefined) {
    into.workloads.push(workload(r, root, kind, POD_SPEC[kind]));
  }
}

function hasDefaults(r: YamlReader, root: unknown): boolean {
  return r
    .items(r.at(root, "spec", "limits"))
    .some((limit) => r.text(r.at(limit, "defaultRequest", "cpu")) !== undefined);
}

function workload(
  r: YamlReader,
  root: unknown,
  kind: string,
  shape: { path: string[]; role: WorkloadRole },
): ManifestWorkload {
  const kindLine = r.keyLine(root, "kind", 1);
  const metadata = r.get(root, "metadata");
  const namespaceNode = r.get(metadata, "namespace");
  const podSpec = r.at(root, ...shape.path);
  const priority = r.get(podSpec, "priorityClassName");
  const priorityName = r.text(priority);
  return {
    kind,
    name: r.text(r.get(metadata, "name")) ?? "",
    line: kindLine,
    namespace: r.text(namespaceNode) ?? "default",
    namespaceLine: r.line(namespaceNode, r.keyLine(root, "metadata", kindLine)),
    role: shape.role,
    priorityClass:
      priorityName === undefined ? null : { value: priorityName, line: r.line(priority, kindLine) },
    containers: r.items(r.get(podSpec, "containers")).map((node) => container(r, node, kindLine)),
  };
}

function container(r: YamlReader, node: Node, fallback: number): ManifestContainer {
  const line = r.line(node, fallback);
  const resources = r.get(node, "resources");
  const requests = quantities(r, r.get(resources, "requests"), line);
  const limits = quantities(r, r.get(resources, "limits"), line);
  return {
    name: r.text(r.get(node, "name")) ?? "",
    line,
    resourcesLine: resources === undefined ? line : r.keyLine(node, "resources", line),
    requests,
    limits,
    gpu: [...Object.keys(requests), ...Object.keys(limits)].some((name) => GPU_RESOURCE.test(name)),
  };
}

function quantities(r: YamlReader, node: unknown, fallback: number): Record<string, Located<string>> {
  const out: Record<string, Located<string>> = {};
  for (const [name, value] of r.entries(node)) {
    const text = r.text(value);
    if (text !== undefined) out[name] = { value: text, line: r.line(value, fallback) };
  }
  return out;
}

/** Compose services as workloads: reservations are the requests, limits (or `mem_limit`, `cpus`) the limits. */
function composeServices(r: YamlReader, root: unknown): ManifestWorkload[] {
  const services = r.get(root, "services");
  return r.entries(services).map(([name, service]) => {
    const line = r.keyLine(services, name, r.keyLine(root, "services", 1));
    const deploy = r.get(service, "deploy");
    const resources = r.get(deploy, "resources");
    const requests = compose(r, r.get(resources, "reservations"), { memory: "memory", cpus: "cpu" }, line);
    const limits = compose(r, r.get(resources, "limits"), { memory: "memory", cpus: "cpu" }, line);
    Object.assign(requests, { ...compose(r, service, { mem_reservation: "memory" }, line), ...requests });
    Object.assign(limits, { ...compose(r, service, { mem_limit: "memory", cpus: "cpu" }, line), ...limits });
    const devices = r.items(r.at(resources, "reservations", "devices"));
    const gpu =
      r.get(service, "gpus") !== undefined ||
      r.text(r.get(service, "runtime")) === "nvidia" ||
      devices.some(
        (device) =>
          r.text(r.get(device, "driver")) === "nvidia" ||
          r.items(r.get(device, "capabilities")).some((cap) => r.text(cap) === "gpu"),
      );
    const container: ManifestContainer = {
      name,
      line,
      resourcesLine: resources === undefined ? line : r.keyLine(deploy, "resources", line),
      requests,
      limits,
      gpu,
    };
    return {
      kind: "service",
      name,
      line,
      namespace: null,
      namespaceLine: line,
      role: "compose",
      priorityClass: null,
      containers: [container],
    };
  });
}

function compose(
  r: YamlReader,
  node: unknown,
  names: Record<string, string>,
  fallback: number,
): Record<string, Located<string>> {
  const out: Record<string, Located<string>> = {};
  for (const [key, resource] of Object.entries(names)) {
    const value = r.get(node, key);
    const text = r.text(value);
    if (text !== undefined) out[resource] = { value: text, line: r.line(value, fallback) };
  }
  return out;
}
