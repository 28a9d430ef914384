#!/usr/bin/env bash
# Checks the pipeline against peers' own code (scripts/peers/tests): trackintel writes tables the
# pipeline reads back. Uses the debug build `swift build` makes, or PIPELINE_BINARY when set
# (scripts/test.sh gives it the static release binary users install).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/peers/peer_setup.sh
[ -n "${PIPELINE_BINARY:-}" ] || swift build --product pipeline >&2
PIPELINE_BINARY="${PIPELINE_BINARY:-$PWD/.build/debug/pipeline}" .venv-peers/bin/python -m unittest discover -s scripts/peers/tests -v
