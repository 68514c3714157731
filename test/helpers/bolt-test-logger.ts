import bolt, { type Logger } from "@slack/bolt";

/**
 * A Bolt / Web API / Socket Mode client logger for tests: it prints nothing and keeps error lines
 * in `errors` when given.
 */
export function boltTestLogger(errors?: string[]): Logger {
  const noop = (): void => {};
  return {
    debug: noop,
    info: noop,
    warn: noop,
    error: (...messages: unknown[]) => {
      errors?.push(messages.map(String).join(" "));
    },
    setLevel: noop,
    getLevel: () => bolt.LogLevel.ERROR,
    setName: noop,
  };
}
