import { spawn } from "node:child_process";
import { tsChildArgs } from "./ts-child.ts";

/**
 * Runs a TypeScript child script (its bundle, TZ=UTC) with `args` and resolves its trimmed stdout.
 * With `killWhen`, the child is killed with SIGKILL as soon as its stdout matches (or, given a
 * promise, once it resolves: something the test sees from outside) and the promise settles once it
 * has died (no shutdown code runs); without, the child must exit 0. A child still
 * running after a minute is killed and the promise rejects.
 */
export async function runChildScript(
  script: string,
  args: readonly string[],
  killWhen: RegExp | Promise<unknown> | null,
): Promise<string> {
  const label = args.at(-1) ?? script;
  const node = await tsChildArgs(script);
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...node, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, TZ: "UTC" },
    });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`child (${label}) hung: ${out} ${err}`));
    }, 60_000);
    if (killWhen instanceof Promise) void killWhen.then(() => proc.kill("SIGKILL"), reject);
    proc.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (killWhen instanceof RegExp && killWhen.test(out)) proc.kill("SIGKILL");
    });
    proc.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    proc.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (killWhen === null && code !== 0) reject(new Error(`child exited ${code}: ${err}`));
      else if (killWhen !== null && signal !== "SIGKILL")
        reject(new Error(`child was not killed (${code}): ${out} ${err}`));
      else resolve(out.trim());
    });
  });
}
