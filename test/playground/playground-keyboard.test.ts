import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { RunningPlayground } from "../../src/playground/start-playground.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { launchChromium, playgroundInBrowser } from "../helpers/playground-in-browser.ts";

/** Wednesday 2026-01-07 09:00 UTC. */
const T0 = Date.UTC(2026, 0, 7, 9, 0);
const SHOWN_MS = 30_000;

/** One chromium for both teams' playgrounds, each on its own page. */
let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser?.close());

/** WCAG's contrast ratio of every visible button's text against its background (walking up to an opaque one). */
const CONTRASTS = `(() => {
  const rgb = (text) => (text.match(/[\\d.]+/g) ?? []).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const background = (node) => {
    for (let at = node; at; at = at.parentElement) {
      const color = rgb(getComputedStyle(at).backgroundColor);
      if (color.length === 3 || color[3] > 0.5) return color.slice(0, 3);
    }
    return [255, 255, 255];
  };
  return [...document.querySelectorAll("button")]
    .filter((b) => b.offsetParent !== null || b.closest("dialog[open]"))
    .filter((b) => b.textContent.trim() !== "")
    .map((b) => {
      const [hi, lo] = [lum(rgb(getComputedStyle(b).color)), lum(background(b))].sort((x, y) => y - x);
      return { label: b.textContent.trim(), ratio: (hi + 0.05) / (lo + 0.05) };
    });
})()`;

describe("the playground with the keyboard only (Debian's chromium via playwright-core)", () => {
  let playground: RunningPlayground;
  let page: Page;

  before(async () => {
    ({ playground, page } = await playgroundInBrowser({
      startMs: T0,
      hostName: "playground-keyboard-test",
      logger: silentLogger,
      browser,
    }));
  });

  after(async () => {
    await page?.close();
    await playground?.stop();
  });

  const focused = async () => String(await page.evaluate('document.activeElement?.innerText?.trim() ?? ""'));
  const focusKey = async () => String(await page.evaluate('document.activeElement?.dataset.focus ?? ""'));
  /** Presses Tab until the focused element reads `label` (at most `max` times). */
  const tabTo = async (label: RegExp, max = 60) => {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press("Tab");
      if (label.test(await focused())) return;
    }
    assert.fail(`no ${label} within ${max} Tab presses`);
  };

  it("a focused button keeps the focus while the page updates, and the skip link leads to the channel", async () => {
    await page.goto(playground.url);
    const alert = page.locator("#pane article.msg", { hasText: "gpu-a is idle" }).last();
    await alert.waitFor({ timeout: SHOWN_MS });
    await page.keyboard.press("Tab");
    assert.equal(await focused(), "Skip to the channel");
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate("document.activeElement?.id"), "pane");
    await alert.getByRole("button", { name: "Open thread" }).focus();
    const key = await focusKey();
    const rendered = async () => Number(await page.evaluate("document.documentElement.dataset.renders"));
    const rendersReach = (count: number) =>
      page.waitForFunction(`Number(document.documentElement.dataset.renders) >= ${count}`, null, {
        timeout: SHOWN_MS,
      });
    // NOTE: the clock runs ×60, so every alert's figures change between these redraws.
    await rendersReach((await rendered()) + 2);
    assert.equal(await focusKey(), key, "the focus survives the updates");
    await page.getByRole("button", { name: "Pause" }).click();
    await page.locator("#speed", { hasText: "paused" }).waitFor({ timeout: SHOWN_MS });
    await page.evaluate("window.drawn = [...document.querySelectorAll('#pane article.msg')]");
    const before = await rendered();
    const other = page.locator("#pane article.msg", { hasText: "gpu-b is idle" }).last();
    await other.getByRole("button", { name: "Open thread" }).click();
    await rendersReach(before + 1);
    const kept = await page.evaluate("window.drawn.filter((node) => !node.isConnected).length");
    assert.equal(kept, 0, "a redraw that changes no message keeps every message's node in place");
    await page.keyboard.press("Escape");
  });

  it("alert → thread → Stop → confirm with the keyboard; Escape gives the focus back; every button is readable", async () => {
    await page.getByRole("button", { name: "Pause" }).click();
    await page.locator("#speed", { hasText: "paused" }).waitFor({ timeout: SHOWN_MS });
    const alert = page.locator("#pane article.msg", { hasText: "gpu-b is idle" }).last();
    await alert.waitFor({ timeout: SHOWN_MS });
    assert.doesNotMatch(
      (await page.locator("#pane").textContent()) ?? "",
      /\(edited\)/,
      "nobody edited anything",
    );
    await alert.getByRole("button", { name: "Open thread" }).focus();
    const opener = await focusKey();
    await page.keyboard.press("Enter");
    await page.locator("#thread").waitFor({ state: "visible", timeout: SHOWN_MS });
    await page.keyboard.press("Escape");
    assert.equal(await focusKey(), opener, "Escape gives the focus back to the thread's button");
    await page.keyboard.press("Enter");
    await page.locator("#thread").waitFor({ state: "visible", timeout: SHOWN_MS });
    await tabTo(/^Stop this host$/);
    await page.keyboard.press("Enter");
    await page.locator("#confirm").waitFor({ state: "visible", timeout: SHOWN_MS });
    const low = ((await page.evaluate(CONTRASTS)) as { label: string; ratio: number }[]).filter(
      (b) => b.ratio < 4.5,
    );
    assert.deepEqual(low, [], "WCAG AA: 4.5:1 for every button's label, the dialog's included");
    assert.equal(await page.evaluate("document.activeElement?.id"), "confirm-deny");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate("document.activeElement?.id"), "confirm-ok");
    await page.keyboard.press("Enter");
    await page.locator("#pane article.msg", { hasText: "gpu-b was stopped" }).waitFor({ timeout: SHOWN_MS });
  });

  it("DMs name the channel (#gpu), not its id", async () => {
    await page.locator('[data-view="dm"]').click();
    await page.locator("#pane article.msg").first().waitFor({ timeout: SHOWN_MS });
    const text = (await page.locator("#pane").textContent()) ?? "";
    assert.doesNotMatch(text, /#C0[A-Z0-9]+/);
  });
});

/**
 * The page's own labels a person reads (text, `aria-label`, `placeholder`, `title`, the options),
 * outside what the bot posted (its Block Kit, drawn in `.blocks` and `.bk-text`).
 */
const PAGE_LABELS = `(() => {
  const posted = (node) => node.closest(".blocks, .bk-text, .file, #confirm-title, #confirm-ok, #confirm-deny");
  const labels = [document.title];
  for (const node of document.querySelectorAll("body *")) {
    if (posted(node) || node.closest("[hidden], datalist")) continue;
    for (const name of ["aria-label", "placeholder", "title"]) {
      const value = node.getAttribute(name);
      if (value) labels.push(value);
    }
    if (node.tagName === "OPTION") labels.push(node.label);
    for (const child of node.childNodes) {
      if (child.nodeType === 3 && child.textContent.trim() !== "") labels.push(child.textContent.trim());
    }
  }
  return labels;
})()`;

/**
 * What may stay in Latin letters on a Chinese page: names, commands, GPU models, the product. (The
 * composer's command suggestions are the bot's `/gpu help` lines, checked with the catalog.)
 */
const NOT_WORDS =
  /gpu-warden|\/gpu(?: [\w:.,-]+)*|\bgpu-[a-f]\b|# ?gpu|\b(?:alice|bob|carol|dave|eve)\b|\bGPU\b|\bNVIDIA\b|\b\w*\d\w*\b|\bGW\b|\b(?:GeForce|RTX|Tesla|PCIe|SXM|HBM)\b/g;

describe("the playground for a zh-CN team: its own labels in Chinese (Debian's chromium via playwright-core)", () => {
  let playground: RunningPlayground;
  let page: Page;

  before(async () => {
    ({ playground, page } = await playgroundInBrowser({
      startMs: T0,
      hostName: "playground-zh-test",
      logger: silentLogger,
      team: { name: "视觉组", language: "zh-CN", timezone: "Asia/Shanghai", currency: "CNY" },
      browser,
    }));
  });

  after(async () => {
    await page?.close();
    await playground?.stop();
  });

  const focused = async () => String(await page.evaluate('document.activeElement?.innerText?.trim() ?? ""'));
  const english = async () =>
    ((await page.evaluate(PAGE_LABELS)) as string[])
      .map((label) => label.replace(NOT_WORDS, ""))
      .filter((label) => /[A-Za-z]{2,}/.test(label));

  it("labels, dialogs and the keyboard path in Chinese, no English label left, every button readable", async () => {
    await page.goto(playground.url);
    assert.equal(await page.evaluate("document.documentElement.lang"), "zh-CN");
    await page.keyboard.press("Tab");
    assert.equal(await focused(), "跳到频道");
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate("document.activeElement?.id"), "pane");
    await page.getByRole("button", { name: "暂停" }).click();
    await page.locator("#speed", { hasText: "已暂停" }).waitFor({ timeout: SHOWN_MS });
    const alert = page.locator("#pane article.msg", { hasText: "gpu-b 闲置中" }).last();
    await alert.waitFor({ timeout: SHOWN_MS });
    assert.deepEqual(await english(), [], "the channel");
    assert.match((await page.locator("#user").textContent()) ?? "", /alice — 所有主机的负责人/);
    assert.match((await page.locator("#fleet").textContent()) ?? "", /被遗忘/);

    await alert.getByRole("button", { name: "打开线程" }).focus();
    await page.keyboard.press("Enter");
    const thread = page.getByRole("complementary", { name: "线程" });
    await thread.waitFor({ state: "visible", timeout: SHOWN_MS });
    await thread.getByRole("button", { name: "关闭线程" }).waitFor({ timeout: SHOWN_MS });
    for (let i = 0; i < 60 && (await focused()) !== "将此主机停机"; i++) await page.keyboard.press("Tab");
    assert.equal(await focused(), "将此主机停机");
    await page.keyboard.press("Enter");
    await page.locator("#confirm").waitFor({ state: "visible", timeout: SHOWN_MS });
    assert.deepEqual(await english(), [], "the thread and the Stop dialog");
    const low = ((await page.evaluate(CONTRASTS)) as { label: string; ratio: number }[]).filter(
      (b) => b.ratio < 4.5,
    );
    assert.deepEqual(low, [], "WCAG AA: 4.5:1 for every button's label, the dialog's included");
    assert.equal(await page.evaluate("document.activeElement?.id"), "confirm-deny");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.locator("#pane article.msg", { hasText: "gpu-b 已停机" }).waitFor({ timeout: SHOWN_MS });
    await page
      .locator("#pane article.ephemeral", { hasText: "正在将 gpu-b 停机" })
      .waitFor({ timeout: SHOWN_MS });
    assert.match((await page.locator("#pane article.ephemeral").textContent()) ?? "", /仅你可见/);

    await page.getByRole("button", { name: "gpu-warden · 消息" }).click();
    await page.locator("#title", { hasText: "gpu-warden · 消息" }).waitFor({ timeout: SHOWN_MS });
    assert.deepEqual(await english(), [], "the DMs");
  });
});
