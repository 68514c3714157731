// Block Kit → DOM, as Slack draws it: header, section (text, fields, accessory), context, divider,
// image, actions (buttons with styles and confirm dialogs, selects), input (modals), rich_text.

import { escapeHtml, mrkdwn, plain } from "./mrkdwn.js";
import { t } from "./words.js";

/**
 * @param {object[]} blocks
 * @param {{ names: Record<string,string>, users: {id:string,name:string}[], onButton?: Function,
 *   errors?: Record<string,string>, values?: Record<string, unknown> }} ctx
 */
export function renderBlocks(blocks, ctx) {
  const root = document.createElement("div");
  root.className = "blocks";
  for (const block of blocks ?? []) {
    const node = renderBlock(block, ctx);
    if (node) root.append(node);
  }
  return root;
}

/** HTML of a text object (mrkdwn or plain_text). */
export function textHtml(text, names) {
  if (!text) return "";
  return text.type === "mrkdwn" ? mrkdwn(text.text, names) : plain(text.text);
}

function el(tag, className, html) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (html !== undefined) node.innerHTML = html;
  return node;
}

function renderBlock(block, ctx) {
  switch (block.type) {
    case "header":
      return el("h3", "bk-header", plain(block.text?.text));
    case "divider":
      return el("hr", "bk-divider");
    case "section":
      return section(block, ctx);
    case "context": {
      const node = el("div", "bk-context");
      for (const item of block.elements ?? []) {
        if (item.type === "image") node.append(image(item, "bk-context-img"));
        else node.append(el("span", "", textHtml(item, ctx.names)));
      }
      return node;
    }
    case "image": {
      const node = el("figure", "bk-image");
      if (block.title) node.append(el("figcaption", "", plain(block.title.text)));
      node.append(image(block));
      return node;
    }
    case "actions": {
      const node = el("div", "bk-actions");
      for (const element of block.elements ?? []) node.append(elementNode(element, block, ctx));
      return node;
    }
    case "input":
      return input(block, ctx);
    case "rich_text":
      return el("div", "bk-text", escapeHtml(richText(block)));
    default:
      return el("div", "bk-unknown", `<code>${escapeHtml(block.type)}</code> block`);
  }
}

function section(block, ctx) {
  const node = el("div", "bk-section");
  const body = el("div", "bk-section-body");
  if (block.text) body.append(el("div", "bk-text", textHtml(block.text, ctx.names)));
  if (block.fields?.length) {
    const fields = el("div", "bk-fields");
    for (const field of block.fields) fields.append(el("div", "bk-field", textHtml(field, ctx.names)));
    body.append(fields);
  }
  node.append(body);
  if (block.accessory) {
    const accessory = el("div", "bk-accessory");
    accessory.append(
      block.accessory.type === "image" ? image(block.accessory) : elementNode(block.accessory, block, ctx),
    );
    node.append(accessory);
  }
  return node;
}

function image(item, className = "") {
  const img = document.createElement("img");
  img.src = item.image_url ?? item.slack_file?.url ?? "";
  img.alt = item.alt_text ?? "";
  if (className) img.className = className;
  return img;
}

/** An interactive element in a message or view. */
function elementNode(element, block, ctx) {
  if (element.type === "button") {
    const button = el("button", `bk-button ${element.style ?? ""}`.trim(), plain(element.text?.text));
    button.type = "button";
    if (element.url) {
      button.addEventListener("click", () => window.open(element.url, "_blank", "noopener"));
      return button;
    }
    button.dataset.focus = `${ctx.focusScope ?? ""}:${block.block_id ?? ""}:${element.action_id ?? ""}:${element.value ?? ""}`;
    button.addEventListener("click", () => ctx.onButton?.(element, block, button));
    return button;
  }
  if (element.type === "overflow" || element.type === "static_select") {
    const select = selectOf(element);
    select.disabled = true;
    select.title = "selects in messages are not wired in the playground";
    return select;
  }
  return el("span", "bk-unknown", `<code>${escapeHtml(element.type)}</code>`);
}

function selectOf(element, users = []) {
  const select = document.createElement("select");
  const options =
    element.type === "users_select"
      ? users.map((user) => ({ value: user.id, text: { text: user.name } }))
      : [...(element.options ?? []), ...(element.option_groups ?? []).flatMap((group) => group.options)];
  const placeholder = document.createElement("option");
  placeholder.value = "";
  placeholder.textContent = element.placeholder?.text ?? t("playground.blocks.choose");
  select.append(placeholder);
  for (const option of options) {
    const node = document.createElement("option");
    node.value = option.value;
    node.textContent = option.text?.text ?? option.value;
    select.append(node);
  }
  const initial = element.initial_option?.value ?? element.initial_user;
  if (initial) select.value = initial;
  return select;
}

/** An input block: its field carries data-block / data-action so the modal can read it back. */
function input(block, ctx) {
  const node = el("div", "bk-input");
  const id = `in-${block.block_id}-${block.element?.action_id}`;
  const label = el("label", "bk-label", plain(block.label?.text));
  label.htmlFor = id;
  if (block.optional) label.append(el("span", "muted", t("playground.blocks.optional")));
  node.append(label);
  const element = block.element ?? {};
  let field;
  switch (element.type) {
    case "plain_text_input":
      field = document.createElement(element.multiline ? "textarea" : "input");
      if (element.placeholder) field.placeholder = element.placeholder.text;
      if (element.initial_value) field.value = element.initial_value;
      break;
    case "static_select":
    case "users_select":
      field = selectOf(element, ctx.users);
      break;
    case "datepicker":
      field = document.createElement("input");
      field.type = "date";
      if (element.initial_date) field.value = element.initial_date;
      break;
    case "number_input":
      field = document.createElement("input");
      field.type = "number";
      if (element.initial_value) field.value = element.initial_value;
      break;
    case "radio_buttons":
    case "checkboxes":
      field = el("div", "bk-choices");
      for (const option of element.options ?? []) {
        const choice = el("label", "bk-choice");
        const box = document.createElement("input");
        box.type = element.type === "radio_buttons" ? "radio" : "checkbox";
        box.name = id;
        box.value = option.value;
        choice.append(box, el("span", "", textHtml(option.text, ctx.names)));
        field.append(choice);
      }
      break;
    default:
      field = el("span", "bk-unknown", `<code>${escapeHtml(element.type)}</code>`);
  }
  field.id = id;
  if (!block.optional && "required" in field) field.required = true;
  if (element.max_length && "maxLength" in field) field.maxLength = element.max_length;
  field.dataset.block = block.block_id;
  field.dataset.action = element.action_id;
  field.dataset.kind = element.type;
  const saved = ctx.values?.[id];
  if (saved !== undefined && "value" in field) field.value = saved;
  node.append(field);
  const error = ctx.errors?.[block.block_id];
  if (error) {
    const message = el("p", "bk-error", plain(error));
    message.id = `${id}-error`;
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", message.id);
    node.append(message);
  } else if (block.hint) {
    node.append(el("p", "bk-hint", plain(block.hint.text)));
  }
  return node;
}

/** The values of a modal's inputs, by block_id then action_id, as the emulator's submitView takes them. */
export function inputValues(container) {
  const values = {};
  for (const field of container.querySelectorAll("[data-block][data-action]")) {
    const { block, action, kind } = field.dataset;
    let value;
    if (kind === "checkboxes") value = [...field.querySelectorAll("input:checked")].map((box) => box.value);
    else if (kind === "radio_buttons") value = field.querySelector("input:checked")?.value;
    else value = field.value === "" ? undefined : field.value;
    if (value === undefined) continue;
    values[block] = { ...values[block], [action]: value };
  }
  return values;
}

function richText(block) {
  const walk = (node) =>
    node.text ?? (node.elements ?? []).map(walk).join(node.type === "rich_text_list" ? "\n" : "");
  return walk(block);
}
