import type { Clock } from "../../shared/clock.ts";
import { type InteractionContext, Interactions } from "./interactions.ts";
import { type RawHttpAnswer, SignedHttpTransport, type SignedRequest } from "./signed-http-transport.ts";

/**
 * The emulator's user actions delivered to an HTTP-mode app as signed requests, plus raw sends
 * (any body, any headers) for signature, staleness and replay tests.
 */
export class HttpDriver extends Interactions {
  readonly #transport: SignedHttpTransport;

  constructor(ctx: InteractionContext, transport: SignedHttpTransport) {
    super(ctx, transport);
    this.#transport = transport;
  }

  static create(
    ctx: InteractionContext,
    url: string,
    signingSecret: string,
    clock: Clock,
    ackTimeoutMs: number,
  ) {
    return new HttpDriver(ctx, new SignedHttpTransport(url, signingSecret, clock, ackTimeoutMs));
  }

  /** POSTs a request as given (nothing recorded, no effects applied). */
  send(request: SignedRequest): Promise<RawHttpAnswer> {
    return this.#transport.send(request);
  }
}
