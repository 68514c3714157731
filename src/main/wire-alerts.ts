import type { BotDeps } from "../bot/bot-deps.ts";
import { messagePermalink } from "../bot/message-link.ts";
import type { Readers } from "../bot/readers.ts";
import type { botWords } from "../bot/views/renderers.ts";
import { hostCostBasis, hostHourCost } from "../checks/cost-model.ts";
import { tariffOf } from "../checks/tariff-price.ts";
import type { Config } from "../config/schema.ts";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import { idlePolicyOf } from "../usecases/alerts/alert-policy.ts";
import { createIdleAlerts, type IdleAlerts } from "../usecases/alerts/idle-alerts.ts";
import { createStormDigest } from "../usecases/alerts/storm-digest.ts";
import type { Notifier } from "../usecases/ports.ts";
import { stopAutomatically } from "../usecases/power/stop-host.ts";
import { ownersOf } from "../usecases/warden/reclaim-owners.ts";
import type { BotStores } from "./bot-stores.ts";

/** What is known only once Slack has started: the workspace's URL, for links to messages. */
export interface SlackLinks {
  workspaceUrl: string | null;
}

/**
 * The alert lifecycle and the deps every listener, job and use-case of the bot shares. Called by
 * `composeBot` alone: a dependency of a new use-case is added here (and to its deps type, not optional).
 */
export function wireAlerts(
  config: Config,
  stores: BotStores,
  io: {
    notifier: Notifier;
    readers: Readers;
    words: ReturnType<typeof botWords>;
    clock: Clock;
    logger: Logger;
    /** The executor of webhook stop actions. */
    fetch: typeof fetch;
  },
  links: SlackLinks,
): { alerts: IdleAlerts; botDeps: BotDeps } {
  const { store, state, reclaims, costWarden } = stores;
  const { notifier, readers, words, clock, logger, fetch } = io;
  const warden = costWarden.wardens;
  let botDeps: BotDeps | null = null;
  /** Lent hosts belong to whom they were lent to (a reclaim decision); others to their configured owners. */
  const owners = (host: string) => ownersOf(host, config, reclaims);
  const messageLink = (channel: string, ts: string) =>
    links.workspaceUrl === null ? null : messagePermalink(links.workspaceUrl, channel, ts);
  const tariff = tariffOf(config.costs.electricity, config.team.timezone);
  const storm = createStormDigest({
    config,
    state,
    notifier,
    stormWords: words.stormWords,
    costOf: (host) => hostHourCost(hostCostBasis(config.hosts[host], config.costs), tariff, clock.now()),
    ownersOf: owners,
  });
  const lifecycle = createIdleAlerts({
    config,
    metrics: store,
    state,
    notifier: storm.notifier,
    warden,
    clock,
    logger,
    alertWords: words.alertWords,
    stopAutomatically: async (host, alertId, reason, emptySinceMs) => {
      // NOTE: called inside the poll's transaction (see createStormDigest): the stop begins once that
      // has committed, so its command never runs before its alert and stop run are written.
      await Promise.resolve();
      if (botDeps) await stopAutomatically(botDeps, host, alertId, reason, emptySinceMs);
    },
    owners,
    messageLink,
  });
  const alerts: IdleAlerts = {
    ...lifecycle,
    onPoll: (result) => storm.poll(result.atMs, () => lifecycle.onPoll(result)),
  };
  botDeps = {
    readers,
    config,
    idlePolicy: idlePolicyOf(config),
    state,
    fleet: alerts,
    alerts,
    claimWords: words.claimWords,
    reclaimWords: words.reclaimWords,
    wardenWords: words.wardenWords,
    warden,
    clock,
    logger,
    notifier,
    metrics: store,
    reclaims,
    owners,
    fetch,
    messageLink,
    ...costWarden,
  };
  return { alerts, botDeps };
}
