import type { Translator } from "../../../messages/translator.ts";
import type { ProgressPlace } from "../../progress-place.ts";

/** `the alert's thread` (a link when known) or `#channel`, for an answer that points there. */
export function progressPlaceWords(tr: Translator, place: ProgressPlace): string {
  if (place.kind === "channel") return `<#${place.channel}>`;
  const thread = tr.t("common.progress.thread");
  return place.link === null ? thread : `<${place.link}|${thread}>`;
}
