import type { Translator } from "../../../messages/translator.ts";
import type { StartBegin, StartRefusalFacts } from "../../../usecases/power/start-host.ts";
import { ACTION_IDS, stopValue } from "../../ids.ts";
import type { ProgressPlace } from "../../progress-place.ts";
import { actions, button, type Reply, textReply } from "../reply-message.ts";
import { unknownHostWords } from "../unknown-host.ts";
import { whenWords } from "../when-words.ts";
import { whoMayAct } from "../who-may-act.ts";
import { progressPlaceWords } from "./progress-place-words.ts";

/**
 * The answer to `/gpu start <host>` or a *Start* click, in the asker's words: a begun start only
 * points to `place`, where its progress is posted (said once, there).
 */
export function startReply(tr: Translator, began: StartBegin, nowMs: number, place: ProgressPlace): Reply {
  switch (began.kind) {
    case "refused":
      return textReply(startRefusalWords(tr, began.host, began.facts));
    case "joined":
      return textReply(
        tr.t("start.reply.joined", { host: began.host, at: whenWords(tr, began.run.startedAtMs, nowMs) }),
      );
    case "not-stopped":
      return textReply(tr.t("start.refused.up", { host: began.host, at: whenWords(tr, nowMs, nowMs) }));
    case "begun": {
      const id = began.dryRun ? "start.reply.dryRun" : "start.reply.begun";
      return textReply(tr.t(id, { host: began.host, place: progressPlaceWords(tr, place) }));
    }
    default:
      return began satisfies never;
  }
}

/** Why a start was refused, in the reader's words. */
export function startRefusalWords(tr: Translator, host: string, facts: StartRefusalFacts): string {
  switch (facts.reason) {
    case "unknown-host":
      return unknownHostWords(tr, facts.unknown);
    case "no-start-action":
      return tr.t("start.refused.noAction", { host });
    case "already-up":
      return tr.t("start.refused.up", { host, at: whenWords(tr, facts.lastOkAtMs, facts.nowMs) });
    case "not-allowed": {
      const who = whoMayAct(tr, facts.authority);
      if (who === null) return tr.t("start.refused.nobody", { host });
      if (facts.projects.length === 0) return tr.t("start.refused.only", { who, host });
      return tr.t("start.refused.onlyProjects", { who, host, projects: facts.projects.join(", ") });
    }
    default:
      return facts satisfies never;
  }
}

/** The *Start* button for a stopped host (the stopped alert, the Home tab). */
export function startButton(tr: Translator, host: string): ReturnType<typeof actions> {
  return actions([
    button({ actionId: ACTION_IDS.startHost, text: tr.t("start.button"), value: stopValue(host) }),
  ]);
}
