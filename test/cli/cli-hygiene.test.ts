import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ensureBuilt, runBuiltBin } from "../helpers/built-bin.ts";
import { runCliHere } from "../helpers/run-cli-here.ts";

const bin = ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), "gw-cli-hygiene-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const gpuWarden = (args: string[]) => runBuiltBin(bin, args, dir);
/** The same in this process (`runCli`), for what does not need the process boundary. */
const inProcess = (args: string[]) =>
  runCliHere(args, { cwd: dir, env: { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "silent" } });

describe("gpu-warden hygiene", () => {
  it("says which hosts it can reach, and exits 2 for one it cannot or when there is none", async () => {
    const simulated = join(dir, "simulated.yaml");
    writeFileSync(simulated, "sources:\n  - kind: simulated\n");
    const none = gpuWarden(["hygiene", "--config", simulated]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no host to check: hygiene reads the hosts of ssh and local sources/);

    const ssh = join(dir, "ssh.yaml");
    writeFileSync(ssh, "sources:\n  - kind: ssh\n    hosts: [gpu-a, gpu-b]\n");
    const unknown = await inProcess(["hygiene", "--host", "gpu-z", "--config", ssh]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no host gpu-z with ssh or local access; these have: gpu-a, gpu-b/);
  });

  it("--host goes with hygiene only", async () => {
    const misplaced = await inProcess(["collect", "--once", "--host", "gpu-a"]);
    assert.equal(misplaced.code, 2);
    assert.match(misplaced.stderr, /--host go with 'hygiene', not 'collect'/);
  });
});
