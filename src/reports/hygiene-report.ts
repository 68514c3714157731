import type { HygieneCheck, HygieneFinding, HygieneResult, ProbeFailure } from "../domain/hygiene.ts";
import type { Translator } from "../messages/translator.ts";

const GB = 1e9;
const GIB = 2 ** 30;

/** The sentence for one finding, with what to do. */
export function hygieneFindingText(tr: Translator, finding: HygieneFinding): string {
  switch (finding.kind) {
    case "sshd-client-alive":
      if (finding.seconds === null)
        return tr.t("hygiene.sshdUnset", { add: finding.add, file: finding.configFile });
      return finding.setAt === null
        ? tr.t("hygiene.sshdTooLongNoLine", {
            seconds: finding.seconds,
            add: finding.add,
            file: finding.configFile,
          })
        : tr.t("hygiene.sshdTooLong", {
            seconds: finding.seconds,
            add: finding.add,
            line: String(finding.setAt.line),
            file: finding.setAt.file,
          });
    case "disk-full":
      return tr.t("hygiene.diskFull", {
        mount: finding.mount,
        pct: finding.usedPct,
        gib: (finding.availableKiB * 1024) / GIB,
      });
    case "docker-reclaimable":
      return tr.t(finding.what === "images" ? "hygiene.dockerImages" : "hygiene.dockerBuildCache", {
        gib: finding.reclaimableBytes / GB,
        command: finding.command,
      });
    case "docker-old-images":
      return tr.t("hygiene.oldImages", {
        count: finding.count,
        days: finding.days,
        gib: finding.bytes / GB,
        command: finding.command,
      });
    case "idle-session":
      return tr.t("hygiene.idleSession", {
        user: finding.user,
        tty: finding.tty,
        // words-ok: the ICU select's key, not shown
        from: finding.from ?? "none",
        days: Math.floor(finding.idleMinutes / 1440),
      });
    case "container-no-memory-cap":
      return tr.t("hygiene.noMemoryCap", { container: finding.container, image: finding.image });
    default:
      return finding satisfies never;
  }
}

/** Why a check could not run, as "could not check: …" (never "fine"). */
export function couldNotCheckText(tr: Translator, why: ProbeFailure): string {
  switch (why.cause) {
    case "timeout":
      return tr.t("hygiene.couldNotCheck.timeout", { seconds: why.seconds });
    case "no-access":
      return tr.t("hygiene.couldNotCheck.noAccess");
    case "failed":
      return tr.t("hygiene.couldNotCheck.failed", { detail: why.detail });
    default:
      return why satisfies never;
  }
}

/** The check's name as people read it. */
export function hygieneCheckName(tr: Translator, check: HygieneCheck): string {
  return tr.t(`hygiene.check.${check}`);
}

/** The lines of one check's result: each finding, "nothing to fix", no Docker, or could not check. */
export function hygieneResultLines(tr: Translator, result: HygieneResult): string[] {
  const check = hygieneCheckName(tr, result.check);
  const line = (text: string) => tr.t("hygiene.line", { check, text });
  const { outcome } = result;
  switch (outcome.status) {
    case "checked":
      return outcome.findings.length === 0
        ? [line(tr.t("hygiene.nothingToFix"))]
        : outcome.findings.map((finding) => line(hygieneFindingText(tr, finding)));
    case "not-applicable":
      return [line(tr.t("hygiene.noDocker"))];
    case "could-not-check":
      return [line(couldNotCheckText(tr, outcome.why))];
    default:
      return outcome satisfies never;
  }
}

/** `gpu-warden hygiene`'s text: each host, its checks indented, then a total. */
export function hygieneText(tr: Translator, results: readonly HygieneResult[]): string {
  const hosts = [...new Set(results.map((r) => r.host))];
  const lines: string[] = [];
  for (const host of hosts) {
    lines.push(host);
    for (const result of results.filter((r) => r.host === host)) {
      lines.push(...hygieneResultLines(tr, result).map((l) => `  ${l}`));
    }
  }
  const findings = results.reduce(
    (n, r) => n + (r.outcome.status === "checked" ? r.outcome.findings.length : 0),
    0,
  );
  const unchecked = results.filter((r) => r.outcome.status === "could-not-check").length;
  lines.push(tr.t("hygiene.total", { findings, hosts: hosts.length, unchecked }));
  return `${lines.map((l) => `${l}\n`).join("")}`;
}
