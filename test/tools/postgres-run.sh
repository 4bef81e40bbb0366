#!/usr/bin/env bash
# `npm run test:postgres` (issue 28): the whole suite again on PostgreSQL. Starts a throwaway
# PostgreSQL (test/tools/postgres.sh), runs the command given with CODRAIL_TEST_DATABASE_URL set,
# stops it, and exits with the command's status. Tests that exercise SQLite's own machinery (the
# read cache, group commit, WAL checkpoints, query plans, file modes, upgrades of SQLite files,
# backup and restore) skip themselves there with the reason.
set -euo pipefail
cd "$(dirname "$0")/../.."
eval "$(bash test/tools/postgres.sh start)"
trap 'bash test/tools/postgres.sh stop "$CODRAIL_TEST_PG_DIR"' EXIT
echo "PostgreSQL for the tests: $CODRAIL_TEST_DATABASE_URL"
"$@"
