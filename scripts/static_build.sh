#!/usr/bin/env bash
# Builds the release `pipeline` with the Swift runtime linked statically (in .build-static,
# beside the debug build) and prints its path. The install and the Spark bundle both ship it.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product pipeline --static-swift-stdlib --scratch-path .build-static >&2
echo "$(swift build -c release --product pipeline --static-swift-stdlib --scratch-path .build-static --show-bin-path)/pipeline"
