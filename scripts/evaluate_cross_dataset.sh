#!/usr/bin/env bash
# The shipped model on labelled data sets it never trained on, each as a user would give it:
# its window (IMU) part, trained on TMD alone, on QROWD (15 Hz, bike/bus/train/walk/car/still;
# synthetic times, so read at its stated rate), on GeoTecINIT's phone recordings (~100 Hz, walk
# and posture changes) and on the two Sensor Logger metro rides (gravity-free, 51 Hz, all
# train); then its GPS leg part, trained on MobilityNet alone, on the real GPX tracks of
# ../shared/data (a Limerick bus ride, two hikes, a stroll). Links and manifests are made in a
# temporary folder; nothing is written into ../shared/data. Prints each `evaluate` summary.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED_DATA:-../shared/data}
[ -d "$shared/imu" ] || { echo "../shared/data not found (set SHARED_DATA)" >&2; exit 1; }
scripts/bootstrap.sh >&2
swift build -c release --product pipeline >&2
pipeline=$PWD/.build/release/pipeline model=$PWD/models/mode-model.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summary() { grep -E "^(evaluated|scored data|none of|accuracy|mode |still |walk |bike |car |bus |train |[a-z]+: predicted)" | head -14; }
echo "== QROWD (imu/qrowd), 15 Hz =="
"$pipeline" evaluate "$shared/imu/qrowd/datasets" --model "$model" --columns 'rate=15; start=2000-01-01T12:00:00Z; acc=x,y,z; label=class' 2>/dev/null | summary
echo "== GeoTecINIT phone recordings (imu/GeoTecINIT_sp-sw-har, *_sp.csv) =="
mkdir "$work/geotec"
for file in "$shared"/imu/GeoTecINIT_sp-sw-har/DATA/s0*/*_sp.csv; do ln -s "$(realpath "$file")" "$work/geotec/"; done
"$pipeline" evaluate "$work/geotec" --model "$model" 2>/dev/null | summary
echo "== Paris metro line 4 (imu/metro), Sensor Logger, gravity-free =="
mkdir "$work/metro"
for ride in "$shared"/imu/metro/L4*; do ln -s "$(realpath "$ride")" "$work/metro/"; done
printf 'path,device,person,mode\nL4_*,pixel-4-xl,metro-rider,train\n' > "$work/metro/manifest.csv"
"$pipeline" evaluate "$work/metro" --model "$model" 2>/dev/null | summary
echo "== GPS leg model on real GPX tracks (moving minutes per mode) =="
mkdir -p "$work/gpx/in"
cp "$shared/gpx/movingpandas/304 to UL 2019-02-18 0745.gpx" "$work/gpx/in/limerick-bus.gpx"
cp "$shared/gpx/gpxpy/korita-zbevnica.gpx" "$work/gpx/in/hike-korita-zbevnica.gpx"
cp "$shared/gpx/georust_gpx/garmin_with_extensions.gpx" "$work/gpx/in/hike-gpsmap-64s.gpx"
cp "$shared/gpx/georust_gpx/garmin-activity.gpx" "$work/gpx/in/walk-casual-stroll.gpx"
"$pipeline" run "$work/gpx/in" --out "$work/gpx/out" --model "$model" >/dev/null 2>&1 || true
python3 - "$work/gpx/out/triplegs.csv" <<'PY'
import collections, csv, sys
minutes = collections.defaultdict(collections.Counter)
for leg in csv.DictReader(open(sys.argv[1])):
    if leg["mode"] != "still":
        minutes[leg["device"]][leg["mode"]] += float(leg["duration_s"]) / 60
for track, modes in sorted(minutes.items()):
    print(f"{track}: " + ", ".join(f"{mode} {m:.0f}" for mode, m in sorted(modes.items())) + " min")
PY
