import { readFileSync } from "node:fs";
import type { SecretRef } from "./schema.ts";

/** A secret's value, or why it could not be read (never the value itself). */
export type SecretRead = { ok: true; value: string } | { ok: false; problem: string };

/**
 * Reads a secret the configuration names: an environment variable or a file (trimmed), with its
 * prefix. Read each time an action runs, so a rotated file is picked up without a restart.
 */
export function readSecret(ref: SecretRef, env: NodeJS.ProcessEnv = process.env): SecretRead {
  const prefix = ref.prefix ?? "";
  if ("env" in ref) {
    const value = env[ref.env];
    return value === undefined || value === ""
      ? { ok: false, problem: `the environment variable ${ref.env} is not set` }
      : { ok: true, value: prefix + value };
  }
  try {
    const value = readFileSync(ref.file, "utf8").trim();
    return value === ""
      ? { ok: false, problem: `${ref.file} is empty` }
      : { ok: true, value: prefix + value };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    return { ok: false, problem: `${ref.file} cannot be read (${code})` };
  }
}

/** Whether a header or body value is a secret reference rather than a literal. */
export function isSecretRef(value: unknown): value is SecretRef {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value).filter((key) => key !== "prefix");
  return keys.length === 1 && (keys[0] === "env" || keys[0] === "file");
}
