#!/usr/bin/env python3
"""Writes MobilityNet's labelled GPS legs (../shared/data/gps/mobilitynet, BSD-3-Clause, one
person carrying eight phones in the SF Bay Area) as the pipeline's own inputs, so `pipeline
train` and `evaluate` read them like any user's folder:

- reference/<timeline>/<trip>/<leg>_<run>.csv: each fused 1 Hz reference track (`with_ends`,
  the leg with its start and end) as a position table `time,latitude,longitude`, repeated
  times dropped (49 files repeat a `ts` a few metres apart);
- ios-3/<timeline>/<start>_<stop>.csv: the raw fixes of the evaluation_1 iPhone for each run,
  `time,latitude,longitude,accuracy_m`, without the stale fixes iOS hands back from before the
  run started and without repeated times;
- manifest.csv: every file's device and person (one person: `mobilitynet`), and each reference
  track's mode (the spec's mode for its leg);
- labels.csv: `device,start,end,mode` for the iPhone: every section of every run (from the
  accuracy-control phone's START/STOP_EVALUATION_SECTION events, the data set's ground truth)
  with its mode in the uploaded spec, walking access and transfer and STOPPED waits included.

Mode names are the data set's (WALKING, BICYCLING, E_BIKE, ESCOOTER, CAR, BUS, LIGHT_RAIL,
TRAIN, SUBWAY, STOPPED); the pipeline's mode table maps them (`ModeNames`). The folder is made
under the path given, which must not exist; nothing is written into ../shared/data.

Usage: scripts/data/mobilitynet_inputs.py OUT [DATA]   (DATA default ../shared/data/gps/mobilitynet)
"""
import csv
import json
import pathlib
import sys

TIMELINES = ["car_scooter_brex_san_jose", "train_bus_ebike_mtv_ucb", "unimodal_trip_car_bike_mtv_la"]
PERSON = "mobilitynet"
REFERENCE_DEVICE = "mobilitynet-reference"
PHONE = "ucb-sdb-ios-3"


def load_first(folder):
    return json.loads(next(folder.glob("*.json")).read_text())


def reference_tracks(root, out, manifest):
    modes = {}
    for spec_path in root.glob("spec_creation/final_sfbayarea/*.json"):
        spec = json.loads(spec_path.read_text())
        for trip in spec["evaluation_trips"]:
            for leg in trip.get("legs", [trip]):  # a one-leg trip carries the mode itself
                modes[spec["id"], trip["id"], leg["id"]] = leg["mode"]
    count = 0
    for path in sorted(root.glob("bin/data/*/with_ends/*/*")):
        timeline, _, trip, name = path.parts[-4:]
        leg, run = name.rsplit("_", 1)
        relative = pathlib.Path("reference", timeline, trip, f"{leg}_{run}.csv")
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        seen = set()
        with path.open(newline="") as source, target.open("w", newline="") as sink:
            writer = csv.writer(sink)
            writer.writerow(["time", "latitude", "longitude"])
            for row in csv.DictReader(source):
                if row["ts"] in seen:
                    continue
                seen.add(row["ts"])
                writer.writerow([row["ts"], row["latitude"], row["longitude"]])
        manifest.append([relative.as_posix(), REFERENCE_DEVICE, PERSON, modes[timeline, trip, leg]])
        count += 1
    return count


def phone_runs(root, out, manifest, labels):
    data = root / "bin" / "data"
    runs = sections = 0
    for timeline in TIMELINES:
        spec = load_first(data / "shankari@eecs.berkeley.edu" / timeline / "config~evaluation_spec")["data"]["label"]
        mode = {(t["id"], leg["id"]): leg["mode"] for t in spec["evaluation_trips"] for leg in t["legs"]}
        events = sorted((e["data"] for e in load_first(data / "ucb-sdb-ios-1" / timeline / "manual~evaluation_transition")
                         if e["data"]["spec_id"] == timeline), key=lambda d: d["ts"])
        files = sorted((data / PHONE / timeline / "background~location").glob("*.json"))
        n = -1
        for event in events:
            if event["transition"] == "START_EVALUATION_PERIOD":
                n += 1
                start = float(files[n].stem.split("_")[0])
                relative = pathlib.Path("ios-3", timeline, files[n].stem + ".csv")
                target = out / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                fixes = sorted((p["data"] for p in json.loads(files[n].read_text())), key=lambda d: d["ts"])
                seen = set()
                with target.open("w", newline="") as sink:
                    writer = csv.writer(sink)
                    writer.writerow(["time", "latitude", "longitude", "accuracy_m"])
                    for fix in fixes:
                        if fix["ts"] < start or fix["ts"] in seen:  # stale: iOS's last known location
                            continue
                        seen.add(fix["ts"])
                        writer.writerow([repr(fix["ts"]), repr(fix["latitude"]), repr(fix["longitude"]), repr(fix["accuracy"])])
                manifest.append([relative.as_posix(), PHONE, PERSON, ""])
                runs += 1
            elif event["transition"] == "START_EVALUATION_TRIP":
                trip = event["trip_id"]
            elif event["transition"] == "START_EVALUATION_SECTION":
                section_start = event["ts"]
            elif event["transition"] == "STOP_EVALUATION_SECTION":
                labels.append([PHONE, repr(section_start), repr(event["ts"]), mode[trip, event["trip_id"]]])
                sections += 1
    return runs, sections


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-1])
    out = pathlib.Path(sys.argv[1])
    root = pathlib.Path(sys.argv[2] if len(sys.argv) == 3 else "../shared/data/gps/mobilitynet")
    if not (root / "LICENSE").exists():
        sys.exit(f"MobilityNet not found at {root} (give its folder as the second argument)")
    out.mkdir(parents=True)  # fails when it exists: never write into a folder the caller has
    manifest, labels = [], []
    tracks = reference_tracks(root, out, manifest)
    runs, sections = phone_runs(root, out, manifest, labels)
    with (out / "manifest.csv").open("w", newline="") as sink:
        csv.writer(sink).writerows([["path", "device", "person", "mode"]] + manifest)
    with (out / "labels.csv").open("w", newline="") as sink:
        csv.writer(sink).writerows([["device", "start", "end", "mode"]] + labels)
    print(f"MobilityNet: {tracks} reference tracks, {runs} runs of {PHONE} with {sections} labelled sections -> {out}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
