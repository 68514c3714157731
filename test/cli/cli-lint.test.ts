import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "../helpers/built-bin.ts";
import { runCliHere } from "../helpers/run-cli-here.ts";

const bin = ensureBuilt();
const repo = fileURLToPath(new URL("../..", import.meta.url));

/** Runs the real `gpu-warden lint` from the repository, as a CI step would. */
function lint(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [bin, "lint", ...args, "--config", "/dev/null"], {
    cwd: repo,
    encoding: "utf8",
    input,
    env: { PATH: "/usr/bin:/bin", LOG_LEVEL: "silent", TZ: "UTC" },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The same in this process (`runCli`), for what does not need the process boundary. */
function lintHere(args: string[], input?: string) {
  return runCliHere(["lint", ...args, "--config", "/dev/null"], {
    cwd: repo,
    env: { PATH: "/usr/bin:/bin", LOG_LEVEL: "silent" },
    ...(input === undefined ? {} : { stdin: input }),
  });
}

describe("gpu-warden lint", () => {
  it("prints each finding at its line and exits 1", () => {
    const run = lint(["test/fixtures/manifests/train-deployment.yaml"]);
    assert.equal(run.code, 1);
    assert.match(
      run.stdout,
      /^test\/fixtures\/manifests\/train-deployment\.yaml:24: ranker\/server uses a GPU without requests for cpu, memory: add them under resources\.requests \[missing-requests\]$/m,
    );
    assert.match(run.stdout, /^4 findings in 1 file$/m);
  });

  it("annotates for GitHub Actions with the file as given, and reads Helm output from standard input", () => {
    const run = lint(
      ["-", "--format", "github"],
      readFileSync(`${repo}/test/fixtures/manifests/jobs.yaml`, "utf8"),
    );
    assert.equal(run.code, 1);
    assert.deepEqual(run.stdout.trim().split("\n"), [
      "::error file=-,line=41,title=gpu-warden gpu-memory-cap-high::nightly-sft/trainer may take 90%25 of the card's memory: cap it at 70%25 or less", // GitHub shows %25 as %
      "::error file=-,line=64,title=gpu-warden serving-priority::serving workload embedder uses PriorityClass serving-low, not above the experiments' (1000): give it a higher one",
    ]);
  });

  it("JSON for machines; exit 2 on a broken document or a file it cannot read, 0 when all is well", async () => {
    const broken = await lintHere(["test/fixtures/manifests/broken.yaml", "--format", "json"]);
    assert.equal(broken.code, 2);
    const parsed = JSON.parse(broken.stdout) as { files: number; findings: { rule: string; line: number }[] };
    assert.deepEqual(parsed.findings[0], {
      ...parsed.findings[0],
      rule: "unparsable",
      line: 23,
    });
    const missing = await lintHere(["no-such.yaml"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no-such\.yaml: cannot read it \(ENOENT\)/);
    const clean = await lintHere(
      ["-"],
      "apiVersion: v1\nkind: Pod\nmetadata: {name: cpu-only}\nspec:\n  containers: [{name: a, image: busybox}]\n",
    );
    assert.equal(clean.code, 0);
    assert.equal(clean.stdout, "no findings in 1 file\n");
  });
});
