import type { StoredMessage } from "../../src/playground/slack-emulator/emulator-state.ts";
import type { BotHarness } from "./bot-harness.ts";

interface Block {
  type: string;
  text?: { text: string };
  elements?: Array<{ action_id?: string; text?: string | { text: string } }>;
}

/** What a person reads in blocks: section and context texts, joined by lines. */
export function shownText(blocks: readonly unknown[] | undefined): string {
  return ((blocks ?? []) as Block[])
    .flatMap((block) => {
      if (block.type === "section") return [block.text?.text ?? ""];
      if (block.type === "context") {
        return (block.elements ?? []).map((element) =>
          typeof element.text === "string" ? element.text : (element.text?.text ?? ""),
        );
      }
      return [];
    })
    .join("\n")
    .replaceAll("\u200b", "");
}

/** The action ids of the buttons and menus in blocks' actions, in order. */
export function actionIds(blocks: readonly unknown[] | undefined): string[] {
  return ((blocks ?? []) as Block[]).flatMap((block) =>
    block.type === "actions" ? (block.elements ?? []).map((element) => String(element.action_id)) : [],
  );
}

/** The bot's latest DM to `user` (edits applied); throws when there is none. */
export function lastDm(h: BotHarness, user: string): StoredMessage {
  const message = h.emulator.dms(user).at(-1);
  if (message === undefined) throw new Error(`no DM to ${user}`);
  return message;
}
