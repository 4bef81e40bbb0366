#!/bin/bash
# Runs every leaf test of a test file alone, by its exact name, and prints the ones that fail alone
# or that the name reaches no test (test/tools/each-test-alone.mjs). Exits 1 when one does.
# Usage: bash test/tools/each-test-alone.sh test/cli/stores.test.ts [more files…]
# Each test server starts from a copy of one migrated database made for this run (with-template.sh).
cd "$(dirname "$0")/../.."
# The files run from their build, as in the suite (test/tools/build-tests.mjs).
node test/tools/build-tests.mjs || exit 1
exec bash test/tools/with-template.sh node test/tools/each-test-alone.mjs "$@"
