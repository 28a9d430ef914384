#!/usr/bin/env bash
# Sets up the peer checks' virtual environment .venv-peers once, with the pinned packages of
# tests/peers/requirements.txt (trackintel and what it needs). Quiet and quick when there.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.venv-peers
stamp="$venv/.requirements"
if [ ! -x "$venv/bin/python" ] || ! cmp -s tests/peers/requirements.txt "$stamp"; then
    echo "peer_setup: creating $venv with trackintel $(grep '^trackintel==' tests/peers/requirements.txt | cut -d= -f3)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r tests/peers/requirements.txt >&2
    cp tests/peers/requirements.txt "$stamp"
fi
