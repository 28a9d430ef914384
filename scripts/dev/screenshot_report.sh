#!/usr/bin/env bash
# Renders reports/report.html in headless Chromium and saves a full-page screenshot, to look
# at the report as a user sees it: scripts/dev/screenshot_report.sh [REPORT.html] [OUT.png]
# Installs Debian's chromium-headless-shell the first time (needs root or sudo).
set -euo pipefail
cd "$(dirname "$0")/../.."
report=$(realpath "${1:-reports/report.html}")
out=${2:-reports/report.png}
if ! command -v chromium-headless-shell >/dev/null; then
    sudo_cmd=()
    [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends chromium-headless-shell >/dev/null
fi
# Offline on purpose: the report must show everything without the network.
chromium-headless-shell --no-sandbox --disable-gpu --hide-scrollbars --proxy-server=127.0.0.1:9 \
    --window-size=1100,${HEIGHT:-6000} --screenshot="$out" "file://$report" 2>/dev/null
echo "wrote $out" >&2
