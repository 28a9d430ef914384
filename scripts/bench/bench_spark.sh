#!/usr/bin/env bash
# One machine against Spark on the same simulated input (the residents of
# scripts/bench/bench_run.sh: GPS all day, 50 Hz IMU for each device-day's first trip), at each
# size given: `pipeline run`; Spark local[2] in 4 parts; a standalone master with two
# 1-core workers on this machine (scripts/build/spark_cluster.sh) in 4 parts; and local[1] in up
# to 64 parts, one task at a time, whose task times give the scaling to 16 and 64 two-core
# workers. The Spark runs write the per-device CSVs too (--csv), so that every file of the
# single run is compared. Prints the tables spark/README.md quotes (scripts/bench/bench_spark_report.py).
# Usage: scripts/bench/bench_spark.sh [DEVICE-DAYS...]   (default: 100 400 1600)
# BENCH_RUNS="pair" (any of single local pair serial; default all) re-measures only those runs
# and reports with the others' last results in .bench/sim-N (the tables then mix two runs).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
sizes=("$@")
runs=${BENCH_RUNS:-single local pair serial}
[ ${#sizes[@]} -gt 0 ] || sizes=(100 400 1600)
swift build -c release --product pipeline >&2
scripts/build/spark_setup.sh
# The bundle packed and the driver's copy unpacked before any timed run, as a nightly job
# finds them: the first run after a new build packs the bundle (about 8 s) and unpacks the
# driver's copy (about 1 s) once, which no timed run should carry.
bundle=$(scripts/build/spark_bundle.sh)
.venv-spark/bin/python -c "import sys; sys.path.insert(0, 'spark'); from pipeline_spark import bundle; bundle.driver_binary(sys.argv[1])" "$bundle"
pipeline=$root/.build/release/pipeline
model=$root/models/mode-model.json
cluster=$(mktemp -d -t spark-bench-cluster-XXXXXX)
trap '"$root"/scripts/build/spark_cluster.sh stop "$cluster"; rm -rf "$cluster"' EXIT
master=$(scripts/build/spark_cluster.sh start "$cluster")
for n in "${sizes[@]}"; do
    sim=$root/.bench/sim-$n
    devices=$(( (n + 1) / 2 ))
    if [ ! -d "$sim/traces" ]; then
        echo "simulating $n device-days" >&2
        "$pipeline" simulate --out "$sim/traces" --devices "$devices" --days 2 --seed 11 \
            --gps-still-interval 30 --imu-trips-per-day 1 >/dev/null 2>&1
    fi
    cd "$sim"
    if [[ " $runs " == *" single "* ]]; then
        rm -rf single
        echo "single machine: pipeline run ($n device-days)" >&2
        /usr/bin/time -f "%e %M" -o single.time "$pipeline" run traces --out single --model "$model" >/dev/null 2>&1 || true
    fi
    many=$(( devices < 64 ? devices : 64 ))
    for run in "local local[2,4] 4" "pair $master 4" "serial local[1,4] $many"; do
        set -- $run
        [[ " $runs " == *" $1 "* ]] || continue
        rm -rf "spark-$1"
        echo "spark $1 ($2), $3 parts" >&2
        /usr/bin/time -f "%e %M" -o "spark-$1.time" "$root/scripts/spark_run.sh" traces --out "spark-$1" --partitions "$3" \
            --master "$2" --csv -- --model "$model" >"spark-$1.log" 2>&1 || true
    done
    cd "$root"
done
python3 scripts/bench/bench_spark_report.py "${sizes[@]}"
