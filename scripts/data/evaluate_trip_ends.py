#!/usr/bin/env python3
"""How close the trip stage's trip ends lie to the places a travel diary says its person stayed.

Usage: evaluate_trip_ends.py OUT_FOLDER CBS_SPLIT_BY_DAY_FOLDER [--json]

Reads OUT_FOLDER/restricted/trips.csv (a `pipeline run` over `panel_inputs` of
scripts/data/shared_inputs.sh, whose devices `cbs-utrechtN-phone` are the diary's users
`UtrechtN`) and the diary rows of ../shared/data/gps/cbs-ssi (`stop` TRUE while the person
stayed, FALSE while they travelled, its README). At a trip's start the diary's rows of the 15
minutes up to it are read, at its end those of the 15 minutes from it (a diary's stays run for
days where its person noted no trip, so only the rows near the time say where they were):
- `at_stay`: some say the person stayed, and the end lies within 200 m of their median position;
- `far`: some say the person stayed, and the end lies farther;
- `moving`: all say the person was travelling (the trip stage cut a journey the diary has whole);
- `no_rows`: the diary has no row then (left out of the share).

Prints, per end kind (trips.csv origin_kind, destination_kind), the ends of each verdict and
the share `at_stay` of those judged; `--json` prints the same as one object. The diary is
EUPL-1.2 and evaluation only: nothing here trains or tunes anything.
"""
import bisect
import calendar
import csv
import glob
import json
import math
import os
import statistics
import sys
from datetime import datetime

WITHIN_M = 200.0
WINDOW_S = 900.0
VERDICTS = ("at_stay", "far", "moving", "no_rows")


def seconds(text):
    return float(calendar.timegm(datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").timetuple()))  # UTC, whatever the machine's zone


def metres(a, b):
    (lat1, lon1), (lat2, lon2) = a, b
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1.0, math.sqrt(h)))


def diary_rows(folder):
    """user -> ([time_s], [(stop, lat, lon)]), in time order."""
    rows = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.csv"))):
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                rows.setdefault(row["user_id"], []).append(
                    (seconds(row["timestamp"]), row["stop"] == "TRUE", float(row["latitude"]), float(row["longitude"])))
    diary = {}
    for user, points in rows.items():
        points.sort()
        diary[user] = ([p[0] for p in points], [p[1:] for p in points])
    return diary


def judge(diary, t, origin, place):
    """`at_stay`, `far`, `moving` or `no_rows` for an end at `place` at time `t`."""
    times, rows = diary
    lo, hi = (t - WINDOW_S, t) if origin else (t, t + WINDOW_S)
    near = rows[bisect.bisect_left(times, lo):bisect.bisect_right(times, hi)]
    if not near:
        return "no_rows"
    stayed = [(lat, lon) for stop, lat, lon in near if stop]
    if not stayed:
        return "moving"
    centre = (statistics.median(p[0] for p in stayed), statistics.median(p[1] for p in stayed))
    return "at_stay" if metres(place, centre) <= WITHIN_M else "far"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    out, diary = args
    diary = diary_rows(diary)
    tally = {}
    with open(os.path.join(out, "restricted", "trips.csv"), newline="", encoding="utf-8") as f:
        for trip in csv.DictReader(f):
            device = trip["device"]
            if not (device.startswith("cbs-utrecht") and device.endswith("-phone")):
                continue
            user = "Utrecht" + device[len("cbs-utrecht"):-len("-phone")]
            for end, time in (("origin", trip["started_unix_s"]), ("destination", trip["finished_unix_s"])):
                entry = tally.setdefault(trip[end + "_kind"] or "none", dict.fromkeys(VERDICTS, 0))
                if not trip[end + "_lat"]:
                    entry["no_rows"] += 1
                    continue
                place = (float(trip[end + "_lat"]), float(trip[end + "_lon"]))
                entry[judge(diary.get(user, ([], [])), float(time), end == "origin", place)] += 1
    every = {k: sum(e[k] for e in tally.values()) for k in VERDICTS}
    for entry in list(tally.values()) + [every]:
        judged = entry["at_stay"] + entry["far"] + entry["moving"]
        entry["share_at_stay"] = round(entry["at_stay"] / judged, 3) if judged else None
    if "--json" in sys.argv:
        print(json.dumps({"kinds": tally, "all": every}, indent=2, sort_keys=True))
        return
    print(f"{'end kind':<12} " + " ".join(f"{v:>8}" for v in VERDICTS) + f" {'share at stay':>14}")
    for kind, e in sorted(tally.items()) + [("all", every)]:
        share = "" if e["share_at_stay"] is None else f"{e['share_at_stay']:.3f}"
        print(f"{kind:<12} " + " ".join(f"{e[v]:>8}" for v in VERDICTS) + f" {share:>14}")


if __name__ == "__main__":
    main()
