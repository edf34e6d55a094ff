#!/usr/bin/env bash
# Formatting and lint: clang-format (.clang-format) on the C++ of src/ and tests/, Prettier and ESLint on the
# JavaScript. `npm run lint`; npm test runs it first. Ends with "lint: N passed, M failed" (one per checker).
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
echo "lint: $passed passed, $failed failed"
[ "$failed" = 0 ]
