import type { Translator } from "../../../messages/translator.ts";
import type { HomeModel } from "../../../usecases/fleet/read-home.ts";
import { section } from "../reply-message.ts";
import { HOME_MAX_BLOCKS, type HomeView } from "../status/home-view.ts";
import { reservationLine } from "./reservation-lines.ts";

/**
 * The App Home with *Your reservations* after the user's claims (before the first divider): each
 * with its window and when it is in force next. Unchanged when the Home tab is full.
 */
export function withHomeReservations(tr: Translator, view: HomeView, model: HomeModel): HomeView {
  const items = model.reservations ?? [];
  if (view.blocks.length >= HOME_MAX_BLOCKS) return view;
  const text =
    items.length === 0
      ? `*${tr.t("reserve.home.none")}*`
      : [
          `*${tr.t("reserve.home.title", { count: items.length })}*`,
          ...items.slice(0, 10).map((item) => reservationLine(tr, item, model.nowMs)),
        ].join("\n");
  const at = view.blocks.findIndex((block) => block.type === "divider");
  const blocks = [...view.blocks];
  blocks.splice(at === -1 ? blocks.length : at, 0, section(text));
  return { ...view, blocks };
}
