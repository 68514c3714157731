/** What `gpu-warden lint` found in one resource file, where it points, and what to write instead. */
export type LintFinding =
  | { rule: "unparsable"; file: string; line: number; detail: string }
  | {
      rule: "missing-requests";
      file: string;
      line: number;
      workload: string;
      container: string;
      missing: string[];
    }
  | {
      rule: "missing-limits";
      file: string;
      line: number;
      workload: string;
      container: string;
      missing: string[];
    }
  | {
      rule: "cpu-over-request";
      file: string;
      line: number;
      workload: string;
      container: string;
      requestedCores: number;
      peakCores: number;
      suggestedCores: number;
    }
  | {
      rule: "gpu-memory-over-request";
      file: string;
      line: number;
      workload: string;
      container: string;
      requestedMiB: number;
      peakMiB: number;
      suggestedMiB: number;
    }
  | {
      rule: "namespace-without-defaults";
      file: string;
      line: number;
      namespace: string;
      cpuRequestCores: number;
      gpuMemoryMiB: number;
    }
  | {
      rule: "serving-priority";
      file: string;
      line: number;
      workload: string;
      /** The serving workload's priority class, `null` when it names none. */
      priorityClass: string | null;
      /** The highest priority among the experiments' classes, `null` when none is known. */
      experimentsPriority: number | null;
    }
  | {
      rule: "gpu-memory-cap-high";
      file: string;
      line: number;
      workload: string;
      container: string;
      capPct: number;
      maxPct: number;
    };

/** The names of the lint rules, for `--format json` and the catalog. */
export type LintRule = LintFinding["rule"];
