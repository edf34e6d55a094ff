#!/usr/bin/env bash
# The npm package's JavaScript into dist/: src/js/ as it is (folders kept, so every relative import holds), the
# declarations tsc generates from its JSDoc (scripts/emit-types.mjs, which also type-checks it), the CommonJS type
# views, and export-torch's Python. The wasm modules come from the CMake build (scripts/build.sh).
# Runs alone when only JavaScript changed: `bash scripts/build-package.sh`.
#
# The package is staged in a folder of its own, then dist/ takes only the files whose bytes changed (each replaced by
# a rename) and loses only the files src/js no longer has: a rebuild while tests import dist/ (npm start beside
# npm test) changes nothing they read unless the sources changed.
set -euo pipefail
cd "$(dirname "$0")/.."

mkdir -p build dist
stage=$(mktemp -d build/package.XXXXXX)
trap 'rm -rf "$stage"' EXIT
# The node shim is part of each wasm module's glue (--extern-pre-js), not a module of its own; tsconfig.json and the
# type-only files are for tsc (emit-types.mjs copies the latter with the declarations).
(cd src/js && find . -type f ! -path ./runtime/node_shim.js ! -name tsconfig.json ! -name '*.d.ts' -print0) |
  while IFS= read -r -d '' file; do
    mkdir -p "$stage/$(dirname "$file")"
    cp "src/js/$file" "$stage/$file"
  done
node scripts/emit-types.mjs "$stage"          # **/*.d.ts: generated from the JSDoc, and the type-only files
node scripts/generate-cjs-types.mjs "$stage" # index.d.cts, tokenizer.d.cts: the types of require()
mkdir -p "$stage/torch" && cp src/torch/*.py src/torch/README.md "$stage/torch/" # export-torch's files

(cd "$stage" && find . -type f -print0) |
  while IFS= read -r -d '' file; do
    if ! cmp -s "$stage/$file" "dist/$file"; then
      mkdir -p "dist/$(dirname "$file")"
      cp "$stage/$file" "dist/$file.$$.tmp"
      mv -f "dist/$file.$$.tmp" "dist/$file"
    fi
  done
# What an earlier build shipped and the sources no longer have; the wasm modules, their glue and the vocabularies
# come from other steps.
(cd dist && find . -type f \( -name '*.js' -o -name '*.cjs' -o -name '*.d.ts' -o -name '*.d.cts' -o -path './torch/*' \) \
  ! -name 'embedlab-*.js' -print0) |
  while IFS= read -r -d '' file; do
    [ -e "$stage/$file" ] || rm -f "dist/$file"
  done
find dist -mindepth 1 -type d -empty -delete
