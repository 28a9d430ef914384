#!/usr/bin/env bash
# Installs `pipeline` into PREFIX (default /usr/local): PREFIX/bin/pipeline, built with the
# Swift standard library and Foundation linked statically, so it runs on a Debian machine
# without the Swift toolchain (it needs only the runtime libraries of the packages
# scripts/bootstrap.sh installs: OpenBLAS, LAPACKE, SQLite, expat, zlib, libpng, FreeType,
# libcrypto), and the shipped mode model and time-zone boundaries in
# PREFIX/share/mobility-pipeline/, where the binary finds them from any working folder. A copy
# of the binary moved elsewhere runs too: it classifies by the rules and says so, and needs
# every device's zone given (--time-zone or the manifest's timezone) or --time-zone-boundaries.
#
# Usage: scripts/install.sh [PREFIX]      Prints the installed binary's path.
set -euo pipefail
prefix=${1:-/usr/local}
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
binary=$(scripts/build/static_build.sh)
install -d "$prefix/bin" "$prefix/share/mobility-pipeline"
install -m 755 "$binary" "$prefix/bin/pipeline"
install -m 644 models/mode-model.json "$prefix/share/mobility-pipeline/mode-model.json"
install -m 644 models/time-zones.bin "$prefix/share/mobility-pipeline/time-zones.bin"
install -m 644 models/NOTICE "$prefix/share/mobility-pipeline/NOTICE"
install -m 644 models/time-zones.NOTICE "$prefix/share/mobility-pipeline/time-zones.NOTICE"
echo "$prefix/bin/pipeline"
