// Slack mrkdwn → HTML: code blocks, inline code, links, mentions, *bold*, _italic_, ~strike~,
// quotes, a few emoji shortcodes. Everything else is escaped.

const EMOJI = {
  zzz: "💤",
  white_check_mark: "✅",
  warning: "⚠️",
  x: "❌",
  stop_sign: "🛑",
  hourglass: "⌛",
  hourglass_flowing_sand: "⏳",
  scales: "⚖️",
  receipt: "🧾",
  mag: "🔍",
  ballot_box_with_check: "☑️",
  bar_chart: "📊",
  moneybag: "💰",
  bell: "🔔",
  lock: "🔒",
  unlock: "🔓",
  wave: "👋",
  calendar: "📅",
  electric_plug: "🔌",
  fire: "🔥",
  rotating_light: "🚨",
  information_source: "ℹ️",
  eyes: "👀",
  arrows_counterclockwise: "🔄",
  crown: "👑",
  clipboard: "📋",
  chart_with_downwards_trend: "📉",
  chart_with_upwards_trend: "📈",
  no_entry: "⛔",
  heavy_check_mark: "✔️",
  large_green_circle: "🟢",
  red_circle: "🔴",
  white_circle: "⚪",
  money_with_wings: "💸",
  pause_button: "⏸️",
};

const decode = (text) => text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
export const escapeHtml = (text) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** Slack's plain_text: escaped, emoji shortcodes replaced. */
export function plain(text) {
  return emoji(escapeHtml(text ?? ""));
}

/** HTML for a mrkdwn string; `names` maps user ids to names for mentions. */
export function mrkdwn(text, names = {}) {
  const parts = String(text ?? "").split("```");
  return parts
    .map((part, i) =>
      i % 2 === 1
        ? `<pre tabindex="0">${escapeHtml(decode(part.replace(/^\n/, "")))}</pre>`
        : inline(part, names),
    )
    .join("");
}

function inline(text, names) {
  let html = "";
  let last = 0;
  for (const match of text.matchAll(/<([^<>]+)>|`([^`\n]+)`/g)) {
    html += format(text.slice(last, match.index));
    html += match[1] !== undefined ? token(match[1], names) : `<code>${escapeHtml(decode(match[2]))}</code>`;
    last = match.index + match[0].length;
  }
  html += format(text.slice(last));
  return html
    .split("\n")
    .map((line) => (line.startsWith("&gt; ") ? `<blockquote>${line.slice(5)}</blockquote>` : line))
    .join("<br>")
    .replaceAll("</blockquote><br>", "</blockquote>");
}

function token(body, names) {
  const [target, label] = body.split("|");
  if (target.startsWith("@")) {
    const id = target.slice(1);
    return `<span class="mention">@${escapeHtml(names[id] ?? label ?? id)}</span>`;
  }
  if (target.startsWith("#")) {
    const id = target.slice(1);
    return `<span class="mention">#${escapeHtml(label ?? names[id] ?? id)}</span>`;
  }
  if (target.startsWith("!")) {
    const special = target.slice(1).split("^")[0];
    return `<span class="mention">@${escapeHtml(label ?? special)}</span>`;
  }
  const url = decode(target);
  const permalink = /^https:\/\/[\w-]+\.slack\.com\/archives\/\w+\/p(\d{10})(\d{6})$/.exec(url);
  if (permalink) {
    const ts = `${permalink[1]}.${permalink[2]}`;
    return `<a href="#" class="thread-link" data-thread="${ts}">${escapeHtml(decode(label ?? target))}</a>`;
  }
  const safe = /^(https?:|mailto:)/i.test(url) ? url : "#";
  return `<a href="${escapeHtml(safe)}" target="_blank" rel="noopener">${escapeHtml(decode(label ?? target))}</a>`;
}

function format(segment) {
  let html = escapeHtml(decode(segment));
  html = html.replace(/(^|[\s\u200b(>])\*([^*\n]+?)\*(?=$|[\s\u200b.,:;!?)<&])/g, "$1<strong>$2</strong>");
  html = html.replace(/(^|[\s\u200b(>])_([^_\n]+?)_(?=$|[\s\u200b.,:;!?)<&])/g, "$1<em>$2</em>");
  html = html.replace(/(^|[\s\u200b(>])~([^~\n]+?)~(?=$|[\s\u200b.,:;!?)<&])/g, "$1<del>$2</del>");
  return emoji(html);
}

function emoji(html) {
  return html.replace(/:([a-z0-9_+-]+):/g, (whole, name) => EMOJI[name] ?? whole);
}
