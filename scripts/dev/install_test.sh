#!/usr/bin/env bash
# Installs into a temporary prefix and runs the installed binary as a user of a machine
# without the Swift toolchain would: from another folder, with /opt/swift hidden (an empty
# mount over it, in a mount namespace of its own), on a copy of the bundled traces. Then a
# copy of the binary alone, away from its model and time-zone borders, stops naming the borders
# file, and runs the same traces with the rules once given a zone.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
scripts/install.sh "$work/prefix" >/dev/null
cp -r traces "$work/traces"
mkdir -p "$work/elsewhere" && cp "$work/prefix/bin/pipeline" "$work/elsewhere/pipeline"
toolchain=$(dirname "$(dirname "$(dirname "$(command -v swift)")")")
status=0
unshare --mount sh -e -c '
    mount -t tmpfs none "$1"
    cd "$2"
    if command -v swift >/dev/null 2>&1 && swift --version >/dev/null 2>&1; then echo "install test: the toolchain is still visible" >&2; exit 3; fi
    "$2/prefix/bin/pipeline" --version
    set +e
    "$2/prefix/bin/pipeline" run traces --out installed --json > installed.json 2> installed.log; echo $? > installed.status
    "$2/elsewhere/pipeline" run traces --out unzoned --json > unzoned.json 2> unzoned.log; echo $? > unzoned.status
    "$2/elsewhere/pipeline" run traces --out copied --time-zone Europe/Paris --json > copied.json 2> copied.log; echo $? > copied.status
' sh "$toolchain" "$work" || status=$?
[ "$status" -eq 0 ] || { echo "install test: could not run the installed binary without the toolchain (exit $status)" >&2; exit 1; }
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def outcome(name):
    return int(open(f"{work}/{name}.status").read()), json.load(open(f"{work}/{name}.json")), open(f"{work}/{name}.log").read()
failures = []
status, installed, log = outcome("installed")
if status != 2 or installed["store"]["windows"] == 0 or "no mode model found" in log:
    failures.append(f"installed binary: exit {status}, windows {installed['store']['windows']} (expected exit 2 for the cut-off upload, windows from the installed model)\n{log[-2000:]}")
status, unzoned, log = outcome("unzoned")
if status != 1 or "time-zones.bin" not in unzoned.get("error", "") or unzoned.get("code") != "model_missing":
    failures.append(f"copied binary without a zone: exit {status} (expected 1, model_missing naming time-zones.bin)\n{log[-2000:]}")
status, copied, log = outcome("copied")
if status != 2 or "no mode model found" not in log or copied["store"]["windows"] != installed["store"]["windows"]:
    failures.append(f"copied binary: exit {status} (expected 2, the rules classifying, and said)\n{log[-2000:]}")
for failure in failures:
    print("FAIL:", failure)
print(f"{3 - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
PY
