#!/usr/bin/env bash
# Prints each ingest stage's throughput on fixed inputs, beside the peers' figures
# (DESIGN.md, Performance). Not a test: numbers depend on the machine; nothing is asserted.
# Generated inputs and the peers' virtual environment live in .bench/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build -c release --product pipeline-bench >&2
bench=.build/release/pipeline-bench
data=../shared/data
mkdir -p .bench

[ -f .bench/track-74mb.gpx ] || $bench generate-gpx .bench/track-74mb.gpx 320000
[ -f .bench/imu-1m-rows.csv ] || $bench generate-imu .bench/imu-1m-rows.csv 1000000

echo "== pipeline (release build, one process per line; peak RSS is that process's) =="
if [ -d "$data" ]; then
    $bench parse "gpx 589 KB Garmin" "$data/gpx/georust_gpx/garmin_with_extensions.gpx"
fi
$bench parse "gpx 74 MB generated" .bench/track-74mb.gpx
$bench parse "imu csv 1 M rows generic" .bench/imu-1m-rows.csv
if [ -d "$data" ]; then
    # shellcheck disable=SC2046
    $bench parse "imu android event logs (TMD)" $(find "$data/imu/tmd/raw" -name '*.csv' | sort)
fi
$bench sqlite 1000000 .bench/sqlite-bench.sqlite
$bench ingest "ingest gpx 74 MB to sqlite" .bench/ingest-bench.sqlite .bench/track-74mb.gpx

echo
echo "== peers (DESIGN.md): gpxpy 1.6 46 k points/s, 7.7 MB/s (588 KB Garmin); 3 MB/s, 17x file memory (62 MB);"
echo "   SQLite 1.3 k rows/s with a transaction per row; libexpat streaming ~100 MB/s in C =="
if [ ! -x .bench/venv/bin/python ]; then
    python3 -m venv .bench/venv >/dev/null 2>&1 && .bench/venv/bin/pip install -q gpxpy >/dev/null 2>&1 || true
fi
if .bench/venv/bin/python -c 'import gpxpy' 2>/dev/null; then
    files=(.bench/track-74mb.gpx)
    [ -d "$data" ] && files=("$data/gpx/georust_gpx/garmin_with_extensions.gpx" "${files[@]}")
    for file in "${files[@]}"; do
        .bench/venv/bin/python scripts/gpxpy_bench.py "$file"
    done
else
    echo "gpxpy not available (pip install gpxpy failed): peer run skipped"
fi
