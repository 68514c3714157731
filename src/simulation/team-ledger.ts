import { hostCostBasis, hostHourCost } from "../checks/cost-model.ts";
import { tariffOf } from "../checks/tariff-price.ts";
import type { Config } from "../config/schema.ts";
import { MINUTE_MS } from "../shared/clock.ts";
import { gpuUtils } from "./team-readings.ts";
import type { TeamWorld } from "./team-world.ts";

/** Below this utilisation a GPU is idle (the design's default rule, used for the ground truth too). */
const IDLE_UTIL_PCT = 10;

interface HostBook {
  /** Per hour while on (cloud price, or write-off + upkeep + rated power), from the cost model. */
  onPerHour: number;
  /** Per hour while off: a purchased host's write-off and upkeep; nothing for cloud hosts. */
  offPerHour: number;
  idleSinceMs: number | null;
}

/**
 * Money, minute by minute: total cost, and idle cost — a host on (or booting) with every GPU below
 * 10 % utilisation, priced at what an hour of it running costs ({@link hostHourCost}): the capacity
 * unused. Of that, {@link idleSaveable} is what a stop would have saved: the whole price of a cloud
 * host, only the power of a bought one (its write-off and upkeep run on while it is off).
 */
export class TeamLedger {
  totalCost = 0;
  idleCost = 0;
  idleSaveable = 0;
  idleHostMinutes = 0;
  readonly #books = new Map<string, HostBook>();
  readonly #world: TeamWorld;

  constructor(world: TeamWorld, config: Config) {
    this.#world = world;
    const tariff = tariffOf(config.costs.electricity, config.team.timezone);
    for (const host of world.hosts) {
      const basis = hostCostBasis(config.hosts[host.spec.name], config.costs);
      const onPerHour = hostHourCost(basis, tariff, world.params.startMs) ?? 0;
      const offPerHour = basis.kind === "owned" ? basis.capitalPerHour + basis.upkeepPerHour : 0;
      this.#books.set(host.spec.name, { onPerHour, offPerHour, idleSinceMs: null });
    }
  }

  /** What an hour of one of the host's GPUs costs while on (work lost is priced at this). */
  gpuHourPrice(host: string): number {
    const book = this.#books.get(host);
    const gpus = this.#world.host(host).spec.gpus;
    return book === undefined || gpus === 0 ? 0 : book.onPerHour / gpus;
  }

  /** Per hour while on, per hour while off (a bought host's write-off and upkeep). */
  hourPrices(host: string): { on: number; off: number } {
    const book = this.#books.get(host);
    return { on: book?.onPerHour ?? 0, off: book?.offPerHour ?? 0 };
  }

  /** Minutes the host has been on with every GPU idle, `null` when it is busy or off. */
  idleForMin(host: string): number | null {
    const since = this.#books.get(host)?.idleSinceMs ?? null;
    return since === null ? null : (this.#world.nowMs - since) / MINUTE_MS;
  }

  /** Books the minute starting now. */
  account(): void {
    const world = this.#world;
    for (const host of world.hosts) {
      const book = this.#books.get(host.spec.name)!;
      if (host.power === "off") {
        this.totalCost += book.offPerHour / 60;
        book.idleSinceMs = null;
        continue;
      }
      this.totalCost += book.onPerHour / 60;
      const idle = gpuUtils(world, host).every((util) => util < IDLE_UTIL_PCT);
      if (!idle) {
        book.idleSinceMs = null;
        continue;
      }
      book.idleSinceMs ??= world.nowMs;
      this.idleCost += book.onPerHour / 60;
      this.idleSaveable += (book.onPerHour - book.offPerHour) / 60;
      this.idleHostMinutes++;
    }
  }
}
