#!/usr/bin/env bash
# The pipeline beside its peers, whole processes, same inputs, same run, alternating:
# gpxpy (parse), gpxpy + sqlite3 (ingest), trackintel (GeoLife read + staypoints + triplegs +
# trips), TSFEL and a vectorised numpy implementation (windowed features), and `pipeline run`
# per device-day. Prints the Markdown table of medians and ratios (also in .bench/peers/peers.md),
# then peak RSS of `pipeline run` on one device at 100 k, 400 k and 1.6 M fixes (bench_memory.sh).
# Inputs are built in .bench/peers/ from the real recordings in ../shared/data (GPX track
# points, GeoTecINIT phone IMU) and, for GeoLife, from simulated fixes (labelled so).
# The peers live in a virtual environment at pinned versions (.bench/venv).
# Usage: scripts/bench/bench_peers.sh [--runs N] [--readme]   (--readme rewrites docs/performance.md's table)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=3
readme=()
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --readme) readme=(--readme docs/performance.md); shift ;;
        *) echo "usage: scripts/bench/bench_peers.sh [--runs N] [--readme]" >&2; exit 64 ;;
    esac
done
data=../shared/data
if [ ! -d "$data/gpx" ] || [ ! -d "$data/imu/GeoTecINIT_sp-sw-har" ]; then
    echo "bench_peers: $data is absent: the side-by-side inputs are built from its real recordings; skipped" >&2
    exit 0
fi
scripts/bootstrap.sh time python3-venv  # GNU time for peak RSS, venv for the peers
swift build -c release --product pipeline-bench >&2
# The binary the install script ships (the Swift runtime linked statically), as users run it: a
# dynamically linked build spends 20-30 ms more starting, 10 % of parsing the 60 MB GPX
# (2026-11-29, 10 alternating runs of `inspect`: median 0.355 s dynamic, 0.31 s static).
pipeline=$(scripts/build/static_build.sh)

peers="gpxpy==1.6.2 trackintel==1.4.2 tsfel==0.2.0"
[ -x .bench/venv/bin/python ] || python3 -m venv .bench/venv
if ! .bench/venv/bin/python -c 'import gpxpy, trackintel, tsfel' 2>/dev/null; then
    echo "bench_peers: installing the peers ($peers) into .bench/venv" >&2
    # shellcheck disable=SC2086
    .bench/venv/bin/pip install -q $peers >&2
fi

mkdir -p .bench/peers
[ -f .bench/peers/real-60mb.gpx ] || python3 scripts/peers/build_inputs.py real-gpx .bench/peers/real-60mb.gpx 60
[ -f .bench/peers/real-imu-15min.csv ] || python3 scripts/peers/build_inputs.py real-imu .bench/peers/real-imu-15min.csv 15
[ -f .bench/peers/real-imu-60min.csv ] || python3 scripts/peers/build_inputs.py real-imu .bench/peers/real-imu-60min.csv 60
if [ ! -d .bench/peers/geolife ]; then
    [ -f .bench/days-4.csv ] || .build/release/pipeline-bench generate-days .bench/days-4.csv 4
    python3 scripts/peers/build_inputs.py geolife .bench/peers/geolife .bench/days-4.csv
fi
sim=.bench/sim-26
if [ ! -d "$sim/traces" ]; then
    "$pipeline" simulate --out "$sim/traces" --devices 13 --days 2 --seed 11 \
        --gps-still-interval 30 --imu-trips-per-day 1 >/dev/null 2>&1
fi
python3 scripts/peers/compare.py --pipeline "$pipeline" --python .bench/venv/bin/python --runs "$runs" \
    --device-days "$sim/traces" 26 --model models/mode-model.json "${readme[@]}"
# Memory as one device's fixes grow (100 k, 400 k, 1.6 M at 1 Hz): issue 55's curve.
echo
scripts/bench/bench_memory.sh
