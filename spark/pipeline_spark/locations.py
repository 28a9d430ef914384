"""Locations clustered across devices (`trips.locations.scope: dataset`): one pass over every
part's staypoints at once, after the merge.

DBSCAN's clusters depend on every staypoint near every other, whichever device or part it
came from, so per-part locations cannot be merged (a prototype found 84 where one pass finds
45). The merged store holds every staypoint with the single run's ids; `pipeline locations`
clusters them there with the single run's code (Trips/LocationClusterer) and writes
locations.csv, and the location ids of staypoints.csv, trips.csv and staypoints.geojson are
then set from the store. Staypoints are few next to fixes (a device has a handful a day), so
this pass runs on the driver."""
import re
import sqlite3
import subprocess

from . import rawcsv


def global_pass(binary, store_path, out_dir, config_args):
    """Runs `pipeline locations` on the merged store; returns its log line."""
    done = subprocess.run([binary, "locations", "--store", store_path, "--out", out_dir] + config_args,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"pipeline locations failed ({done.returncode}): {done.stderr.strip()}")
    return done.stderr.strip()


def assignments(store_path):
    """{staypoint id: location id or None}, {trip id: (origin, destination location ids)}."""
    with sqlite3.connect(store_path) as db:
        staypoints = dict(db.execute("SELECT id, location_id FROM staypoints"))
        trips = {r[0]: (r[1], r[2]) for r in db.execute("SELECT id, origin_location_id, destination_location_id FROM trips")}
    return staypoints, trips


def text_of(value):
    return "" if value is None else str(value)


def relabel_csv(text, id_column, target_columns, values_of):
    """`text` with each row's `target_columns` set to `values_of(the row's id)`."""
    columns, rows = rawcsv.table(text)
    at, targets = columns.index(id_column), [columns.index(c) for c in target_columns]
    out = [text.split("\n", 1)[0] + "\n"]
    for row in rows:
        for i, value in zip(targets, values_of(int(row[at]))):
            row[i] = text_of(value)
        out.append(rawcsv.line(row))
    return "".join(out)


def relabel_geojson(text, staypoints):
    """staypoints.geojson with each feature's location_id from the store. Properties are
    written with sorted keys (device, duration_s, finished_at, fixes, is_activity,
    location_id, started_at, staypoint_id), so location_id, when a staypoint has one, sits
    right before started_at."""
    def feature(match):
        body = re.sub(r'"location_id":\d+,', "", match.group(0))
        stay = int(re.search(r'"staypoint_id":(\d+)', body).group(1))
        location = staypoints.get(stay)
        return body if location is None else body.replace('"started_at":', f'"location_id":{location},"started_at":', 1)
    return re.sub(r'"properties":\{[^{}]*\}', feature, text)


def relabel(files, store_path):
    """Sets the location ids of the per-device files in `files` from the store."""
    staypoints, trips = assignments(store_path)
    if "staypoints.csv" in files:
        files["staypoints.csv"] = relabel_csv(files["staypoints.csv"], "staypoint_id", ["location_id"], lambda i: [staypoints.get(i)])
    if "trips.csv" in files:
        files["trips.csv"] = relabel_csv(files["trips.csv"], "trip_id", ["origin_location_id", "destination_location_id"],
                                         lambda i: trips.get(i, (None, None)))
    if "staypoints.geojson" in files:
        files["staypoints.geojson"] = relabel_geojson(files["staypoints.geojson"], staypoints)
