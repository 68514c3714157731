import bolt from "@slack/bolt";
import type { Logger } from "../../shared/logger.ts";
import { boltLevel, boltLogger } from "./bolt-logger.ts";
import { type HealthEndpoints, healthRoutes } from "./health-routes.ts";
import { MalformedPayloadError } from "./payload-problem.ts";
import type { ReceiverLogger } from "./socket-mode-receiver.ts";

const { HTTPReceiver, HTTPModuleFunctions } = bolt;

/**
 * Bolt's HTTP receiver on `POST /slack/events` (and `/healthz`, `/metrics` when given): a malformed
 * payload is answered 400 with no body, never twice.
 */
export function createHttpReceiver(options: {
  signingSecret: string;
  logger: Logger;
  slackLog: Logger;
  receiverLogger: ReceiverLogger;
  endpoints?: HealthEndpoints | undefined;
}): InstanceType<typeof HTTPReceiver> {
  return new HTTPReceiver({
    signingSecret: options.signingSecret,
    endpoints: ["/slack/events"],
    logger: boltLogger(options.logger, "http"),
    logLevel: boltLevel(options.logger.level),
    customRoutes: options.endpoints === undefined ? [] : healthRoutes(options.endpoints, options.slackLog),
    processEventErrorHandler: async (args) => {
      if (!(args.error instanceof MalformedPayloadError)) {
        return HTTPModuleFunctions.defaultProcessEventErrorHandler({
          ...args,
          logger: options.receiverLogger("http", args.error),
        });
      }
      if (!args.response.headersSent) HTTPModuleFunctions.buildNoBodyResponse(args.response, 400);
      return false;
    },
    // NOTE: Bolt's 3 s timer also fires for a request already answered (a malformed one).
    unhandledRequestHandler: (args) => {
      if (!args.response.headersSent) HTTPModuleFunctions.defaultUnhandledRequestHandler(args);
    },
  });
}
