import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { App } from "@slack/bolt";
import { parse } from "yaml";
import { z } from "zod";
import type { BotDeps } from "../../src/bot/bot-deps.ts";
import { registerListeners } from "../../src/bot/listeners/index.ts";
import { BOT_EVENTS, botScopes, HOME_TAB_ENABLED, SLASH_COMMANDS } from "../../src/bot/surface.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Slack's limits on manifest fields (Slack's app manifest reference; §6 of the platform notes). */
const manifestSchema = z.strictObject({
  _metadata: z.strictObject({ major_version: z.literal(1), minor_version: z.number().int().optional() }),
  display_information: z.strictObject({
    name: z.string().min(1).max(35),
    description: z.string().min(1).max(140),
    long_description: z.string().min(174).max(4000),
    background_color: z.string().regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i),
  }),
  features: z.strictObject({
    app_home: z.strictObject({
      home_tab_enabled: z.boolean(),
      messages_tab_enabled: z.boolean(),
      messages_tab_read_only_enabled: z.boolean(),
    }),
    bot_user: z.strictObject({
      display_name: z
        .string()
        .min(1)
        .max(80)
        .regex(/^[a-z0-9._-]+$/, "lower-case letters, digits, '-', '_' and '.'"),
      always_online: z.boolean(),
    }),
    slash_commands: z
      .array(
        z.strictObject({
          command: z
            .string()
            .max(32)
            .regex(/^\/[a-z0-9_-]+$/),
          description: z.string().min(1).max(2000),
          usage_hint: z.string().max(1000),
          should_escape: z.boolean(),
          url: z.url({ protocol: /^https$/ }).optional(),
        }),
      )
      .max(50),
  }),
  oauth_config: z.strictObject({
    scopes: z.strictObject({ bot: z.array(z.string().regex(/^[a-z]+(:[a-z.]+)?$/)).min(1) }),
  }),
  settings: z.strictObject({
    event_subscriptions: z
      .strictObject({ bot_events: z.array(z.string()).max(100), request_url: z.url().optional() })
      .optional(),
    interactivity: z.strictObject({ is_enabled: z.boolean(), request_url: z.url().optional() }),
    org_deploy_enabled: z.boolean(),
    socket_mode_enabled: z.boolean(),
    token_rotation_enabled: z.boolean(),
  }),
});

type Manifest = z.infer<typeof manifestSchema>;

const rawManifest: unknown = parse(readFileSync(join(root, "manifest.yml"), "utf8"));

/** What `registerListeners` registers, recorded by a stand-in for Bolt's App. */
function registrations() {
  const seen = {
    commands: [] as string[],
    actions: [] as string[],
    events: [] as string[],
    views: [] as string[],
    other: [] as string[],
  };
  const record = (list: string[]) => (name: unknown) => {
    list.push(typeof name === "string" ? name : JSON.stringify(name));
  };
  const recorder = {
    command: record(seen.commands),
    action: record(seen.actions),
    event: record(seen.events),
    view: record(seen.views),
    shortcut: record(seen.other),
    options: record(seen.other),
    message: record(seen.other),
    function: record(seen.other),
    use: () => {},
    error: () => {},
  };
  // NOTE: registration only wires handlers; no dependency is touched until a delivery arrives.
  registerListeners(recorder as unknown as App, {} as BotDeps);
  return seen;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/**
 * Web API methods the code calls: `notifier.send("m", …)`, `client.a.b(…)`, `client.filesUploadV2`,
 * `apiCall("m", …)`. Skipped: the emulator (it implements methods), the outbox worker (it forwards
 * whatever was queued), and the declarations of methods (ports, surface).
 */
function usedMethods(): Map<string, string[]> {
  const skip = new Set(["src/bot/outbox/outbox-worker.ts", "src/bot/surface.ts", "src/usecases/ports.ts"]);
  const found = new Map<string, string[]>();
  const add = (method: string, file: string) => found.set(method, [...(found.get(method) ?? []), file]);
  for (const path of sourceFiles(join(root, "src"))) {
    const file = relative(root, path);
    if (file.startsWith("src/playground/") || skip.has(file)) continue;
    const text = readFileSync(path, "utf8");
    for (const m of text.matchAll(/\.send\(\s*"([a-z]+\.[A-Za-z0-9.]+)"/g)) add(m[1]!, file);
    for (const m of text.matchAll(/\.apiCall\(\s*"([a-z]+\.[A-Za-z.]+)"/g)) add(m[1]!, file);
    for (const m of text.matchAll(/\bclient\.([a-z]+)\.([A-Za-z]+)\(/g)) add(`${m[1]}.${m[2]}`, file);
    if (/\bclient\.filesUploadV2\(/.test(text)) add("files.uploadV2", file);
  }
  return found;
}

describe("manifest.yml", () => {
  const checked = manifestSchema.safeParse(rawManifest);
  const manifest = (checked.success ? checked.data : rawManifest) as Manifest;
  const registered = registrations();

  test("is within Slack's field limits and pastes as is (Socket Mode, no URLs needed)", () => {
    assert.ok(checked.success, checked.success ? "" : z.prettifyError(checked.error));
    assert.equal(manifest.settings.socket_mode_enabled, true);
    assert.equal(manifest.settings.org_deploy_enabled, false);
    assert.equal(manifest.settings.token_rotation_enabled, false);
    for (const command of manifest.features.slash_commands) assert.equal(command.url, undefined);
  });

  test("lists exactly the slash commands the listeners register (surface.ts)", () => {
    assert.deepEqual(
      manifest.features.slash_commands.map((c) => c.command),
      SLASH_COMMANDS.map((c) => c.command),
    );
    assert.deepEqual([...registered.commands].sort(), SLASH_COMMANDS.map((c) => c.command).sort());
  });

  test("has Slack send people as IDs (should_escape: true), as the command parser expects", () => {
    assert.deepEqual(
      manifest.features.slash_commands.map((c) => c.should_escape),
      SLASH_COMMANDS.map(() => true),
    );
  });

  test("describes each command as surface.ts does; the usage hint names every /gpu subcommand", () => {
    assert.deepEqual(
      manifest.features.slash_commands.map((c) => [c.command, c.description, c.usage_hint, c.should_escape]),
      SLASH_COMMANDS.map((c) => [c.command, c.description, c.usageHint, c.shouldEscape]),
    );
  });

  test("subscribes to exactly the bot events the listeners register; the Home tab only with its event", () => {
    const events = manifest.settings.event_subscriptions?.bot_events ?? [];
    assert.deepEqual([...events].sort(), [...BOT_EVENTS].sort());
    assert.deepEqual([...registered.events].sort(), [...BOT_EVENTS].sort());
    assert.equal(manifest.features.app_home.home_tab_enabled, HOME_TAB_ENABLED);
  });

  test("turns interactivity on exactly when buttons or modals are handled", () => {
    assert.equal(
      manifest.settings.interactivity.is_enabled,
      registered.actions.length + registered.views.length > 0,
    );
    assert.deepEqual(registered.other, []);
  });

  test("asks for exactly the bot scopes the Web API methods in src/ need", () => {
    const methods = usedMethods();
    assert.ok(methods.has("chat.postMessage"), "the scan finds the Notifier's sends");
    assert.deepEqual([...manifest.oauth_config.scopes.bot].sort(), botScopes(methods.keys()));
  });

  test("keeps the Messages tab on: the bot DMs owners (chat.postMessage to a user id)", () => {
    assert.equal(manifest.features.app_home.messages_tab_enabled, true);
  });
});
