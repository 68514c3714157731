#!/usr/bin/env bash
# The whole test suite: system dependencies, then the type check and lint in the background while
# the build (tests run the compiled bin) and every test file run; fails if any of them failed.
# The test files run as bundles (scripts/bundle-modules.ts): the same code without tsx's per-module
# loader hooks, which cost seconds of CPU per file (the TypeScript children tests spawn run as bundles too:
# test/helpers/ts-child.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-deps.sh
[ -d node_modules ] || npm ci
export TZ=UTC
logs=$(mktemp -d)
# NOTE: the tests' scratch files (stores, keys, the package's install, the browser's profile) go to
# a folder in memory where there is one: SQLite's fsyncs at its checkpoints and closes then cost no
# disk waits (a group of files 63 → 44 s of wall time, the same CPU). Removed at the end, with what
# a killed test left there. Not where /dev/shm is small (Docker's default is 64 MB; the package test
# alone installs some 80 MB).
scratch=""
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] &&
  [ "$(df --output=avail -k /dev/shm 2>/dev/null | tail -1)" -ge 2097152 ] 2>/dev/null; then
  scratch=$(mktemp -d /dev/shm/gpu-warden-test.XXXXXX)
  export TMPDIR="$scratch"
fi
trap 'jobs -p | xargs -r kill 2>/dev/null; rm -rf "$logs" ${scratch:+"$scratch"}' EXIT
npx tsc --noEmit >"$logs/tsc" 2>&1 &
tsc_pid=$!
npx biome check . >"$logs/biome" 2>&1 &
biome_pid=$!
# NOTE: tsc --noEmit above checks src/ too, so the build only emits.
node scripts/build.mjs --no-check
# NOTE: the longest files (in wall time) start before the rest, so that none of them is left running
# alone at the end; those that mostly wait (on a child process, Prometheus, the emulator's pacing) come
# first, each beside one of the groups' CPU-bound processes (scripts/test-groups.ts, startOrder), so
# that their waits overlap the groups' work (2 min 27 s instead of 2 min 34 s on a quiet machine). The
# files that need a process of their own for another reason, all shorter, come last; the last three
# here wait on engines and would otherwise end the run alone, for 3–4 s.
slow_first=(
  test/crash/crash-campaign.test.ts
  test/bot/storm-digest.test.ts
  test/sources/prometheus-source.test.ts
  test/main-slack.test.ts
  test/usecases/hung-source.test.ts
  test/playground/playground-browser.test.ts
  test/repo/package-install.test.ts
  test/simulation/protection.property.test.ts
  test/simulation/team-month.test.ts
  test/playground/playground-keyboard.test.ts
  test/repo/deploy.test.ts
  test/main-restart.test.ts
  test/cli/what-if-engine.test.ts
  test/sources/ssh-source.test.ts
  test/usecases/post-summary.test.ts
  test/usecases/seed-history.test.ts
  test/bot/stop-crash.test.ts
  test/bot/start-host.test.ts
  test/cli/start-one-instance.test.ts
  test/cli/cli-console.test.ts
  test/usecases/summary-containers-clusters.test.ts
  test/usecases/build-summary.test.ts
  test/usecases/seed-history-queries.test.ts
)
mapfile -t files < <(
  for file in "${slow_first[@]}"; do [ -f "$file" ] && echo "$file"; done
  find test -name '*.test.ts' | sort | grep -vxF -f <(printf '%s\n' "${slow_first[@]}")
)
if [ "$#" -gt 0 ]; then files=("$@"); fi
# NOTE: the files that need no process of their own share 4 processes (scripts/test-groups.ts), run
# right after the first slow file: a process of its own costs a file 0.3–1 s of CPU before its first
# test. The slow files keep theirs, so that their waits overlap the groups' work.
alone=()
for file in "${slow_first[@]}"; do alone+=("--alone=$file"); done
# NOTE: the scripts tests start as children are bundled once here, beside the test files, for every
# process (test/helpers/ts-child.ts): one build instead of some ten, each about 2 s of the bundler's CPU.
node --import tsx scripts/test-groups.ts "$logs/bundles" 4 "${alone[@]}" --children="$logs/children" "${files[@]}" >"$logs/bundle-list"
export GW_TEST_CHILD_BUNDLES="$logs/children"
mapfile -t bundles <"$logs/bundle-list"
status=0
# NOTE: 4 on 2 cores: many files wait on a child process, an engine, the emulator's pacing or the
# browser much of the time; with 3 the cores sat idle a quarter of the run (2026-12-05, a quiet machine:
# 3 → 1 min 59 s at 72 % busy, 4 → 1 min 48 s at 87 %, 5 → 1 min 46 s at 92 %, CONTRIBUTING.md).
node --enable-source-maps --test --test-concurrency=4 --test-timeout=300000 "${bundles[@]}" || status=$?
for check in tsc biome; do
  pid_var="${check}_pid"
  if wait "${!pid_var}"; then
    echo "# $check: ok"
  else
    status=1
    echo "# $check: FAILED"
    cat "$logs/$check"
  fi
done
exit "$status"
