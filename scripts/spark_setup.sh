#!/usr/bin/env bash
# Sets up what the Spark job needs, once: Java from Debian when no java is on PATH
# (openjdk-17-jre-headless), and a virtual environment .venv-spark with the pinned pyspark
# and pyarrow (spark/requirements.txt). Quiet and quick when both are there already.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v java >/dev/null 2>&1; then
    echo "spark_setup: installing openjdk-17-jre-headless (Spark needs Java)" >&2
    sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_="sudo"
    $sudo_ apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq openjdk-17-jre-headless >&2
fi
venv=.venv-spark
stamp="$venv/.requirements"
if [ ! -x "$venv/bin/python" ] || ! cmp -s spark/requirements.txt "$stamp"; then
    echo "spark_setup: creating $venv with $(grep -v '^#' spark/requirements.txt | tr '\n' ' ')" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r spark/requirements.txt >&2
    cp spark/requirements.txt "$stamp"
fi
