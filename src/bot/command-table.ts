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
];

export function commandSpec(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}

/** `/gpu keep <host> <duration>` — e.g. `/gpu keep gpu-a 4h`. */
export function rightForm(name: string, slashCommand = "/gpu"): string {
  const spec = commandSpec(name);
  if (!spec) return `${slashCommand} help`;
  return `\`${slashCommand} ${spec.usage}\`${spec.example ? ` — e.g. \`${slashCommand} ${spec.example}\`` : ""}`;
}

export function helpText(slashCommand = "/gpu"): string {
  const width = Math.max(...COMMANDS.map((command) => command.usage.length));
  const lines = COMMANDS.map((command) => `${slashCommand} ${command.usage.padEnd(width)}  ${command.summary}`);
  return ["```", ...lines, "```", "Durations: `30m`, `4h`, `2d`."].join("\n");
}
