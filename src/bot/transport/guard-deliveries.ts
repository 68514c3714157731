import type { IncomingMessage, ServerResponse } from "node:http";
import type { App, HTTPReceiver } from "@slack/bolt";
import type { Clock } from "../../shared/clock.ts";
import type { Logger } from "../../shared/logger.ts";
import { MalformedPayloadError, payloadProblem } from "./payload-problem.ts";

/** Slack's window for `X-Slack-Request-Timestamp`, either way: ±5 minutes. */
export const REQUEST_SKEW_MAX_S = 5 * 60;

/**
 * Refuses (401, one warning) a request dated more than {@link REQUEST_SKEW_MAX_S} in the future,
 * before Bolt reads it; Bolt itself refuses the stale and the badly signed ones.
 *
 * NOTE: Bolt checks only staleness, so a request signed with a future timestamp would stay
 * replayable for as long as the attacker liked. `wallClock` must be the real time, as Bolt's own
 * check uses `Date.now()` (the injected domain clock may be simulated).
 */
export function refuseFutureRequests(receiver: HTTPReceiver, wallClock: Clock, logger: Logger): void {
  const listener = receiver.requestListener;
  receiver.requestListener = (request: IncomingMessage, response: ServerResponse) => {
    const header = request.headers["x-slack-request-timestamp"];
    const timestampS = typeof header === "string" ? Number(header) : Number.NaN;
    const aheadS = timestampS - Math.floor(wallClock.now() / 1000);
    if (aheadS > REQUEST_SKEW_MAX_S) {
      logger.warn(
        { path: request.url, aheadS },
        `refused a Slack request dated ${aheadS} s in the future (Slack allows ${REQUEST_SKEW_MAX_S} s either way)`,
      );
      response.writeHead(401);
      response.end();
      return;
    }
    listener(request, response);
  };
}

/**
 * Checks every delivery's shape before Bolt routes it: a malformed one is logged once as a warning
 * and rejected with {@link MalformedPayloadError}, which the receivers' error handlers answer at
 * once (HTTP 400; in Socket Mode an ack, so Slack does not send it again).
 *
 * NOTE: Bolt leaves a payload it cannot route unacknowledged (404 after 3 s, plus an error line);
 * receivers call `app.processEvent`, so the check wraps it.
 */
export function guardPayloads(app: App, logger: Logger, describe: (body: unknown) => object): void {
  const processEvent = app.processEvent.bind(app);
  app.processEvent = async (event) => {
    const problem = payloadProblem(event.body);
    if (problem !== null) {
      logger.warn(
        { delivery: describe(event.body), problem },
        `refused a malformed Slack payload: ${problem}`,
      );
      throw new MalformedPayloadError(problem);
    }
    return processEvent(event);
  };
}
