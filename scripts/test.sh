#!/usr/bin/env bash
# Runs every suite (lint, Catch2 native and under the sanitizers, the fuzz smoke, node against the wasm package,
# browser) and prints one summary: per suite its tests, exit status, wall seconds and CPU seconds (user + sys of its
# processes). Expects scripts/setup.sh and scripts/build.sh to have run (npm test does both first).
#
# On 2 cores: the node suite runs one test file at a time and leaves a core partly idle, so it runs in the background
# beside the sanitizer suites (their build, the sanitized Catch2 run, the fuzz smoke) and then beside the browser
# suite, which starts when the sanitizer suites end (alone it kept 1.56 of the 2 cores busy on average); the node
# suite's output is shown when it ends. The browser tests that time the page measure main-thread CPU time, not wall
# time, so a busy machine does not fail them. Every suite's output is also in build/test-logs/NAME.log.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=build/test-logs
rm -rf "$logs"
mkdir -p "$logs"
total_passed=0
total_failed=0
summary=()
started=$SECONDS

# run_suite NAME SHOW COMMAND...: runs COMMAND under a time limit (limit seconds, 1200 unless set before the call),
# its output into $logs/NAME.log, and onto the terminal as it comes when SHOW is 1; then writes "status seconds
# cpu-seconds" to $logs/NAME.status. Call it in a subshell of its own: `times` then counts this suite's processes.
run_suite() {
  local name=$1 show=$2 status begun=$SECONDS
  shift 2
  # $logs/NAME.pid: timeout's pid while it runs, for the exit trap below (timeout leads its command's process group).
  if ((show)); then
    (echo "$BASHPID" >"$logs/$name.pid" && exec timeout "${limit:-1200}" "$@") 2>&1 | tee "$logs/$name.log"
    status=${PIPESTATUS[0]}
  else
    (echo "$BASHPID" >"$logs/$name.pid" && exec timeout "${limit:-1200}" "$@") >"$logs/$name.log" 2>&1
    status=$?
  fi
  rm -f "$logs/$name.pid"
  # The second line of `times` (run in this shell, not in a command substitution's): the user and sys time of the
  # finished children, as "1m2.345s 0m0.678s".
  times >"$logs/$name.times"
  echo "$status $((SECONDS - begun)) $(awk 'NR == 2 {for (i = 1; i <= 2; i++) {split($i, t, /[ms]/); s += t[1] * 60 + t[2]}
    printf "%d", s + 0.5}' "$logs/$name.times")" >"$logs/$name.status"
  rm -f "$logs/$name.times"
}

# count_suite NAME PARSER: counts a finished suite's tests from its log and adds its line to the summary.
count_suite() {
  local name=$1 parser=$2 log=$logs/$1.log status=1 seconds=0 cpu=0 passed failed skipped
  [ -f "$logs/$name.status" ] && read -r status seconds cpu <"$logs/$name.status"
  read -r passed failed < <("$parser" "$log")
  if [ "$status" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi  # crashed or timed out before counting
  if [ $((passed + failed)) = 0 ]; then failed=1; fi                # a suite that ran nothing fails
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  # node's skipped and todo tests pass silently: name them in the summary
  skipped=$(sed -nE 's/^ℹ (skipped|todo) ([1-9][0-9]*)$/\2 \1/p' "$log" | paste -sd, -)
  summary+=("$(printf '%-10s %4d passed, %d failed (exit %d)%s; %d s, %d s CPU' "$name" "$passed" "$failed" "$status" \
    "${skipped:+, $skipped}" "$seconds" "$cpu")")
}

# suite NAME PARSER COMMAND...: runs a suite in the foreground, shows its output, counts its tests.
suite() {
  local name=$1 parser=$2
  shift 2
  echo
  echo "=== $name: $*"
  (run_suite "$name" 1 "$@") &
  wait $! # unlike a foreground subshell, lets the interrupt trap below run at once
  count_suite "$name" "$parser"
}

# start_suite NAME COMMAND...: starts a suite in the background, its output in its log only; finish_suite waits for it.
declare -A background=()
start_suite() {
  local name=$1
  shift
  echo
  echo "=== $name: $* (in the background beside the next suites; its output follows when it ends)"
  (run_suite "$name" 0 "$@") &
  background[$name]=$!
}
finish_suite() {
  local name=$1 parser=$2
  wait "${background[$name]}"
  unset "background[$name]"
  echo
  echo "=== $name: its output"
  cat "$logs/$name.log"
  count_suite "$name" "$parser"
}
# A suite still running when this script ends (Ctrl-C, a failure of its own) is ended with it: timeout passes the
# signal on to its command's process group. (A background job of a script ignores Ctrl-C by itself.)
stop_suites() {
  local pid_file
  for pid_file in "$logs"/*.pid; do
    [ -f "$pid_file" ] && kill -TERM "$(cat "$pid_file")" 2>/dev/null
  done
}
trap stop_suites EXIT
trap 'exit 130' INT TERM

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

# File lists, not directories: newer node versions no longer take a directory argument. --test-force-exit: each test
# file's process exits once its tests are done, instead of waiting for its event loop to end. That exit can deadlock in
# node 20 (nodejs/node#54918): process.exit() joins V8's worker threads while a background TurboFan job on one of them
# waits for a garbage collection the exiting main thread never runs (gdb on a test file hung for 17 minutes:
# NodePlatform::Shutdown in uv_thread_join, the worker in CollectionBarrier::AwaitCollectionBackground under
# compiler::JSHeapBroker). --no-concurrent-recompilation keeps TurboFan on the main thread; each test file's process
# inherits the flag from the runner.
node_test=(node --no-concurrent-recompilation --test --test-force-exit --test-reporter=spec)

start_suite node "${node_test[@]}" tests/node/*.test.mjs
suite lint count_plain bash scripts/lint.sh
suite catch2 count_ctest ctest --test-dir build/native --output-on-failure -j2 --timeout 600
suite sanitize count_catch bash scripts/test-sanitize.sh
# The fuzzers run for a fixed time each (5 s), two at a time even beside the node suite: the smoke's wall time halves
# (60 s of it on the way to the browser suite become 30 s) and each fuzzer still runs its seconds, on a shared core.
suite fuzz count_plain bash scripts/fuzz.sh --smoke --parallel 2
# The browser suite is the longest (the race, offline and hostile-input tests train models in chromium).
limit=1800 suite browser count_node "${node_test[@]}" --test-concurrency=1 tests/browser/*.test.mjs
finish_suite node count_node

echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
echo "time: $((SECONDS - started)) s for the suites"
echo "total: $total_passed passed, $total_failed failed"
[ "$total_failed" = 0 ]
