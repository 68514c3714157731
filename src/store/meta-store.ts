import type { Database } from "better-sqlite3";

/** A small persistent key-value table: watermarks, last runs of scheduled jobs. */
export interface MetaStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  delete(key: string): void;
}

export function createMetaStore(db: Database): MetaStore {
  const select = db.prepare("SELECT value FROM meta WHERE key = ?").pluck();
  const upsert = db.prepare(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  );
  const remove = db.prepare("DELETE FROM meta WHERE key = ?");
  return {
    get: (key) => (select.get(key) as string | undefined) ?? null,
    set: (key, value) => {
      upsert.run(key, value);
    },
    delete: (key) => {
      remove.run(key);
    },
  };
}
