import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import { isObject, type JsonObject } from "./json.ts";

/** The three kinds of envelope Slack sends over Socket Mode (and, as plain HTTP bodies, in HTTP mode). */
export type EnvelopeType = "slash_commands" | "interactive" | "events_api";

export interface Envelope {
  envelopeId: string;
  type: EnvelopeType;
  payload: JsonObject;
  acceptsResponsePayload: boolean;
  retryAttempt: number | undefined;
  retryReason: string | undefined;
}

/** What came back for one delivery. */
export interface AckOutcome {
  acked: boolean;
  /** The ack's payload (`{}` for a bare ack); undefined when not acked. */
  payload: JsonObject | undefined;
  /** HTTP mode only: the status the app answered (0 when it did not answer in time). */
  httpStatus: number | undefined;
  /** No answer within the ack deadline (Slack shows `operation_timeout`). */
  timedOut: boolean;
  elapsedMs: number;
}

interface Waiter {
  resolve: (payload: JsonObject) => void;
}

/** The WebSocket half of Socket Mode: tickets, `hello`, envelopes out, acks back. */
export class SocketModeServer {
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #tickets = new Set<string>();
  readonly #connections: WebSocket[] = [];
  readonly #waiters = new Map<string, Waiter[]>();
  readonly #appId: string;
  readonly #connectionListeners: Array<() => void> = [];
  /** Acks that arrived after their deadline, or for envelopes never sent. */
  readonly strayAcks: Array<{ envelopeId: string; payload: unknown }> = [];

  constructor(appId: string) {
    this.#appId = appId;
  }

  /** A `ws://…/link/?ticket=…` URL good for one connection. */
  issueUrl(wsBaseUrl: string): string {
    const ticket = randomUUID();
    this.#tickets.add(ticket);
    return `${wsBaseUrl}/link/?ticket=${ticket}&app_id=${this.#appId}`;
  }

  get connectionCount(): number {
    return this.#connections.length;
  }

  /** Resolves once an app holds a connection (it got `hello`); rejects after `timeoutMs`. */
  waitForConnection(timeoutMs: number): Promise<void> {
    if (this.#connections.length > 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no Socket Mode connection within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#connectionListeners.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Takes an HTTP upgrade on `/link/`; false when the request is not ours. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(request.url ?? "/", "http://emulator");
    if (url.pathname !== "/link/" && url.pathname !== "/link") return false;
    const ticket = url.searchParams.get("ticket") ?? "";
    if (!this.#tickets.delete(ticket)) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return true;
    }
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws));
    return true;
  }

  #accept(ws: WebSocket): void {
    this.#connections.push(ws);
    ws.on("message", (data, isBinary) => this.#onMessage(data, isBinary));
    ws.on("close", () => {
      const index = this.#connections.indexOf(ws);
      if (index >= 0) this.#connections.splice(index, 1);
    });
    ws.send(
      JSON.stringify({
        type: "hello",
        num_connections: this.#connections.length,
        connection_info: { app_id: this.#appId },
        debug_info: {
          host: "applink-emulator",
          started: "2026-01-01 00:00:00,000",
          build_number: 1,
          approximate_connection_time: 18060,
        },
      }),
    );
    for (const listener of this.#connectionListeners.splice(0)) listener();
  }

  #onMessage(data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      this.strayAcks.push({ envelopeId: "", payload: data.toString() });
      return;
    }
    if (!isObject(message) || typeof message.envelope_id !== "string") {
      this.strayAcks.push({ envelopeId: "", payload: message });
      return;
    }
    const waiter = this.#waiters.get(message.envelope_id)?.shift();
    const payload = isObject(message.payload) ? message.payload : {};
    if (waiter === undefined) this.strayAcks.push({ envelopeId: message.envelope_id, payload });
    else waiter.resolve(payload);
  }

  /** Sends the envelope on the newest connection and waits up to `ackTimeoutMs` for its ack. */
  deliver(envelope: Envelope, ackTimeoutMs: number): Promise<AckOutcome> {
    const ws = this.#connections.at(-1);
    if (ws === undefined) {
      return Promise.reject(new Error("no Socket Mode connection: start the app before delivering"));
    }
    const frame: JsonObject = {
      envelope_id: envelope.envelopeId,
      type: envelope.type,
      accepts_response_payload: envelope.acceptsResponsePayload,
      payload: envelope.payload,
    };
    if (envelope.retryAttempt !== undefined) frame.retry_attempt = envelope.retryAttempt;
    if (envelope.retryReason !== undefined) frame.retry_reason = envelope.retryReason;
    const startedMs = performance.now();
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(envelope.envelopeId) ?? [];
      this.#waiters.set(envelope.envelopeId, waiters);
      const waiter: Waiter = {
        resolve: (payload) => {
          clearTimeout(timer);
          resolve({
            acked: true,
            payload,
            httpStatus: undefined,
            timedOut: false,
            elapsedMs: performance.now() - startedMs,
          });
        },
      };
      const timer = setTimeout(() => {
        const index = waiters.indexOf(waiter);
        if (index >= 0) waiters.splice(index, 1);
        resolve({
          acked: false,
          payload: undefined,
          httpStatus: undefined,
          timedOut: true,
          elapsedMs: performance.now() - startedMs,
        });
      }, ackTimeoutMs);
      waiters.push(waiter);
      ws.send(JSON.stringify(frame));
    });
  }

  /** Asks every connected client to reconnect (`type: "disconnect"`). */
  sendDisconnect(reason: "warning" | "refresh_requested" | "link_disabled" | "too_many_websockets"): void {
    const frame = JSON.stringify({ type: "disconnect", reason, debug_info: { host: "applink-emulator" } });
    for (const ws of this.#connections) ws.send(frame);
  }

  /** Closes every connection (close frame, then a hard stop if the client does not answer). */
  async close(): Promise<void> {
    const closing = this.#connections.map(
      (ws) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            ws.terminate();
            resolve();
          }, 1000);
          ws.once("close", () => {
            clearTimeout(timer);
            resolve();
          });
          ws.close(1001, "emulator closing");
        }),
    );
    await Promise.all(closing);
    this.#wss.close();
  }
}
