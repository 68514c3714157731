/** A would-be false stop of a what-if replay: what the stop would have hit. */
export interface WouldBeFalseStop {
  /** `process`: a GPU process (memory held) at the stop; `login`: a login session; `work-soon`: work on the host within the hours after. */
  reason: "process" | "login" | "work-soon";
  /** When the work showed (the stop itself for `process` and `login`). */
  atMs: number;
  /** Who held the host, when the store can tell (the latest holders, held without a break since); else `null`. */
  owners: readonly string[] | null;
}

/** One stop a policy would have made in a replay. Money in the team currency. */
export interface WhatIfStop {
  host: string;
  atMs: number;
  /** Since when every GPU had been idle; `null` when one was busy at the stop. */
  idleSinceMs: number | null;
  /** When the history shows the host needed again (a GPU busy, or a login): the replayed start; `null`: not before the end. */
  backAtMs: number | null;
  /** Hours the host was on in the history while the replay had it off. */
  offHours: number;
  /** Those hours at the host's price: the capacity freed; `null` without a price. */
  capacityFreed: number | null;
  /** Those hours at what a stop saves (a cloud price; a bought host's power); `null` without a price. */
  moneySaved: number | null;
  falseStop: WouldBeFalseStop | null;
}

/** One policy's replay over the fleet. */
export interface WhatIfPolicyReport {
  policy: string;
  stops: WhatIfStop[];
  offHours: number;
  capacityFreed: number;
  moneySaved: number;
  /** Hosts with a stop but no price (their money is not in the totals). */
  unpricedHosts: string[];
  falseStops: number;
}

/** Where a replay's history came from, and so what it could see. */
export interface WhatIfHistory {
  /**
   * Hosts replayed from a time-series engine's history (a Prometheus-compatible source): per GPU its
   * utilisation, memory, power and Kubernetes pods at each step; no login sessions and no process owners.
   */
  engineHosts: number;
  /** The step the engine was read at, ms; `null` when no engine was read. */
  engineStepMs: number | null;
  /** Hosts replayed from the store's raw readings (local and SSH sources; an engine's hosts it did not give). */
  storeHosts: number;
  /** Why an engine did not answer: its hosts were replayed from the store, which keeps hours of them by default. */
  engineFailures: string[];
}

/** `gpu-warden what-if`: what each policy would have done over the fleet's history. */
export interface WhatIfReport {
  /** The span replayed: the oldest sample in the span asked, to the newest. `null` without samples. */
  fromMs: number | null;
  toMs: number | null;
  /** The start of the span asked (`--since`). */
  askedFromMs: number;
  timezone: string;
  currency: string;
  hosts: string[];
  history: WhatIfHistory;
  policies: WhatIfPolicyReport[];
}
