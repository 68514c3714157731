import type { AutopilotPlan } from "../../checks/autopilot-plan.ts";
import type { RecentInput } from "../../checks/recent-input.ts";
import type { ReservationWindow } from "../../checks/reservation-window.ts";
import type { GpuProcess, LoginSession } from "../../domain/observation.ts";
import type { RenderedMessage } from "../ports.ts";
import type { StartNote } from "../power/start-facts.ts";
import type { DoneNote, StopNote } from "../power/stop-facts.ts";

/**
 * What the alert use-cases (idle alerts, no-data notices, suspect readings, stop follow-ups) tell
 * people, as data: the facts of each message. The surface turns them into words through
 * {@link AlertWords} (the bot's views implement it).
 */

/** Turns the alert use-cases' facts into Slack messages. */
export interface AlertWords {
  /** The open idle alert. */
  idle(view: IdleAlertView): RenderedMessage;
  /** The DM an owner or claimant (`view.reader`) gets just before the channel alert. */
  direct(view: AlertDirectMessageView): RenderedMessage;
  /** The thread reply that brings the cost warden in. */
  escalation(view: AlertEscalationView): string;
  /** The no-data notice, open or back. */
  noData(view: NoDataView): RenderedMessage;
  /** The idle alert once it is over. */
  resolved(view: ResolvedAlertView): RenderedMessage;
  /** The DM about a GPU's implausible readings. */
  suspectReading(view: SuspectReadingView): RenderedMessage;
  /**
   * For the stopped alert's thread (the one place it is said): the host kept reporting after the
   * stop; it names whoever pressed Stop, or the owners after an automatic stop, so Slack tells them.
   */
  stopDoubtThread(view: StopDoubtView): string;
  /** A host action's note for the alert's thread. */
  note(note: AlertNote): string;
  /** The same note as a DM to `reader`, in their language. */
  noteTo(reader: string, note: AlertNote): string;
  /** The autopilot's one warning DM (to `view.reader`) about a planned stop, with Keep. */
  autopilotWarning(view: AutopilotWarningView): RenderedMessage;
  /** For the alert's thread as the autopilot stops the host: the evidence it acted on. */
  autopilotStopping(view: AutopilotStopView): string;
  /** A DM to whoever kept the host: their Keep ended, what it kept having left the host (see `keepOutlived`). */
  autopilotKeepEnded(view: AutopilotKeepEndedView): string;
}

/** A Keep the autopilot ended: the host has had nothing on it since `emptySinceMs`. */
export interface AutopilotKeepEndedView {
  reader: string;
  host: string;
  /** When the Keep would have ended. */
  keptUntilMs: number;
  emptySinceMs: number;
  nowMs: number;
}

/** The autopilot's warning, as one reader gets it. */
export interface AutopilotWarningView {
  reader: string;
  plan: AutopilotPlan;
  nowMs: number;
  /** `policy.keep_until_tomorrow_at`, e.g. `09:00`. */
  keepUntilTomorrowAt: string;
  /**
   * When *Keep until tomorrow* pressed now would end: `keep_until_tomorrow_at` on the next working
   * day (the button names the day when that is not tomorrow); absent: tomorrow.
   */
  keepTomorrowUntilMs?: number | undefined;
  /** The stop would only show what it runs. */
  dryRun: boolean;
  /** The host has a `pre_stop` hook (a checkpoint), run before the stop. */
  preStop: boolean;
}

/** The evidence of a stop the autopilot begins. */
export interface AutopilotStopView {
  plan: AutopilotPlan;
  nowMs: number;
}

/** What a host action tells the alert's thread: a keep (`capMs`: the span it was cut to), or a stop's progress. */
export type AlertNote =
  | {
      kind: "kept";
      host: string;
      user: string;
      untilMs: number;
      nowMs: number;
      /** The longest keep allowed, when the request was cut to it. */
      capMs: number | null;
    }
  | StopNote
  | DoneNote
  | StartNote;

/** One GPU as the alert shows it. */
export interface AlertGpu {
  index: number;
  /** Latest utilisation; `null` when unknown. */
  utilPct: number | null;
  memUsedMiB: number | null;
  memTotalMiB: number | null;
  /** Who holds the memory, from the latest observation. */
  processes: readonly GpuProcess[];
  /** Utilisation per sparkline column, oldest first; `null` columns had no reading. */
  history: readonly (number | null)[];
}

/** Everything the open idle alert shows; instants are epoch ms, shown in `timezone`. */
export interface IdleAlertView {
  alertId: number;
  host: string;
  nowMs: number;
  idleSinceMs: number;
  timezone: string;
  currency: string;
  /** The host's `cost_per_hour`; `null` leaves money out. */
  costPerHour: number | null;
  /** What a stop saves per hour (the part of `costPerHour` that stops when the host is off); `null`/none: not said. */
  savesPerHour?: number | null;
  gpus: readonly AlertGpu[];
  /** The span the sparkline columns cover. */
  historyMinutes: number;
  /** `null`: the source cannot see login sessions. */
  sessions: readonly LoginSession[] | null;
  owners: readonly string[];
  claimants: readonly string[];
  snooze: { untilMs: number; byUser: string } | null;
  /** When the automatic stop is due (the countdown); `null`: no automatic stop. */
  autoStopAtMs: number | null;
  /** The cost warden the alert was escalated to. */
  escalatedTo: string | null;
  /** A stop that is running for this alert, and who asked for it. */
  stopping: { actor: string } | null;
  /** `policy.keep_until_tomorrow_at`, e.g. `09:00`. */
  keepUntilTomorrowAt: string;
  /**
   * When *Keep until tomorrow* pressed now would end: `keep_until_tomorrow_at` on the next working
   * day (the button names the day when that is not tomorrow); absent: tomorrow.
   */
  keepTomorrowUntilMs?: number | undefined;
  /** The stop would only show what it runs. */
  dryRun: boolean;
  /** An earlier stop of this host after which it kept reporting; `null`: none. */
  stopDoubt?: {
    stoppedAtMs: number;
    earlierAlertAtMs: number | null;
    earlierAlertLink: string | null;
  } | null;
  /** A reservation window in force or starting within the hour: no automatic stop, and the alert says whose. */
  reservedSoon?: ReservationWindow | null;
  /** Logins holding processes or sessions on the host: from 2, the alert offers *Done with mine*. */
  sharedBy?: number;
  /** People who typed on the host recently (see `recentInputMinutes`): the Stop confirm names them. */
  recentInput?: readonly RecentInput[];
}

export interface AlertDirectMessageView {
  /** Who gets the DM (a Slack user id): it is written in their language. */
  reader: string;
  host: string;
  idleSinceMs: number;
  nowMs: number;
  timezone: string;
  currency: string;
  costPerHour: number | null;
  /** Why this person hears first. */
  role: "owner" | "claimant";
  /** Where the alert is: a channel id (`C…`) or name (`#gpu`). */
  channel: string;
}

export interface AlertEscalationView {
  host: string;
  warden: string;
  idleSinceMs: number;
  nowMs: number;
  currency: string;
  costPerHour: number | null;
}

export interface NoDataView {
  host: string;
  /** First poll without data. */
  sinceMs: number;
  /**
   * When the host's latest real reading was taken (from the store, the idle checks or the source);
   * `null`: none on record. The notice dates the outage from it, not from the bot's first poll.
   */
  lastSampleAtMs: number | null;
  /** Why the host is unknown: the latest failed observation's message, or what its reading lacked. */
  cause: UnknownCause | null;
  nowMs: number;
  /** The team's zone: every time in the notice is in it. */
  timezone: string;
  /** When data came back; `null` while the notice is open. */
  backAtMs: number | null;
}

/**
 * Why a host is unknown: its latest failed observation (`message`: the source's one line, naming the
 * host), or a reading without GPUs, with `count` of `total` GPUs lacking a utilisation, or a gap.
 */
export type UnknownCause =
  | { kind: "failed"; message: string }
  | { kind: "no-gpus" }
  | { kind: "no-reading"; count: number; total: number }
  | { kind: "gap" };

/**
 * How an idle alert ended, with what the resolved message says about it:
 * - `busy`: GPU work or an active session came back;
 * - `stopped`: the stop workflow ran (`actor` a user id, anything else is the bot itself);
 * - `suspect`: a GPU reports an implausible reading (full utilisation, no memory, idle power);
 * - `unknown`: no data (`cause`: the latest failure), so the bot cannot tell: never "idle";
 * - `snoozed`: someone kept the host;
 * - `exempt`: the host is `never_stop` now;
 * - `policy`: under the current policy the host no longer counts as idle.
 */
export type AlertEnding =
  | { kind: "busy" }
  | { kind: "suspect"; gpus: readonly number[] }
  | { kind: "stopped"; actor: string | null; dryRun: boolean }
  | { kind: "unknown"; cause: UnknownCause | null }
  | { kind: "snoozed"; untilMs: number | null; byUser: string | null }
  | { kind: "exempt" }
  | { kind: "policy" };

export interface ResolvedAlertView {
  host: string;
  idleSinceMs: number;
  endedAtMs: number;
  nowMs: number;
  timezone: string;
  currency: string;
  costPerHour: number | null;
  ending: AlertEnding;
  /** The host has a `start` action: a stopped alert offers *Start*. */
  startable?: boolean;
}

/** One GPU with an implausible reading, as the notice shows it. */
export interface SuspectGpuView {
  index: number;
  utilPct: number;
  memUsedMiB: number | null;
  powerW: number | null;
}

export interface SuspectReadingView {
  /** Who gets the DM (a Slack user id): it is written in their language. */
  reader: string;
  host: string;
  /** The GPUs that turned suspect in this poll (the ones this person has not been told about). */
  gpus: readonly SuspectGpuView[];
  sinceMs: number;
  nowMs: number;
  timezone: string;
  /** Why this person hears it: they own the host, or it has no owner and they are the cost warden. */
  role: "owner" | "warden";
}

/** A stop that exited 0 (or answered 2xx) after which the host kept reporting. */
export interface StopDoubtView {
  host: string;
  /** When the stop command finished. */
  stoppedAtMs: number;
  /** Who pressed Stop (a user id), or the bot for an automatic stop. */
  actor: string;
  /** Who is asked to check the host after an automatic stop (its owners); empty after a person's stop. */
  owners: readonly string[];
  /** The host's latest reading. */
  lastReportAtMs: number;
  nowMs: number;
  timezone: string;
}
