import { createHmac } from "node:crypto";
import type { Clock } from "../../shared/clock.ts";
import { isObject, type JsonObject } from "./json.ts";
import type { AckOutcome, Envelope } from "./socket-mode-server.ts";

/** Ways to spoil a signed request, to prove the app refuses it. */
export type Tamper = "bad_signature" | "missing_signature" | "stale_timestamp";

/** Per-delivery knobs; only the HTTP transport honours them. */
export interface DeliverOptions {
  tamper?: Tamper;
  /** Override `X-Slack-Request-Timestamp` (Unix seconds). */
  timestampS?: number;
  /** Send this earlier request again byte for byte (same timestamp and signature). */
  exactRequest?: SignedRequest;
}

/** One HTTP request exactly as sent, so it can be replayed byte for byte. */
export interface SignedRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface RawHttpAnswer {
  /** 0 when the app did not answer within the deadline. */
  status: number;
  text: string;
  contentType: string;
  elapsedMs: number;
}

/** Slack's older-than limit for `X-Slack-Request-Timestamp`. */
export const STALE_AFTER_S = 5 * 60;

/** `v0=<hex HMAC-SHA256 of "v0:{timestamp}:{body}">`, Slack's request signature. */
export function slackSignature(signingSecret: string, timestampS: number, body: string): string {
  return `v0=${createHmac("sha256", signingSecret).update(`v0:${timestampS}:${body}`).digest("hex")}`;
}

/**
 * The body Slack posts for an envelope: slash commands as form fields, interactions as a form
 * with one `payload` JSON field, events as JSON. The content types are exact (no charset):
 * Bolt only parses a form body when the type is exactly `application/x-www-form-urlencoded`.
 */
export function encodeEnvelope(envelope: Envelope): { body: string; contentType: string } {
  switch (envelope.type) {
    case "slash_commands": {
      const fields = Object.entries(envelope.payload).map(([key, value]): [string, string] => [
        key,
        String(value),
      ]);
      return {
        body: new URLSearchParams(fields).toString(),
        contentType: "application/x-www-form-urlencoded",
      };
    }
    case "interactive":
      return {
        body: new URLSearchParams({ payload: JSON.stringify(envelope.payload) }).toString(),
        contentType: "application/x-www-form-urlencoded",
      };
    case "events_api":
      return { body: JSON.stringify(envelope.payload), contentType: "application/json" };
    default:
      return envelope.type satisfies never;
  }
}

/** Delivers envelopes as signed HTTP requests to an app's `/slack/events` URL. */
export class SignedHttpTransport {
  readonly kind = "http";
  readonly #url: string;
  readonly #signingSecret: string;
  readonly #clock: Clock;
  readonly #ackTimeoutMs: number;

  constructor(url: string, signingSecret: string, clock: Clock, ackTimeoutMs: number) {
    this.#url = url;
    this.#signingSecret = signingSecret;
    this.#clock = clock;
    this.#ackTimeoutMs = ackTimeoutMs;
  }

  /** The request Slack would send for `envelope`, signed now (or spoiled as asked). */
  buildRequest(envelope: Envelope, options: DeliverOptions = {}): SignedRequest {
    const { body, contentType } = encodeEnvelope(envelope);
    const nowS = Math.floor(this.#clock.now() / 1000);
    const timestampS =
      options.timestampS ?? (options.tamper === "stale_timestamp" ? nowS - STALE_AFTER_S - 60 : nowS);
    const headers: Record<string, string> = {
      "content-type": contentType,
      "x-slack-request-timestamp": String(timestampS),
      "user-agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
    };
    if (options.tamper !== "missing_signature") {
      const secret =
        options.tamper === "bad_signature" ? `${this.#signingSecret}-wrong` : this.#signingSecret;
      headers["x-slack-signature"] = slackSignature(secret, timestampS, body);
    }
    if (envelope.retryAttempt !== undefined) headers["x-slack-retry-num"] = String(envelope.retryAttempt);
    if (envelope.retryReason !== undefined) headers["x-slack-retry-reason"] = envelope.retryReason;
    return { url: this.#url, body, headers };
  }

  /** Sends a request as is; a request unanswered within the ack deadline gets status 0. */
  async send(request: SignedRequest): Promise<RawHttpAnswer> {
    const startedMs = performance.now();
    try {
      const response = await fetch(request.url, {
        method: "POST",
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(this.#ackTimeoutMs),
      });
      const text = await response.text();
      return {
        status: response.status,
        text,
        contentType: response.headers.get("content-type") ?? "",
        elapsedMs: performance.now() - startedMs,
      };
    } catch (error) {
      if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
        return { status: 0, text: "", contentType: "", elapsedMs: performance.now() - startedMs };
      }
      throw error;
    }
  }

  async deliver(
    envelope: Envelope,
    options: DeliverOptions,
  ): Promise<AckOutcome & { request: SignedRequest }> {
    const request = options.exactRequest ?? this.buildRequest(envelope, options);
    return { ...(await this.deliverRequest(request)), request };
  }

  /** Sends `request` and reads the answer as an ack: HTTP 200 within the deadline is the ack, its body the payload. */
  async deliverRequest(request: SignedRequest): Promise<AckOutcome> {
    const answer = await this.send(request);
    const timedOut = answer.status === 0 || answer.elapsedMs >= this.#ackTimeoutMs;
    const acked = answer.status === 200 && !timedOut;
    return {
      acked,
      payload: acked ? ackPayload(answer) : undefined,
      httpStatus: answer.status,
      timedOut,
      elapsedMs: answer.elapsedMs,
    };
  }
}

function ackPayload(answer: RawHttpAnswer): JsonObject {
  if (answer.text === "") return {};
  if (answer.contentType.startsWith("application/json")) {
    const parsed: unknown = JSON.parse(answer.text);
    return isObject(parsed) ? parsed : { value: parsed };
  }
  return { text: answer.text };
}
