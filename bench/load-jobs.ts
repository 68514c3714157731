import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";

/**
 * The loop of a load process (`ack-load.ts`, `claim-load.ts`), which runs apart from the measured app
 * so the two do not share a CPU queue. It also plays Slack's side of the app's outgoing calls: a
 * stand-in whose Web API methods and `response_url`s answer 200 at once.
 *
 * Protocol: prints `{"sink": "<url>"}` once, then reads one JSON job a line from stdin and answers
 * one JSON line `{id, ...run(job)}` each; closes the stand-in when stdin ends.
 */
export async function serveLoadJobs<Job extends { id: number }>(
  run: (job: Job, sinkUrl: string) => Promise<object>,
): Promise<void> {
  let tsCounter = 0;
  const sink = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      tsCounter += 1;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          ok: true,
          channel: "C0GPU",
          ts: `1767600000.${String(tsCounter).padStart(6, "0")}`,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  process.stdout.write(`${JSON.stringify({ sink: sinkUrl })}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === "") continue;
    const job = JSON.parse(line) as Job;
    const result = await run(job, sinkUrl);
    process.stdout.write(`${JSON.stringify({ id: job.id, ...result })}\n`);
  }
  sink.closeAllConnections();
  sink.close();
}

/**
 * POSTs a form-encoded body signed as Slack signs requests; `ms` runs until the whole answer is read.
 */
export async function postSigned(
  url: string,
  signingSecret: string,
  body: string,
): Promise<{ ms: number; status: number; answer: string }> {
  const timestampS = Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac("sha256", signingSecret).update(`v0:${timestampS}:${body}`).digest("hex")}`;
  const startedMs = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-slack-request-timestamp": String(timestampS),
      "x-slack-signature": signature,
    },
    body,
  });
  const answer = await response.text();
  return { ms: performance.now() - startedMs, status: response.status, answer };
}
