import type { Database } from "better-sqlite3";

const HOUR_MS = 3_600_000;

/** How long packs are kept: two summary periods and a week to spare. Older hours are read from `gpu_hour`. */
export const PACK_DAYS = 35;

/** One clock hour's GPU rollups, by `gpu_id`; `NaN` is "no value". */
export interface HourPack {
  hourMs: number;
  gpuIds: Int32Array;
  utilMeanPct: Float64Array;
  busyMinutes: Float64Array;
  idleMinutes: Float64Array;
  /** `null` when not asked for. */
  unknownMinutes: Float64Array | null;
  energyWh: Float64Array;
}

/** The hour packs of `gpu_hour_pack` (schema step 15). */
export interface HourPacks {
  /** Packs the rollups of the hour starting at `hourMs` (replacing its pack); call inside the rollup's transaction. */
  pack(hourMs: number): void;
  /**
   * Each clock hour with rollups and `fromMs <= hourMs < toMs`, oldest first: its pack, or for an
   * hour without one, the same read from `gpu_hour`. `unknown: false` leaves the unknown minutes
   * unread (`null`) where a pack has them: a sixth fewer bytes.
   */
  hours(fromMs: number, toMs: number, options?: { unknown?: boolean }): Iterable<HourPack>;
  /**
   * The busy and idle minutes of the one clock hour at `hourMs` (its pack, or `gpu_hour` without one);
   * `null` when it has no rollups. Reads neither the utilisation nor the energy: half the bytes.
   */
  minutesAt(hourMs: number): Pick<HourPack, "hourMs" | "gpuIds" | "busyMinutes" | "idleMinutes"> | null;
  /** The GPU ids of the same hours as {@link hours}, in the same order, without their values. */
  gpuIds(fromMs: number, toMs: number): Iterable<{ hourMs: number; gpuIds: Int32Array }>;
  /** Packs up to `maxHours` hours that have rollups but no pack, from `fromMs` to `toMs`; returns how many. */
  fill(fromMs: number, toMs: number, maxHours: number): number;
  /** Deletes the packs of hours before `beforeMs`; returns how many. */
  prune(beforeMs: number): number;
}

type Row = [number, number | null, number, number, number, number | null];

export function createHourPacks(db: Database): HourPacks {
  const selectHour = db
    .prepare(
      `SELECT gpu_id, util_mean_pct, busy_min, idle_min, unknown_min, energy_wh
       FROM gpu_hour WHERE hour_ms = ? ORDER BY gpu_id`,
    )
    .raw();
  const hasRollups = db.prepare("SELECT 1 FROM gpu_hour WHERE hour_ms = ? LIMIT 1").pluck();
  const insertPack = db.prepare(
    `INSERT OR REPLACE INTO gpu_hour_pack
       (hour_ms, gpus, gpu_ids, util_mean_pct, busy_min, idle_min, unknown_min, energy_wh)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const deletePack = db.prepare("DELETE FROM gpu_hour_pack WHERE hour_ms = ?");
  const { selectFullPack, selectLeanPack, selectPackIds } = packReads(db);
  const selectHourIds = db.prepare("SELECT gpu_id FROM gpu_hour WHERE hour_ms = ? ORDER BY gpu_id").pluck();
  const packedHours = db
    .prepare("SELECT hour_ms FROM gpu_hour_pack WHERE hour_ms >= ? AND hour_ms < ? ORDER BY hour_ms")
    .pluck();
  const prunePacks = db.prepare("DELETE FROM gpu_hour_pack WHERE hour_ms < ?");

  const span = (fromMs: number, toMs: number) => ({
    fromMs,
    toMs,
    hasRollups: (hourMs: number) => hasRollups.get(hourMs) !== undefined,
  });
  const readHour = (hourMs: number) => packOfRows(hourMs, selectHour.all(hourMs) as Row[]);
  const readIds = (hourMs: number) => ({
    hourMs,
    gpuIds: Int32Array.from(selectHourIds.all(hourMs) as number[]),
  });
  const pack = (hourMs: number) => {
    const hour = readHour(hourMs);
    if (hour.gpuIds.length === 0) {
      deletePack.run(hourMs);
      return;
    }
    insertPack.run(
      hourMs,
      hour.gpuIds.length,
      bytes(hour.gpuIds),
      bytes(hour.utilMeanPct),
      bytes(hour.busyMinutes),
      bytes(hour.idleMinutes),
      bytes(hour.unknownMinutes),
      bytes(hour.energyWh),
    );
  };
  const fillHours = db.transaction((hours: readonly number[]) => {
    for (const hourMs of hours) pack(hourMs);
  });

  return {
    pack,
    *hours(fromMs, toMs, options = {}) {
      const select = options.unknown === false ? selectLeanPack : selectFullPack;
      // NOTE: one read per hour, no statement left open between hours: a reader may pause between them while others write.
      let last: { hourMs: number | null; gpuIds: Int32Array } = { hourMs: null, gpuIds: new Int32Array(0) };
      const rows = (packedHours.all(fromMs, toMs) as number[]).map(
        (hourMs) => () => select.get({ hourMs, previous: last.hourMs }) as unknown[] | undefined,
      );
      const packed = (row: unknown[]) => {
        const hour = packOfRow(row, last.gpuIds);
        last = { hourMs: hour.hourMs, gpuIds: hour.gpuIds };
        return hour;
      };
      yield* eachHour(rows, span(fromMs, toMs), packed, readHour);
    },
    minutesAt: createMinutesAt(db, readHour),
    *gpuIds(fromMs, toMs) {
      const rows = readersOf(selectPackIds.iterate({ fromMs, toMs }) as Iterable<unknown[]>);
      let lastIds: Int32Array = new Int32Array(0);
      const packed = (row: unknown[]) => {
        if (row[1] !== null) lastIds = int32s(row[1] as Buffer);
        return { hourMs: row[0] as number, gpuIds: lastIds };
      };
      yield* eachHour(rows, span(fromMs, toMs), packed, readIds);
    },
    fill(fromMs, toMs, maxHours) {
      const packed = new Set(packedHours.all(fromMs, toMs) as number[]);
      const missing: number[] = [];
      for (let hourMs = Math.ceil(fromMs / HOUR_MS) * HOUR_MS; hourMs < toMs; hourMs += HOUR_MS) {
        if (missing.length >= maxHours) break;
        if (!packed.has(hourMs) && hasRollups.get(hourMs) !== undefined) missing.push(hourMs);
      }
      fillHours(missing);
      return missing.length;
    },
    prune: (beforeMs) => prunePacks.run(beforeMs).changes,
  };
}

/**
 * The statements reading packs: a whole pack (or without its unknown minutes) by hour, the GPU ids of
 * a span's packs. An hour's GPU ids equal to the previous pack's (`:previous`; in a span, the hour
 * before's) are compared in SQLite and come back `NULL`: the same ids are not copied into a new
 * buffer for each hour.
 */
function packReads(db: Database) {
  const selectPack = (unknown: string) =>
    db
      .prepare(
        `SELECT hour_ms,
           iif(gpu_ids = (SELECT p.gpu_ids FROM gpu_hour_pack p WHERE p.hour_ms = :previous), NULL, gpu_ids),
           util_mean_pct, busy_min, idle_min, ${unknown}, energy_wh
         FROM gpu_hour_pack WHERE hour_ms = :hourMs`,
      )
      .raw();
  const selectPackIds = db
    .prepare(
      `SELECT x.hour_ms, iif(x.gpu_ids = (
           SELECT p.gpu_ids FROM gpu_hour_pack p WHERE p.hour_ms = x.hour_ms - ${HOUR_MS} AND p.hour_ms >= :fromMs
         ), NULL, x.gpu_ids)
       FROM gpu_hour_pack x WHERE x.hour_ms >= :fromMs AND x.hour_ms < :toMs ORDER BY x.hour_ms`,
    )
    .raw();
  return { selectFullPack: selectPack("unknown_min"), selectLeanPack: selectPack("NULL"), selectPackIds };
}

/** {@link HourPacks.minutesAt}: the pack's GPU ids and minutes, else (no pack) `readHour` when the hour has rollups. */
function createMinutesAt(db: Database, readHour: (hourMs: number) => HourPack): HourPacks["minutesAt"] {
  const selectPackMinutes = db
    .prepare("SELECT gpu_ids, busy_min, idle_min FROM gpu_hour_pack WHERE hour_ms = ?")
    .raw();
  const hasRollups = db.prepare("SELECT 1 FROM gpu_hour WHERE hour_ms = ? LIMIT 1").pluck();
  return (hourMs) => {
    const row = selectPackMinutes.get(hourMs) as [Buffer, Buffer, Buffer] | undefined;
    if (row !== undefined) {
      return { hourMs, gpuIds: int32s(row[0]), busyMinutes: float64s(row[1]), idleMinutes: float64s(row[2]) };
    }
    return hasRollups.get(hourMs) === undefined ? null : readHour(hourMs);
  };
}

/**
 * Each hour of `[fromMs, toMs)` with rollups, oldest first: its pack's row (`rows` by hour, each read
 * when its turn comes) as `packed`, or for an hour without one, `unpacked(hourMs)`.
 */
function* eachHour<T>(
  rows: Iterable<() => unknown[] | undefined>,
  span: { fromMs: number; toMs: number; hasRollups(hourMs: number): boolean },
  packed: (row: unknown[]) => T,
  unpacked: (hourMs: number) => T,
): Generator<T> {
  let hourMs = Math.ceil(span.fromMs / HOUR_MS) * HOUR_MS;
  for (const read of rows) {
    const row = read();
    if (row === undefined) continue;
    const packedMs = row[0] as number;
    for (; hourMs < packedMs; hourMs += HOUR_MS) if (span.hasRollups(hourMs)) yield unpacked(hourMs);
    yield packed(row);
    hourMs = packedMs + HOUR_MS;
  }
  for (; hourMs < span.toMs; hourMs += HOUR_MS) if (span.hasRollups(hourMs)) yield unpacked(hourMs);
}

function* readersOf(rows: Iterable<unknown[]>): Generator<() => unknown[]> {
  for (const row of rows) yield () => row;
}

function packOfRows(hourMs: number, rows: readonly Row[]): HourPack & { unknownMinutes: Float64Array } {
  const n = rows.length;
  const hour = {
    hourMs,
    gpuIds: new Int32Array(n),
    utilMeanPct: new Float64Array(n),
    busyMinutes: new Float64Array(n),
    idleMinutes: new Float64Array(n),
    unknownMinutes: new Float64Array(n),
    energyWh: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    hour.gpuIds[i] = row[0];
    hour.utilMeanPct[i] = row[1] ?? Number.NaN;
    hour.busyMinutes[i] = row[2];
    hour.idleMinutes[i] = row[3];
    hour.unknownMinutes[i] = row[4];
    hour.energyWh[i] = row[5] ?? Number.NaN;
  }
  return hour;
}

/** A pack's row as a pack; its GPU ids `NULL`: the same as `previousIds`. */
function packOfRow(row: readonly unknown[], previousIds: Int32Array): HourPack {
  return {
    hourMs: row[0] as number,
    gpuIds: row[1] === null ? previousIds : int32s(row[1] as Buffer),
    utilMeanPct: float64s(row[2] as Buffer),
    busyMinutes: float64s(row[3] as Buffer),
    idleMinutes: float64s(row[4] as Buffer),
    unknownMinutes: row[5] === null ? null : float64s(row[5] as Buffer),
    energyWh: float64s(row[6] as Buffer),
  };
}

/** The blob as numbers in the platform's byte order: a view when it starts aligned, else a copy. */
function float64s(blob: Buffer): Float64Array {
  if (blob.byteOffset % 8 === 0) return new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength / 8);
  return new Float64Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

function int32s(blob: Buffer): Int32Array {
  if (blob.byteOffset % 4 === 0) return new Int32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
  return new Int32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

function bytes(values: Int32Array | Float64Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}
