import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { stillDone, withoutDone } from "../../src/checks/done-holders.ts";
import type { DoneMark } from "../../src/domain/done-mark.ts";
import { MINUTE_MS } from "../../src/shared/clock.ts";
import { gpuProcess, observed, session } from "./builders.ts";

const NOW = Date.UTC(2026, 0, 5, 20, 0);
const LOGINS = { U0ALICE: ["alice", "alice2"], U0EVE: ["eve"] };
const mark = (user: string, minutesAgo: number, pids: number[] = []): DoneMark => ({
  host: "gpu-b",
  user,
  alertId: 1,
  atMs: NOW - minutesAgo * MINUTE_MS,
  pids,
});

describe("stillDone", () => {
  test("a mark holds while none of the person's sessions has input after it", () => {
    const observation = observed(
      "gpu-b",
      NOW,
      [0],
      [session("alice", 40), session("alice2", 31), session("eve", 5)],
    );
    assert.deepEqual(stillDone([mark("U0ALICE", 30), mark("U0EVE", 30)], observation, LOGINS), ["U0ALICE"]);
  });

  test("input in the minute of the press is the press itself", () => {
    const observation = observed("gpu-b", NOW, [0], [session("eve", 29)]);
    assert.deepEqual(stillDone([mark("U0EVE", 30)], observation, LOGINS), ["U0EVE"]);
    const later = observed("gpu-b", NOW, [0], [session("eve", 28)]);
    assert.deepEqual(stillDone([mark("U0EVE", 30)], later, LOGINS), []);
  });

  test("a session of unknown age, or no reading, ends it; a person with no session there keeps it", () => {
    const unknown = observed("gpu-b", NOW, [0], [session("eve", null)]);
    assert.deepEqual(stillDone([mark("U0EVE", 30)], unknown, LOGINS), []);
    assert.deepEqual(stillDone([mark("U0EVE", 30)], null, LOGINS), []);
    const gone = observed("gpu-b", NOW, [0], []);
    assert.deepEqual(stillDone([mark("U0EVE", 30)], gone, LOGINS), ["U0EVE"]);
  });

  test("a GPU process of theirs started since is new work and ends it; the ones they let go do not", () => {
    const base = observed("gpu-b", NOW, [0, 0], [session("alice", 40)]);
    const withProcesses = (...pids: (number | null)[]) => ({
      ...base,
      gpus: base.gpus.map((gpu, index) => ({
        ...gpu,
        processes: index === 0 ? pids.map((pid) => ({ ...gpuProcess("alice", "python", 1024), pid })) : [],
      })),
    });
    const said = [mark("U0ALICE", 30, [4242])];
    assert.deepEqual(stillDone(said, withProcesses(4242), LOGINS), ["U0ALICE"]);
    assert.deepEqual(stillDone(said, withProcesses(4242, 5151), LOGINS), []);
    assert.deepEqual(stillDone(said, withProcesses(null), LOGINS), []);
  });
});

test("withoutDone leaves out the recent input of people who let their work go", () => {
  const recent = [
    { user: "alice2", idleMinutes: 40, processes: ["python"], memMiB: 20_480 },
    { user: "eve", idleMinutes: 50, processes: [], memMiB: 0 },
  ];
  assert.deepEqual(
    withoutDone(recent, ["U0ALICE"], LOGINS).map((input) => input.user),
    ["eve"],
  );
});
