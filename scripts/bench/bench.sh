#!/usr/bin/env bash
# Prints each stage's throughput on fixed inputs (inner loops, in process), then the whole
# processes beside their peers in the same run (scripts/bench/bench_peers.sh). Figures from
# DESIGN.md that were not measured here are labelled quoted. Not a test: numbers depend on
# the machine; nothing is asserted.
# Generated inputs and the peers' virtual environment live in .bench/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/bootstrap.sh
swift build -c release --product pipeline-bench >&2
bench=.build/release/pipeline-bench
data=../shared/data
mkdir -p .bench

[ -f .bench/track-74mb.gpx ] || $bench generate-gpx .bench/track-74mb.gpx 320000
[ -f .bench/imu-1m-rows.csv ] || $bench generate-imu .bench/imu-1m-rows.csv 1000000

echo "== pipeline (release build, one process per line; peak RSS is that process's) =="
ours_small=""
if [ -d "$data" ]; then
    ours_small=$(BENCH_REPEATS=5 $bench parse "gpx 589 KB Garmin" "$data/gpx/georust_gpx/garmin_with_extensions.gpx")
    echo "$ours_small"
fi
ours_large=$(BENCH_REPEATS=2 $bench parse "gpx 74 MB generated" .bench/track-74mb.gpx)
echo "$ours_large"
$bench parse "imu csv 1 M rows generic" .bench/imu-1m-rows.csv
if [ -d "$data" ]; then
    # shellcheck disable=SC2046
    $bench parse "imu android event logs (TMD)" $(find "$data/imu/tmd/raw" -name '*.csv' | sort)
fi
$bench sqlite 1000000 .bench/sqlite-bench.sqlite
$bench ingest "ingest gpx 74 MB to sqlite" .bench/ingest-bench.sqlite .bench/track-74mb.gpx

echo
echo "== features and modes (peer, DESIGN.md: TSFEL 0.2 ~20 ms per 250-sample window and channel = ~50 window-channels/s;"
echo "   targets: >= 50 k window-channels/s per core; a device-day from files to smoothed modes in <= 3 s) =="
taskset -c 0 $bench features "features 6 h synthetic 50 Hz, 1 core"
$bench features "features 6 h synthetic 50 Hz, 2 cores"
if [ -d "$data" ]; then
    $bench features-files "read + features, TMD event logs (85 files)" "$data/imu/tmd/raw"
fi
[ -f .bench/device-day-2/phone/imu.csv ] || $bench generate-device-day .bench/device-day-2
if [ -f models/mode-model.json ]; then
    $bench device-day .bench/device-day-2 models/mode-model.json
    $bench device-day .bench/device-day-2 models/mode-model.json
fi

echo
echo "== trips (peer, DESIGN.md: trackintel 1.4 staypoints 31-81 k fixes/s; targets: >= 5 M fixes/s staypoints, >= 100x trackintel) =="
[ -f .bench/days-4.csv ] || $bench generate-days .bench/days-4.csv 4
[ -f .bench/days-50.csv ] || $bench generate-days .bench/days-50.csv 50
$bench trips "4 device-days 1 Hz" .bench/days-4.csv
$bench trips "50 device-days 1 Hz" .bench/days-50.csv
[ -x .bench/venv/bin/python ] || python3 -m venv .bench/venv >/dev/null 2>&1 || true
if [ -x .bench/venv/bin/python ] && ! .bench/venv/bin/python -c 'import trackintel' 2>/dev/null; then
    .bench/venv/bin/pip install -q trackintel >/dev/null 2>&1 || true
fi
if .bench/venv/bin/python -c 'import trackintel' 2>/dev/null; then
    .bench/venv/bin/python scripts/peers/trackintel_bench.py .bench/days-4.csv "4 device-days 1 Hz"
else
    echo "trackintel not available (pip install trackintel failed): peer run skipped"
fi

echo
echo "== comfort, whole process: ingest, weighting (ISO 2631-1, EN 12299), N_MV, stops, events (no peer runs this chain) =="
scripts/bench/bench_comfort.sh

echo
echo "== pipeline run on simulated device-days (no peer runs the whole chain; memory should stay flat) =="
scripts/bench/bench_run.sh 26 50 100 200

echo
echo "== cost follows the samples: 3 fixes over 20 years, and one device over 1, 30 and 200 days =="
scripts/bench/bench_span.sh 1 30 200

echo
echo "== peers (DESIGN.md): gpxpy 1.6 46 k points/s, 7.7 MB/s (588 KB Garmin); 3 MB/s, 17x file memory (62 MB);"
echo "   SQLite 1.3 k rows/s with a transaction per row; libexpat streaming ~100 MB/s in C =="
# The venv may exist already (trackintel above made it): install gpxpy into it when missing.
[ -x .bench/venv/bin/python ] || python3 -m venv .bench/venv >/dev/null 2>&1 || true
if [ -x .bench/venv/bin/python ] && ! .bench/venv/bin/python -c 'import gpxpy' 2>/dev/null; then
    .bench/venv/bin/pip install -q gpxpy >/dev/null 2>&1 || true
fi
# points/s from a measurement line ("… 1.17e+06 points/s …")
points_per_second() { sed -E 's/.* ([0-9.e+]+) points\/s.*/\1/'; }
ratio() {
    local ours peer
    ours=$(echo "$1" | points_per_second)
    peer=$(echo "$2" | points_per_second)
    awk -v a="$ours" -v b="$peer" -v name="$3" 'BEGIN { printf "ratio on %s: pipeline / gpxpy = %.1fx points/s\n", name, a / b }'
}
if .bench/venv/bin/python -c 'import gpxpy' 2>/dev/null; then
    if [ -n "$ours_small" ]; then
        peer_small=$(.bench/venv/bin/python scripts/peers/gpxpy_bench.py "$data/gpx/georust_gpx/garmin_with_extensions.gpx" 5)
        echo "$peer_small"
    fi
    peer_large=$(.bench/venv/bin/python scripts/peers/gpxpy_bench.py .bench/track-74mb.gpx 2)
    echo "$peer_large"
    [ -n "$ours_small" ] && ratio "$ours_small" "$peer_small" "the 589 KB Garmin file"
    ratio "$ours_large" "$peer_large" "the 74 MB file"
else
    echo "gpxpy not available (pip install gpxpy failed): peer run skipped"
fi

echo
echo "== the pipeline beside its peers, whole processes, same inputs, same run (scripts/bench/bench_peers.sh) =="
scripts/bench/bench_peers.sh
