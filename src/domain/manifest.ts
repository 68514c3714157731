/**
 * Kubernetes manifests and Compose files as `gpu-warden lint` reads them: only what its rules need,
 * each with the 1-based line in the user's file it came from.
 */

/** A value read from a file with the line it is on. */
export interface Located<T> {
  value: T;
  line: number;
}

/** One container (or Compose service) and its resources; quantities as written. */
export interface ManifestContainer {
  name: string;
  line: number;
  /** The `resources:` (or `deploy.resources:`) line; the container's line when there is none. */
  resourcesLine: number;
  /** Requested quantities by resource name (`cpu`, `memory`, `nvidia.com/gpu`…), as written. */
  requests: Record<string, Located<string>>;
  limits: Record<string, Located<string>>;
  /** It asks for a GPU (a GPU resource, Compose GPU devices, `gpus:` or the nvidia runtime). */
  gpu: boolean;
}

/** `serving`: long-running (Deployment, StatefulSet, DaemonSet, ReplicaSet); `experiment`: Job, CronJob, Pod. */
export type WorkloadRole = "serving" | "experiment" | "compose";

export interface ManifestWorkload {
  kind: string;
  name: string;
  /** The line of `kind:` (or of the Compose service). */
  line: number;
  /** `metadata.namespace`; `default` when not written, `null` in a Compose file. */
  namespace: string | null;
  /** The line that names the namespace, or the metadata line when none is written. */
  namespaceLine: number;
  role: WorkloadRole;
  /** `priorityClassName` of the pod template, `null` when none. */
  priorityClass: Located<string> | null;
  containers: ManifestContainer[];
}

/** What one file holds: workloads, priority classes, the namespaces with defaults, and broken documents. */
export interface ManifestFile {
  /** The file as given on the command line (`-` for standard input). */
  file: string;
  workloads: ManifestWorkload[];
  /** PriorityClass name → value. */
  priorityClasses: Record<string, number>;
  /** Namespaces that have a ResourceQuota or a LimitRange with a default CPU request. */
  namespacesWithDefaults: string[];
  /** Documents that are not valid YAML, by the line where the problem is. */
  errors: Located<string>[];
}
