import { postSigned, serveLoadJobs } from "./load-jobs.ts";

/**
 * The load side of `ack.bench.ts` (see {@link serveLoadJobs}): each job sends `requests` signed
 * `/gpu status` commands or button clicks, `concurrency` at a time, and answers
 * `{id, latenciesMs, statuses}`.
 */

interface Job {
  id: number;
  url: string;
  signingSecret: string;
  kind: "command" | "click";
  concurrency: number;
  requests: number;
  /** For clicks: the buttons clicked in turn (action id and value). */
  buttons?: Array<{ actionId: string; value: string }>;
  user: string;
  channel: string;
}

let serial = 0;

function commandBody(job: Job, sinkUrl: string): string {
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
  return new URLSearchParams(fields).toString();
}

function clickBody(job: Job, sinkUrl: string): string {
  serial += 1;
  const button = job.buttons?.[serial % job.buttons.length] ?? { actionId: "keep_host_1h", value: "" };
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
        action_id: button.actionId,
        block_id: "alert_actions",
        text: { type: "plain_text", text: "Keep" },
        value: button.value,
        action_ts: `${Date.now() / 1000}.${serial}`,
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

async function run(
  job: Job,
  sinkUrl: string,
): Promise<{ latenciesMs: number[]; statuses: Record<string, number> }> {
  const latenciesMs: number[] = [];
  const statuses: Record<string, number> = {};
  let started = 0;
  const worker = async () => {
    while (started < job.requests) {
      started += 1;
      const body = job.kind === "command" ? commandBody(job, sinkUrl) : clickBody(job, sinkUrl);
      const { ms, status } = await postSigned(job.url, job.signingSecret, body);
      latenciesMs.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  return { latenciesMs, statuses };
}

await serveLoadJobs(run);
