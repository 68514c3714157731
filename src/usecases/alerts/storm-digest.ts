import type { Config } from "../../config/schema.ts";
import type { BotStateStore } from "../../store/bot-state-store.ts";
import type { Notifier, SlackMethod } from "../ports.ts";
import { alertTs } from "../ports.ts";
import type { StormWords } from "./storm-words.ts";

/** The digest's alert row has this host (no host name can be it): its message is the thread's anchor. */
const DIGEST_HOST = "*digest*";

type SendOptions = Parameters<Notifier["send"]>[2];

interface Sent {
  method: SlackMethod;
  args: Record<string, unknown>;
  options: SendOptions | undefined;
}

export interface StormDigestDeps {
  config: Config;
  state: BotStateStore;
  /** Where messages really go (the outbox). */
  notifier: Notifier;
  stormWords: StormWords;
  /** The host's cost per hour now; `null` without one. */
  costOf: (host: string) => number | null;
  ownersOf: (host: string) => readonly string[];
}

/** A storm digest's hosts and their alerts, kept in the store for *Stop all mine*. */
export interface DigestEntry {
  host: string;
  alertId: number;
}

/**
 * No alert storms. `notifier` is what the alert lifecycle sends through; `poll(atMs, fn)` runs one
 * poll's idle checks with the sends held back, in one transaction with what they write. When more than `alerts.digest_over` idle alerts
 * opened in that poll, the channel gets one digest, each alert message goes in the digest's thread
 * (with its buttons), and each owner one DM listing their hosts with *Stop all mine* instead of one
 * DM per host. Otherwise everything is sent as it was queued.
 */
export function createStormDigest(deps: StormDigestDeps) {
  let held: Sent[] | null = null;
  const notifier: Notifier = {
    send(method, args, options) {
      if (held === null) deps.notifier.send(method, args, options);
      else held.push({ method, args, options });
    },
  };
  const poll = <T>(atMs: number, fn: () => T): T => {
    // NOTE: one transaction: an alert the checks open and the held messages that tell of it are
    // written together, so a kill -9 mid-sweep leaves no open alert that nobody was told of. A check
    // that throws still lets what it did before through, as without the transaction.
    const outcome = deps.state.transaction((): { ok: true; value: T } | { ok: false; error: unknown } => {
      held = [];
      try {
        return { ok: true, value: fn() };
      } catch (error) {
        return { ok: false, error };
      } finally {
        const sends = held;
        held = null;
        release(deps, sends, atMs);
      }
    });
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  };
  return { notifier, poll };
}

/** Sends one poll's messages: as queued, or as a digest when the poll opened a storm of idle alerts. */
function release(deps: StormDigestDeps, sends: Sent[], atMs: number): void {
  const posts = sends.filter((sent) => idlePost(deps, sent) !== null);
  if (posts.length <= deps.config.alerts.digest_over) {
    for (const sent of sends) deps.notifier.send(sent.method, sent.args, sent.options);
    return;
  }
  const { state, notifier, stormWords } = deps;
  const channel = deps.config.slack.channel;
  const entries: DigestEntry[] = posts.map((sent) => ({
    host: idlePost(deps, sent)!,
    alertId: sent.options!.alertId!,
  }));
  const digestId = state.transaction(() => {
    const { alert } = state.alerts.open({
      host: DIGEST_HOST,
      kind: "digest",
      openedAtMs: atMs,
      idleSinceMs: atMs,
      channel,
    });
    // NOTE: the row only anchors the thread (its message ts); it is never an open alert.
    state.alerts.resolve(alert.id, "exempt", atMs);
    state.meta.set(digestKey(alert.id), JSON.stringify(entries));
    return alert.id;
  });
  const message = stormWords.digest({
    count: entries.length,
    costPerDay: dailyCost(deps, entries),
    clusters: clustersOf(entries),
  });
  notifier.send("chat.postMessage", { channel, ...message }, { alertId: digestId, role: "alert-post" });
  const dropped = alertDirectMessages(deps, sends, posts);
  for (const sent of sends) {
    if (dropped.has(sent)) continue;
    const args = posts.includes(sent) ? { ...sent.args, thread_ts: alertTs(digestId) } : sent.args;
    notifier.send(sent.method, args, sent.options);
  }
  for (const [owner, hosts] of hostsByOwner(deps, entries)) {
    const costPerDay = dailyCost(
      deps,
      hosts.map((host) => ({ host, alertId: 0 })),
    );
    const dm = stormWords.ownerDm({ reader: owner, digestId, hosts, costPerDay, channel });
    notifier.send("chat.postMessage", { channel: owner, ...dm });
  }
}

/** The digest's hosts and alerts; empty for an unknown digest. */
export function digestEntries(state: Pick<BotStateStore, "meta">, digestId: number): DigestEntry[] {
  const raw = state.meta.get(digestKey(digestId));
  return raw === null ? [] : (JSON.parse(raw) as DigestEntry[]);
}

function digestKey(digestId: number): string {
  return `storm-digest:${digestId}`;
}

/** The host of an idle alert's channel post; `null` for anything else. */
function idlePost(deps: StormDigestDeps, sent: Sent): string | null {
  const alertId = sent.options?.alertId;
  if (sent.options?.role !== "alert-post" || alertId == null) return null;
  const alert = deps.state.alerts.byId(alertId);
  return alert?.kind === "idle" ? alert.host : null;
}

/**
 * The per-host DMs to owners of the storm's hosts: the direct messages queued just before each
 * alert post (how `openIdle` sends them), replaced by one DM per owner. Claimants keep theirs.
 */
function alertDirectMessages(deps: StormDigestDeps, sends: Sent[], posts: Sent[]): Set<Sent> {
  const dropped = new Set<Sent>();
  sends.forEach((sent, index) => {
    const host = posts.includes(sent) ? idlePost(deps, sent) : null;
    if (host === null) return;
    const owners = new Set(deps.ownersOf(host));
    for (let before = index - 1; before >= 0; before--) {
      const dm = sends[before]!;
      if (!isDirect(dm)) break;
      if (owners.has(dm.args.channel as string)) dropped.add(dm);
    }
  });
  return dropped;
}

function isDirect(sent: Sent): boolean {
  return (
    sent.method === "chat.postMessage" &&
    sent.options?.alertId == null &&
    typeof sent.args.channel === "string" &&
    /^[UW][A-Z0-9]+$/.test(sent.args.channel) &&
    sent.args.thread_ts === undefined
  );
}

function hostsByOwner(deps: StormDigestDeps, entries: DigestEntry[]): Map<string, string[]> {
  const byOwner = new Map<string, string[]>();
  for (const { host } of entries) {
    for (const owner of deps.ownersOf(host)) byOwner.set(owner, [...(byOwner.get(owner) ?? []), host]);
  }
  return byOwner;
}

/** The clusters of the entries' hosts (`b` of `b/node-17`), sorted; hosts named without a cluster add none. */
function clustersOf(entries: DigestEntry[]): string[] {
  const clusters = new Set<string>();
  for (const { host } of entries) {
    const slash = host.indexOf("/");
    if (slash > 0) clusters.add(host.slice(0, slash));
  }
  return [...clusters].sort();
}

function dailyCost(deps: StormDigestDeps, entries: DigestEntry[]): number | null {
  const costs = entries.map(({ host }) => deps.costOf(host)).filter((cost) => cost !== null);
  return costs.length === 0 ? null : costs.reduce((sum, cost) => sum + cost, 0) * 24;
}
