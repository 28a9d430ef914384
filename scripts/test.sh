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
# for the debug build; the golden record and the report's sections are the same on both). The
# tests' own code is not optimised (Package.swift says why).
configuration="${TEST_CONFIGURATION:-release}"
swift build -c "$configuration" -Xswiftc -enable-testing --build-tests --explicit-target-dependency-import-check error
# The static release binary that the install, peer and Spark checks below run (what users
# install) is built while the tests run: each leaves a core idle part of the time, the build
# waiting on its chain of modules, the tests on the pipeline processes they start.
static_build=""
if [ "$#" -eq 0 ]; then
    static_log=$(mktemp)
    scripts/build/static_build.sh > /dev/null 2> "$static_log" &
    static_build=$!
    # A failed test stops the build too (its `swift build`, then the script around it).
    trap '[ -z "$static_build" ] || { pkill -TERM -P "$static_build"; kill "$static_build"; } 2>/dev/null || true; rm -f "$static_log"' EXIT
fi
swift test -c "$configuration" -Xswiftc -enable-testing --skip-build --disable-xctest "$@"
if [ -n "$static_build" ]; then
    wait "$static_build" || { cat "$static_log" >&2; echo "test.sh: the static release build failed" >&2; exit 1; }
    static_build=""
fi
# The installed binary on a machine without the toolchain (the static build above, which the
# Spark bundle below reuses).
[ "$#" -gt 0 ] || scripts/dev/install_test.sh
# Peers' own code against ours (scripts/peers/tests: trackintel's tables read back; sets up .venv-peers on first use),
# with the static release binary install_test built: what users run (they took 7 of CI's 36 minutes on the debug build).
[ "$#" -gt 0 ] || PIPELINE_BINARY="$(scripts/build/static_build.sh)" scripts/peers/peer_test.sh
# The Spark job against a single run (spark/tests; sets up Java and .venv-spark on first use).
[ "$#" -gt 0 ] || scripts/spark_test.sh
