#!/usr/bin/env bash
# The whole test suite: system dependencies, type check, lint, build (tests run the compiled bin),
# then every test file.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-deps.sh
[ -d node_modules ] || npm ci
export TZ=UTC
npx tsc --noEmit
npx biome check .
npm run build
mapfile -t files < <(find test -name '*.test.ts' | sort)
if [ "$#" -gt 0 ]; then files=("$@"); fi
node --import tsx --test --test-concurrency=2 --test-timeout=300000 "${files[@]}"
