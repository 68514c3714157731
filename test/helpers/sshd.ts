import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

export const SSHD_PATH = "/usr/sbin/sshd";

/** A client key and known_hosts shared by the test servers, and the ssh arguments that use them. */
export interface SshClientKeys {
  dir: string;
  userKey: string;
  /** ssh arguments that make the client use our key and known_hosts and nothing of ~/.ssh or the agent. */
  clientArgs: string[];
  remove(): void;
}

export function createSshClientKeys(): SshClientKeys {
  const dir = mkdtempSync(join(tmpdir(), "gpu-warden-ssh-client-"));
  const userKey = join(dir, "id_ed25519");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "gpu-warden-test-user", "-f", userKey]);
  return {
    dir,
    userKey,
    clientArgs: [
      "-F",
      "/dev/null",
      "-o",
      `UserKnownHostsFile=${join(dir, "known_hosts")}`,
      "-o",
      "StrictHostKeyChecking=accept-new",
      "-o",
      "IdentitiesOnly=yes",
      "-o",
      "IdentityAgent=none",
      "-o",
      "LogLevel=ERROR",
      "-i",
      userKey,
    ],
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface SshdOptions {
  keys: SshClientKeys;
  /** PATH of the remote sessions (put stand-in commands first). */
  remotePath: string;
  /** Accept only passwords (and no keys): a client in BatchMode must fail with "Permission denied". */
  passwordOnly?: boolean;
}

export interface Sshd {
  port: number;
  /** `ssh://user@127.0.0.1:port`, for a host's `target`. */
  target: string;
  stop(): Promise<void>;
}

/**
 * A real OpenSSH server on 127.0.0.1 (a free port) with its own host key and config, the client
 * key authorized for the current user, and `SetEnv PATH=` for the remote commands. Its log is
 * kept for the error when it does not start.
 */
export async function startSshd(options: SshdOptions): Promise<Sshd> {
  const dir = mkdtempSync(join(tmpdir(), "gpu-warden-sshd-"));
  const hostKey = join(dir, "host_ed25519");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "gpu-warden-test-host", "-f", hostKey]);
  writeFileSync(join(dir, "authorized_keys"), readFileSync(`${options.keys.userKey}.pub`));
  // NOTE: sshd insists on its privilege separation directory; containers often lack it.
  if (!existsSync("/run/sshd")) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });

  const port = await freePort();
  const passwordOnly = options.passwordOnly ?? false;
  const configFile = join(dir, "sshd_config");
  writeFileSync(
    configFile,
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${hostKey}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      "StrictModes no",
      "UsePAM no",
      `PermitRootLogin ${passwordOnly ? "yes" : "prohibit-password"}`,
      `PubkeyAuthentication ${passwordOnly ? "no" : "yes"}`,
      `PasswordAuthentication ${passwordOnly ? "yes" : "no"}`,
      "KbdInteractiveAuthentication no",
      "PrintMotd no",
      // NOTE: OpenSSH 9's default key exchange (sntrup761x25519) costs about 0.1 s of CPU a connection
      // on both sides, and the tests connect hundreds of times; the client negotiates what is offered.
      "KexAlgorithms curve25519-sha256,curve25519-sha256@libssh.org",
      "LogLevel INFO",
      `SetEnv PATH=${options.remotePath}`,
      "",
    ].join("\n"),
  );

  const child = spawn(SSHD_PATH, ["-D", "-e", "-f", configFile], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  child.stderr.on("data", (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-65536);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`sshd did not start within 15 s:\n${log}`)), 15_000);
    const onData = () => {
      if (log.includes("Server listening on")) done();
    };
    const onExit = (code: number | null) => fail(new Error(`sshd exited with ${code}:\n${log}`));
    const cleanup = () => {
      clearTimeout(timer);
      child.stderr.off("data", onData);
      child.off("exit", onExit);
    };
    const done = () => {
      cleanup();
      resolve();
    };
    const fail = (error: Error) => {
      cleanup();
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      reject(error);
    };
    child.stderr.on("data", onData);
    child.once("exit", onExit);
  });

  return {
    port,
    target: `ssh://${userInfo().username}@127.0.0.1:${port}`,
    stop: async () => {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP listener on 127.0.0.1 that accepts connections and never says a word: a hung host. */
export async function startSilentListener(): Promise<{ port: number; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return {
    port: address.port,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 that was free a moment ago (listen on 0, then close). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
