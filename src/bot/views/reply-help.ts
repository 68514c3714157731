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
    const claims = mine.claims.map((claim) => {
      const what = claim.gpuIndex === null ? claim.host : `${claim.host}:${claim.gpuIndex}`;
      return `${what} until ${localWhen(claim.untilMs, mine.nowMs, mine.zone)}`;
    });
    blocks.push(section(claims.length === 0 ? "You hold no claims." : `Your claims: ${claims.join(", ")}.`));
  }
  return { text: `${slashCommand} commands`, blocks };
}
