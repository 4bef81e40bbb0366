#!/usr/bin/env bash
# The whole test suite, as `npm test` and `npm run test:postgres` run it (or only the test files
# named): every test file, four at a time; then the files named *.alone.test.ts, one at a time with
# nothing beside them. Those measure what a person would get (Lighthouse's mobile score of the
# landing page), and Lighthouse's own variability guide names the machine's other work ("client
# resource contention") as a high source of variance: beside three other test files on two cores, a
# page that scores 99 alone scored 93 in CI.
# The files run from their build (test/tools/build-tests.mjs: compiled once, not through tsx in
# every file's process), with source maps so a failure names the TypeScript line.
# Both parts always run, so one run reports every failure; the exit status fails if either did.
# Usage: bash test/tools/suite.sh [test/….test.ts …]
set -uo pipefail
cd "$(dirname "$0")/../.."
node test/tools/build-tests.mjs || exit 1
if [ "$#" -gt 0 ]; then mapfile -t named < <(printf '%s\n' "$@"); else mapfile -t named < <(find test -name '*.test.ts' | sort); fi
# The longest files start first (measured: test-artifacts/test-file-times-*.txt of whole runs on both
# databases, 40 to 160 s each). Four files run at once, and a long one started among the last would
# run on nearly alone at the end while the other cores wait.
longest=(test/attack/attack-run.test.ts test/fulfillment/outage-recovery.test.ts test/platforms/dropi-journey.test.ts
  test/cli/order-life-commands.test.ts test/journeys/buyer-confirmation.test.ts test/pages/buyer-page.test.ts
  test/use-cases/return-risk.test.ts test/cli/cities.test.ts test/cli/account-commands.test.ts
  test/api/orders/idempotency-and-duplicates.test.ts test/webhooks/delivery.test.ts test/api/v1/product-images.test.ts
  test/cli/fulfillment.test.ts test/pages/landing-browser.test.ts)
ordered=()
for f in "${longest[@]}"; do [[ " ${named[*]} " == *" $f "* ]] && ordered+=("$f"); done
for f in "${named[@]}"; do [[ " ${longest[*]} " == *" $f "* ]] || ordered+=("$f"); done
shared=(); alone=()
for f in "${ordered[@]}"; do
  built=".test-build/${f%.ts}.js"
  if [[ "$f" == *.alone.test.ts ]]; then alone+=("$built"); else shared+=("$built"); fi
done
status=0
# Each file's time goes to test-artifacts/ too (test/tools/file-times.mjs), per database.
mkdir -p test-artifacts
times="test-artifacts/test-file-times-$([ -n "${CODRAIL_TEST_DATABASE_URL:-}" ] && echo postgresql || echo sqlite).txt"
# Each test server starts from a copy of one migrated database made for this run (with-template.sh).
if [ "${#shared[@]}" -gt 0 ]; then
  bash test/tools/with-template.sh node --enable-source-maps --test --test-concurrency=4 \
    --test-reporter=tap --test-reporter-destination=stdout --test-reporter=./test/tools/file-times.mjs --test-reporter-destination="$times" \
    "${shared[@]}" || status=1
fi
if [ "${#alone[@]}" -gt 0 ]; then
  bash test/tools/with-template.sh node --enable-source-maps --test --test-concurrency=1 "${alone[@]}" || status=1
fi
exit "$status"
