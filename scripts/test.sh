#!/usr/bin/env bash
# Runs every suite (lint, Catch2 native, node against the wasm package, browser) and prints one summary.
# Expects scripts/setup.sh and scripts/build.sh to have run (npm test does both first).
set -uo pipefail
cd "$(dirname "$0")/.."
logs=build/test-logs
mkdir -p "$logs"
total_passed=0
total_failed=0
summary=()

# suite NAME PARSER COMMAND...: runs COMMAND under a time limit (limit seconds, 1200 unless set before the
# call), shows its output, counts its tests.
suite() {
  local name=$1 parser=$2
  shift 2
  local log="$logs/$name.log"
  echo
  echo "=== $name: $*"
  timeout "${limit:-1200}" "$@" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  local passed failed
  read -r passed failed < <("$parser" "$log")
  if [ "$status" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi  # crashed or timed out before counting
  if [ $((passed + failed)) = 0 ]; then failed=1; fi                # a suite that ran nothing fails
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  local skipped  # node's skipped and todo tests pass silently: name them in the summary
  skipped=$(sed -nE 's/^ℹ (skipped|todo) ([1-9][0-9]*)$/\2 \1/p' "$log" | paste -sd, -)
  summary+=("$(printf '%-10s %4d passed, %d failed (exit %d)%s' "$name" "$passed" "$failed" "$status" "${skipped:+, $skipped}")")
}

count_ctest() {  # "100% tests passed, 0 tests failed out of 17"
  sed -nE 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2 \1/p' "$1" | tail -1 | awk '{print $1 - $2, $2} END {if (NR == 0) print 0, 0}'
}

count_catch() {  # "All tests passed (N assertions in M test cases)" or "test cases: M | P passed | F failed"
  local line
  line=$(grep -E '^(All tests passed|test cases:)' "$1" | tail -1)
  if [[ $line =~ in\ ([0-9]+)\ test\ case ]]; then
    echo "${BASH_REMATCH[1]} 0"
  elif [[ $line =~ ([0-9]+)\ passed\ \|[[:space:]]+([0-9]+)\ failed ]]; then  # padded: "|      3 failed"
    echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
  else
    echo "0 0"
  fi
}

count_node() {  # spec reporter: "ℹ pass 22" / "ℹ fail 0"
  local passed failed
  passed=$(sed -nE 's/^ℹ pass ([0-9]+)$/\1/p' "$1" | tail -1)
  failed=$(sed -nE 's/^ℹ fail ([0-9]+)$/\1/p' "$1" | tail -1)
  echo "${passed:-0} ${failed:-0}"
}

count_plain() {  # scripts/lint.sh and fuzz.sh end with "NAME: N passed, M failed"
  sed -nE 's/^[a-z]+: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$1" | tail -1 | awk '{print} END {if (NR == 0) print 0, 0}'
}

suite lint count_plain bash scripts/lint.sh
suite catch2 count_ctest ctest --test-dir build/native --output-on-failure -j2 --timeout 600
suite sanitize count_catch bash scripts/test-sanitize.sh
suite fuzz count_plain bash scripts/fuzz.sh --smoke
# File lists, not directories: newer node versions no longer take a directory argument. --test-force-exit: each test
# file's process exits once its tests are done, instead of waiting for its event loop to end. That exit can deadlock in
# node 20 (nodejs/node#54918): process.exit() joins V8's worker threads while a background TurboFan job on one of them
# waits for a garbage collection the exiting main thread never runs (gdb on a test file hung for 17 minutes:
# NodePlatform::Shutdown in uv_thread_join, the worker in CollectionBarrier::AwaitCollectionBackground under
# compiler::JSHeapBroker). --no-concurrent-recompilation keeps TurboFan on the main thread; each test file's process
# inherits the flag from the runner.
suite node count_node node --no-concurrent-recompilation --test --test-force-exit --test-reporter=spec tests/node/*.test.mjs
# The browser suite is the longest (the race, offline and hostile-input tests train models in chromium).
limit=1800 suite browser count_node node --no-concurrent-recompilation --test --test-force-exit --test-reporter=spec --test-concurrency=1 tests/browser/*.test.mjs

echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
echo "total: $total_passed passed, $total_failed failed"
[ "$total_failed" = 0 ]
