import type { webApi } from "@slack/bolt";

/** One Web API call the outbox delivered. */
export interface Delivery {
  method: string;
  args: Record<string, unknown>;
}

/** A button as the simulated people see it: action id and its JSON value. */
export interface SeenButton {
  actionId: string;
  value: unknown;
}

/**
 * The Slack Web API as the simulated team's client sees it: every call the outbox makes succeeds,
 * gets a `ts`, and is kept until the policy reads it with {@link take}. Only `apiCall` is used by
 * the outbox worker for the methods the use-cases send.
 */
export class SimulatedSlack {
  #seq = 0;
  #delivered: Delivery[] = [];

  readonly client = {
    apiCall: async (method: string, args: Record<string, unknown> = {}) => {
      this.#seq++;
      this.#delivered.push({ method, args });
      const channel = typeof args.channel === "string" ? args.channel : "C0SIM";
      const ts = typeof args.ts === "string" ? args.ts : `${1_700_000_000 + this.#seq}.000100`;
      return { ok: true, channel, ts };
    },
  } as unknown as webApi.WebClient;

  /** The calls delivered since the last take, oldest first. */
  take(): Delivery[] {
    const out = this.#delivered;
    this.#delivered = [];
    return out;
  }
}

/** The buttons of a delivered message (Block Kit `actions` blocks). */
export function buttonsOf(args: Record<string, unknown>): SeenButton[] {
  const blocks = Array.isArray(args.blocks) ? (args.blocks as Array<Record<string, unknown>>) : [];
  const out: SeenButton[] = [];
  for (const block of blocks) {
    if (block.type !== "actions" || !Array.isArray(block.elements)) continue;
    for (const element of block.elements as Array<{ action_id?: string; value?: string }>) {
      if (element.action_id === undefined) continue;
      out.push({
        actionId: element.action_id,
        value: element.value === undefined ? null : JSON.parse(element.value),
      });
    }
  }
  return out;
}
