import type { Translator } from "../../../messages/translator.ts";
import type { HomeModel } from "../../../usecases/fleet/read-home.ts";
import { HOME_MAX_BLOCKS, type HomeView } from "../status/home-view.ts";
import { homeQueueBlocks } from "./eta-words.ts";

/**
 * App Home with the reader's place in the waiting list (position and estimated time) and the line
 * for each GPU model, right after their claims (before the first divider), as far as Slack's block
 * limit leaves room.
 */
export function withHomeQueue(tr: Translator, view: HomeView, model: Pick<HomeModel, "queue">): HomeView {
  const room = HOME_MAX_BLOCKS - view.blocks.length;
  if (room <= 0 || model.queue === undefined) return view;
  const added = [...homeQueueBlocks(tr, model.queue), { type: "divider" as const }].slice(0, room);
  const at = view.blocks.findIndex((block) => block.type === "divider");
  const blocks = [...view.blocks];
  blocks.splice(at === -1 ? blocks.length : at, 0, ...added);
  return { ...view, blocks };
}
