import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import { RECLAIM_INPUTS, RECLAIM_VIEW_IDS, type ReclaimViewMetadata } from "../../ids.ts";
import { escapeMrkdwn } from "../alerts/alert-format.ts";
import { section } from "../reply-message.ts";

/** The longest keep reason and project name accepted. */
export const MAX_REASON_CHARS = 500;
export const MAX_PROJECT_CHARS = 80;

/** "Lend to…": a person (who then owns the host) or a project, at least one of them. */
export function lendModal(tr: Translator, metadata: ReclaimViewMetadata): types.ModalView {
  return {
    type: "modal",
    callback_id: RECLAIM_VIEW_IDS.lend,
    private_metadata: JSON.stringify(metadata),
    title: { type: "plain_text", text: tr.t("reclaim.lend.title") },
    submit: { type: "plain_text", text: tr.t("reclaim.lend.submit") },
    close: { type: "plain_text", text: tr.t("reclaim.lend.close") },
    blocks: [
      section(tr.t("reclaim.lend.intro", { host: `*${escapeMrkdwn(metadata.host)}*` })),
      {
        type: "input",
        block_id: RECLAIM_INPUTS.person.block,
        optional: true,
        label: { type: "plain_text", text: tr.t("reclaim.lend.person") },
        element: { type: "users_select", action_id: RECLAIM_INPUTS.person.action },
      },
      {
        type: "input",
        block_id: RECLAIM_INPUTS.project.block,
        optional: true,
        label: { type: "plain_text", text: tr.t("reclaim.lend.project") },
        hint: { type: "plain_text", text: tr.t("reclaim.lend.hint") },
        element: {
          type: "plain_text_input",
          action_id: RECLAIM_INPUTS.project.action,
          max_length: MAX_PROJECT_CHARS,
        },
      },
    ],
  };
}

/** "Keep…": the reason is required. */
export function keepModal(tr: Translator, metadata: ReclaimViewMetadata): types.ModalView {
  return {
    type: "modal",
    callback_id: RECLAIM_VIEW_IDS.keep,
    private_metadata: JSON.stringify(metadata),
    title: { type: "plain_text", text: tr.t("reclaim.keep.title") },
    submit: { type: "plain_text", text: tr.t("reclaim.keep.submit") },
    close: { type: "plain_text", text: tr.t("reclaim.keep.close") },
    blocks: [
      {
        type: "input",
        block_id: RECLAIM_INPUTS.reason.block,
        label: { type: "plain_text", text: tr.t("reclaim.keep.label", { host: metadata.host }) },
        hint: {
          type: "plain_text",
          text: tr.t("reclaim.keep.hint"),
        },
        element: {
          type: "plain_text_input",
          action_id: RECLAIM_INPUTS.reason.action,
          multiline: true,
          min_length: 1,
          max_length: MAX_REASON_CHARS,
        },
      },
    ],
  };
}
