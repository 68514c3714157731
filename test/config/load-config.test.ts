import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { describeConfigError } from "../../src/config/describe-config.ts";
import { ConfigError, loadConfig, readEnv } from "../../src/config/load-config.ts";
import { engineRawRetentionDays, rawRetentionDays } from "../../src/config/raw-retention.ts";
import { configSchema } from "../../src/config/schema.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-config-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function problemsOf(text: string) {
  const file = write(`c${Math.random().toString(36).slice(2)}.yaml`, text);
  try {
    loadConfig({}, { file, cwd: dir });
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail("expected the configuration to be rejected");
}

describe("loadConfig", () => {
  it("uses the embedded defaults when there is no file", () => {
    const empty = mkdtempSync(join(dir, "empty-"));
    const { config, file } = loadConfig({}, { cwd: empty });
    assert.equal(file, null);
    assert.equal(config.poll.interval_seconds, 60);
    assert.equal(config.policy.idle_util_pct, 10);
    assert.equal(config.policy.idle_for_minutes, 30);
    assert.equal(config.policy.protect_minutes, 120);
    assert.equal(rawRetentionDays(config), 8);
    assert.deepEqual(config.sources, []);
  });

  it("keeps a local or SSH host's raw samples 8 days, an engine host's only for the restart window (3 h), or as set", () => {
    const prom = { kind: "prometheus", url: "http://127.0.0.1:9090" };
    const days = (raw: Record<string, unknown>) => {
      const config = configSchema.parse(raw);
      return [rawRetentionDays(config), engineRawRetentionDays(config)];
    };
    assert.deepEqual(days({ sources: [prom, { ...prom, url: "http://127.0.0.1:8428" }] }), [8, 3 / 24]);
    assert.deepEqual(days({ sources: [prom, { kind: "ssh", hosts: ["gpu-a"] }] }), [8, 3 / 24]);
    assert.deepEqual(days({ sources: [prom], store: { raw_retention_days: 14 } }), [14, 14]);
  });

  it("reads gpu-warden.yaml from the working folder and fills defaults inside sources", () => {
    const cwd = mkdtempSync(join(dir, "cwd-"));
    writeFileSync(
      join(cwd, "gpu-warden.yaml"),
      [
        "team: { timezone: Europe/Berlin }",
        "slack: { channel: '#ml-gpus', admins: [U024BE7LH] }",
        "sources:",
        "  - kind: ssh",
        "    hosts: [gpu-a, { name: gpu-b, target: ops@10.0.0.5 }]",
        "  - kind: prometheus",
        "    url: http://prom:9090",
        "    host_label: node",
        "hosts:",
        "  gpu-a: { owners: [U0G9QF9C6], never_stop: true }",
      ].join("\n"),
    );
    const { config, file } = loadConfig({}, { cwd });
    assert.equal(file, join(cwd, "gpu-warden.yaml"));
    assert.equal(config.team.timezone, "Europe/Berlin");
    assert.equal(config.slack.channel, "#ml-gpus");
    const [ssh, prom] = config.sources;
    assert.equal(ssh?.kind, "ssh");
    assert.equal(ssh?.kind === "ssh" && ssh.concurrency, 16);
    assert.equal(ssh?.kind === "ssh" && ssh.connect_timeout_seconds, 5);
    assert.equal(prom?.kind === "prometheus" && prom.host_label, "node");
    assert.equal(prom?.kind === "prometheus" && prom.stale_after_seconds, 300);
    assert.deepEqual(config.hosts["gpu-a"]?.owners, ["U0G9QF9C6"]);
    assert.equal(config.hosts["gpu-a"]?.never_stop, true);
    assert.equal(config.hosts["gpu-a"]?.stop, undefined);
  });

  it("rejects an unknown key and suggests the right one", () => {
    const error = problemsOf("policy:\n  idle_for_minuts: 45\n");
    assert.equal(error.problems.length, 1);
    assert.equal(error.problems[0]?.path, "policy");
    assert.match(error.problems[0]?.found ?? "", /unknown key\(s\) 'idle_for_minuts'/);
    assert.equal(error.problems[0]?.hint, "'idle_for_minuts' → did you mean 'idle_for_minutes'?");
  });

  it("rejects an unknown key inside a source, naming the source's keys", () => {
    const error = problemsOf("sources:\n  - kind: prometheus\n    url: http://p:9090\n    hostlabel: node\n");
    assert.equal(error.problems[0]?.path, "sources.0");
    assert.equal(error.problems[0]?.hint, "'hostlabel' → did you mean 'host_label'?");
  });

  it("lists every problem with path, expectation, finding and hint", () => {
    const error = problemsOf(
      [
        "team: { timezone: Mars/Olympus }",
        "poll: { interval_seconds: 45 }",
        "slack: { admins: ['@alice'] }",
        "sources:",
        "  - kind: prometheus",
        "    url: not a url",
        "  - kind: nvml",
      ].join("\n"),
    );
    const byPath = new Map(error.problems.map((p) => [p.path, p]));
    assert.deepEqual([...byPath.keys()].sort(), [
      "poll.interval_seconds",
      "slack.admins.0",
      "sources.0.url",
      "sources.1.kind",
      "team.timezone",
    ]);
    assert.equal(byPath.get("team.timezone")?.found, 'string "Mars/Olympus"');
    assert.match(byPath.get("team.timezone")?.hint ?? "", /IANA/);
    assert.match(byPath.get("poll.interval_seconds")?.expected ?? "", /divides a minute or an hour/);
    assert.equal(byPath.get("slack.admins.0")?.found, 'string "@alice"');
    assert.match(byPath.get("slack.admins.0")?.hint ?? "", /Slack user ids/);
    assert.match(byPath.get("sources.0.url")?.hint ?? "", /http:\/\/prometheus:9090/);
    assert.match(byPath.get("sources.1.kind")?.expected ?? "", /"local", "ssh", "prometheus", "simulated"/);
    const text = describeConfigError(error);
    assert.match(text, /: 5 problems\n/);
    assert.match(
      text,
      / {2}at sources\.0\.url\n {4}expected: .*\n {4}found: {4}string "not a url"\n {4}hint: {5}a full URL/,
    );
  });

  it("reports YAML syntax errors and missing files", () => {
    const syntax = problemsOf("policy:\n\tidle_util_pct: 5\n");
    assert.equal(syntax.problems[0]?.expected, "valid YAML");
    assert.throws(
      () => loadConfig({}, { file: "nope.yaml", cwd: dir }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems[0]?.found === "ENOENT" &&
        error.problems[0]?.hint === "check the path given to --config",
    );
  });
});

describe("readEnv", () => {
  it("takes secrets and switches from the environment only", () => {
    const env = readEnv({
      SLACK_BOT_TOKEN: "xoxb-1",
      LOG_LEVEL: "DEBUG",
      PORT: "8080",
      SLACK_APP_TOKEN: " ",
    });
    assert.equal(env.slackBotToken, "xoxb-1");
    assert.equal(env.slackAppToken, null);
    assert.equal(env.logLevel, "debug");
    assert.equal(env.port, 8080);
    assert.equal(readEnv({ LOG_LEVEL: "loud" }).logLevel, "info");
  });
});
