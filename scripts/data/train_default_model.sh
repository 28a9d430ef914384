#!/usr/bin/env bash
# Trains the shipped transport-mode model, models/mode-model.json, and prints the evaluations
# docs/modes.md quotes:
#
# - the window (IMU) model on the TMD data set (Carpineti et al. 2018, MIT licence:
#   ../shared/data/imu/tmd/LICENSE): still, walk, car, bus, train. Its nested
#   leave-one-user-out cross-validation (options chosen on inner folds) beside the rules
#   baseline: over all five modes, over still, walk and car (the modes more than one user
#   recorded), and over those three with the test windows in gravity-free form (linear
#   acceleration alone, as Sensor Logger exports it).
# - the GPS leg model on MobilityNet (BSD-3-Clause: ../shared/data/gps/mobilitynet/LICENSE),
#   converted to position tables and labels by scripts/data/mobilitynet_inputs.py: walk, bike
#   (bicycle, e-bike, e-scooter), car, bus, train (commuter rail, light rail, subway). One
#   person), and the Helsinki legs (Aalto TrafficSense, CC BY 4.0: ../shared/data/gps/aalto-helsinki,
#   8 phones, grouped by phone: which two share a person is not in the data). Its calibration and
#   type threshold are chosen on out-of-fold legs of both and on gps/cbs-ssi's diary legs, which
#   choose and never train (EUPL-1.2). The leave-one-data-set-out scores follow.
#
# Nothing simulated trains the shipped model. Deterministic: the same data and seed give the
# same file except for its created_at time.
set -euo pipefail
cd "$(dirname "$0")/../.."
data=${TMD_DATA:-../shared/data/imu/tmd/raw}
mobilitynet=${MOBILITYNET_DATA:-../shared/data/gps/mobilitynet}
shared=${SHARED_DATA:-../shared/data}
pattern='sensorfile_(?<device>[^_]+)_(?<mode>[^_]+)_\d+\.csv'
for folder in "$data" "$mobilitynet"; do
    if [ ! -d "$folder" ]; then
        echo "training data not found at $folder (set TMD_DATA to TMD's raw/ folder, MOBILITYNET_DATA to MobilityNet's)" >&2
        exit 1
    fi
done
scripts/bootstrap.sh
swift build -c release --product pipeline >&2
pipeline=.build/release/pipeline
legs=.build/mobilitynet-inputs
rm -rf "$legs"
trap 'rm -rf "$legs"' EXIT
python3 scripts/data/mobilitynet_inputs.py "$legs/mobilitynet" "$mobilitynet"
source scripts/data/shared_inputs.sh
helsinki_inputs "$legs/helsinki" "$shared"
cbs_inputs "$legs/cbs-ssi" "$shared"
$pipeline train "$data" --name-pattern "$pattern" --leg-data "$legs/mobilitynet" --leg-data "$legs/helsinki" --choose-with "$legs/cbs-ssi" \
    --model models/mode-model.json --force
(cd "$legs" && ../../$pipeline evaluate mobilitynet helsinki --choose-with cbs-ssi --group-by dataset --legs-only)
$pipeline evaluate "$data" --name-pattern "$pattern" --group-by device --folds 4
$pipeline evaluate "$data" --name-pattern "$pattern" --group-by device --folds 4 --modes still,walk,car
$pipeline evaluate "$data" --name-pattern "$pattern" --group-by device --folds 4 --modes still,walk,car --test-without-streams accelerometer,gravity
