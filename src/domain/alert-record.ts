/** `digest`: a storm digest's message (never open: it anchors the thread of the alerts it lists). */
export type AlertKind = "idle" | "no-data" | "digest";
/** Why an alert ended: the host got busy, was stopped, went unknown, was kept (snoozed), or data came back. */
export type AlertResolution = "busy" | "stopped" | "unknown" | "snoozed" | "data-back" | "exempt";

export interface AlertRecord {
  id: number;
  host: string;
  kind: AlertKind;
  state: "open" | "resolved";
  openedAtMs: number;
  idleSinceMs: number | null;
  channel: string | null;
  /** The channel message's ts, once Slack has it. */
  ts: string | null;
  resolution: AlertResolution | null;
  resolvedAtMs: number | null;
  escalated: boolean;
  /** When an automatic stop is due unless someone keeps the host. */
  autoStopAtMs: number | null;
}
