import type { Translator } from "../../messages/translator.ts";
import { rightForm } from "../commands/command-table.ts";
import { type Reply, textReply } from "./reply-message.ts";

/** What was wrong, then the command's right form (or where the commands are listed), in the reader's language. */
export function commandErrorReply(
  tr: Translator,
  problem: string,
  command: string | null,
  slashCommand: string,
): Reply {
  const form =
    command === null
      ? tr.t("command.seeHelp", { help: `\`${slashCommand} help\`` })
      : tr.t("command.rightForm", { forms: rightForm(tr, command, slashCommand) });
  return textReply(`${problem}\n${form}`);
}
