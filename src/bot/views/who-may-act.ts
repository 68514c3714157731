import type { Translator } from "../../messages/translator.ts";
import type { HostAuthority } from "../../usecases/authorise.ts";
import { mention } from "./alerts/alert-format.ts";

/**
 * Who may act on the host, in the reader's words: `the owner of gpu-a (@alice), its claimant (@bob),
 * the cost warden (@carol) or an admin (@dave)`; `null` when nobody can.
 */
export function whoMayAct(tr: Translator, authority: HostAuthority): string | null {
  const { host, owners, claimants, warden, admins } = authority;
  const names = (users: readonly string[]) => users.map(mention).join(", ");
  const parts: string[] = [];
  if (owners.length > 0)
    parts.push(tr.t("host.who.owners", { count: owners.length, host, names: names(owners) }));
  if (claimants.length > 0)
    parts.push(tr.t("host.who.claimants", { count: claimants.length, names: names(claimants) }));
  if (warden !== null) parts.push(tr.t("host.who.warden", { user: mention(warden) }));
  if (admins.length > 0) parts.push(tr.t("host.who.admins", { names: names(admins) }));
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0]!;
  return tr.t("host.list.or", {
    rest: parts.slice(0, -1).join(tr.t("host.list.separator")),
    last: parts.at(-1)!,
  });
}
