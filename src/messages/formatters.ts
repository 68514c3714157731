import type { Language } from "./languages.ts";

/**
 * The one place that builds `Intl` formatters for what people read: money, numbers, days and times.
 * Building one costs about a hundred times more than using one, so each is built once per
 * language, zone and style and kept.
 */

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, build: () => T): T {
  let format = cache.get(key) as T | undefined;
  if (format === undefined) {
    format = build();
    cache.set(key, format);
  }
  return format;
}

/** `a, b, and c` in English, `a、b和c` in Chinese. */
export function formatList(language: Language, items: readonly string[]): string {
  return new Intl.ListFormat(intlLocale(language), { type: "conjunction" }).format(items);
}

/** The BCP 47 locale `Intl` formats a language with. */
export function intlLocale(language: Language): string {
  return language === "en" ? "en-US" : language;
}

export interface MoneyOptions {
  /** With the currency sign (default) or the bare number. */
  symbol?: boolean;
  /** Fraction digits; by default 2 under 100 and none from 100 on (`€12.50`, `€1,234`). */
  digits?: number;
}

/**
 * `€1,234`, `$12.50`, `CN¥1,234` in English, `¥1,234` in Chinese: the locale's own sign for the
 * currency (a code without one, such as `XYZ`, prints as `XYZ 1,234`).
 */
export function formatMoney(
  language: Language,
  amount: number,
  currency: string,
  options: MoneyOptions = {},
): string {
  const digits = options.digits ?? (Math.abs(amount) < 100 ? 2 : 0);
  const symbol = options.symbol ?? true;
  const format = cached(`money|${language}|${currency}|${digits}|${symbol}`, () =>
    symbol
      ? new Intl.NumberFormat(intlLocale(language), {
          style: "currency",
          currency,
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
        })
      : new Intl.NumberFormat(intlLocale(language), {
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
        }),
  );
  return format.format(amount);
}

/** `1,234.5` with at most `maxDigits` fraction digits (and at least `minDigits`). */
export function formatNumber(language: Language, value: number, maxDigits = 0, minDigits = 0): string {
  return cached(
    `number|${language}|${minDigits}|${maxDigits}`,
    () =>
      new Intl.NumberFormat(intlLocale(language), {
        minimumFractionDigits: minDigits,
        maximumFractionDigits: maxDigits,
      }),
  ).format(value);
}

/** How a day or an instant is written. */
export type DateStyle =
  /** `Dec 5` / `12月5日` */
  | "day"
  /** `Dec 5, 2026` / `2026年12月5日` */
  | "dayYear"
  /** `Fri, Dec 5` / `12月5日周五` */
  | "weekdayDay"
  /** `Fri` / `周五` */
  | "weekday"
  /** `Dec` / `12月` */
  | "month"
  /** `14:02` (24-hour in both languages) */
  | "time"
  /** `Dec 5, 14:02` / `12月5日 14:02` */
  | "dayTime"
  /** `Fri, Dec 5, 14:02` / `12月5日周五 14:02` */
  | "weekdayDayTime"
  /** `Fri, Dec 5, 2026` / `2026年12月5日周五` */
  | "weekdayDayYear"
  /** `December 2026` / `2026年12月` */
  | "monthYear";

/** `Intl` options of each {@link DateStyle}, without the zone. */
export const DATE_STYLES: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  day: { month: "short", day: "numeric" },
  dayYear: { year: "numeric", month: "short", day: "numeric" },
  weekdayDay: { weekday: "short", month: "short", day: "numeric" },
  weekday: { weekday: "short" },
  month: { month: "short" },
  time: { hour: "2-digit", minute: "2-digit", hourCycle: "h23" },
  dayTime: { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" },
  weekdayDayTime: {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  },
  weekdayDayYear: { weekday: "short", year: "numeric", month: "short", day: "numeric" },
  monthYear: { year: "numeric", month: "long" },
};

/** An instant as the team reads it in its zone (an IANA name). */
export function formatDate(language: Language, ms: number, zone: string, style: DateStyle): string {
  return cached(
    `date|${language}|${zone}|${style}`,
    () => new Intl.DateTimeFormat(intlLocale(language), { ...DATE_STYLES[style], timeZone: zone }),
  ).format(ms);
}
