import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import fc from "fast-check";
import { stringify } from "yaml";
import { lintManifests } from "../../src/checks/lint-manifests.ts";
import type { ContainerGroupUsage } from "../../src/checks/rightsizing.ts";
import { configSchema } from "../../src/config/schema.ts";
import { lintPolicy } from "../../src/main/lint-once.ts";
import { parseManifests } from "../../src/sources/parse-manifests.ts";

const policy = lintPolicy(configSchema.parse({}));

function fixture(name: string) {
  const path = `test/fixtures/manifests/${name}`;
  return parseManifests(
    path,
    readFileSync(new URL(`../fixtures/manifests/${name}`, import.meta.url), "utf8"),
  );
}

/** Each finding as `line rule`, the way a reviewer reads them. */
function found(names: string[], usage: ContainerGroupUsage[] = []): string[] {
  return lintManifests(names.map(fixture), usage, policy).map(
    (f) => `${f.file.split("/").pop()}:${f.line} ${f.rule}`,
  );
}

function usage(
  partial: Partial<ContainerGroupUsage> & { namespace: string; workload: string; container: string },
) {
  return {
    group: `${partial.namespace}/${partial.workload}/${partial.container}`,
    pods: 1,
    cpuRequestCores: null,
    cpuPeakCores: null,
    cpuMeanCores: null,
    gpuRequest: null,
    gpuMemMaxMiB: null,
    gpuMemTotalMiB: null,
    ...partial,
  };
}

describe("lint on a corpus of manifests", () => {
  it("a Deployment without requests or limits: each missing part, its namespace and its priority, at their lines", () => {
    assert.deepEqual(found(["train-deployment.yaml"]), [
      "train-deployment.yaml:3 serving-priority",
      "train-deployment.yaml:6 namespace-without-defaults",
      "train-deployment.yaml:24 missing-requests",
      "train-deployment.yaml:24 missing-limits",
    ]);
  });

  it("a multi-document file with comments: the CronJob's 90 % cap and a serving class below the experiments'", () => {
    const findings = lintManifests([fixture("jobs.yaml")], [], policy);
    assert.deepEqual(
      findings.map((f) => `${f.line} ${f.rule}`),
      ["41 gpu-memory-cap-high", "64 serving-priority"],
    );
    assert.deepEqual(findings[1], {
      rule: "serving-priority",
      file: "test/fixtures/manifests/jobs.yaml",
      line: 64,
      workload: "embedder",
      priorityClass: "serving-low",
      experimentsPriority: 1000,
    });
  });

  it("a LimitRange in another file covers the namespace; anchors are read through", () => {
    assert.deepEqual(found(["anchors.yaml"]), ["anchors.yaml:9 namespace-without-defaults"]);
    assert.deepEqual(found(["anchors.yaml", "jobs.yaml"]), [
      "jobs.yaml:41 gpu-memory-cap-high",
      "jobs.yaml:64 serving-priority",
    ]);
  });

  it("a broken document is reported at its line and the documents after it are still checked", () => {
    assert.deepEqual(found(["broken.yaml"]), [
      "broken.yaml:23 unparsable",
      "broken.yaml:30 namespace-without-defaults",
      "broken.yaml:35 missing-requests",
      "broken.yaml:35 missing-limits",
    ]);
  });

  it("Compose: GPU devices from a merged anchor without reservations; a service with them passes", () => {
    const findings = lintManifests([fixture("compose.yaml")], [], policy);
    assert.deepEqual(
      findings.map((f) => [f.line, f.rule, "container" in f ? f.container : ""]),
      [
        [4, "missing-requests", "vllm"],
        [4, "missing-limits", "vllm"],
      ],
    );
  });

  it("requests above 1.2 × the CPU peak and 1.3 × the GPU memory peak are flagged with the suggested value", () => {
    const observed = [
      usage({
        namespace: "research",
        workload: "eval-a",
        container: "eval",
        cpuPeakCores: 1.5,
        gpuMemMaxMiB: 9000,
      }),
      usage({
        namespace: "research",
        workload: "nightly-sft-29001234",
        container: "trainer",
        cpuPeakCores: 7.9,
        gpuMemMaxMiB: 30000,
        gpuMemTotalMiB: 81559,
      }),
    ];
    const findings = lintManifests([fixture("anchors.yaml"), fixture("jobs.yaml")], observed, policy);
    const cpu = findings.find((f) => f.rule === "cpu-over-request");
    assert.deepEqual(cpu, {
      rule: "cpu-over-request",
      file: "test/fixtures/manifests/anchors.yaml",
      line: 19,
      workload: "eval-a",
      container: "eval",
      requestedCores: 4,
      peakCores: 1.5,
      suggestedCores: 1.8,
    });
    const mem = findings.filter((f) => f.rule === "gpu-memory-over-request");
    assert.deepEqual(
      mem.map((f) => [f.file.split("/").pop(), f.line, f.requestedMiB, f.suggestedMiB]),
      [
        ["anchors.yaml", 21, 20000, 11700],
        ["jobs.yaml", 37, 2 * 81559, 39000],
      ],
    );
    assert.ok(
      !findings.some((f) => f.rule === "cpu-over-request" && f.workload === "nightly-sft"),
      "7.9 × 1.2 ≥ 8",
    );
  });

  it("never throws on arbitrary YAML, and every finding points at a line of the file", () => {
    const arbitrary = fc.oneof(
      fc.string(),
      fc.jsonValue().map((value) => stringify(value)),
      fc
        .record({
          kind: fc.constantFrom("Pod", "Deployment", "CronJob", "List", "LimitRange"),
          spec: fc.jsonValue(),
        })
        .map((doc) => stringify(doc)),
      fc
        .array(
          fc.constantFrom(
            "a: &x {b: 1}\n",
            "c: *x\n",
            "<<: *x\n",
            "---\n",
            "kind: Job\n",
            "spec:\n  template: [\n",
            "services:\n  s: {gpus: all}\n",
          ),
        )
        .map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(arbitrary, (text) => {
        const findings = lintManifests([parseManifests("f.yaml", text)], [], policy);
        const lines = text.split("\n").length;
        for (const f of findings) assert.ok(f.line >= 1 && f.line <= lines, `${f.rule} at ${f.line}`);
      }),
      { numRuns: 400 },
    );
  });
});
