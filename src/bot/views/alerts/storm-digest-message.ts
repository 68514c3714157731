import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import type {
  StopAllMineView,
  StormDigestView,
  StormOwnerView,
} from "../../../usecases/alerts/storm-words.ts";
import type { RenderedMessage } from "../../../usecases/ports.ts";
import { ACTION_IDS, digestValue } from "../../ids.ts";
import { escapeMrkdwn, truncate } from "./alert-format.ts";

const SECTION_MAX = 3000;
/** Hosts named in an owner's DM before "and N more". */
const HOSTS_SHOWN = 40;

/** The channel's one message for a storm of idle hosts; their alerts follow in its thread. */
export function stormDigestMessage(tr: Translator, view: StormDigestView): RenderedMessage {
  const money =
    view.costPerDay === null ? "" : tr.t("alert.storm.money", { amount: tr.money(view.costPerDay) });
  const text =
    view.clusters.length === 0
      ? tr.t("alert.storm.digest", { count: view.count, money })
      : tr.t("alert.storm.digestIn", {
          count: view.count,
          money,
          clusterCount: view.clusters.length,
          clusters: clusterList(tr, view.clusters),
        });
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text: truncate(text, SECTION_MAX) } }] };
}

/** An owner's one DM in a storm: their idle hosts and *Stop all mine* (with a confirm dialog). */
export function stormOwnerMessage(tr: Translator, view: StormOwnerView): RenderedMessage {
  const money =
    view.costPerDay === null ? "" : tr.t("alert.storm.money", { amount: tr.money(view.costPerDay) });
  const where = /^[CG][A-Z0-9]{2,}$/.test(view.channel) ? `<#${view.channel}>` : escapeMrkdwn(view.channel);
  const text = tr.t("alert.storm.owner", {
    count: view.hosts.length,
    money,
    hosts: hostList(tr, view.hosts),
    where,
  });
  const button: types.Button = {
    type: "button",
    action_id: ACTION_IDS.stopAllMine,
    text: { type: "plain_text", text: tr.t("alert.storm.stopAll") },
    style: "danger",
    value: digestValue(view.digestId),
    confirm: {
      title: { type: "plain_text", text: tr.t("alert.storm.confirmTitle") },
      text: { type: "mrkdwn", text: tr.t("alert.storm.confirmText") },
      confirm: { type: "plain_text", text: tr.t("alert.confirm.yes") },
      deny: { type: "plain_text", text: tr.t("alert.confirm.no") },
      style: "danger",
    },
  };
  return {
    text: truncate(text, SECTION_MAX),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: truncate(text, SECTION_MAX) } },
      { type: "actions", block_id: "storm_owner_actions", elements: [button] },
    ],
  };
}

/**
 * What *Stop all mine* began, for the clicker: the hosts being stopped, each linked to its alert's
 * thread (`linkOf`; where its progress is said), and those left alone.
 */
export function stopAllMineText(
  tr: Translator,
  view: StopAllMineView,
  linkOf: (host: string) => string | null,
): string {
  const lines: string[] = [];
  if (view.stopping.length > 0)
    lines.push(
      tr.t("alert.storm.stopping", {
        count: view.stopping.length,
        hosts: hostList(tr, view.stopping, linkOf),
      }),
    );
  if (view.notStopped.length > 0)
    lines.push(tr.t("alert.storm.notStopped", { hosts: hostList(tr, view.notStopped) }));
  if (view.over.length > 0) lines.push(tr.t("alert.storm.over", { hosts: hostList(tr, view.over) }));
  return lines.length === 0 ? tr.t("alert.storm.nothing") : lines.join("\n");
}

function clusterList(tr: Translator, clusters: readonly string[]): string {
  return tr.list(clusters.map(escapeMrkdwn));
}

function hostList(
  tr: Translator,
  hosts: readonly string[],
  linkOf: (host: string) => string | null = () => null,
): string {
  const shown = hosts.slice(0, HOSTS_SHOWN).map((host) => {
    const link = linkOf(host);
    return link === null ? `*${escapeMrkdwn(host)}*` : `*<${link}|${escapeMrkdwn(host)}>*`;
  });
  const more = hosts.length - shown.length;
  return more > 0 ? `${shown.join(", ")} ${tr.t("alert.more", { count: more })}` : shown.join(", ");
}
