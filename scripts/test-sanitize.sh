#!/usr/bin/env bash
# The Catch2 suite under AddressSanitizer + UndefinedBehaviorSanitizer: clang++ -O1 -gline-tables-only, the sanitizer
# build that the fuzz targets share (build/sanitize, scripts/build-sanitize.sh). `npm run test:sanitize`; npm test
# runs it too. Any report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-sanitize.sh embedlab_tests
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
exec build/sanitize/embedlab_tests --use-colour no "$@"
