#!/usr/bin/env bash
# Formatting and lint: clang-format (.clang-format) on the C++ of src/ and tests/, Prettier and ESLint on the
# JavaScript, tsc on the package's JSDoc types (scripts/emit-types.mjs), no import circle in src/js or web/js, and
# the size of the files of code in src/, web/, tests/ and scripts/. `npm run lint`; npm test runs it first. Ends with
# "lint: N passed, M failed" (one per checker).
set -uo pipefail
cd "$(dirname "$0")/.."
passed=0
failed=0
check() {  # check NAME COMMAND...: runs COMMAND, counts it
  local name=$1
  shift
  if "$@"; then
    echo "lint $name: ok"
    passed=$((passed + 1))
  else
    echo "lint $name: FAILED"
    failed=$((failed + 1))
  fi
}
mapfile -t cpp < <(git ls-files --cached --others --exclude-standard 'src/**.cc' 'src/**.h' 'tests/**.cc' 'tests/**.h')
check clang-format clang-format --dry-run --Werror "${cpp[@]}"
check prettier npx --no-install prettier --check --log-level warn .
check eslint npx --no-install eslint --max-warnings 0 .
# The JavaScript type-checked from its JSDoc (src/js/tsconfig.json), and the declarations generated from it: they
# type-check for a user with lib es2022 alone, and no public member is `any`.
check types node scripts/emit-types.mjs
check import-cycles node scripts/check-import-cycles.mjs # src/js and web/js: no module imports itself round a circle
# A file of code past 400 lines holds more than one concern: sources, tests and scripts alike. Not counted: the
# generated Unicode table (.inc), the reference checkpoints tests/reference/data/ (written by
# scripts/generate-model-references.sh) and prose (.md).
short_files() {
  local long
  long=$(git ls-files --cached --others --exclude-standard src web tests scripts |
    grep -v -e '\.inc$' -e '^tests/reference/data/' -e '\.md$' | xargs wc -l |
    awk '$2 != "total" && $1 > 400 {print "  " $2 ": " $1 " lines"}')
  [ -z "$long" ] || printf 'files over 400 lines:\n%s\n' "$long"
  [ -z "$long" ]
}
check file-size short_files
echo "lint: $passed passed, $failed failed"
[ "$failed" = 0 ]
