import { type Formats, IntlMessageFormat } from "intl-messageformat";
import type { ArgsFor, MessageId } from "./catalog.ts";
import { CATALOGS } from "./catalog.ts";
import {
  DATE_STYLES,
  type DateStyle,
  formatDate,
  formatList,
  formatMoney,
  formatNumber,
  intlLocale,
  type MoneyOptions,
} from "./formatters.ts";
import { type Language, languageFor, type TeamLanguage } from "./languages.ts";

/** Who reads: their language, and the team's zone and currency that dates and money are shown in. */
export interface TranslatorOptions {
  language: Language;
  /** IANA zone (`team.timezone`). */
  timeZone: string;
  /** ISO 4217 code (`team.currency`). */
  currency: string;
}

/** Messages and formats in one language, zone and currency. */
export interface Translator extends Readonly<TranslatorOptions> {
  /** The catalog's message `id` with its arguments; a wrong id or argument name is a type error. */
  t<K extends MessageId>(id: K, ...args: ArgsFor<K>): string;
  /** An amount in the team currency (see {@link formatMoney}). */
  money(amount: number, options?: MoneyOptions): string;
  /** A number with at most `maxDigits` fraction digits. */
  number(value: number, maxDigits?: number): string;
  /** An instant in the team zone. */
  date(ms: number, style: DateStyle): string;
  /** `35 min`, `2 h 5 min`, `3 d 4 h` (rounded to the minute). */
  duration(ms: number): string;
  /** `a, b, and c` (see {@link formatList}). */
  list(items: readonly string[]): string;
}

const MINUTE_MS = 60_000;
const translators = new Map<string, Translator>();

/** The translator for `options`, built once and kept (each message compiled once per language, zone and currency). */
export function translator(options: TranslatorOptions): Translator {
  const key = `${options.language}|${options.timeZone}|${options.currency}`;
  let found = translators.get(key);
  if (found === undefined) {
    found = buildTranslator(options);
    translators.set(key, found);
  }
  return found;
}

/** English in UTC and US dollars: for what is said before any configuration is known (usage errors, an unreadable config). */
export const ENGLISH: Translator = translator({ language: "en", timeZone: "UTC", currency: "USD" });

/** The `team` block of the configuration, as far as messages need it. */
export interface TeamMessageSettings {
  language: TeamLanguage;
  timezone: string;
  currency: string;
}

/**
 * The translator for a reader of the team: the channel (no `locale`: `team.language`, `auto` reading
 * as English), or one person with their Slack locale (it counts only with `team.language: auto`).
 */
export function translatorFor(team: TeamMessageSettings, locale?: string | null): Translator {
  return translator({
    language: languageFor(team.language, locale),
    timeZone: team.timezone,
    currency: team.currency,
  });
}

/** Marks around an argument that starts or ends in Chinese, while a zh-CN message is formatted. */
const OPEN = "\u0001";
const CLOSE = "\u0002";
const CHINESE_EDGE = /^[\p{Script=Han}（「『]|[\p{Script=Han}）」』]$/u;
const SPACE_BEFORE = /(?<=[\p{Script=Han}）」』]) \u0001(?=[\p{Script=Han}（「『])/gu;
const SPACE_AFTER = /(?<=[\p{Script=Han}）」』])\u0002 (?=[\p{Script=Han}（「『])/gu;

function markedChinese(args: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    out[name] = typeof value === "string" && CHINESE_EDGE.test(value) ? `${OPEN}${value}${CLOSE}` : value;
  }
  return out;
}

/**
 * The space a zh-CN message puts around an argument (`项目 {project} 的`, right for `vision`) taken
 * out where the argument is Chinese too (`视觉组`): Chinese puts no space between Chinese words.
 */
function withoutSpacesAroundChinese(text: string): string {
  return text
    .replace(SPACE_BEFORE, OPEN)
    .replace(SPACE_AFTER, CLOSE)
    .replaceAll(OPEN, "")
    .replaceAll(CLOSE, "");
}

function buildTranslator(options: TranslatorOptions): Translator {
  const { language, timeZone, currency } = options;
  const catalog = CATALOGS[language];
  const locale = intlLocale(language);
  const formats = icuFormats(timeZone, currency);
  const compiled = new Map<MessageId, IntlMessageFormat>();
  const t = <K extends MessageId>(id: K, ...args: ArgsFor<K>): string => {
    let message = compiled.get(id);
    if (message === undefined) {
      message = new IntlMessageFormat(catalog[id], locale, formats, { ignoreTag: true });
      compiled.set(id, message);
    }
    try {
      if (language !== "zh-CN" || args[0] === undefined) return String(message.format(args[0]));
      return withoutSpacesAroundChinese(String(message.format(markedChinese(args[0]))));
    } catch (error) {
      throw new Error(`message ${id} cannot be formatted: ${(error as Error).message}`);
    }
  };
  return {
    language,
    timeZone,
    currency,
    t,
    money: (amount, moneyOptions) => formatMoney(language, amount, currency, moneyOptions),
    number: (value, maxDigits = 0) => formatNumber(language, value, maxDigits),
    date: (ms, style) => formatDate(language, ms, timeZone, style),
    list: (items) => formatList(language, items),
    duration(ms) {
      const minutes = Math.max(0, Math.round(ms / MINUTE_MS));
      const days = Math.floor(minutes / 1440);
      const hours = Math.floor((minutes % 1440) / 60);
      const rest = minutes % 60;
      if (days > 0)
        return hours > 0 ? t("duration.daysHours", { days, hours }) : t("duration.days", { days });
      if (hours > 0)
        return rest > 0
          ? t("duration.hoursMinutes", { hours, minutes: rest })
          : t("duration.hours", { hours });
      return t("duration.minutes", { minutes: rest });
    },
  };
}

/** The named ICU formats every message may use (documented in `en.ts`). */
export function icuFormats(timeZone: string, currency: string): Formats {
  const dates = Object.fromEntries(
    Object.entries(DATE_STYLES).map(([name, style]) => [name, { ...style, timeZone }]),
  ) as Record<DateStyle, Intl.DateTimeFormatOptions>;
  return {
    number: {
      money: { style: "currency", currency, minimumFractionDigits: 0, maximumFractionDigits: 0 },
      moneyCents: { style: "currency", currency, minimumFractionDigits: 2, maximumFractionDigits: 2 },
      pct: { style: "percent", maximumFractionDigits: 0 },
      decimal1: { maximumFractionDigits: 1 },
    },
    date: dates,
    time: dates,
  };
}
