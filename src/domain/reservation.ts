/**
 * Reservations: GPUs of a host held for someone (or a project) in a window of local time in the
 * team zone, once (`day`) or every week on some weekdays. Windows are wall-clock times on local
 * days, turned into instants per day, so a window on the day the clocks change still runs from
 * 09:00 to 18:00 local time (and lasts 9 hours). Pure.
 */
export interface Reservation {
  /** Stored id; config reservations have negative ids and cannot be cancelled by command. */
  id: number;
  /** Slack user id of the holder. */
  user: string;
  /** The project whose members may claim during the window too (`null`: the holder only). */
  project: string | null;
  host: string;
  /** GPU indexes, or `null`: the whole host. */
  gpus: readonly number[] | null;
  /** A one-off window's local day (`YYYY-MM-DD`); `null` for a standing reservation. */
  day: string | null;
  /** A standing reservation's ISO weekdays (1 Monday … 7 Sunday); `null` for a one-off. */
  weekdays: readonly number[] | null;
  /** Minutes after local midnight: `startMin < endMin <= 1440`. */
  startMin: number;
  endMin: number;
  note: string;
}

/** One window of a reservation, as instants. */
export interface ReservationWindow {
  reservation: Reservation;
  fromMs: number;
  untilMs: number;
}
