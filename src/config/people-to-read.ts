import type { Config } from "./schema.ts";

/** Everyone the configuration names (hosts' owners, the warden roster, admins): who may get a DM first. */
export function peopleToRead(config: Config): string[] {
  const owners = Object.values(config.hosts).flatMap((host) => host.owners);
  return [...new Set([...owners, ...config.warden.roster, ...config.slack.admins])];
}
