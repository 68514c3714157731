import assert from "node:assert/strict";
import { test } from "node:test";
import type { HostRecord } from "../../src/domain/metrics.ts";
import type { Source } from "../../src/domain/source.ts";
import { inCluster } from "../../src/sources/cluster-source.ts";

const record = (name: string): HostRecord => ({
  name,
  source: "prometheus",
  firstSeenMs: 0,
  gpus: [{ index: 0, uuid: `GPU-${name}`, model: "H100", memTotalMiB: 81_559, mig: false, firstSeenMs: 0 }],
});

test("a cluster's source recalls only its own hosts from the store, by their names in the cluster", () => {
  const recalled: { hosts: readonly HostRecord[]; atMs: number }[] = [];
  const source: Source = {
    kind: "prometheus",
    hosts: [],
    poll: async () => [],
    recall: (hosts, atMs) => recalled.push({ hosts, atMs }),
  };
  inCluster(source, "b").recall!(
    [record("a/node-1"), record("b/node-1"), record("b/node-2"), record("bb/node-3")],
    42,
  );
  const own = (name: string) => ({ ...record(`b/${name}`), name });
  assert.deepEqual(recalled, [{ hosts: [own("node-1"), own("node-2")], atMs: 42 }]);
  assert.equal(inCluster({ kind: "local", hosts: [], poll: async () => [] }, "b").recall, undefined);
});
