#!/usr/bin/env bash
# Installs what building and testing need, skipping whatever is already there (a second run is quick).
# Debian packages: emscripten, libhwy-dev, catch2, nlohmann-json3-dev, chromium, cmake, g++, python3-torch,
# python3-numpy, clang and its runtime libraries (the sanitizer build); then npm ci. The npm installs download while
# apt installs: on a fresh machine that hides their 40-50 s behind apt's minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/apt-install.sh
mkdir -p build

# npm ci only when node_modules is missing or older than the lock file. It needs node and npm alone, not the Debian
# packages below. A node_modules that is a symlink is another checkout's install (a git worktree's): npm ci would
# empty that checkout's node_modules, so it is left alone.
npm_ci=""
if [ -L node_modules ]; then
  [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ] ||
    echo "setup: node_modules links to $(readlink node_modules), older than package-lock.json: run npm ci there"
elif [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm dependencies"
  npm ci --no-audit --no-fund --loglevel=error >build/npm-ci.log 2>&1 &
  npm_ci=$!
fi

# The newest node of the registry's `node` package, for tests/node/runtimes.test.mjs. Not a devDependency: it
# would shadow node 20 on npm scripts' PATH. Optional: when it does not install, the log says why and the test
# reports itself skipped with that line.
newest_node=build/runtimes/node
newest_node_install=""
if [ ! -x "$newest_node/node_modules/.bin/node" ]; then
  echo "setup: installing the newest node into $newest_node (for the runtimes test)"
  mkdir -p "$newest_node"
  npm install --prefix "$newest_node" --no-audit --no-fund --loglevel=error node@latest >"$newest_node/install.log" 2>&1 &
  newest_node_install=$!
fi
# A failure below (apt) leaves no npm install running behind it.
trap '[ -z "$npm_ci$newest_node_install" ] || kill $npm_ci $newest_node_install 2>/dev/null || true' EXIT

missing=()
command -v g++ >/dev/null || missing+=(g++)
command -v cmake >/dev/null || missing+=(cmake)
command -v em++ >/dev/null || missing+=(emscripten)
[ -f /usr/include/hwy/highway.h ] || missing+=(libhwy-dev)
[ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
[ -f /usr/include/nlohmann/json.hpp ] || missing+=(nlohmann-json3-dev)
command -v chromium >/dev/null || missing+=(chromium)
# PyTorch for the export-torch tests: Debian's, at /usr/bin/python3 (a pyenv python3 on PATH may lack it).
/usr/bin/python3 -c 'import torch, numpy' 2>/dev/null || missing+=(python3-torch python3-numpy)
# clang++ with libFuzzer, ASan and UBSan: the sanitizer build (scripts/build-sanitize.sh) that npm test runs.
mapfile -t -O ${#missing[@]} missing < <(clang_packages_missing)

# One apt call for all of them: one package-list update, one dependency resolution.
((${#missing[@]} == 0)) || apt_install setup "${missing[@]}"

if [ -n "$npm_ci" ]; then
  wait "$npm_ci" || {
    cat build/npm-ci.log >&2
    echo "setup: npm ci failed (log: build/npm-ci.log)" >&2
    exit 1
  }
  npm_ci=""
fi
if [ -n "$newest_node_install" ]; then
  if ! wait "$newest_node_install"; then
    rm -rf "$newest_node/node_modules" # half an install would fail the test instead of skipping it
    echo "setup: the newest node did not install (the runtimes test skips it; log: $newest_node/install.log)"
  fi
  newest_node_install=""
fi
