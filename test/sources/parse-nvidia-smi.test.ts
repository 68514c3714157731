import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  attachProcesses,
  COMPUTE_APPS_FIELDS,
  type ComputeApp,
  GPU_QUERY_FIELDS,
  NvidiaSmiError,
  parseComputeApps,
  parseGpuQuery,
} from "../../src/sources/parse-nvidia-smi.ts";
import { listFixtures, readFixture } from "../helpers/fixtures.ts";

const CAPTURES = "nvidia-smi/utkuozdemir-captures";
const MASKED_UUID = "GPU-00000000-0000-0000-0000-000000000000";

/** [utilPct, memUsedMiB, memTotalMiB, powerW, tempC, mig, model] per capture, as read from the files. */
type GpuRow = [number | null, number, number, number, number, boolean, string];
const RTX2080 = "NVIDIA GeForce RTX 2080 SUPER";
const RTX4080 = "NVIDIA GeForce RTX 4080 SUPER";
const H100 = "NVIDIA H100 80GB HBM3";
const EXPECTED_GPUS: Record<string, GpuRow> = {
  "linux-x86_64__nvidia-geforce-rtx-2080-super__595.71.05__idle": [0, 214, 8192, 39.32, 40, false, RTX2080],
  "linux-x86_64__nvidia-geforce-rtx-2080-super__595.71.05__load": [8, 819, 8192, 111.5, 45, false, RTX2080],
  "linux-x86_64__nvidia-geforce-rtx-2080-super__610.57.04__idle": [0, 211, 8192, 39.17, 33, false, RTX2080],
  "linux-x86_64__nvidia-geforce-rtx-2080-super__610.57.04__load": [8, 815, 8192, 98.14, 38, false, RTX2080],
  "linux-x86_64__nvidia-geforce-rtx-4080-super__595.71.05__idle": [0, 596, 16376, 26.2, 43, false, RTX4080],
  "linux-x86_64__nvidia-geforce-rtx-4080-super__595.71.05__load": [7, 1474, 16376, 84.24, 46, false, RTX4080],
  "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__idle": [0, 0, 81559, 69.85, 41, false, H100],
  "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__load": [100, 19818, 81559, 631.95, 59, false, H100],
  "linux-x86_64__nvidia-h100-mig__590.48.01__idle": [null, 59, 81559, 71.15, 42, true, H100],
  "linux-x86_64__nvidia-h100-mig__590.48.01__load": [null, 11125, 81559, 433.78, 53, true, H100],
  "linux-x86_64__nvidia-h200__590.48.01__idle": [0, 0, 143771, 77.71, 28, false, "NVIDIA H200"],
  "linux-x86_64__nvidia-h200__590.48.01__load": [100, 32362, 143771, 627.4, 52, false, "NVIDIA H200"],
  // NOTE: the real L40S idle capture says 100 % with nothing on the card; kept as read.
  "linux-x86_64__nvidia-l40s__595.80__idle": [100, 0, 46068, 144.97, 63, false, "NVIDIA L40S"],
  "linux-x86_64__nvidia-l40s__595.80__load": [9, 1235, 46068, 110.23, 54, false, "NVIDIA L40S"],
  "windows-x86_64__nvidia-geforce-rtx-2080-super__591.86__idle": [0, 702, 8192, 38.92, 40, false, RTX2080],
  "windows-x86_64__nvidia-geforce-rtx-2080-super__591.86__load": [7, 1296, 8192, 97.43, 45, false, RTX2080],
};

const WIN_IDLE_PIDS = [12444, 15076, 2056, 12332, 20372, 4680, 14160, 14184, 16280, 24804];
const MEMHOG = "/root/tools/memhog";
/** [pid, name, usedMemoryMiB] per capture; Windows rows are checked apart. */
const EXPECTED_APPS: Record<string, Array<[number, string, number]>> = {
  "linux-x86_64__nvidia-geforce-rtx-2080-super__595.71.05__idle": [],
  "linux-x86_64__nvidia-geforce-rtx-2080-super__595.71.05__load": [
    [5268, "ffmpeg", 370],
    [5267, "ffmpeg", 230],
  ],
  "linux-x86_64__nvidia-geforce-rtx-2080-super__610.57.04__idle": [],
  "linux-x86_64__nvidia-geforce-rtx-2080-super__610.57.04__load": [
    [28512, "ffmpeg", 370],
    [28511, "ffmpeg", 230],
  ],
  "linux-x86_64__nvidia-geforce-rtx-4080-super__595.71.05__idle": [[2165, "/usr/bin/kwin_wayland", 25]],
  "linux-x86_64__nvidia-geforce-rtx-4080-super__595.71.05__load": [
    [2165, "/usr/bin/kwin_wayland", 25],
    [5022, "ffmpeg", 503],
    [5021, "ffmpeg", 360],
  ],
  "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__idle": [],
  "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__load": [
    [11327, MEMHOG, 2566],
    [11328, MEMHOG, 1542],
    [11345, "./gpu_burn", 15690],
  ],
  "linux-x86_64__nvidia-h100-mig__590.48.01__idle": [],
  "linux-x86_64__nvidia-h100-mig__590.48.01__load": [
    [21180, MEMHOG, 2296],
    [21181, MEMHOG, 1272],
    [21198, "./gpu_burn", 7484],
  ],
  "linux-x86_64__nvidia-h200__590.48.01__idle": [],
  "linux-x86_64__nvidia-h200__590.48.01__load": [
    [10291, MEMHOG, 2566],
    [10293, MEMHOG, 1542],
    [10309, "./gpu_burn", 28234],
  ],
  "linux-x86_64__nvidia-l40s__595.80__idle": [],
  "linux-x86_64__nvidia-l40s__595.80__load": [
    [20037, "ffmpeg", 538],
    [20038, "ffmpeg", 681],
  ],
};

function captureKey(file: string, suffix: string): string {
  return file.slice(0, -`__${suffix}.csv`.length);
}

describe("parseGpuQuery over the real --format=csv captures", () => {
  const files = listFixtures(CAPTURES).filter((file) => file.endsWith("__query-gpu.csv"));

  test("every capture has an expectation", () => {
    assert.deepEqual(
      files.map((file) => captureKey(file, "query-gpu")).sort(),
      Object.keys(EXPECTED_GPUS).sort(),
    );
  });

  for (const file of files) {
    test(file, () => {
      const row = EXPECTED_GPUS[captureKey(file, "query-gpu")];
      assert.ok(row, `no expectation for ${file}`);
      const [utilPct, memUsedMiB, memTotalMiB, powerW, tempC, mig, model] = row;
      assert.deepEqual(parseGpuQuery(readFixture(CAPTURES, file)), [
        {
          index: 0,
          uuid: MASKED_UUID,
          model,
          utilPct,
          memUsedMiB,
          memTotalMiB,
          powerW,
          tempC,
          mig,
          processes: [],
        },
      ]);
    });
  }

  test("the same file parses when the caller also names its own fields", () => {
    const text = readFixture(CAPTURES, "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__load__query-gpu.csv");
    assert.deepEqual(parseGpuQuery(text, GPU_QUERY_FIELDS), parseGpuQuery(text));
  });
});

describe("parseComputeApps over the real --format=csv captures", () => {
  const files = listFixtures(CAPTURES).filter((file) => file.endsWith("__query-compute-apps.csv"));

  test("every capture has an expectation", () => {
    const linux = files.filter((file) => file.startsWith("linux"));
    assert.deepEqual(
      linux.map((file) => captureKey(file, "query-compute-apps")).sort(),
      Object.keys(EXPECTED_APPS).sort(),
    );
    assert.equal(files.length - linux.length, 2);
  });

  for (const file of files.filter((f) => f.startsWith("linux"))) {
    test(file, () => {
      const expected = EXPECTED_APPS[captureKey(file, "query-compute-apps")] ?? [];
      assert.deepEqual(
        parseComputeApps(readFixture(CAPTURES, file)),
        expected.map(
          ([pid, name, usedMemoryMiB]): ComputeApp => ({ gpuUuid: MASKED_UUID, pid, name, usedMemoryMiB }),
        ),
      );
    });
  }

  test("Windows desktop processes: [N/A] memory is no reading", () => {
    const idle = parseComputeApps(
      readFixture(
        CAPTURES,
        "windows-x86_64__nvidia-geforce-rtx-2080-super__591.86__idle__query-compute-apps.csv",
      ),
    );
    assert.deepEqual(
      idle.map((app) => app.pid),
      WIN_IDLE_PIDS,
    );
    assert.deepEqual(idle[2], {
      gpuUuid: MASKED_UUID,
      pid: 2056,
      name: "C:\\Windows\\System32\\dwm.exe",
      usedMemoryMiB: null,
    });
    assert.equal(idle[4]?.name, "C:\\Program Files\\NZXT CAM\\NZXT CAM.exe");
    assert.ok(idle.every((app) => app.usedMemoryMiB === null));

    const load = parseComputeApps(
      readFixture(
        CAPTURES,
        "windows-x86_64__nvidia-geforce-rtx-2080-super__591.86__load__query-compute-apps.csv",
      ),
    );
    assert.deepEqual(
      load.map((app) => app.pid),
      [...WIN_IDLE_PIDS, 25704, 26660],
    );
    assert.ok(load.every((app) => app.usedMemoryMiB === null && app.gpuUuid === MASKED_UUID));
    assert.equal(
      load[11]?.name,
      "C:\\Users\\utku\\AppData\\Local\\Microsoft\\WinGet\\Packages\\Gyan.FFmpeg_Microsoft.Winget.Source_8wekyb3d8bbwe\\ffmpeg-8.1.1-full_build\\bin\\ffmpeg.exe",
    );
  });
});

describe("other nvidia-smi fixtures", () => {
  test("H100 pod: a header with only utilisation and power; the GPU is numbered by position", () => {
    const text = readFixture("nvidia-smi", "query-gpu-csv-header-units__H100-busy-in-k8s-pod__aicr.csv");
    assert.deepEqual(parseGpuQuery(text), [
      {
        index: 0,
        uuid: null,
        model: null,
        utilPct: 100,
        memUsedMiB: null,
        memTotalMiB: null,
        powerW: 290.28,
        tempC: null,
        mig: false,
        processes: [],
      },
    ]);
  });

  const mockGpuFields = [
    "index",
    "uuid",
    "name",
    "temperature.gpu",
    "utilization.gpu",
    "memory.used",
    "memory.total",
  ];
  const mockGpus = () =>
    parseGpuQuery(
      readFixture(
        "nvidia-smi",
        "mock-from-tests",
        "query-gpu-noheader-nounits__3xTitanX-NotSupported__gpustat-2016-mock.csv",
      ),
      mockGpuFields,
    );
  const mockApps = () =>
    parseComputeApps(
      readFixture(
        "nvidia-smi",
        "mock-from-tests",
        "query-compute-apps-noheader-nounits__3xTitanX-NotSupported__gpustat-2016-mock.csv",
      ),
      ["gpu_uuid", "pid", "used_memory"],
    );

  test("gpustat mock, noheader,nounits: [Not Supported] utilisation is null, not 0", () => {
    const gpu = (index: number, uuid: string, tempC: number, utilPct: number | null, memUsedMiB: number) => ({
      index,
      uuid,
      model: "GeForce GTX TITAN X",
      utilPct,
      memUsedMiB,
      memTotalMiB: 12287,
      powerW: null,
      tempC,
      mig: false,
      processes: [],
    });
    assert.deepEqual(mockGpus(), [
      gpu(0, "GPU-10fb0fbd-2696-43f3-467f-d280d906a107", 80, 76, 8000),
      gpu(1, "GPU-d1df4664-bb44-189c-7ad0-ab86c8cb30e2", 36, 0, 9000),
      gpu(2, "GPU-50205d95-57b6-f541-2bcb-86c09afed564", 71, null, 8520),
    ]);
  });

  test("gpustat mock compute apps: [Not Supported] pid and memory are null; processes land on their GPUs", () => {
    const apps = mockApps();
    assert.deepEqual(apps.at(-1), {
      gpuUuid: "GPU-50205d95-57b6-f541-2bcb-86c09afed564",
      pid: null,
      name: "",
      usedMemoryMiB: null,
    });
    const owners = new Map([
      [48448, "alice"],
      [192453, "bob"],
    ]);
    const { gpus, unattached } = attachProcesses(mockGpus(), apps, owners);
    assert.deepEqual(unattached, []);
    assert.deepEqual(
      gpus.map((gpu) => gpu.processes.map((p) => [p.pid, p.user, p.usedMemoryMiB])),
      [
        [
          [48448, "alice", 4000],
          [153223, null, 4000],
        ],
        [
          [192453, "bob", 3000],
          [194826, null, 6000],
        ],
        [
          [38310, null, 4245],
          [null, null, null],
        ],
      ],
    );
  });

  test("the shell's command-not-found line is a command-not-found error", () => {
    const text = readFixture("nvidia-smi", "error-command-not-found-in-pod-without-gpu__cncf-kops.txt");
    assert.throws(
      () => parseGpuQuery(text, GPU_QUERY_FIELDS),
      new NvidiaSmiError("command-not-found", "bash: line 1: nvidia-smi: command not found"),
    );
    assert.throws(() => parseComputeApps(text, COMPUTE_APPS_FIELDS), { reason: "command-not-found" });
  });
});

describe("noheader,nounits output with the sources' own fields", () => {
  const line = (...values: string[]) => values.join(", ");

  test("plain values, MIG and every kind of bracketed value", () => {
    const text = [
      line("0", "GPU-a", "NVIDIA A100-SXM4-80GB", "97", "70321", "81920", "312.55", "61", "Disabled"),
      line("1", "GPU-b", "NVIDIA A100-SXM4-80GB", "[N/A]", "10240", "81920", "90.00", "40", "Enabled"),
      line(
        "2",
        "GPU-c",
        "NVIDIA A100-SXM4-80GB",
        "[Not Supported]",
        "[N/A]",
        "81920",
        "[Unknown Error]",
        "39",
        "[N/A]",
      ),
      line(
        "3",
        "GPU-d",
        "Tesla T4",
        "[Requested functionality has been deprecated]",
        "0",
        "15360",
        "[GPU requires reset]",
        "[N/A]",
        "[N/A]",
      ),
    ].join("\n");
    const gpus = parseGpuQuery(text, GPU_QUERY_FIELDS);
    assert.deepEqual(
      gpus.map((g) => [g.index, g.uuid, g.utilPct, g.memUsedMiB, g.memTotalMiB, g.powerW, g.tempC, g.mig]),
      [
        [0, "GPU-a", 97, 70321, 81920, 312.55, 61, false],
        [1, "GPU-b", null, 10240, 81920, 90, 40, true],
        [2, "GPU-c", null, null, 81920, null, 39, false],
        [3, "GPU-d", null, 0, 15360, null, null, false],
      ],
    );
  });

  test("a process name with ', ' in it stays one name", () => {
    const apps = parseComputeApps("GPU-a, 4242, python train.py --tags a, b, 1234\n", COMPUTE_APPS_FIELDS);
    assert.deepEqual(apps, [
      { gpuUuid: "GPU-a", pid: 4242, name: "python train.py --tags a, b", usedMemoryMiB: 1234 },
    ]);
  });

  test("no compute apps is no processes", () => {
    assert.deepEqual(parseComputeApps("", COMPUTE_APPS_FIELDS), []);
    assert.deepEqual(parseComputeApps("\n", COMPUTE_APPS_FIELDS), []);
  });

  test("a warning line between the rows is skipped", () => {
    const text = `WARNING: infoROM is corrupted at gpu 0000:02:00.0\n${line("0", "GPU-a", "Tesla T4", "5", "100", "15360", "27.1", "50", "[N/A]")}\n`;
    assert.equal(parseGpuQuery(text, GPU_QUERY_FIELDS)[0]?.utilPct, 5);
  });
});

describe("failures are typed errors with one clear line", () => {
  const cases: Array<[string, string, NvidiaSmiError]> = [
    ["empty output", "", new NvidiaSmiError("parse-error", "nvidia-smi --query-gpu printed nothing")],
    ["blank lines", "\n\n", new NvidiaSmiError("parse-error", "nvidia-smi --query-gpu printed nothing")],
    [
      "driver down",
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n\n",
      new NvidiaSmiError(
        "driver-error",
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
      ),
    ],
    ["no devices", "No devices were found\n", new NvidiaSmiError("driver-error", "No devices were found")],
    [
      "NVML",
      "Failed to initialize NVML: Driver/library version mismatch\n",
      new NvidiaSmiError("driver-error", "Failed to initialize NVML: Driver/library version mismatch"),
    ],
    [
      "dash",
      "sh: 1: nvidia-smi: not found\n",
      new NvidiaSmiError("command-not-found", "sh: 1: nvidia-smi: not found"),
    ],
    [
      "garbage",
      "lorem ipsum dolor\nsit amet\n",
      new NvidiaSmiError(
        "parse-error",
        'nvidia-smi --query-gpu: expected 9 values on a line, got 1: "lorem ipsum dolor"',
      ),
    ],
    [
      "a number that is not one",
      "0, GPU-a, Tesla T4, lots, 100, 15360, 27.1, 50, [N/A]\n",
      new NvidiaSmiError("parse-error", 'nvidia-smi: utilization.gpu is "lots", not a number'),
    ],
    [
      "an old driver that does not know a field",
      'Field "mig.mode.current" is not a valid field to query.\n',
      new NvidiaSmiError("parse-error", 'Field "mig.mode.current" is not a valid field to query.'),
    ],
  ];
  for (const [name, text, error] of cases) {
    test(name, () => {
      assert.throws(() => parseGpuQuery(text, GPU_QUERY_FIELDS), error);
    });
  }

  test("garbage without a field list has no header to go by", () => {
    assert.throws(() => parseGpuQuery("<html>oops</html>\n"), {
      reason: "parse-error",
      message: 'nvidia-smi --query-gpu printed no CSV header: "<html>oops</html>"',
    });
  });

  test("compute apps garbage is a parse error too", () => {
    assert.throws(() => parseComputeApps("Segmentation fault\n", COMPUTE_APPS_FIELDS), {
      reason: "parse-error",
    });
  });
});
