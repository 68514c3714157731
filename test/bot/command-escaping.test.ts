import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { commandText, plainPeople, userIdOf } from "../../src/bot/commands/command-text.ts";
import {
  ALICE,
  allHosts,
  BOB,
  BotHarness,
  CAROL,
  DAVE,
  EVE,
  idleHost,
  standardConfig,
} from "../helpers/bot-harness.ts";

describe("slash-command text as Slack sends it (escaped, should_escape: true)", () => {
  test("entities are decoded once; people stay IDs; channels, links and broadcasts read as typed", () => {
    assert.equal(commandText("claim gpu-a R&amp;D &lt;fast&gt;"), "claim gpu-a R&D <fast>");
    assert.equal(commandText("a &amp;amp; b"), "a &amp; b", "decoded once, not twice");
    assert.equal(commandText("warden swap <@U0CAROL|carol>"), "warden swap <@U0CAROL|carol>");
    assert.equal(commandText("warden swap <@W0CAROL>"), "warden swap <@W0CAROL>");
    assert.equal(
      commandText(
        "see <#C0GPU|gpu> <https://wandb.ai/x?a=1&amp;b=2> <http://x.org|x.org> <!here> <!subteam^S1|@ml>",
      ),
      "see #gpu https://wandb.ai/x?a=1&b=2 x.org @here @ml",
    );
    for (const form of ["<@U0CAROL|carol>", "<@U0CAROL>", "U0CAROL", "@U0CAROL"]) {
      assert.equal(userIdOf(form), "U0CAROL", form);
    }
    assert.equal(userIdOf("@carol"), null);
    assert.equal(plainPeople("with <@U0ALICE|alice> and <@U0BOB>"), "with @alice and @U0BOB");
  });
});

for (const transport of ["socket", "http"] as const) {
  describe(`escaped command text over ${transport === "socket" ? "Socket Mode" : "signed HTTP"}`, {
    timeout: 60_000,
  }, () => {
    let h: BotHarness;
    afterEach(() => h.closeChecked());

    test("a note with & < > and a person is stored as typed and shown escaped exactly once", async () => {
      h = await BotHarness.start({ transport, config: standardConfig({ "gpu-a": { owners: [ALICE] } }) });
      h.pollFor(1, allHosts(idleHost("gpu-a")));
      const claimed = await h.user.slashCommand({
        user: BOB,
        text: "claim gpu-a:0 for 2h R&D <fast> with @alice",
      });
      assert.equal(
        claimed.envelope.payload.text,
        "claim gpu-a:0 for 2h R&amp;D &lt;fast&gt; with <@U0ALICE|alice>",
      );
      assert.match(String(claimed.ackPayload?.text), /\(R&amp;D &lt;fast&gt; with @alice\)\.$/);
      assert.deepEqual(
        h.state.claims.activeOn("gpu-a", h.clock.now()).map((claim) => claim.note),
        ["R&D <fast> with @alice"],
      );
      const conflict = await h.user.slashCommand({ user: EVE, text: "claim gpu-a:0" });
      assert.equal(
        conflict.ackPayload?.text,
        `gpu-a:0 is claimed by <@${BOB}> until 12:01 (R&amp;D &lt;fast&gt; with @alice).`,
      );
    });

    test("/gpu warden swap @carol (picked from Slack's list) swaps; every form Slack sends works", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({}, { warden: { roster: [ALICE, BOB, CAROL] } }),
      });
      const ask = async (text: string, wireText?: string) => {
        const delivery = await h.user.slashCommand(
          wireText === undefined ? { user: DAVE, text } : { user: DAVE, wireText },
        );
        return { sent: delivery.envelope.payload.text, answer: String(delivery.ackPayload?.text) };
      };
      const picked = await ask("warden swap @carol");
      assert.equal(picked.sent, `warden swap <@${CAROL}|carol>`);
      assert.match(picked.answer, new RegExp(`^Done: <@${CAROL}> is the cost warden for January 2026\\.`));
      assert.equal(h.deps.warden.current(h.clock.now()), CAROL);
      const bare = await ask("", `warden swap <@${BOB}>`);
      assert.match(bare.answer, new RegExp(`^Done: <@${BOB}> is the cost warden for January 2026\\.`));
      const unknown = await ask("warden swap @nobody");
      assert.equal(unknown.sent, "warden swap @nobody", "Slack leaves a name nobody has as typed");
      assert.match(unknown.answer, /^I cannot tell who `@nobody` is: mention them/);
      await h.settle();
    });
  });
}
