/** *Done with mine* on an idle alert: `user` said at `atMs` that their work on `host` may go. */
export interface DoneMark {
  alertId: number;
  host: string;
  user: string;
  atMs: number;
}
