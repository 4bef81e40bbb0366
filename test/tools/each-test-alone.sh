#!/bin/bash
# Runs every leaf test of a test file alone, by its exact name, and prints the ones that fail alone:
# a test must not depend on what an earlier test of its file left behind (issue 13).
# Usage: bash test/tools/each-test-alone.sh test/cli/stores.test.ts [more files…]
# Prints nothing when every test passes alone; exits 1 when one does not.
status=0
for f in "$@"; do
  names=$(node --import tsx --test --test-reporter=tap "$f" 2>/dev/null | grep -E "^\s*ok [0-9]+ - " | sed -E 's/^\s*ok [0-9]+ - //' | grep -v " # SKIP")
  while IFS= read -r name; do
    [ -z "$name" ] && continue
    pat=$(printf '%s' "$name" | sed -e 's/[][\.*^$?+(){}|/]/\\&/g')
    out=$(timeout 120 node --import tsx --test --test-name-pattern="^${pat}\$" "$f" 2>&1)
    if echo "$out" | grep -qE "^# fail [1-9]"; then echo "FAILS ALONE: $f :: $name"; status=1; fi
  done <<< "$names"
done
exit $status
