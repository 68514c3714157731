import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseGoDurationMs, victoriaMaxLookbackSeconds } from "../../src/sources/victoria-lookback.ts";

describe("victoriaMaxLookbackSeconds", () => {
  test("stale_after less VictoriaMetrics' latency offset (30 s when its /flags leaves it out)", () => {
    assert.equal(victoriaMaxLookbackSeconds({ storageDataPath: "/data" }, 300), 270);
    assert.equal(victoriaMaxLookbackSeconds({ "search.latencyOffset": "0s" }, 300), 300);
    assert.equal(victoriaMaxLookbackSeconds({ "search.latencyOffset": "1m30s" }, 120), 30);
    assert.equal(victoriaMaxLookbackSeconds({ "search.latencyOffset": "500ms" }, 120), 119);
  });

  test("no look-back where the offset leaves none or cannot be read: the heartbeat stays", () => {
    assert.equal(victoriaMaxLookbackSeconds({ "search.latencyOffset": "2m" }, 120), null);
    assert.equal(victoriaMaxLookbackSeconds({}, 30), null);
    assert.equal(victoriaMaxLookbackSeconds({ "search.latencyOffset": "soon" }, 300), null);
  });

  test("Go durations", () => {
    assert.deepEqual(["0", "0s", "30s", "1m0s", "1h2m3.5s", "250ms", "x", "5"].map(parseGoDurationMs), [
      0,
      0,
      30_000,
      60_000,
      3_723_500,
      250,
      null,
      null,
    ]);
  });
});
