import { postSigned, serveLoadJobs } from "./load-jobs.ts";

/**
 * The load side of `claim.bench.ts` (see {@link serveLoadJobs}): each job sends its signed `/gpu`
 * commands all at once and answers `{id, latenciesMs, statuses, texts}`.
 */

interface Job {
  id: number;
  url: string;
  signingSecret: string;
  channel: string;
  commands: Array<{ user: string; text: string }>;
}

let serial = 0;

async function one(
  job: Job,
  sinkUrl: string,
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
  const { ms, status, answer } = await postSigned(job.url, job.signingSecret, body);
  let shown = answer;
  try {
    shown = String((JSON.parse(answer) as { text?: unknown }).text);
  } catch {
    // NOTE: a non-JSON answer (an error page) is reported as it came.
  }
  return { ms, status, text: shown };
}

await serveLoadJobs(async (job: Job, sinkUrl) => {
  const results = await Promise.all(job.commands.map(({ user, text }) => one(job, sinkUrl, user, text)));
  const statuses: Record<string, number> = {};
  for (const result of results) statuses[result.status] = (statuses[result.status] ?? 0) + 1;
  return {
    latenciesMs: results.map((result) => result.ms),
    statuses,
    texts: results.map((result) => result.text),
  };
});
