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
$pipeline train "$data" --name-pattern "$pattern" --model models/mode-model.json
$pipeline evaluate "$data" --name-pattern "$pattern" --group-by device --folds 4
$pipeline evaluate "$data" --name-pattern "$pattern" --group-by device --folds 4 --modes still,walk,car
$pipeline evaluate "$data" --name-pattern "$pattern" --group-by device --folds 4 --modes still,walk,car --test-without-streams accelerometer,gravity
