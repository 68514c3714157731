import type { HygieneCheck, HygieneFacts, HygieneProbe } from "../domain/hygiene.ts";
import type { HostShell } from "./host-shell.ts";
import { type HygieneScriptOptions, hygieneScript, splitSections } from "./hygiene-scripts.ts";
import { parseContainers, parseDf, parseDocker, parseSshd } from "./parse-hygiene.ts";
import { parseWho } from "./parse-who.ts";

/** The hygiene checks over a host shell: one script per check, its output parsed into facts. */
export function createHygieneProbe(shell: HostShell, options: HygieneScriptOptions): HygieneProbe {
  return {
    hosts: shell.hosts,
    probe: async (host, check, timeoutMs, signal) => {
      const answer = await shell.run(host, hygieneScript(check, options), timeoutMs, signal);
      if (!answer.ok) return answer;
      const { sections, ended } = splitSections(answer.stdout);
      const facts = ended || sections.some((s) => s.name === "no-docker") ? factsOf(check, sections) : null;
      if (facts === null) {
        const said = answer.stderr.trim().split("\n").at(-1) ?? "";
        return {
          ok: false,
          why: { cause: "failed", detail: said === "" ? `exit code ${answer.exitCode}` : said.slice(0, 200) },
        };
      }
      return { ok: true, facts };
    },
  };
}

function factsOf(
  check: HygieneCheck,
  sections: ReturnType<typeof splitSections>["sections"],
): HygieneFacts | null {
  switch (check) {
    case "sshd": {
      const facts = parseSshd(sections);
      return facts === null ? null : { check, facts };
    }
    case "disk":
      return { check, facts: parseDf(sections.find((s) => s.name === "df")?.lines ?? []) };
    case "docker":
      return { check, facts: parseDocker(sections) };
    case "sessions":
      return { check, facts: parseWho((sections.find((s) => s.name === "who")?.lines ?? []).join("\n")) };
    case "containers":
      return { check, facts: parseContainers(sections) };
    default:
      return check satisfies never;
  }
}
