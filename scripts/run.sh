#!/usr/bin/env bash
# Runs the pipeline on the bundled traces/ and writes reports/ (the README's first command).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build -c release --product pipeline >&2
status=0
swift run -c release --skip-build pipeline ingest traces --store reports/pipeline.sqlite --reports reports \
    "$@" || status=$?
# 2 means some inputs were quarantined: traces/ carries one malformed file on purpose.
[ "$status" -eq 0 ] || [ "$status" -eq 2 ] || exit "$status"
status=0
swift run -c release --skip-build pipeline classify traces --model models/mode-model.json --out reports/modes.csv \
    --store reports/pipeline.sqlite || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 2 ] || exit "$status"
swift run -c release --skip-build pipeline trips --store reports/pipeline.sqlite --out reports
echo "reports/: pipeline.sqlite, quarantine.csv, modes.csv, staypoints/dwells/locations/triplegs/trips/od_matrix/modal_split/device_stats.csv, staypoints/triplegs/dwells.geojson" >&2
