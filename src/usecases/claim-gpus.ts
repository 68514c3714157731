import { type ClaimGroup, groupClaims } from "../checks/claim-groups.ts";
import { matchModels } from "../checks/claim-model.ts";
import { pickFreeGpus } from "../checks/claim-pick.ts";
import { formatGpuList, type GpuSlots, overlaps, slotsText } from "../checks/claim-target.ts";
import type { ClaimReservationLimit, ReservationWindow } from "../checks/reservation-window.ts";
import { shortModel } from "../reports/fleet-table.ts";
import { formatDuration } from "../shared/duration.ts";
import type { Claim } from "../store/claim-store.ts";
import { listWords, localWhen, mention, slackEscape } from "./action-text.ts";
import { isAdmin } from "./authorise.ts";
import { type ClaimDeps, claimRulesOf } from "./claim-deps.ts";
import { afterClaimsChanged, expireDue, recordEnded } from "./claim-effects.ts";
import { fleetGpusNow, type GpuNow, hostGpusNow } from "./claim-seats.ts";
import { holdersText, noteWords } from "./claim-text.ts";
import { claimLimitOf, withoutReservedSeats } from "./reservations.ts";
import { unknownHostProblem } from "./stop-host.ts";

/** What to claim: a host or some of its GPUs, or any `count` free GPUs (of a model). */
export type ClaimTarget =
  | { kind: "slots"; slots: GpuSlots }
  | { kind: "count"; count: number; model: string | null };

export interface ClaimGpusRequest {
  /** Slack user id. */
  actor: string;
  target: ClaimTarget;
  /** `null`: `claims.default_hours`. */
  durationMs: number | null;
  note?: string;
  /** The alert whose *Claim it* was clicked. */
  alertId?: number | undefined;
}

export type ClaimGpusResult =
  | {
      kind: "claimed";
      groups: ClaimGroup[];
      text: string;
      /** A reservation cut the claim short: it ends when the window starts. */
      cut?: Extract<ClaimReservationLimit, { kind: "cut" }>;
    }
  /** Someone else's reservation window is in force on (part of) it now. */
  | { kind: "reserved"; window: ReservationWindow; text: string }
  | { kind: "already-yours"; text: string }
  | {
      kind: "held";
      /** What was asked for. */
      slots: GpuSlots;
      /** Who holds (part of) it. */
      holders: ClaimGroup[];
      /** The asker is the cost warden or an admin and may release the holders' claims. */
      forceable: boolean;
      text: string;
    }
  | { kind: "short"; text: string }
  | { kind: "invalid"; text: string };

/**
 * `/gpu claim`: takes a host, some of its GPUs, or any `count` free GPUs (of a model) for
 * `durationMs` (default `claims.default_hours`, at most `claims.max_days`), unless someone else
 * holds them. Race-free: ending the claims past their end, the conflict check and the insert are
 * one synchronous IMMEDIATE transaction, and a unique index allows one unreleased claim per slot.
 * Audited; the host's alert thread hears of it when an alert is open; the Home tab is refreshed.
 */
export function claimGpus(deps: ClaimDeps, request: ClaimGpusRequest): ClaimGpusResult {
  const rules = claimRulesOf(deps.config);
  const durationMs = request.durationMs ?? rules.defaultMs;
  if (durationMs > rules.maxMs) {
    return {
      kind: "invalid",
      text: `A claim lasts at most ${formatDuration(rules.maxMs)}; you asked for ${formatDuration(durationMs)}.`,
    };
  }
  const note = request.note ?? "";
  const { target } = request;
  if (target.kind === "count") return claimCount(deps, request, target, durationMs, note);
  const problem = slotsProblem(deps, target.slots, deps.clock.now());
  if (problem !== null) return { kind: "invalid", text: problem };
  return claimSlots(deps, request, target.slots, durationMs, note);
}

/**
 * Why `slots` cannot name anything: an unknown host (with a suggestion), GPUs of a host none of whose
 * GPUs were seen, or indexes the host does not have (saying the ones it has). `null` when fine.
 */
export function slotsProblem(deps: ClaimDeps, slots: GpuSlots, nowMs: number): string | null {
  const { host, gpus } = slots;
  const unknown = unknownHostProblem(deps, host);
  if (unknown !== null) return unknown;
  if (gpus === null) return null;
  const indexes = hostGpusNow(deps, host, nowMs).map((gpu) => gpu.index);
  if (indexes.length === 0) {
    return `No GPUs of ${host} have been seen yet, so single GPUs cannot be named: use the whole host (${host}).`;
  }
  const missing = gpus.filter((index) => !indexes.includes(index));
  if (missing.length === 0) return null;
  const has = `${indexes.length === 1 ? "GPU" : "GPUs"} ${formatGpuList(indexes)}`;
  const none = `${missing.length === 1 ? "GPU" : "GPUs"} ${formatGpuList(missing)}`;
  return `${host} has ${has}: there is no ${none}.`;
}

function claimSlots(
  deps: ClaimDeps,
  request: ClaimGpusRequest,
  slots: GpuSlots,
  durationMs: number,
  note: string,
): ClaimGpusResult {
  const { state, config, clock } = deps;
  const { actor } = request;
  const { host } = slots;
  const nowMs = clock.now();
  const zone = config.team.timezone;
  const ended: Claim[] = [];
  const outcome = state.transaction((): ClaimGpusResult => {
    ended.push(...expireDue(deps, nowMs, host));
    const overlapping = state.claims
      .activeOn(host, nowMs)
      .filter((claim) => overlaps(slots, claim.host, claim.gpuIndex));
    const others = overlapping.filter((claim) => claim.user !== actor);
    if (others.length > 0) {
      const holders = groupClaims(others);
      return {
        kind: "held",
        slots,
        holders,
        forceable: isAdmin(actor, config) || deps.warden.current(nowMs) === actor,
        text: holdersText(holders, nowMs, zone),
      };
    }
    const mine = overlapping;
    const wholeMine = mine.find((claim) => claim.gpuIndex === null);
    if (wholeMine !== undefined) {
      return {
        kind: "already-yours",
        text:
          `You already hold ${slots.gpus === null ? "" : "all of "}${host} until ` +
          `${localWhen(wholeMine.untilMs, nowMs, zone)}: \`/gpu extend ${host} 4h\` holds it longer.`,
      };
    }
    const heldGpus = new Set(mine.map((claim) => claim.gpuIndex as number));
    const wanted: Array<number | null> =
      slots.gpus === null ? [null] : slots.gpus.filter((index) => !heldGpus.has(index));
    if (wanted.length === 0) {
      const what = slotsText(slots);
      const untilMs = Math.min(...mine.map((claim) => claim.untilMs));
      return {
        kind: "already-yours",
        text: `You already hold ${what} until ${localWhen(untilMs, nowMs, zone)}: \`/gpu extend ${what} 4h\` holds it longer.`,
      };
    }
    const limit = claimLimitOf(deps, actor, [slots], nowMs, nowMs + durationMs);
    if (limit.kind === "refused") return reservedNow(deps, actor, limit.window);
    const heldMs = limit.untilMs - nowMs;
    const replaced = slots.gpus === null ? mine : [];
    if (replaced.length > 0) {
      const released = state.claims.release(
        replaced.map((claim) => claim.id),
        nowMs,
        actor,
        "replaced",
      );
      recordEnded(deps, released, { kind: "released" }, actor, nowMs);
    }
    const added = wanted.map((gpuIndex) =>
      state.claims.add({ host, gpuIndex, user: actor, fromMs: nowMs, untilMs: nowMs + heldMs, note }),
    );
    const already = slots.gpus === null ? [] : slots.gpus.filter((index) => heldGpus.has(index));
    const groups = groupClaims(added);
    recordClaimed(deps, groups, heldMs, request.alertId, nowMs, {
      replaces: replaced.map((claim) => claim.id),
      ...cutDetail(limit),
    });
    const alsoHeld =
      already.length > 0
        ? ` You already held ${slotsText({ host, gpus: already })}; it keeps its own end.`
        : "";
    const replacedText =
      replaced.length > 0
        ? ` It replaces your claim on ${listWords(
            groupClaims(replaced).map((group) => slotsText(group)),
            "and",
          )}.`
        : "";
    return {
      kind: "claimed",
      groups,
      text: `${claimedText(groups, heldMs, nowMs, zone)}${alsoHeld}${replacedText}${busyWarning(deps, groups, nowMs)}${cutWords(deps, actor, limit)}`,
      ...(limit.kind === "cut" ? { cut: limit } : {}),
    };
  });
  finish(deps, request, outcome, ended, nowMs);
  return outcome;
}

function claimCount(
  deps: ClaimDeps,
  request: ClaimGpusRequest,
  target: { count: number; model: string | null },
  durationMs: number,
  note: string,
): ClaimGpusResult {
  const { state, config, clock } = deps;
  const { actor } = request;
  const nowMs = clock.now();
  const zone = config.team.timezone;
  const ended: Claim[] = [];
  const outcome = state.transaction((): ClaimGpusResult => {
    ended.push(...expireDue(deps, nowMs));
    const all = [...fleetGpusNow(deps, nowMs).values()].flat();
    let seats = all;
    let label = "";
    if (target.model !== null) {
      const models = [...new Set(all.flatMap((seat) => (seat.model === null ? [] : [seat.model])))];
      const matched = matchModels(target.model, models);
      if (matched.length === 0) {
        const shown = [...new Set(models.map(shortModel))].sort();
        const fleet =
          shown.length === 0 ? "no GPU models are known yet" : `the fleet has ${listWords(shown, "and")}`;
        return {
          kind: "invalid",
          text: `No GPU model matches \`${slackEscape(target.model)}\`: ${fleet}.`,
        };
      }
      seats = all.filter((seat) => seat.model !== null && matched.includes(seat.model));
      label = ` ${listWords([...new Set(matched.map(shortModel))].sort(), "or")}`;
    }
    if (seats.length === 0)
      return { kind: "invalid", text: "No GPUs have been seen yet, so none can be claimed." };
    seats = withoutReservedSeats(deps, actor, seats, nowMs);
    const active = state.claims.activeAt(nowMs);
    const pick = pickFreeGpus(seats, active, target.count);
    if (pick.kind === "short") {
      const seatKeys = new Set(seats.map((seat) => `${seat.host}:${seat.index}`));
      const holding = groupClaims(
        active.filter((claim) =>
          claim.gpuIndex === null
            ? seats.some((seat) => seat.host === claim.host)
            : seatKeys.has(`${claim.host}:${claim.gpuIndex}`),
        ),
      );
      const held =
        holding.length === 0
          ? ""
          : ` Held: ${holding
              .slice(0, 6)
              .map(
                (group) =>
                  `${slotsText(group)} by ${mention(group.user)} until ${localWhen(group.untilMs, nowMs, zone)}`,
              )
              .join("; ")}${holding.length > 6 ? `; and ${holding.length - 6} more` : ""}.`;
      const verb = pick.free === 1 ? "is" : "are";
      return {
        kind: "short",
        text: `Only ${pick.free} of the ${pick.total}${label} GPUs ${verb} free; you asked for ${target.count}.${held}`,
      };
    }
    const limit = claimLimitOf(deps, actor, pick.picks, nowMs, nowMs + durationMs);
    if (limit.kind === "refused") return reservedNow(deps, actor, limit.window);
    const heldMs = limit.untilMs - nowMs;
    const added = pick.picks.flatMap(({ host, gpus }) =>
      gpus.map((gpuIndex) =>
        state.claims.add({ host, gpuIndex, user: actor, fromMs: nowMs, untilMs: nowMs + heldMs, note }),
      ),
    );
    const groups = groupClaims(added);
    recordClaimed(deps, groups, heldMs, request.alertId, nowMs, {
      count: target.count,
      model: target.model,
      ...cutDetail(limit),
    });
    const models = [
      ...new Set(
        pick.picks.flatMap(({ host, gpus }) =>
          seats
            .filter((seat) => seat.host === host && gpus.includes(seat.index))
            .map((seat) => shortModel(seat.model)),
        ),
      ),
    ].sort();
    return {
      kind: "claimed",
      groups,
      text: `${claimedText(groups, heldMs, nowMs, zone, models)}${busyWarning(deps, groups, nowMs)}${cutWords(deps, actor, limit)}`,
      ...(limit.kind === "cut" ? { cut: limit } : {}),
    };
  });
  finish(deps, request, outcome, ended, nowMs);
  return outcome;
}

/** Someone else's reservation window holds (part of) the claim now: refused, audited. */
function reservedNow(deps: ClaimDeps, actor: string, window: ReservationWindow): ClaimGpusResult {
  deps.state.audit.record({
    atMs: deps.clock.now(),
    actor,
    action: "claim-reserved",
    host: window.reservation.host,
    detail: {
      reservationId: window.reservation.id,
      holder: window.reservation.user,
      untilMs: window.untilMs,
    },
  });
  return { kind: "reserved", window, text: deps.claimWords.reservedNow(window, actor) };
}

/** ` Cut to end at 09:00: …` when a reservation cut the claim. */
function cutWords(deps: ClaimDeps, actor: string, limit: ClaimReservationLimit): string {
  return limit.kind === "cut" ? ` ${deps.claimWords.reservationCut(limit, actor)}` : "";
}

/** The audit detail of a claim cut short by a reservation. */
function cutDetail(limit: ClaimReservationLimit): Record<string, unknown> {
  if (limit.kind !== "cut") return {};
  return { cutForReservation: limit.window.reservation.id, cutToMs: limit.untilMs };
}

function recordClaimed(
  deps: ClaimDeps,
  groups: readonly ClaimGroup[],
  durationMs: number,
  alertId: number | undefined,
  nowMs: number,
  extra: Record<string, unknown>,
): void {
  for (const group of groups) {
    deps.state.audit.record({
      atMs: nowMs,
      actor: group.user,
      action: "claim",
      host: group.host,
      detail: {
        claimIds: group.claimIds,
        gpus: group.gpus,
        untilMs: group.untilMs,
        durationMs,
        note: group.note,
        alertId: alertId ?? null,
        ...extra,
      },
    });
  }
}

/** `You hold gpu-a:0,1 until 14:00 (4 h) (llama sft).` */
function claimedText(
  groups: readonly ClaimGroup[],
  durationMs: number,
  nowMs: number,
  zone: string,
  models: readonly string[] = [],
): string {
  const first = groups[0]!;
  const what = listWords(
    groups.map((group) => slotsText(group)),
    "and",
  );
  const model = models.length === 0 ? "" : ` (${models.join(", ")})`;
  return (
    `You hold ${what}${model} until ${localWhen(first.untilMs, nowMs, zone)} ` +
    `(${formatDuration(durationMs)})${noteWords(first.note)}.`
  );
}

/** ` Heads-up: gpu-a:3 is in use right now without a claim (bob).` for claimed GPUs someone runs on. */
function busyWarning(deps: ClaimDeps, groups: readonly ClaimGroup[], nowMs: number): string {
  const busy: GpuNow[] = [];
  for (const group of groups) {
    for (const gpu of hostGpusNow(deps, group.host, nowMs)) {
      if (gpu.state === "busy" && (group.gpus === null || group.gpus.includes(gpu.index))) busy.push(gpu);
    }
  }
  if (busy.length === 0) return "";
  const owners = [
    ...new Set(
      busy.flatMap((gpu) => gpu.reading?.processes.flatMap((p) => (p.user === null ? [] : [p.user])) ?? []),
    ),
  ].sort();
  const byHost = new Map<string, number[]>();
  for (const gpu of busy) byHost.set(gpu.host, [...(byHost.get(gpu.host) ?? []), gpu.index]);
  const what = listWords(
    [...byHost].map(([host, gpus]) => slotsText({ host, gpus })),
    "and",
  );
  const who = owners.length === 0 ? "" : ` (${owners.map(slackEscape).join(", ")})`;
  return ` Heads-up: ${what} ${busy.length === 1 ? "is" : "are"} in use right now without a claim${who}.`;
}

function finish(
  deps: ClaimDeps,
  request: ClaimGpusRequest,
  outcome: ClaimGpusResult,
  ended: readonly Claim[],
  nowMs: number,
): void {
  const hosts = new Set<string>();
  if (outcome.kind === "claimed") {
    const zone = deps.config.team.timezone;
    for (const group of outcome.groups) {
      hosts.add(group.host);
      const open = deps.state.alerts.openFor(group.host, "idle");
      if (open === null && request.alertId === undefined) continue;
      deps.alerts.postInThread(
        group.host,
        `${slotsText(group)} claimed by ${mention(group.user)} until ${localWhen(group.untilMs, nowMs, zone)}${noteWords(group.note)}.`,
      );
    }
  }
  if (outcome.kind !== "claimed" && ended.length === 0) return;
  afterClaimsChanged(deps, { ended, hosts, users: outcome.kind === "claimed" ? [request.actor] : [] }, nowMs);
}
