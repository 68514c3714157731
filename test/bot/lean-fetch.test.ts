import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import bolt from "@slack/bolt";
import { createLeanFetch } from "../../src/bot/transport/lean-fetch.ts";

const { WebClient, WebAPIPlatformError, WebAPIRateLimitedError, WebAPIRequestError } = bolt.webApi;

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

describe("createLeanFetch: the fetch Slack's clients use", () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  const routes: Record<string, (response: ServerResponse) => void> = {
    "/ok": (response) => {
      response.setHeader("content-type", "application/json");
      response.setHeader("x-oauth-scopes", "chat:write,commands");
      response.end(JSON.stringify({ ok: true, ts: "1767600000.000100" }));
    },
    "/refused": (response) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ ok: false, error: "not_in_channel" }));
    },
    "/limited": (response) => {
      response.writeHead(429, { "retry-after": "7" });
      response.end();
    },
    "/slow": (response) => {
      setTimeout(() => response.end("late"), 2_000).unref();
    },
  };

  before(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        seen.push({
          method: request.method ?? "",
          url: request.url ?? "",
          headers: request.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        });
        const route = routes[new URL(request.url ?? "/", "http://x").pathname];
        if (route === undefined) {
          response.writeHead(404);
          response.end("no such route");
        } else route(response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test("sends method, headers and body as given and answers like fetch", async () => {
    const lean = createLeanFetch();
    const response = await lean(`${base}/ok`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer xoxb-1" },
      body: JSON.stringify({ text: "hello" }),
    });
    assert.equal(response.status, 200);
    assert.equal(response.ok, true);
    assert.equal(response.statusText, "OK");
    assert.equal(response.headers.get("x-oauth-scopes"), "chat:write,commands");
    assert.deepEqual(await response.json(), { ok: true, ts: "1767600000.000100" });
    await assert.rejects(response.text(), /already been read/);
    const request = seen.at(-1)!;
    assert.deepEqual(
      [request.method, request.headers["content-type"], request.headers.authorization, request.body],
      ["POST", "application/json", "Bearer xoxb-1", '{"text":"hello"}'],
    );

    const form = await lean(`${base}/ok`, { method: "POST", body: new URLSearchParams({ a: "1 2" }) });
    assert.equal(form.ok, true);
    assert.deepEqual(
      [seen.at(-1)!.headers["content-type"], seen.at(-1)!.body],
      ["application/x-www-form-urlencoded;charset=UTF-8", "a=1+2"],
    );

    const missing = await lean(`${base}/nowhere`, { method: "POST", body: "x" });
    assert.deepEqual([missing.status, missing.ok, await missing.text()], [404, false, "no such route"]);
  });

  test("a caller's signal aborts the call with its reason, as fetch does", async () => {
    const lean = createLeanFetch();
    await assert.rejects(
      lean(`${base}/slow`, { method: "POST", body: "x", signal: AbortSignal.timeout(50) }),
      {
        name: "TimeoutError",
      },
    );
    const timed = createLeanFetch({ timeoutMs: 50 });
    await assert.rejects(timed(`${base}/slow`, { method: "POST", body: "x" }), /timeout/i);
  });

  test("what it does not cover (multipart uploads, Request objects) goes to the fallback", async () => {
    const calls: string[] = [];
    const fallback = (async (input: string | URL | Request) => {
      calls.push(input instanceof Request ? `request ${input.url}` : `form ${String(input)}`);
      return new Response("{}");
    }) as typeof fetch;
    const lean = createLeanFetch({ fallback });
    const form = new FormData();
    form.append("file", new Blob(["csv"]), "report.csv");
    await lean(`${base}/ok`, { method: "POST", body: form });
    await lean(new Request(`${base}/ok`));
    assert.deepEqual(calls, [`form ${base}/ok`, `request ${base}/ok`]);
  });

  test("the Web API client over it: results, Slack's refusals, rate limits, network errors", async () => {
    const client = (path = "") =>
      new WebClient("xoxb-1", {
        slackApiUrl: `${base}/${path}`,
        fetch: createLeanFetch(),
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
      });
    const posted = await client().apiCall("ok", { channel: "C1", text: "hi", blocks: [{ type: "divider" }] });
    assert.equal(posted.ok, true);
    assert.equal((posted as { ts?: string }).ts, "1767600000.000100");
    assert.deepEqual(posted.response_metadata?.scopes, ["chat:write", "commands"]);
    assert.equal(
      seen.at(-1)!.body,
      "channel=C1&text=hi&blocks=%5B%7B%22type%22%3A%22divider%22%7D%5D",
      "form-encoded, blocks as JSON",
    );
    await assert.rejects(client().apiCall("refused", {}), (error: unknown) => {
      assert.ok(error instanceof WebAPIPlatformError);
      assert.equal(error.data.error, "not_in_channel");
      return true;
    });
    await assert.rejects(client().apiCall("limited", {}), (error: unknown) => {
      assert.ok(error instanceof WebAPIRateLimitedError);
      assert.equal(error.retryAfter, 7);
      return true;
    });
    const closed = new WebClient("xoxb-1", {
      slackApiUrl: "http://127.0.0.1:9/",
      fetch: createLeanFetch(),
      retryConfig: { retries: 0 },
    });
    await assert.rejects(closed.apiCall("chat.postMessage", {}), WebAPIRequestError);
  });
});
