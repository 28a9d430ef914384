#!/usr/bin/env bash
# SQLite's floor for ingest (issue 55): the time SQLite itself takes to store the 60 MB
# benchmark GPX's 514,167 fixes, as the store does (WAL, WITHOUT ROWID, 16 columns) and with
# what would make it cheaper (no journal, a rowid table, fewer columns). No pipeline code runs.
# Usage: scripts/bench/bench_sqlite_floor.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 scripts/bench/sqlite_floor.c -lsqlite3 -o "$work/sqlite_floor"
cd "$work"
for shape in "WAL 0 16" "DELETE 0 16" "OFF 0 16" "WAL 1 16" "WAL 2 16" "WAL 0 8" "OFF 2 8"; do
    # shellcheck disable=SC2086
    ./sqlite_floor $shape
done
