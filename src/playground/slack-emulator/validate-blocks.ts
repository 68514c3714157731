import { charCount, isObject, type JsonObject } from "./json.ts";

/** Where blocks are shown; it decides the block count limit (50 in a message, 100 in a view). */
export type Surface = "message" | "modal" | "home";

export const MAX_BLOCKS: Readonly<Record<Surface, number>> = { message: 50, modal: 100, home: 100 };
export const MAX_MARKDOWN_TOTAL_CHARS = 12_000;

/*
 * Slack answers a Block Kit violation with lines of the form `<what> [json-pointer:<where>]`.
 * The wordings below are the ones Slack returns: "must be less than 3001 characters",
 * "must be more than 0 characters", "no more than 50 items allowed", "missing required field: x",
 * "must provide an object", "invalid additional property: x", "failed to match all allowed schemas"
 * (a text field that takes plain_text or mrkdwn reports it before the length), and
 * "`action_id` \"x\" already exists".
 */
class Problems {
  readonly lines: string[] = [];

  add(message: string, pointer: string): void {
    this.lines.push(`${message} [json-pointer:${pointer}]`);
  }
}

type TextKind = "any" | "plain";

interface TextRule {
  kind: TextKind;
  maxChars: number;
  required: boolean;
  /** Report "failed to match all allowed schemas" before a length error (Slack does for some fields). */
  oneOfLine?: boolean;
}

const TEXT_KEYS: Readonly<Record<string, readonly string[]>> = {
  plain_text: ["type", "text", "emoji"],
  mrkdwn: ["type", "text", "verbatim"],
};

function lengthProblem(chars: number, minChars: number, maxChars: number): string | undefined {
  if (chars < minChars) return `must be more than ${minChars - 1} characters`;
  if (chars > maxChars) return `must be less than ${maxChars + 1} characters`;
  return undefined;
}

function extraKeys(p: Problems, object: JsonObject, allowed: readonly string[], pointer: string): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) p.add(`invalid additional property: ${key}`, pointer);
  }
}

function textField(
  p: Problems,
  parent: JsonObject,
  key: string,
  parentPointer: string,
  rule: TextRule,
): void {
  const value = parent[key];
  const pointer = `${parentPointer}/${key}`;
  if (value === undefined) {
    if (rule.required) p.add(`missing required field: ${key}`, parentPointer);
    return;
  }
  if (!isObject(value)) {
    p.add("must provide an object", pointer);
    return;
  }
  checkTextObject(p, value, pointer, rule);
}

function checkTextObject(p: Problems, value: JsonObject, pointer: string, rule: TextRule): void {
  const type = value.type;
  const allowed = rule.kind === "plain" ? ["plain_text"] : ["plain_text", "mrkdwn"];
  if (typeof type !== "string" || !allowed.includes(type)) {
    p.add("failed to match all allowed schemas", pointer);
    return;
  }
  extraKeys(p, value, TEXT_KEYS[type] ?? [], pointer);
  const text = value.text;
  if (text === undefined) {
    p.add("missing required field: text", pointer);
    return;
  }
  if (typeof text !== "string") {
    p.add("must provide a string", `${pointer}/text`);
    return;
  }
  const problem = lengthProblem(charCount(text), 1, rule.maxChars);
  if (problem === undefined) return;
  if (rule.kind === "any" || rule.oneOfLine === true) p.add("failed to match all allowed schemas", pointer);
  p.add(problem, `${pointer}/text`);
}

interface StringRule {
  maxChars: number;
  required?: boolean;
  minChars?: number;
}

function stringField(
  p: Problems,
  parent: JsonObject,
  key: string,
  parentPointer: string,
  rule: StringRule,
): void {
  const value = parent[key];
  if (value === undefined) {
    if (rule.required === true) p.add(`missing required field: ${key}`, parentPointer);
    return;
  }
  if (typeof value !== "string") {
    p.add("must provide a string", `${parentPointer}/${key}`);
    return;
  }
  const problem = lengthProblem(charCount(value), rule.minChars ?? 0, rule.maxChars);
  if (problem !== undefined) p.add(problem, `${parentPointer}/${key}`);
}

function arrayField(
  p: Problems,
  parent: JsonObject,
  key: string,
  parentPointer: string,
  rule: { maxItems: number; minItems?: number; required?: boolean },
): unknown[] | undefined {
  const value = parent[key];
  if (value === undefined) {
    if (rule.required === true) p.add(`missing required field: ${key}`, parentPointer);
    return undefined;
  }
  const pointer = `${parentPointer}/${key}`;
  if (!Array.isArray(value)) {
    p.add("must provide an array", pointer);
    return undefined;
  }
  if (value.length > rule.maxItems) p.add(`no more than ${rule.maxItems} items allowed`, pointer);
  const minItems = rule.minItems ?? 0;
  if (value.length < minItems) p.add(`must provide at least ${minItems} items`, pointer);
  return value;
}

function enumField(
  p: Problems,
  parent: JsonObject,
  key: string,
  parentPointer: string,
  allowed: string[],
): void {
  const value = parent[key];
  if (value === undefined) return;
  if (typeof value !== "string" || !allowed.includes(value)) {
    p.add(`must be one of: ${allowed.join(", ")}`, `${parentPointer}/${key}`);
  }
}

function checkConfirm(p: Problems, parent: JsonObject, parentPointer: string): void {
  const confirm = parent.confirm;
  if (confirm === undefined) return;
  const pointer = `${parentPointer}/confirm`;
  if (!isObject(confirm)) {
    p.add("must provide an object", pointer);
    return;
  }
  extraKeys(p, confirm, ["title", "text", "confirm", "deny", "style"], pointer);
  textField(p, confirm, "title", pointer, { kind: "plain", maxChars: 100, required: true });
  textField(p, confirm, "text", pointer, { kind: "any", maxChars: 300, required: true });
  textField(p, confirm, "confirm", pointer, { kind: "plain", maxChars: 30, required: true });
  textField(p, confirm, "deny", pointer, { kind: "plain", maxChars: 30, required: true });
  enumField(p, confirm, "style", pointer, ["primary", "danger"]);
}

interface OptionRule {
  textKind: TextKind;
  allowUrl: boolean;
}

function checkOption(p: Problems, option: unknown, pointer: string, rule: OptionRule): void {
  if (!isObject(option)) {
    p.add("must provide an object", pointer);
    return;
  }
  extraKeys(
    p,
    option,
    rule.allowUrl ? ["text", "value", "description", "url"] : ["text", "value", "description"],
    pointer,
  );
  textField(p, option, "text", pointer, { kind: rule.textKind, maxChars: 75, required: true });
  stringField(p, option, "value", pointer, { maxChars: 75, required: true, minChars: 1 });
  textField(p, option, "description", pointer, { kind: rule.textKind, maxChars: 75, required: false });
  if (rule.allowUrl) stringField(p, option, "url", pointer, { maxChars: 3000 });
}

function checkOptions(
  p: Problems,
  element: JsonObject,
  key: string,
  pointer: string,
  limits: { maxItems: number; minItems: number; required: boolean },
  rule: OptionRule,
): void {
  const options = arrayField(p, element, key, pointer, limits);
  options?.forEach((option, i) => {
    checkOption(p, option, `${pointer}/${key}/${i}`, rule);
  });
}

function checkSelectOptions(p: Problems, element: JsonObject, pointer: string): void {
  const rule: OptionRule = { textKind: "plain", allowUrl: false };
  if (element.options === undefined && element.option_groups === undefined) {
    p.add("missing required field: options", pointer);
    return;
  }
  checkOptions(p, element, "options", pointer, { maxItems: 100, minItems: 0, required: false }, rule);
  const groups = arrayField(p, element, "option_groups", pointer, { maxItems: 100 });
  groups?.forEach((group, i) => {
    const groupPointer = `${pointer}/option_groups/${i}`;
    if (!isObject(group)) {
      p.add("must provide an object", groupPointer);
      return;
    }
    extraKeys(p, group, ["label", "options"], groupPointer);
    textField(p, group, "label", groupPointer, { kind: "plain", maxChars: 75, required: true });
    checkOptions(p, group, "options", groupPointer, { maxItems: 100, minItems: 1, required: true }, rule);
  });
}

const INPUT_COMMON = ["type", "action_id", "focus_on_load", "placeholder"];
const SELECT_COMMON = [...INPUT_COMMON, "confirm"];
const MULTI = ["max_selected_items"];

const ELEMENT_KEYS: Readonly<Record<string, readonly string[]>> = {
  button: ["type", "text", "action_id", "url", "value", "style", "confirm", "accessibility_label"],
  workflow_button: ["type", "text", "action_id", "workflow", "style", "accessibility_label"],
  static_select: [...SELECT_COMMON, "options", "option_groups", "initial_option"],
  multi_static_select: [...SELECT_COMMON, ...MULTI, "options", "option_groups", "initial_options"],
  external_select: [...SELECT_COMMON, "initial_option", "min_query_length"],
  multi_external_select: [...SELECT_COMMON, ...MULTI, "initial_options", "min_query_length"],
  users_select: [...SELECT_COMMON, "initial_user"],
  multi_users_select: [...SELECT_COMMON, ...MULTI, "initial_users"],
  conversations_select: [
    ...SELECT_COMMON,
    "initial_conversation",
    "default_to_current_conversation",
    "response_url_enabled",
    "filter",
  ],
  multi_conversations_select: [
    ...SELECT_COMMON,
    ...MULTI,
    "initial_conversations",
    "default_to_current_conversation",
    "filter",
  ],
  channels_select: [...SELECT_COMMON, "initial_channel", "response_url_enabled"],
  multi_channels_select: [...SELECT_COMMON, ...MULTI, "initial_channels"],
  overflow: ["type", "action_id", "options", "confirm"],
  datepicker: [...SELECT_COMMON, "initial_date"],
  timepicker: [...SELECT_COMMON, "initial_time", "timezone"],
  datetimepicker: ["type", "action_id", "focus_on_load", "confirm", "initial_date_time"],
  checkboxes: ["type", "action_id", "focus_on_load", "confirm", "options", "initial_options"],
  radio_buttons: ["type", "action_id", "focus_on_load", "confirm", "options", "initial_option"],
  plain_text_input: [
    ...INPUT_COMMON,
    "initial_value",
    "multiline",
    "min_length",
    "max_length",
    "dispatch_action_config",
  ],
  number_input: [
    ...INPUT_COMMON,
    "is_decimal_allowed",
    "initial_value",
    "min_value",
    "max_value",
    "dispatch_action_config",
  ],
  email_text_input: [...INPUT_COMMON, "initial_value", "dispatch_action_config"],
  url_text_input: [...INPUT_COMMON, "initial_value", "dispatch_action_config"],
  rich_text_input: [...INPUT_COMMON, "initial_value", "dispatch_action_config"],
  file_input: ["type", "action_id", "filetypes", "max_files"],
  image: ["type", "image_url", "slack_file", "alt_text"],
};

const SELECTS = [
  "static_select",
  "multi_static_select",
  "external_select",
  "multi_external_select",
  "users_select",
  "multi_users_select",
  "conversations_select",
  "multi_conversations_select",
  "channels_select",
  "multi_channels_select",
];

const ACCESSORY_TYPES = new Set([
  "button",
  "workflow_button",
  "overflow",
  "datepicker",
  "timepicker",
  "checkboxes",
  "radio_buttons",
  "image",
  ...SELECTS,
]);
const ACTIONS_TYPES = new Set([
  "button",
  "workflow_button",
  "overflow",
  "datepicker",
  "timepicker",
  "datetimepicker",
  "checkboxes",
  "radio_buttons",
  "rich_text_input",
  ...SELECTS,
]);
const INPUT_TYPES = new Set([
  "plain_text_input",
  "number_input",
  "email_text_input",
  "url_text_input",
  "rich_text_input",
  "file_input",
  "datepicker",
  "timepicker",
  "datetimepicker",
  "checkboxes",
  "radio_buttons",
  ...SELECTS,
]);

function checkElement(
  p: Problems,
  element: unknown,
  pointer: string,
  allowedTypes: ReadonlySet<string>,
  actionIds: Set<string>,
): void {
  if (!isObject(element)) {
    p.add("must provide an object", pointer);
    return;
  }
  const type = element.type;
  if (typeof type !== "string" || !allowedTypes.has(type)) {
    p.add("failed to match all allowed schemas", pointer);
    return;
  }
  extraKeys(p, element, ELEMENT_KEYS[type] ?? [], pointer);
  if (type !== "image") {
    stringField(p, element, "action_id", pointer, { maxChars: 255, minChars: 1 });
    const actionId = element.action_id;
    if (typeof actionId === "string") {
      if (actionIds.has(actionId))
        p.add(`\`action_id\` "${actionId}" already exists`, `${pointer}/action_id`);
      actionIds.add(actionId);
    }
    checkConfirm(p, element, pointer);
    textField(p, element, "placeholder", pointer, { kind: "plain", maxChars: 150, required: false });
  }
  switch (type) {
    case "button":
    case "workflow_button":
      textField(p, element, "text", pointer, { kind: "plain", maxChars: 75, required: true });
      stringField(p, element, "value", pointer, { maxChars: 2000 });
      stringField(p, element, "url", pointer, { maxChars: 3000 });
      stringField(p, element, "accessibility_label", pointer, { maxChars: 75 });
      enumField(p, element, "style", pointer, ["primary", "danger"]);
      return;
    case "image":
      checkImageSource(p, element, pointer);
      stringField(p, element, "alt_text", pointer, { maxChars: 2000, required: true, minChars: 1 });
      return;
    case "static_select":
    case "multi_static_select":
      checkSelectOptions(p, element, pointer);
      return;
    case "overflow":
      checkOptions(
        p,
        element,
        "options",
        pointer,
        { maxItems: 5, minItems: 1, required: true },
        { textKind: "plain", allowUrl: true },
      );
      return;
    case "checkboxes":
    case "radio_buttons":
      checkOptions(
        p,
        element,
        "options",
        pointer,
        { maxItems: 10, minItems: 1, required: true },
        { textKind: "any", allowUrl: false },
      );
      return;
    case "plain_text_input":
      stringField(p, element, "initial_value", pointer, { maxChars: 3000 });
      checkMaxLength(p, element, pointer);
      return;
    default:
      return;
  }
}

function checkMaxLength(p: Problems, element: JsonObject, pointer: string): void {
  const maxLength = element.max_length;
  if (maxLength === undefined) return;
  if (typeof maxLength !== "number" || maxLength < 1 || maxLength > 3000) {
    p.add("must be less than 3001", `${pointer}/max_length`);
  }
}

function checkImageSource(p: Problems, object: JsonObject, pointer: string): void {
  if (object.image_url === undefined && object.slack_file === undefined) {
    p.add("missing required field: image_url", pointer);
    return;
  }
  stringField(p, object, "image_url", pointer, { maxChars: 3000, minChars: 1 });
}

const BLOCK_KEYS: Readonly<Record<string, readonly string[]>> = {
  section: ["type", "block_id", "text", "fields", "accessory", "expand"],
  divider: ["type", "block_id"],
  header: ["type", "block_id", "text", "level"],
  context: ["type", "block_id", "elements"],
  actions: ["type", "block_id", "elements"],
  image: ["type", "block_id", "image_url", "slack_file", "alt_text", "title"],
  input: ["type", "block_id", "label", "element", "dispatch_action", "hint", "optional"],
  markdown: ["type", "block_id", "text"],
};

/** Block types passed through with only their `block_id` checked (rich text is not modelled). */
const LOOSE_BLOCKS = new Set(["rich_text", "file", "video", "table", "context_actions", "call"]);

function checkBlock(p: Problems, block: unknown, pointer: string, blockIds: Set<string>): number {
  if (!isObject(block)) {
    p.add("must provide an object", pointer);
    return 0;
  }
  const type = block.type;
  if (typeof type !== "string" || (BLOCK_KEYS[type] === undefined && !LOOSE_BLOCKS.has(type))) {
    p.add("failed to match all allowed schemas", pointer);
    return 0;
  }
  stringField(p, block, "block_id", pointer, { maxChars: 255, minChars: 1 });
  const blockId = block.block_id;
  if (typeof blockId === "string") {
    if (blockIds.has(blockId)) p.add(`\`block_id\` "${blockId}" already exists`, `${pointer}/block_id`);
    blockIds.add(blockId);
  }
  const keys = BLOCK_KEYS[type];
  if (keys === undefined) return 0;
  extraKeys(p, block, keys, pointer);
  const actionIds = new Set<string>();
  switch (type) {
    case "section":
      checkSection(p, block, pointer, actionIds);
      return 0;
    case "header":
      textField(p, block, "text", pointer, { kind: "plain", maxChars: 150, required: true });
      return 0;
    case "context":
      checkContext(p, block, pointer);
      return 0;
    case "actions": {
      const elements = arrayField(p, block, "elements", pointer, {
        maxItems: 25,
        minItems: 1,
        required: true,
      });
      elements?.forEach((element, i) => {
        checkElement(p, element, `${pointer}/elements/${i}`, ACTIONS_TYPES, actionIds);
      });
      return 0;
    }
    case "image":
      checkImageSource(p, block, pointer);
      stringField(p, block, "alt_text", pointer, { maxChars: 2000, required: true, minChars: 1 });
      textField(p, block, "title", pointer, { kind: "plain", maxChars: 2000, required: false });
      return 0;
    case "input":
      textField(p, block, "label", pointer, { kind: "plain", maxChars: 2000, required: true });
      textField(p, block, "hint", pointer, { kind: "plain", maxChars: 2000, required: false });
      if (block.element === undefined) p.add("missing required field: element", pointer);
      else checkElement(p, block.element, `${pointer}/element`, INPUT_TYPES, actionIds);
      return 0;
    case "markdown": {
      stringField(p, block, "text", pointer, {
        maxChars: MAX_MARKDOWN_TOTAL_CHARS,
        required: true,
        minChars: 1,
      });
      return typeof block.text === "string" ? charCount(block.text) : 0;
    }
    default:
      return 0;
  }
}

function checkSection(p: Problems, block: JsonObject, pointer: string, actionIds: Set<string>): void {
  if (block.text === undefined && block.fields === undefined) {
    p.add("missing required field: text", pointer);
  }
  textField(p, block, "text", pointer, { kind: "any", maxChars: 3000, required: false });
  const fields = arrayField(p, block, "fields", pointer, { maxItems: 10, minItems: 1 });
  fields?.forEach((field, i) => {
    const fieldPointer = `${pointer}/fields/${i}`;
    if (!isObject(field)) p.add("must provide an object", fieldPointer);
    else checkTextObject(p, field, fieldPointer, { kind: "any", maxChars: 2000, required: true });
  });
  if (block.accessory !== undefined) {
    checkElement(p, block.accessory, `${pointer}/accessory`, ACCESSORY_TYPES, actionIds);
  }
}

function checkContext(p: Problems, block: JsonObject, pointer: string): void {
  const elements = arrayField(p, block, "elements", pointer, { maxItems: 10, minItems: 1, required: true });
  elements?.forEach((element, i) => {
    const elementPointer = `${pointer}/elements/${i}`;
    if (isObject(element) && element.type === "image") {
      extraKeys(p, element, ELEMENT_KEYS.image ?? [], elementPointer);
      checkImageSource(p, element, elementPointer);
      stringField(p, element, "alt_text", elementPointer, { maxChars: 2000, required: true, minChars: 1 });
    } else if (!isObject(element)) {
      p.add("must provide an object", elementPointer);
    } else {
      checkTextObject(p, element, elementPointer, { kind: "any", maxChars: 3000, required: true });
    }
  });
}

/**
 * Slack's complaints about `blocks` on a surface, as `<message> [json-pointer:<pointer>]` lines;
 * empty when Slack would accept them. `pointer` is where the array sits in the request.
 */
export function blockProblems(blocks: unknown, surface: Surface, pointer = "/blocks"): string[] {
  const p = new Problems();
  if (!Array.isArray(blocks)) {
    p.add("must provide an array", pointer);
    return p.lines;
  }
  const maxBlocks = MAX_BLOCKS[surface];
  if (blocks.length > maxBlocks) p.add(`no more than ${maxBlocks} items allowed`, pointer);
  const blockIds = new Set<string>();
  let markdownChars = 0;
  blocks.forEach((block, i) => {
    markdownChars += checkBlock(p, block, `${pointer}/${i}`, blockIds);
  });
  if (markdownChars > MAX_MARKDOWN_TOTAL_CHARS) {
    p.add(`markdown blocks must be less than ${MAX_MARKDOWN_TOTAL_CHARS + 1} characters in total`, pointer);
  }
  return p.lines;
}

const MODAL_KEYS = [
  "type",
  "title",
  "blocks",
  "close",
  "submit",
  "private_metadata",
  "callback_id",
  "clear_on_close",
  "notify_on_close",
  "external_id",
  "submit_disabled",
];
const HOME_KEYS = ["type", "blocks", "private_metadata", "callback_id", "external_id"];

/** Slack's complaints about a `view` argument (modal or Home tab), pointers under `/view`. */
export function viewProblems(view: unknown, expected: "modal" | "home"): string[] {
  const p = new Problems();
  const pointer = "/view";
  if (!isObject(view)) {
    p.add("must provide an object", pointer);
    return p.lines;
  }
  if (view.type !== expected) {
    p.add("failed to match all allowed schemas", `${pointer}/type`);
    return p.lines;
  }
  extraKeys(p, view, expected === "modal" ? MODAL_KEYS : HOME_KEYS, pointer);
  if (expected === "modal") {
    const titleRule = { kind: "plain", maxChars: 24, oneOfLine: true } as const;
    textField(p, view, "title", pointer, { ...titleRule, required: true });
    textField(p, view, "submit", pointer, { ...titleRule, required: false });
    textField(p, view, "close", pointer, { ...titleRule, required: false });
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isObject(b) && b.type === "input");
    if (hasInput && view.submit === undefined) p.add("missing required field: submit", pointer);
  }
  stringField(p, view, "private_metadata", pointer, { maxChars: 3000 });
  stringField(p, view, "callback_id", pointer, { maxChars: 255 });
  stringField(p, view, "external_id", pointer, { maxChars: 255 });
  if (view.blocks === undefined) p.add("missing required field: blocks", pointer);
  else p.lines.push(...blockProblems(view.blocks, expected, `${pointer}/blocks`));
  return p.lines;
}

/** Every `text` string in a block tree, summed: the budget behind `msg_blocks_too_long`. */
export function blocksTextChars(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + blocksTextChars(item), 0);
  if (!isObject(value)) return 0;
  let sum = 0;
  for (const [key, item] of Object.entries(value)) {
    if (key === "text" && typeof item === "string") sum += charCount(item);
    else sum += blocksTextChars(item);
  }
  return sum;
}
