import type { ClaimGroup } from "../../checks/claim-groups.ts";
import { closest } from "../../shared/closest.ts";
import type { HostActionDeps } from "../authorise.ts";
import { isKnownHost, knownHosts } from "../fleet/known-hosts.ts";

/** Why a claim, release or extend names nothing it can act on (the views say it in words). */
export type ClaimProblem =
  /** Longer than `claims.max_days`. */
  | { kind: "too-long"; maxMs: number; durationMs: number }
  /** No such host: the one known host it may be (`suggestion`), else the known hosts. */
  | { kind: "unknown-host"; host: string; suggestion: string | null; known: string[] }
  /** GPUs named on a host none of whose GPUs were seen. */
  | { kind: "no-gpus-seen"; host: string }
  /** GPU indexes the host does not have (`has`: the ones it has). */
  | { kind: "no-such-gpus"; host: string; has: number[]; missing: number[] }
  /** No GPU model matches `model` (`models`: the short names the fleet has). */
  | { kind: "no-model"; model: string; models: string[] }
  /** No GPU of the fleet has been seen. */
  | { kind: "nothing-seen" }
  /** A bare `/gpu release` while holding several claims. */
  | { kind: "say-which"; groups: ClaimGroup[] }
  /** Single GPUs named of a host the actor holds whole. */
  | { kind: "whole-host"; host: string };

/**
 * `null` when the bot knows `host`, else the problem with the nearest name: the one known host that
 * starts with what was typed, else the closest within two edits.
 */
export function unknownHostOf(
  deps: Pick<HostActionDeps, "fleet" | "config">,
  host: string,
): Extract<ClaimProblem, { kind: "unknown-host" }> | null {
  if (isKnownHost(deps, host)) return null;
  const known = knownHosts(deps);
  const extending = known.filter((name) => name.toLowerCase().startsWith(host.toLowerCase()));
  const suggestion = extending.length === 1 ? extending[0]! : closest(host, known);
  return { kind: "unknown-host", host, suggestion, known };
}
