import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { isDcgmBlank } from "../../src/sources/prom-value.ts";
import { FIXTURES_DIR } from "../helpers/fixtures.ts";
import { type PromText, PromTextParseError, parsePromText } from "../helpers/parse-prom-text.ts";

const fixtures = `${FIXTURES_DIR}/`;
const read = (path: string) => readFileSync(`${fixtures}${path}`, "utf8");

function one(parsed: PromText, name: string, labels: Record<string, string> = {}) {
  const found = parsed.samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  assert.equal(found.length, 1, `exactly one ${name} ${JSON.stringify(labels)}`);
  return found[0]!;
}

describe("parsePromText over every exporter fixture", () => {
  for (const dir of ["dcgm-exporter", "node-exporter", "kube-state-metrics", "cadvisor"]) {
    for (const file of readdirSync(`${fixtures}${dir}`)) {
      test(`${dir}/${file} parses`, () => {
        const parsed = parsePromText(read(`${dir}/${file}`));
        assert.ok(parsed.samples.length > 0);
        for (const sample of parsed.samples) assert.match(sample.name, /^[a-zA-Z_:][a-zA-Z0-9_:]*$/);
      });
    }
  }
});

describe("dcgm-exporter fixtures", () => {
  test("L4 full scrape: 23 families with HELP and TYPE, exact readings and labels", () => {
    const parsed = parsePromText(read("dcgm-exporter/L4-idle-default-counters__cncf-kops.prom"));
    assert.equal(parsed.samples.length, 23);
    assert.equal(parsed.families.size, 23);
    assert.deepEqual(parsed.families.get("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"), {
      name: "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
      type: "counter",
      help: "Total energy consumption since boot (in mJ).",
    });
    const util = one(parsed, "DCGM_FI_DEV_GPU_UTIL");
    assert.deepEqual(util.labels, {
      gpu: "0",
      UUID: "GPU-c2f76b33-7953-256e-8f33-1343419b1a1c",
      pci_bus_id: "00000000:31:00.0",
      device: "nvidia0",
      modelName: "NVIDIA L4",
      Hostname: "i-030791dc5a37cd257",
      DCGM_FI_DRIVER_VERSION: "580.105.08",
    });
    assert.equal(util.value, 0);
    assert.equal(util.timestampMs, null);
    assert.equal(one(parsed, "DCGM_FI_DEV_FB_FREE").value, 22563);
    assert.equal(one(parsed, "DCGM_FI_DEV_FB_USED").value, 0);
    assert.equal(one(parsed, "DCGM_FI_DEV_FB_RESERVED").value, 470);
    assert.equal(one(parsed, "DCGM_FI_DEV_POWER_USAGE").value, 16.365);
    assert.equal(one(parsed, "DCGM_FI_DEV_GPU_TEMP").value, 31);
    assert.equal(one(parsed, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION").value, 4742776);
    assert.equal(one(parsed, "DCGM_FI_PROF_GR_ENGINE_ACTIVE").value, 0);
    assert.equal(one(parsed, "DCGM_FI_PROF_PCIE_RX_BYTES").value, 17544);
  });

  test("L40S full scrape", () => {
    const parsed = parsePromText(read("dcgm-exporter/L40S-idle-default-counters__cncf-upcloud.prom"));
    assert.equal(parsed.samples.length, 23);
    const temp = one(parsed, "DCGM_FI_DEV_GPU_TEMP");
    assert.equal(temp.value, 32);
    assert.equal(temp.labels.modelName, "NVIDIA L40S");
    assert.equal(temp.labels.Hostname, "gpu1-wl8sg");
    assert.equal(one(parsed, "DCGM_FI_DEV_POWER_USAGE").value, 35.686);
    assert.equal(one(parsed, "DCGM_FI_DEV_FB_FREE").value, 45459);
    assert.equal(one(parsed, "DCGM_FI_DEV_FB_RESERVED").value, 608);
    assert.equal(one(parsed, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION").value, 5551899580);
  });

  test("T4 under load, no HELP/TYPE lines", () => {
    const parsed = parsePromText(read("dcgm-exporter/T4-busy-no-help__cncf-ericsson-ccd.prom"));
    assert.equal(parsed.samples.length, 20);
    assert.equal(parsed.families.size, 0);
    assert.equal(one(parsed, "DCGM_FI_DEV_GPU_UTIL").value, 91);
    assert.equal(one(parsed, "DCGM_FI_DEV_FB_USED").value, 5120);
    assert.equal(one(parsed, "DCGM_FI_DEV_FB_FREE").value, 9791);
    assert.equal(one(parsed, "DCGM_FI_DEV_POWER_USAGE").value, 68.244);
    assert.equal(one(parsed, "DCGM_FI_PROF_GR_ENGINE_ACTIVE").value, 0.156205);
    assert.equal(one(parsed, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE").value, 0.005822);
    assert.equal(one(parsed, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION").value, 15152422938);
    assert.equal(one(parsed, "DCGM_FI_DEV_GPU_UTIL").labels.Hostname, "cp-bm14r7");
  });

  test("8×H100 with pod attribution on GPU 0 only", () => {
    const parsed = parsePromText(read("dcgm-exporter/k8s-8xH100-podlabels-sampled__aicr.prom"));
    assert.equal(parsed.samples.length, 30);
    const gpu0 = one(parsed, "DCGM_FI_DEV_POWER_USAGE", { gpu: "0" });
    assert.equal(gpu0.value, 113.611);
    assert.equal(gpu0.labels.pod, "vllm-agg-0-vllmdecodeworker-s65j5");
    assert.equal(gpu0.labels.namespace, "dynamo-workload");
    assert.equal(gpu0.labels.container, "main");
    assert.equal(gpu0.labels.pod_uid, "");
    const temps = parsed.samples.filter((sample) => sample.name === "DCGM_FI_DEV_GPU_TEMP");
    assert.deepEqual(
      temps.map((sample) => [sample.labels.gpu, sample.value, sample.labels.pod ?? null]),
      [
        ["0", 30, "vllm-agg-0-vllmdecodeworker-s65j5"],
        ["1", 29, null],
        ["2", 26, null],
        ["3", 29, null],
        ["4", 28, null],
        ["5", 26, null],
        ["6", 28, null],
        ["7", 26, null],
      ],
    );
    assert.equal(one(parsed, "DCGM_FI_DEV_POWER_USAGE", { gpu: "7" }).value, 66.997);
    assert.equal(parsed.samples.filter((sample) => sample.name === "DCGM_FI_DEV_GPU_UTIL").length, 8);
    assert.equal(parsed.samples.filter((sample) => sample.name === "DCGM_FI_DEV_MEM_COPY_UTIL").length, 6);
  });

  test("MIG A100: whole-GPU and GPU-instance series, no GPU_UTIL", () => {
    const parsed = parsePromText(
      read("dcgm-exporter/A100-MIG-1g.5gb-busy-no-help__nvidia-cloud-native-docs.prom"),
    );
    assert.equal(parsed.samples.length, 21);
    assert.equal(parsed.samples.filter((sample) => sample.name === "DCGM_FI_DEV_GPU_UTIL").length, 0);
    const whole = parsed.samples.filter(
      (sample) => sample.name === "DCGM_FI_PROF_GR_ENGINE_ACTIVE" && sample.labels.GPU_I_ID === undefined,
    );
    assert.equal(whole.length, 1);
    assert.equal(whole[0]!.value, 0.99563);
    const instance = one(parsed, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", { GPU_I_ID: "13" });
    assert.equal(instance.value, 0.995687);
    assert.equal(instance.labels.GPU_I_PROFILE, "1g.5gb");
    assert.equal(instance.labels.Hostname, "ub20-a100-k8s");
    assert.equal(one(parsed, "DCGM_FI_DEV_FB_USED").value, 4845);
    assert.equal(one(parsed, "DCGM_FI_DEV_FB_FREE").value, 35690);
    assert.equal(one(parsed, "DCGM_FI_DEV_POWER_USAGE").value, 409.692);
    assert.equal(one(parsed, "DCGM_FI_DEV_GPU_TEMP").value, 61);
  });

  test("the DCGM blank sentinel reads as no reading; labels spaced with ', '", () => {
    const parsed = parsePromText(read("dcgm-exporter/blank-sentinel-memory-temp__dcgm-exporter-readme.prom"));
    assert.equal(parsed.samples.length, 3);
    assert.deepEqual(parsed.samples[0], {
      name: "DCGM_FI_DEV_SM_CLOCK",
      labels: { gpu: "0", UUID: "GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52" },
      value: 139,
      timestampMs: null,
    });
    assert.equal(parsed.samples[1]!.value, 405);
    assert.equal(parsed.samples[2]!.name, "DCGM_FI_DEV_MEMORY_TEMP");
    assert.equal(parsed.samples[2]!.value, null);
  });
});

test("node_exporter fixture: 89 samples, 14 families (some without samples)", () => {
  const parsed = parsePromText(read("node-exporter/e2e-output-TRIMMED-cpu-load-mem-net__node_exporter.prom"));
  assert.equal(parsed.samples.length, 89);
  assert.equal(parsed.families.size, 14);
  assert.equal(parsed.families.get("node_network_receive_bytes_total")?.type, "counter");
  assert.equal(parsed.samples.filter((sample) => sample.name === "node_cpu_seconds_total").length, 64);
  assert.equal(one(parsed, "node_load1").value, 0.21);
  assert.deepEqual(one(parsed, "node_load1").labels, {});
  assert.equal(one(parsed, "node_load5").value, 0.37);
  assert.equal(one(parsed, "node_boot_time_seconds").value, 1418183276);
  assert.equal(one(parsed, "node_memory_MemTotal_bytes").value, 3831959552);
  assert.equal(one(parsed, "node_cpu_seconds_total", { cpu: "0", mode: "idle" }).value, 10870.69);
  assert.equal(one(parsed, "node_cpu_seconds_total", { cpu: "7", mode: "user" }).value, 290.98);
  assert.equal(one(parsed, "node_cpu_seconds_total", { cpu: "1", mode: "steal" }).value, 0);
  assert.equal(one(parsed, "node_cpu_guest_seconds_total", { cpu: "7", mode: "user" }).value, 0.09);
});

describe("kube-state-metrics fixtures", () => {
  test("pod requests: GPU as resource nvidia_com_gpu, never nvidia.com/gpu", () => {
    const parsed = parsePromText(
      read("kube-state-metrics/ksm-pod-metrics-fake-pod-with-1-gpu__ksm-server_test.prom"),
    );
    assert.equal(parsed.samples.length, 24);
    const gpu = one(parsed, "kube_pod_container_resource_requests", { resource: "nvidia_com_gpu" });
    assert.deepEqual(gpu.labels, {
      namespace: "default",
      pod: "pod0",
      uid: "abc-0",
      container: "pod1_con1",
      node: "node1",
      resource: "nvidia_com_gpu",
      unit: "integer",
    });
    assert.equal(gpu.value, 1);
    assert.equal(
      one(parsed, "kube_pod_container_resource_requests", { container: "pod1_con1", resource: "cpu" }).value,
      0.2,
    );
    assert.equal(
      one(parsed, "kube_pod_container_resource_requests", { container: "pod1_con2", resource: "cpu" }).value,
      0.3,
    );
    assert.equal(
      one(parsed, "kube_pod_container_resource_requests", { container: "pod1_con1", resource: "memory" })
        .value,
      1e8,
    );
    assert.equal(one(parsed, "kube_pod_info").labels.node, "node1");
    assert.equal(one(parsed, "kube_pod_status_phase", { phase: "Running" }).value, 1);
    assert.equal(
      parsed.samples.some((sample) => sample.labels.resource === "nvidia.com/gpu"),
      false,
    );
  });

  test("node allocatable and capacity", () => {
    const parsed = parsePromText(
      read("kube-state-metrics/ksm-node-allocatable-capacity-nvidia_com_gpu__ksm-node_test.prom"),
    );
    assert.equal(parsed.samples.length, 16);
    assert.equal(one(parsed, "kube_node_status_capacity", { resource: "nvidia_com_gpu" }).value, 4);
    assert.equal(one(parsed, "kube_node_status_allocatable", { resource: "nvidia_com_gpu" }).value, 1);
    assert.equal(one(parsed, "kube_node_status_capacity", { resource: "cpu" }).value, 4.3);
    assert.equal(one(parsed, "kube_node_info").labels.system_uuid, "6a934e21-5207-4a84-baea-3a952d926c80");
  });
});

test("cAdvisor fixture: explicit millisecond timestamps", () => {
  const parsed = parsePromText(read("cadvisor/standalone-cadvisor-TRIMMED-cpu-mem__cadvisor-testdata.prom"));
  assert.equal(parsed.samples.length, 13);
  assert.equal(parsed.families.size, 10);
  const cpu = one(parsed, "container_cpu_usage_seconds_total", { cpu: "cpu01" });
  assert.equal(cpu.value, 3e-9);
  assert.equal(cpu.timestampMs, 1395066363000);
  assert.equal(cpu.labels.name, "testcontaineralias");
  assert.equal(one(parsed, "container_memory_working_set_bytes").value, 9);
  assert.equal(one(parsed, "container_spec_cpu_quota").timestampMs, null);
  assert.equal(one(parsed, "container_last_seen").value, 1395066363);
});

describe("format edge cases", () => {
  test("escaped label values, trailing comma, NaN and ±Inf, timestamps, # EOF", () => {
    const parsed = parsePromText(
      [
        "# HELP weird A help with a \\\\ backslash\\nand a newline.",
        "# TYPE weird gauge",
        'weird{path="C:\\\\temp",quote="say \\"hi\\"",nl="a\\nb",} NaN',
        'weird{kind="up"} +Inf 1700000000000',
        'weird{kind="down"} -Inf -5',
        "bare 1.5e+09",
        '  spaced { a = "1" , b="2" }   7   ',
        "# just a comment",
        "# EOF",
        "",
      ].join("\r\n"),
    );
    assert.equal(parsed.families.get("weird")?.help, "A help with a \\ backslash\nand a newline.");
    const [first, up, down, bare, spaced] = parsed.samples;
    assert.deepEqual(first!.labels, { path: "C:\\temp", quote: 'say "hi"', nl: "a\nb" });
    assert.ok(Number.isNaN(first!.value));
    assert.equal(up!.value, Number.POSITIVE_INFINITY);
    assert.equal(up!.timestampMs, 1700000000000);
    assert.equal(down!.value, Number.NEGATIVE_INFINITY);
    assert.equal(down!.timestampMs, -5);
    assert.equal(bare!.value, 1.5e9);
    assert.deepEqual(spaced!.labels, { a: "1", b: "2" });
    assert.equal(spaced!.value, 7);
    assert.equal(parsed.samples.length, 5);
  });

  test("DCGM blank sentinels (int64, int32, fp64 families) are no reading on DCGM_* metrics only", () => {
    const parsed = parsePromText(
      [
        "DCGM_FI_DEV_GPU_UTIL 9223372036854775792",
        "DCGM_FI_DEV_GPU_UTIL 9223372036854775807",
        "DCGM_FI_DEV_POWER_USAGE 140737488355330",
        "DCGM_FI_DEV_GPU_TEMP 2147483634",
        "DCGM_FI_DEV_GPU_TEMP 2147483631",
        "node_network_receive_bytes_total 9223372036854775794",
      ].join("\n"),
    );
    assert.deepEqual(
      parsed.samples.map((sample) => sample.value),
      [null, null, null, null, 2147483631, 2 ** 63],
    );
    assert.equal(isDcgmBlank(140737488355328), true);
    assert.equal(isDcgmBlank(140737488355328.5), false);
    assert.equal(isDcgmBlank(99.5), false);
  });

  test("a malformed line names its line number", () => {
    assert.throws(
      () => parsePromText('ok 1\nbroken{a="1" 2\n'),
      (error: unknown) => {
        assert.ok(error instanceof PromTextParseError);
        assert.equal(error.line, 2);
        assert.match(error.message, /^line 2: expected , or } after label a: broken\{a="1" 2$/);
        return true;
      },
    );
    assert.throws(() => parsePromText("m one"), /line 1: bad value "one"/);
    assert.throws(() => parsePromText("m 1 1.5"), /bad timestamp "1.5"/);
    assert.throws(() => parsePromText('m{a="1",a="2"} 1'), /duplicate label a/);
    assert.throws(() => parsePromText('m{a="1} 1'), /unterminated value of label a/);
  });
});
