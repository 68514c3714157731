import type { types } from "@slack/bolt";
import { slotsText } from "../../../checks/claim-target.ts";
import { type Estimate, ETA_HORIZON_DAYS } from "../../../checks/queue-eta.ts";
import { MIN_HISTORY_WEEKS, PROFILE_WEEKS } from "../../../checks/week-profile.ts";
import type { QueueWant } from "../../../domain/queue-request.ts";
import type { Translator } from "../../../messages/translator.ts";
import type { HomeQueue, QueueEstimate } from "../../../usecases/queue/read-queue-eta.ts";
import { context, LIMITS, type Reply, section } from "../reply-message.ts";
import { visibleLines } from "./queue-visible-lines.ts";

const USUAL_FREE_SHOWN = 20;

/** `around Tue 14:00`, or why there is no estimate. */
export function estimateWords(tr: Translator, estimate: Estimate): string {
  switch (estimate.kind) {
    case "at":
      return tr.t("eta.around", { at: estimate.atMs });
    case "too-little-history":
      return tr.t("eta.tooLittle", { days: estimate.historyDays, needed: MIN_HISTORY_WEEKS * 7 });
    case "none":
      return tr.t("eta.none", { days: ETA_HORIZON_DAYS });
    default:
      return estimate satisfies never;
  }
}

/** `2 A100 GPUs`, `gpu-a:0,1`, `2 GPUs with at least 40 GiB, in the valley hours only`. */
export function etaWantWords(tr: Translator, want: QueueWant): string {
  if (want.kind === "slots") return slotsText(want);
  const what =
    want.model === null
      ? tr.t("eta.want.any", { count: want.count })
      : tr.t("eta.want.model", { count: want.count, model: want.model });
  const floored =
    want.floorMiB === undefined
      ? what
      : tr.t("queue.want.floor", { what, gib: Math.round(want.floorMiB / 1024) });
  return want.valley === true ? tr.t("queue.want.valley", { what: floored }) : floored;
}

/** A reply with one more context block at its end (text unchanged). */
function withContext(reply: Reply, text: string): Reply {
  return {
    ...reply,
    blocks: [...(reply.blocks ?? [section(reply.text)]), context(text)],
  };
}

/** `/gpu queue` with each waiting request's estimated time under the line (the asker's always among them). */
export function withQueueEstimates(
  tr: Translator,
  reply: Reply,
  estimates: readonly QueueEstimate[],
  asker: string | null = null,
): Reply {
  if (estimates.length === 0) return reply;
  const all = estimates.map(({ position, estimate }) =>
    tr.t("eta.queue.line", { position, estimate: estimateWords(tr, estimate) }),
  );
  const mine = estimates.findIndex(({ request }) => request.user === asker);
  const lines = visibleLines(all, mine, { budget: 2_900, maxLines: 40 }, (count) =>
    tr.t("queue.list.more", { count }),
  );
  return withContext(reply, [tr.t("eta.queue.title", { weeks: PROFILE_WEEKS }), ...lines].join("\n"));
}

/** The queued reply with the place in line and the estimated time. */
export function withQueuedEstimate(tr: Translator, reply: Reply, estimate: QueueEstimate): Reply {
  return withContext(
    reply,
    tr.t("eta.queued", { position: estimate.place, estimate: estimateWords(tr, estimate.estimate) }),
  );
}

/**
 * `/gpu status` with "usually free around …" for each busy host that has an estimate (hosts without
 * enough history are left out), as one context block while the reply has room for it.
 */
export function withUsualFree(tr: Translator, reply: Reply, usual: ReadonlyMap<string, Estimate>): Reply {
  const lines = [...usual.entries()]
    .filter(([, estimate]) => estimate.kind === "at")
    .slice(0, USUAL_FREE_SHOWN)
    .map(([host, estimate]) =>
      tr.t("eta.status.line", { host: `*${host}*`, estimate: estimateWords(tr, estimate) }),
    );
  if (lines.length === 0 || (reply.blocks?.length ?? 1) >= LIMITS.blocksPerMessage) return reply;
  return withContext(reply, [tr.t("eta.status.title", { weeks: PROFILE_WEEKS }), ...lines].join("\n"));
}

/** App Home's waiting-list blocks: the reader's place in line with estimates, then each model's line. */
export function homeQueueBlocks(tr: Translator, queue: HomeQueue): types.KnownBlock[] {
  const mine =
    queue.mine.length === 0
      ? [tr.t("eta.home.empty")]
      : queue.mine.slice(0, 10).map(
          ({ request, place, estimate }) =>
            `${tr.t("eta.home.line", {
              position: place,
              want: etaWantWords(tr, request.want),
              estimate: estimateWords(tr, estimate),
            })} ${tr.t("money.home.project", { project: request.project ?? "_none", priority: request.priority })}`,
        );
  const blocks: types.KnownBlock[] = [section(`*${tr.t("eta.home.title")}*\n${mine.join("\n")}`)];
  if (queue.models.length > 0) {
    const models = queue.models.slice(0, 20).map((line) =>
      tr.t("eta.home.model", {
        model: line.model,
        gpus: line.gpus,
        estimate: estimateWords(tr, line.estimate),
      }),
    );
    blocks.push(context(`*${tr.t("eta.home.models")}*\n${models.join("\n")}`));
  }
  return blocks;
}
