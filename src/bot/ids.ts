import { z } from "zod";
import { MAX_SLOT_INDEX } from "../shared/gpu-slot.ts";

/**
 * The one home of the ids Slack sends back to the bot — action ids — and of the JSON carried in
 * button values, with the zod schemas that parse it. Views build buttons with these; listeners
 * route on them and parse the values here, so a button and its handler can never drift apart.
 */
export const ACTION_IDS = {
  /** Stop this host (the alert's button carries a confirm dialog). Value: {@link HostActionValue}. */
  stopHost: "stop_host",
  /** Stop all my hosts of a storm digest (its owner DM; a confirm dialog). Value: {@link DigestValue}. */
  stopAllMine: "stop_all_mine",
  /** An admin stops a host the re-check found busy or unknown. Value: {@link HostActionValue}. */
  stopHostForce: "stop_host_force",
  /**
   * *Done with mine* on an idle alert a host's several people share (a confirm dialog): the presser's
   * work may go; the host stops once everyone on it has said so. Value: {@link doneValueSchema}.
   */
  doneWithMine: "done_with_mine",
  /** Start a stopped host (the stopped alert, the Home tab). Value: {@link HostActionValue}. */
  startHost: "start_host",
  /** Keep 1 h / 4 h / until tomorrow. Value: {@link KeepActionValue}. */
  keepHost1h: "keep_host_1h",
  keepHost4h: "keep_host_4h",
  keepHostTomorrow: "keep_host_tomorrow",
  /** Claim the whole host for the default time. Value: {@link HostActionValue}. */
  claimHost: "claim_host",
  /** Closes an ephemeral question (e.g. the `/gpu stop` preview). No value. */
  dismiss: "dismiss",
  /** Release my claims (reminder and nudge DMs, `/gpu mine`, the Home tab). Value: {@link ClaimIdsValue}. */
  claimRelease: "claim_release",
  /** Extend my claims by 4 h. Value: {@link ClaimIdsValue}. */
  claimExtend4h: "claim_extend_4h",
  /** "Still using it" on a claimed-but-idle nudge. Value: {@link ClaimIdsValue}. */
  claimStillUsing: "claim_still_using",
  /** The cost warden or an admin releases someone else's claims. Value: {@link ClaimIdsValue}. */
  claimForceRelease: "claim_force_release",
  /** "Notify me when free" on a conflict answer. Value: {@link SlotsValue}. */
  claimNotify: "claim_notify",
  /** Claim the named GPUs (the "it is free now" DM). Value: {@link SlotsValue}. */
  claimSlots: "claim_slots",
  /** "Wait for it" on a conflict answer: join the waiting list. Value: {@link QueueWaitValue}. */
  queueWait: "queue_wait",
  /** "Confirm" on a grant DM: keep the granted GPUs. Value: {@link QueueRequestValue}. */
  queueConfirm: "queue_confirm",
  /** "I need 30 more minutes" on a request to make room. Value: {@link PreemptIdsValue}. */
  preemptDefer: "preempt_defer",
} as const;

export type ActionId = (typeof ACTION_IDS)[keyof typeof ACTION_IDS];

/** What the Keep buttons offer; `tomorrow` means `policy.keep_until_tomorrow_at` on the next local day. */
export const KEEP_CHOICES = ["1h", "4h", "tomorrow"] as const;
export type KeepChoice = (typeof KEEP_CHOICES)[number];

/** The action id of each Keep button. */
export const KEEP_ACTION_IDS: Readonly<Record<KeepChoice, ActionId>> = {
  "1h": ACTION_IDS.keepHost1h,
  "4h": ACTION_IDS.keepHost4h,
  tomorrow: ACTION_IDS.keepHostTomorrow,
};

const hostName = z
  .string()
  .max(255)
  .regex(/^([A-Za-z0-9][A-Za-z0-9._-]*\/)?[A-Za-z0-9][A-Za-z0-9._-]*$/, "a host name");
const alertId = z.number().int().positive();

/** `{"host":"gpu-a","alertId":12}`; `alertId` is absent on buttons not attached to an alert. */
export const hostActionValueSchema = z.object({ host: hostName, alertId: alertId.optional() });

/** The value of *Stop all mine*: the storm digest whose hosts it stops. */
export const digestValueSchema = z.object({ digest: z.number().int().positive() });
export type DigestValue = z.infer<typeof digestValueSchema>;

export function digestValue(digestId: number): string {
  return JSON.stringify({ digest: digestId });
}
export type HostActionValue = z.infer<typeof hostActionValueSchema>;

/** *Done with mine*: a {@link HostActionValue} whose alert is always named. */
export const doneValueSchema = hostActionValueSchema.required({ alertId: true });

/** `{"host":"gpu-a","alertId":12,"keep":"4h"}`. */
export const keepActionValueSchema = hostActionValueSchema.extend({ keep: z.enum(KEEP_CHOICES) });
export type KeepActionValue = z.infer<typeof keepActionValueSchema>;

/** `{"claims":[12,13]}`: the claim rows a button acts on. */
export const claimIdsValueSchema = z.object({
  claims: z.array(z.number().int().positive()).min(1).max(256),
});
export type ClaimIdsValue = z.infer<typeof claimIdsValueSchema>;

/** `{"host":"gpu-a","gpus":[0,1]}`; `gpus` null is the whole host. */
export const slotsValueSchema = z.object({
  host: hostName,
  gpus: z.array(z.number().int().min(0).max(MAX_SLOT_INDEX)).min(1).max(256).nullable(),
});
export type SlotsValue = z.infer<typeof slotsValueSchema>;

/** `{"want":{"kind":"count","count":2,"model":"a100"},"durationMs":28800000,"note":"tuning"}`. */
export const queueWaitValueSchema = z.object({
  want: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("slots"), host: hostName, gpus: slotsValueSchema.shape.gpus }),
    z.object({
      kind: z.literal("count"),
      count: z.number().int().min(1).max(256),
      model: z.string().max(100).nullable(),
    }),
  ]),
  durationMs: z.number().int().positive().nullable(),
  note: z.string().max(400),
});
export type QueueWaitValue = z.infer<typeof queueWaitValueSchema>;

/** `{"request":7}`: the waiting-list request a Confirm button acts on. */
export const queueRequestValueSchema = z.object({ request: z.number().int().positive() });
export type QueueRequestValue = z.infer<typeof queueRequestValueSchema>;

/** The value of a *Wait for it* button. */
export function queueWaitValue(value: QueueWaitValue): string {
  return JSON.stringify(value);
}

/** `{"preempts":[3,4]}`: the asks to make room an *I need 30 more minutes* button acts on. */
export const preemptIdsValueSchema = z.object({
  preempts: z.array(z.number().int().positive()).min(1).max(64),
});
export type PreemptIdsValue = z.infer<typeof preemptIdsValueSchema>;

/** The value of an *I need 30 more minutes* button. */
export function preemptIdsValue(preemptIds: readonly number[]): string {
  return JSON.stringify({ preempts: preemptIds });
}

/** The value of a *Confirm* button on a grant DM. */
export function queueRequestValue(requestId: number): string {
  return JSON.stringify({ request: requestId });
}

/** The value of a claim button (release, extend, still using it, force release). */
export function claimIdsValue(claimIds: readonly number[]): string {
  return JSON.stringify({ claims: claimIds });
}

/** The value of a Notify me / Claim button for a host or some of its GPUs. */
export function slotsValue(host: string, gpus: readonly number[] | null): string {
  return JSON.stringify({ host, gpus });
}

/** The value of a Stop button (`stop_host` / `stop_host_force`). */
export function stopValue(host: string, alertId?: number | null): string {
  return JSON.stringify(alertId == null ? { host } : { host, alertId });
}

/** The value of a Keep button. */
export function keepValue(host: string, alertId: number | null | undefined, keep: KeepChoice): string {
  return JSON.stringify(alertId == null ? { host, keep } : { host, alertId, keep });
}

/** The value of a Claim button. */
export function claimValue(host: string, alertId?: number | null): string {
  return JSON.stringify(alertId == null ? { host } : { host, alertId });
}

/** The cost warden's reclaim decision buttons. Value: {@link ReclaimValue}. */
export const RECLAIM_ACTION_IDS = {
  stop: "reclaim_stop",
  /** Opens the lend modal. */
  lend: "reclaim_lend",
  /** Opens the keep modal (a reason is required). */
  keep: "reclaim_keep",
} as const;

/** Callback ids of the reclaim modals; their `private_metadata` is a {@link ReclaimViewMetadata}. */
export const RECLAIM_VIEW_IDS = { lend: "reclaim_lend_view", keep: "reclaim_keep_view" } as const;

/** Block and action ids of the reclaim modals' inputs. */
export const RECLAIM_INPUTS = {
  person: { block: "reclaim_person", action: "person" },
  project: { block: "reclaim_project", action: "project" },
  reason: { block: "reclaim_reason", action: "reason" },
} as const;

/** `{"case":7,"host":"gpu-c"}`. */
export const reclaimValueSchema = z.object({ case: z.number().int().positive(), host: hostName });
export type ReclaimValue = z.infer<typeof reclaimValueSchema>;

/** The decision message the modal came from (to replace its buttons with the outcome). */
export const reclaimViewMetadataSchema = reclaimValueSchema.extend({
  channel: z.string().max(64).nullable(),
  ts: z.string().max(64).nullable(),
});
export type ReclaimViewMetadata = z.infer<typeof reclaimViewMetadataSchema>;

/** The value of a reclaim decision button. */
export function reclaimValue(caseId: number, host: string): string {
  return JSON.stringify({ case: caseId, host });
}

export type ParsedValue<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Parses a button value; a missing, non-JSON or wrongly shaped value is a `problem`, never a throw. */
export function parseActionValue<T>(schema: z.ZodType<T>, raw: string | undefined): ParsedValue<T> {
  if (raw === undefined || raw === "") return { ok: false, problem: "the button has no value" };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return { ok: false, problem: `the button value is not JSON (${(error as Error).message})` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
  return { ok: false, problem: `the button value is malformed${where}: ${issue?.message ?? "invalid"}` };
}

/** The decision buttons on a request for more GPUs. Value: {@link ProcurementValue}. */
export const PROCUREMENT_ACTION_IDS = {
  /** Approve (a confirm dialog). */
  approve: "procurement_approve",
  /** Opens the reason modal to reject. */
  reject: "procurement_reject",
  /** Opens the reason modal to ask for more. */
  more: "procurement_more",
} as const;

/** Callback ids of the request modal (`/gpu request`) and the reason modal (reject, ask for more). */
export const PROCUREMENT_VIEW_IDS = {
  request: "procurement_request_view",
  reason: "procurement_reason_view",
} as const;

/** Block and action ids of the request modal's inputs (each block's action id is `value`). */
export const PROCUREMENT_INPUTS = {
  model: "procurement_model",
  count: "procurement_count",
  kind: "procurement_kind",
  why: "procurement_why",
  tasks: "procurement_tasks",
  hours: "procurement_hours",
  acceptance: "procurement_acceptance",
  reason: "procurement_reason",
} as const;

/** `{"request":7}`. */
export const procurementValueSchema = z.object({ request: z.number().int().positive() });
export type ProcurementValue = z.infer<typeof procurementValueSchema>;

export function procurementValue(requestId: number): string {
  return JSON.stringify({ request: requestId });
}

/** The request modal's `private_metadata`: the project it is for. */
export const procurementFormMetadataSchema = z.object({ project: z.string().max(64).nullable() });

/** The reason modal's `private_metadata`: the request, the decision, and the message it came from. */
export const procurementReasonMetadataSchema = procurementValueSchema.extend({
  decision: z.enum(["reject", "more"]),
  channel: z.string().max(64).nullable(),
  ts: z.string().max(64).nullable(),
});
export type ProcurementReasonMetadata = z.infer<typeof procurementReasonMetadataSchema>;
