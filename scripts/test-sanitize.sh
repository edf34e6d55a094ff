#!/usr/bin/env bash
# The Catch2 suite under AddressSanitizer + UndefinedBehaviorSanitizer (native, build/native-asan).
# `npm run test:sanitize`; npm test runs it too. Any report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${EMBEDLAB_JOBS:-2}
dir=build/native-asan
if [ ! -f "$dir/CMakeCache.txt" ]; then
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEMBEDLAB_SANITIZE=ON >"$dir.configure.log" 2>&1 || {
    cat "$dir.configure.log" >&2
    exit 1
  }
fi
cmake --build "$dir" -j"$jobs" --target embedlab_tests >"$dir.build.log" 2>&1 || {
  cat "$dir.build.log" >&2
  exit 1
}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
exec "$dir/embedlab_tests" --use-colour no "$@"
