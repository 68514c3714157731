import { en } from "./en.ts";
import type { Language } from "./languages.ts";
import { zhCN } from "./zh-cn.ts";

/** A message's id: a key of the English catalog. */
export type MessageId = keyof typeof en;

/** One language's messages: every id, ICU MessageFormat text. */
export type Catalog = Record<MessageId, string>;

/** What a message argument may be: dates are epoch milliseconds or `Date`s. */
export type MessageValue = string | number | Date;

type CutAt<S extends string, D extends string> = S extends `${infer Head}${D}${string}` ? Head : S;
type FirstToken<S extends string> = CutAt<CutAt<CutAt<S, "}">, ",">, "{">;
type ArgName<T extends string> = T extends "" | `#${string}` | `${string} ${string}` ? never : T;

/**
 * The argument names of an ICU message, found at the type level: `{name}`, `{name, number, money}`
 * and `{name, plural, …}` name one; plural and select branches are searched too.
 */
export type ArgNames<S extends string> = S extends `${string}{${infer Rest}`
  ? ArgName<FirstToken<Rest>> | ArgNames<Rest>
  : never;

/** The arguments of message `K`: none, or an object with exactly its argument names. */
export type ArgsFor<K extends MessageId> = [ArgNames<(typeof en)[K]>] extends [never]
  ? []
  : [args: Record<ArgNames<(typeof en)[K]>, MessageValue>];

/** One area's messages in another language: the same ids as the English area `T`. */
export type AreaCatalog<T> = Record<keyof T, string>;

/** Every language's catalog. */
export const CATALOGS: Readonly<Record<Language, Catalog>> = { en, "zh-CN": zhCN };
