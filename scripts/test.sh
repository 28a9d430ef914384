#!/usr/bin/env bash
# Runs the whole test suite (the README's second command): unit, real-data and end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/.."
# GDAL (ogrinfo, and validate_gpkg.py from python3-gdal) checks the GeoPackage (OutputSchemaTests).
scripts/bootstrap.sh gdal-bin python3-gdal
# Who may import whom (docs/architecture.md): the page's tables against every import and
# Package.swift; SwiftPM checks that every import of a package module is declared.
python3 scripts/dev/check_architecture.py
# One style (.swift-format: 4 spaces, lines of at most 140): `swift format -i -r Sources Tests
# Benchmarks Package.swift` fixes what this reports.
swift format lint --strict -r --parallel Sources Tests Benchmarks Package.swift
# The tests run on a release build, with -enable-testing for their @testable imports: on 2 cores
# they took 183 s instead of 906 s on the debug build, for a longer build (TEST_CONFIGURATION=debug
# for the debug build; the golden record and the report's sections are the same on both).
configuration="${TEST_CONFIGURATION:-release}"
swift build -c "$configuration" -Xswiftc -enable-testing --build-tests --explicit-target-dependency-import-check error
swift test -c "$configuration" -Xswiftc -enable-testing --skip-build --disable-xctest "$@"
# The installed binary on a machine without the toolchain (a static release build, which the
# Spark bundle below reuses).
[ "$#" -gt 0 ] || scripts/dev/install_test.sh
# Peers' own code against ours (scripts/peers/tests: trackintel's tables read back; sets up .venv-peers on first use),
# with the static release binary install_test built: what users run (they took 7 of CI's 36 minutes on the debug build).
[ "$#" -gt 0 ] || PIPELINE_BINARY="$(scripts/build/static_build.sh)" scripts/peers/peer_test.sh
# The Spark job against a single run (spark/tests; sets up Java and .venv-spark on first use).
[ "$#" -gt 0 ] || scripts/spark_test.sh
