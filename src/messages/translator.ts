import i18next, { type i18n, type TFunction } from "i18next";
import ICU from "i18next-icu";
import type { Formats } from "intl-messageformat";
import type { ArgsFor, MessageId } from "./catalog.ts";
import { CATALOGS } from "./catalog.ts";
import {
  DATE_STYLES,
  type DateStyle,
  formatDate,
  formatMoney,
  formatNumber,
  intlLocale,
  type MoneyOptions,
} from "./formatters.ts";
import { LANGUAGES, type Language, languageFor, type TeamLanguage } from "./languages.ts";

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
}

const MINUTE_MS = 60_000;
const translators = new Map<string, Translator>();
const instances = new Map<string, i18n>();

/** The translator for `options`, built once and kept (one i18next instance per zone and currency). */
export function translator(options: TranslatorOptions): Translator {
  const key = `${options.language}|${options.timeZone}|${options.currency}`;
  let found = translators.get(key);
  if (found === undefined) {
    found = buildTranslator(options);
    translators.set(key, found);
  }
  return found;
}

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

function buildTranslator(options: TranslatorOptions): Translator {
  const { language, timeZone, currency } = options;
  const fixed: TFunction = i18nextFor(timeZone, currency).getFixedT(language);
  // NOTE: i18next reads its own options (`lng`, `ns`, `context`, `defaultValue`, …) from the same
  // object as the arguments; the catalog test keeps those names out of the messages.
  const t = <K extends MessageId>(id: K, ...args: ArgsFor<K>): string => fixed(id, args[0] ?? {});
  return {
    language,
    timeZone,
    currency,
    t,
    money: (amount, moneyOptions) => formatMoney(language, amount, currency, moneyOptions),
    number: (value, maxDigits = 0) => formatNumber(language, value, maxDigits),
    date: (ms, style) => formatDate(language, ms, timeZone, style),
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

function i18nextFor(timeZone: string, currency: string): i18n {
  const key = `${timeZone}|${currency}`;
  let instance = instances.get(key);
  if (instance !== undefined) return instance;
  instance = i18next.createInstance();
  instance.use(
    new ICU({
      formats: icuFormats(timeZone, currency),
      parseLngForICU: (lng) => intlLocale(lng as Language),
      parseErrorHandler: (error, key) => {
        throw new Error(`message ${key} cannot be formatted: ${error.message}`);
      },
    }),
  );
  // NOTE: with the resources given inline and initAsync off, init() is done when it returns; the
  // promise it also returns has nothing left to wait for.
  void instance.init({
    initAsync: false,
    lng: "en",
    fallbackLng: "en",
    supportedLngs: [...LANGUAGES],
    keySeparator: false,
    nsSeparator: false,
    returnNull: false,
    resources: Object.fromEntries(LANGUAGES.map((lng) => [lng, { translation: CATALOGS[lng] }])),
  });
  instances.set(key, instance);
  return instance;
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
