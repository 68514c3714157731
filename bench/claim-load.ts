import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";

/**
 * The load side of `claim.bench.ts`, in its own process so the measured app does not share a CPU
 * with its client. It also plays Slack's side of the app's outgoing calls (Web API methods and
 * `response_url`s answer 200 at once).
 *
 * Protocol: prints `{"sink": "<url>"}` once, then reads one JSON job a line from stdin — signed
 * `/gpu` commands, all sent at once — and answers one JSON line `{id, latenciesMs, statuses, texts}`.
 */

interface Job {
  id: number;
  url: string;
  signingSecret: string;
  channel: string;
  commands: Array<{ user: string; text: string }>;
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

async function one(
  job: Job,
  user: string,
  text: string,
): Promise<{ ms: number; status: number; text: string }> {
  serial += 1;
  const body = new URLSearchParams({
    token: "bench-verification-token",
    team_id: "T0BENCH",
    team_domain: "bench",
    channel_id: job.channel,
    channel_name: "gpu",
    user_id: user,
    user_name: user.toLowerCase(),
    command: "/gpu",
    text,
    api_app_id: "A0BENCH",
    is_enterprise_install: "false",
    response_url: `${sinkUrl}/response/${serial}`,
    trigger_id: `${serial}.${process.pid}.bench`,
  }).toString();
  const timestampS = Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac("sha256", job.signingSecret).update(`v0:${timestampS}:${body}`).digest("hex")}`;
  const startedMs = performance.now();
  const response = await fetch(job.url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-slack-request-timestamp": String(timestampS),
      "x-slack-signature": signature,
    },
    body,
  });
  const answer = await response.text();
  const ms = performance.now() - startedMs;
  let shown = answer;
  try {
    shown = String((JSON.parse(answer) as { text?: unknown }).text);
  } catch {
    // NOTE: a non-JSON answer (an error page) is reported as it came.
  }
  return { ms, status: response.status, text: shown };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue;
  const job = JSON.parse(line) as Job;
  const results = await Promise.all(job.commands.map(({ user, text }) => one(job, user, text)));
  const statuses: Record<string, number> = {};
  for (const result of results) statuses[result.status] = (statuses[result.status] ?? 0) + 1;
  process.stdout.write(
    `${JSON.stringify({
      id: job.id,
      latenciesMs: results.map((result) => result.ms),
      statuses,
      texts: results.map((result) => result.text),
    })}\n`,
  );
}
sink.closeAllConnections();
sink.close();
