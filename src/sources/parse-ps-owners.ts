/** argv that prints `pid user` for each of `pids` that exists (procps and BSD ps alike). */
export function psOwnersArgs(pids: readonly number[]): string[] {
  return ["ps", "-o", "pid=,user=", "-p", pids.join(",")];
}

/**
 * Reads `ps -o pid=,user= -p …` output into pid → login name. Lines that are not `<pid> <user>` are
 * skipped. NOTE: procps shows a user name longer than 8 characters cut, ending in `+`, or as a uid;
 * it is kept as printed.
 */
export function parsePsOwners(text: string): Map<number, string> {
  const owners = new Map<number, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(\d+)\s+(\S+)\s*$/.exec(line);
    if (match?.[1] && match[2]) owners.set(Number(match[1]), match[2]);
  }
  return owners;
}
