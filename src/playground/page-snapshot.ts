import { COMMANDS } from "../bot/commands/command-table.ts";
import { slotsBetween } from "../checks/cadence.ts";
import type { Config } from "../config/schema.ts";
import { type Translator, translatorFor } from "../messages/translator.ts";
import { DAY_MS } from "../shared/clock.ts";
import { dayjs } from "../shared/time.ts";
import { summaryCadence } from "../usecases/ledger/build-summary.ts";
import type { ControlledFleet, HostMode } from "./controlled-fleet.ts";
import type { PlaygroundClock } from "./playground-clock.ts";
import { PLAYGROUND_CHANNEL, PLAYGROUND_USERS, type PlaygroundUser } from "./playground-config.ts";
import type { JsonObject } from "./slack-emulator/json.ts";
import type { SlackEmulator, StoredFile, StoredMessage } from "./slack-emulator/start-slack-emulator.ts";

/** A file attached to a message, as the page links it. */
export interface PageFile {
  id: string;
  name: string;
  title: string;
  url: string;
  image: boolean;
}

/** A message as the page draws it: Block Kit as sent, the simulated time it was posted at. */
export interface PageMessage {
  ts: string;
  atMs: number;
  text: string;
  blocks: JsonObject[];
  files: PageFile[];
  replies: PageMessage[];
}

export interface PageEphemeral {
  ts: string;
  atMs: number;
  channel: string;
  threadTs: string | null;
  text: string;
  blocks: JsonObject[];
}

export interface FleetRow {
  host: string;
  role: string;
  model: string;
  mode: HostMode;
  /** Per-GPU utilisation now; empty when the host reports nothing. */
  utilPct: Array<number | null>;
  problem: string | null;
}

export interface ClockState {
  nowMs: number;
  rate: number;
  paused: boolean;
  timezone: string;
  nextSummaryMs: number | null;
  nextMonthMs: number;
}

/** Everything one person sees on the page, at one moment. */
export interface PageSnapshot {
  me: string;
  team: string;
  /** The people to view as; `role` in the team's language. */
  users: ReadonlyArray<Omit<PlaygroundUser, "role"> & { role: string }>;
  channel: { id: string; name: string; messages: PageMessage[] };
  /** The bot's DM with `me` (its id is null until the bot first writes). */
  dm: { id: string | null; messages: PageMessage[] };
  /** `/gpu` forms from the command table, for the composer's suggestions. */
  commands: Array<{ text: string; summary: string }>;
  ephemerals: PageEphemeral[];
  home: { id: string; view: JsonObject } | null;
  modal: { id: string; view: JsonObject; errors: Record<string, string>; depth: number } | null;
  fleet: FleetRow[];
  clock: ClockState;
}

export interface SnapshotSources {
  emulator: SlackEmulator;
  clock: PlaygroundClock;
  fleet: ControlledFleet;
  config: Config;
}

/** Messages kept on the page: the latest ones of a conversation. */
const SHOWN_MESSAGES = 150;

export function pageSnapshot(sources: SnapshotSources, me: string): PageSnapshot {
  const { emulator, config } = sources;
  const channel = emulator.channel(PLAYGROUND_CHANNEL.id);
  const modals = emulator.modals(me);
  const top = modals.at(-1);
  const home = emulator.home(me);
  const tr = translatorFor(config.team);
  return {
    me,
    team: config.team.name,
    users: PLAYGROUND_USERS.map((user) => ({ ...user, role: tr.t(user.role) })),
    channel: {
      id: channel.id,
      name: channel.name,
      messages: channel.messages
        .slice(-SHOWN_MESSAGES)
        .map((m) => pageMessage(sources, m, channel.thread(m.ts))),
    },
    dm: dmMessages(sources, me),
    commands: COMMANDS.map((command) => ({
      text: `/gpu ${command.example ?? command.usage}`,
      summary: tr.t(command.summary),
    })),
    ephemerals: emulator.ephemerals(me).map((m) => ({
      ts: m.ts,
      atMs: simulatedAtTs(sources.clock, m.ts),
      channel: m.channel,
      threadTs: m.threadTs ?? null,
      text: m.text,
      blocks: m.blocks,
    })),
    home: home === undefined ? null : { id: home.id, view: home.view },
    modal:
      top === undefined
        ? null
        : { id: top.id, view: top.view, errors: top.errors ?? {}, depth: modals.length },
    fleet: fleetRows(sources, tr),
    clock: clockState(sources),
  };
}

export function clockState({ clock, config }: Pick<SnapshotSources, "clock" | "config">): ClockState {
  const nowMs = clock.now();
  const zone = config.team.timezone;
  const [hours, minutes] = config.warden.announce_time.split(":").map(Number) as [number, number];
  const nextMonthMs = dayjs(nowMs)
    .tz(zone)
    .add(1, "month")
    .startOf("month")
    .hour(hours)
    .minute(minutes)
    .valueOf();
  return {
    nowMs,
    rate: clock.rate,
    paused: clock.paused,
    timezone: zone,
    nextSummaryMs: config.summary.enabled
      ? (slotsBetween(summaryCadence(config), nowMs, nowMs + 15 * DAY_MS)[0] ?? null)
      : null,
    nextMonthMs,
  };
}

function fleetRows({ fleet, clock }: Pick<SnapshotSources, "fleet" | "clock">, tr: Translator): FleetRow[] {
  const nowMs = clock.now();
  return fleet.observe(nowMs).map((observation) => {
    const spec = fleet.host(observation.host);
    return {
      host: observation.host,
      role: spec === undefined ? "" : tr.t(`playground.role.${spec.role}`),
      model: spec?.model.name ?? "",
      mode: fleet.mode(observation.host),
      utilPct: observation.ok ? observation.gpus.map((gpu) => gpu.utilPct) : [],
      problem: observation.ok ? null : observation.message,
    };
  });
}

function dmMessages(sources: SnapshotSources, me: string): PageSnapshot["dm"] {
  const { emulator } = sources;
  const dm = [...emulator.state.channels.values()].find((c) => c.kind === "im" && c.imUser === me);
  if (dm === undefined) return { id: null, messages: [] };
  const view = emulator.channel(dm.id);
  return {
    id: dm.id,
    messages: view.messages.slice(-SHOWN_MESSAGES).map((m) => pageMessage(sources, m, view.thread(m.ts))),
  };
}

function pageMessage(
  sources: SnapshotSources,
  message: StoredMessage,
  replies: StoredMessage[],
): PageMessage {
  return {
    ts: message.ts,
    atMs: simulatedAtTs(sources.clock, message.ts),
    text: message.text,
    blocks: message.blocks,
    files: message.fileIds.flatMap((id) => {
      const file = sources.emulator.state.files.get(id);
      return file === undefined ? [] : [pageFile(file)];
    }),
    replies: replies.map((reply) => pageMessage(sources, reply, [])),
  };
}

function pageFile(file: StoredFile): PageFile {
  return {
    id: file.id,
    name: file.filename,
    title: file.title ?? file.filename,
    url: `/files/${encodeURIComponent(file.id)}/${encodeURIComponent(file.filename)}`,
    image: /\.(png|jpe?g|gif|svg)$/i.test(file.filename),
  };
}

/** The emulator stamps messages in real time; the page shows the playground's time. */
function simulatedAtTs(clock: PlaygroundClock, ts: string): number {
  return clock.simulatedAt(Math.floor(Number(ts) * 1000));
}
