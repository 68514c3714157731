import { groupClaims } from "../../checks/claim-groups.ts";
import { slotsText } from "../../checks/claim-target.ts";
import type { Claim } from "../../domain/claim.ts";
import type { Translator } from "../../messages/translator.ts";
import { localDayNumber } from "../../shared/time.ts";
import { helpSections } from "../commands/command-table.ts";
import { type Reply, section } from "./reply-message.ts";

/** The command table as help; with `claims` (bare `/gpu`), the asker's claims after it. */
export function helpReply(
  tr: Translator,
  slashCommand: string,
  mine: { claims: readonly Claim[]; nowMs: number } | null,
): Reply {
  const blocks = helpSections(tr, slashCommand).map(section);
  if (mine !== null) {
    const today = localDayNumber(mine.nowMs, tr.timeZone);
    const claims = groupClaims(mine.claims).map((group) =>
      tr.t(localDayNumber(group.untilMs, tr.timeZone) === today ? "help.claimUntil" : "help.claimUntilDay", {
        slots: slotsText(group),
        until: group.untilMs,
      }),
    );
    blocks.push(
      section(
        claims.length === 0 ? tr.t("help.noClaims") : tr.t("help.yourClaims", { claims: claims.join(", ") }),
      ),
    );
  }
  return { text: tr.t("help.title", { command: slashCommand }), blocks };
}
