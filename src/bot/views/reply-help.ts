import { groupClaims } from "../../checks/claim-groups.ts";
import { slotsText } from "../../checks/claim-target.ts";
import type { Claim } from "../../store/claim-store.ts";
import { localWhen } from "../../usecases/action-text.ts";
import { helpText } from "../command-table.ts";
import { type Reply, section } from "./reply-message.ts";

/** The command table as help; with `claims` (bare `/gpu`), the asker's claims after it. */
export function helpReply(
  slashCommand: string,
  mine: { claims: readonly Claim[]; nowMs: number; zone: string } | null,
): Reply {
  const help = helpText(slashCommand);
  const blocks = [section(help)];
  if (mine !== null) {
    const claims = groupClaims(mine.claims).map(
      (group) => `${slotsText(group)} until ${localWhen(group.untilMs, mine.nowMs, mine.zone)}`,
    );
    blocks.push(section(claims.length === 0 ? "You hold no claims." : `Your claims: ${claims.join(", ")}.`));
  }
  return { text: `${slashCommand} commands`, blocks };
}
