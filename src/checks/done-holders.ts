import type { DoneMark } from "../domain/done-mark.ts";
import type { HostObservation } from "../domain/observation.ts";
import { MINUTE_MS } from "../shared/clock.ts";
import type { RecentInput } from "./recent-input.ts";

/**
 * The people whose *Done with mine* still holds on the host: none of their sessions there (their
 * logins in `team.logins`) has input after they said it, and none of their GPU processes there is new
 * since (a pid not among the mark's). Input within the minute of the press is the press itself
 * (sessions report whole idle minutes); a session of unknown age or a process without a pid ends the
 * mark, as does no reading (nothing shows they stayed away). Pure.
 */
export function stillDone(
  marks: readonly DoneMark[],
  observation: HostObservation | null,
  logins: Readonly<Record<string, readonly string[]>>,
): string[] {
  if (observation === null || !observation.ok) return [];
  const processes = observation.gpus.flatMap((gpu) => gpu.processes);
  return marks
    .filter((mark) => {
      const own = new Set(logins[mark.user] ?? []);
      const noInput = (observation.sessions ?? [])
        .filter((session) => own.has(session.user))
        .every(
          (session) =>
            session.idleMinutes !== null &&
            observation.atMs - session.idleMinutes * MINUTE_MS <= mark.atMs + MINUTE_MS,
        );
      const noNewWork = processes
        .filter((process) => process.user !== null && own.has(process.user))
        .every((process) => process.pid !== null && mark.pids.includes(process.pid));
      return noInput && noNewWork;
    })
    .map((mark) => mark.user);
}

/** Recent input of people who said *Done with mine* is not a warning: they let their sessions go. */
export function withoutDone(
  recent: readonly RecentInput[],
  done: readonly string[],
  logins: Readonly<Record<string, readonly string[]>>,
): RecentInput[] {
  const gone = new Set(done.flatMap((user) => logins[user] ?? []));
  return recent.filter((input) => !gone.has(input.user));
}
