import { reserve } from "../messages/en/reserve.ts";

/**
 * The `/gpu` command table: the one source of the grammar, the help text and the "right form" shown
 * with every error. Later commands (claims, reports, warden) add rows here.
 */
export interface CommandSpec {
  name: string;
  /** The form shown in help and errors, without the leading `/gpu`. */
  usage: string;
  summary: string;
  example?: string;
}

export const COMMANDS: readonly CommandSpec[] = [
  { name: "help", usage: "help", summary: "this help" },
  {
    name: "status",
    usage: "status [host]",
    summary: "fleet board: hosts, GPUs, utilisation, idle since; one host in detail",
    example: "status gpu-a",
  },
  {
    name: "claim",
    usage: "claim <host>[:<gpus>] [for <duration>] [note…] [--wait]",
    summary: "claim a host or some of its GPUs (0 / 0,1 / 0-3; a MIG instance: 0.3)",
    example: "claim gpu-a:0,1 for 4h llama sft",
  },
  {
    name: "claim",
    usage: "claim <n> [<model>] [for <duration>] [note…] [--wait]",
    summary:
      "claim any n free GPUs (of a model), packed onto one host where possible; --wait: join the line if none are free",
    example: "claim 2 a100 for 8h tuning --wait",
  },
  {
    name: "queue",
    usage: "queue [cancel]",
    summary: "the waiting list with each request's position; cancel: leave it",
    example: "queue cancel",
  },
  {
    name: "reserve",
    usage: "reserve <host>[:<gpus>] <day> <HH:MM-HH:MM> [note…]",
    summary: reserve["reserve.help"],
    example: "reserve gpu-a:0-3 tomorrow 09:00-18:00 demo",
  },
  {
    name: "reserve",
    usage: "reserve list | cancel <id>",
    summary: reserve["reserve.help.list"],
    example: "reserve cancel 3",
  },
  {
    name: "release",
    usage: "release [<host>[:<gpus>] | all]",
    summary: "release your claim (the cost warden and admins may release anyone's)",
    example: "release gpu-a:0,1",
  },
  {
    name: "extend",
    usage: "extend <host>[:<gpus>] <duration>",
    summary: "hold your claim longer",
    example: "extend gpu-a:0,1 4h",
  },
  { name: "mine", usage: "mine", summary: "your claims, with Extend and Release buttons" },
  {
    name: "keep",
    usage: "keep <host> <duration>",
    summary: "snooze idle alerts and auto-stop for a host (30m, 4h, 2d, or 'tomorrow' for 09:00)",
    example: "keep gpu-a 4h",
  },
  {
    name: "stop",
    usage: "stop <host>",
    summary: "stop an idle host (owners, claimants, the cost warden and admins)",
    example: "stop gpu-a",
  },
  {
    name: "report",
    usage: "report [<days>d]",
    summary: "cost ledger of the last days (default 7): cost, idle cost, real usage rate; the CSV by DM",
    example: "report 30d",
  },
  {
    name: "warden",
    usage: "warden [roster | swap @user | skip]",
    summary: "this month's cost warden and the next; swap or skip a turn (the warden or an admin)",
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
 * joined with ` or `.
 */
export function rightForm(name: string, slashCommand = "/gpu"): string {
  const specs = COMMANDS.filter((command) => command.name === name);
  if (specs.length === 0) return `${slashCommand} help`;
  return specs
    .map(
      (spec) =>
        `\`${slashCommand} ${spec.usage}\`${spec.example ? ` — e.g. \`${slashCommand} ${spec.example}\`` : ""}`,
    )
    .join(" or ");
}

export function helpText(slashCommand = "/gpu"): string {
  const width = Math.max(...COMMANDS.map((command) => command.usage.length));
  const lines = COMMANDS.map(
    (command) => `${slashCommand} ${command.usage.padEnd(width)}  ${command.summary}`,
  );
  return ["```", ...lines, "```", "Durations: `30m`, `4h`, `2d`. GPU lists: `0`, `0,1`, `0-3`."].join("\n");
}
