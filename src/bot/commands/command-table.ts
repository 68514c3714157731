import type { MessageId } from "../../messages/catalog.ts";
import type { Translator } from "../../messages/translator.ts";

/** The catalog ids of the help lines. */
export type HelpSummaryId = Extract<MessageId, `help.command.${string}`>;

/**
 * The `/gpu` command table: the one source of the grammar, the help text and the "right form" shown
 * with every error. Later commands (claims, reports, warden) add rows here.
 */
export interface CommandSpec {
  name: string;
  /** The form shown in help and errors, without the leading `/gpu`. */
  usage: string;
  /** The catalog's one-line summary for help. */
  summary: HelpSummaryId;
  example?: string;
}

export const COMMANDS: readonly CommandSpec[] = [
  { name: "help", usage: "help", summary: "help.command.help" },
  {
    name: "status",
    usage: "status [host]",
    summary: "help.command.status",
    example: "status gpu-a",
  },
  {
    name: "claim",
    usage: "claim <host>[:<gpus>] [for <duration>] [note…] [--wait] [project=<name>]",
    summary: "help.command.claimHost",
    example: "claim gpu-a:0,1 for 4h llama sft",
  },
  {
    name: "claim",
    usage: "claim <n> [<model>] [for <duration>] [note…] [--wait] [project=<name>]",
    summary: "help.command.claimCount",
    example: "claim 2 a100 for 8h tuning --wait",
  },
  {
    name: "claim",
    usage: "claim <n> gpus>=<GiB> [for <duration>] [note…] [--valley] [--wait]",
    summary: "help.command.claimPlaced",
    example: "claim 2 gpus>=40g for 8h --valley",
  },
  {
    name: "queue",
    usage: "queue [cancel]",
    summary: "help.command.queue",
    example: "queue cancel",
  },
  {
    name: "reserve",
    usage: "reserve <host>[:<gpus>] <day> <HH:MM-HH:MM> [note…]",
    summary: "help.command.reserve",
    example: "reserve gpu-a:0-3 tomorrow 09:00-18:00 demo",
  },
  {
    name: "reserve",
    usage: "reserve list | cancel <id>",
    summary: "help.command.reserveList",
    example: "reserve cancel 3",
  },
  {
    name: "release",
    usage: "release [<host>[:<gpus>] | all]",
    summary: "help.command.release",
    example: "release gpu-a:0,1",
  },
  {
    name: "extend",
    usage: "extend <host>[:<gpus>] <duration>",
    summary: "help.command.extend",
    example: "extend gpu-a:0,1 4h",
  },
  { name: "mine", usage: "mine", summary: "help.command.mine" },
  {
    name: "keep",
    usage: "keep <host> <duration>",
    summary: "help.command.keep",
    example: "keep gpu-a 4h",
  },
  {
    name: "stop",
    usage: "stop <host>",
    summary: "help.command.stop",
    example: "stop gpu-a",
  },
  {
    name: "start",
    usage: "start <host>",
    summary: "help.command.start",
    example: "start gpu-a",
  },
  {
    name: "report",
    usage: "report [<days>d] | report project [<YYYY-MM>]",
    summary: "help.command.report",
    example: "report 30d",
  },
  {
    name: "request",
    usage: "request [<project>]",
    summary: "help.command.request",
    example: "request nlp",
  },
  {
    name: "heatmap",
    usage: "heatmap [project=<name>]",
    summary: "help.command.heatmap",
    example: "heatmap project=vision",
  },
  {
    name: "warden",
    usage: "warden [roster | swap @user | skip]",
    summary: "help.command.warden",
    example: "warden swap @alice",
  },
];

export function commandSpec(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}

/** The distinct command names, in table order (a command may have several forms). */
export function commandNames(): string[] {
  return [...new Set(COMMANDS.map((command) => command.name))];
}

/**
 * `` `/gpu keep <host> <duration>` — e.g. `/gpu keep gpu-a 4h` ``; every form of the command,
 * joined with "or" in the reader's language.
 */
export function rightForm(tr: Translator, name: string, slashCommand = "/gpu"): string {
  const specs = COMMANDS.filter((command) => command.name === name);
  if (specs.length === 0) return `\`${slashCommand} help\``;
  return specs
    .map((spec) => {
      const form = `\`${slashCommand} ${spec.usage}\``;
      if (spec.example === undefined) return form;
      return tr.t("command.formExample", { form, example: `\`${slashCommand} ${spec.example}\`` });
    })
    .reduce((first, second) => tr.t("command.or", { first, second }));
}

/** Characters of one help section: Slack cuts a section's text at 3,000. */
const HELP_SECTION_CHARS = 2_900;

/**
 * The help as sections that each fit one Block Kit section: the command table in as many code
 * blocks as it needs (never cut inside a line), then the footer.
 */
export function helpSections(tr: Translator, slashCommand = "/gpu"): string[] {
  const width = Math.max(...COMMANDS.map((command) => command.usage.length));
  const lines = COMMANDS.map(
    (command) => `${slashCommand} ${command.usage.padEnd(width)}  ${tr.t(command.summary)}`,
  );
  const chunks: string[][] = [[]];
  let size = 0;
  for (const line of lines) {
    const current = chunks[chunks.length - 1]!;
    if (current.length > 0 && size + line.length + 1 > HELP_SECTION_CHARS - 8) {
      chunks.push([line]);
      size = line.length + 1;
    } else {
      current.push(line);
      size += line.length + 1;
    }
  }
  const footer = tr.t("help.footer", { durations: "`30m`, `4h`, `2d`", gpuLists: "`0`, `0,1`, `0-3`" });
  return [...chunks.map((chunk) => ["```", ...chunk, "```"].join("\n")), footer];
}
