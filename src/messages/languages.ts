/** The languages the catalog speaks. `en` is complete by definition; every other one is checked against it. */
export const LANGUAGES = ["en", "zh-CN"] as const;

export type Language = (typeof LANGUAGES)[number];

/** `team.language`: a fixed language, or `auto` (each person's Slack locale where a person reads it). */
export type TeamLanguage = Language | "auto";

/**
 * The language for a reader: channel posts use the team's language (`auto` reads as `en` there);
 * with `auto`, a person's Slack locale (`users.info` `locale`, e.g. `zh-CN`, `en-US`) picks theirs.
 */
export function languageFor(team: TeamLanguage, locale?: string | null): Language {
  if (team !== "auto") return team;
  if (locale === undefined || locale === null) return "en";
  return /^zh(?:[-_](?:CN|SG|Hans)(?:[-_].*)?)?$/i.test(locale) ? "zh-CN" : "en";
}
