/** The `gpu-warden` command's human output (once the configuration is read: before that, English). */
export const cli = {
  "cli.emptyConfig": "{file} is empty: using all defaults",
  "cli.reportNeedsSince": "report needs --since YYYY-MM-DD (a local day in {zone})",
  "cli.backedUp": "backed up {store} to {file} ({kib} KiB, schema version {version})",
  "cli.restored": "restored {store} from {file} (schema version {from})",
  "cli.restoredMigrated":
    "restored {store} from {file} (schema version {from}, brought up to version {version})",
  "cli.keptAs": "{done}; the store it replaced is kept as {keptAs}",
  "cli.playground":
    "gpu-warden playground: {url} (a local Slack with a simulated fleet; nothing real is touched; --no-playground prints alerts here instead)",
  "cli.consoleMode":
    "gpu-warden: no Slack tokens, so alerts are printed here (set SLACK_BOT_TOKEN with SLACK_APP_TOKEN or SLACK_SIGNING_SECRET to post them to {channel}); health: {health}",
} as const satisfies Record<string, string>;
