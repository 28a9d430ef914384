#!/usr/bin/env bash
# The Spark job's tests (spark/tests): a simulated city run once on one machine and once on
# Spark in local mode, outputs compared. Sets Spark up on first use (scripts/spark_setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/spark_setup.sh
swift build -c release --product pipeline >&2
cd spark && ../.venv-spark/bin/python -m unittest discover -s tests -v
