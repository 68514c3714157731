/** One host's idle state as a sweep left it, kept so that a restart need not replay the whole window. */
export interface IdleSnapshotRow {
  host: string;
  /** Time of the latest sample the state applied. */
  atMs: number;
  /** A fingerprint of the idle policy (and host settings) the state was computed under. */
  policy: string;
  /** The state, serialised by the alert lifecycle (the store does not read it). */
  state: string;
}
