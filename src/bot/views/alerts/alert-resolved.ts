import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import { slotLabel } from "../../../shared/gpu-slot.ts";
import type { AlertEnding, ResolvedAlertView } from "../../../usecases/alerts/alert-words.ts";
import { emphasisBoundaries } from "../emphasis-boundaries.ts";
import { startButton } from "../power/start-reply.ts";
import {
  alertDuration,
  alertWhen,
  byWords,
  costOver,
  escapeMrkdwn,
  isUser,
  mention,
  truncate,
} from "./alert-format.ts";
import type { SlackMessage } from "./alert-message.ts";
import { unknownCauseWords } from "./unknown-cause.ts";

export type { AlertEnding, ResolvedAlertView };

const CAUSE_MAX = 500;

interface Described {
  title: string;
  detail: string | null;
  fallback: string;
}

/** The idle alert once it is over: what ended it, how long it lasted, what it cost; *Start* on a stopped host that can be started. */
export function resolvedAlertMessage(tr: Translator, view: ResolvedAlertView): SlackMessage {
  const { nowMs } = view;
  const idleMs = view.endedAtMs - view.idleSinceMs;
  const burned = costOver(idleMs, view.costPerHour);
  const money = burned === null ? "" : tr.t("alert.resolved.money", { amount: tr.money(burned) });
  const duration = alertDuration(tr, idleMs);
  const span = tr.t("alert.resolved.span", {
    from: alertWhen(tr, view.idleSinceMs, nowMs),
    to: alertWhen(tr, view.endedAtMs, nowMs),
    duration,
    money,
  });
  const { title, detail, fallback } = describe(tr, view);
  const zone = tr.t("alert.zone", { zone: escapeMrkdwn(tr.timeZone) });
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: truncate(title, 150) } },
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text: truncate(emphasisBoundaries(detail === null ? span : `${detail}\n${span}`), 3000),
      },
    },
    { type: "context", elements: [{ type: "mrkdwn", text: zone }] },
  ];
  const { ending } = view;
  if (view.startable === true && ending.kind === "stopped" && !ending.dryRun) {
    blocks.push(startButton(tr, view.host));
  }
  return { text: truncate(tr.t("alert.resolved.text", { title: fallback, duration, money }), 3000), blocks };
}

function describe(tr: Translator, view: ResolvedAlertView): Described {
  const { host, ending } = view;
  const bold = `*${escapeMrkdwn(host)}*`;
  switch (ending.kind) {
    case "busy": {
      const title = tr.t("alert.resolved.busy", { host });
      return { title, detail: null, fallback: title };
    }
    case "stopped":
      return describeStopped(tr, host, ending);
    case "suspect": {
      const gpus = ending.gpus.map(slotLabel).join(", ");
      const title = tr.t("alert.resolved.suspectTitle", { host });
      const detail = tr.t("alert.resolved.suspect", { host: bold, count: ending.gpus.length, gpus });
      return { title, detail, fallback: title };
    }
    case "unknown": {
      const title = tr.t("alert.resolved.unknownTitle", { host });
      const detail =
        ending.cause === null
          ? tr.t("alert.resolved.unknown", { host: bold })
          : tr.t("alert.resolved.unknownCause", {
              host: bold,
              cause: escapeMrkdwn(truncate(unknownCauseWords(tr, host, ending.cause), CAUSE_MAX)),
            });
      return { title, detail, fallback: title };
    }
    case "snoozed": {
      const until =
        ending.untilMs === null
          ? ""
          : tr.t("alert.resolved.keptUntil", { until: alertWhen(tr, ending.untilMs, view.nowMs) });
      const by =
        ending.byUser === null ? "" : tr.t("alert.resolved.keptBy", { user: mention(ending.byUser) });
      return {
        title: tr.t("alert.resolved.keptTitle", { host }),
        detail: tr.t("alert.resolved.kept", { by, until }),
        fallback: tr.t("alert.resolved.keptText", { host, by }),
      };
    }
    case "exempt": {
      const title = tr.t("alert.resolved.exemptTitle", { host });
      return { title, detail: tr.t("alert.resolved.exempt", { host: bold }), fallback: title };
    }
    case "policy": {
      const title = tr.t("alert.resolved.policyTitle", { host });
      return { title, detail: tr.t("alert.resolved.policy", { host: bold }), fallback: title };
    }
    default:
      return ending satisfies never;
  }
}

function describeStopped(
  tr: Translator,
  host: string,
  ending: Extract<AlertEnding, { kind: "stopped" }>,
): Described {
  const bold = `*${escapeMrkdwn(host)}*`;
  const automatic = ending.actor !== null && !isUser(ending.actor);
  const user = ending.actor === null ? tr.t("alert.someone") : mention(ending.actor);
  if (ending.dryRun) {
    return {
      title: tr.t("alert.resolved.dryRunTitle", { host }),
      detail: automatic
        ? tr.t("alert.resolved.dryRunAuto", { host: bold })
        : tr.t("alert.resolved.dryRunBy", { host: bold, user }),
      fallback: automatic
        ? tr.t("alert.resolved.dryRunAutoText", { host })
        : tr.t("alert.resolved.dryRunByText", { host, user }),
    };
  }
  const by = byWords(tr, ending.actor);
  return {
    title: tr.t("alert.resolved.stoppedTitle", { host }),
    detail: tr.t("alert.resolved.stopped", { by }),
    fallback: tr.t("alert.resolved.stoppedText", { host, by }),
  };
}
