import { Readable, Writable } from "node:stream";
import { runCli } from "../../src/cli.ts";

/** What `gpu-warden ARGS` run in this process printed: each stream, and both as they interleaved. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  output: string;
}

/** `gpu-warden ARGS` in this process (`runCli`), with `stdin` as input (none by default), in `cwd`, with only `env`. */
export async function runCliHere(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; stdin?: string },
): Promise<CliRun> {
  const run = { stdout: "", stderr: "", output: "" };
  const sink = (stream: "stdout" | "stderr") =>
    new Writable({
      write(chunk, _encoding, done) {
        run[stream] += String(chunk);
        run.output += String(chunk);
        done();
      },
    });
  const code = await runCli(args, {
    stdout: sink("stdout"),
    stderr: sink("stderr"),
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    env: options.env ?? { LOG_LEVEL: "silent", PATH: "/usr/bin:/bin" },
    cwd: options.cwd,
  });
  return { code, ...run };
}
