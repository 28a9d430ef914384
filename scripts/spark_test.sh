#!/usr/bin/env bash
# The Spark job's tests (spark/tests): a simulated city run once on one machine and once on
# Spark, outputs compared. Starts a standalone master and two workers on this machine
# (scripts/build/spark_cluster.sh: separate JVMs on 127.0.0.1) for the equivalence run, in which
# one worker is killed during a part task, and stops them at the end; the other runs use
# local mode. Sets Spark up on first use (scripts/build/spark_setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scripts/build/spark_setup.sh
# The one release build that scripts/run.sh, install.sh and the Spark bundle use.
export PIPELINE_BINARY="${PIPELINE_BINARY:-$(scripts/build/static_build.sh)}"
cluster=$(mktemp -d -t spark-cluster-XXXXXX)
trap '"$root"/scripts/build/spark_cluster.sh stop "$cluster"; rm -rf "$cluster"' EXIT
scripts/build/spark_cluster.sh start "$cluster" >&2
export SPARK_TEST_CLUSTER="$cluster"
cd spark && ../.venv-spark/bin/python -m unittest discover -s tests -v
