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
  "cli.store.inUse":
    "store {store} is in use by another gpu-warden ({holder}): end that one first, or give this one its own store.path (two instances on one store would post everything twice)",
  "cli.store.holder": "PID {pid} on {host}, since {since}",
  "cli.store.holderUnknown": "PID not known yet",
  "cli.nothingToWatch":
    "nothing to watch: no sources: in {file} and no nvidia-smi on the PATH; with Slack tokens set gpu-warden will not post a simulated fleet to the team channel: add a sources: list (kind: local, ssh or prometheus, or kind: simulated to try it out)",
  "cli.nothingToWatch.noFile": "the configuration (no gpu-warden.yaml)",
  "cli.store.missingFolder":
    "store {path}: the folder {folder} does not exist: create it, or set store.path to a file in an existing folder",
  "cli.store.notAFolder": "store {path}: {folder} is not a folder: set store.path to a file in a folder",
  "cli.store.notSqlite":
    "store {path} is not an SQLite database (left untouched): set store.path to another file, or move this one away",
  "cli.store.readOnly":
    "store {path}: cannot write in {folder} (read-only): make it writable for this user, or set store.path to a writable folder",
  "cli.store.diskFull":
    "store {path}: the disk is full: free some space there (or set store.path on another disk) and start again",
  "cli.store.tooNew":
    "store {path} has schema version {found}, but this gpu-warden knows versions up to {known}: upgrade gpu-warden, or set store.path to another file",
  "cli.store.missing": "no store at {path}: it is written by ''gpu-warden start'' (store.path in the config)",
  "cli.store.cannotOpen":
    "store {path}: cannot open it ({detail}): check the file and its folder, and store.path",
  "cli.backup.notAFolder":
    "backup {path}: {folder} is not an existing folder: create it or choose another path",
  "cli.backup.readOnly": "backup {path}: cannot write in {folder} (read-only): choose a writable folder",
  "cli.backup.diskFull": "backup {path}: the disk is full: free some space there or choose another disk",
  "cli.backup.missing": "no backup at {path}: give the path of a file written by ''gpu-warden backup''",
  "cli.backup.isTheStore": "{path} is the store itself (store.path): give the backup another path",
  "cli.backup.notAStore": "{path} is not a gpu-warden store: give a file written by ''gpu-warden backup''",
  "cli.backup.damaged": "{path} is damaged (SQLite''s quick check: {detail}): use another backup",
  "cli.backup.tooNew":
    "{path} has schema version {found}, but this gpu-warden knows versions up to {known}: restore it with a newer gpu-warden",
  "cli.backup.cannotOpen": "backup {path}: cannot open it ({detail})",
  "cli.usage.missingCommand": "missing command",
  "cli.usage.unknownCommand": "unknown command ''{command}''",
  "cli.usage.needsFile": "{command} needs a FILE",
  "cli.usage.unexpected": "unexpected argument ''{argument}''",
  "cli.usage.optionsGoWith": "{options} go with ''{owner}'', not ''{command}''",
  "cli.usage.badNow":
    "GPU_WARDEN_NOW={typed} is not an instant: use ISO 8601 with a zone, e.g. 2026-03-05T12:00:00Z",
  "cli.usage.notBoth": "{first} or {second}, not both",
} as const satisfies Record<string, string>;
