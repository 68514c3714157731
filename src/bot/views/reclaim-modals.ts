import type { types } from "@slack/bolt";
import { RECLAIM_INPUTS, RECLAIM_VIEW_IDS, type ReclaimViewMetadata } from "../ids.ts";
import { escapeMrkdwn } from "./alert-format.ts";

/** The longest keep reason and project name accepted. */
export const MAX_REASON_CHARS = 500;
export const MAX_PROJECT_CHARS = 80;

/** "Lend to…": a person (who then owns the host) or a project, at least one of them. */
export function lendModal(metadata: ReclaimViewMetadata): types.ModalView {
  return {
    type: "modal",
    callback_id: RECLAIM_VIEW_IDS.lend,
    private_metadata: JSON.stringify(metadata),
    title: { type: "plain_text", text: "Lend a host" },
    submit: { type: "plain_text", text: "Lend" },
    close: { type: "plain_text", text: "Cancel" },
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: `Who gets *${escapeMrkdwn(metadata.host)}*? The person becomes its owner: they get its idle alerts and may stop or keep it.`,
        },
      },
      {
        type: "input",
        block_id: RECLAIM_INPUTS.person.block,
        optional: true,
        label: { type: "plain_text", text: "Person" },
        element: { type: "users_select", action_id: RECLAIM_INPUTS.person.action },
      },
      {
        type: "input",
        block_id: RECLAIM_INPUTS.project.block,
        optional: true,
        label: { type: "plain_text", text: "Project" },
        hint: { type: "plain_text", text: "Pick a person, name a project, or both." },
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
export function keepModal(metadata: ReclaimViewMetadata): types.ModalView {
  return {
    type: "modal",
    callback_id: RECLAIM_VIEW_IDS.keep,
    private_metadata: JSON.stringify(metadata),
    title: { type: "plain_text", text: "Keep a host" },
    submit: { type: "plain_text", text: "Keep" },
    close: { type: "plain_text", text: "Cancel" },
    blocks: [
      {
        type: "input",
        block_id: RECLAIM_INPUTS.reason.block,
        label: { type: "plain_text", text: `Why keep ${metadata.host}?` },
        hint: {
          type: "plain_text",
          text: "Shown in /gpu status and the audit, e.g. “reserved for the March eval runs”.",
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
