#!/usr/bin/env bash
# What a transit feed costs `pipeline run`: the 200 device-day simulated city (as
# scripts/bench/bench_run.sh makes it) run without and with --transit on a synthetic feed the size
# of a large city's (scripts/data/make_city_feed.py: ~10,700 stops, ~3,000 shapes, ~2.4 million stop
# times), alternating RUNS times (default 2); prints each side's median wall time, the trip
# stage's seconds, the feed's load-and-index time and the trip stage's extra cost per tripleg.
# Usage: scripts/bench/bench_transit.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/bootstrap.sh time >&2
swift build -c release --product pipeline >&2
pipeline=$PWD/.build/release/pipeline
runs=${1:-2}
sim=.bench/sim-200
if [ ! -d "$sim/traces" ]; then
    "$pipeline" simulate --out "$sim/traces" --devices 100 --days 2 --seed 11 --gps-still-interval 30 --imu-trips-per-day 1 >/dev/null 2>&1
fi
feed=.bench/city-feed
[ -d "$feed" ] || python3 scripts/data/make_city_feed.py "$feed"
results=$(mktemp -d)
trap 'rm -rf "$results" "$sim/out-transit"' EXIT
for i in $(seq "$runs"); do
    for side in plain transit; do
        extra=(); [ "$side" = transit ] && extra=(--transit "$feed")
        rm -rf "$sim/out-transit"
        /usr/bin/time -f "%e %M" -o "$results/$side-$i.time" "$pipeline" run "$sim/traces" --out "$sim/out-transit" \
            --model models/mode-model.json --json "${extra[@]}" >"$results/$side-$i.json" 2>"$results/$side-$i.log" || [ $? -eq 2 ]
    done
done
python3 - "$results" "$runs" <<'PY'
import json, re, statistics, sys
results, runs = sys.argv[1], int(sys.argv[2])
def side(name):
    walls, rss, trips, legs, index = [], [], [], 0, []
    for i in range(1, runs + 1):
        wall, kb = open(f"{results}/{name}-{i}.time").read().split()[-2:]
        s = json.load(open(f"{results}/{name}-{i}.json"))
        walls.append(float(wall)); rss.append(int(kb) / 1024); trips.append(s["stage_seconds"]["trips"]); legs = s["triplegs"]
        found = re.search(r"indexed in ([0-9.]+) s", open(f"{results}/{name}-{i}.log").read())
        if found: index.append(float(found.group(1)))
    return statistics.median(walls), max(rss), statistics.median(trips), legs, (statistics.median(index) if index else 0)
plain, transit = side("plain"), side("transit")
for name, (wall, rss, trips, legs, index) in (("without a feed", plain), ("with --transit", transit)):
    print(f"{name:<15} wall {wall:6.1f} s  peak RSS {rss:5.0f} MB  trips stage {trips:5.1f} s (feed load+index {index:.1f} s)  triplegs {legs}")
extra = transit[2] - plain[2] - transit[4]
print(f"run +{100 * (transit[0] / plain[0] - 1):.1f} %; trip stage cost of matching, excluding the feed's load: {1000 * extra / max(1, transit[3]):.2f} ms per tripleg")
PY
