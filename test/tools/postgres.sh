#!/usr/bin/env bash
# A throwaway PostgreSQL for the test suite's PostgreSQL run (issue 28): a new cluster in a temporary
# directory, on loopback only, with durability off (a test database is thrown away, and fsync per
# commit would make the suite's thousands of small transactions crawl). Prints the URL to use as
# CODRAIL_TEST_DATABASE_URL; `test/tools/postgres.sh stop DIR` stops it.
#
#   eval "$(test/tools/postgres.sh start)"   → exports CODRAIL_TEST_DATABASE_URL and CODRAIL_TEST_PG_DIR
#   test/tools/postgres.sh stop "$CODRAIL_TEST_PG_DIR"
#
# Needs Debian's postgresql package (initdb, pg_ctl under /usr/lib/postgresql/<version>/bin). As root,
# the cluster belongs to the `postgres` user, since PostgreSQL refuses to run as root.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "postgres.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
# Run from / : the postgres user may not enter the caller's directory (psql and pg_ctl would say so on every call).
as() { if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }
case "${1:-}" in
  start)
    dir=$(mktemp -d /tmp/codrail-pg-XXXXXX)
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    port=${2:-$((20000 + RANDOM % 20000))}
    as "$bin/initdb" -D "$dir/data" -U codrail --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
    # PG_BENCH=1 (bench/): the durability of SQLite's WAL with synchronous=NORMAL, which codrail uses:
    # commits are not flushed one by one (synchronous_commit=off), but the log and pages are (fsync).
    if [ "${PG_BENCH:-}" = 1 ]; then durability="-c synchronous_commit=off"; else durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"; fi
    as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "-p $port -k $dir -c listen_addresses=127.0.0.1 $durability -c max_connections=400 -c shared_buffers=256MB" start >/dev/null
    echo "export CODRAIL_TEST_DATABASE_URL=postgres://codrail@127.0.0.1:$port/postgres CODRAIL_TEST_PG_DIR=$dir"
    ;;
  stop)
    dir=${2:?postgres.sh stop DIR}
    as "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null || true
    rm -rf "$dir"
    ;;
  *) echo "usage: postgres.sh start [PORT] | stop DIR" >&2; exit 2 ;;
esac
