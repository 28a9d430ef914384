#!/usr/bin/env bash
# Installs the Debian -dev packages the build links against, only when one is missing,
# so a second run is silent and fast. Needs root (or sudo) the first time only.
set -euo pipefail

# libpng and FreeType draw the heat-map PNGs, with the DejaVu font for their labels; libssl-dev
# gives libcrypto, whose SHA-256 tells unchanged inputs.
packages=(libopenblas-dev liblapacke-dev libsqlite3-dev libexpat1-dev zlib1g-dev libpng-dev libfreetype-dev libssl-dev fonts-dejavu-core pkg-config)
# Scripts that need more name it: `scripts/bootstrap.sh time python3-venv` (the benchmarks).
packages+=("$@")

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "bootstrap: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq >/dev/null
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
