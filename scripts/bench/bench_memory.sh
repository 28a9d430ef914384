#!/usr/bin/env bash
# Peak memory of `pipeline run` on one device as its fixes grow (issue 55): a 1 Hz GPX of 100 k,
# 400 k and 1.6 M points (`pipeline-bench generate-gpx`: one continuous track, the worst case
# for a leg's fixes), each run once into a fresh store; prints fixes, input size, wall seconds and
# peak RSS, and the growth of peak RSS from the smallest size. Then the same points from a logger
# that records only on the move (an hour of fixes, then two hours off: gaps, no stays). Then the same for one simulated
# resident logging every second, moving and at rest (`pipeline simulate --gps-still-interval 1`),
# over 1, 5 and 19 days (86 k, 432 k and 1.64 M fixes): a real day's stays and legs.
# Usage: scripts/bench/bench_memory.sh [--jobs N] [FIXES…]   (default sizes 100000 400000 1600000)
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs=()
if [ "${1:-}" = "--jobs" ]; then jobs=(--jobs "$2"); shift 2; fi
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 400000 1600000)
scripts/bootstrap.sh time >&2 # GNU time for peak RSS
swift build -c release --product pipeline-bench >&2
pipeline=$(scripts/build/static_build.sh) # the binary the install script ships, as users run it
mkdir -p .bench/memory
# One table of generated tracks: $1 its heading, $2 the folders' prefix, then generate-gpx's
# arguments after the point count (none: continuous).
generated() {
    local heading=$1 prefix=$2 first="" n folder wall kb mb size
    shift 2
    echo "| fixes (one device, 1 Hz$heading) | GPX | pipeline run wall | peak RSS | RSS ÷ smallest |"
    echo "|---:|---:|---:|---:|---:|"
    for n in "${sizes[@]}"; do
        folder=.bench/memory/$prefix-$n
        if [ ! -f "$folder/traces/device.gpx" ]; then
            mkdir -p "$folder/traces"
            .build/release/pipeline-bench generate-gpx "$folder/traces/device.gpx" "$n" "$@"
        fi
        rm -rf "$folder/out"
        /usr/bin/time -f "%e %M" -o "$folder/time.txt" "$pipeline" run "$folder/traces" --out "$folder/out" "${jobs[@]}" \
            >/dev/null 2>"$folder/run.log" || { s=$?; [ $s -eq 2 ] || { cat "$folder/run.log" >&2; exit $s; }; }
        read -r wall kb < <(tail -1 "$folder/time.txt") # GNU time says a non-zero exit on a line of its own first
        mb=$(( kb / 1024 ))
        [ -n "$first" ] || first=$mb
        size=$(du -m "$folder/traces/device.gpx" | cut -f1)
        printf "| %d | %d MB | %.1f s | %d MB | %s× |\n" "$n" "$size" "$wall" "$mb" "$(awk -v a="$mb" -v b="$first" 'BEGIN { printf "%.2f", a / b }')"
    done
}
generated "" one-device
echo
generated ", on the move only: 1 h of fixes, 2 h off" on-the-move 3600 7200
echo
echo "| days of one simulated resident (1 Hz) | fixes | pipeline run wall | peak RSS | RSS ÷ smallest |"
echo "|---:|---:|---:|---:|---:|"
first=""
for days in 1 5 19; do
    folder=.bench/memory/simulated-$days-days
    if [ ! -d "$folder/traces" ]; then
        "$pipeline" simulate --devices 1 --days "$days" --gps-still-interval 1 --imu-rate 0 --out "$folder/traces" >/dev/null 2>&1
    fi
    rm -rf "$folder/out"
    /usr/bin/time -f "%e %M" -o "$folder/time.txt" "$pipeline" run "$folder/traces" --out "$folder/out" "${jobs[@]}" --json \
        >"$folder/run.json" 2>"$folder/run.log" || { s=$?; [ $s -eq 2 ] || { cat "$folder/run.log" >&2; exit $s; }; }
    read -r wall kb < <(tail -1 "$folder/time.txt") # GNU time says a non-zero exit on a line of its own first
    mb=$(( kb / 1024 ))
    [ -n "$first" ] || first=$mb
    fixes=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["fixes"])' "$folder/run.json")
    printf "| %d | %d | %.1f s | %d MB | %s× |\n" "$days" "$fixes" "$wall" "$mb" "$(awk -v a="$mb" -v b="$first" 'BEGIN { printf "%.2f", a / b }')"
done
echo
echo "Measured $(date -u +%F) by scripts/bench/bench_memory.sh${jobs[*]:+ ${jobs[*]}} on $(nproc) cores."
