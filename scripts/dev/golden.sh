#!/usr/bin/env bash
# The golden record of every output (Tests/EndToEndTests/GoldenOutputTests.swift).
#   scripts/dev/golden.sh          check: every output of the fixed scenarios hashes as recorded
#   scripts/dev/golden.sh record   write the record anew (commit it with the reason the outputs changed)
#   GOLDEN_KEEP=DIR scripts/dev/golden.sh   also keep the normalised files in DIR, to diff two revisions
# A change that only moves code must pass the check unchanged; one that changes outputs on purpose
# re-records in its own commit, so the record's diff names each file it changed.
set -euo pipefail
cd "$(dirname "$0")/../.."
case "${1:-check}" in
    record) export GOLDEN_RECORD=1 ;;
    check) ;;
    *) echo "usage: scripts/dev/golden.sh [check|record]" >&2; exit 64 ;;
esac
scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build --disable-xctest --filter GoldenOutputTests
