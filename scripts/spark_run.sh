#!/usr/bin/env bash
# The pipeline on Apache Spark: scripts/spark_run.sh INPUT… --out DIR [--partitions N]
# [--master URL] [--ui] [-- RUN OPTIONS…]. Local mode (local[2]) unless --master is given;
# Spark's web UI only with --ui (it starts in the driver before the executors are asked for,
# 0.15-0.4 s of every run, and the job logs each part and writes spark_summary.json). Sets
# itself up on first use (scripts/build/spark_setup.sh: Java, .venv-spark with pinned pyspark),
# packs the binary with its libraries (scripts/build/spark_bundle.sh) and ships it with the job.
# DIR gets the files `pipeline run --out DIR` writes; see spark/README.md.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
master="local[2,4]"  # 2 cores; a failed task is tried up to 4 times, as spark.task.maxFailures on a cluster
ui=false
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --master) master="$2"; shift 2 ;;
        --master=*) master="${1#--master=}"; shift ;;
        --ui) ui=true; shift ;;
        --) args+=("$@"); break ;;  # the parts' `pipeline run` options, passed on as they are
        *) args+=("$1"); shift ;;
    esac
done
"$root/scripts/build/spark_setup.sh"
[ -f "$root/scripts/bootstrap.sh" ] && "$root/scripts/bootstrap.sh"
bundle=$("$root/scripts/build/spark_bundle.sh")
export PYSPARK_PYTHON="$root/.venv-spark/bin/python"      # executors: the venv's Python, not the system's
export PYSPARK_DRIVER_PYTHON="$root/.venv-spark/bin/python"
status=0
# The JVMs here only schedule tasks and shuffle a few megabytes (the binary does the work):
# the C1 compiler alone starts them faster: on the standalone pair the first task ran 3.8-4.0 s
# after the context instead of 7.3-7.9 s (scripts/bench/bench_spark_startup.sh). As default
# options, so that a cluster's spark.*.extraJavaOptions still apply.
# -XX:-UsePerfData: no hsperfdata file, and no sampling of it every 50 ms for the job's
# whole length (jps and jstat do not see these JVMs); with Spark's context cleaner off (job.py),
# the driver's JVM used 0.44 s of CPU over 2 minutes of part tasks instead of 0.77 s.
jit="-XX:TieredStopAtLevel=1 -XX:-UsePerfData"
driver="$jit"
for archive in "$root"/.venv-spark/driver-classes-*.jsa; do  # the driver's classes, archived by spark_setup.sh
    [ -f "$archive" ] && driver="$jit -XX:SharedArchiveFile=$archive"
done
"$root/.venv-spark/bin/spark-submit" --master "$master" --conf spark.ui.showConsoleProgress=false --conf "spark.ui.enabled=$ui" \
    --conf "spark.driver.defaultJavaOptions=$driver" --conf "spark.executor.defaultJavaOptions=$jit" \
    --conf spark.driver.maxResultSize=0 --conf spark.task.maxFailures=4 \
    --py-files "$root/.build/spark/pipeline_spark.zip" "$root/spark/pipeline_spark/job.py" --bundle "$bundle" \
    --report-model "$root/models/mode-model.json" "${args[@]}" || status=$?
exit "$status"
