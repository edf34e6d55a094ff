#!/usr/bin/env bash
# The npm package's JavaScript into dist/: src/js/ as it is (folders kept, so every relative import holds), the
# declarations tsc generates from its JSDoc (scripts/emit-types.mjs, which also type-checks it), the CommonJS type
# views, and export-torch's Python. The wasm modules come from the CMake build (scripts/build.sh).
# Runs alone when only JavaScript changed: `bash scripts/build-package.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Files of an earlier build that src/js no longer has must not ship: clear the package's JS, keep the wasm builds.
find dist -type f \( -name '*.js' -o -name '*.cjs' -o -name '*.d.ts' -o -name '*.d.cts' \) \
  ! -name 'embedlab-*.js' -delete 2>/dev/null || true
mkdir -p dist
# The node shim is part of each wasm module's glue (--extern-pre-js), not a module of its own; tsconfig.json and the
# type-only files are for tsc (emit-types.mjs copies the latter with the declarations).
(cd src/js && find . -type f ! -path ./runtime/node_shim.js ! -name tsconfig.json ! -name '*.d.ts' -print0) |
  while IFS= read -r -d '' file; do
    mkdir -p "dist/$(dirname "$file")"
    cp "src/js/$file" "dist/$file"
  done
node scripts/emit-types.mjs dist          # dist/**/*.d.ts: generated from the JSDoc, and the type-only files
node scripts/generate-cjs-types.mjs dist # dist/index.d.cts, tokenizer.d.cts: the types of require()
mkdir -p dist/torch && cp src/torch/*.py src/torch/README.md dist/torch/ # export-torch's files
