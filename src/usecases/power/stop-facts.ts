import type { HostAuthority } from "../authorise.ts";
import type { UnknownHost } from "./action-text.ts";

/**
 * Why the re-check finds a host not idle now, as data (the surfaces word it):
 * - `busy`: the GPUs at or above the threshold, busiest first (slot labels);
 * - `in-use`: active login sessions (users, terminals);
 * - `no-data`: no answer since `lastOkAtMs` (`null`: never), `cause` the failure's one-line message;
 * - `no-gpus`, `no-reading`: the host answers but reports no GPUs, or GPUs without a utilisation;
 * - `suspect`: GPUs reporting full utilisation with no memory held at idle power.
 */
export type HostNowFacts =
  | { reason: "busy"; gpus: readonly { slot: string; utilPct: number }[] }
  | { reason: "in-use"; users: readonly string[]; lines: readonly string[] }
  | { reason: "no-data"; lastOkAtMs: number | null; nowMs: number; cause: string | null }
  | { reason: "no-gpus" }
  | { reason: "no-reading"; slots: readonly string[] }
  | { reason: "suspect"; slots: readonly string[] };

/** Why a stop was refused, as data. */
export type StopRefusalFacts =
  | { reason: "unknown-host"; unknown: UnknownHost }
  | { reason: "not-allowed"; authority: HostAuthority }
  | { reason: "never-stop" | "no-stop-action" }
  | { reason: "already-running" | "already-stopped"; actor: string; atMs: number; nowMs: number }
  | { reason: "kept" | "claimed"; user: string; untilMs: number; nowMs: number }
  | { reason: "not-idle"; status: string | null }
  | HostNowFacts;

/** How a stop step ended: killed or unanswered at its timeout, not run, an exit code, an HTTP status. */
export type StepEnd =
  | { kind: "killed" | "no-answer"; seconds: number }
  | { kind: "not-run" }
  | { kind: "exited"; code: number }
  | { kind: "http"; status: number };

/** One step that ran: what it was (`ssh gpu-a sudo poweroff`), how it ended, its output's tail. */
export interface StepRun {
  description: string;
  end: StepEnd;
  tail: string;
}

/**
 * What a stop tells the alert's thread and the person who asked, as data:
 * - `stop-running`: it begins (`actor` `null`: automatic, with the `reason` code); `overrode` what an admin forced past;
 * - `stop-cancelled`: an automatic stop did not go ahead, and why;
 * - `stopped`, `stop-failed` (`stage`: the pre-stop step or the stop), `stop-dry-run`: how it ended;
 * - `stop-interrupted`: the bot died while it ran; ended at a later start (`answering`: the re-check
 *   finds the host still reporting).
 */
export type StopNote =
  | {
      kind: "stop-running";
      host: string;
      actor: string | null;
      steps: readonly string[];
      overrode: HostNowFacts | null;
    }
  | { kind: "stop-cancelled"; host: string; refusal: StopRefusalFacts }
  | { kind: "stopped"; host: string; actor: string | null; forced: boolean; step: StepRun }
  | { kind: "stop-failed"; host: string; stage: "pre_stop" | "stop"; step: StepRun }
  | { kind: "stop-dry-run"; host: string; actor: string; forced: boolean; steps: readonly string[] }
  | { kind: "stop-interrupted"; host: string; actor: string | null; answering: boolean };

/**
 * Who still holds a host after a *Done with mine*: people (Slack ids: `team.logins`, claimants),
 * logins nobody maps to a person, and whether a GPU process of unknown owner is there.
 */
export interface StillOnIt {
  people: readonly string[];
  logins: readonly string[];
  unknownProcesses: boolean;
}

/** `user` said *Done with mine* on the host's alert; it stops once everyone in `others` has too. */
export interface DoneNote {
  kind: "done-with-mine";
  host: string;
  user: string;
  others: StillOnIt;
}
