#!/usr/bin/env bash
# Cost follows the samples, never the calendar (issue: hostile inputs). Two measurements of
# `pipeline run` (release build, whole process, wall time and peak RSS from /usr/bin/time):
#  1. one device whose 3 GPS fixes and 3 IMU rows span 20 years (1996-2016);
#  2. one simulated device over 1, 30 and 200 consecutive days (GPS only, 1 s moving, 30 s at
#     rest): seconds per million fixes should stay level as the span grows.
# Usage: scripts/bench/bench_span.sh [DAYS ...]   (default: 1 30 200)
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product pipeline >&2
pipeline=$PWD/.build/release/pipeline
model=$PWD/models/mode-model.json
mkdir -p .bench

span=.bench/span-20y
rm -rf "$span" && mkdir -p "$span/traces/phone"
cat >"$span/traces/phone/three-fixes.gpx" <<'GPX'
<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="bench_span"><trk><trkseg>
<trkpt lat="48.0" lon="2.0"><time>1996-01-01T00:00:00Z</time></trkpt>
<trkpt lat="48.001" lon="2.0"><time>2006-01-01T00:00:00Z</time></trkpt>
<trkpt lat="48.002" lon="2.0"><time>2016-01-01T00:00:00Z</time></trkpt>
</trkseg></trk></gpx>
GPX
printf 'time,ax,ay,az\n820454400,0,0,9.8\n1136073600,0,0,9.8\n1451606400,0,0,9.8\n' >"$span/traces/phone/three-rows.csv"
(cd "$span" && /usr/bin/time -f "%e %M" -o time.txt "$pipeline" run traces --out out --model "$model" --json >summary.json 2>/dev/null) || true
read -r wall rss <"$span/time.txt"
echo "3 fixes + 3 IMU rows over 20 years: pipeline run ${wall} s, peak RSS $((rss / 1024)) MB (targets < 10 s, < 500 MB)"

echo "days  fixes      wall s  peak RSS  s per M fixes  stages (s)"
for days in ${@:-1 30 200}; do
    sim=.bench/span-days-$days
    if [ ! -d "$sim/traces" ]; then
        "$pipeline" simulate --out "$sim/traces" --devices 1 --days "$days" --seed 5 --gps-still-interval 30 --imu-rate 0 >/dev/null 2>&1
    fi
    rm -rf "$sim/out"
    (cd "$sim" && /usr/bin/time -f "%e %M" -o time.txt "$pipeline" run traces --out out --model "$model" --json >summary.json 2>/dev/null) || true
    python3 - "$sim" "$days" <<'PY'
import json, sys
sim, days = sys.argv[1], sys.argv[2]
s = json.load(open(f"{sim}/summary.json"))
wall, rss = open(f"{sim}/time.txt").read().split()[-2:]
stages = ", ".join(f"{k} {v:.2f}" for k, v in s["stage_seconds"].items())
print(f"{days:>4}  {s['fixes']:>9}  {float(wall):6.2f}  {int(rss) // 1024:5d} MB  {float(wall) / s['fixes'] * 1e6:13.2f}  {stages}")
PY
done
