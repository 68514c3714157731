import type { Database } from "better-sqlite3";
import type { AlertKind, AlertRecord, AlertResolution } from "../domain/alert-record.ts";

export interface AlertStore {
  /** Opens an alert; returns the open one instead when the host already has one of that kind. */
  open(input: {
    host: string;
    kind: AlertKind;
    openedAtMs: number;
    idleSinceMs: number | null;
    channel: string;
  }): {
    alert: AlertRecord;
    created: boolean;
  };
  openFor(host: string, kind: AlertKind): AlertRecord | null;
  allOpen(): AlertRecord[];
  byId(id: number): AlertRecord | null;
  /** The alert whose channel message has this ts. */
  byTs(channel: string, ts: string): AlertRecord | null;
  setTs(id: number, channel: string, ts: string): void;
  markEscalated(id: number): void;
  setAutoStopAt(id: number, atMs: number | null): void;
  /** Resolves an open alert; false when it was not open. */
  resolve(id: number, resolution: AlertResolution, atMs: number): boolean;
  /** The latest alerts of a host, newest first. */
  recent(host: string, limit: number): AlertRecord[];
  /** The host's latest alert, open or resolved. */
  latest(host: string): AlertRecord | null;
}

interface AlertRow {
  id: number;
  host: string;
  kind: AlertKind;
  state: "open" | "resolved";
  opened_ms: number;
  idle_since_ms: number | null;
  channel: string | null;
  ts: string | null;
  resolution: AlertResolution | null;
  resolved_ms: number | null;
  escalated: number;
  auto_stop_at_ms: number | null;
}

function toRecord(row: AlertRow): AlertRecord {
  return {
    id: row.id,
    host: row.host,
    kind: row.kind,
    state: row.state,
    openedAtMs: row.opened_ms,
    idleSinceMs: row.idle_since_ms,
    channel: row.channel,
    ts: row.ts,
    resolution: row.resolution,
    resolvedAtMs: row.resolved_ms,
    escalated: row.escalated === 1,
    autoStopAtMs: row.auto_stop_at_ms,
  };
}

export function createAlertStore(db: Database): AlertStore {
  const insert = db.prepare(
    "INSERT INTO alert (host, kind, opened_ms, idle_since_ms, channel) VALUES (?, ?, ?, ?, ?)",
  );
  const selectOpen = db.prepare("SELECT * FROM alert WHERE host = ? AND kind = ? AND state = 'open'");
  const selectAllOpen = db.prepare("SELECT * FROM alert WHERE state = 'open' ORDER BY id");
  const selectById = db.prepare("SELECT * FROM alert WHERE id = ?");
  const selectByTs = db.prepare("SELECT * FROM alert WHERE channel = ? AND ts = ?");
  const updateTs = db.prepare("UPDATE alert SET channel = ?, ts = ? WHERE id = ?");
  const updateEscalated = db.prepare("UPDATE alert SET escalated = 1 WHERE id = ?");
  const updateAutoStop = db.prepare("UPDATE alert SET auto_stop_at_ms = ? WHERE id = ?");
  const updateResolve = db.prepare(
    "UPDATE alert SET state = 'resolved', resolution = ?, resolved_ms = ? WHERE id = ? AND state = 'open'",
  );
  const selectRecent = db.prepare("SELECT * FROM alert WHERE host = ? ORDER BY id DESC LIMIT ?");
  const selectLatest = db.prepare("SELECT * FROM alert WHERE host = ? ORDER BY id DESC LIMIT 1");
  const one = (row: unknown) => (row === undefined ? null : toRecord(row as AlertRow));

  const open = db.transaction((input: Parameters<AlertStore["open"]>[0]) => {
    const existing = one(selectOpen.get(input.host, input.kind));
    if (existing) return { alert: existing, created: false };
    const id = Number(
      insert.run(input.host, input.kind, input.openedAtMs, input.idleSinceMs, input.channel).lastInsertRowid,
    );
    return { alert: one(selectById.get(id))!, created: true };
  });

  return {
    open: (input) => open.immediate(input),
    openFor: (host, kind) => one(selectOpen.get(host, kind)),
    allOpen: () => (selectAllOpen.all() as AlertRow[]).map(toRecord),
    byId: (id) => one(selectById.get(id)),
    byTs: (channel, ts) => one(selectByTs.get(channel, ts)),
    setTs: (id, channel, ts) => {
      updateTs.run(channel, ts, id);
    },
    markEscalated: (id) => {
      updateEscalated.run(id);
    },
    setAutoStopAt: (id, atMs) => {
      updateAutoStop.run(atMs, id);
    },
    resolve: (id, resolution, atMs) => updateResolve.run(resolution, atMs, id).changes === 1,
    recent: (host, limit) => (selectRecent.all(host, limit) as AlertRow[]).map(toRecord),
    latest: (host) => one(selectLatest.get(host)),
  };
}
