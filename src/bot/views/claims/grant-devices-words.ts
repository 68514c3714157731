import type { GrantDevices } from "../../../checks/grant-devices.ts";
import type { Translator } from "../../../messages/translator.ts";
import { context, type Reply } from "../reply-message.ts";

/** One host's `CUDA_VISIBLE_DEVICES` line for a whole-host or MIG grant, or why it cannot be given. */
export function grantDevicesLine(tr: Translator, grant: GrantDevices): string {
  const host = `*${grant.host}*`;
  if (grant.devices === null) {
    return grant.kind === "host"
      ? tr.t("placement.cuda.hostUnknown", { host })
      : tr.t("placement.cuda.migUnknown", { host });
  }
  const line = `\`CUDA_VISIBLE_DEVICES=${grant.devices.join(",")}\``;
  return grant.kind === "host"
    ? tr.t("placement.cuda.host", { host, line })
    : tr.t("placement.cuda.mig", { host, line });
}

/** The grant DM with the `CUDA_VISIBLE_DEVICES` of its whole hosts and MIG instances, as a context block after its text. */
export function withGrantDevices(tr: Translator, dm: Reply, devices: readonly GrantDevices[]): Reply {
  if (devices.length === 0) return dm;
  const block = context(devices.map((grant) => grantDevicesLine(tr, grant)).join("\n"));
  const blocks = [...(dm.blocks ?? [])];
  blocks.splice(Math.min(1, blocks.length), 0, block);
  return { ...dm, blocks };
}
