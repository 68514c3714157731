import assert from "node:assert/strict";
import { test } from "node:test";
import { createMetrics } from "../../src/observability/metrics.ts";

test("gpu_warden_outbox_pending reads the outbox when /metrics is scraped", async () => {
  let pending = 3;
  const metrics = createMetrics({ outboxPending: () => pending });
  assert.match(await metrics.registry.metrics(), /^gpu_warden_outbox_pending 3$/m);
  pending = 0;
  assert.match(await metrics.registry.metrics(), /^gpu_warden_outbox_pending 0$/m);
});
