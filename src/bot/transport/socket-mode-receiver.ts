import bolt, { type webApi } from "@slack/bolt";
import type { Logger } from "../../shared/logger.ts";
import { boltLevel, boltLogger } from "./bolt-logger.ts";
import { MalformedPayloadError } from "./payload-problem.ts";

const { SocketModeReceiver, defaultProcessEventErrorHandler } = bolt;
const { retryPolicies } = bolt.webApi;

/** The logger a receiver's own error handler writes to, quiet for an error already logged. */
export type ReceiverLogger = (name: string, error: unknown) => ReturnType<typeof boltLogger>;

/**
 * Bolt's Socket Mode receiver: a malformed payload is dropped (already logged by the payload
 * guard), and reconnecting (`apps.connections.open`) has its own retry policy.
 */
export function createSocketModeReceiver(options: {
  appToken: string;
  logger: Logger;
  receiverLogger: ReceiverLogger;
  clientOptions: webApi.WebClientOptions;
  clientPingTimeoutMs?: number | undefined;
  connectRetryConfig?: webApi.RetryOptions | undefined;
}): InstanceType<typeof SocketModeReceiver> {
  return new SocketModeReceiver({
    appToken: options.appToken,
    logger: boltLogger(options.logger, "socket-mode"),
    logLevel: boltLevel(options.logger.level),
    clientPingTimeout: options.clientPingTimeoutMs ?? 5_000,
    processEventErrorHandler: async (args) =>
      args.error instanceof MalformedPayloadError ||
      defaultProcessEventErrorHandler({ ...args, logger: options.receiverLogger("socket-mode", args.error) }),
    installerOptions: {
      clientOptions: {
        ...options.clientOptions,
        retryConfig: options.connectRetryConfig ?? retryPolicies.fiveRetriesInFiveMinutes,
      },
    },
  });
}
