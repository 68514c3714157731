import type { Database } from "better-sqlite3";
import type {
  HygieneCheck,
  HygieneCheckRecord,
  HygieneItem,
  HygieneSurface,
  StoredHygieneItem,
} from "../domain/hygiene.ts";

/** The hygiene memory: what each host's checks found, and which surface has shown it. */
export interface HygieneStore {
  /** Records one run in one transaction: new or changed items become unshown everywhere. */
  record(records: readonly HygieneCheckRecord[], nowMs: number): void;
  /** Open items `surface` has not shown since they last changed, by host then key. */
  unshown(surface: HygieneSurface): StoredHygieneItem[];
  /** Marks items as shown on `surface`. */
  markShown(surface: HygieneSurface, items: readonly { host: string; key: string }[], nowMs: number): void;
}

const SHOWN_COLUMN: Record<HygieneSurface, string> = {
  warden: "warden_shown_ms",
  summary: "summary_shown_ms",
};

export function createHygieneStore(db: Database): HygieneStore {
  const find = db.prepare<[string, string], { fingerprint: string; resolved_ms: number | null }>(
    "SELECT fingerprint, resolved_ms FROM hygiene_item WHERE host = ? AND key = ?",
  );
  const insert = db.prepare(
    `INSERT INTO hygiene_item (host, key, check_name, fingerprint, item, first_seen_ms, changed_ms, last_seen_ms)
     VALUES (@host, @key, @check, @fingerprint, @item, @now, @now, @now)`,
  );
  const change = db.prepare(
    `UPDATE hygiene_item SET fingerprint = @fingerprint, item = @item, changed_ms = @now, last_seen_ms = @now,
       resolved_ms = NULL, warden_shown_ms = NULL, summary_shown_ms = NULL WHERE host = @host AND key = @key`,
  );
  const seen = db.prepare(
    "UPDATE hygiene_item SET item = @item, last_seen_ms = @now WHERE host = @host AND key = @key",
  );
  const open = db.prepare<[string, string], { key: string }>(
    "SELECT key FROM hygiene_item WHERE host = ? AND check_name = ? AND resolved_ms IS NULL",
  );
  const resolve = db.prepare("UPDATE hygiene_item SET resolved_ms = ? WHERE host = ? AND key = ?");
  const upsert = (host: string, check: string, entry: HygieneCheckRecord["items"][number], now: number) => {
    const row = find.get(host, entry.key);
    const values = {
      host,
      key: entry.key,
      check,
      fingerprint: entry.fingerprint,
      item: JSON.stringify(entry.item),
      now,
    };
    if (row === undefined) insert.run(values);
    else if (row.fingerprint !== entry.fingerprint || row.resolved_ms !== null) change.run(values);
    else seen.run(values);
  };
  const record = db.transaction((records: readonly HygieneCheckRecord[], now: number) => {
    for (const r of records) {
      for (const entry of r.items) upsert(r.host, r.check, entry, now);
      if (r.status !== "checked") continue;
      const keep = new Set(r.items.map((entry) => entry.key));
      for (const { key } of open.all(r.host, r.check)) if (!keep.has(key)) resolve.run(now, r.host, key);
    }
  });
  return {
    record: (records, nowMs) => record(records, nowMs),
    unshown: (surface) =>
      db
        .prepare<[], { host: string; key: string; check_name: string; item: string; changed_ms: number }>(
          `SELECT host, key, check_name, item, changed_ms FROM hygiene_item
           WHERE resolved_ms IS NULL AND ${SHOWN_COLUMN[surface]} IS NULL ORDER BY host, key`,
        )
        .all()
        .map((row) => ({
          host: row.host,
          key: row.key,
          check: row.check_name as HygieneCheck,
          item: JSON.parse(row.item) as HygieneItem,
          changedMs: row.changed_ms,
        })),
    markShown: (surface, items, nowMs) => {
      const mark = db.prepare(
        `UPDATE hygiene_item SET ${SHOWN_COLUMN[surface]} = ? WHERE host = ? AND key = ?`,
      );
      db.transaction(() => {
        for (const item of items) mark.run(nowMs, item.host, item.key);
      })();
    },
  };
}
