import type { Database } from "better-sqlite3";
import type { Reservation } from "../domain/reservation.ts";

/** A reservation as stored: who made it, when, and whether it was cancelled. */
export interface StoredReservation extends Reservation {
  createdAtMs: number;
  cancelledAtMs: number | null;
  cancelledBy: string | null;
}

export type NewReservation = Omit<Reservation, "id"> & { createdAtMs: number };

/** Reservations made with `/gpu reserve` (config ones are not stored). Write inside a transaction. */
export interface ReservationStore {
  add(reservation: NewReservation): StoredReservation;
  byId(id: number): StoredReservation | null;
  /** Reservations not cancelled, in id order (past one-off windows included). */
  live(): StoredReservation[];
  /** Marks a live reservation cancelled; false when it was not live. */
  cancel(id: number, atMs: number, by: string): boolean;
}

interface ReservationRow {
  id: number;
  user: string;
  project: string | null;
  host: string;
  gpus: string | null;
  day: string | null;
  weekdays: string | null;
  start_min: number;
  end_min: number;
  note: string;
  created_ms: number;
  cancelled_ms: number | null;
  cancelled_by: string | null;
}

export function createReservationStore(db: Database): ReservationStore {
  const insert = db.prepare(
    `INSERT INTO reservation (user, project, host, gpus, day, weekdays, start_min, end_min, note, created_ms)
     VALUES (@user, @project, @host, @gpus, @day, @weekdays, @start_min, @end_min, @note, @created_ms)`,
  );
  const selectById = db.prepare("SELECT * FROM reservation WHERE id = ?");
  const selectLive = db.prepare("SELECT * FROM reservation WHERE cancelled_ms IS NULL ORDER BY id");
  const markCancelled = db.prepare(
    "UPDATE reservation SET cancelled_ms = ?, cancelled_by = ? WHERE id = ? AND cancelled_ms IS NULL",
  );
  const byId = (id: number): StoredReservation | null => {
    const row = selectById.get(id) as ReservationRow | undefined;
    return row === undefined ? null : fromRow(row);
  };
  return {
    add(reservation) {
      const { lastInsertRowid } = insert.run({
        user: reservation.user,
        project: reservation.project,
        host: reservation.host,
        gpus: reservation.gpus === null ? null : JSON.stringify(reservation.gpus),
        day: reservation.day,
        weekdays: reservation.weekdays === null ? null : JSON.stringify(reservation.weekdays),
        start_min: reservation.startMin,
        end_min: reservation.endMin,
        note: reservation.note,
        created_ms: reservation.createdAtMs,
      });
      return byId(Number(lastInsertRowid)) as StoredReservation;
    },
    byId,
    live: () => (selectLive.all() as ReservationRow[]).map(fromRow),
    cancel: (id, atMs, by) => markCancelled.run(atMs, by, id).changes === 1,
  };
}

function fromRow(row: ReservationRow): StoredReservation {
  return {
    id: row.id,
    user: row.user,
    project: row.project,
    host: row.host,
    gpus: row.gpus === null ? null : (JSON.parse(row.gpus) as number[]),
    day: row.day,
    weekdays: row.weekdays === null ? null : (JSON.parse(row.weekdays) as number[]),
    startMin: row.start_min,
    endMin: row.end_min,
    note: row.note,
    createdAtMs: row.created_ms,
    cancelledAtMs: row.cancelled_ms,
    cancelledBy: row.cancelled_by,
  };
}
