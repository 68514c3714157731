import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import type { PlacedClaimResult } from "../../../usecases/claims/claim-placed.ts";
import { context, type Reply, section, textReply } from "../reply-message.ts";
import { claimReply } from "./claim-reply.ts";

const GIB = 1024;

/** The answer to `/gpu claim <n> gpus>=<GiB> [--valley]`: the claims, their price, and the valley's terms. */
export function placementReply(
  tr: Translator,
  result: PlacedClaimResult,
  request: { count: number; floorMiB: number },
  nowMs: number,
  slashCommand: string,
): Reply {
  const floor = Math.round(request.floorMiB / GIB);
  switch (result.kind) {
    case "placed": {
      const replies = result.claimed.map((claimed) => claimReply(tr, claimed, nowMs, slashCommand));
      const { pricePerHour, picks } = result.placement;
      const count = picks.reduce((sum, pick) => sum + pick.gpus.length, 0);
      const lines = [
        pricePerHour === null
          ? tr.t("placement.unpriced", { count, floor })
          : tr.t("placement.price", { count, floor, price: pricePerHour / count, total: pricePerHour }),
      ];
      if (result.valley !== null) {
        const { window, valleyPricePerKWh, basePricePerKWh, endMs, savedPerHour } = result.valley;
        lines.push(
          tr.t("placement.valley.granted", {
            window,
            end: endMs,
            valley: valleyPricePerKWh,
            base: basePricePerKWh,
            saved: savedPerHour,
          }),
        );
      }
      const blocks: types.KnownBlock[] = [
        ...replies.flatMap((reply) => reply.blocks ?? [section(reply.text)]),
        context(lines.join("\n")),
      ];
      return { text: [...replies.map((reply) => reply.text), ...lines].join("\n"), blocks };
    }
    case "short":
      return textReply(
        tr.t("placement.short", { free: result.free, fitting: result.fitting, floor, count: result.count }),
      );
    case "claim":
      return claimReply(tr, result.result, nowMs, slashCommand);
    case "no-valley":
      return textReply(tr.t("placement.valley.none"));
    case "outside-valley":
      return textReply(
        tr.t("placement.valley.outside", {
          window: result.terms.window,
          start: result.startMs,
          valley: result.terms.valleyPricePerKWh,
          base: result.terms.basePricePerKWh,
        }),
      );
    default:
      return result satisfies never;
  }
}
