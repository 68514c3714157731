import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { parseCommand } from "../../src/bot/commands/parse-command.ts";
import { workloadHoursOf } from "../../src/checks/workload-project.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { translator } from "../../src/messages/translator.ts";
import { heatColour } from "../../src/reports/heatmap-chart.ts";
import { wrapText } from "../../src/reports/svg.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { ALICE, BOB, BotHarness, standardConfig } from "../helpers/bot-harness.ts";
import { type DecodedPng, decodePng } from "../helpers/png.ts";
import { gpu, okHost } from "../store/store-fixtures.ts";

const START = Date.UTC(2026, 0, 5); // Monday
const NOW = Date.UTC(2026, 0, 26, 9); // three weeks later
const STEP = 2 * MINUTE_MS;
const ZONE = "Europe/Berlin";

/** What each GPU runs at `atMs` (UTC): utilisation and the Kubernetes namespace of its process. */
function running(atMs: number): Record<string, Array<{ util: number; namespace: string | null }>> {
  const d = new Date(atMs);
  const weekday = (d.getUTCDay() + 6) % 7;
  const hour = d.getUTCHours();
  const office = weekday < 5 && hour >= 9 && hour < 17;
  const afternoon = hour >= 14 && hour < 16;
  return {
    "gpu-a": [
      { util: office ? 90 : 0, namespace: null },
      { util: 0, namespace: null },
    ],
    "gpu-b": [
      weekday === 1 && afternoon
        ? { util: 80, namespace: "vision-ns" }
        : weekday === 3 && afternoon
          ? { util: 80, namespace: "other-ns" }
          : { util: 0, namespace: null },
    ],
  };
}

/** Vision's claims on gpu-a:0 (Mondays 09–13 UTC), speech's (Tuesdays 09–17 UTC). */
function claims(): Array<{ fromMs: number; toMs: number; project: string; user: string }> {
  return [0, 1, 2].flatMap((week) => {
    const monday = START + week * 7 * 24 * HOUR_MS;
    return [
      { fromMs: monday + 9 * HOUR_MS, toMs: monday + 13 * HOUR_MS, project: "vision", user: ALICE },
      { fromMs: monday + 33 * HOUR_MS, toMs: monday + 41 * HOUR_MS, project: "speech", user: BOB },
    ];
  });
}

function observations(atMs: number): HostObservation[] {
  return Object.entries(running(atMs)).map(([host, gpus]) =>
    okHost(host, atMs, {
      gpus: gpus.map((g, index) =>
        gpu(index, {
          utilPct: g.util,
          processes:
            g.namespace === null
              ? []
              : [
                  {
                    pid: 100,
                    user: null,
                    name: "python",
                    usedMemoryMiB: 1000,
                    container: "train",
                    pod: "train-0",
                    namespace: g.namespace,
                  },
                ],
        }),
      ),
    }),
  );
}

const weekdayHour = new Intl.DateTimeFormat("en-GB", {
  timeZone: ZONE,
  weekday: "short",
  hour: "2-digit",
  hourCycle: "h23",
});
const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** Independently: per host, per Berlin hour-of-week, the mean over its GPUs of the share of minutes busy for vision. */
function expectedVision(): Map<string, number[]> {
  const busy = new Map<string, number[]>();
  const known = new Map<string, number[]>();
  const visionClaims = claims();
  for (let atMs = START; atMs < START + 21 * 24 * HOUR_MS; atMs += STEP) {
    const parts = Object.fromEntries(weekdayHour.formatToParts(atMs).map((p) => [p.type, p.value]));
    const how = DAYS.indexOf(parts.weekday ?? "") * 24 + Number(parts.hour);
    for (const [host, gpus] of Object.entries(running(atMs))) {
      gpus.forEach((g, index) => {
        const key = `${host}:${index}`;
        const b = busy.get(key) ?? new Array<number>(168).fill(0);
        const k = known.get(key) ?? new Array<number>(168).fill(0);
        busy.set(key, b);
        known.set(key, k);
        k[how] = (k[how] ?? 0) + 2;
        const claim =
          host === "gpu-a" && index === 0
            ? visionClaims.find((c) => c.fromMs <= atMs && atMs < c.toMs)
            : undefined;
        const forVision = claim === undefined ? g.namespace === "vision-ns" : claim.project === "vision";
        if (g.util >= 10 && forVision) b[how] = (b[how] ?? 0) + 2;
      });
    }
  }
  const byHost = new Map<string, number[]>();
  for (const host of ["gpu-a", "gpu-b"]) {
    const keys = [...busy.keys()].filter((key) => key.startsWith(`${host}:`));
    byHost.set(
      host,
      Array.from({ length: 168 }, (_, how) => {
        const shares = keys.map((key) => (busy.get(key)?.[how] ?? 0) / (known.get(key)?.[how] ?? 1));
        return shares.reduce((a, b) => a + b, 0) / shares.length;
      }),
    );
  }
  return byHost;
}

function pixelAt(png: DecodedPng, x: number, y: number): string {
  const i = (Math.round(y) * png.width + Math.round(x)) * png.channels;
  return `#${[0, 1, 2].map((c) => (png.pixels[i + c] as number).toString(16).padStart(2, "0")).join("")}`;
}

describe("/gpu heatmap grammar", () => {
  test("heatmap and heatmap project=X", () => {
    assert.deepEqual(parseCommand("heatmap"), { kind: "heatmap", project: null });
    assert.deepEqual(parseCommand("heatmap project=vision"), { kind: "heatmap", project: "vision" });
    assert.equal(parseCommand("heatmap vision").kind, "invalid");
  });
});

describe("/gpu heatmap project=X over the real Bolt app", { timeout: 180_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("draws only the project's GPU-hours (claims, then namespaces), titled with its name", async () => {
    h = await BotHarness.start({
      transport: "http",
      config: standardConfig(
        { "gpu-a": {}, "gpu-b": {} },
        {
          projects: {
            vision: { members: [ALICE], namespaces: ["vision-ns"] },
            speech: { members: [BOB] },
          },
        },
      ),
    });
    for (let atMs = START; atMs < START + 21 * 24 * HOUR_MS; atMs += STEP) {
      const batch = observations(atMs);
      h.metrics.writeCycle(batch, atMs);
      h.state.workloads.record(workloadHoursOf(batch));
    }
    for (const claim of claims()) {
      const added = h.state.claims.add({
        host: "gpu-a",
        gpuIndex: 0,
        user: claim.user,
        fromMs: claim.fromMs,
        untilMs: claim.toMs,
        note: "",
        project: claim.project,
      });
      h.state.claims.release([added.id], claim.toMs, claim.user, "released");
    }
    h.clock.set(NOW);
    while (!h.metrics.rollup(NOW, 10, 10_000).complete) {}

    const unknown = await h.user.slashCommand({ user: ALICE, text: "heatmap project=nlp" });
    assert.equal(unknown.ackPayload?.text, "There is no project `nlp`. Projects: `vision`, `speech`.");
    const title = "vision: GPU use by hour of the week, Dec 1 – Jan 26, 2026";
    const reply = await h.user.slashCommand({ user: ALICE, text: "heatmap project=vision" });
    assert.equal(reply.ackPayload?.text, `The heatmap *${title}* comes to you as a DM.`);
    await h.emulator.waitFor(() => h.emulator.files()[0]?.completed === true, "the PNG upload");
    const [file] = h.emulator.files();
    assert.equal(file?.filename, "gpu-heatmap_vision.png");
    assert.equal(file?.title, title);
    assert.equal(
      file?.initialComment,
      "Heatmap of vision's GPU use by hour of the week on 2 hosts, Dec 1 to Jan 26, 2026.",
    );

    const png = decodePng(file?.bytes as Buffer);
    const tr = translator({ language: "en", timeZone: ZONE, currency: "EUR" });
    const subtitle = tr.t("heatmap.subtitle.project", { zone: ZONE, weeks: 8, project: "vision" });
    const top = 92 + (wrapText(subtitle, png.width - 48, 11.5).length - 1) * 15;
    const expected = expectedVision();
    let dark = 0;
    for (const [block, host] of ["gpu-a", "gpu-b"].entries()) {
      const shares = expected.get(host) as number[];
      for (let how = 0; how < 168; how++) {
        const x = 80 + (how % 24) * 22 + 10;
        const y = top + block * 146 + 34 + Math.floor(how / 24) * 14 + 6;
        const share = shares[how] as number;
        if (share > 0) dark++;
        assert.equal(pixelAt(png, x, y), heatColour(share), `${host}, hour-of-week ${how}: ${share}`);
      }
    }
    assert.equal(dark, 4 + 2, "vision's Monday 10–14 on gpu-a and Tuesday 15–17 on gpu-b (Berlin)");

    const fleet = await h.user.slashCommand({ user: BOB, text: "heatmap" });
    assert.equal(fleet.ackPayload?.text, "The heatmap *GPU use by hour of the week* comes to you as a DM.");
  });
});
