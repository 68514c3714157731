import type { HostObservation } from "../../src/domain/observation.ts";
import { workHoursIn } from "../helpers/work-hours.ts";
import { host } from "./ledger-rig.ts";

/** Shared by `post-summary.test.ts` and its child bot process. */
export const CHANNEL = "C0GPUTEAM";
export const ZONE = "Europe/Berlin";
export const CAROL = "U0CAROL";
export const DAVE = "U0DAVE";
const H = 3_600_000;

/** Every other Monday at 10:00 Berlin from 2 March 2026: 16 March (10:00 CET) is a slot, … */
export const P0 = Date.UTC(2026, 2, 16, 9, 0);
/** … and so is 30 March, 10:00 CEST, the day after the clocks went forward. */
export const P1 = Date.UTC(2026, 2, 30, 8, 0);
export const HISTORY_FROM = Date.UTC(2026, 1, 10);
export const HISTORY_TO = Date.UTC(2026, 3, 5);

export const CONFIG = {
  team: { timezone: ZONE, name: "ml-infra", currency: "EUR" },
  slack: { channel: CHANNEL, admins: [DAVE] },
  warden: { roster: [CAROL] },
  summary: { weekday: "monday", time: "10:00", start_date: "2026-03-02" },
  hosts: {
    "gpu-a": { purchase_price: 120_000, owners: ["U0ALICE"] },
    "cloud-b": { cost_per_hour: 3 },
  },
};

const workHours = workHoursIn(ZONE);

/** gpu-a trains on weekdays 9–17 on one of its GPUs; cloud-b idles at 4 %. */
export function observe(atMs: number): HostObservation[] {
  const work = workHours(atMs);
  return [host("gpu-a", atMs, [work ? 85 : 0, 0, 3, 1]), host("cloud-b", atMs, [4, 4])];
}

export const STEP_MS = H / 6;
