#!/usr/bin/env bash
# One machine against Spark in local mode on the same simulated input (the residents of
# scripts/bench_run.sh: GPS all day, 50 Hz IMU for each device-day's first trip), then what
# a cluster would do: each part's task time against its input bytes, and a scaling curve to
# 16 workers simulated from measured task times. Prints the tables the README quotes.
# Usage: scripts/bench_spark.sh [DEVICE-DAYS]   (default 100)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100}
swift build -c release --product pipeline >&2
scripts/spark_setup.sh
pipeline=$PWD/.build/release/pipeline
model=$PWD/models/mode-model.json
sim=.bench/sim-$n
if [ ! -d "$sim/traces" ]; then
    "$pipeline" simulate --out "$sim/traces" --devices $(( (n + 1) / 2 )) --days 2 --seed 11 \
        --gps-still-interval 30 --imu-trips-per-day 1 >/dev/null 2>&1
fi
cd "$sim"
rm -rf single spark-*
echo "single machine: pipeline run ($n device-days)" >&2
/usr/bin/time -f "%e %M" -o single.time "$pipeline" run traces --out single --model "$model" >/dev/null 2>&1 || true
# local[2]: this machine's 2 cores as Spark's executors; local[1]: one task at a time, so each
# part's time is the time a 2-core worker of its own would take (the binary uses both cores).
for run in "local[2,4] 2" "local[2,4] 4" "local[2,4] 8" "local[1,4] 16"; do
    set -- $run
    echo "spark $1, $2 parts" >&2
    /usr/bin/time -f "%e %M" -o "spark-$2.time" "$OLDPWD/scripts/spark_run.sh" traces --out "spark-$2" --partitions "$2" \
        --master "$1" -- --model "$model" >"spark-$2.log" 2>&1 || true
done
python3 "$OLDPWD/scripts/bench_spark_report.py" "$n"
