/** The workload seen on one GPU in one clock hour: its namespace, `project` label, process owner. */
export interface WorkloadHour {
  hourMs: number;
  host: string;
  gpuIndex: number;
  namespace: string | null;
  label: string | null;
  login: string | null;
}
