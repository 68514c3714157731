import { z } from "zod";
import { cronForInterval } from "../shared/cron-for-interval.ts";
import { isValidTimeZone } from "../shared/time.ts";

/**
 * The one configuration schema. Every object is strict: an unknown key is an error, so a typo is
 * never silently ignored. Secrets never live here; they come from the environment.
 */

const hostName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "a host name: letters, digits, '.', '_' or '-'");
const slackUserId = z.string().regex(/^[UW][A-Z0-9]{2,}$/, "a Slack user id such as U024BE7LH");
const seconds = (max: number) => z.number().positive().max(max);
const timeZone = z.string().refine(isValidTimeZone, "an IANA time zone such as Europe/Berlin");

const localSource = z.strictObject({
  kind: z.literal("local"),
  /** Name under which the bot's own host appears; default: the OS host name. */
  host: hostName.optional(),
  nvidia_smi: z.string().min(1).default("nvidia-smi"),
  timeout_seconds: seconds(300).default(15),
});

const sshHost = z.union([
  hostName,
  z.strictObject({
    name: hostName,
    /** What to pass to ssh as the destination, e.g. `user@10.0.0.5` or an alias from ~/.ssh/config. */
    target: z.string().min(1).optional(),
  }),
]);

const sshSource = z.strictObject({
  kind: z.literal("ssh"),
  hosts: z.array(sshHost).min(1),
  ssh: z.string().min(1).default("ssh"),
  /** Extra ssh arguments placed before the destination, e.g. ["-p", "2222", "-i", "key"]. */
  ssh_args: z.array(z.string()).default([]),
  connect_timeout_seconds: seconds(120).default(5),
  deadline_seconds: seconds(600).default(20),
  concurrency: z.number().int().min(1).max(256).default(16),
  nvidia_smi: z.string().min(1).default("nvidia-smi"),
});

const labelName = z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, "a Prometheus label name such as Hostname");

const prometheusSource = z.strictObject({
  kind: z.literal("prometheus"),
  url: z.url(),
  /** Label that names the host on dcgm-exporter series: `Hostname`, `instance`, `node`… */
  host_label: labelName.default("Hostname"),
  /** Label that names the host on node_exporter series (`instance` loses its `:port`). */
  node_host_label: labelName.default("instance"),
  /** A sample older than this is no reading (at most the server's lookback delta, 5 min by default). */
  stale_after_seconds: seconds(3600).default(300),
  /** A host silent for longer than this is no longer reported at all (not even as stale). */
  forget_after_hours: z.number().positive().max(168).default(3),
  timeout_seconds: seconds(120).default(10),
  /** Query kube-state-metrics + cAdvisor for container requests and usage. */
  containers: z.boolean().default(true),
});

const simulatedSource = z.strictObject({
  kind: z.literal("simulated"),
  hosts: z.number().int().min(1).max(10_000).default(12),
  gpus_per_host: z.number().int().min(1).max(16).default(8),
  seed: z.number().int().default(42),
});

export const sourceSchema = z.discriminatedUnion("kind", [
  localSource,
  sshSource,
  prometheusSource,
  simulatedSource,
]);

/**
 * How to stop (or prepare to stop) a host: an argv run without a shell, or an HTTP webhook that gets
 * a JSON body. Nothing from Slack input is ever put into either.
 */
export const actionSchema = z.union([
  z.strictObject({
    command: z.array(z.string().min(1)).min(1),
    timeout_seconds: seconds(3600).default(120),
  }),
  z.strictObject({
    webhook: z.url(),
    method: z.enum(["POST", "PUT"]).default("POST"),
    headers: z.record(z.string(), z.string()).default({}),
    /** Extra JSON fields sent along with `host`, `actor`, `reason`, `forced` and `at`. */
    body: z.record(z.string(), z.unknown()).default({}),
    timeout_seconds: seconds(3600).default(30),
  }),
]);

const hostSettings = z.strictObject({
  owners: z.array(slackUserId).default([]),
  /** Never alert or stop (inference servers and the like). */
  never_stop: z.boolean().default(false),
  /** Rental or cloud price per hour, in the team currency. */
  cost_per_hour: z.number().nonnegative().optional(),
  /** Run before `stop`, e.g. a checkpoint or a disk snapshot; a failure cancels the stop. */
  pre_stop: actionSchema.optional(),
  stop: actionSchema.optional(),
  /** Show what would run instead of running it (overrides the global `dry_run`). */
  dry_run: z.boolean().optional(),
  /** Stop automatically when an idle episode lasts this long after the alert, with a countdown. */
  auto_stop: z.strictObject({ after_minutes: z.number().int().min(30).default(30) }).optional(),
});

export const configSchema = z.strictObject({
  team: z
    .strictObject({
      name: z.string().min(1).default("our team"),
      timezone: timeZone.default("UTC"),
      currency: z.string().length(3).default("EUR"),
    })
    .prefault({}),
  slack: z
    .strictObject({
      channel: z.string().min(1).default("#gpu"),
      admins: z.array(slackUserId).default([]),
    })
    .prefault({}),
  http: z
    .strictObject({
      port: z.number().int().min(0).max(65535).default(3000),
      host: z.string().min(1).default("127.0.0.1"),
    })
    .prefault({}),
  poll: z
    .strictObject({
      interval_seconds: z
        .number()
        .int()
        .refine((s) => cronForInterval(s) !== null, "an interval that divides a minute or an hour evenly")
        .default(60),
    })
    .prefault({}),
  store: z
    .strictObject({
      path: z.string().min(1).default("gpu-warden.db"),
      raw_retention_days: z.number().positive().max(90).default(8),
      rollup_retention_days: z.number().int().min(400).max(3650).default(400),
    })
    .prefault({}),
  policy: z
    .strictObject({
      idle_util_pct: z.number().min(0).max(100).default(10),
      idle_for_minutes: z.number().int().positive().default(30),
      protect_minutes: z.number().int().nonnegative().default(120),
      escalate_after_minutes: z.number().int().positive().default(240),
      /** Polls without data before a "no data from host" notice. */
      no_data_polls: z.number().int().min(1).default(5),
      /** The longest a Keep may snooze a host (an admin's cap). */
      max_keep_hours: z
        .number()
        .positive()
        .max(24 * 90)
        .default(72),
      /** The local time "Keep until tomorrow" runs to, in the team time zone. */
      keep_until_tomorrow_at: z
        .string()
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "a time of day such as 09:00")
        .default("09:00"),
    })
    .prefault({}),
  /** The monthly cost warden roster, in order (Slack user ids). */
  warden: z
    .strictObject({
      roster: z.array(slackUserId).default([]),
    })
    .prefault({}),
  /** Show what stop actions would run everywhere, instead of running them. */
  dry_run: z.boolean().default(false),
  sources: z.array(sourceSchema).default([]),
  hosts: z.record(hostName, hostSettings).default({}),
});

export type Config = z.infer<typeof configSchema>;
export type SourceConfig = z.infer<typeof sourceSchema>;
export type HostSettings = z.infer<typeof hostSettings>;
export type ActionConfig = z.infer<typeof actionSchema>;
