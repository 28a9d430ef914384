#!/usr/bin/env bash
# Builds the release `pipeline` with the Swift runtime linked statically (in .build-static,
# beside the debug build) and prints its path. The install and the Spark bundle both ship it.
# `swift build` takes about a second to find nothing to do, paid on every Spark job's launch
# (scripts/spark_run.sh): skipped when no source file, folder (a deleted file changes its
# folder's time) or package manifest changed since the last build began (the stamp is taken
# before `swift build`, so an edit made during a build is seen by the next).
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=.build-static/release/pipeline
stamp=.build-static/.built-from-sources
if [ -x "$binary" ] && [ -f "$stamp" ] && [ -z "$(find Sources Package.swift Package.resolved -newer "$stamp" -print -quit)" ]; then
    echo "$PWD/$binary"
    exit 0
fi
mkdir -p .build-static && touch "$stamp.next"
swift build -c release --product pipeline --static-swift-stdlib --scratch-path .build-static >&2
mv "$stamp.next" "$stamp"
echo "$(swift build -c release --product pipeline --static-swift-stdlib --scratch-path .build-static --show-bin-path)/pipeline"
