import {
  claimReply,
  extendReply,
  releaseReply,
  stillUsingReply,
  waitlistReply,
} from "../../src/bot/views/claims/claim-reply.ts";
import type { Translator } from "../../src/messages/translator.ts";
import type { ClaimGpusResult } from "../../src/usecases/claims/claim-gpus.ts";
import type { StillUsingResult } from "../../src/usecases/claims/claim-still-using.ts";
import type { WaitResult } from "../../src/usecases/claims/claim-waitlist.ts";
import type { ExtendResult } from "../../src/usecases/claims/extend-claims.ts";
import type { ReleaseResult } from "../../src/usecases/claims/release-claims.ts";

/** What a claim use-case's result says to its asker, as the bot's views render it (the problem line of an error). */
export interface Said {
  claim(result: ClaimGpusResult): string;
  release(result: ReleaseResult): string;
  extend(result: ExtendResult): string;
  wait(result: WaitResult): string;
  stillUsing(result: StillUsingResult): string;
}

/** {@link Said} for the reader `tr` at the time `now()`. */
export function saidBy(tr: Translator, now: () => number): Said {
  const firstLine = (text: string) => text.split("\n")[0]!;
  return {
    claim: (result) => firstLine(claimReply(tr, result, now(), "/gpu").text),
    release: (result) => firstLine(releaseReply(tr, result, now(), "/gpu").text),
    extend: (result) => firstLine(extendReply(tr, result, now(), "/gpu").text),
    wait: (result) => waitlistReply(tr, result, "/gpu").text,
    stillUsing: (result) => stillUsingReply(tr, result, now()).text,
  };
}
