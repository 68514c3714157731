import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";

/**
 * The load side of `ack.bench.ts`, in its own process so the measured app does not share a CPU
 * queue with its client. It also plays Slack's side of the app's outgoing calls (Web API methods and
 * `response_url`s answer 200 at once).
 *
 * Protocol: prints `{"sink": "<url>"}` once, then reads one JSON job a line from stdin and answers
 * one JSON line `{id, latenciesMs, statuses}` each.
 */

interface Job {
  id: number;
  url: string;
  signingSecret: string;
  kind: "command" | "click";
  concurrency: number;
  requests: number;
  /** For clicks: the button's action id and value. */
  actionId?: string;
  value?: string;
  user: string;
  channel: string;
}

let tsCounter = 0;
const sink = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    tsCounter += 1;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ ok: true, channel: "C0GPU", ts: `1767600000.${String(tsCounter).padStart(6, "0")}` }),
    );
  });
});
await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
process.stdout.write(`${JSON.stringify({ sink: sinkUrl })}\n`);

let serial = 0;

function commandBody(job: Job): { body: string; contentType: string } {
  serial += 1;
  const fields = {
    token: "bench-verification-token",
    team_id: "T0BENCH",
    team_domain: "bench",
    channel_id: job.channel,
    channel_name: "gpu",
    user_id: job.user,
    user_name: "bench",
    command: "/gpu",
    text: "status",
    api_app_id: "A0BENCH",
    is_enterprise_install: "false",
    response_url: `${sinkUrl}/response/${serial}`,
    trigger_id: `${serial}.${process.pid}.bench`,
  };
  return { body: new URLSearchParams(fields).toString(), contentType: "application/x-www-form-urlencoded" };
}

function clickBody(job: Job): { body: string; contentType: string } {
  serial += 1;
  const payload = {
    type: "block_actions",
    user: { id: job.user, username: "bench", name: "bench", team_id: "T0BENCH" },
    api_app_id: "A0BENCH",
    token: "bench-verification-token",
    container: {
      type: "message",
      message_ts: "1767600000.000001",
      channel_id: job.channel,
      is_ephemeral: false,
    },
    trigger_id: `${serial}.${process.pid}.bench`,
    team: { id: "T0BENCH", domain: "bench" },
    is_enterprise_install: false,
    channel: { id: job.channel, name: "gpu" },
    message: {
      type: "message",
      ts: "1767600000.000001",
      text: "gpu-a is idle",
      user: "U0BOT",
      bot_id: "B0BOT",
    },
    response_url: `${sinkUrl}/response/${serial}`,
    actions: [
      {
        type: "button",
        action_id: job.actionId ?? "keep_host_1h",
        block_id: "alert_actions",
        text: { type: "plain_text", text: "Keep 1 h" },
        value: job.value ?? "",
        action_ts: `${Date.now() / 1000}.${serial}`,
      },
    ],
  };
  return {
    body: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    contentType: "application/x-www-form-urlencoded",
  };
}

async function one(job: Job): Promise<{ ms: number; status: number }> {
  const { body, contentType } = job.kind === "command" ? commandBody(job) : clickBody(job);
  const timestampS = Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac("sha256", job.signingSecret).update(`v0:${timestampS}:${body}`).digest("hex")}`;
  const startedMs = performance.now();
  const response = await fetch(job.url, {
    method: "POST",
    headers: {
      "content-type": contentType,
      "x-slack-request-timestamp": String(timestampS),
      "x-slack-signature": signature,
    },
    body,
  });
  await response.arrayBuffer();
  return { ms: performance.now() - startedMs, status: response.status };
}

async function run(job: Job): Promise<{ latenciesMs: number[]; statuses: Record<string, number> }> {
  const latenciesMs: number[] = [];
  const statuses: Record<string, number> = {};
  let started = 0;
  const worker = async () => {
    while (started < job.requests) {
      started += 1;
      const { ms, status } = await one(job);
      latenciesMs.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  return { latenciesMs, statuses };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue;
  const job = JSON.parse(line) as Job;
  const result = await run(job);
  process.stdout.write(`${JSON.stringify({ id: job.id, ...result })}\n`);
}
sink.closeAllConnections();
sink.close();
