import type { Migration } from "./migrations.ts";

/**
 * Schema step 11: projects and money. A claim remembers its project; each busy GPU's workload
 * (Kubernetes namespace, `project` label, process owner) is kept per clock hour, so unclaimed GPU
 * time can be attributed later; a budget notice is sent once per project, month and level.
 */
export const projectsMigration: Migration = {
  version: 11,
  name: "projects",
  up(db) {
    db.exec(`
      ALTER TABLE claim ADD COLUMN project TEXT;

      -- The first workload seen on a GPU in a clock hour (hour_ms is the hour's start).
      CREATE TABLE gpu_workload_hour (
        hour_ms INTEGER NOT NULL,
        host TEXT NOT NULL,
        gpu_index INTEGER NOT NULL,
        namespace TEXT,
        label TEXT,
        login TEXT,
        PRIMARY KEY (hour_ms, host, gpu_index)
      ) WITHOUT ROWID;

      CREATE TABLE budget_notice (
        project TEXT NOT NULL,
        month TEXT NOT NULL,
        level INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (project, month, level)
      ) WITHOUT ROWID;
    `);
  },
};
