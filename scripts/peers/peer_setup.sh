#!/usr/bin/env bash
# Sets up the peer checks' virtual environment .venv-peers once, with the pinned packages of
# scripts/peers/tests/requirements.txt (trackintel and what it needs). Quiet and quick when there.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.venv-peers
stamp="$venv/.requirements"
if [ ! -x "$venv/bin/python" ] || ! cmp -s scripts/peers/tests/requirements.txt "$stamp"; then
    echo "peer_setup: creating $venv with trackintel $(grep '^trackintel==' scripts/peers/tests/requirements.txt | cut -d= -f3)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r scripts/peers/tests/requirements.txt >&2
    cp scripts/peers/tests/requirements.txt "$stamp"
fi
