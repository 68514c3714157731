import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { parse, parseAllDocuments } from "yaml";
import { parseConfig, readEnv } from "../../src/config/load-config.ts";
import { REPO_ROOT } from "../helpers/built-bin.ts";
import { startConsoleBot } from "../helpers/console-bot.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-deploy-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const read = (path: string) => readFileSync(join(REPO_ROOT, path), "utf8");
const has = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;

function run(command: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(command, args, {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

const packageJson = JSON.parse(read("package.json")) as { version: string; scripts: Record<string, string> };

describe("deploy/gpu-warden.service", () => {
  const unit = read("deploy/gpu-warden.service");
  const skip = has("systemd-analyze")
    ? false
    : "systemd-analyze is not installed (scripts/install-test-deps.sh installs Debian's systemd)";

  test("passes systemd-analyze verify without a warning", { skip }, () => {
    const result = run("systemd-analyze", ["verify", join(REPO_ROOT, "deploy", "gpu-warden.service")]);
    assert.equal(result.code, 0, result.out);
    assert.equal(result.out, "");
  });

  test("is hardened: systemd-analyze security rates its exposure 2.5 or lower", { skip }, () => {
    const result = run("systemd-analyze", [
      "security",
      "--offline=yes",
      "--no-pager",
      join(REPO_ROOT, "deploy", "gpu-warden.service"),
    ]);
    const level = /Overall exposure level for gpu-warden\.service: ([\d.]+)/.exec(result.out);
    assert.ok(level, result.out);
    assert.ok(Number(level[1]) <= 2.5, `exposure ${level[1]}`);
  });

  test("runs as its own user with a state directory, an environment file and restarts on failure", () => {
    const settings = new Map(
      unit
        .split("\n")
        .filter((line) => /^[A-Za-z]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const),
    );
    assert.equal(settings.get("User"), "gpu-warden");
    assert.equal(settings.get("StateDirectory"), "gpu-warden");
    assert.equal(settings.get("WorkingDirectory"), "/var/lib/gpu-warden");
    assert.equal(settings.get("EnvironmentFile"), "/etc/gpu-warden/env");
    assert.equal(settings.get("ProtectSystem"), "strict");
    assert.equal(settings.get("NoNewPrivileges"), "yes");
    assert.equal(settings.get("Restart"), "on-failure");
    assert.equal(
      settings.get("ExecStart"),
      "/usr/bin/env gpu-warden start --config /etc/gpu-warden/gpu-warden.yaml",
    );
  });
});

/** Each alert's annotations with its templates filled in by `values`. */
function annotationsByAlert(
  file: string,
  values: Record<string, string>,
): Map<string, Record<string, string>> {
  const { groups } = parse(readFileSync(file, "utf8")) as {
    groups: { rules: { alert: string; annotations: Record<string, string> }[] }[];
  };
  const fill = (text: string) =>
    Object.entries(values).reduce((out, [from, to]) => out.replaceAll(from, to), text);
  return new Map(
    groups
      .flatMap((group) => group.rules)
      .map((rule) => [
        rule.alert,
        Object.fromEntries(Object.entries(rule.annotations).map(([key, text]) => [key, fill(text)])),
      ]),
  );
}

describe("deploy/prometheus-alerts.yml", () => {
  const skip = has("promtool")
    ? false
    : "promtool is not installed (scripts/install-test-deps.sh installs it)";
  const rules = join(REPO_ROOT, "deploy", "prometheus-alerts.yml");

  test("passes promtool check rules", { skip }, () => {
    const result = run("promtool", ["check", "rules", rules]);
    assert.equal(result.code, 0, result.out);
    assert.match(result.out, /SUCCESS: 5 rules found/);
  });

  test("fires for a bot that is down, not polling, failing to read its hosts or holding messages", {
    skip,
  }, () => {
    const labels = 'job="gpu-warden", instance="bot:3000"';
    const cases = {
      rule_files: [rules],
      evaluation_interval: "1m",
      tests: [
        {
          interval: "1m",
          input_series: [
            { series: `up{${labels}}`, values: "1x10 0x20" },
            {
              series: `gpu_warden_poll_duration_seconds_count{${labels}, result="ok"}`,
              values: "0+1x10 10x30",
            },
            { series: `gpu_warden_hosts{${labels}, state="ok"}`, values: "10x10 2x30" },
            { series: `gpu_warden_hosts{${labels}, state="unknown"}`, values: "0x10 8x30" },
            { series: `gpu_warden_poll_slow_cycles_total{${labels}}`, values: "0x20 1 2 3 4 5 5x15" },
            { series: `gpu_warden_outbox_pending{${labels}}`, values: "0 3 0 2 0x7 4x30" },
          ],
          alert_rule_test: [
            { eval_time: "10m", alertname: "GpuWardenDown", exp_alerts: [] },
            {
              eval_time: "17m",
              alertname: "GpuWardenDown",
              exp_alerts: [{ exp_labels: { severity: "critical", job: "gpu-warden", instance: "bot:3000" } }],
            },
            { eval_time: "20m", alertname: "GpuWardenNotPolling", exp_alerts: [] },
            {
              eval_time: "32m",
              alertname: "GpuWardenNotPolling",
              exp_alerts: [
                {
                  exp_labels: { severity: "critical", job: "gpu-warden", instance: "bot:3000", result: "ok" },
                },
              ],
            },
            { eval_time: "20m", alertname: "GpuWardenPollsFailing", exp_alerts: [] },
            {
              eval_time: "27m",
              alertname: "GpuWardenPollsFailing",
              exp_alerts: [{ exp_labels: { severity: "warning", job: "gpu-warden", instance: "bot:3000" } }],
            },
            { eval_time: "20m", alertname: "GpuWardenOutboxBacklog", exp_alerts: [] },
            {
              eval_time: "28m",
              alertname: "GpuWardenOutboxBacklog",
              exp_alerts: [{ exp_labels: { severity: "warning", job: "gpu-warden", instance: "bot:3000" } }],
            },
            { eval_time: "20m", alertname: "GpuWardenPollsSlow", exp_alerts: [] },
            {
              eval_time: "27m",
              alertname: "GpuWardenPollsSlow",
              exp_alerts: [{ exp_labels: { severity: "warning", job: "gpu-warden", instance: "bot:3000" } }],
            },
          ],
        },
      ],
    };
    const annotations = annotationsByAlert(rules, {
      "{{ $value | humanizePercentage }}": "80%",
      "{{ $value }}": "4",
    });
    for (const check of cases.tests[0]!.alert_rule_test) {
      for (const alert of check.exp_alerts as { exp_annotations?: Record<string, string> }[]) {
        alert.exp_annotations = annotations.get(check.alertname)!;
      }
    }
    const file = join(dir, "alerts.test.json");
    writeFileSync(file, JSON.stringify(cases));
    const result = run("promtool", ["test", "rules", file]);
    assert.equal(result.code, 0, result.out);
    assert.match(result.out, /SUCCESS/);
  });
});

/** A Dockerfile's instructions, continuation lines joined, comments dropped. */
function dockerInstructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [op = "", ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(" ") };
    });
}

interface Stage {
  name: string | null;
  instructions: { op: string; args: string }[];
}

function dockerStages(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of dockerInstructions(text)) {
    if (instruction.op === "FROM") {
      stages.push({ name: /\sAS\s+(\S+)$/i.exec(instruction.args)?.[1] ?? null, instructions: [] });
    } else stages.at(-1)?.instructions.push(instruction);
  }
  return stages;
}

const args = (stage: Stage, op: string) => stage.instructions.filter((i) => i.op === op).map((i) => i.args);

describe("Dockerfile (no Docker engine here: checked against the repository and run in parts)", () => {
  const stages = dockerStages(read("Dockerfile"));
  const final = stages.at(-1)!;
  const ignored = read(".dockerignore").split("\n").filter(Boolean);

  test("is multi-stage and the image runs as a non-root user with the store on a volume", () => {
    assert.deepEqual(
      stages.map((stage) => stage.name),
      ["build", "deps", null],
    );
    const user = args(final, "USER").at(-1);
    assert.ok(user && !["root", "0"].includes(user), `USER ${user}`);
    assert.deepEqual(args(final, "VOLUME"), ['["/var/lib/gpu-warden"]']);
    assert.equal(args(final, "WORKDIR").at(-1), "/var/lib/gpu-warden");
    assert.doesNotMatch(args(final, "RUN").join("\n"), /g\+\+|make|python3/, "no compilers in the image");
  });

  test("copies only files that exist and that .dockerignore lets through", () => {
    for (const stage of stages) {
      for (const copy of args(stage, "COPY").filter((line) => !line.startsWith("--from="))) {
        const sources = copy.split(/\s+/).slice(0, -1);
        for (const source of sources) {
          assert.ok(existsSync(join(REPO_ROOT, source)), `COPY ${source}: not in the repository`);
          const top = source.split("/")[0]!;
          assert.ok(!ignored.includes(top), `COPY ${source}: excluded by .dockerignore`);
        }
      }
    }
  });

  test("its build stage, replayed in an empty folder with only what it copies, builds a dist/ that runs", () => {
    const build = stages.find((stage) => stage.name === "build")!;
    const stageRoot = join(dir, "build-stage");
    let workdir = stageRoot;
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
    for (const { op, args: line } of build.instructions) {
      if (op === "WORKDIR") {
        workdir = join(stageRoot, line);
        mkdirSync(workdir, { recursive: true });
      } else if (op === "COPY") {
        const parts = line.split(/\s+/);
        const target = join(workdir, parts.at(-1)!);
        for (const source of parts.slice(0, -1)) {
          const into =
            parts.at(-1)!.endsWith("/") || parts.length > 2
              ? join(target, source.split("/").at(-1)!)
              : target;
          mkdirSync(dirname(into), { recursive: true });
          cpSync(join(REPO_ROOT, source), into, { recursive: true });
        }
      } else if (op === "RUN") {
        // NOTE: `npm ci` runs as a dry run (it still refuses a lock file out of step with package.json,
        // 1 s of CPU), and the tree it would extract from that lock file, the checkout's own
        // node_modules, is linked in: extracting the 225 MB again cost 8 s of CPU and 11 s.
        // `npm run build` emits without type-checking (`--no-check`, as `npm test` builds): the type check of
        // the same sources with the same compiler options is `npm test`'s `tsc --noEmit`; here it cost 4.3 s of CPU.
        const dryRun = line
          .replace(/^npm ci\b/, "npm ci --dry-run --prefer-offline")
          .replace(/^npm run build$/, "npm run build -- --no-check");
        if (/^npm ci\b/.test(line))
          symlinkSync(join(REPO_ROOT, "node_modules"), join(workdir, "node_modules"), "dir");
        const result = spawnSync("sh", ["-c", dryRun], {
          cwd: workdir,
          env,
          encoding: "utf8",
          timeout: 300_000,
        });
        assert.equal(result.status, 0, `RUN ${line}\n${result.stdout}${result.stderr}`);
      }
    }
    assert.ok(existsSync(join(stageRoot, "src", "dist", "cli.js")), "dist/cli.js");
    assert.ok(existsSync(join(stageRoot, "src", "dist", "main.js")), "dist/main.js");
    const files = (root: string) => readdirSync(root, { recursive: true, encoding: "utf8" });
    const assets = files(join(REPO_ROOT, "src")).filter(
      (path) => !path.endsWith(".ts") && statSync(join(REPO_ROOT, "src", path)).isFile(),
    );
    const built = new Set(files(join(stageRoot, "src", "dist")));
    assert.deepEqual(
      assets.filter((path) => !built.has(path)),
      [],
      "every file of src/ that is not TypeScript (the page's scripts) copied",
    );
    // The bundle's entry points with every chunk they import, from the stage's own files.
    const loaded = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'await import("./dist/main.js"); const { runCli } = await import("./dist/cli.js"); process.exitCode = await runCli(["--version"]);',
      ],
      { cwd: join(stageRoot, "src"), encoding: "utf8", env: { PATH: "/usr/bin:/bin", LOG_LEVEL: "silent" } },
    );
    assert.equal(loaded.status, 0, loaded.stderr);
    assert.equal(loaded.stdout, `${packageJson.version}\n`);
  });

  test("copies from earlier stages what they made, and runs only package.json scripts", () => {
    const names = stages.map((stage) => stage.name);
    for (const [index, stage] of stages.entries()) {
      for (const copy of args(stage, "COPY").filter((line) => line.startsWith("--from="))) {
        const from = /^--from=(\S+)/.exec(copy)![1]!;
        assert.ok(names.slice(0, index).includes(from), `COPY --from=${from}: no earlier stage`);
      }
      for (const script of args(stage, "RUN").flatMap((line) => [...line.matchAll(/npm run (\S+)/g)])) {
        assert.ok(packageJson.scripts[script[1]!], `npm run ${script[1]}: not in package.json`);
      }
    }
    const build = stages.find((stage) => stage.name === "build")!;
    assert.ok(args(build, "RUN").includes("npm run build"));
    const buildConfig = parse(read("tsconfig.build.json")) as { compilerOptions: { outDir: string } };
    assert.equal(buildConfig.compilerOptions.outDir, "dist");
    assert.ok(args(final, "COPY").includes("--from=build /src/dist dist"));
    assert.ok(args(final, "COPY").includes("--from=deps /app/node_modules node_modules"));
    assert.match(args(stages[1]!, "RUN").join("\n"), /npm ci --omit=dev/);
  });

  test("its entrypoint starts the compiled bot, and its HEALTHCHECK passes on a live /healthz and fails without one", async () => {
    const entrypoint = JSON.parse(args(final, "ENTRYPOINT")[0]!) as string[];
    assert.equal(entrypoint[0], "node");
    assert.equal(entrypoint.at(-1), "/app/bin/gpu-warden.js");
    const nodeFlags = entrypoint.slice(1, -1);
    const version = run(process.execPath, [
      ...nodeFlags,
      join(REPO_ROOT, "bin", "gpu-warden.js"),
      "--version",
    ]);
    assert.equal(version.code, 0, version.out);

    const healthcheck = args(final, "HEALTHCHECK")[0]!;
    assert.match(healthcheck, /\/healthz/);
    const command = JSON.parse(healthcheck.slice(healthcheck.indexOf("CMD ") + 4)) as string[];
    assert.equal(command[0], "node");
    // NOTE: spawned asynchronously: the bot answering /healthz runs in this process.
    const probe = async (port: number) => {
      const child = spawn(process.execPath, command.slice(1), {
        env: { ...process.env, PORT: String(port) },
      });
      const [code] = (await once(child, "exit")) as [number | null];
      return code;
    };

    const bot = await startConsoleBot(
      parseConfig({
        http: { port: 0 },
        store: { path: join(dir, "health.db") },
        poll: { interval_seconds: 3600 },
        sources: [{ kind: "simulated", hosts: 2, seed: 1 }],
      }),
    );
    const port = Number(new URL(bot.httpUrl).port);
    try {
      assert.equal(await probe(port), 0);
    } finally {
      await bot.stop();
    }
    assert.equal(await probe(port), 1);
  });
});

describe("deploy/kubernetes.yaml", () => {
  type Doc = { kind: string; metadata: { name: string }; [key: string]: unknown };
  const docs = parseAllDocuments(read("deploy/kubernetes.yaml")).map((doc) => doc.toJS() as Doc);
  const byKind = (kind: string) => {
    const found = docs.filter((doc) => doc.kind === kind);
    assert.equal(found.length, 1, `one ${kind}`);
    return found[0] as never;
  };
  type Container = {
    args: string[];
    envFrom: { secretRef: { name: string } }[];
    ports: { name: string; containerPort: number }[];
    readinessProbe: { httpGet: { path: string; port: string } };
    livenessProbe: { httpGet: { path: string; port: string } };
    securityContext: { allowPrivilegeEscalation: boolean };
    volumeMounts: { name: string; mountPath: string }[];
  };
  const deployment = byKind("Deployment") as {
    spec: {
      replicas: number;
      strategy: { type: string };
      template: {
        spec: {
          securityContext: { runAsNonRoot: boolean; runAsUser: number };
          containers: Container[];
          volumes: {
            name: string;
            persistentVolumeClaim?: { claimName: string };
            configMap?: { name: string };
          }[];
        };
      };
    };
  };
  const pod = deployment.spec.template.spec;
  const [container] = pod.containers;
  const mountOf = (volume: string) =>
    container!.volumeMounts.find((mount) => mount.name === volume)!.mountPath;

  test("runs one replica, replaced with Recreate (one process owns the store)", () => {
    assert.equal(docs.length, 5);
    assert.equal(deployment.spec.replicas, 1);
    assert.equal(deployment.spec.strategy.type, "Recreate");
    assert.equal(pod.containers.length, 1);
  });

  test("keeps the store on the PersistentVolumeClaim and takes the tokens from the Secret", () => {
    const claim = byKind("PersistentVolumeClaim") as {
      metadata: { name: string };
      spec: { accessModes: string[] };
    };
    assert.deepEqual(claim.spec.accessModes, ["ReadWriteOnce"]);
    const store = pod.volumes.find((volume) => volume.persistentVolumeClaim)!;
    assert.equal(store.persistentVolumeClaim!.claimName, claim.metadata.name);
    const secret = byKind("Secret") as { metadata: { name: string }; stringData: Record<string, string> };
    assert.deepEqual(
      container!.envFrom.map((from) => from.secretRef.name),
      [secret.metadata.name],
    );
    const read = readEnv(secret.stringData);
    assert.notEqual(read.slackBotToken, null);
    assert.notEqual(read.slackAppToken, null);

    const configMap = byKind("ConfigMap") as { metadata: { name: string }; data: Record<string, string> };
    const configVolume = pod.volumes.find((volume) => volume.configMap)!;
    assert.equal(configVolume.configMap!.name, configMap.metadata.name);
    const configFile = container!.args[container!.args.indexOf("--config") + 1]!;
    assert.equal(configFile, `${mountOf(configVolume.name)}/gpu-warden.yaml`);
    const config = parseConfig(parse(configMap.data["gpu-warden.yaml"]!));
    assert.ok(config.store.path.startsWith(`${mountOf(store.name)}/`), config.store.path);
    assert.equal(config.http.host, "0.0.0.0");
    assert.equal(container!.ports[0]!.containerPort, config.http.port);
  });

  test("probes /healthz, runs as the image's non-root user and starts the bot", () => {
    for (const probe of [container!.readinessProbe, container!.livenessProbe]) {
      assert.deepEqual(probe.httpGet, { path: "/healthz", port: container!.ports[0]!.name });
    }
    assert.equal(pod.securityContext.runAsNonRoot, true);
    const uid = /--uid (\d+)/.exec(read("Dockerfile"))![1];
    assert.equal(pod.securityContext.runAsUser, Number(uid));
    assert.equal(container!.securityContext.allowPrivilegeEscalation, false);
    assert.equal(container!.args[0], "start");
  });
});
