import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { configSchema } from "../../src/config/schema.ts";
import { hygieneOnce } from "../../src/main/hygiene-once.ts";
import { ENGLISH } from "../../src/messages/translator.ts";
import { hygieneText } from "../../src/reports/hygiene-report.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { shQuote } from "../../src/sources/remote-probe.ts";
import { fixturePath } from "../helpers/fixtures.ts";
import {
  createSshClientKeys,
  type SshClientKeys,
  type Sshd,
  startSilentListener,
  startSshd,
} from "../helpers/sshd.ts";
import { writeScript } from "../helpers/stand-in-commands.ts";

const NOW = new ManualClock(Date.UTC(2026, 11, 4, 8, 30));
let dir: string;
let keys: SshClientKeys;
let lab: Sshd;
let root: Sshd;
let silent: { port: number; stop(): Promise<void> };

/** Stand-ins on the lab host's PATH: docker, df and who answer from the captures; sshd -T is not allowed. */
function labBin(): string {
  const bin = join(dir, "lab-bin");
  mkdirSync(bin);
  const f = (name: string) => shQuote(fixturePath("hygiene", name));
  writeScript(
    bin,
    "docker",
    [
      'case "$*" in',
      `  "system df --format {{json .}}") cat ${f("docker-system-df.jsonl")} ;;`,
      `  "image ls --no-trunc --format {{json .}}") cat ${f("docker-image-ls.jsonl")} ;;`,
      '  "ps -aq --no-trunc"|"ps -q --no-trunc") printf "c1\\nc2\\nc3\\n" ;;',
      `  "inspect --format {{.Image}} c1 c2 c3") cat ${f("docker-inspect-images.txt")} ;;`,
      `  "inspect --format {{.Name}}|{{.Config.Image}}|{{.HostConfig.Memory}} c1 c2 c3") cat ${f("docker-inspect-containers.txt")} ;;`,
      '  *) echo "stand-in docker: unexpected: $*" >&2; exit 1 ;;',
      "esac",
    ].join("\n"),
  );
  writeScript(bin, "df", `cat ${f("df-P-k.txt")}`);
  writeScript(bin, "who", `[ "$1" = -u ] && cat ${f("who-u.txt")}`);
  writeScript(bin, "sshd", 'echo "sshd: no hostkeys available -- exiting." >&2; exit 1');
  return bin;
}

/** sshd configuration files: one without the setting that includes a folder, one whose include sets it too long. */
function sshdConfigs() {
  const etc = join(dir, "etc-ssh");
  mkdirSync(join(etc, "sshd_config.d"), { recursive: true });
  const hostKey = join(etc, "host_ed25519");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", hostKey]);
  writeFileSync(join(etc, "sshd_config.d", "10-users.conf"), "# team logins\nPasswordAuthentication no\n");
  writeFileSync(
    join(etc, "sshd_config.d", "50-keepalive.conf"),
    "# old keep-alive\nClientAliveInterval 2h\n",
  );
  const unset = join(etc, "unset_config");
  writeFileSync(
    unset,
    `Port 22\nHostKey ${hostKey}\nInclude ${etc}/sshd_config.d/10-*.conf\nMatch User backup\n  ClientAliveInterval 60\n`,
  );
  const included = join(etc, "included_config");
  writeFileSync(
    included,
    `# gpu-a\nHostKey ${hostKey}\nInclude ${etc}/sshd_config.d/*.conf\nClientAliveInterval 120\n`,
  );
  const good = join(etc, "good_config");
  writeFileSync(good, `HostKey ${hostKey}\nClientAliveInterval 300\nClientAliveCountMax 3\n`);
  const long = join(etc, "long_config");
  writeFileSync(long, `HostKey ${hostKey}\nClientAliveInterval 600\n`);
  return { unset, included, good, long, etc };
}

let configs: ReturnType<typeof sshdConfigs>;

function config(sshdConfig: string) {
  return configSchema.parse({
    sources: [
      {
        kind: "ssh",
        hosts: [
          { name: "gpu-lab", target: lab.target },
          { name: "gpu-root", target: root.target },
          { name: "gpu-hung", target: `ssh://nobody@127.0.0.1:${silent.port}` },
        ],
        ssh_args: keys.clientArgs,
        connect_timeout_seconds: 2,
      },
    ],
    hygiene: { sshd_config: sshdConfig, check_timeout_seconds: 4 },
  });
}

async function seen(sshdConfig: string, hosts: string[]): Promise<string[]> {
  const done = await hygieneOnce(config(sshdConfig), "bot", NOW, hosts);
  assert.deepEqual(done.unknown, []);
  return hygieneText(ENGLISH, done.results).trimEnd().split("\n");
}

describe("host hygiene over a real sshd", () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "gw-hygiene-"));
    keys = createSshClientKeys();
    lab = await startSshd({ keys, remotePath: `${labBin()}:/usr/bin:/bin` });
    root = await startSshd({ keys, remotePath: "/usr/sbin:/usr/bin:/bin:/nonexistent-docker" });
    silent = await startSilentListener();
    configs = sshdConfigs();
  });
  after(async () => {
    await Promise.all([lab?.stop(), root?.stop(), silent?.stop()]);
    keys?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the lab host: sshd from the files, full disks, Docker space, old images, idle logins, uncapped containers", async () => {
    assert.deepEqual(await seen(configs.unset, ["gpu-lab"]), [
      "gpu-lab",
      `  sshd: ClientAliveInterval is not set, so dead SSH sessions never time out and make the host look in use: add the line 'ClientAliveInterval 300' to ${configs.unset}, above any Match block`,
      "  disks: / is 95% full (24.8 GiB free)",
      "  disks: /mnt/scratch disk is 92% full (153.1 GiB free)",
      "  Docker: Docker could free 38.2 GB of unused images: docker image prune -a",
      "  Docker: Docker could free 14.7 GB of build cache: docker builder prune",
      '  Docker: 2 images no container has used, older than 30 days (30.6 GB): docker image prune -a --filter "until=720h"',
      "  logins: alice on pts/0 from 10.20.0.31 idle for 1 day: with a session like that the host never counts as idle; end it",
      "  logins: carol on pts/5 from tmux(655001).%0 idle for 1 day: with a session like that the host never counts as idle; end it",
      "  containers: container vllm-serve (vllm/vllm-openai:v0.4.3) runs without a memory cap: set one (docker run --memory, mem_limit in Compose)",
      "  containers: container redis (redis:7) runs without a memory cap: set one (docker run --memory, mem_limit in Compose)",
      "10 things to fix on 1 host",
    ]);
  });

  test("an Include read where it stands: the first value wins, at its file and line", async () => {
    const lines = await seen(configs.included, ["gpu-lab"]);
    assert.equal(
      lines[1],
      `  sshd: ClientAliveInterval is 7200 s: put 'ClientAliveInterval 300' in place of line 2 of ${configs.etc}/sshd_config.d/50-keepalive.conf`,
    );
  });

  test("sshd -T where root may run it; no Docker there; a host that never answers could not be checked", async () => {
    const lines = await seen(configs.long, ["gpu-root", "gpu-hung"]);
    assert.equal(lines[0], "gpu-root");
    assert.equal(
      lines[1],
      `  sshd: ClientAliveInterval is 600 s: set 'ClientAliveInterval 300' in ${configs.long}`,
    );
    assert.ok(lines.includes("  Docker: no Docker on this host"), lines.join("\n"));
    const hung = lines.slice(lines.indexOf("gpu-hung") + 1, -1);
    assert.equal(hung.length, 5);
    for (const line of hung) assert.match(line, /^ {2}\S+: could not check: no answer within \d+ s$/);
    assert.ok(
      !lines.some((line) => line.startsWith("  ") && /nothing to fix/.test(line) && hung.includes(line)),
    );
    const good = await seen(configs.good, ["gpu-root"]);
    assert.equal(good[1], "  sshd: nothing to fix");
  });
});
