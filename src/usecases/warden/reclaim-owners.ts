import type { Config } from "../../config/schema.ts";
import type { ReclaimStore } from "../../store/reclaim-store.ts";

/**
 * The host's owners: the person it was lent to by a reclaim decision, else `hosts.<host>.owners`
 * from the config (also when it was lent to a project only). Owner lookups (who may stop or keep a
 * host, who gets its idle alerts first) go through this.
 */
export function ownersOf(
  host: string,
  config: Pick<Config, "hosts">,
  lends: Pick<ReclaimStore, "lendOf">,
): string[] {
  const lend = lends.lendOf(host);
  if (lend?.owner != null) return [lend.owner];
  return [...(config.hosts[host]?.owners ?? [])];
}
