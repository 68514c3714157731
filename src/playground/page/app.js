// The playground page: renders what one person sees (channel, thread, DMs, App Home, modals) from
// the bot's real Block Kit, sends what they do to the emulator, and steers the fleet and the clock.

import { inputValues, renderBlocks, textHtml } from "./blocks.js";
import { escapeHtml, mrkdwn, plain } from "./mrkdwn.js";
import { pageLang, t } from "./words.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const ui = {
  me: params.get("user") ?? localStorage.getItem("gw-user") ?? "U0ALICE",
  view: params.get("view") ?? "channel",
  thread: null,
  snap: null,
  fetchedAt: 0,
  seenDm: 0,
  /** Drawn message nodes by key, with what they were drawn from (see `kept`). */
  nodes: new Map(),
};

// ---- server ----

async function post(path, body) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ user: ui.me, ...body }),
  });
  const json = await res.json();
  if (!json.ok) toast(json.error ?? `HTTP ${res.status}`);
  return json;
}

let loading = false;
let again = false;
async function refresh() {
  if (loading) {
    again = true;
    return;
  }
  loading = true;
  try {
    const res = await fetch(`/api/state?user=${encodeURIComponent(ui.me)}`);
    const text = await res.text();
    ui.fetchedAt = performance.now();
    if (text === ui.snapText) return;
    ui.snapText = text;
    ui.snap = JSON.parse(text);
    render();
  } finally {
    loading = false;
    if (again) {
      again = false;
      void refresh();
    }
  }
}

function toast(text) {
  const node = $("toast");
  node.textContent = text;
  node.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (node.hidden = true), 5000);
}

// ---- rendering ----

const names = () =>
  Object.fromEntries([
    ...(ui.snap?.users ?? []).map((u) => [u.id, u.name]),
    ...(ui.snap ? [[ui.snap.channel.id, ui.snap.channel.name]] : []),
  ]);

function timeText(ms, withDay = false) {
  const zone = ui.snap?.clock.timezone ?? "UTC";
  const options = withDay
    ? { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone: zone }
    : { hour: "2-digit", minute: "2-digit", timeZone: zone };
  return new Intl.DateTimeFormat(pageLang === "en" ? "en-GB" : pageLang, options).format(ms);
}

/** `1 reply`, `3 replies`. */
function replyCount(n) {
  return t(n === 1 ? "playground.thread.replyOne" : "playground.thread.replyMany", { count: n });
}

function render() {
  const snap = ui.snap;
  ui.renders = (ui.renders ?? 0) + 1;
  document.documentElement.dataset.renders = String(ui.renders);
  $("team").textContent = snap.team;
  renderUsers(snap);
  renderNav(snap);
  renderCommands(snap);
  const focus = focusKey();
  renderPane(snap);
  renderThread(snap);
  renderFleet(snap);
  renderClockButtons(snap);
  renderModal(snap);
  restoreFocus(focus);
}

function renderUsers(snap) {
  const select = $("user");
  if (select.options.length === 0) {
    for (const user of snap.users) {
      const option = document.createElement("option");
      option.value = user.id;
      option.textContent = `${user.name} — ${user.role}`;
      select.append(option);
    }
  }
  select.value = ui.me;
}

function renderNav(snap) {
  for (const button of document.querySelectorAll("[data-view]")) {
    if (button.dataset.view === ui.view) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  }
  const unread = snap.dm.messages.length - ui.seenDm;
  if (ui.view === "dm") ui.seenDm = snap.dm.messages.length;
  $("dm-count").hidden = ui.view === "dm" || unread <= 0;
  $("dm-count").textContent = String(unread);
  $("title").textContent = {
    channel: `# ${snap.channel.name}`,
    home: t("playground.nav.home"),
    dm: t("playground.nav.messages"),
  }[ui.view];
  $("composer").hidden = ui.view === "home";
}

function renderCommands(snap) {
  const list = $("commands");
  if (list.options.length > 0) return;
  for (const command of snap.commands) {
    const option = document.createElement("option");
    option.value = command.text;
    option.label = command.summary;
    list.append(option);
  }
}

function renderPane(snap) {
  const pane = $("pane");
  const atBottom = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
  const top = pane.scrollTop;
  const before = pane.dataset.count;
  if (ui.view === "home") {
    patchChildren(pane, [
      snap.home
        ? kept(`home:${snap.home.id}`, snap.home.view, () =>
            renderBlocks(snap.home.view.blocks, context({ viewId: snap.home.id })),
          )
        : note(t("playground.empty.home")),
    ]);
    return;
  }
  const conversation = ui.view === "dm" ? snap.dm : snap.channel;
  const ephemerals = snap.ephemerals.filter((e) => e.channel === conversation.id && e.threadTs === null);
  const items = [
    ...conversation.messages.map((message) => ({
      ts: message.ts,
      node: () => kept(`msg:${message.ts}`, message, () => messageNode(message, conversation.id, true)),
    })),
    ...ephemerals.map((message) => ({
      ts: message.ts,
      node: () => kept(`eph:${message.ts}`, message, () => ephemeralNode(message)),
    })),
  ].sort((a, b) => Number(a.ts) - Number(b.ts));
  patchChildren(
    pane,
    items.length === 0
      ? [note(t(ui.view === "dm" ? "playground.empty.dm" : "playground.empty.channel"))]
      : items.map((item) => item.node()),
  );
  pane.dataset.count = String(items.length);
  pane.scrollTop = atBottom || before !== pane.dataset.count ? pane.scrollHeight : top;
}

function renderThread(snap) {
  const aside = $("thread");
  const conversation = ui.view === "dm" ? snap.dm : snap.channel;
  const parent = ui.thread && conversation.messages.find((m) => m.ts === ui.thread);
  aside.hidden = !parent;
  if (!parent) return;
  const pane = $("thread-pane");
  const replies = [
    ...parent.replies.map((reply) => ({
      ts: reply.ts,
      node: () => kept(`reply:${reply.ts}`, reply, () => messageNode(reply, conversation.id, false)),
    })),
    ...snap.ephemerals
      .filter((e) => e.threadTs === parent.ts)
      .map((message) => ({
        ts: message.ts,
        node: () => kept(`eph:${message.ts}`, message, () => ephemeralNode(message)),
      })),
  ].sort((a, b) => Number(a.ts) - Number(b.ts));
  const n = parent.replies.length;
  const count = kept(`count:${parent.ts}`, n, () => {
    const line = document.createElement("p");
    line.className = "reply-count-line";
    line.textContent = replyCount(n);
    return line;
  });
  const head = kept(`parent:${parent.ts}`, parent, () => messageNode(parent, conversation.id, false));
  patchChildren(pane, [head, count, ...replies.map((reply) => reply.node())]);
}

/**
 * The node drawn for `key` when `data` is what it was drawn from, else a new one from `draw`:
 * unchanged messages stay the same DOM nodes, so focus, selection and scroll survive updates.
 */
function kept(key, data, draw) {
  const sig = `${ui.me}|${JSON.stringify(data)}`;
  const cached = ui.nodes.get(key);
  if (cached?.sig === sig) return cached.node;
  const node = draw();
  ui.nodes.set(key, { sig, node });
  return node;
}

/** Makes `parent`'s children `nodes`, in order, touching only the ones that changed. */
function patchChildren(parent, nodes) {
  const wanted = new Set(nodes);
  for (const child of [...parent.children]) if (!wanted.has(child)) child.remove();
  let at = parent.firstElementChild;
  for (const node of nodes) {
    if (node === at) {
      at = at.nextElementSibling;
      continue;
    }
    parent.insertBefore(node, at);
  }
}

function note(text) {
  const p = document.createElement("p");
  p.className = "note";
  p.textContent = text;
  return p;
}

function context(target) {
  return {
    focusScope: target.viewId ?? `${target.channel}:${target.ts}`,
    names: names(),
    users: ui.snap.users,
    onButton: (element, block, button) => clickButton(element, block, button, target),
  };
}

function messageNode(message, channel, withReplies) {
  const node = document.createElement("article");
  node.className = "msg";
  node.dataset.ts = message.ts;
  node.innerHTML = `<div class="avatar" aria-hidden="true">GW</div><div class="msg-main"><div class="msg-meta"><strong>gpu-warden</strong> <span class="app-tag">${escapeHtml(t("playground.message.app"))}</span> <time>${timeText(message.atMs)}</time></div></div>`;
  const main = node.querySelector(".msg-main");
  if (message.blocks.length > 0)
    main.append(renderBlocks(message.blocks, context({ channel, ts: message.ts })));
  else if (message.text)
    main.insertAdjacentHTML("beforeend", `<div class="bk-text">${mrkdwn(message.text, names())}</div>`);
  for (const file of message.files) main.append(fileNode(file));
  if (withReplies) {
    const open = document.createElement("button");
    open.type = "button";
    open.className = "replies";
    open.dataset.focus = `thread:${message.ts}`;
    const count = message.replies.length;
    open.textContent =
      count === 0
        ? t("playground.thread.open")
        : t("playground.thread.lastAt", {
            replies: replyCount(count),
            time: timeText(message.replies.at(-1).atMs),
          });
    open.addEventListener("click", () => openThread(message.ts));
    main.append(open);
  }
  return node;
}

function ephemeralNode(message) {
  const node = document.createElement("article");
  node.className = "msg ephemeral";
  node.dataset.ts = message.ts;
  node.innerHTML = `<div class="avatar" aria-hidden="true">GW</div><div class="msg-main"><div class="msg-meta"><strong>gpu-warden</strong> <span class="app-tag">${escapeHtml(t("playground.message.app"))}</span> <time>${timeText(message.atMs)}</time> <span class="only-you">${escapeHtml(t("playground.message.onlyYou"))}</span></div></div>`;
  const main = node.querySelector(".msg-main");
  if (message.blocks.length > 0)
    main.append(renderBlocks(message.blocks, context({ channel: message.channel, ts: message.ts })));
  else main.insertAdjacentHTML("beforeend", `<div class="bk-text">${mrkdwn(message.text, names())}</div>`);
  return node;
}

function fileNode(file) {
  const node = document.createElement("div");
  node.className = "file";
  if (file.image) {
    node.innerHTML = `<a href="${escapeHtml(file.url)}" target="_blank" rel="noopener"><img src="${escapeHtml(file.url)}" alt="${escapeHtml(file.title)}"></a><div class="file-name">${escapeHtml(file.title)}</div>`;
  } else {
    node.classList.add("file-doc");
    node.innerHTML = `<span class="file-icon" aria-hidden="true">CSV</span><a href="${escapeHtml(file.url)}?download" download="${escapeHtml(file.name)}">${escapeHtml(file.title)}</a>`;
  }
  return node;
}

function openThread(ts) {
  ui.thread = ts;
  render();
  $("close-thread").focus();
}

/** A link to a message of the channel (a permalink): its thread opens here, as Slack would. */
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a.thread-link");
  if (!link) return;
  event.preventDefault();
  const ts = link.dataset.thread;
  const parent = ui.snap?.channel.messages.find((m) => m.ts === ts || m.replies.some((r) => r.ts === ts));
  if (!parent) return;
  if (ui.view !== "channel") setView("channel");
  openThread(parent.ts);
});

// ---- fleet and clock ----

const MODES = [
  ["scripted", t("playground.mode.scripted")],
  ["busy", t("playground.mode.busy")],
  ["idle", t("playground.mode.idle")],
  ["silent", t("playground.mode.silent")],
];

function renderFleet(snap) {
  const list = $("fleet");
  list.replaceChildren();
  for (const host of snap.fleet) {
    const item = document.createElement("li");
    item.className = `host mode-${host.mode}`;
    item.dataset.host = host.host;
    const bars = host.utilPct.length
      ? `<div class="gpus" aria-label="${escapeHtml(t("playground.fleet.gpus"))}">${host.utilPct
          .map(
            (u, i) =>
              `<span class="gpu" title="${escapeHtml(t("playground.fleet.gpu", { index: i, pct: u ?? "?" }))}"><span class="gpu-fill" style="height:${u ?? 0}%"></span><span class="gpu-pct">${u ?? "?"}</span></span>`,
          )
          .join("")}</div>`
      : `<div class="problem">${escapeHtml(t(host.mode === "off" ? "playground.fleet.off" : "playground.fleet.noData"))}</div>`;
    item.innerHTML = `<div class="host-head"><strong>${escapeHtml(host.host)}</strong><span class="muted">${escapeHtml(host.role)} · ${escapeHtml(host.model.replace("NVIDIA ", ""))}</span></div>${bars}`;
    const modes = document.createElement("div");
    modes.className = "modes";
    modes.setAttribute("role", "group");
    modes.setAttribute("aria-label", t("playground.fleet.modes", { host: host.host }));
    const choices = host.mode === "off" ? [["scripted", t("playground.mode.powerOn")]] : MODES;
    for (const [mode, label] of choices) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.dataset.focus = `fleet:${host.host}:${mode}`;
      button.setAttribute("aria-pressed", String(host.mode === mode));
      button.setAttribute("aria-label", t("playground.fleet.modeOf", { host: host.host, mode: label }));
      button.addEventListener("click", () => post("/api/fleet", { host: host.host, mode }));
      modes.append(button);
    }
    item.append(modes);
    list.append(item);
  }
}

function renderClockButtons(snap) {
  for (const button of document.querySelectorAll("[data-clock]")) {
    const { clock, rate } = button.dataset;
    if (clock === "rate")
      button.setAttribute("aria-pressed", String(!snap.clock.paused && Number(rate) === snap.clock.rate));
    if (clock === "pause") button.setAttribute("aria-pressed", String(snap.clock.paused));
  }
  $("next-summary").title = snap.clock.nextSummaryMs
    ? t("playground.clock.to", { time: timeText(snap.clock.nextSummaryMs, true) })
    : "";
  $("next-month").title = t("playground.clock.to", { time: timeText(snap.clock.nextMonthMs, true) });
  $("speed").textContent = snap.clock.paused
    ? t("playground.clock.paused")
    : snap.clock.rate === 1
      ? t("playground.clock.realTimeNow")
      : t("playground.clock.rate", { rate: snap.clock.rate });
}

function tickClock() {
  const clock = ui.snap?.clock;
  if (clock) {
    const now = clock.nowMs + (clock.paused ? 0 : (performance.now() - ui.fetchedAt) * clock.rate);
    $("now").textContent = timeText(now, true);
    $("now").dateTime = new Date(now).toISOString();
  }
}

// ---- buttons, confirm dialogs, modals ----

async function clickButton(element, block, button, target) {
  if (element.confirm && !(await confirmDialog(element.confirm))) return;
  button.disabled = true;
  try {
    await post("/api/click", {
      actionId: element.action_id,
      value: element.value,
      blockId: block.block_id,
      ...target,
    });
  } finally {
    button.disabled = false;
  }
}

function confirmDialog(confirm) {
  const dialog = $("confirm");
  $("confirm-title").innerHTML = plain(confirm.title?.text ?? t("playground.dialog.sure"));
  $("confirm-text").innerHTML = textHtml(confirm.text, names());
  $("confirm-ok").innerHTML = plain(confirm.confirm?.text ?? t("playground.dialog.yes"));
  $("confirm-deny").innerHTML = plain(confirm.deny?.text ?? t("playground.dialog.cancel"));
  $("confirm-ok").className = confirm.style === "danger" ? "danger" : "primary";
  dialog.returnValue = "";
  dialog.showModal();
  $("confirm-deny").focus();
  return new Promise((resolve) =>
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "confirm"), { once: true }),
  );
}

let shownModal = null;
function renderModal(snap) {
  const dialog = $("modal");
  const modal = snap.modal;
  if (!modal) {
    shownModal = null;
    if (dialog.open) dialog.close();
    return;
  }
  const key = `${modal.id}:${JSON.stringify(modal.view)}:${JSON.stringify(modal.errors)}`;
  if (key === shownModal && dialog.open) return;
  const values = {};
  for (const field of $("modal-body").querySelectorAll("[id]"))
    if ("value" in field) values[field.id] = field.value;
  const sameView = shownModal?.startsWith(`${modal.id}:`);
  shownModal = key;
  const { view } = modal;
  $("modal-title").innerHTML = plain(view.title?.text ?? "");
  $("modal-body").replaceChildren(
    renderBlocks(view.blocks, {
      ...context({ viewId: modal.id }),
      errors: modal.errors,
      values: sameView ? values : {},
    }),
  );
  $("modal-submit").hidden = !view.submit;
  $("modal-submit").innerHTML = plain(view.submit?.text ?? t("playground.dialog.submit"));
  $("modal-close").innerHTML = plain(view.close?.text ?? t("playground.dialog.cancel"));
  dialog.dataset.viewId = modal.id;
  if (!dialog.open) dialog.showModal();
  const invalid = $("modal-body").querySelector("[aria-invalid=true]");
  (invalid ?? $("modal-body").querySelector("input, textarea, select") ?? $("modal-submit")).focus();
}

// ---- focus across re-renders ----

function focusKey() {
  return document.activeElement?.dataset?.focus ?? null;
}

function restoreFocus(key) {
  if (!key) return;
  const node = [...document.querySelectorAll("[data-focus]")].find((n) => n.dataset.focus === key);
  node?.focus();
}

// ---- wiring ----

function setView(view) {
  ui.view = view;
  ui.thread = null;
  if (view === "home") void post("/api/home", {});
  render();
  $("pane").focus();
}

$("user").addEventListener("change", (event) => {
  ui.me = event.target.value;
  localStorage.setItem("gw-user", ui.me);
  ui.seenDm = 0;
  if (ui.view === "home") void post("/api/home", {});
  void refresh();
});
for (const button of document.querySelectorAll("[data-view]"))
  button.addEventListener("click", () => setView(button.dataset.view));
for (const button of document.querySelectorAll("[data-clock]")) {
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await post("/api/clock", { action: button.dataset.clock, rate: Number(button.dataset.rate) });
    } finally {
      button.disabled = false;
    }
  });
}
/** Closes the thread and gives the focus back to the button that opened it. */
function closeThread() {
  const ts = ui.thread;
  ui.thread = null;
  render();
  restoreFocus(`thread:${ts}`);
}
$("close-thread").addEventListener("click", closeThread);
$("composer").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = $("command");
  const text = input.value.trim();
  if (!/^\/gpu(\s|$)/.test(text)) {
    toast(t("playground.composer.onlyGpu"));
    return;
  }
  input.value = "";
  const channel = ui.view === "dm" ? (ui.snap.dm.id ?? undefined) : ui.snap.channel.id;
  await post("/api/command", { text, channel });
});
$("modal-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  await post("/api/submit", { viewId: $("modal").dataset.viewId, values: inputValues($("modal-body")) });
});
$("modal-close").addEventListener("click", () => post("/api/close", { viewId: $("modal").dataset.viewId }));
$("modal").addEventListener("cancel", (event) => {
  event.preventDefault();
  void post("/api/close", { viewId: $("modal").dataset.viewId });
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && ui.thread && !$("modal").open && !$("confirm").open) {
    closeThread();
  }
});

new EventSource("/api/events").addEventListener("change", () => void refresh());
setInterval(tickClock, 250);
setInterval(() => void refresh(), 5000);
if (ui.view === "home") void post("/api/home", {});
void refresh();
