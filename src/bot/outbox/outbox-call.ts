import type { webApi } from "@slack/bolt";

/** One Web API call for an outbox item (`files.uploadV2` through the SDK's helper). */
export async function callSlack(
  client: webApi.WebClient,
  method: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (method === "files.uploadV2") {
    const result = await client.filesUploadV2(reviveBuffers(args) as never);
    return result as unknown as Record<string, unknown>;
  }
  return (await client.apiCall(method, args)) as unknown as Record<string, unknown>;
}

/** Buffers queued as JSON come back as `{type:"Buffer", data:[…]}`: turn them into Buffers again. */
function reviveBuffers(args: Record<string, unknown>): Record<string, unknown> {
  const revive = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(revive);
    if (typeof value !== "object" || value === null) return value;
    const record = value as Record<string, unknown>;
    if (record.type === "Buffer" && Array.isArray(record.data)) return Buffer.from(record.data as number[]);
    return Object.fromEntries(Object.entries(record).map(([key, inner]) => [key, revive(inner)]));
  };
  return revive(args) as Record<string, unknown>;
}
