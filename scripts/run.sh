#!/usr/bin/env bash
# Runs the pipeline on the bundled traces/ and writes reports/ (the README's first command).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
# The one release build (static Swift runtime, .build-static) that scripts/install.sh, the
# Spark bundle and the Spark tests use too: installing after this builds nothing again.
binary=$(scripts/build/static_build.sh)
status=0
"$binary" run traces --out reports "$@" || status=$?
# 2 means some inputs were quarantined: traces/ carries one cut-off GPX upload on purpose.
[ "$status" -eq 0 ] || [ "$status" -eq 2 ] || exit "$status"
echo "open reports/report.html in a browser; every CSV, GeoJSON and PNG is beside it" >&2
