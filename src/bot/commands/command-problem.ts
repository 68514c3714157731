/**
 * What was wrong with the text after `/gpu`, as facts (the words typed, as typed); a view
 * (`views/command-problem-text.ts`) says it in the reader's language.
 */
export type CommandProblem =
  /** `command` lacks its arguments: a host and a duration, a host, a claim and a duration, … */
  | {
      kind: "needs";
      command: string;
      needs: "hostAndDuration" | "host" | "claimAndDuration" | "target" | "person";
    }
  /** `<command> <typed>` lacks the duration after it. */
  | { kind: "needsDuration"; command: string; typed: string }
  /** `keep 4h` / `extend 4h`: a duration where the host or claim should come first. */
  | { kind: "spanFirst"; command: "keep" | "extend"; span: string }
  /** Not a duration (`keep` also takes `tomorrow`). */
  | { kind: "notDuration"; text: string; tomorrow: boolean }
  /** `for` with nothing after it. */
  | { kind: "forNeedsDuration" }
  /** Words left over after `after`. */
  | { kind: "unexpected"; extra: string; after: string }
  /** Not a command; `guess` is the closest one. */
  | { kind: "unknownCommand"; typed: string; guess: string | null }
  /** `claim <n>` with n out of 1…`max`. */
  | { kind: "countRange"; typed: string; max: number }
  | { kind: "noteTooLong"; length: number; max: number }
  | { kind: "notHostName"; text: string }
  /** `gpu-a:x`: not a GPU list; `host` is the host part typed. */
  | { kind: "notGpuList"; text: string; host: string }
  | { kind: "notDays"; text: string; max: number }
  /** `report project <month>` with something that is not a `YYYY-MM`. */
  | { kind: "notMonth"; text: string }
  /** `warden swap <who>`: not a mention or member ID. */
  | { kind: "unknownPerson"; text: string }
  /** `gpus>=40g` or `--valley` without a number of GPUs. */
  | { kind: "placementNeedsCount" }
  /** `gpus>=40g` or `--valley` with `--wait`: the waiting list keeps models and counts, not memory floors or tariffs. */
  /** `warden <verb>` with an unknown verb. */
  | { kind: "wardenVerb"; verb: string };
