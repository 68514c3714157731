/** Who the emulated workspace and app are; payloads and `auth.test` carry these ids. */
export interface EmulatorIdentity {
  teamId: string;
  teamDomain: string;
  appId: string;
  botUserId: string;
  botId: string;
  botName: string;
  /** `xoxb-…` accepted by every Web API method except `apps.connections.open`. */
  botToken: string;
  /** `xapp-…` accepted by `apps.connections.open` only. */
  appToken: string;
  signingSecret: string;
  /** The legacy verification token Slack still puts in payloads. */
  verificationToken: string;
}

export const DEFAULT_IDENTITY: EmulatorIdentity = {
  teamId: "T0EMULATOR",
  teamDomain: "gpu-team",
  appId: "A0GPUWARDEN",
  botUserId: "U0GPUBOT",
  botId: "B0GPUBOT",
  botName: "gpu-warden",
  botToken: "xoxb-emulator-bot-token",
  appToken: "xapp-emulator-app-token",
  signingSecret: "emulator-signing-secret",
  verificationToken: "emulator-verification-token",
};
