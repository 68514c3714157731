import { z } from "zod";
import { LANGUAGES } from "../messages/languages.ts";
import { cronForInterval } from "../shared/cron-for-interval.ts";
import { isValidTimeZone } from "../shared/time.ts";
import { overlappingReservations } from "./reservation-overlaps.ts";

/**
 * The one configuration schema. Every object is strict: an unknown key is an error, so a typo is
 * never silently ignored. Secrets never live here; they come from the environment or a file.
 */

const hostName = z
  .string()
  .max(253)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "a host name: letters, digits, '.', '_' or '-'");
const clusterName = z
  .string()
  .max(63)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "a cluster name: letters, digits, '.', '_' or '-'");
/** A host as the bot names it: `node-17`, or `b/node-17` when several clusters are configured. */
const hostKey = z
  .string()
  .max(317)
  .regex(
    /^([A-Za-z0-9][A-Za-z0-9._-]*\/)?[A-Za-z0-9][A-Za-z0-9._-]*$/,
    "a host name (letters, digits, '.', '_' or '-'), or cluster/host",
  );
const slackUserId = z
  .string()
  .max(32)
  .regex(/^[UW][A-Z0-9]{2,}$/, "a Slack user id such as U024BE7LH");
const seconds = (max: number) => z.number().positive().max(max);
/** A non-empty string of at most `max` characters (no value in a config file is a megabyte long). */
const text = (max: number) => z.string().min(1).max(max);
const COMMAND_MAX = 4096;
const MINUTES_PER_WEEK = 7 * 24 * 60;
const timeZone = z.string().max(64).refine(isValidTimeZone, "an IANA time zone such as Europe/Berlin");

const localSource = z.strictObject({
  kind: z.literal("local"),
  /** Name under which the bot's own host appears; default: the OS host name. */
  host: hostName.optional(),
  nvidia_smi: text(COMMAND_MAX).default("nvidia-smi"),
  timeout_seconds: seconds(300).default(15),
});

const sshHost = z.union([
  hostName,
  z.strictObject({
    name: hostName,
    /** What to pass to ssh as the destination, e.g. `user@10.0.0.5` or an alias from ~/.ssh/config. */
    target: text(1024).optional(),
  }),
]);

const sshSource = z.strictObject({
  kind: z.literal("ssh"),
  hosts: z.array(sshHost).min(1).max(10_000),
  ssh: text(COMMAND_MAX).default("ssh"),
  /** Extra ssh arguments placed before the destination, e.g. ["-p", "2222", "-i", "key"]. */
  ssh_args: z.array(z.string().max(COMMAND_MAX)).max(100).default([]),
  connect_timeout_seconds: seconds(120).default(5),
  deadline_seconds: seconds(600).default(20),
  concurrency: z.number().int().min(1).max(256).default(16),
  nvidia_smi: text(COMMAND_MAX).default("nvidia-smi"),
});

const labelName = z
  .string()
  .max(128)
  .regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, "a Prometheus label name such as Hostname");

const prometheusSource = z.strictObject({
  kind: z.literal("prometheus"),
  url: z.url().max(2048),
  /**
   * The cluster this source's hosts belong to. With two or more clusters among the sources, hosts are
   * named `cluster/host` (`b/node-17`) everywhere, so the same host name may appear in several clusters.
   */
  cluster: clusterName.optional(),
  /** Label that names the host on dcgm-exporter series: `Hostname`, `instance`, `node`… */
  host_label: labelName.default("Hostname"),
  /** Label that names the host on node_exporter series (`instance` loses its `:port`). */
  node_host_label: labelName.default("instance"),
  /** A sample older than this is no reading (at most the server's lookback delta, 5 min by default). */
  stale_after_seconds: seconds(3600).default(300),
  /** A host silent for longer than this is no longer reported at all (not even as stale). */
  forget_after_hours: z.number().positive().max(168).default(3),
  /** Window of rate() for CPU use (node_exporter, cAdvisor); at least two scrape intervals. */
  rate_window_seconds: seconds(3600).default(120),
  /**
   * How long one poll of this source may take, every query of it included. A source that has not answered
   * by then is cut off (its requests aborted) and only its hosts are unknown for that cycle; the other
   * sources' readings are decided on time.
   */
  timeout_seconds: seconds(120).default(20),
  /** Query kube-state-metrics + cAdvisor for container requests and usage. */
  containers: z.boolean().default(true),
  /** At start, how far back the server's history is read for idle-since, money and sparklines; 0: not at all. */
  history_days: z.number().min(0).max(30).default(7),
  /**
   * Ask the server for gzip-compressed answers. Off by default: the engine usually runs beside the bot,
   * and compressing costs both of them CPU on every poll (VictoriaMetrics: about a fifth of its CPU for a
   * poll's queries). Turn it on where the link to the server is slow or metered: the answers are ten to
   * twenty times smaller.
   */
  compress_answers: z.boolean().default(false),
});

const simulatedSource = z.strictObject({
  kind: z.literal("simulated"),
  /** The cluster of the simulated hosts (see the Prometheus source's `cluster`). */
  cluster: clusterName.optional(),
  hosts: z.number().int().min(1).max(10_000).default(12),
  gpus_per_host: z.number().int().min(1).max(16).default(8),
  seed: z.number().int().min(0).max(2_147_483_647).default(42),
});

export const sourceSchema = z.discriminatedUnion("kind", [
  localSource,
  sshSource,
  prometheusSource,
  simulatedSource,
]);

/**
 * A secret read when the action runs, never written in the configuration: the value of an
 * environment variable (`{ env: STOP_TOKEN }`) or the contents of a file, trimmed
 * (`{ file: /run/secrets/stop-token }`); `prefix` goes before it (`"Bearer "`).
 */
const envSecret = z.strictObject({
  /** The environment variable that holds the secret. */
  env: z
    .string()
    .max(128)
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name such as STOP_TOKEN"),
  /** Put before the secret, e.g. `"Bearer "`. */
  prefix: z.string().max(64).optional(),
});
const fileSecret = z.strictObject({
  /** The file that holds the secret (trimmed), read each time the action runs. */
  file: text(4096),
  /** Put before the secret, e.g. `"Bearer "`. */
  prefix: z.string().max(64).optional(),
});
export const secretRefSchema = z.union([envSecret, fileSecret]);

/** Header names and body keys that carry credentials: their value must be a {@link secretRefSchema}. */
export const CREDENTIAL_NAME = /authorization|cookie|token|secret|password|passwd|api[-_]?key|credential/i;

const SECRET_HINT = "a secret from the environment or a file: { env: NAME } or { file: PATH }";

const webhookAction = z
  .strictObject({
    webhook: z.url().max(2048),
    method: z.enum(["POST", "PUT"]).default("POST"),
    /** Request headers; a credential (`Authorization`, an API key) as `{ env: NAME }` or `{ file: PATH }`. */
    headers: z
      .record(z.string().max(256), z.union([z.string().max(COMMAND_MAX), envSecret, fileSecret]))
      .default({}),
    /**
     * Extra JSON fields sent along with `host`, `actor`, `reason`, `forced` and `at`; a credential
     * field as `{ env: NAME }` or `{ file: PATH }`.
     */
    body: z.record(z.string().max(256), z.unknown()).default({}),
    timeout_seconds: seconds(3600).default(30),
  })
  .superRefine((action, context) => {
    const fields = [
      ...Object.entries(action.headers).map(([name, value]) => ["headers", name, value] as const),
      ...Object.entries(action.body).map(([name, value]) => ["body", name, value] as const),
    ];
    for (const [where, name, value] of fields) {
      if (CREDENTIAL_NAME.test(name) && !secretRefSchema.safeParse(value).success) {
        context.addIssue({
          code: "custom",
          path: [where, name],
          message: SECRET_HINT,
          params: { secret: true },
        });
      }
    }
  });

/**
 * How to stop (or prepare to stop, or start) a host: an argv run without a shell, or an HTTP webhook
 * that gets a JSON body. Nothing from Slack input is ever put into either. Credentials come from the
 * environment or a file, never from this file.
 */
export const actionSchema = z.union([
  z.strictObject({
    command: z.array(text(COMMAND_MAX)).min(1).max(100),
    timeout_seconds: seconds(3600).default(120),
  }),
  webhookAction,
]);

const hostSettings = z
  .strictObject({
    owners: z.array(slackUserId).max(100).default([]),
    /** Never alert or stop (inference servers and the like). */
    never_stop: z.boolean().default(false),
    /** Rental or cloud price per hour, in the team currency (instead of `purchase_price`). */
    cost_per_hour: z.number().nonnegative().max(1_000_000).optional(),
    /**
     * With `cost_per_hour`: a rental billed every hour, on or off (default: a cloud instance, billed
     * only while it is on). Rented and cloud hosts are the do-not-renew candidates.
     */
    rented: z.boolean().default(false),
    /** What the host cost to buy, in the team currency; written off straight-line over `lifetime_months`. */
    purchase_price: z.number().nonnegative().max(1_000_000_000).optional(),
    /** Months over which `purchase_price` is written off; default `costs.lifetime_months`. */
    lifetime_months: z.number().int().min(1).max(240).optional(),
    /** Wall power of the whole host when on, in watts: used for hours without power readings. */
    rated_watts: z.number().positive().max(100_000).optional(),
    /** Upkeep (space, cooling, admin, repairs) as % of the hardware cost; default `costs.upkeep_pct`. */
    upkeep_pct: z.number().min(0).max(1000).optional(),
    /** Upkeep paid only while the host is on, per hour in the team currency (a stop saves it, like power). */
    upkeep_per_hour_on: z.number().nonnegative().max(1_000_000).optional(),
    /** Run before `stop`, e.g. a checkpoint or a disk snapshot; a failure cancels the stop. */
    pre_stop: actionSchema.optional(),
    stop: actionSchema.optional(),
    /**
     * Starts a stopped host again: Wake-on-LAN, `ipmitool chassis power on`, a cloud API behind a
     * webhook. Run by `/gpu start`, the *Start* buttons, and a claim, queue grant or reservation of a
     * host the bot stopped.
     */
    start: actionSchema.optional(),
    /** Show what would run instead of running it (overrides the global `dry_run`). */
    dry_run: z.boolean().optional(),
    /** The autopilot for this host (`policy.autopilot`); default: the fleet's `policy.autopilot.enabled`. */
    autopilot: z.boolean().optional(),
    /**
     * Stop automatically when an idle episode lasts this long after the alert, with a countdown, whatever
     * is on the host (the autopilot stands aside for such a host).
     */
    auto_stop: z
      .strictObject({ after_minutes: z.number().int().min(30).max(MINUTES_PER_WEEK).default(30) })
      .optional(),
  })
  .refine((host) => host.cost_per_hour === undefined || host.purchase_price === undefined, {
    path: ["purchase_price"],
    error: "either cost_per_hour (rented or cloud) or purchase_price (owned), not both",
  });

const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "a time of day such as 09:00");

/** A tariff window in the team time zone, `from` inclusive, `to` exclusive; it may cross midnight. */
const tariffWindow = z
  .strictObject({
    /** Shown in reports, e.g. `valley` or `peak`. */
    name: z.string().min(1).max(20).default("valley"),
    from: timeOfDay,
    to: timeOfDay,
    price_per_kwh: z.number().nonnegative().max(100),
  })
  .refine((window) => window.from !== window.to, "a window whose from and to differ");

/** What a host costs: electricity, upkeep and the write-off period for purchased hardware. */
const costsSchema = z
  .strictObject({
    /** Upkeep as % of the hardware cost (the seeds' figure: 30 %); a host may override it. */
    upkeep_pct: z.number().min(0).max(1000).default(30),
    /** Default write-off period of purchased hosts, in months. */
    lifetime_months: z.number().int().min(1).max(240).default(36),
    electricity: z
      .strictObject({
        /** The price outside every window (a flat tariff has no windows), per kWh in the team currency. */
        price_per_kwh: z.number().nonnegative().max(100).default(0.3),
        /** Peak/valley windows in the team time zone; the first window that holds a minute prices it. */
        windows: z.array(tariffWindow).max(48).default([]),
      })
      .prefault({}),
  })
  .prefault({});

export const configSchema = z.strictObject({
  team: z
    .strictObject({
      name: text(100).default("our team"),
      timezone: timeZone.default("UTC"),
      currency: z.string().length(3).default("EUR"),
      /** Channel posts, the summary and its chart in this language; `auto`: each person's Slack locale where one person reads. */
      language: z.enum([...LANGUAGES, "auto"]).default("en"),
      /** When people are at work, in `timezone`: the autopilot stops a host someone left a session on only outside these hours. */
      working_hours: z
        .strictObject({
          days: z
            .array(z.enum(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]))
            .max(7)
            .default(["mon", "tue", "wed", "thu", "fri"]),
          from: timeOfDay.default("09:00"),
          to: z
            .string()
            .regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, "a time of day such as 18:00")
            .default("18:00"),
        })
        .refine((hours) => hours.to > hours.from, { message: "to must be after from", path: ["to"] })
        .prefault({}),
      /** Local days (`2026-12-24`) without working hours. */
      holidays: z.array(z.iso.date()).max(1000).default([]),
      /**
       * Each person's login names on the hosts (`U024BE7LH: [alice]`): the autopilot's warning about a
       * stale session also goes to the people whose processes or sessions it names.
       */
      logins: z.record(slackUserId, z.array(z.string().min(1).max(64)).max(100)).default({}),
    })
    .prefault({}),
  slack: z
    .strictObject({
      channel: text(80).default("#gpu"),
      admins: z.array(slackUserId).max(100).default([]),
    })
    .prefault({}),
  /** How idle alerts reach the channel. */
  alerts: z
    .strictObject({
      /**
       * When more than this many hosts turn idle in one poll, the channel gets one digest (their
       * alerts in its thread) and each owner one DM with *Stop all mine*, instead of a message each.
       * With clusters the digest names them ("37 hosts went idle in cluster b").
       */
      digest_over: z.number().int().min(1).max(100_000).default(10),
    })
    .prefault({}),
  http: z
    .strictObject({
      port: z.number().int().min(0).max(65535).default(3000),
      host: text(253).default("127.0.0.1"),
    })
    .prefault({}),
  poll: z
    .strictObject({
      interval_seconds: z
        .number()
        .int()
        .min(5)
        .max(3600)
        .refine(
          (s) => s < 5 || s > 3600 || cronForInterval(s) !== null,
          "an interval that divides a minute or an hour evenly",
        )
        .default(60),
    })
    .prefault({}),
  store: z
    .strictObject({
      path: text(4096).default("gpu-warden.db"),
      /**
       * How long raw samples stay in the store. Default: 8 days for hosts of a local, SSH or simulated
       * source; for hosts of a Prometheus-compatible source only the window a restart rebuilds idle
       * states from (`protect_minutes` + `idle_for_minutes` + 30 min, 3 h by default), and never before
       * their hour is rolled up: the engine keeps the raw samples and is asked for history (sparklines,
       * the look-back at start); the store keeps current state, idle episodes, claims, alerts and hourly
       * rollups. Set, it applies to every host.
       */
      raw_retention_days: z.number().positive().max(90).optional(),
      rollup_retention_days: z.number().int().min(400).max(3650).default(400),
    })
    .prefault({}),
  policy: z
    .strictObject({
      idle_util_pct: z.number().min(0).max(100).default(10),
      idle_for_minutes: z.number().int().positive().max(MINUTES_PER_WEEK).default(30),
      /**
       * No idle episode within this long of busy work starting (a job may still be setting up or
       * between stages); not for a host with nothing left on it: no GPU process, no GPU memory and,
       * where the source sees sessions, no login session.
       */
      protect_minutes: z.number().int().nonnegative().max(MINUTES_PER_WEEK).default(120),
      escalate_after_minutes: z.number().int().positive().max(MINUTES_PER_WEEK).default(240),
      /** Polls without data before a "no data from host" notice. */
      no_data_polls: z.number().int().min(1).max(1000).default(5),
      /** The longest a Keep may snooze a host (an admin's cap). */
      max_keep_hours: z
        .number()
        .positive()
        .max(24 * 90)
        .default(72),
      /**
       * The local time "Keep until tomorrow" runs to, in the team time zone, on the next working day
       * (`team.working_hours`, `team.holidays`): pressed on a Friday, it runs to Monday.
       */
      keep_until_tomorrow_at: z
        .string()
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "a time of day such as 09:00")
        .default("09:00"),
      /** A GPU at full utilisation with no memory held and a power draw below this is suspect (a driver fault). */
      suspect_idle_power_watts: z.number().positive().max(2000).default(150),
      /**
       * The autopilot: stops hosts that have a `stop` action when the evidence needs nobody's answer,
       * after a warning with Keep. A claim, a reservation within the hour or a Keep holds it, except
       * that outside working hours a claim or Keep made while something was on the host no longer
       * holds it once the host has been empty for `empty_minutes` (the claim stays; the Keep ends).
       */
      autopilot: z
        .strictObject({
          /** On for every host with a `stop` action; a host's `autopilot: false` turns it off there. */
          enabled: z.boolean().default(true),
          /** Nothing on the host (no GPU process or memory, no login) for this long: warn, then stop. */
          empty_minutes: z.number().int().min(5).max(MINUTES_PER_WEEK).default(30),
          /**
           * GPUs idle and no input on the host for this long (a forgotten notebook): warn in a working
           * day's evening, then stop after working hours that evening — never at the weekend, on a
           * holiday or in the night before work; the cost warden is asked about such a host only in
           * a working day's evening too.
           */
          stale_hours: z
            .number()
            .min(1)
            .max(24 * 30)
            .default(18),
          /** The least time between the warning (with Keep) and the stop. */
          warning_minutes: z
            .number()
            .int()
            .min(5)
            .max(24 * 60)
            .default(30),
          /**
           * Start-ahead: before working hours on a working day (`team.working_hours`), the bot starts
           * hosts it stopped that the team is expected to use that day (see `pick`) and says so in the
           * channel (and, with `keep`, keeps them until working hours end). Reservations start `policy.start_ahead_minutes` before their window and
           * queue grants start their host in any case. Needs the host's `start` action.
           */
          start_ahead: z
            .strictObject({
              /** Off: hosts the bot stopped are started only by people, claims, grants and reservations. */
              enabled: z.boolean().default(true),
              /** How long before working hours begin the hosts are started (a boot takes minutes). */
              minutes: z
                .number()
                .int()
                .min(1)
                .max(6 * 60)
                .default(30),
              /**
               * Which hosts: `cheapest` starts one host for the team's first work of the day, when a GPU
               * of the fleet was busy in working hours on each of the last `usual_days` working days and
               * no host reports a GPU with nothing on it: of the hosts the bot stopped, the one whose
               * hour on costs least (what a stop saves: a cloud price, a bought host's power; among hosts
               * without a price, the first by name), where the morning's notebooks and small runs land
               * instead of each person starting their own.
               * `usual` starts each host that was busy in working hours on each of the last
               * `usual_days` working days (more hosts on before anyone comes: more idle cost).
               */
              pick: z.enum(["cheapest", "usual"]).default("cheapest"),
              /** A host (with `pick: usual`; the fleet with `cheapest`) counts as expected when a GPU of it was busy in working hours on each of this many last working days. */
              usual_days: z.number().int().min(1).max(20).default(3),
              /**
               * Keep a host started ahead until working hours end (a Keep by the bot, audited), so the
               * autopilot does not stop it before its people arrive. Off: once it reports, the
               * autopilot's usual rules apply (an empty host is stopped again after `empty_minutes`
               * and the warning), which costs less when the expected people come late or not at all.
               */
              keep: z.boolean().default(false),
              /**
               * Without `keep`: a host started ahead is kept (by the bot, audited) this long into
               * working hours, so that the team's first arrivals find it on; then the autopilot's rules
               * apply (an empty host is warned, and stopped `warning_minutes` later). 0: not kept.
               */
              keep_minutes: z
                .number()
                .int()
                .min(0)
                .max(24 * 60)
                .default(60),
            })
            .prefault({}),
        })
        .prefault({}),
      /** After a successful stop, how long the host may go on reporting before the bot says the stop may not have worked; it gets no new idle alert meanwhile (unless used since the stop). */
      stop_grace_minutes: z
        .number()
        .int()
        .min(1)
        .max(24 * 60)
        .default(10),
      /** After a start, how long the host has to report again before the bot says the start did not work. */
      start_grace_minutes: z
        .number()
        .int()
        .min(1)
        .max(24 * 60)
        .default(10),
      /** A stopped host with a reservation window is started this long before the window opens. */
      start_ahead_minutes: z
        .number()
        .int()
        .min(0)
        .max(24 * 60)
        .default(10),
    })
    .prefault({}),
  /** Claims (`/gpu claim`): how long they last, the reminder before the end, claimed-but-idle rules. */
  claims: z
    .strictObject({
      /** A claim without `for <duration>` lasts this long. */
      default_hours: z
        .number()
        .positive()
        .max(24 * 90)
        .default(8),
      /** The longest a claim may last; extensions are cut to it. */
      max_days: z.number().positive().max(90).default(3),
      /** The holder gets a DM (Extend 4 h / Release) this long before the claim ends; 0: none. */
      reminder_minutes: z.number().int().nonnegative().max(MINUTES_PER_WEEK).default(60),
      /** Claimed GPUs idle this long: a DM to the holder (Still using it / Release). */
      claim_idle_nudge_minutes: z.number().int().positive().max(MINUTES_PER_WEEK).default(120),
      /** Claimed GPUs idle this long are released with a notice; `null` turns this off. */
      claim_idle_release_minutes: z.number().int().positive().max(MINUTES_PER_WEEK).nullable().default(240),
    })
    .refine(
      (claims) =>
        claims.claim_idle_release_minutes === null ||
        claims.claim_idle_release_minutes > claims.claim_idle_nudge_minutes,
      {
        message: "claim_idle_release_minutes must be longer than claim_idle_nudge_minutes (or null: off)",
        path: ["claim_idle_release_minutes"],
      },
    )
    .refine((claims) => claims.default_hours <= claims.max_days * 24, {
      message: "default_hours must not be longer than max_days",
      path: ["default_hours"],
    })
    .prefault({}),
  /** The waiting list (`/gpu claim … --wait`). */
  queue: z
    .strictObject({
      /** A grant nobody confirms within this long is released and passes to the next in line. */
      confirm_minutes: z
        .number()
        .int()
        .min(1)
        .max(24 * 60)
        .default(15),
      /** A claim asked to make room for a waiting request of higher priority is released this long after the ask. */
      preempt_grace_minutes: z
        .number()
        .int()
        .min(1)
        .max(24 * 60)
        .default(30),
    })
    .prefault({}),
  /**
   * Projects for the waiting list: a request waits with its project's priority (higher first, then
   * first come); a person's default project is the first one listing them. `preempt: true` lets a
   * waiting request of higher priority ask this project's running claims to make room.
   */
  projects: z
    .record(
      z
        .string()
        .max(64)
        .regex(/^[a-z0-9][a-z0-9_-]*$/, "a project name: lower-case letters, digits, '_' or '-'"),
      z.strictObject({
        members: z.array(slackUserId).max(1000).default([]),
        /** Higher goes first; a request without a project has priority 0. */
        priority: z.number().int().min(-100).max(100).default(0),
        /** Whether this project's running claims may be asked to make room (then released after `queue.preempt_grace_minutes`). */
        preempt: z.boolean().default(false),
        /** Kubernetes namespaces whose GPU time (as Prometheus attributes it to containers) is this project's. */
        namespaces: z.array(z.string().min(1).max(63)).max(100).optional(),
        /** The value of a workload's `project` label (on the dcgm-exporter series) that means this project. */
        prometheus_label: z.string().min(1).max(64).optional(),
        /** Login names on the hosts whose busy but unclaimed GPU time is this project's (the first project listing a login is its default). */
        logins: z.array(z.string().min(1).max(64)).max(1000).optional(),
        /** Budget per calendar month (team time zone) in `team.currency`: members and the cost warden hear at 80 % and 100 %. */
        monthly_budget: z.number().positive().max(1_000_000_000).optional(),
        /** The most GPUs the project's claims may hold at once (a whole host counts all its GPUs); absent: no limit. */
        max_gpus: z.number().int().min(0).max(100_000).optional(),
      }),
    )
    .default({}),
  /**
   * Standing reservations: GPUs of a host held every week on some days for a person (and the members of
   * their project, when `projects:` names it), in the team time zone. During a window only they may claim
   * those GPUs; other claims are cut to end before it. One-off reservations are made with `/gpu reserve`.
   */
  reservations: z
    .array(
      z
        .strictObject({
          /** The holder (Slack user id). */
          user: slackUserId,
          /** A project whose members may claim during the window too. */
          project: z.string().max(64).nullable().default(null),
          /** The host and, optionally, its GPUs: `gpu-a`, `gpu-a:0-3`, `gpu-a:0,1`. */
          gpus: z
            .string()
            .max(300)
            .regex(
              /^([A-Za-z0-9][A-Za-z0-9._-]*\/)?[A-Za-z0-9][A-Za-z0-9._-]*(:\d{1,3}(-\d{1,3})?(,\d{1,3}(-\d{1,3})?)*)?$/,
              "a host and GPUs such as gpu-a:0-3",
            )
            .refine(
              (text) => (text.split(":")[1] ?? "").split(/[,-]/).every((n) => n === "" || Number(n) <= 255),
              "GPU indexes from 0 to 255",
            ),
          /** `weekdays`, `daily`, `weekends`, or days such as `mon,wed,fri`. */
          every: z
            .string()
            .max(40)
            .regex(
              /^(weekdays|daily|weekends|(mon|tue|wed|thu|fri|sat|sun)(,(mon|tue|wed|thu|fri|sat|sun))*)$/,
              "weekdays, daily, weekends or days such as mon,wed,fri",
            ),
          /** Start of the window, team time zone. */
          from: timeOfDay,
          /** End of the window (after `from`; `24:00` is midnight), team time zone. */
          to: z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, "a time of day such as 18:00"),
          /** Shown with the reservation. */
          note: z.string().max(200).default(""),
        })
        .refine((entry) => entry.to > entry.from, { message: "to must be after from", path: ["to"] }),
    )
    .max(1000)
    .superRefine((entries, ctx) => {
      for (const [first, second] of overlappingReservations(entries)) {
        const a = entries[first]!;
        const b = entries[second]!;
        ctx.addIssue({
          code: "custom",
          path: [second],
          message: `overlaps reservations[${first}]: ${b.gpus} ${b.every} ${b.from}–${b.to} (${b.user}) and ${a.gpus} ${a.every} ${a.from}–${a.to} (${a.user}) hold the same GPUs at the same time`,
        });
      }
    })
    .default([]),
  /** The monthly cost warden roster, in order (Slack user ids). */
  warden: z
    .strictObject({
      roster: z.array(slackUserId).max(100).default([]),
      /** When the new warden is announced on the 1st of each month, in the team time zone. */
      announce_time: timeOfDay.default("09:00"),
    })
    .prefault({}),
  costs: costsSchema,
  /**
   * The biweekly summary in the team channel: every other `weekday` at `time` (team time zone),
   * the first on the first such weekday on or after `start_date`.
   */
  summary: z
    .strictObject({
      enabled: z.boolean().default(true),
      weekday: z
        .enum(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
        .default("monday"),
      time: timeOfDay.default("10:00"),
      start_date: z.iso.date().default("2025-01-06"),
    })
    .prefault({}),
  /**
   * Reclaim: a host below `below_pct` mean utilisation over 30 days is watched for `observe_days`
   * (a day at or above `below_pct` clears it), then the cost warden decides: stop, lend or keep.
   */
  reclaim: z
    .strictObject({
      enabled: z.boolean().default(true),
      below_pct: z.number().min(0).max(100).default(15),
      observe_days: z.number().int().min(1).max(90).default(14),
      /** Rented or cloud hosts below this in two summary periods running are flagged: do not renew. */
      do_not_renew_below_pct: z.number().min(0).max(100).default(20),
      /** When the daily reclaim review runs, team time zone. */
      review_time: timeOfDay.default("09:30"),
    })
    .prefault({}),
  /**
   * Host hygiene, weekly and with `gpu-warden hygiene`: read-only checks over the sources' ssh or
   * local access (sshd keep-alives, full disks, Docker space, idle logins, containers without a
   * memory cap). New or changed findings go to the cost warden and the biweekly summary, once.
   */
  hygiene: z
    .strictObject({
      enabled: z.boolean().default(true),
      /** The weekly run: weekday and time in the team time zone. */
      weekday: z
        .enum(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
        .default("monday"),
      time: timeOfDay.default("08:30"),
      /** Each check on each host gives up after this long ("could not check"). */
      check_timeout_seconds: seconds(300).default(20),
      /** Hosts checked at once. */
      concurrency: z.number().int().min(1).max(64).default(8),
      /** The sshd configuration read when `sshd -T` is not allowed. */
      sshd_config: text(1024).default("/etc/ssh/sshd_config"),
      /** `ClientAliveInterval` unset or above this is flagged, seconds. */
      client_alive_max_seconds: z.number().int().min(1).max(86_400).default(300),
      /** Filesystems above this use are flagged, percent. */
      disk_full_pct: z.number().min(1).max(100).default(85),
      /** Docker images or build cache reclaimable above this are flagged, GiB. */
      docker_reclaimable_gib: z.number().min(0).max(100_000).default(10),
      /** Images no container uses, older than this, are flagged, days. */
      image_unused_days: z.number().int().min(1).max(3650).default(30),
      /** Login sessions idle this long are flagged, hours. */
      session_idle_hours: z
        .number()
        .min(1)
        .max(24 * 365)
        .default(24),
    })
    .prefault({}),
  /** Spot and valley advice in the biweekly summary, from the observed runs. */
  advice: z
    .strictObject({
      /** The cloud's spot discount against its on-demand price, percent. */
      spot_discount_pct: z.number().min(0).max(100).default(60),
    })
    .prefault({}),
  /**
   * `gpu-warden lint`: the team's rules for Kubernetes manifests and Compose files (requests and
   * limits over the 14-day peaks come from every Prometheus source with `containers: true`, each cluster's).
   */
  lint: z
    .strictObject({
      /** The namespace default CPU request a LimitRange should set, cores. */
      default_cpu_request_cores: z.number().positive().max(64).default(0.1),
      /** The namespace default GPU memory a LimitRange should set, GiB. */
      default_gpu_memory_gib: z.number().positive().max(1024).default(2),
      /** A per-container GPU memory cap above this share of the card is flagged, percent. */
      gpu_memory_cap_pct: z.number().min(1).max(100).default(70),
      /** The card's memory when Prometheus does not report it, GiB. */
      card_memory_gib: z.number().positive().max(1024).default(80),
    })
    .prefault({}),
  /** Show what stop actions would run everywhere, instead of running them. */
  dry_run: z.boolean().default(false),
  sources: z.array(sourceSchema).max(100).default([]),
  hosts: z.record(hostKey, hostSettings).default({}),
});

export type Config = z.infer<typeof configSchema>;
export type SourceConfig = z.infer<typeof sourceSchema>;
export type HostSettings = z.infer<typeof hostSettings>;
export type ActionConfig = z.infer<typeof actionSchema>;
export type SecretRef = z.infer<typeof secretRefSchema>;
