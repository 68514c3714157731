import { type GpuSlots, parseSlots } from "../../checks/claim-target.ts";
import { addDays, localDayOf } from "../../checks/local-day.ts";
import {
  type ClaimReservationLimit,
  claimReservationLimit,
  localMinuteMs,
  NEXT_WINDOW_HORIZON_DAYS,
  type Reservation,
  type ReservationWindow,
  reservationsClash,
  reservedAt,
  windowsBetween,
} from "../../checks/reservation-window.ts";
import type { Config } from "../../config/schema.ts";
import { type Clock, DAY_MS, HOUR_MS } from "../../shared/clock.ts";
import type { BotStateStore } from "../../store/bot-state-store.ts";

/** What the reservation use-cases read and write. */
export interface ReservationDeps {
  state: Pick<BotStateStore, "reservations" | "audit" | "transaction">;
  config: Pick<Config, "reservations" | "team" | "slack" | "projects">;
  clock: Clock;
}

const WEEKDAY_NAMES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

/** `weekdays`, `daily`, `weekends`, `mon,wed` → ISO weekdays. */
export function weekdaysOf(every: string): number[] {
  if (every === "weekdays") return [1, 2, 3, 4, 5];
  if (every === "weekends") return [6, 7];
  if (every === "daily") return [1, 2, 3, 4, 5, 6, 7];
  return every.split(",").map((name) => WEEKDAY_NAMES.indexOf(name as (typeof WEEKDAY_NAMES)[number]) + 1);
}

/** `HH:MM` (or `24:00`) → minutes after midnight. */
export function minutesOf(time: string): number {
  const [hours, minutes] = time.split(":").map(Number) as [number, number];
  return hours * 60 + minutes;
}

/** The standing reservations of `reservations:` in the config, with ids -1, -2, … */
export function configReservations(config: Pick<Config, "reservations">): Reservation[] {
  return config.reservations.map((entry, i) => {
    const parsed = parseSlots(entry.gpus);
    const slots: GpuSlots = parsed.ok ? parsed.slots : { host: entry.gpus, gpus: null };
    return {
      id: -(i + 1),
      user: entry.user,
      project: entry.project,
      host: slots.host,
      gpus: slots.gpus,
      day: null,
      weekdays: weekdaysOf(entry.every),
      startMin: minutesOf(entry.from),
      endMin: minutesOf(entry.to),
      note: entry.note,
    };
  });
}

/** Every reservation in force or to come: stored ones not cancelled and the config's. */
export function allReservations(deps: ReservationDeps): Reservation[] {
  return [...deps.state.reservations.live(), ...configReservations(deps.config)];
}

/** The members of `project` (`projects:` in the config); empty for a project not there. */
function projectMembers(config: Pick<Config, "projects">, project: string): readonly string[] {
  return config.projects[project]?.members ?? [];
}

/** Whether `user` may use GPUs during `reservation`'s windows: its holder, or a member of its project. */
export function mayUseReservation(
  config: Pick<Config, "projects">,
  user: string,
  reservation: Reservation,
): boolean {
  if (reservation.user === user) return true;
  return reservation.project !== null && projectMembers(config, reservation.project).includes(user);
}

/** When a new reservation holds: one local day (resolved from today / tomorrow / a date) or weekly. */
export type ReserveWhen =
  | { kind: "today" }
  | { kind: "tomorrow" }
  | { kind: "day"; day: string }
  | { kind: "every"; weekdays: readonly number[] };

export interface ReserveRequest {
  actor: string;
  slots: GpuSlots;
  when: ReserveWhen;
  startMin: number;
  endMin: number;
  note: string;
  /** A project (`projects:` in the config) whose members may claim during the window; the actor must be one. */
  project?: string | null;
}

export type ReserveResult =
  | { kind: "reserved"; reservation: Reservation; next: ReservationWindow | null }
  /** Someone holds (part of) that window. */
  | { kind: "overlap"; holder: Reservation; window: ReservationWindow | null }
  /** A one-off window that has already ended. */
  | { kind: "past"; untilMs: number }
  /** The actor is not a member of the project named (or there is no such project). */
  | { kind: "not-member"; project: string };

/**
 * `/gpu reserve`: holds `slots` in a window of local time, once or weekly, unless a reservation of
 * the same GPUs overlaps it (refused, naming who holds it). Check and insert are one transaction.
 * Audited (`reserve`, `reserve-refused`).
 */
export function reserveGpus(deps: ReservationDeps, request: ReserveRequest): ReserveResult {
  const nowMs = deps.clock.now();
  const zone = deps.config.team.timezone;
  const today = localDayOf(nowMs, zone);
  const { when } = request;
  const day =
    when.kind === "today"
      ? today
      : when.kind === "tomorrow"
        ? addDays(today, 1)
        : when.kind === "day"
          ? when.day
          : null;
  const project = request.project ?? null;
  if (project !== null && !projectMembers(deps.config, project).includes(request.actor)) {
    return { kind: "not-member", project };
  }
  const wanted: Reservation = {
    id: 0,
    user: request.actor,
    project,
    host: request.slots.host,
    gpus: request.slots.gpus,
    day,
    weekdays: when.kind === "every" ? when.weekdays : null,
    startMin: request.startMin,
    endMin: request.endMin,
    note: request.note,
  };
  if (day !== null) {
    const untilMs = localMinuteMs(day, request.endMin, zone);
    if (untilMs <= nowMs) return { kind: "past", untilMs };
  }
  return deps.state.transaction((): ReserveResult => {
    const holder = allReservations(deps).find(
      (other) => !isPastOneOff(other, nowMs, zone) && reservationsClash(wanted, other),
    );
    if (holder !== undefined) {
      deps.state.audit.record({
        atMs: nowMs,
        actor: request.actor,
        action: "reserve-refused",
        host: wanted.host,
        detail: { wanted: describe(wanted), heldBy: holder.user, reservationId: holder.id },
      });
      return { kind: "overlap", holder, window: currentOrNext(holder, nowMs, zone) };
    }
    const { id: _id, ...fields } = wanted;
    const stored = deps.state.reservations.add({ ...fields, createdAtMs: nowMs });
    deps.state.audit.record({
      atMs: nowMs,
      actor: request.actor,
      action: "reserve",
      host: stored.host,
      detail: { reservationId: stored.id, ...describe(stored) },
    });
    return { kind: "reserved", reservation: stored, next: currentOrNext(stored, nowMs, zone) };
  });
}

function describe(reservation: Reservation): Record<string, unknown> {
  const { user, project, host, gpus, day, weekdays, startMin, endMin, note } = reservation;
  return { user, project, host, gpus, day, weekdays, startMin, endMin, note };
}

function isPastOneOff(reservation: Reservation, nowMs: number, zone: string): boolean {
  return reservation.day !== null && localMinuteMs(reservation.day, reservation.endMin, zone) <= nowMs;
}

/** The window in force now, else the next one (a week ahead at most for standing ones). */
export function currentOrNext(
  reservation: Reservation,
  nowMs: number,
  zone: string,
): ReservationWindow | null {
  const horizon = reservation.day === null ? NEXT_WINDOW_HORIZON_DAYS * DAY_MS : 400 * DAY_MS;
  return windowsBetween(reservation, nowMs, nowMs + horizon, zone)[0] ?? null;
}

export type CancelReservationResult =
  | { kind: "cancelled"; reservation: Reservation }
  | { kind: "not-found"; id: number }
  | { kind: "not-yours"; reservation: Reservation }
  /** A standing reservation from the config: change the config instead. */
  | { kind: "config"; reservation: Reservation };

/** `/gpu reserve cancel <id>`: the holder or an admin cancels a stored reservation. Audited (`reserve-cancel`). */
export function cancelReservation(deps: ReservationDeps, actor: string, id: number): CancelReservationResult {
  const nowMs = deps.clock.now();
  if (id < 0) {
    const fromConfig = configReservations(deps.config).find((reservation) => reservation.id === id);
    if (fromConfig !== undefined) return { kind: "config", reservation: fromConfig };
  }
  return deps.state.transaction((): CancelReservationResult => {
    const found = deps.state.reservations.byId(id);
    if (found === null || found.cancelledAtMs !== null) return { kind: "not-found", id };
    if (found.user !== actor && !deps.config.slack.admins.includes(actor)) {
      return { kind: "not-yours", reservation: found };
    }
    deps.state.reservations.cancel(id, nowMs, actor);
    deps.state.audit.record({
      atMs: nowMs,
      actor,
      action: "reserve-cancel",
      host: found.host,
      detail: { reservationId: id, ...describe(found) },
    });
    return { kind: "cancelled", reservation: found };
  });
}

/** Reservations with their window now or next (past one-offs left out), soonest first. */
export function listReservations(
  deps: ReservationDeps,
  user: string | null = null,
): Array<{ reservation: Reservation; window: ReservationWindow | null }> {
  const nowMs = deps.clock.now();
  const zone = deps.config.team.timezone;
  return allReservations(deps)
    .filter((reservation) => user === null || mayUseReservation(deps.config, user, reservation))
    .filter((reservation) => !isPastOneOff(reservation, nowMs, zone))
    .map((reservation) => ({ reservation, window: currentOrNext(reservation, nowMs, zone) }))
    .sort(
      (a, b) => (a.window?.fromMs ?? Number.MAX_SAFE_INTEGER) - (b.window?.fromMs ?? Number.MAX_SAFE_INTEGER),
    );
}

/** What reservations do to `actor`'s claim of `slots` from now to `untilMs` (see {@link claimReservationLimit}). */
export function claimLimitOf(
  deps: ReservationDeps,
  actor: string,
  slots: ReadonlyArray<Pick<Reservation, "host" | "gpus">>,
  nowMs: number,
  untilMs: number,
): ClaimReservationLimit {
  return claimReservationLimit(allReservations(deps), slots, nowMs, untilMs, deps.config.team.timezone, (r) =>
    mayUseReservation(deps.config, actor, r),
  );
}

/** Per host, the window in force now or the next one within `horizonMs` (for status and alerts). */
export function hostReservation(
  deps: ReservationDeps,
  host: string,
  horizonMs = NEXT_WINDOW_HORIZON_DAYS * DAY_MS,
): ReservationWindow | null {
  const nowMs = deps.clock.now();
  const zone = deps.config.team.timezone;
  const windows = allReservations(deps)
    .filter((reservation) => reservation.host === host)
    .flatMap((reservation) => windowsBetween(reservation, nowMs, nowMs + horizonMs, zone))
    .sort((a, b) => a.fromMs - b.fromMs);
  return windows[0] ?? null;
}

/** How soon a reserved host is kept from being stopped without a word (the idle alert says so). */
export const RESERVED_SOON_MS = HOUR_MS;

/** `seats` without the GPUs someone else's reservation window holds now (a `count` claim picks from the rest). */
export function withoutReservedSeats<T extends { host: string; index: number }>(
  deps: ReservationDeps,
  actor: string,
  seats: readonly T[],
  nowMs: number,
): T[] {
  const others = allReservations(deps).filter(
    (reservation) => !mayUseReservation(deps.config, actor, reservation),
  );
  if (others.length === 0) return [...seats];
  const zone = deps.config.team.timezone;
  return seats.filter(
    (seat) => reservedAt(others, { host: seat.host, gpus: [seat.index] }, nowMs, zone).length === 0,
  );
}

/** Each reserved host's window in force now or next (within a week), by host name; `host` narrows it to one. */
export function reservedHosts(deps: ReservationDeps, host: string | null = null): ReservationWindow[] {
  const hosts = [...new Set(allReservations(deps).map((reservation) => reservation.host))]
    .filter((name) => host === null || name === host)
    .sort();
  return hosts.flatMap((name) => hostReservation(deps, name) ?? []);
}

/** The host's reservation window in force now or starting within the hour: it is not stopped automatically. */
export function reservedSoon(deps: ReservationDeps, host: string): ReservationWindow | null {
  return hostReservation(deps, host, RESERVED_SOON_MS);
}

/** The hosts {@link reservedSoon} holds now, from one read of the reservations (a pass over the fleet). */
export function reservedSoonHosts(deps: ReservationDeps): Set<string> {
  const nowMs = deps.clock.now();
  const zone = deps.config.team.timezone;
  const hosts = new Set<string>();
  for (const reservation of allReservations(deps)) {
    if (hosts.has(reservation.host)) continue;
    if (windowsBetween(reservation, nowMs, nowMs + RESERVED_SOON_MS, zone).length > 0)
      hosts.add(reservation.host);
  }
  return hosts;
}

/** Reservations read once for a grant pass: the seats a person may be granted, and how long. */
export interface GrantReservations {
  /** `seats` without those someone else's window holds now. */
  seatsFor<T extends { host: string; index: number }>(user: string, seats: readonly T[]): readonly T[];
  /** What reservations do to `user`'s grant of `slots` until `untilMs`. */
  limitFor(
    user: string,
    slots: ReadonlyArray<{ host: string; gpuIndex: number | null }>,
    untilMs: number,
  ): ClaimReservationLimit;
}

/** {@link GrantReservations} at `nowMs`; with no reservations, it lets everything through unchanged. */
export function grantReservations(deps: ReservationDeps, nowMs: number): GrantReservations {
  const reservations = allReservations(deps);
  const zone = deps.config.team.timezone;
  if (reservations.length === 0) {
    return {
      seatsFor: (_user, seats) => seats,
      limitFor: (_user, _slots, untilMs) => ({ kind: "free", untilMs }),
    };
  }
  const others = (user: string) => reservations.filter((r) => !mayUseReservation(deps.config, user, r));
  return {
    seatsFor(user, seats) {
      const held = others(user);
      return seats.filter(
        (seat) => reservedAt(held, { host: seat.host, gpus: [seat.index] }, nowMs, zone).length === 0,
      );
    },
    limitFor(user, slots, untilMs) {
      const asked = slots.map((slot) => ({
        host: slot.host,
        gpus: slot.gpuIndex === null ? null : [slot.gpuIndex],
      }));
      return claimReservationLimit(reservations, asked, nowMs, untilMs, zone, (r) =>
        mayUseReservation(deps.config, user, r),
      );
    },
  };
}
