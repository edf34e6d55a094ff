#!/usr/bin/env bash
# Installs what building and testing need, skipping whatever is already there (a second run is quick).
# Debian packages: emscripten, libhwy-dev, catch2, nlohmann-json3-dev, chromium, cmake, g++, python3-torch,
# python3-numpy; then npm ci.
set -euo pipefail
cd "$(dirname "$0")/.."

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

if ((${#missing[@]})); then
  source scripts/apt-install.sh
  apt_install setup "${missing[@]}"
fi

# npm ci only when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm dependencies"
  npm ci --no-audit --no-fund --loglevel=error
fi

# The newest node of the registry's `node` package, for tests/node/runtimes.test.mjs. Not a devDependency: it
# would shadow node 20 on npm scripts' PATH. Optional: when it does not install, the log says why and the test
# reports itself skipped with that line.
newest_node=build/runtimes/node
if [ ! -x "$newest_node/node_modules/.bin/node" ]; then
  echo "setup: installing the newest node into $newest_node (for the runtimes test)"
  mkdir -p "$newest_node"
  if ! npm install --prefix "$newest_node" --no-audit --no-fund --loglevel=error node@latest >"$newest_node/install.log" 2>&1; then
    rm -rf "$newest_node/node_modules" # half an install would fail the test instead of skipping it
    echo "setup: the newest node did not install (the runtimes test skips it; log: $newest_node/install.log)"
  fi
fi
