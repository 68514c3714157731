import { stillDone } from "../checks/done-holders.ts";
import { holdersIfAllKnown, loginsOn, peopleOfLogins } from "../checks/login-people.ts";
import type { Config, HostSettings } from "../config/schema.ts";
import type { Claim } from "../domain/claim.ts";
import type { HostObservation } from "../domain/observation.ts";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import type { BotStateStore } from "../store/bot-state-store.ts";
import type { AlertPort, FleetView, WardenLookup } from "./ports.ts";

/** What the host actions (stop, keep, claim) need. */
export interface HostActionDeps {
  config: Config;
  state: BotStateStore;
  fleet: FleetView;
  alerts: AlertPort;
  warden: WardenLookup;
  clock: Clock;
  logger: Logger;
  /** The host's owners now: the person a reclaim decision lent it to, else `hosts.<host>.owners`. */
  owners: (host: string) => readonly string[];
}

/** Why someone may act on a host. */
export type HostRole = "owner" | "claimant" | "warden" | "admin";

/** Everyone who may stop or keep a host right now (Slack user ids). */
export interface HostAuthority {
  host: string;
  owners: readonly string[];
  /** Holders of an active claim on the host or any of its GPUs. */
  claimants: readonly string[];
  warden: string | null;
  admins: readonly string[];
}

const NO_SETTINGS: Pick<HostSettings, "owners"> = { owners: [] };

/** The host's authority from its settings, its active claims, the current warden and the admins. Pure. */
export function hostAuthority(input: {
  host: string;
  settings: Pick<HostSettings, "owners"> | undefined;
  claims: readonly Claim[];
  warden: string | null;
  admins: readonly string[];
}): HostAuthority {
  return {
    host: input.host,
    owners: [...new Set((input.settings ?? NO_SETTINGS).owners)],
    claimants: [...new Set(input.claims.map((claim) => claim.user))],
    warden: input.warden,
    admins: [...new Set(input.admins)],
  };
}

/** {@link hostAuthority} from the config, the claim store and the warden lookup at `atMs`. */
export function authorityFor(deps: HostActionDeps, host: string, atMs: number): HostAuthority {
  return hostAuthority({
    host,
    settings: { owners: [...deps.owners(host)] },
    claims: deps.state.claims.activeOn(host, atMs),
    warden: deps.warden.current(atMs),
    admins: deps.config.slack.admins,
  });
}

/** The roles `user` holds on the host, strongest reason last; empty when they may not act. */
export function rolesOf(user: string, authority: HostAuthority): HostRole[] {
  const roles: HostRole[] = [];
  if (authority.owners.includes(user)) roles.push("owner");
  if (authority.claimants.includes(user)) roles.push("claimant");
  if (authority.warden === user) roles.push("warden");
  if (authority.admins.includes(user)) roles.push("admin");
  return roles;
}

export function mayAct(user: string, authority: HostAuthority): boolean {
  return rolesOf(user, authority).length > 0;
}

export function isAdmin(user: string, config: Pick<Config, "slack">): boolean {
  return config.slack.admins.includes(user);
}

/** `user`'s login names (`team.logins`) hold a process or a session on the host now. */
export function holdsSomethingOn(deps: HostActionDeps, host: string, user: string): boolean {
  const logins = loginsOn(deps.fleet.latest(host)?.observation ?? null);
  return peopleOfLogins(deps.config.team.logins, logins).includes(user);
}

/**
 * Everything on the host now is `user`'s (`team.logins`), or belongs to people in `alsoDone` (who said
 * *Done with mine*, see {@link doneOn}): every process and session, with no claim of anyone else.
 * Such a person may stop the host: only their own work, and work its people let go, is on it.
 */
export function holdsEverythingOn(
  deps: HostActionDeps,
  host: string,
  user: string,
  atMs: number,
  alsoDone: readonly string[] = [],
): boolean {
  const holders = holdersIfAllKnown(deps.fleet.latest(host)?.observation ?? null);
  if (holders === null) return false;
  const people = new Set([user, ...alsoDone]);
  const own = new Set([...people].flatMap((person) => deps.config.team.logins[person] ?? []));
  if (![...holders].every((login) => own.has(login))) return false;
  return deps.state.claims.activeOn(host, atMs).every((claim) => people.has(claim.user));
}

/**
 * The people whose *Done with mine* on the host still holds (see `stillDone`): said since the host's
 * last stop, with no input and no new process of theirs there since.
 */
export function doneOn(
  deps: Pick<HostActionDeps, "state" | "config">,
  host: string,
  observation: HostObservation | null,
): string[] {
  const marks = deps.state.doneMarks.onHost(host);
  if (marks.length === 0) return [];
  const stop = deps.state.stopRuns.latestFor(host);
  const stoppedAtMs = stop?.state === "done" && !stop.dryRun ? stop.startedAtMs : null;
  return stillDone(
    marks.filter((mark) => stoppedAtMs === null || mark.atMs > stoppedAtMs),
    observation,
    deps.config.team.logins,
  );
}
