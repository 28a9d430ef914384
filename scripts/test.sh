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
# they took 259 s instead of 906 s on the debug build, for a longer build (TEST_CONFIGURATION=debug
# for the debug build; the golden record and the report's sections are the same on both). The
# tests' own code is not optimised (Package.swift says why).
configuration="${TEST_CONFIGURATION:-release}"
# What runs in the background below is stopped when the script stops early (a failed build or
# test), each in a session of its own (setsid) so that its whole process group is; its log goes.
background=()
setup_log="" static_log=""
trap 'for pid in "${background[@]}"; do kill -TERM -- "-$pid" 2>/dev/null; done; rm -f $setup_log $static_log' EXIT
# The peer and Spark checks' environments (two venvs with pinned packages, Java, the driver's
# class archive: about 2 of CI's minutes on a fresh clone) are set up while the Swift code builds.
if [ "$#" -eq 0 ]; then
    setup_log=$(mktemp)
    setsid bash -c 'scripts/peers/peer_setup.sh && scripts/build/spark_setup.sh' > "$setup_log" 2>&1 &
    setup=$!
    background+=("$setup")
fi
swift build -c "$configuration" -Xswiftc -enable-testing --build-tests --explicit-target-dependency-import-check error
# The static release binary that the install, peer and Spark checks below run (what users
# install) is built while the tests run, since neither keeps both cores busy all the time: in
# CI, about 660 s for the two together, against 259 s and 477 s one after the other.
if [ "$#" -eq 0 ]; then
    static_log=$(mktemp)
    setsid scripts/build/static_build.sh > /dev/null 2> "$static_log" &
    static_build=$!
    background+=("$static_build")
fi
swift test -c "$configuration" -Xswiftc -enable-testing --skip-build --disable-xctest "$@"
[ "$#" -gt 0 ] || {
    wait "$static_build" || { cat "$static_log" >&2; echo "test.sh: the static release build failed" >&2; exit 1; }
    wait "$setup" || { cat "$setup_log" >&2; echo "test.sh: setting up the peer or Spark checks failed" >&2; exit 1; }
    cat "$setup_log" >&2
    background=()
}
# The installed binary on a machine without the toolchain (the static build above, which the
# Spark bundle below reuses).
[ "$#" -gt 0 ] || scripts/dev/install_test.sh
# Peers' own code against ours (scripts/peers/tests: trackintel's tables read back; sets up .venv-peers on first use),
# with the static release binary install_test built: what users run (they took 7 of CI's 36 minutes on the debug build).
[ "$#" -gt 0 ] || PIPELINE_BINARY="$(scripts/build/static_build.sh)" scripts/peers/peer_test.sh
# The Spark job against a single run (spark/tests; sets up Java and .venv-spark on first use).
[ "$#" -gt 0 ] || scripts/spark_test.sh
