#!/usr/bin/env bash
# Usage: scripts/bench/bench_publish_ab.sh OLD_BINARY NEW_BINARY RUN_FOLDER [RUNS]
# Times `pipeline publish` of two builds on one finished run's store: RUN_FOLDER holds
# restricted/pipeline.sqlite (pipeline.sqlite at the top, from earlier versions) and the per-device tables' CSVs (a `pipeline run` output folder, or a Spark
# run's with --csv, e.g. .bench/sim-1600/spark-pair). The store and the CSVs publish reads are
# copied once into a temporary folder (RUN_FOLDER is not written); the builds run alternately
# RUNS times each (default 5). Prints each build's medians: wall, peak RSS and publish's
# stage seconds (`--json`), and whether the two builds' files are the same (the GeoPackage
# compared by its tables' rows: its gpkg_contents holds the time it was written).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/bootstrap.sh time sqlite3 >&2
[ $# -ge 3 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY RUN_FOLDER [RUNS]" >&2; exit 64; }
old=$(realpath "$1") new=$(realpath "$2") folder=$(realpath "$3") runs=${4:-5}
store="$folder/restricted/pipeline.sqlite"
[ -f "$store" ] || store="$folder/pipeline.sqlite" # where earlier versions kept it
[ -f "$store" ] || { echo "$folder/restricted/pipeline.sqlite is missing: give a finished run's output folder" >&2; exit 64; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tables" "$work/old" "$work/new"
cp "$store" "$work/store.sqlite"
# The per-device tables are in restricted/ since 0.7 (at the top before); each side gets
# locations.csv where its version reads it.
for name in staypoints dwells locations triplegs trips rides; do
    for place in "$folder/restricted" "$folder"; do
        if [ -f "$place/$name.csv" ]; then cp "$place/$name.csv" "$work/tables/"; break; fi
    done
done
if [ -f "$work/tables/locations.csv" ]; then
    for side in old new; do mkdir -p "$work/$side/restricted"; cp "$work/tables/locations.csv" "$work/$side/"; cp "$work/tables/locations.csv" "$work/$side/restricted/"; done
fi
for i in $(seq "$runs"); do
    for side in old new; do
        binary=$old; [ "$side" = new ] && binary=$new
        /usr/bin/time -f "%e %M" -o "$work/$side-$i.time" \
            "$binary" publish --store "$work/store.sqlite" --out "$work/$side" --tables "$work/tables" --json >"$work/$side-$i.json" 2>/dev/null
    done
done
python3 - "$work" "$runs" "$old" "$new" <<'PY'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
for side, binary in (("old", sys.argv[3]), ("new", sys.argv[4])):
    times = [open(f"{work}/{side}-{i}.time").read().split()[-2:] for i in range(1, runs + 1)]
    stages = [json.load(open(f"{work}/{side}-{i}.json"))["stage_seconds"] for i in range(1, runs + 1)]
    medians = {k: statistics.median(s[k] for s in stages) for k in stages[0]}
    print(f"{side} {binary}: publish {statistics.median(float(t[0]) for t in times):.2f} s "
          f"(runs {', '.join(t[0] for t in times)}), peak RSS {statistics.median(int(t[1]) for t in times) / 1024:.0f} MB; "
          + ", ".join(f"{k} {v:.2f} s" for k, v in sorted(medians.items())))
PY
same=yes
# Every file, restricted/ included (a folder is not compared, its files are).
while IFS= read -r name; do
    file="$work/old/$name"
    if [ "$(basename "$name")" = pipeline.gpkg ]; then
        dump() { sqlite3 "$1" .dump | grep -v gpkg_contents; sqlite3 "$1" "SELECT table_name, data_type, identifier, description, min_x, min_y, max_x, max_y, srs_id FROM gpkg_contents"; }
        [ "$(dump "$file" | sha256sum)" = "$(dump "$work/new/$name" | sha256sum)" ] || { echo "differs: $name"; same=no; }
    else
        cmp -s "$file" "$work/new/$name" || { echo "differs: $name"; same=no; }
    fi
done < <(cd "$work/old" && find . -type f | sed 's|^\./||' | sort)
echo "the same files: $same"
