#!/usr/bin/env bash
# Usage: scripts/bench/bench_ab.sh OLD_BINARY NEW_BINARY [RUNS]
# Times `pipeline run` of two builds on the same 26 simulated device-days (`.bench/sim-26`,
# made as scripts/bench/bench_run.sh makes it), alternating old and new RUNS times (default 3),
# and prints each build's median wall time and median stage seconds: a change's gain measured
# in one session on a shared machine, where absolute times move with the host's load.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/bootstrap.sh time >&2
[ $# -ge 2 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY [RUNS]" >&2; exit 64; }
old=$(realpath "$1") new=$(realpath "$2") runs=${3:-3}
sim=.bench/sim-26
if [ ! -d "$sim/traces" ]; then
    "$new" simulate --out "$sim/traces" --devices 13 --days 2 --seed 11 --gps-still-interval 30 --imu-trips-per-day 1 >/dev/null 2>&1
fi
model=$PWD/models/mode-model.json
results=$(mktemp -d)
trap 'rm -rf "$results" "$sim/out-ab"' EXIT
for i in $(seq "$runs"); do
    for side in old new; do
        binary=$old; [ "$side" = new ] && binary=$new
        rm -rf "$sim/out-ab"
        status=0
        /usr/bin/time -f %e -o "$results/$side-$i.wall" \
            "$binary" run "$sim/traces" --out "$sim/out-ab" --model "$model" --json >"$results/$side-$i.json" 2>/dev/null || status=$?
        [ "$status" -eq 0 ] || [ "$status" -eq 2 ] || { echo "$binary run failed with status $status" >&2; exit 1; }
    done
done
python3 - "$results" "$runs" "$old" "$new" <<'PY'
import json, statistics, sys
folder, runs = sys.argv[1], int(sys.argv[2])
for side, binary in (("old", sys.argv[3]), ("new", sys.argv[4])):
    walls = [float(open(f"{folder}/{side}-{i}.wall").read().split()[-1]) for i in range(1, runs + 1)]
    stages = [json.load(open(f"{folder}/{side}-{i}.json"))["stage_seconds"] for i in range(1, runs + 1)]
    medians = {k: statistics.median(s[k] for s in stages) for k in stages[0]}
    print(f"{side} {binary}: run {statistics.median(walls):.2f} s (runs {', '.join(f'{w:.2f}' for w in walls)}); "
          + ", ".join(f"{k} {v:.2f}" for k, v in sorted(medians.items())))
PY
