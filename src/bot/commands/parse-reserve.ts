import { type GpuSlots, parseSlots } from "../../checks/claim-target.ts";
import { isLocalDay } from "../../checks/local-day.ts";
import type { ReserveWhen } from "../../usecases/queue/reservations.ts";
import { plainPeople } from "./command-text.ts";

/** Why `/gpu reserve …` could not be read; the view says it in the reader's language. */
export type ReserveProblem =
  | { kind: "missing" }
  | { kind: "slots"; text: string }
  | { kind: "when"; text: string }
  | { kind: "hours"; text: string }
  | { kind: "cancel-id"; text: string }
  | { kind: "note-long"; length: number };

/** What `/gpu reserve …` asks for. */
export type ReserveAction =
  | { kind: "list" }
  | { kind: "cancel"; id: number }
  | {
      kind: "make";
      slots: GpuSlots;
      when: ReserveWhen;
      startMin: number;
      endMin: number;
      note: string;
      /** `project=<name>`: its members may claim during the window too. */
      project: string | null;
    }
  | { kind: "invalid"; problem: ReserveProblem };

const DAY_NAMES: Record<string, number> = {
  mon: 1,
  monday: 1,
  tue: 2,
  tuesday: 2,
  wed: 3,
  wednesday: 3,
  thu: 4,
  thursday: 4,
  fri: 5,
  friday: 5,
  sat: 6,
  saturday: 6,
  sun: 7,
  sunday: 7,
};
const HOURS = /^([01]?\d|2[0-3]):([0-5]\d)-(([01]?\d|2[0-3]):([0-5]\d)|24:00)$/;
const NOTE_MAX = 200;
const PROJECT = /^project=[a-z0-9][a-z0-9_-]{0,63}$/i;

/**
 * `reserve list`, `reserve cancel <id>`, and `reserve <host>[:<gpus>] <when> <HH:MM-HH:MM> [project=<name>] [note…]`
 * where `<when>` is `today`, `tomorrow`, `YYYY-MM-DD`, or `every weekday|day|weekend|mon,wed,…`.
 */
export function parseReserveArgs(args: readonly string[]): ReserveAction {
  const [first, ...rest] = args;
  if (first === undefined) return invalid({ kind: "missing" });
  const word = first.toLowerCase();
  if (word === "list" && rest.length === 0) return { kind: "list" };
  if (word === "cancel") {
    const id = rest[0] ?? "";
    if (rest.length !== 1 || !/^-?\d{1,9}$/.test(id))
      return invalid({ kind: "cancel-id", text: rest.join(" ") });
    return { kind: "cancel", id: Number(id) };
  }
  const parsed = parseSlots(first);
  if (!parsed.ok) return invalid({ kind: "slots", text: first });
  const when = parseWhen(rest);
  if ("problem" in when) return invalid(when.problem);
  const [hoursText, ...noteWords] = rest.slice(when.used);
  const hours = HOURS.exec(hoursText ?? "");
  if (hours === null) return invalid({ kind: "hours", text: hoursText ?? "" });
  const startMin = Number(hours[1]) * 60 + Number(hours[2]);
  const endMin = hours[3] === "24:00" ? 1440 : Number(hours[4]) * 60 + Number(hours[5]);
  if (endMin <= startMin) return invalid({ kind: "hours", text: hoursText ?? "" });
  const projectWord = noteWords.find((word) => PROJECT.test(word));
  const project = projectWord === undefined ? null : projectWord.slice("project=".length).toLowerCase();
  const note = plainPeople(noteWords.filter((word) => word !== projectWord).join(" "));
  if (note.length > NOTE_MAX) return invalid({ kind: "note-long", length: note.length });
  return { kind: "make", slots: parsed.slots, when: when.when, startMin, endMin, note, project };
}

function parseWhen(
  words: readonly string[],
): { when: ReserveWhen; used: number } | { problem: ReserveProblem } {
  const [first, second] = words.map((word) => word.toLowerCase());
  if (first === "today") return { when: { kind: "today" }, used: 1 };
  if (first === "tomorrow") return { when: { kind: "tomorrow" }, used: 1 };
  if (first !== undefined && isLocalDay(first)) return { when: { kind: "day", day: first }, used: 1 };
  if (first === "every" && second !== undefined) {
    const weekdays = weekdaysIn(second);
    if (weekdays !== null) return { when: { kind: "every", weekdays }, used: 2 };
  }
  return { problem: { kind: "when", text: words.slice(0, first === "every" ? 2 : 1).join(" ") } };
}

function weekdaysIn(text: string): number[] | null {
  if (text === "weekday" || text === "weekdays") return [1, 2, 3, 4, 5];
  if (text === "weekend" || text === "weekends") return [6, 7];
  if (text === "day" || text === "daily") return [1, 2, 3, 4, 5, 6, 7];
  const days = text.split(",").map((name) => DAY_NAMES[name]);
  if (days.some((day) => day === undefined)) return null;
  return [...new Set(days as number[])].sort((a, b) => a - b);
}

function invalid(problem: ReserveProblem): ReserveAction {
  return { kind: "invalid", problem };
}
