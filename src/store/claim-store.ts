import type { Database } from "better-sqlite3";

export interface Claim {
  id: number;
  host: string;
  /** `null` claims the whole host. */
  gpuIndex: number | null;
  user: string;
  fromMs: number;
  untilMs: number;
  note: string;
  releasedAtMs: number | null;
  releasedBy: string | null;
}

export interface ClaimStore {
  add(claim: Omit<Claim, "id" | "releasedAtMs" | "releasedBy">): Claim;
  /** Claims on the host in force at `atMs`. */
  activeOn(host: string, atMs: number): Claim[];
  activeAt(atMs: number): Claim[];
}

interface ClaimRow {
  id: number;
  host: string;
  gpu_index: number | null;
  user: string;
  from_ms: number;
  until_ms: number;
  note: string;
  released_ms: number | null;
  released_by: string | null;
}

const toClaim = (row: ClaimRow): Claim => ({
  id: row.id,
  host: row.host,
  gpuIndex: row.gpu_index,
  user: row.user,
  fromMs: row.from_ms,
  untilMs: row.until_ms,
  note: row.note,
  releasedAtMs: row.released_ms,
  releasedBy: row.released_by,
});

export function createClaimStore(db: Database): ClaimStore {
  const insert = db.prepare(
    "INSERT INTO claim (host, gpu_index, user, from_ms, until_ms, note) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const selectById = db.prepare("SELECT * FROM claim WHERE id = ?");
  const selectActiveOn = db.prepare(
    "SELECT * FROM claim WHERE host = ? AND released_ms IS NULL AND from_ms <= ? AND until_ms > ? ORDER BY id",
  );
  const selectActive = db.prepare(
    "SELECT * FROM claim WHERE released_ms IS NULL AND from_ms <= ? AND until_ms > ? ORDER BY host, id",
  );
  return {
    add: (claim) => {
      const id = insert.run(
        claim.host,
        claim.gpuIndex,
        claim.user,
        claim.fromMs,
        claim.untilMs,
        claim.note,
      ).lastInsertRowid;
      return toClaim(selectById.get(id) as ClaimRow);
    },
    activeOn: (host, atMs) => (selectActiveOn.all(host, atMs, atMs) as ClaimRow[]).map(toClaim),
    activeAt: (atMs) => (selectActive.all(atMs, atMs) as ClaimRow[]).map(toClaim),
  };
}
