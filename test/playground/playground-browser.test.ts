import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { after, before, describe, it } from "node:test";
import type { Browser, Locator, Page } from "playwright-core";
import { ADMIN, CLAIMANT, OWNER, STRANGER, WARDEN } from "../../src/playground/playground-config.ts";
import type { RunningPlayground } from "../../src/playground/start-playground.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { playgroundInBrowser } from "../helpers/playground-in-browser.ts";

/** Wednesday 2026-01-07 09:00 UTC. */
const T0 = Date.UTC(2026, 0, 7, 9, 0);
/** Long enough for a loaded machine; the page shows things as soon as they exist. */
const SHOWN_MS = 30_000;
/** Set (e.g. to `docs`) to write the README's screenshots there: `npm run screenshots`. */
const SCREENSHOTS = process.env.PLAYGROUND_SCREENSHOTS;

const stderr = new PassThrough();
const problems: string[] = [];
stderr.on("data", (chunk: Buffer) => {
  for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
    const entry = JSON.parse(line) as { level: number; msg: string };
    if (entry.level >= 50) problems.push(entry.msg);
  }
});

describe("the playground in a real browser (Debian's chromium via playwright-core)", () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ({ playground, browser, page } = await playgroundInBrowser({
      startMs: T0,
      hostName: "playground-test",
      logger: createLogger("warn", stderr),
    }));
    page.on("pageerror", (error) => problems.push(`page: ${error.message}`));
  });

  after(async () => {
    await browser?.close();
    await playground?.stop();
  });

  const message = (text: string) => page.locator("#pane article.msg", { hasText: text }).last();
  const viewAs = (user: string) => page.selectOption("#user", user);
  /** A screenshot for the README with `top` scrolled to the top of the conversation. */
  const shot = async (name: string, top: Locator, height = 900) => {
    if (SCREENSHOTS === undefined) return;
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.setViewportSize({ width: 1440, height });
    await top.evaluate((node) => node.scrollIntoView({ block: "start" }));
    await page.screenshot({ path: join(SCREENSHOTS, `playground-${name}.png`) });
    await page.setViewportSize({ width: 1440, height: 900 });
  };

  it("shows an idle alert; a stranger's Stop is refused, the owner's is confirmed and stops the host", async () => {
    await page.goto(playground.url);
    await page.getByRole("button", { name: "Pause" }).click();
    await page.locator("#speed", { hasText: "paused" }).waitFor({ timeout: SHOWN_MS });
    const alert = message("gpu-a is idle");
    await alert.waitFor({ timeout: SHOWN_MS });
    assert.match((await alert.textContent()) ?? "", /Owner: @alice/);
    await shot("channel", alert);

    await viewAs(STRANGER);
    await alert.getByRole("button", { name: "Open thread" }).click();
    const thread = page.locator("#thread");
    await thread.getByRole("heading", { name: "💤 gpu-a is idle" }).waitFor({ timeout: SHOWN_MS });
    await thread.getByRole("button", { name: "Stop this host" }).click();
    const confirm = page.locator("#confirm");
    await confirm.waitFor({ state: "visible", timeout: SHOWN_MS });
    await confirm.locator("#confirm-ok").click();
    const refusal = page.locator("article.ephemeral", { hasText: "gpu-a" }).last();
    await refusal.waitFor({ timeout: SHOWN_MS });
    assert.match((await refusal.textContent()) ?? "", /Only visible to you/);
    assert.equal(playground.fleet.mode("gpu-a"), "scripted", "the stranger stopped nothing");

    await viewAs(OWNER);
    await page.locator("article.ephemeral").first().waitFor({ state: "detached", timeout: SHOWN_MS });
    await thread.getByRole("button", { name: "Stop this host" }).focus();
    await page.keyboard.press("Enter");
    await confirm.waitFor({ state: "visible", timeout: SHOWN_MS });
    assert.match((await confirm.textContent()) ?? "", /gpu-a/);
    assert.equal(
      await page.evaluate("document.activeElement.id"),
      "confirm-deny",
      "the safe choice has the focus",
    );
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await message("gpu-a was stopped").waitFor({ timeout: SHOWN_MS });
    assert.match((await message("gpu-a was stopped").textContent()) ?? "", /Stopped by @alice/);
    await page
      .locator('#fleet [data-host="gpu-a"]', { hasText: "powered off" })
      .waitFor({ timeout: SHOWN_MS });

    const outcome = /gpu-a stopped by @alice: /;
    await thread.locator("article.msg", { hasText: outcome }).waitFor({ timeout: SHOWN_MS });
    for (const said of [/@alice is stopping gpu-a: /, outcome]) {
      assert.equal(
        await thread.locator("article.msg", { hasText: said }).count(),
        1,
        `in the thread: ${said}`,
      );
      assert.equal(await page.locator("article", { hasText: said }).count(), 1, `once on the page: ${said}`);
    }
    const answers = page.locator("#pane article.ephemeral");
    assert.equal(await answers.count(), 1, "the clicker's one answer");
    assert.match(
      (await answers.textContent()) ?? "",
      /Stopping gpu-a: its progress and outcome are in the alert's thread\./,
    );
    await page.locator("#close-thread").click();
    await thread.waitFor({ state: "hidden", timeout: SHOWN_MS });
    await answers.getByRole("link", { name: "the alert's thread" }).click();
    await thread.locator("article.msg", { hasText: outcome }).waitFor({ timeout: SHOWN_MS });
  });

  it("takes /gpu claim from the composer and lists the claim in the App Home", async () => {
    await viewAs(CLAIMANT);
    await page.getByRole("button", { name: "# gpu" }).click();
    await page.locator("#command").fill("/gpu claim gpu-b:0 for 2h");
    await page.locator("#command").press("Enter");
    await page.locator("article.ephemeral", { hasText: "You hold gpu-b:0" }).waitFor({ timeout: SHOWN_MS });
    await page.getByRole("button", { name: "gpu-warden · Home" }).click();
    await page.locator("#pane", { hasText: "gpu-b" }).waitFor({ timeout: SHOWN_MS });
    assert.match((await page.locator("#pane").textContent()) ?? "", /gpu-b:0|gpu-b.*GPU 0/);
    await shot("home", page.locator("#pane .blocks").first());
  });

  it("jumps to the next biweekly summary and shows its chart and CSVs", async () => {
    await viewAs(WARDEN);
    await page.getByRole("button", { name: "# gpu" }).click();
    await page.getByRole("button", { name: /Next summary/ }).click();
    const chart = page.locator("#pane .file img").last();
    await chart.waitFor({ timeout: 60_000 });
    await page.waitForFunction(
      `(() => { const img = [...document.querySelectorAll("#pane .file img")].at(-1);
        return img !== undefined && img.complete && img.naturalWidth > 300; })()`,
      undefined,
      { timeout: SHOWN_MS },
    );
    const csv = page.locator("#pane .file-doc a").first();
    assert.match((await csv.getAttribute("href")) ?? "", /\.csv\?download$/);
    await shot("summary", page.locator("#pane article.msg", { has: page.locator(".file img") }).last(), 1500);
  });

  it("resolves a host's alert when the fleet panel makes it busy", async () => {
    await viewAs(ADMIN);
    const alert = message("gpu-c is idle");
    await alert.waitFor({ timeout: SHOWN_MS });
    await page.getByRole("button", { name: "gpu-c: Busy" }).click();
    await page.getByRole("button", { name: "×600" }).click();
    await message("gpu-c is busy again").waitFor({ timeout: SHOWN_MS });
  });

  it("hands the warden's turn over on the 1st, and the warden decides a reclaim in a modal", async () => {
    await page.getByRole("button", { name: "Pause" }).click();
    await viewAs(WARDEN);
    await page.getByRole("button", { name: /1st of next month/ }).click();
    await message("cost warden for February").waitFor({ timeout: 60_000 });
    assert.match((await message("cost warden for February").textContent()) ?? "", /@dave/);
    await page.getByRole("button", { name: /1st of next month/ }).click();
    await message("cost warden for March").waitFor({ timeout: 60_000 });

    for (let i = 0; i < 2; i++) {
      const before = await page.locator("#now").getAttribute("datetime");
      await page.getByRole("button", { name: /Next summary/ }).click();
      await page.locator(`#now:not([datetime="${before}"])`).waitFor({ timeout: 60_000 });
    }
    await page.getByRole("button", { name: /gpu-warden · Messages/ }).click();
    const decision = message("Decide about gpu-f");
    await decision.waitFor({ timeout: SHOWN_MS });
    await decision.getByRole("button", { name: "Lend to…" }).click();
    const modal = page.locator("#modal");
    await modal.getByRole("heading", { name: "Lend a host" }).waitFor({ timeout: SHOWN_MS });
    await modal.getByRole("button", { name: "Lend" }).click();
    const error = modal.locator(".bk-error");
    await error.waitFor({ timeout: SHOWN_MS });
    assert.match((await error.textContent()) ?? "", /person|project/i, "the bot's error, under the field");
    await modal.getByLabel("Person").selectOption(CLAIMANT);
    await modal.getByRole("button", { name: "Lend" }).click();
    await modal.waitFor({ state: "hidden", timeout: SHOWN_MS });
    await page
      .locator("#pane article.msg", { hasText: "lent to @bob" })
      .first()
      .waitFor({ timeout: SHOWN_MS });
    assert.deepEqual(problems, [], "no errors in the bot's log or the page");
  });
});
