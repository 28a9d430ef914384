#!/usr/bin/env bash
# What the Bay Area's GTFS feeds (../shared/data/gtfs: BART, Caltrain) give MobilityNet's raw
# iPhone runs (scripts/data/mobilitynet_inputs.py, `ucb-sdb-ios-3`): `pipeline run` without a
# feed, with each feed alone and with both, and per labelled mode the share of its labelled time
# a leg of that mode covers (SUBWAY, TRAIN and LIGHT_RAIL are the product's train; `vehicle`
# counts as wrong); then, with both feeds, per labelled mode the share of its time on legs given a
# transit line (triplegs.csv transit_route_type) and which types, and punctuality per line. One person: a measure of what
# the feeds change, not a score that transfers.
# Usage: scripts/data/mobilitynet_transit.sh [SHARED_DATA]   (default ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/../.."
shared=$(cd "${1:-../shared/data}" && pwd)
swift build -c release --product pipeline >&2
pipeline=$PWD/.build/release/pipeline
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 scripts/data/mobilitynet_inputs.py "$work/mnet" "$shared/gps/mobilitynet" 2>/dev/null
mkdir "$work/in"
mv "$work/mnet/ios-3" "$work/in/ios-3"
cp "$work/mnet/labels.csv" "$work/in/labels.csv"
{ head -1 "$work/mnet/manifest.csv"; grep '^ios-3/' "$work/mnet/manifest.csv"; } >"$work/in/manifest.csv"
bart=$shared/gtfs/bart-2018-05-26.zip caltrain=$shared/gtfs/caltrain-2017-10-02.zip
for side in none bart caltrain both; do
    case $side in
        none) feeds=() ;;
        bart) feeds=(--transit "$bart") ;;
        caltrain) feeds=(--transit "$caltrain") ;;
        both) feeds=(--transit "$bart" --transit "$caltrain") ;;
    esac
    "$pipeline" run "$work/in" --out "$work/out-$side" --model models/mode-model.json \
        --time-zone-boundaries models/time-zones.bin "${feeds[@]}" 2>"$work/$side.log"
    grep -h '^\[.*\] transit: [^ ]*: ' "$work/$side.log" | sed 's/^\[[^]]*\] /  /' || true
done
python3 - "$work" <<'PY'
import collections, csv, sys
work = sys.argv[1]
MODE = {"WALKING": "walk", "BICYCLING": "bike", "E_BIKE": "bike", "ESCOOTER": "bike", "CAR": "car", "BUS": "bus",
        "LIGHT_RAIL": "train", "TRAIN": "train", "SUBWAY": "train"}
labels = [row for row in csv.DictReader(open(f"{work}/in/labels.csv")) if row["mode"] in MODE]
sides = ["none", "bart", "caltrain", "both"]
right = {}
for side in sides:
    legs = [(float(r["started_unix_s"]), float(r["finished_unix_s"]), r["travel_mode"])
            for r in csv.DictReader(open(f"{work}/out-{side}/restricted/triplegs.csv"))]
    total, hit = collections.Counter(), collections.Counter()
    for label in labels:
        start, end, mode = float(label["start"]), float(label["end"]), label["mode"]
        total[mode] += end - start
        hit[mode] += sum(max(0, min(b, end) - max(a, start)) for a, b, m in legs if m == MODE[mode])
    right[side] = {mode: hit[mode] / total[mode] for mode in total} | {"all": sum(hit.values()) / sum(total.values())}
    minutes = {mode: total[mode] / 60 for mode in total} | {"all": sum(total.values()) / 60}
print(f"{'labelled mode':<14}{'minutes':>8}" + "".join(f"{side:>10}" for side in sides))
for mode in sorted(minutes, key=lambda m: (m == "all", m)):
    print(f"{mode:<14}{minutes[mode]:8.0f}" + "".join(f"{right[side][mode]:10.3f}" for side in sides))
# With both feeds: how much of each labelled mode's time lies on legs with a line, and of which type.
legs = [(float(r["started_unix_s"]), float(r["finished_unix_s"]), r["transit_route_type"] or "(no line)", r["transit_line_note"])
        for r in csv.DictReader(open(f"{work}/out-both/restricted/triplegs.csv"))]
print()
print(f"{'labelled mode':<14}{'minutes':>8}  time on legs with a line, by transit_route_type (both feeds)")
notes = collections.Counter()
for mode in sorted({label["mode"] for label in labels}):
    spans = [(float(l["start"]), float(l["end"])) for l in labels if l["mode"] == mode]
    total = sum(b - a for a, b in spans)
    by = collections.Counter()
    for a, b, kind, note in legs:
        covered = sum(max(0, min(b, end) - max(a, start)) for start, end in spans)
        by[kind] += covered
        if covered > 0 and note and mode in ("SUBWAY", "TRAIN", "LIGHT_RAIL"):
            notes[(mode, note)] += 1
    shares = ", ".join(f"{kind} {seconds / total:.3f}" for kind, seconds in by.most_common() if seconds > 0)
    print(f"{mode:<14}{total / 60:8.0f}  {shares}")
for (mode, note), count in sorted(notes.items()):
    print(f"  {mode}: {count} legs: {note}")
# With both feeds: the legs given a scheduled trip, per feed, and their delays; why the others got none.
rows = list(csv.DictReader(open(f"{work}/out-both/restricted/triplegs.csv")))
print()
for feed in sorted({r["transit_feed"] for r in rows if r["transit_feed"]}):
    lined = [r for r in rows if r["transit_feed"] == feed]
    timed = [r for r in lined if r["transit_trip_id"]]
    def median(values):
        values = sorted(values)
        return f"{values[len(values) // 2]:.0f} s" if values else "-"
    departures = [float(r["departure_delay_s"]) for r in timed if r["departure_delay_s"]]
    arrivals = [float(r["arrival_delay_s"]) for r in timed if r["arrival_delay_s"]]
    print(f"{feed}: {len(lined)} legs with a line, {len(timed)} with a scheduled trip; median departure delay "
          f"{median(departures)} ({len(departures)} legs), arrival delay {median(arrivals)} ({len(arrivals)} legs)")
    for note, count in collections.Counter(
            (r["timetable_note"].split(" is outside")[0] and "outside its service dates" if " is outside" in r["timetable_note"]
             else r["timetable_note"]) for r in lined if not r["transit_trip_id"]).most_common():
        print(f"  {count} legs: {note}")
PY
# Punctuality per line (punctuality.csv) with both feeds: what k = 3 persons publishes of one
# person's rides (nothing), and the table itself at k = 1, which only a run that identifies its
# one person may print (--allow-identifying-k: never to publish).
grep -h '\] punctuality: ' "$work/both.log" | sed 's/^\[[^]]*\] /  /' || true
printf 'privacy:\n  k: 1\n' >"$work/k1.yaml"
"$pipeline" run "$work/in" --out "$work/out-k1" --model models/mode-model.json --time-zone-boundaries models/time-zones.bin \
    --transit "$bart" --transit "$caltrain" --config "$work/k1.yaml" --allow-identifying-k 2>"$work/k1.log"
grep -h '\] punctuality: ' "$work/k1.log" | sed 's/^\[[^]]*\] /  /' || true
column -s, -t <"$work/out-k1/punctuality.csv"
