#!/usr/bin/env bash
# Trains the shipped transport-mode model, models/mode-model.json, on the TMD data set
# (Carpineti et al. 2018, MIT licence: ../shared/data/imu/tmd/LICENSE), and prints its nested
# leave-one-user-out cross-validation (options chosen on inner folds) beside the rules
# baseline: over all five modes, over still, walk and car (the modes more than one user
# recorded), and over those three with the test windows in gravity-free form (linear
# acceleration alone, as Sensor Logger exports it). Deterministic: the same data and seed give
# the same file except for its created_at time.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${TMD_DATA:-../shared/data/imu/tmd/raw}
pattern='sensorfile_(?<device>[^_]+)_(?<mode>[^_]+)_\d+\.csv'
if [ ! -d "$data" ]; then
    echo "TMD data not found at $data (set TMD_DATA to its raw/ folder)" >&2
    exit 1
fi
scripts/bootstrap.sh
swift build -c release --product pipeline >&2
pipeline=.build/release/pipeline
simulated=.build/simulated-bike
rm -rf "$simulated"
trap 'rm -rf "$simulated"' EXIT
$pipeline simulate --out "$simulated/city" --devices 16 --days 2 --seed 7 >&2
# Keep the devices that cycled (the others' recordings would be read and dropped).
cyclists=$(awk -F, '$4 == "bike" { print $1 }' "$simulated/city/labels.csv" | sort -u)
mkdir "$simulated/bike"
cp "$simulated/city/labels.csv" "$simulated/bike/"
for device in $cyclists; do mv "$simulated/city/$device" "$simulated/bike/"; done
# IMU only: TMD has no GPS, so the model uses no GPS feature, and GPS-only bike windows would
# teach it nothing but noise.
rm -f "$simulated"/bike/*/*.gpx
bike=(--supplement "$simulated/bike" --supplement-modes bike --supplement-thin-hz 2:12)
$pipeline train "$data" --name-pattern "$pattern" --model models/mode-model.json --force "${bike[@]}"
$pipeline evaluate "$data" --name-pattern "$pattern" --group-by device --folds 4
$pipeline evaluate "$data" --name-pattern "$pattern" --group-by device --folds 4 --modes still,walk,car
$pipeline evaluate "$data" --name-pattern "$pattern" --group-by device --folds 4 --modes still,walk,car --test-without-streams accelerometer,gravity
$pipeline evaluate "$data" --name-pattern "$pattern" --group-by device --folds 4 "${bike[@]}"
$pipeline evaluate "$data" --name-pattern "$pattern" --group-by device --folds 4 --modes still,walk,car "${bike[@]}"
