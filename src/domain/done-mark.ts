/**
 * *Done with mine*: `user` said at `atMs`, on the idle alert `alertId`, that their work on `host` may
 * go; `pids` are their GPU processes there at that moment (a process started since is new work).
 */
export interface DoneMark {
  host: string;
  user: string;
  alertId: number;
  atMs: number;
  pids: readonly number[];
}
