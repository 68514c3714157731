import type { HostAuthority } from "../authorise.ts";
import type { UnknownHost } from "./action-text.ts";
import type { StepRun } from "./stop-facts.ts";

/** What asked for a start: `/gpu start`, a *Start* button, a claim, a queue grant, a reservation about to open. */
/**
 * What started a host: a person (`command`, `button`), a claim, a queue grant, a reservation, or the
 * start-ahead: of a host used every working day (`usual`), or of the host that costs least to keep on
 * for the team's morning (`morning`).
 */
export type StartTrigger = "command" | "button" | "claim" | "grant" | "reservation" | "usual" | "morning";

/**
 * The start of a host, kept in the store (one per host, the latest): `running` while the action runs,
 * `started` once it succeeded and the bot waits for the host to report, `up` when it did, `failed`
 * (the action failed) or `unconfirmed` (no report within `policy.start_grace_minutes`). A start is
 * tied to the stop it undoes (`stopRunId`; `null` for a host the bot did not stop), so each stop is
 * undone at most once however many claims arrive together.
 */
export interface StartRun {
  host: string;
  stopRunId: number | null;
  state: "running" | "started" | "up" | "failed" | "unconfirmed";
  actor: string;
  trigger: StartTrigger;
  /** Whom to tell when the host reports again (or does not): the people who asked or claimed. */
  waiters: string[];
  startedAtMs: number;
  finishedAtMs: number | null;
}

/** Why a start was refused, as data. */
export type StartRefusalFacts =
  | { reason: "unknown-host"; unknown: UnknownHost }
  | { reason: "not-allowed"; authority: HostAuthority; projects: readonly string[] }
  | { reason: "no-start-action" }
  | { reason: "already-up"; lastOkAtMs: number; nowMs: number };

/**
 * What a start tells the alert's thread and the people waiting for the host, as data:
 * - `start-running`: it begins (`actor` `null`: the bot, for `user`'s claim, grant or reservation);
 * - `started`: the action succeeded, the host has `graceMinutes` to report; `start-failed`: it did not;
 * - `start-up`: the host reports again; `start-unconfirmed`: it did not within the grace period;
 * - `start-dry-run`: what would have run.
 */
export type StartNote =
  | {
      kind: "start-running";
      host: string;
      actor: string | null;
      trigger: StartTrigger;
      user: string | null;
      steps: readonly string[];
    }
  | { kind: "started"; host: string; step: StepRun; graceMinutes: number }
  | { kind: "start-failed"; host: string; step: StepRun }
  | { kind: "start-up"; host: string; startedAtMs: number; nowMs: number }
  | { kind: "start-unconfirmed"; host: string; startedAtMs: number; nowMs: number; graceMinutes: number }
  | { kind: "start-dry-run"; host: string; actor: string; steps: readonly string[] };
