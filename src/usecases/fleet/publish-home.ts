import { GPU_COMMAND } from "../../shared/gpu-command.ts";
import type { ClaimDeps } from "../claims/claim-deps.ts";
import { readHome } from "./read-home.ts";

/**
 * Publishes `user`'s App Home (`views.publish` through the outbox): on `app_home_opened`, and after
 * that user's claims change. `notice` is shown at the top (what a click on the Home tab did).
 */
export function publishHome(deps: ClaimDeps, user: string, notice: string | null = null): void {
  const view = deps.claimWords.home(readHome(deps, user, notice), GPU_COMMAND);
  deps.notifier.send("views.publish", { user_id: user, view });
}
