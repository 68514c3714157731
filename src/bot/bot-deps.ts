import type { ReclaimStore } from "../store/reclaim-store.ts";
import type { ClaimDeps } from "../usecases/claims/claim-deps.ts";
import type { StopHostDeps } from "../usecases/power/stop-host.ts";
import type { CostWardenDeps } from "../usecases/warden/cost-warden-deps.ts";
import type { ReclaimWords } from "../usecases/warden/reclaim-words.ts";
import type { WardenWords } from "../usecases/warden/warden-words.ts";
import type { Readers } from "./readers.ts";

/**
 * What the Slack listeners need; `composeBot` (`main/compose-bot.ts`) builds it, and nothing else
 * should. The fleet view and the alert port are the same object (`createIdleAlerts`). The slash
 * command's name comes from `surface.ts`.
 */
export type BotDeps = StopHostDeps &
  ClaimDeps & {
    /** Who reads what the listeners answer: each person in their language. */
    readers: Readers;
    reclaims: ReclaimStore;
    reclaimWords: ReclaimWords;
    wardenWords: WardenWords;
    /** A Slack message's permalink; `null` while the workspace URL is not known. */
    messageLink: (channel: string, ts: string) => string | null;
  } & CostWardenDeps;
