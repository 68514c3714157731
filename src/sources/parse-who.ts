import type { LoginSession } from "../domain/observation.ts";

/**
 * Reads the login sessions from the output of `who` (plain, `-H`, `-u`, `-a`) or `w` (procps on
 * Linux, BSD/macOS), as people would count them: one entry per user terminal or display.
 *
 * Left out, because nobody is logged in through them: system boot and run-level records, `LOGIN`
 * (a getty waiting at a console), dead-process records (`id=… term=… exit=…`), and the
 * `(login screen)` seat record that systemd-logind based `who` shows for a display manager's
 * greeter; a user who is really logged in on that seat also has a display or tty entry, which counts.
 *
 * `idleMinutes` is whole minutes since the last input where the tool says (`who -u`/`-a`, `w`);
 * `.`/`-`/seconds are 0; `old` (who) and `Ndays` (w) are lower bounds: 1440 and N × 1440.
 * Lines that match none of these shapes are skipped.
 */
export function parseWho(text: string): LoginSession[] {
  const lines = text.split(/\r?\n/);
  const headerAt = lines.findIndex((line) => /^USER\s+TTY\s/.test(line));
  if (headerAt >= 0) return parseW(lines[headerAt] ?? "", lines.slice(headerAt + 1));
  const sessions: LoginSession[] = [];
  for (const line of lines) {
    const session = parseWhoLine(line);
    if (session) sessions.push(session);
  }
  return sessions;
}

const MESG_FLAGS = new Set(["+", "-", "?"]);
const MONTH = /^[A-Z][a-z]{2}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const CLOCK = /^\d{1,2}:\d{2}$/;

function parseWhoLine(line: string): LoginSession | null {
  // NOTE: records without a user (boot, run-level, dead processes) start with blanks in `who -a`.
  if (line.trim() === "" || /^\s/.test(line)) return null;
  const tokens = line.trim().split(/\s+/);
  const user = tokens[0] ?? "";
  if (user === "LOGIN" || (user === "NAME" && tokens[1] === "LINE")) return null;
  let at = MESG_FLAGS.has(tokens[1] ?? "") ? 2 : 1;
  const tty = tokens[at++];
  if (tty === undefined) return null;
  if (ISO_DATE.test(tokens[at] ?? "") && CLOCK.test(tokens[at + 1] ?? "")) at += 2;
  else if (
    MONTH.test(tokens[at] ?? "") &&
    /^\d{1,2}$/.test(tokens[at + 1] ?? "") &&
    CLOCK.test(tokens[at + 2] ?? "")
  )
    at += 3;
  else return null;
  const rest = tokens.slice(at);
  if (rest.some((token) => /^(term|exit)=/.test(token))) return null;
  const restText = rest.join(" ");
  const comment = /\((.*)\)\s*$/.exec(restText)?.[1]?.trim() ?? null;
  if (comment === "login screen") return null;
  const first = rest[0] ?? "";
  const idleMinutes = first.startsWith("(") ? null : whoIdleMinutes(first);
  return { user, line: tty, from: comment === "" ? null : comment, idleMinutes };
}

function whoIdleMinutes(token: string): number | null {
  if (token === ".") return 0;
  if (token === "old") return 1440;
  const match = /^(\d{1,2}):(\d{2})$/.exec(token);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

const WEEKDAYS = "Mon|Tue|Wed|Thu|Fri|Sat|Sun";
const MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec";
/** `w` LOGIN@ shapes: today `09:53`/`9:53am`, this week `Fri18`, older `21Oct19`. */
const LOGIN_AT = [
  /^\d{1,2}:\d{2}(am|pm)?$/,
  new RegExp(`^(${WEEKDAYS})\\d{1,2}(am|pm)?$`),
  new RegExp(`^\\d{1,2}(${MONTHS})\\d{2}$`),
];

function parseW(header: string, rows: string[]): LoginSession[] {
  const hasFrom = /\sFROM\s/.test(header);
  // NOTE: procps `w` has JCPU/PCPU and shows idle as m:ss under an hour; BSD/macOS `w` shows h:mm.
  const procps = /\sJCPU\s/.test(header);
  const sessions: LoginSession[] = [];
  for (const row of rows) {
    const tokens = row.trim().split(/\s+/);
    const [user, tty] = tokens;
    if (user === undefined || user === "" || tty === undefined) continue;
    let at = 2;
    let from: string | null = null;
    if (hasFrom && !LOGIN_AT.some((shape) => shape.test(tokens[2] ?? ""))) {
      from = tokens[2] ?? null;
      at = 3;
    }
    if (!LOGIN_AT.some((shape) => shape.test(tokens[at] ?? ""))) continue;
    const idle = tokens[at + 1] ?? "";
    sessions.push({
      user,
      line: tty,
      from: from === "-" || from === "" ? null : from,
      idleMinutes: procps ? procpsIdleMinutes(idle) : bsdIdleMinutes(idle),
    });
  }
  return sessions;
}

function procpsIdleMinutes(token: string): number | null {
  const days = /^(\d+)days$/.exec(token);
  if (days) return Number(days[1]) * 1440;
  const hours = /^(\d+):(\d{2})m$/.exec(token);
  if (hours) return Number(hours[1]) * 60 + Number(hours[2]);
  const minutes = /^(\d+):\d{2}$/.exec(token);
  if (minutes) return Number(minutes[1]);
  if (/^\d+(\.\d+)?s$/.test(token)) return 0;
  return null;
}

function bsdIdleMinutes(token: string): number | null {
  if (token === "-") return 0;
  const days = /^(\d+)days?$/.exec(token);
  if (days) return Number(days[1]) * 1440;
  const hours = /^(\d+):(\d{2})$/.exec(token);
  if (hours) return Number(hours[1]) * 60 + Number(hours[2]);
  return /^\d+$/.test(token) ? Number(token) : null;
}
