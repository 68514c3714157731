import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { RunningPlayground } from "../../src/playground/start-playground.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { playgroundInBrowser } from "../helpers/playground-in-browser.ts";

/** Wednesday 2026-01-07 09:00 UTC. */
const T0 = Date.UTC(2026, 0, 7, 9, 0);
const SHOWN_MS = 30_000;
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)",
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

describe("the playground under axe-core (Debian's chromium via playwright-core)", () => {
  let playground: RunningPlayground;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ({ playground, browser, page } = await playgroundInBrowser({
      startMs: T0,
      hostName: "playground-axe-test",
      logger: silentLogger,
    }));
  });

  after(async () => {
    await browser?.close();
    await playground?.stop();
  });

  it("the channel with an alert, its thread and the Stop dialog have no serious or critical violation", async () => {
    await page.goto(playground.url);
    await page.getByRole("button", { name: "Pause" }).click();
    const alert = page.locator("#pane article.msg", { hasText: "is idle" }).last();
    await alert.waitFor({ timeout: SHOWN_MS });
    assert.deepEqual(await seriousViolations(page), [], "the channel");
    await alert.getByRole("button", { name: "Open thread" }).click();
    await page.locator("#thread").waitFor({ state: "visible", timeout: SHOWN_MS });
    assert.deepEqual(await seriousViolations(page), [], "the thread");
    await page.locator("#thread").getByRole("button", { name: "Stop this host" }).first().click();
    await page.locator("#confirm").waitFor({ state: "visible", timeout: SHOWN_MS });
    assert.deepEqual(await seriousViolations(page), [], "the Stop dialog");
  });
});
