import type { Translator } from "../../messages/translator.ts";
import { slackEscape } from "../../shared/slack-text.ts";
import type { CommandProblem } from "../commands/command-problem.ts";

const NEEDS = {
  hostAndDuration: "command.needsHostAndDuration",
  host: "command.needsHost",
  claimAndDuration: "command.needsClaimAndDuration",
  target: "command.needsTarget",
  person: "command.needsPerson",
} as const;

const WARDEN_FORMS = ["warden", "warden roster", "warden swap @user", "warden skip"]; // words-ok: command forms

/** What was wrong with a `/gpu` command, in the reader's language; the words typed are escaped. */
export function commandProblemText(tr: Translator, problem: CommandProblem): string {
  switch (problem.kind) {
    case "needs":
      return tr.t(NEEDS[problem.needs], { command: problem.command });
    case "needsDuration":
      return tr.t("command.needsDuration", { typed: `${problem.command} ${shown(problem.typed)}` });
    case "spanFirst": {
      const span = shown(problem.span);
      const typed = `${problem.command} ${span}`;
      const example = `${problem.command} gpu-a ${span}`;
      return problem.command === "keep"
        ? tr.t("command.whichHost", { typed, example })
        : tr.t("command.whichClaim", { typed, example, host: "gpu-a" });
    }
    case "notDuration":
      return tr.t(problem.tomorrow ? "command.notKeepSpan" : "command.notDuration", {
        text: shown(problem.text),
      });
    case "placementNeedsCount":
      return tr.t("command.placementNeedsCount", { example: "`claim 2 gpus>=40g`" });
    case "forNeedsDuration":
      return tr.t("command.forNeedsDuration", { word: "for" });
    case "unexpected":
      return tr.t("command.unexpected", { extra: shown(problem.extra), after: shown(problem.after) });
    case "unknownCommand":
      return problem.guess === null
        ? tr.t("command.unknown", { typed: shown(problem.typed) })
        : tr.t("command.unknownGuess", { typed: shown(problem.typed), guess: problem.guess });
    case "countRange":
      return tr.t("command.countRange", { typed: shown(problem.typed), max: problem.max });
    case "noteTooLong":
      return tr.t("command.noteTooLong", { length: problem.length, max: problem.max });
    case "notHostName":
      return tr.t("command.notHostName", { text: shown(problem.text) });
    case "notGpuList": {
      const host = problem.host.length <= 20 ? shown(problem.host) : "gpu-a";
      return tr.t("command.notGpuList", { text: shown(problem.text), host });
    }
    case "notMonth":
      return tr.t("money.command.notMonth", { text: shown(problem.text) });
    case "notDays":
      return tr.t("command.notDays", { text: shown(problem.text), max: String(problem.max) });
    case "unknownPerson":
      return tr.t("command.unknownPerson", { text: shown(problem.text) });
    case "wardenVerb":
      return tr.t("command.wardenVerb", {
        typed: `warden ${shown(problem.verb)}`,
        forms: WARDEN_FORMS.map((form) => `\`${form}\``).reduce((first, second) =>
          tr.t("command.or", { first, second }),
        ),
      });
    default:
      return problem satisfies never;
  }
}

/** A word the user typed, safe inside backticks in a reply: escaped, no backticks, at most 60 chars. */
export function shown(word: string): string {
  const cut = word.length > 60 ? `${word.slice(0, 60)}…` : word;
  return slackEscape(cut.replaceAll("`", "'"));
}
