#!/usr/bin/env bash
# `pipeline run` at scale on simulated data: wall time, peak memory and throughput for
# growing numbers of device-days (GPS all day; IMU at 50 Hz for each device-day's first
# trip), then the time of an unchanged re-run. Memory should stay flat as device-days grow.
# Usage: scripts/bench/bench_run.sh [DEVICE-DAYS ...]   (default: 26 50 100 200)
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product pipeline >&2
pipeline=$PWD/.build/release/pipeline
mkdir -p .bench
echo "device-days  inputs   fixes    IMU samples  wall s  peak RSS  fixes/s   device-days/s  stages (s)                                   re-run s"
for days in "${@:-26 50 100 200}"; do
    for n in $days; do
        devices=$(( (n + 1) / 2 ))
        sim=.bench/sim-$n
        if [ ! -d "$sim/traces" ]; then
            "$pipeline" simulate --out "$sim/traces" --devices "$devices" --days 2 --seed 11 \
                --gps-still-interval 30 --imu-trips-per-day 1 >/dev/null 2>&1
        fi
        rm -rf "$sim/out"
        (cd "$sim" && /usr/bin/time -f "%e %M" -o time.txt "$pipeline" run traces --out out --model "$OLDPWD/models/mode-model.json" \
            --json >summary.json 2>/dev/null) || true
        (cd "$sim" && /usr/bin/time -f "%e" -o again.txt "$pipeline" run traces --out out --model "$OLDPWD/models/mode-model.json" \
            >/dev/null 2>&1) || true
        python3 - "$sim" "$((devices * 2))" <<'PY'
import json, os, sys
sim, device_days = sys.argv[1], int(sys.argv[2])
s = json.load(open(f"{sim}/summary.json"))
wall, rss_kb = open(f"{sim}/time.txt").read().split()[-2:]
again = open(f"{sim}/again.txt").read().split()[-1]
size = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(f"{sim}/traces") for f in fs) / 1e6
stages = ", ".join(f"{k} {v:.1f}" for k, v in s["stage_seconds"].items())
wall = float(wall)
print(f"{device_days:>11}  {size:5.0f} MB {s['fixes']:>8} {s['imu_samples']:>12}  {wall:6.1f}  {int(rss_kb)/1024:5.0f} MB  "
      f"{s['fixes']/wall:8.0f}  {device_days/wall:13.2f}  {stages:<45} {float(again):.2f}")
PY
    done
done
