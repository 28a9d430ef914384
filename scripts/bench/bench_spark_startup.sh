#!/usr/bin/env bash
# The start-up of a Spark job on the standalone pair (scripts/build/spark_cluster.sh: a master and
# two 1-core workers on this machine), with a job of one tiny task, for each setting
# scripts/spark_run.sh could use: Spark's defaults; the C1 compiler only; C1 and the driver's
# class archive (scripts/build/spark_setup.sh), each with PySpark imported from Spark's zip; then
# with the venv's compiled PySpark (spark/site-packages/pyspark_compiled_first.py); then as
# spark_run.sh runs it (without Spark's web UI and the JVMs' hsperfdata as well); and, for
# comparison only, with an executors' class archive as an administrator could make one per
# node (this script makes it, in its temporary folder; the job does not use one). Prints per
# run the seconds until the context is up (the driver's Python import included) and from
# then until the first task runs (the executors' start). spark/README.md quotes it.
# Usage: scripts/bench/bench_spark_startup.sh [RUNS-PER-SETTING]   (default 2)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=${1:-2}
scripts/build/spark_setup.sh
cluster=$(mktemp -d -t spark-startup-XXXXXX)
trap '"$root"/scripts/build/spark_cluster.sh stop "$cluster"; rm -rf "$cluster"' EXIT
master=$(scripts/build/spark_cluster.sh start "$cluster")
cat > "$cluster/probe.py" <<'PY'
import time
started = time.time()
from pyspark import SparkConf, SparkContext
sc = SparkContext.getOrCreate(SparkConf().setAppName("startup-probe"))
up = time.time()
def task(_):
    import pyspark
    return time.time(), "zip" if ".zip" in pyspark.__file__ else "compiled"
tasks = sc.parallelize([0, 1], 2).map(task).collect()
import pyspark
where = lambda f: "zip" if ".zip" in f else "compiled"
print(f"context {up - started:.2f} s, first task {min(t for t, _ in tasks) - up:.2f} s after it "
      f"(PySpark: driver's {where(pyspark.__file__)}, executors' {'/'.join(sorted(set(w for _, w in tasks)))})")
PY
archive=$(ls .venv-spark/driver-classes-*.jsa 2>/dev/null | head -1 || true)
export PYSPARK_PYTHON="$root/.venv-spark/bin/python" PYSPARK_DRIVER_PYTHON="$root/.venv-spark/bin/python"
probe() {
    local label=$1 driver=$2 executor=$3 zip_first=${4-1} ui=${5:-true}
    for _ in $(seq "$runs"); do
        printf '%s: ' "$label"
        PYSPARK_ZIP_FIRST=$zip_first .venv-spark/bin/spark-submit --master "$master" --conf spark.ui.showConsoleProgress=false \
            --conf "spark.ui.enabled=$ui" \
            --conf "spark.driver.defaultJavaOptions=$driver" --conf "spark.executor.defaultJavaOptions=$executor" \
            --conf "spark.executorEnv.PYSPARK_ZIP_FIRST=$zip_first" "$cluster/probe.py" 2>/dev/null
    done
}
c1=-XX:TieredStopAtLevel=1
probe "Spark's defaults, PySpark from Spark's zip" "" ""
probe "C1 only, PySpark from Spark's zip" "$c1" "$c1"
[ -z "$archive" ] || probe "C1 and the driver's class archive, PySpark from Spark's zip" "$c1 -XX:SharedArchiveFile=$root/$archive" "$c1"
[ -z "$archive" ] || probe "C1, the driver's class archive, the venv's compiled PySpark" \
    "$c1 -XX:SharedArchiveFile=$root/$archive" "$c1" ""
# spark_run.sh's JVM options (its `jit`), without the web UI
run_jit="$c1 -XX:-UsePerfData"
[ -z "$archive" ] || probe "as scripts/spark_run.sh: the same without Spark's web UI and hsperfdata" \
    "$run_jit -XX:SharedArchiveFile=$root/$archive" "$run_jit" "" false
# Not used by the job: the executors' own class archive, dumped by one executor (one core
# asked for: two would write the same file) as it exits, after the driver.
executor_archive="$cluster/executor-classes.jsa"
PYSPARK_ZIP_FIRST= .venv-spark/bin/spark-submit --master "$master" --conf spark.ui.showConsoleProgress=false --conf spark.cores.max=1 \
    --conf "spark.executor.defaultJavaOptions=$c1 -XX:ArchiveClassesAtExit=$executor_archive" "$cluster/probe.py" >/dev/null 2>&1
size=-1
for _ in $(seq 20); do  # until the file stops growing
    sleep 1
    now=$(stat -c %s "$executor_archive" 2>/dev/null || echo -1)
    [ "$now" -gt 0 ] && [ "$now" = "$size" ] && break
    size=$now
done
[ -z "$archive" ] || [ ! -f "$executor_archive" ] || probe "for comparison, the executors' class archive too (not used by the job)" \
    "$run_jit -XX:SharedArchiveFile=$root/$archive" "$run_jit -XX:SharedArchiveFile=$executor_archive" "" false
