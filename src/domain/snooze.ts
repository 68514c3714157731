export interface Snooze {
  host: string;
  untilMs: number;
  byUser: string;
  setAtMs: number;
}
