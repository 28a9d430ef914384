#!/usr/bin/env bash
# The start-up of a Spark job on the standalone pair (scripts/spark_cluster.sh: a master and
# two 1-core workers on this machine), with a job of one tiny task, for each JVM setting
# scripts/spark_run.sh could use: Spark's defaults; the C1 compiler only; C1 and the driver's
# class archive (scripts/spark_setup.sh). Prints per run the seconds until the context is
# up and from then until the first task runs (the executors' start). spark/README.md quotes it.
# Usage: scripts/bench_spark_startup.sh [RUNS-PER-SETTING]   (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runs=${1:-2}
scripts/spark_setup.sh
cluster=$(mktemp -d -t spark-startup-XXXXXX)
trap '"$root"/scripts/spark_cluster.sh stop "$cluster"; rm -rf "$cluster"' EXIT
master=$(scripts/spark_cluster.sh start "$cluster")
cat > "$cluster/probe.py" <<'PY'
import time
started = time.time()
from pyspark import SparkConf, SparkContext
sc = SparkContext.getOrCreate(SparkConf().setAppName("startup-probe"))
up = time.time()
first = min(sc.parallelize([0, 1], 2).map(lambda _: time.time()).collect())
print(f"context {up - started:.2f} s, first task {first - up:.2f} s after it")
PY
archive=$(ls .venv-spark/driver-classes-*.jsa 2>/dev/null | head -1 || true)
export PYSPARK_PYTHON="$root/.venv-spark/bin/python" PYSPARK_DRIVER_PYTHON="$root/.venv-spark/bin/python"
probe() {
    local label=$1 driver=$2 executor=$3
    for _ in $(seq "$runs"); do
        printf '%s: ' "$label"
        .venv-spark/bin/spark-submit --master "$master" --conf spark.ui.showConsoleProgress=false \
            --conf "spark.driver.defaultJavaOptions=$driver" --conf "spark.executor.defaultJavaOptions=$executor" \
            "$cluster/probe.py" 2>/dev/null
    done
}
probe "Spark's defaults" "" ""
probe "C1 only" "-XX:TieredStopAtLevel=1" "-XX:TieredStopAtLevel=1"
[ -z "$archive" ] || probe "C1 and the driver's class archive" "-XX:TieredStopAtLevel=1 -XX:SharedArchiveFile=$root/$archive" "-XX:TieredStopAtLevel=1"
