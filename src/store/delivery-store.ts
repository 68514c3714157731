import type { Database } from "better-sqlite3";

/** Slack deliveries already handled, so a retry or a replay is recognised and ignored. */
export interface DeliveryStore {
  /** Records the key; false when it was already there (a duplicate delivery). */
  firstTime(key: string, atMs: number): boolean;
  prune(beforeMs: number): number;
  /** Rows this store has inserted or deleted since it was created. */
  rowsChanged(): number;
}

export function createDeliveryStore(db: Database): DeliveryStore {
  const insert = db.prepare("INSERT OR IGNORE INTO delivery (key, at_ms) VALUES (?, ?)");
  const remove = db.prepare("DELETE FROM delivery WHERE at_ms < ?");
  let rowsChanged = 0;
  return {
    firstTime: (key, atMs) => {
      const { changes } = insert.run(key, atMs);
      rowsChanged += changes;
      return changes === 1;
    },
    prune: (beforeMs) => {
      const { changes } = remove.run(beforeMs);
      rowsChanged += changes;
      return changes;
    },
    rowsChanged: () => rowsChanged,
  };
}
