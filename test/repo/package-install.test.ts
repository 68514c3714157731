import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ensureBuilt, REPO_ROOT } from "../helpers/built-bin.ts";
import { fixturePath } from "../helpers/fixtures.ts";
import { nvidiaSmiScript, writeScript } from "../helpers/stand-in-commands.ts";

const CAPTURE = "nvidia-smi/utkuozdemir-captures/linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__load";
const version = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string })
  .version;

let dir: string;
let tarball: string;
let packed: string[];
let app: string;

/**
 * The environment without the `npm_*` settings an outer `npm test` exports (its `local_prefix` is
 * the checkout): the install must happen where a user's would, in the empty folder.
 */
function withoutNpmSettings(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !/^npm_/i.test(entry[0]),
    ),
  );
}

function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }) {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    encoding: "utf8",
    env: { ...withoutNpmSettings(process.env), ...options.env },
    timeout: 540_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, error: result.error };
}

/**
 * better-sqlite3's install script (prebuild-install) first looks in a local prebuilds folder, then
 * downloads the prebuilt binary from GitHub, then compiles. Offline, the binary built for this
 * checkout stands in for the download, so the test neither needs GitHub nor spends minutes compiling.
 */
function localPrebuilds(): string {
  const module = join(REPO_ROOT, "node_modules", "better-sqlite3");
  const pkg = JSON.parse(readFileSync(join(module, "package.json"), "utf8")) as { version: string };
  const folder = join(dir, "prebuilds");
  mkdirSync(folder);
  const name = `better-sqlite3-v${pkg.version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const tar = run("tar", ["-czf", join(folder, name), "build/Release/better_sqlite3.node"], { cwd: module });
  assert.equal(tar.code, 0, tar.stderr);
  return folder;
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), "gw-package-"));
  ensureBuilt();
  // NOTE: --ignore-scripts: `prepack` would rebuild dist/ under tests that are running the bin.
  const pack = run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
    cwd: REPO_ROOT,
  });
  assert.equal(pack.code, 0, pack.stderr);
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(dir, info!.filename);
  packed = info!.files.map((file) => file.path).sort();
  app = join(dir, "app");
  mkdirSync(app);
  const install = run(
    "npm",
    ["install", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", tarball],
    { cwd: app, env: { npm_config_better_sqlite3_local_prebuilds: localPrebuilds() } },
  );
  assert.equal(install.code, 0, `${install.stdout}${install.stderr}${install.error ?? ""}`);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The installed command, run from the app folder with only system folders and a stand-in nvidia-smi on the PATH. */
function gpuWarden(args: string[], binDir: string | null = null) {
  const path = [binDir, dirname(process.execPath), "/usr/bin", "/bin"].filter(Boolean).join(":");
  return run(join(app, "node_modules", ".bin", "gpu-warden"), args, {
    cwd: app,
    env: { PATH: path, HOME: dir, LOG_LEVEL: "silent", TZ: "UTC" },
  });
}

describe("the npm package", () => {
  test("holds the compiled bot, the launcher, the manifest, an example config, the README and the licence", () => {
    const outside = packed.filter((path) => !path.startsWith("dist/"));
    assert.deepEqual(outside, [
      "LICENSE",
      "README.md",
      "bin/gpu-warden.js",
      "gpu-warden.example.yaml",
      "manifest.yml",
      "package.json",
    ]);
    assert.ok(packed.includes("dist/cli.js"));
    assert.ok(packed.includes("dist/main.js"));
    assert.deepEqual(
      packed.filter((path) => path.endsWith(".ts") || /(^|\/)(test|fixtures|bench)\//.test(path)),
      [],
    );
  });

  test("installs from the tarball with no dev tools", () => {
    const modules = join(app, "node_modules");
    assert.ok(existsSync(join(modules, "gpu-warden", "dist", "cli.js")));
    assert.ok(existsSync(join(modules, "better-sqlite3", "build", "Release", "better_sqlite3.node")));
    for (const devTool of ["tsx", "typescript", "@biomejs", "fast-check", "playwright-core"]) {
      assert.equal(existsSync(join(modules, devTool)), false, `${devTool} is not installed`);
    }
  });

  test("gpu-warden --version prints the package version", () => {
    const result = gpuWarden(["--version"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `${version}\n`);
  });

  test("gpu-warden check-config accepts the example configuration", () => {
    const example = join(app, "node_modules", "gpu-warden", "gpu-warden.example.yaml");
    const result = gpuWarden(["check-config", "--config", example]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^configuration OK: .*gpu-warden\.example\.yaml\n/);
    assert.match(result.stdout, /ssh to 2 host\(s\): gpu-a, gpu-b/);
  });

  test("gpu-warden collect --once reads the GPUs through the nvidia-smi on the PATH", () => {
    const binDir = join(dir, "bin");
    mkdirSync(binDir);
    writeScript(
      binDir,
      "nvidia-smi",
      nvidiaSmiScript({
        gpus: fixturePath(`${CAPTURE}__query-gpu.csv`),
        apps: fixturePath(`${CAPTURE}__query-compute-apps.csv`),
        log: join(dir, "nvidia-smi.log"),
      }),
    );
    const result = gpuWarden(["collect", "--once", "--json"], binDir);
    assert.equal(result.code, 0, result.stderr);
    const hosts = JSON.parse(result.stdout) as {
      source: string;
      ok: boolean;
      gpus: { model: string; utilPct: number }[];
    }[];
    assert.deepEqual(
      hosts.map((host) => [host.source, host.ok, host.gpus.map((gpu) => [gpu.model, gpu.utilPct])]),
      [["local", true, [["NVIDIA H100 80GB HBM3", 100]]]],
    );
  });
});
