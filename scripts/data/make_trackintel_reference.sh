#!/usr/bin/env bash
# Re-makes Tests/RealDataTests/Fixtures/trackintel-staypoints.json: trackintel 1.4's
# staypoints on every timed GPX track under ../shared/data/gpx, as ingested by this
# pipeline (one track per file, four parameter sets). Needs the peers' virtual environment
# (.bench/venv with trackintel; scripts/bench/bench.sh sets it up).
set -euo pipefail
cd "$(dirname "$0")/../.."
data="$(cd ../shared/data && pwd)"
store=$(mktemp -d)/reference.sqlite
swift build -c release --product pipeline >/dev/null
.build/release/pipeline ingest "$data/gpx" --store "$store" >/dev/null || [ $? -eq 2 ]
.bench/venv/bin/python scripts/data/trackintel_reference.py "$store" Tests/RealDataTests/Fixtures/trackintel-staypoints.json "$data/"
echo "wrote Tests/RealDataTests/Fixtures/trackintel-staypoints.json"
