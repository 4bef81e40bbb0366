#!/usr/bin/env bash
# The whole test suite, as `npm test` and `npm run test:postgres` run it: every test file, four at a
# time; then the files named *.alone.test.ts, one at a time with nothing beside them. Those measure
# what a person would get (Lighthouse's mobile score of the landing page), and Lighthouse's own
# variability guide names the machine's other work ("client resource contention") as a high source
# of variance: beside three other test files on two cores, a page that scores 99 alone scored 93 in CI.
# Both parts always run, so one run reports every failure; the exit status fails if either did.
set -uo pipefail
cd "$(dirname "$0")/../.."
mapfile -t shared < <(find test -name '*.test.ts' ! -name '*.alone.test.ts' | sort)
mapfile -t alone < <(find test -name '*.alone.test.ts' | sort)
# Each test server starts from a copy of one migrated database made for this run (with-template.sh).
bash test/tools/with-template.sh node --import ./test/tools/register.mjs --test --test-concurrency=4 "${shared[@]}"
status=$?
if [ "${#alone[@]}" -gt 0 ]; then
  bash test/tools/with-template.sh node --import ./test/tools/register.mjs --test --test-concurrency=1 "${alone[@]}" || status=1
fi
exit "$status"
