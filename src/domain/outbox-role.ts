/**
 * `message`: an ordinary call. `alert-post`: posts an alert; its result's ts is stored on the alert.
 * `alert-update`: rewrites the alert message; a newer pending update of the same alert supersedes it.
 */
export type OutboxRole = "message" | "alert-post" | "alert-update";
