#!/usr/bin/env bash
# Runs the command given with CODRAIL_TEST_TEMPLATE set to a migrated database made once for it
# (test/tools/template-database.ts): each test server starts from a copy of it. Removes it after,
# and exits with the command's status. If the template cannot be made, the command runs without it
# (every server migrates its own, and a broken migration fails the tests that show why).
set -uo pipefail
cd "$(dirname "$0")/../.."
template=$(node --import ./test/tools/register.mjs test/tools/template-database.ts) || template=''
if [ -n "$template" ]; then
  export CODRAIL_TEST_TEMPLATE="$template"
  trap 'node --import ./test/tools/register.mjs test/tools/template-database.ts drop "$template"' EXIT
fi
"$@"
