import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createMetricsStore } from "../../src/store/metrics-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { ensureBuilt, runBuiltBin } from "../helpers/built-bin.ts";
import { runCliHere } from "../helpers/run-cli-here.ts";
import { gpu } from "../store/store-fixtures.ts";

const bin = ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), "gw-cli-lang-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The instant the report runs at (`GPU_WARDEN_NOW`): the same complete days at any hour. */
const NOW = "2026-03-05T12:00:00Z";
const gpuWarden = (args: string[]) => runBuiltBin(bin, args, dir, { GPU_WARDEN_NOW: NOW });
/** The same in this process (`runCli`): the words do not depend on the process boundary. */
const inProcess = (args: string[]) =>
  runCliHere(args, {
    cwd: dir,
    env: { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "silent", GPU_WARDEN_NOW: NOW },
  });

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

  it("collect --once prints the table in Chinese", async () => {
    const file = config("zh-collect.yaml", `${ZH}sources:\n  - kind: simulated\n    hosts: 3\n`);
    const result = await inProcess(["collect", "--once", "--config", file]);
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

  it("report prints the cost ledger, its CSV headers and a bad date in Chinese", async () => {
    const DAY_MS = 86_400_000;
    const today = Math.floor(Date.parse(NOW) / DAY_MS) * DAY_MS;
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const [first, second] = [day(today - 2 * DAY_MS), day(today - DAY_MS)];
    const store = join(dir, "zh-ledger.db");
    const db = openDatabase(store);
    const metrics = createMetricsStore(db, { sampleSpanMaxMs: 1_200_000 });
    for (let atMs = today - 2 * DAY_MS; atMs < today - 600_000; atMs += 600_000) {
      const gpus = [gpu(0, { utilPct: 80, powerW: 100 }), gpu(1, { utilPct: 0, powerW: 100 })];
      metrics.writeCycle(
        [
          {
            host: "gpu-a",
            source: "ssh",
            atMs,
            ok: true,
            gpus,
            sessions: [],
            cpuLoad1: 0,
            cpuUtilPct: 0,
            containers: [],
          },
        ],
        atMs,
      );
    }
    db.close();
    const file = config(
      "zh-ledger.yaml",
      "team: { language: zh-CN, timezone: UTC, currency: CNY }\n" +
        `store: { path: ${store} }\npoll: { interval_seconds: 600 }\n` +
        "hosts: { gpu-a: { purchase_price: 8766, lifetime_months: 12 } }\n",
    );
    const result = gpuWarden(["report", "--since", first, "--until", second, "--config", file]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.split("\n");
    assert.equal(lines[0], `成本账本 ${first} … ${second}（UTC），CNY`);
    assert.match(
      lines[1] ?? "",
      /^主机 +天数 +开机小时 +忙碌 GPU 小时 +闲置 GPU 小时 +未知 GPU 小时 +使用率 +能耗 kWh +成本 CNY +闲置成本 CNY$/,
    );
    assert.match(lines[2] ?? "", /^gpu-a +2 +48\.0 +48\.0 +48\.0 +0\.0 +50 %/);
    assert.match(lines[3] ?? "", /^合计 +2 +48\.0/);
    assert.equal(lines[5], "按月实际使用率（忙碌 GPU 小时 / 开机 GPU 小时）：");
    assert.match(lines[6] ?? "", /^ {2}\d{4}-\d{2} {3}50 % {2}（开机 \d+\.0 GPU 小时中忙碌 \d+\.0）$/);
    assert.doesNotMatch(result.stdout, /cost ledger|host|total|GPU-hours/);
    const csv = await inProcess(["report", "--since", first, "--csv", "--config", file]);
    assert.equal(csv.code, 0, csv.stderr);
    assert.match(
      csv.stdout,
      /^日期,主机,小时,开机_小时,GPU_数,忙碌_GPU_小时,闲置_GPU_小时,未知_GPU_小时,使用率,/,
    );
    const bad = await inProcess(["report", "--since", "2026-13-01", "--config", file]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, "--since 2026-13-01 不是日期：请用 YYYY-MM-DD，例如 2026-01-31\n");
  });

  it("a configuration that cannot be read is explained in English", async () => {
    const file = config("broken.yaml", `${ZH}poll: { interval_seconds: -1 }\n`);
    const result = await inProcess(["check-config", "--config", file]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /broken\.yaml: 1 problem\n {2}at poll\.interval_seconds/);
  });

  it("an English configuration still reads English", async () => {
    const file = config("en.yaml", "sources:\n  - kind: simulated\n    hosts: 2\n");
    const result = await inProcess(["check-config", "--config", file]);
    assert.match(result.stdout, /^configuration OK: .*en\.yaml\n/);
  });
});
