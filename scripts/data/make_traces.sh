#!/usr/bin/env bash
# Rewrites the bundled traces/ with the simulator at a fixed seed (the README's run command
# reads them): 8 residents for one Monday, GPS for all, IMU for the first trip of 4 of them,
# one cut-off GPX upload and one out-of-range rating, ground truth in traces/.truth/.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product pipeline >&2
rm -rf traces
swift run -c release --skip-build pipeline simulate --out traces --devices 8 --days 1 --seed 1 \
    --gps-still-interval 30 --imu-devices 4 --imu-trips-per-day 1 --faults
