import type { Database } from "better-sqlite3";

/** Slack deliveries already handled, so a retry or a replay is recognised and ignored. */
export interface DeliveryStore {
  /** Records the key; false when it was already there (a duplicate delivery). */
  firstTime(key: string, atMs: number): boolean;
  prune(beforeMs: number): number;
}

export function createDeliveryStore(db: Database): DeliveryStore {
  const insert = db.prepare("INSERT OR IGNORE INTO delivery (key, at_ms) VALUES (?, ?)");
  const remove = db.prepare("DELETE FROM delivery WHERE at_ms < ?");
  return {
    firstTime: (key, atMs) => insert.run(key, atMs).changes === 1,
    prune: (beforeMs) => remove.run(beforeMs).changes,
  };
}
