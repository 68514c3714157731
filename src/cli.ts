import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { parseArgs } from "node:util";
import { describeConfig, describeConfigError } from "./config/describe-config.ts";
import { ConfigError, type LoadedConfig, loadConfig } from "./config/load-config.ts";
import { describeCliProblem } from "./describe-cli-problem.ts";
import { listenEarly } from "./main/listen-early.ts";
import type { startBot } from "./main.ts";
import { ENGLISH, type Translator, translatorFor } from "./messages/translator.ts";
import type { startPlayground } from "./playground/start-playground.ts";
import { fleetTable } from "./reports/fleet-table.ts";
import { hygieneText } from "./reports/hygiene-report.ts";
import { ledgerCsv } from "./reports/ledger-csv.ts";
import { ledgerTable, reportRangeText } from "./reports/ledger-table.ts";
import { type LintFormat, lintReport } from "./reports/lint-report.ts";
import { projectCsv, projectTable } from "./reports/project-table.ts";
import { whatIfCsv } from "./reports/what-if-csv.ts";
import { whatIfTable } from "./reports/what-if-table.ts";
import { type Clock, systemClock } from "./shared/clock.ts";
import { type HeldStream, heldStream } from "./shared/held-stream.ts";
import { createLogger, type Logger } from "./shared/logger.ts";
import { NothingToWatchError, nothingToWatch, slackTokensSet } from "./sources/nothing-to-watch.ts";
import { ReportRangeError } from "./usecases/ledger/ledger-report.ts";
import { isMonth } from "./usecases/ledger/project-report.ts";

// words-ok: the usage, printed before the configuration (and with it the team's language) is read
const USAGE = `gpu-warden — keeps a team's GPU machines busy or switched off

usage:
  gpu-warden start [--config FILE] [--playground | --no-playground]
                                                poll the fleet, alert, serve /healthz and /metrics;
                                                with no Slack tokens (or --playground) it serves
                                                the playground: a local Slack-like page with a
                                                simulated fleet, at http://127.0.0.1:3000/
  gpu-warden collect --once [--json] [--config FILE]
                                                poll every host once and print one line per host;
                                                exit code 1 when no host could be read
  gpu-warden check-config [--config FILE]       validate the configuration and summarise it
  gpu-warden report --since DATE [--until DATE] [--csv] [--config FILE]
                                                the cost ledger per host over local days (team
                                                time zone, DATE as YYYY-MM-DD, --until included,
                                                default yesterday): hours on, busy/idle GPU-hours,
                                                energy, cost, idle cost, monthly real usage rate
  gpu-warden report --by project [--month YYYY-MM] [--csv] [--config FILE]
                                                the month (default this one; its complete local
                                                days) split among projects: GPU-hours claimed and
                                                busy, cost of what each used, idle cost of what it
                                                held, share of the fleet's cost, hours waited in
                                                the queue; unattributed time in a row of its own
  gpu-warden what-if [--since 30d|DATE] [--policy NAME…] [--json | --csv] [--config FILE]
                                                replay the store's readings of the fleet under each
                                                policy (autopilot, process-autostop-N,
                                                skypilot-autostop-N, nightly, nightly-smart),
                                                nobody answering: the stops each would have made,
                                                the capacity freed, the money saved and every
                                                would-be false stop (host, time, process owner)
  gpu-warden backup FILE [--config FILE]        copy the store to FILE (SQLite's online backup: safe
                                                while the bot runs; FILE is replaced when it exists)
  gpu-warden restore FILE [--config FILE]       replace the store with the backup FILE and bring it up
                                                to this version (refused while the bot runs; the
                                                replaced store is kept as <store>.before-restore)
  gpu-warden lint FILE… [--format text|json|github] [--config FILE]
                                                check Kubernetes manifests (Pod, Deployment, StatefulSet,
                                                Job, CronJob…) and Compose files (- reads standard input,
                                                e.g. helm template … | gpu-warden lint -): GPU containers
                                                without requests or limits, requests above 1.2 × the CPU
                                                peak or 1.3 × the GPU memory peak of 14 days (from
                                                Prometheus), namespaces without defaults, serving without
                                                a higher PriorityClass, GPU memory caps above 70 %;
                                                exit code 1 on findings, 2 on unreadable input
  gpu-warden hygiene [--host H]… [--json] [--config FILE]
                                                read-only checks on the hosts of ssh and local
                                                sources: sshd ClientAliveInterval, disks above 85 %,
                                                Docker space and old images, logins idle for a day,
                                                containers without a memory cap; exit code 1 when
                                                something needs fixing or could not be checked
  gpu-warden help | --help                      this text
  gpu-warden --version

With no --config, ./gpu-warden.yaml is read when present; otherwise the embedded defaults are used
(the local GPUs when nvidia-smi is on the PATH, else a simulated fleet; with Slack tokens set,
'start' needs a sources: list or nvidia-smi, and never posts a simulated fleet to the team channel).
Environment: SLACK_BOT_TOKEN with SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode),
SLACK_API_URL, PORT, LOG_LEVEL (trace|debug|info|warn|error|silent); for tests and replays only,
GPU_WARDEN_NOW (an ISO 8601 instant such as 2026-03-05T12:00:00Z: the clock starts there).
`;

class UsageError extends Error {}

/**
 * The CLI's clock: the system's, or with `GPU_WARDEN_NOW` (tests and replays) one that starts at that
 * ISO 8601 instant and runs at the system's pace. `"bad"` when the variable is not such an instant.
 */
export function clockFrom(env: Record<string, string | undefined>): Clock | "bad" {
  const typed = env.GPU_WARDEN_NOW?.trim();
  if (typed === undefined || typed === "") return systemClock;
  const startMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(typed)
    ? Date.parse(typed)
    : Number.NaN;
  if (!Number.isFinite(startMs)) return "bad";
  const offsetMs = startMs - systemClock.now();
  return { now: () => systemClock.now() + offsetMs };
}

/** Usage problems come before the configuration (and its language) is read: English. */

function goWith(options: string, owner: string, command: string): string {
  return ENGLISH.t("cli.usage.optionsGoWith", { options, owner, command });
}

/** Entry point of the `gpu-warden` command. Returns the exit code. */
export async function runCli(argv: readonly string[], io = defaultIo()): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const { command, values } = parsed;
  const clock = clockFrom(io.env);
  if (clock === "bad") {
    io.stderr.write(`${ENGLISH.t("cli.usage.badNow", { typed: io.env.GPU_WARDEN_NOW ?? "" })}\n`);
    return 2;
  }
  if (command === "help" || values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (command === "version" || values.version) {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }

  let loaded: LoadedConfig;
  try {
    loaded = loadConfig(io.env, { file: values.config, cwd: io.cwd });
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(describeConfigError(error));
      return 2;
    }
    throw error;
  }
  const tr = translatorFor(loaded.config.team);
  if (loaded.empty && command !== "check-config") {
    io.stderr.write(`${tr.t("cli.emptyConfig", { file: loaded.file ?? "" })}\n`);
  }
  const format =
    loaded.env.logFormat ?? ((io.stderr as { isTTY?: boolean }).isTTY === true ? "pretty" : "json");
  const logs = format === "pretty" && command === "start" ? heldStream(io.stderr) : null;
  const logger = createLogger(loaded.env.logLevel, logs ?? io.stderr, format);
  const context = {
    loaded,
    logger,
    pathEnv: io.env.PATH ?? "",
    hostName: hostname(),
    stdout: io.stdout,
    clock,
  };

  const run: CliRun = {
    io,
    tr,
    context,
    values,
    loaded,
    logger,
    file: parsed.file,
    files: parsed.files,
    logs,
  };
  switch (command) {
    case "check-config":
      if (nothingToWatch(loaded, context.pathEnv))
        return explained(tr, new NothingToWatchError(loaded.file), io.stderr);
      io.stdout.write(describeConfig(tr, loaded.config, loaded.file, loaded.empty ?? false));
      return 0;
    case "report":
      return reportCommand(run);
    case "what-if":
      return whatIfCommand(run);
    case "collect":
      return collectCommand(run);
    case "backup":
      return backupCommand(run);
    case "restore":
      return restoreCommand(run);
    case "start":
      return startCommand(run);
    case "lint":
      return lintCommand(run);
    case "hygiene":
      return hygieneCommand(run);
    default:
      return command satisfies never;
  }
}

/** What every command has: the streams, the reader's translator, the loaded config and the options. */
interface CliRun {
  io: ReturnType<typeof defaultIo>;
  tr: Translator;
  context: {
    loaded: LoadedConfig;
    logger: Logger;
    pathEnv: string;
    hostName: string;
    stdout: NodeJS.WritableStream;
    clock: Clock;
  };
  values: ReturnType<typeof parse>["values"];
  loaded: LoadedConfig;
  logger: Logger;
  /** Start-up logs held until the playground's URL is printed (a terminal), else `null`. */
  logs: HeldStream | null;
  file: string | undefined;
  /** `lint`'s files, as given. */
  files: string[];
}

/** `report`: the cost ledger as a table or CSV. */
async function reportCommand(run: CliRun): Promise<number> {
  const { io, tr, context, values, loaded } = run;
  if (values.by !== undefined) return projectReportCommand(run);
  if (values.since === undefined) {
    io.stderr.write(`${tr.t("cli.reportNeedsSince", { zone: loaded.config.team.timezone })}\n\n${USAGE}`);
    return 2;
  }
  const { reportOnce, StoreMissingError } = await loadRunOnce();
  try {
    const report = reportOnce(context, { since: values.since, until: values.until });
    io.stdout.write(values.csv ? ledgerCsv(tr, report) : ledgerTable(tr, report));
    return 0;
  } catch (error) {
    if (error instanceof ReportRangeError) {
      io.stderr.write(`${reportRangeText(tr, error.problem)}\n`);
      return 2;
    }
    if (error instanceof StoreMissingError) {
      io.stderr.write(`${error.message}\n`);
      return 1;
    }
    return explained(tr, error, io.stderr);
  }
}

/** `report --by project [--month YYYY-MM] [--csv]`: the month split among projects. */
async function projectReportCommand(run: CliRun): Promise<number> {
  const { io, tr, context, values } = run;
  const { projectReportOnce } = await import("./main/project-report-once.ts");
  const { StoreMissingError } = await loadRunOnce();
  try {
    const report = projectReportOnce(context, values.month);
    io.stdout.write(values.csv ? projectCsv(tr, report) : projectTable(tr, report));
    return 0;
  } catch (error) {
    if (error instanceof StoreMissingError) {
      io.stderr.write(`${error.message}\n`);
      return 1;
    }
    return explained(tr, error, io.stderr);
  }
}

/** `what-if`: the fleet's history (the store's readings, an engine's history) replayed under each policy, as a table, JSON or CSV. */
async function whatIfCommand(run: CliRun): Promise<number> {
  const { io, tr, context, values } = run;
  const { whatIfOnce, WhatIfSinceError } = await import("./main/what-if-once.ts");
  const { WhatIfPolicyError, DEFAULT_WHAT_IF_POLICIES } = await import(
    "./usecases/autopilot/replay-what-if.ts"
  );
  const policies = values.policy?.flatMap((name) => name.split(",")) ?? [...DEFAULT_WHAT_IF_POLICIES];
  try {
    const report = await whatIfOnce(context, { since: values.since, policies });
    if (values.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else if (values.csv) io.stdout.write(whatIfCsv(tr, report));
    else io.stdout.write(whatIfTable(tr, report));
    return 0;
  } catch (error) {
    if (error instanceof WhatIfSinceError) {
      io.stderr.write(`${tr.t("whatIf.badSince", { typed: error.typed })}\n`);
      return 2;
    }
    if (error instanceof WhatIfPolicyError) {
      io.stderr.write(`${tr.t("whatIf.badPolicy", { policy: error.policy })}\n`);
      return 2;
    }
    const { StoreMissingError } = await loadRunOnce();
    if (error instanceof StoreMissingError) {
      io.stderr.write(`${error.message}\n`);
      return 1;
    }
    return explained(tr, error, io.stderr);
  }
}

/** `collect --once`: one poll of every source, printed. */
async function collectCommand(run: CliRun): Promise<number> {
  const { io, tr, context, values } = run;
  const observations = await (await loadRunOnce()).collectOnce(context);
  io.stdout.write(values.json ? `${JSON.stringify(observations, null, 2)}\n` : fleetTable(observations, tr));
  if (observations.some((obs) => obs.ok)) return 0;
  io.stderr.write(`${tr.t("collect.noneRead", { count: observations.length })}\n`);
  return 1;
}

/** `backup FILE`: a copy of the store. */
async function backupCommand(run: CliRun): Promise<number> {
  const { io, tr, context } = run;
  try {
    const done = await (await loadRunOnce()).backupOnce(context, run.file!);
    const line = tr.t("cli.backedUp", {
      store: done.store,
      file: done.file,
      kib: String(Math.round(done.bytes / 1024)),
      version: done.schemaVersion,
    });
    io.stdout.write(`${line}\n`);
    return 0;
  } catch (error) {
    return explained(tr, error, io.stderr);
  }
}

/** `restore FILE`: a backup put in place. */
async function restoreCommand(run: CliRun): Promise<number> {
  const { io, tr, context } = run;
  try {
    const done = await (await loadRunOnce()).restoreOnce(context, run.file!);
    const restored =
      done.fromVersion === done.schemaVersion
        ? tr.t("cli.restored", { store: done.store, file: done.file, from: done.fromVersion })
        : tr.t("cli.restoredMigrated", {
            store: done.store,
            file: done.file,
            from: done.fromVersion,
            version: done.schemaVersion,
          });
    const line =
      done.keptAs === null ? restored : tr.t("cli.keptAs", { done: restored, keptAs: done.keptAs });
    io.stdout.write(`${line}\n`);
    return 0;
  } catch (error) {
    return explained(tr, error, io.stderr);
  }
}

/** `lint FILE…`: findings in resource files, as text, JSON or GitHub annotations. */
async function lintCommand(run: CliRun): Promise<number> {
  const { io, tr, values, loaded } = run;
  const format = values.format ?? "text";
  if (!LINT_FORMATS.includes(format as LintFormat)) {
    io.stderr.write(`${tr.t("lint.badFormat", { format })}\n`);
    return 2;
  }
  const files: { name: string; text: string }[] = [];
  let unreadable = false;
  for (const name of run.files) {
    try {
      files.push({ name, text: name === "-" ? await readAll(io.stdin) : readFileSync(name, "utf8") });
    } catch (error) {
      const detail = (error as NodeJS.ErrnoException).code ?? String(error);
      io.stderr.write(`${tr.t("lint.unreadable", { file: name, detail })}\n`);
      unreadable = true;
    }
  }
  const { lintOnce } = await import("./main/lint-once.ts");
  const outcome = await lintOnce(files, loaded.config, run.context.clock.now());
  if (typeof outcome.usage === "object")
    io.stderr.write(`${tr.t("lint.usageFailed", { detail: outcome.usage.failed })}\n`);
  io.stdout.write(lintReport(tr, outcome.findings, files.length, format as LintFormat));
  if (unreadable || outcome.findings.some((f) => f.rule === "unparsable")) return 2;
  return outcome.findings.length > 0 ? 1 : 0;
}

const LINT_FORMATS: readonly LintFormat[] = ["text", "json", "github"];

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/** `hygiene`: the read-only host checks now, as text or JSON. */
async function hygieneCommand(run: CliRun): Promise<number> {
  const { io, tr, values, loaded, context } = run;
  const { hygieneOnce } = await import("./main/hygiene-once.ts");
  const done = await hygieneOnce(loaded.config, context.hostName, context.clock, values.host ?? []);
  if (done.known.length === 0) {
    io.stderr.write(`${tr.t("hygiene.noHosts")}\n`);
    return 2;
  }
  if (done.unknown.length > 0) {
    io.stderr.write(
      `${tr.t("hygiene.unknownHost", { host: done.unknown.join(", "), hosts: done.known.join(", ") })}\n`,
    );
    return 2;
  }
  io.stdout.write(values.json ? `${JSON.stringify(done.results, null, 2)}\n` : hygieneText(tr, done.results));
  const fine = done.results.every(
    (r) =>
      r.outcome.status !== "could-not-check" &&
      (r.outcome.status !== "checked" || r.outcome.findings.length === 0),
  );
  return fine ? 0 : 1;
}

/** `start`: the bot (or the playground) until SIGINT or SIGTERM. */
async function startCommand(run: CliRun): Promise<number> {
  const { io, tr, context, values, loaded, logger } = run;
  // NOTE: the handlers go in before start-up, so a SIGTERM that comes while the bot is still
  // starting (systemd, a quick Ctrl-C) stops it cleanly instead of killing it mid-write; and
  // before the playground's URL is printed, since whoever reads that line may stop it at once.
  const signals = new Map<NodeJS.Signals, () => void>();
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      signals.set(signal, () => resolve(signal));
      process.once(signal, signals.get(signal)!);
    }
  });
  const playground =
    values.playground === true || (values["no-playground"] !== true && !slackTokensSet(loaded.env));
  let bot: Awaited<ReturnType<typeof startBot>> | Awaited<ReturnType<typeof startPlayground>>;
  const early = playground ? null : await listenEarly(loaded);
  try {
    bot = playground
      ? await (await import("./playground/start-playground.ts")).startPlayground(context)
      : await (await loadMain()).startBot({ ...context, ...(early && { http: early }) });
  } catch (error) {
    await early?.close();
    for (const [signal, handler] of signals) process.off(signal, handler);
    run.logs?.release();
    return explained(tr, error, io.stderr);
  }
  if ("url" in bot) {
    io.stdout.write(`${tr.t("cli.playground", { url: bot.url })}\n`);
  }
  run.logs?.release();
  const signal = await signalled;
  logger.info({ signal }, "shutting down");
  try {
    await bot.stop();
    return 0;
  } catch (error) {
    logger.error({ err: error }, "shutdown failed");
    return 1;
  }
}

const COMMANDS = [
  "start",
  "collect",
  "check-config",
  "report",
  "what-if",
  "backup",
  "restore",
  "lint",
  "hygiene",
  "help",
  "version",
] as const;
type Command = (typeof COMMANDS)[number];

function parse(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      config: { type: "string", short: "c" },
      once: { type: "boolean" },
      json: { type: "boolean" },
      since: { type: "string" },
      until: { type: "string" },
      csv: { type: "boolean" },
      by: { type: "string" },
      month: { type: "string" },
      policy: { type: "string", multiple: true },
      format: { type: "string" },
      host: { type: "string", multiple: true },
      playground: { type: "boolean" },
      "no-playground": { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
  const [first = values.help ? "help" : values.version ? "version" : undefined, ...rest] = positionals;
  if (first === undefined) throw new UsageError(ENGLISH.t("cli.usage.missingCommand"));
  if (!COMMANDS.includes(first as Command))
    throw new UsageError(ENGLISH.t("cli.usage.unknownCommand", { command: first }));
  const command = first as Command;
  const takesFile = command === "backup" || command === "restore";
  if (takesFile && rest.length === 0) throw new UsageError(ENGLISH.t("cli.usage.needsFile", { command }));
  if (command === "lint" && rest.length === 0) throw new UsageError(ENGLISH.t("lint.noFiles"));
  if (command !== "lint" && values.format !== undefined)
    throw new UsageError(goWith("--format", "lint", command));
  if (command !== "lint" && rest.length > (takesFile ? 1 : 0))
    throw new UsageError(ENGLISH.t("cli.usage.unexpected", { argument: String(rest.at(-1)) }));
  if (command !== "collect" && values.once) throw new UsageError(goWith("--once", "collect", command));
  if (command !== "collect" && command !== "what-if" && command !== "hygiene" && values.json) {
    throw new UsageError(goWith("--json", "collect, what-if, hygiene", command));
  }
  if (command !== "what-if" && values.policy !== undefined) {
    throw new UsageError(goWith("--policy", "what-if", command));
  }
  if (command === "what-if" && (values.until !== undefined || (values.json && values.csv))) {
    throw new UsageError(
      values.until !== undefined
        ? goWith("--until", "report", command)
        : ENGLISH.t("cli.usage.notBoth", { first: "--json", second: "--csv" }),
    );
  }
  if (command !== "hygiene" && values.host !== undefined)
    throw new UsageError(goWith("--host", "hygiene", command));
  if (command !== "start" && (values.playground || values["no-playground"])) {
    throw new UsageError(goWith("--playground and --no-playground", "start", command));
  }
  if (values.playground && values["no-playground"]) {
    throw new UsageError(
      ENGLISH.t("cli.usage.notBoth", { first: "--playground", second: "--no-playground" }),
    );
  }
  if (
    command !== "report" &&
    command !== "what-if" &&
    (values.since !== undefined || values.until !== undefined || values.csv)
  ) {
    throw new UsageError(goWith("--since, --until and --csv", "report", command));
  }
  checkByProject(command, values);
  return { command, values, file: takesFile ? rest[0] : undefined, files: command === "lint" ? rest : [] };
}

/** `--by project` and `--month` (a `YYYY-MM`) go with `report`, and not with `--since`/`--until`. */
function checkByProject(
  command: Command,
  values: {
    by?: string | undefined;
    month?: string | undefined;
    since?: string | undefined;
    until?: string | undefined;
  },
): void {
  if (values.by === undefined && values.month === undefined) return;
  if (command !== "report") throw new UsageError(goWith("--by and --month", "report", command));
  if (values.by?.toLowerCase() !== "project") {
    throw new UsageError(ENGLISH.t("money.cli.byProject", { typed: values.by ?? "" }));
  }
  if (values.month !== undefined && !isMonth(values.month)) {
    throw new UsageError(ENGLISH.t("money.cli.notMonth", { typed: values.month }));
  }
  if (values.since !== undefined || values.until !== undefined) {
    throw new UsageError(
      ENGLISH.t("cli.usage.notBoth", { first: "--by project", second: "--since/--until" }),
    );
  }
}

/**
 * NOTE: the composition root (and with it Bolt, SQLite and every use-case) is loaded only by the
 * commands that need it, so `--version`, `help` and `check-config` start in a fraction of the time.
 */
function loadMain(): Promise<typeof import("./main.ts")> {
  return import("./main.ts");
}

/** The commands that run once (collect, report, backup, restore): the store and sources, not Bolt. */
function loadRunOnce(): Promise<typeof import("./main/run-once.ts")> {
  return import("./main/run-once.ts");
}

/** Prints a problem the user can fix as one line and returns its exit code; rethrows anything else. */
function explained(tr: Translator, error: unknown, stderr: NodeJS.WritableStream): number {
  const problem = describeCliProblem(tr, error);
  if (problem === null) throw error;
  stderr.write(`${problem.line}\n`);
  return problem.exitCode;
}

function packageVersion(): string {
  const url = new URL("../package.json", import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}

function defaultIo() {
  return {
    stdout: process.stdout as NodeJS.WritableStream,
    stderr: process.stderr as NodeJS.WritableStream,
    stdin: process.stdin as NodeJS.ReadableStream,
    env: process.env as Record<string, string | undefined>,
    cwd: process.cwd(),
  };
}
