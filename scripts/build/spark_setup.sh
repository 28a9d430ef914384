#!/usr/bin/env bash
# Sets up what the Spark job needs, once: Java from Debian when no java is on PATH
# (openjdk-17-jre-headless), a virtual environment .venv-spark with the pinned pyspark
# and pyarrow (spark/requirements.txt) and spark/site-packages' start-up file, and the
# driver's class archive. Quiet and quick when all are there already.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v java >/dev/null 2>&1; then
    echo "spark_setup: installing openjdk-17-jre-headless (Spark needs Java)" >&2
    sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_="sudo"
    $sudo_ apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq openjdk-17-jre-headless >&2
fi
venv=.venv-spark
stamp="$venv/.requirements"
if [ ! -x "$venv/bin/python" ] || ! cmp -s spark/requirements.txt "$stamp"; then
    echo "spark_setup: creating $venv with $(grep -v '^#' spark/requirements.txt | tr '\n' ' ')" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r spark/requirements.txt >&2
    cp spark/requirements.txt "$stamp"
fi
# Spark puts its own PySpark, a zip, at the head of every Python process's path (the driver
# and each executor's daemon), and Python compiles a zip's modules anew in each: 0.6 s
# against 0.17 s for the venv's compiled copy of the same version. pyspark_compiled_first.pth
# moves the zip behind the venv's copy when the two are the same version (its docstring).
site=$("$venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
for f in spark/site-packages/pyspark_compiled_first.py spark/site-packages/pyspark_compiled_first.pth; do
    cmp -s "$f" "$site/$(basename "$f")" || cp "$f" "$site/"
done
# spark-submit's JVM loads some 5,000 classes of Spark's jars on every run. Archived once
# (JDK Application Class-Data Sharing, JEP 350: -XX:ArchiveClassesAtExit after a small job
# with a shuffle), scripts/spark_run.sh starts it from the archive: the context is up about
# 0.7 s sooner (scripts/bench/bench_spark_startup.sh). Named after the JDK and the pins; a JVM
# that cannot use it ignores it.
key=$({ java -version 2>&1; cat spark/requirements.txt; } | sha256sum | cut -c1-12)
archive="$venv/driver-classes-$key.jsa"
if [ ! -f "$archive" ]; then
    rm -f "$venv"/driver-classes-*.jsa
    warm=$(mktemp -d)
    cat > "$warm/warm.py" <<'PY'
from pyspark import SparkConf, SparkContext
sc = SparkContext.getOrCreate(SparkConf().setAppName("class-archive"))
sc.parallelize(range(8), 2).map(lambda x: (x % 3, x)).partitionBy(2).mapPartitions(lambda p: [sum(v for _, v in p)]).collect()
sc.stop()
PY
    PYSPARK_PYTHON="$PWD/$venv/bin/python" PYSPARK_DRIVER_PYTHON="$PWD/$venv/bin/python" "$venv/bin/spark-submit" --master "local[1]" \
        --conf spark.ui.showConsoleProgress=false --conf "spark.driver.defaultJavaOptions=-XX:ArchiveClassesAtExit=$warm/classes.jsa" \
        "$warm/warm.py" >"$warm/log" 2>&1 && [ -f "$warm/classes.jsa" ] && mv "$warm/classes.jsa" "$archive" \
        || echo "spark_setup: no class archive for the driver (the job runs without it): $(tail -1 "$warm/log")" >&2
    rm -rf "$warm"
fi
