import { OUTBOX_EVENT_TYPE } from "../../src/bot/outbox/outbox-recovery.ts";
import { BOB, type CrashWorld, DAVE, STOP_TIMEOUT_S } from "./crash-world.ts";
import { readStore, summaries } from "./team-day.ts";

/** A stop left running by a killed bot is ended this long after it began (timeout + grace). */
const STALE_AFTER_MS = STOP_TIMEOUT_S * 1000 + 5_000;

/**
 * What must hold after every restart (once the outbox has drained): the store opens and checks
 * clean; no stop run stuck; every message and upload posted once (channel, thread, DM); no claim or grant
 * doubled or overlapping; every audited action done once. Returns the violations, in words.
 */
export function crashInvariants(world: CrashWorld): string[] {
  return [...storeInvariants(world), ...messageInvariants(world), ...uploadInvariants(world)];
}

/** At the end of the day, also: everything the day did happened (nothing lost). */
export function endOfDayInvariants(world: CrashWorld): string[] {
  const problems = crashInvariants(world);
  const audits = auditCounts(world);
  const expect = (what: string, actual: number, wanted: number) => {
    if (actual !== wanted) problems.push(`${what}: ${actual}, expected ${wanted}`);
  };
  const running = readStore(world, (db) =>
    db.prepare("SELECT count(*) FROM stop_run WHERE state = 'running'").pluck().get(),
  ) as number;
  expect("stop runs still running", running, 0);
  expect("keep audits", audits.get("keep") ?? 0, 1);
  expect("stop audits", audits.get("stop") ?? 0, 1);
  expect("Bob's claim audits", audits.get(`claim ${BOB}`) ?? 0, 1);
  expect("queue grants", audits.get("queue-grant") ?? 0, 1);
  expect("summaries posted", summaries(world).length, 1);
  const bobReleased = readStore(world, (db) =>
    db.prepare("SELECT count(*) FROM claim WHERE user = ? AND released_ms IS NOT NULL").pluck().get(BOB),
  ) as number;
  expect("Bob's claims released to make room", bobReleased, 1);
  return problems;
}

function auditCounts(world: CrashWorld): Map<string, number> {
  const rows = readStore(world, (db) => db.prepare("SELECT action, actor FROM audit").all()) as Array<{
    action: string;
    actor: string;
  }>;
  const counts = new Map<string, number>();
  for (const { action, actor } of rows) {
    counts.set(action, (counts.get(action) ?? 0) + 1);
    counts.set(`${action} ${actor}`, (counts.get(`${action} ${actor}`) ?? 0) + 1);
  }
  return counts;
}

function storeInvariants(world: CrashWorld): string[] {
  const problems: string[] = [];
  readStore(world, (db) => {
    const check = db.prepare("PRAGMA quick_check").pluck().get();
    if (check !== "ok") problems.push(`the store's quick_check: ${String(check)}`);
    const stuck = db
      .prepare("SELECT id, host FROM stop_run WHERE state = 'running' AND started_ms < ?")
      .all(world.nowMs - STALE_AFTER_MS) as Array<{ id: number; host: string }>;
    for (const run of stuck) problems.push(`stop run ${run.id} (${run.host}) stuck in running`);
    const keys = db
      .prepare("SELECT key, count(*) AS n FROM stop_run WHERE state = 'done' GROUP BY key HAVING n > 1")
      .all() as Array<{ key: string }>;
    for (const { key } of keys) problems.push(`stop ${key} done twice`);
    const overlaps = db
      .prepare(
        `SELECT a.id AS a, b.id AS b FROM claim a JOIN claim b ON a.id < b.id AND a.host = b.host
         AND (a.gpu_index IS NULL OR b.gpu_index IS NULL OR a.gpu_index = b.gpu_index)
         WHERE a.released_ms IS NULL AND b.released_ms IS NULL AND a.until_ms > ? AND b.until_ms > ?`,
      )
      .all(world.nowMs, world.nowMs) as Array<{ a: number; b: number }>;
    for (const { a, b } of overlaps) problems.push(`claims ${a} and ${b} hold the same GPU`);
    const doubled = (sql: string, what: string) => {
      const n = db.prepare(sql).pluck().get() as number;
      if (n > 1) problems.push(`${what}: ${n}`);
    };
    doubled(`SELECT count(*) FROM claim WHERE user = '${BOB}'`, "Bob's claims");
    doubled(`SELECT count(*) FROM queue_request WHERE user = '${DAVE}'`, "Dave's requests");
    doubled("SELECT count(*) FROM queue_grant", "grants");
    doubled("SELECT count(*) FROM audit WHERE action = 'keep'", "keep audits");
    doubled("SELECT count(*) FROM audit WHERE action = 'stop'", "stop audits");
    doubled("SELECT count(*) FROM audit WHERE action = 'queue-grant'", "grant audits");
    doubled("SELECT count(*) FROM audit WHERE action = 'queue-preempt-made-room'", "preemptions");
    doubled(`SELECT count(*) FROM audit WHERE action = 'claim' AND actor = '${BOB}'`, "Bob's claim audits");
    const audited = db
      .prepare("SELECT count(*) FROM audit WHERE action IN ('stop', 'stop-failed')")
      .pluck()
      .get() as number;
    const interrupted = db
      .prepare("SELECT count(*) FROM audit WHERE action = 'stop-interrupted'")
      .pluck()
      .get() as number;
    const running = db
      .prepare("SELECT count(*) FROM stop_run WHERE state = 'running'")
      .pluck()
      .get() as number;
    const ran = world.stopRuns().length;
    if (ran < audited || ran > audited + interrupted + running) {
      problems.push(
        `stop command ran ${ran} times: ${audited} audited, ${interrupted} interrupted, ${running} running`,
      );
    }
  });
  return problems;
}

function messageInvariants(world: CrashWorld): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const message of world.slack.state.messages) {
    if (message.deleted || message.metadata?.event_type !== OUTBOX_EVENT_TYPE) continue;
    const payload = message.metadata.event_payload as { outbox_id?: number; created_ms?: number };
    const key = `${payload.outbox_id}/${payload.created_ms}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (seen.get(key) === 2) {
      const where =
        world.slack.state.channels.get(message.channel)?.kind === "im"
          ? "DM"
          : message.threadTs
            ? "thread"
            : "channel";
      problems.push(`outbox item ${payload.outbox_id} posted twice (${where}): ${message.text.slice(0, 80)}`);
    }
  }
  const sent = readStore(world, (db) =>
    db
      .prepare("SELECT id, created_ms FROM outbox WHERE state = 'sent' AND method = 'chat.postMessage'")
      .all(),
  ) as Array<{ id: number; created_ms: number }>;
  for (const item of sent) {
    if (!seen.has(`${item.id}/${item.created_ms}`))
      problems.push(`outbox item ${item.id} recorded sent, never posted`);
  }
  return problems;
}

/**
 * Every outbox upload (`files.uploadV2`, the summary) shared at most once in its conversation, and
 * one recorded sent shared: a file share carries no metadata, so it is told by its files' names.
 */
function uploadInvariants(world: CrashWorld): string[] {
  const uploads = readStore(world, (db) =>
    db
      .prepare(
        `SELECT id, state, json_extract(args, '$.channel_id') AS channel, json_extract(args, '$.thread_ts') AS thread,
           (SELECT json_group_array(json_extract(value, '$.filename')) FROM json_each(args, '$.file_uploads')) AS names
         FROM outbox WHERE method = 'files.uploadV2'`,
      )
      .all(),
  ) as Array<{ id: number; state: string; channel: string; thread: string | null; names: string }>;
  const { state, identity } = world.slack;
  const nameOf = (id: string) => state.files.get(id)?.filename ?? id;
  const problems: string[] = [];
  for (const upload of uploads) {
    const names = JSON.stringify((JSON.parse(upload.names) as string[]).sort());
    const shares = state.messages.filter(
      (m) =>
        !m.deleted &&
        m.user === identity.botUserId &&
        m.channel === upload.channel &&
        (m.threadTs ?? null) === upload.thread &&
        JSON.stringify(m.fileIds.map(nameOf).sort()) === names,
    );
    if (shares.length > 1)
      problems.push(`outbox upload ${upload.id} shared ${shares.length} times: ${names}`);
    if (upload.state === "sent" && shares.length === 0)
      problems.push(`outbox upload ${upload.id} recorded sent, never shared`);
  }
  return problems;
}
