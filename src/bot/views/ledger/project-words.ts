import type { QuotaExceeded } from "../../../checks/project-quota.ts";
import type { Translator } from "../../../messages/translator.ts";

/** Why a claim beyond the project's `max_gpus` was refused (or waits). */
export function overQuotaIn(tr: Translator, quota: QuotaExceeded): string {
  return tr.t("money.overQuota", {
    project: quota.project,
    max: quota.maxGpus,
    held: quota.heldGpus,
    asked: quota.askedGpus,
  });
}
