import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { LoginSession } from "../../src/domain/observation.ts";
import { parseWho } from "../../src/sources/parse-who.ts";
import { listFixtures, readFixture } from "../helpers/fixtures.ts";

const s = (user: string, line: string, from: string | null, idleMinutes: number | null): LoginSession => ({
  user,
  line,
  from,
  idleMinutes,
});

const EXPECTED: Record<string, LoginSession[]> = {
  // procps w, empty FROM for the serial console; idle "32:16" is m:ss, "8.00s" seconds.
  "jc__centos-7.7__w.txt": [s("kbrazil", "ttyS0", null, 32), s("kbrazil", "pts/0", "192.168.71.1", 0)],
  // who -a: boot, LOGIN, run-level and the dead pts/1 are not sessions; "." is active now.
  "jc__centos-7.7__who-a.txt": [s("kbrazil", "ttyS0", null, 0), s("kbrazil", "pts/0", "192.168.71.1", 11)],
  "jc__centos-7.7__who.txt": [s("kbrazil", "ttyS0", null, null), s("kbrazil", "pts/0", "192.168.71.1", null)],
  // The "(login screen)" seat record is a display manager greeter, not a person; ":0" is.
  "jc__generic__who-login-screen.txt": [s("atemu", ":0", ":0", null), s("atemu", "pts/8", null, null)],
  // BSD w: "-" idle is under a minute, "20days" at least 20 days.
  "jc__osx-10.14.6__w.txt": [
    s("kelly", "console", null, 20 * 1440),
    s("kelly", "s000", null, 0),
    s("kelly", "s001", "127.0.0.1", 0),
    s("kelly", "s002", null, 0),
    s("kelly", "s003", "127.0.0.1", 0),
    s("kelly", "s004", null, 0),
    s("kelly", "s005", "::1", 0),
    s("kelly", "s006", null, 0),
  ],
  "jc__osx-10.14.6__who.txt": [
    s("kbrazil", "console", null, null),
    s("kbrazil", "ttys001", null, null),
    s("kbrazil", "ttys002", null, null),
    s("kbrazil", "ttys003", null, null),
  ],
  "jc__ubuntu-18.04__w.txt": [s("kbrazil", "ttyS0", null, 14), s("kbrazil", "pts/0", "192.168.71.1", 0)],
  "jc__ubuntu-18.04__who-a.txt": [s("kbrazil", "ttyS0", null, 0), s("kbrazil", "pts/0", "192.168.71.1", 0)],
  "jc__ubuntu-18.04__who.txt": [
    s("kbrazil", "ttyS0", null, null),
    s("kbrazil", "pts/0", "192.168.71.1", null),
  ],
};

describe("parseWho over the jc fixtures", () => {
  const files = listFixtures("who-w");

  test("every fixture has an expectation", () => {
    assert.deepEqual(files, Object.keys(EXPECTED).sort());
  });

  for (const file of files) {
    test(file, () => {
      assert.deepEqual(parseWho(readFixture("who-w", file)), EXPECTED[file]);
    });
  }
});

describe("parseWho on other shapes", () => {
  test("who -u: idle and pid columns, old sessions, tmux comments", () => {
    const text = [
      "alice    pts/0        2024-05-02 09:12 00:03       41234 (10.0.0.7)",
      "bob      pts/1        2024-04-28 17:40  old        38811 (tmux(38800).%0)",
      "carol    pts/2        2024-05-02 10:01   .         41500",
      "",
    ].join("\n");
    assert.deepEqual(parseWho(text), [
      s("alice", "pts/0", "10.0.0.7", 3),
      s("bob", "pts/1", "tmux(38800).%0", 1440),
      s("carol", "pts/2", null, 0),
    ]);
  });

  test("procps w idle in hours and days", () => {
    const text = [
      " 12:00:00 up 3 days,  1:02,  2 users,  load average: 0.10, 0.20, 0.30",
      "USER     TTY      FROM             LOGIN@   IDLE   JCPU   PCPU WHAT",
      "dave     pts/3    gpu-login-01     Mon09    1:05m  0.20s  0.20s tmux attach -t train",
      "erin     pts/4    10.1.2.3         30Apr24  3days  0.01s  0.01s -bash",
    ].join("\n");
    assert.deepEqual(parseWho(text), [
      s("dave", "pts/3", "gpu-login-01", 65),
      s("erin", "pts/4", "10.1.2.3", 4320),
    ]);
  });

  test("nothing logged in, or nothing at all", () => {
    assert.deepEqual(parseWho(""), []);
    assert.deepEqual(parseWho("NAME     LINE         TIME             COMMENT\n"), []);
    assert.deepEqual(
      parseWho(
        " 10:25:20 up 16:03,  0 users,  load average: 0.00, 0.01, 0.05\nUSER     TTY      FROM             LOGIN@   IDLE   JCPU   PCPU WHAT\n",
      ),
      [],
    );
  });

  test("lines that are not sessions are skipped, not guessed", () => {
    assert.deepEqual(parseWho("who: cannot open /var/run/utmp\nsomething else entirely\n"), []);
  });
});
