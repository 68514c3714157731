import type { EmulatorState } from "./emulator-state.ts";

/**
 * What Slack sends as a slash command's `text` for what the user typed. `&`, `<` and `>` are
 * always HTML-escaped; with `should_escape: true` (gpu-warden's manifest), a `@name` of a member
 * becomes `<@U123|name>`, a `#name` of a channel `<#C123|name>`, `@here`/`@channel`/`@everyone`
 * `<!here>`…, and a URL `<https://…>`. Names nobody has stay as typed (Slack does the same).
 */
export function commandWireText(typed: string, state: EmulatorState, shouldEscape: boolean): string {
  const escaped = typed.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  if (!shouldEscape) return escaped;
  return escaped.replace(
    /(^|\s)(?:@([\w.-]+)|#([\w.-]+)|(https?:\/\/\S+))/g,
    (all, lead: string, person?: string, channel?: string, url?: string) => {
      if (url !== undefined) return `${lead}<${url}>`;
      if (person !== undefined) {
        if (["here", "channel", "everyone"].includes(person)) return `${lead}<!${person}>`;
        const user = [...state.users.values()].find((u) => u.name === person);
        return user === undefined ? all : `${lead}<@${user.id}|${user.name}>`;
      }
      const found = [...state.channels.values()].find((c) => c.name === channel && c.kind !== "im");
      return found === undefined ? all : `${lead}<#${found.id}|${found.name}>`;
    },
  );
}
