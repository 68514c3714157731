import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ensureBuilt } from "../helpers/built-bin.ts";

const bin = ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), "gw-cli-lang-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function gpuWarden(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "silent", TZ: "UTC" },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function config(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const ZH = "team: { language: zh-CN, timezone: Asia/Shanghai, currency: CNY }\n";

describe("the CLI's human output follows team.language (the built bin)", () => {
  it("check-config summarises a zh-CN configuration in Chinese", () => {
    const file = config(
      "zh.yaml",
      `${ZH}sources:\n  - kind: ssh\n    hosts: [gpu-a, gpu-b]\n  - kind: simulated\n    hosts: 4\nslack: { channel: '#ml' }\n`,
    );
    const result = gpuWarden(["check-config", "--config", file]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split("\n");
    assert.match(lines[0] ?? "", /^配置正确：.*zh\.yaml$/);
    assert.equal(lines[1], "数据源：");
    assert.match(result.stdout, /通过 ssh 连接 2 台主机：gpu-a, gpu-b（并发 \d+，时限 \d+ 秒）/);
    assert.match(result.stdout, /模拟机群：4 台主机 × 8 块 GPU/);
    assert.match(result.stdout, /频道：#ml/);
    assert.match(result.stdout, /团队：.*时区 Asia\/Shanghai，货币 CNY，语言 zh-CN/);
    assert.match(result.stdout, /策略：GPU 利用率低于 10 % 即为闲置/);
    assert.doesNotMatch(result.stdout, /configuration OK|sources:|policy:|poll:/);
  });

  it("collect --once prints the table in Chinese", () => {
    const file = config("zh-collect.yaml", `${ZH}sources:\n  - kind: simulated\n    hosts: 3\n`);
    const result = gpuWarden(["collect", "--once", "--config", file]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split("\n");
    assert.match(
      lines[0] ?? "",
      /^主机\s+数据源\s+状态\s+GPU\s+利用率 %\s+显存\s+功率\s+登录会话\s+负载\s+备注$/,
    );
    assert.equal(lines.length, 4);
    assert.match(lines[1] ?? "", /^gpu-a\s+simulated\s+(正常|未知)/);
    assert.doesNotMatch(result.stdout, /HOST|SOURCE|\bok\b|n\/a/);
  });

  it("a configuration that cannot be read is explained in English", () => {
    const file = config("broken.yaml", `${ZH}poll: { interval_seconds: -1 }\n`);
    const result = gpuWarden(["check-config", "--config", file]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /broken\.yaml: 1 problem\n {2}at poll\.interval_seconds/);
  });

  it("an English configuration still reads English", () => {
    const file = config("en.yaml", "sources:\n  - kind: simulated\n    hosts: 2\n");
    const result = gpuWarden(["check-config", "--config", file]);
    assert.match(result.stdout, /^configuration OK: .*en\.yaml\n/);
  });
});
