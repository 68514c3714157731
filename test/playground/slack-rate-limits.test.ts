import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { startSlackEmulator } from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { ManualClock } from "../../src/shared/clock.ts";

describe("the Slack emulator's rate limits (slackLimits: true)", () => {
  test("posts to one channel beyond the burst and a tier's calls beyond a minute get 429 with Retry-After, on the injected clock", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 9, 0));
    const emulator = await startSlackEmulator({
      clock,
      slackLimits: true,
      channels: [{ id: "C1" }, { id: "C2" }],
    });
    const call = (method: string, args: Record<string, unknown>) =>
      fetch(`${emulator.apiUrl}${method}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${emulator.identity.botToken}`,
          "content-type": "application/json; charset=utf-8",
        },
        body: JSON.stringify(args),
      });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await call("chat.postMessage", { channel: "C1", text: `${i}` })).status);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      const limited = await call("chat.postMessage", { channel: "C1", text: "again" });
      assert.equal(limited.headers.get("retry-after"), "3");
      assert.deepEqual(await limited.json(), { ok: false, error: "ratelimited" });
      assert.equal((await call("chat.postMessage", { channel: "C2", text: "elsewhere" })).status, 200);
      clock.advance(3_000);
      assert.equal((await call("chat.postMessage", { channel: "C1", text: "later" })).status, 200);

      const ts = emulator.channel("C2").latest!.ts;
      const updates: number[] = [];
      for (let i = 0; i < 51; i++)
        updates.push((await call("chat.update", { channel: "C2", ts, text: `${i}` })).status);
      assert.deepEqual(updates.slice(49), [200, 429], "Tier 3: 50 a minute");
    } finally {
      await emulator.close();
    }
  });
});
