#!/usr/bin/env bash
# Runs the whole test suite (the README's second command): unit, real-data and end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/.."
# GDAL (ogrinfo, and validate_gpkg.py from python3-gdal) checks the GeoPackage (OutputSchemaTests).
scripts/bootstrap.sh gdal-bin python3-gdal
swift build --build-tests
swift test --skip-build --disable-xctest "$@"
# The installed binary on a machine without the toolchain (a static release build, which the
# Spark bundle below reuses).
[ "$#" -gt 0 ] || scripts/install_test.sh
# Peers' own code against ours (tests/peers: trackintel's tables read back; sets up .venv-peers on first use).
[ "$#" -gt 0 ] || scripts/peer_test.sh
# The Spark job against a single run (spark/tests; sets up Java and .venv-spark on first use).
[ "$#" -gt 0 ] || scripts/spark_test.sh
