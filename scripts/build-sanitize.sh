#!/usr/bin/env bash
# The one sanitizer build, build/sanitize: clang++ -O1 -gline-tables-only (reports name files and lines; full debug
# info only slowed the build) with AddressSanitizer + UndefinedBehaviorSanitizer (-fno-sanitize-recover=all), the
# layer libraries compiled once for both the Catch2 suite (scripts/test-sanitize.sh) and the libFuzzer targets
# (scripts/fuzz.sh, scripts/cmake/fuzz.cmake). Installs clang and its runtime libraries (libFuzzer, ASan, UBSan) when
# they are missing.
#   bash scripts/build-sanitize.sh [TARGET...]   default: embedlab_tests fuzz_targets
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${EMBEDLAB_JOBS:-2}
dir=build/sanitize
targets=("$@")
((${#targets[@]})) || targets=(embedlab_tests fuzz_targets)

source scripts/apt-install.sh
mapfile -t missing < <(clang_packages_missing)
((${#missing[@]} == 0)) || apt_install sanitize "${missing[@]}"

# One build of the directory at a time: the Catch2 suite and the fuzz smoke may start side by side.
mkdir -p build
exec 9>"$dir.lock"
flock 9
if [ ! -f "$dir/CMakeCache.txt" ]; then
  CXX=clang++ cmake -S . -B "$dir" -DEMBEDLAB_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" >"$dir.configure.log" 2>&1 || {
    cat "$dir.configure.log" >&2
    exit 1
  }
fi
cmake --build "$dir" -j"$jobs" --target "${targets[@]}" >"$dir.build.log" 2>&1 || {
  tail -40 "$dir.build.log" >&2
  echo "build-sanitize: $dir failed (log: $dir.build.log)" >&2
  exit 1
}
