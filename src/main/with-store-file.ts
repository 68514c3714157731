import { existsSync } from "node:fs";
import type { Database } from "better-sqlite3";
import type { Config } from "../config/schema.ts";
import { createMetricsStore } from "../store/metrics-store.ts";
import type { MetricsStore } from "../store/metrics-types.ts";
import { openDatabase } from "../store/open-database.ts";
import { inspectStorePath, storeProblemOf } from "../store/store-problem.ts";

/** A one-shot command found no store file to read. */
export class StoreMissingError extends Error {
  override name = "StoreMissingError";
}

/**
 * Opens the store a running bot writes (`store.path`), hands it and its metrics store to `read`, and
 * closes it. Throws {@link StoreMissingError} when there is no store, `StoreProblemError` for one it
 * cannot open.
 */
export function withStoreFile<T>(config: Config, read: (db: Database, metrics: MetricsStore) => T): T {
  const db = openStoreFile(config);
  try {
    return read(db, createMetricsStore(db, { sampleSpanMaxMs: 2 * config.poll.interval_seconds * 1000 }));
  } finally {
    db.close();
  }
}

/** {@link withStoreFile} for a `read` that awaits: the store closes when it settles. */
export async function withStoreFileAsync<T>(
  config: Config,
  read: (db: Database, metrics: MetricsStore) => Promise<T>,
): Promise<T> {
  const db = openStoreFile(config);
  try {
    return await read(
      db,
      createMetricsStore(db, { sampleSpanMaxMs: 2 * config.poll.interval_seconds * 1000 }),
    );
  } finally {
    db.close();
  }
}

function openStoreFile(config: Config): Database {
  const path = config.store.path;
  if (!existsSync(path)) {
    throw new StoreMissingError(
      `no store at ${path}: it is written by 'gpu-warden start' (store.path in the config)`,
    );
  }
  inspectStorePath(path);
  let db: Database;
  try {
    db = openDatabase(path);
  } catch (error) {
    throw storeProblemOf(path, error);
  }
  return db;
}
