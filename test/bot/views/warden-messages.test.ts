import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { wardenChangeAnnouncement } from "../../../src/bot/views/warden-messages.ts";
import type { WardenChange } from "../../../src/usecases/rotate-warden.ts";

const swap: WardenChange = {
  kind: "swap",
  month: "2026-01",
  from: "U0BOB",
  to: "U0CAROL",
  laterTurn: { user: "U0BOB", month: "2026-03" },
};

describe("the channel post after a warden swap", () => {
  test("never reads 'X swapped X's turn': it says who handed over or took over", () => {
    const by = (actor: string) => wardenChangeAnnouncement(swap, actor).text;
    assert.equal(
      by("U0BOB"),
      "🔁 <@U0CAROL> is the cost warden for *January 2026* (<@U0BOB> handed over their turn). <@U0BOB> takes March 2026 instead.",
    );
    assert.equal(
      by("U0CAROL"),
      "🔁 <@U0CAROL> is the cost warden for *January 2026* (<@U0CAROL> took over <@U0BOB>'s turn). <@U0BOB> takes March 2026 instead.",
    );
    assert.equal(
      by("U0DAVE"),
      "🔁 <@U0CAROL> is the cost warden for *January 2026* (<@U0DAVE> swapped <@U0BOB>'s turn). <@U0BOB> takes March 2026 instead.",
    );
  });
});
