"""The per-device files of a run (staypoints, dwells, locations, triplegs, trips, device
statistics, classified windows, rides, stops, events and their GeoJSON), joined from the
parts' own files in part order.

A single run numbers these rows in device order, then time order; the parts hold
contiguous ranges of devices in that order (plan.py), so a row's id in the data set is its
id in its part plus the rows of that kind in the parts before. Rows are copied as the
binary wrote them; only ids are renumbered (and device_stats gains the columns of modes
another part has, at zero)."""
import re

from . import rawcsv

# file -> {column: id space}
ID_COLUMNS = {
    "staypoints.csv": {"staypoint_id": "staypoints", "location_id": "locations"},
    "dwells.csv": {"dwell_id": "dwells"},
    "locations.csv": {"location_id": "locations"},
    "triplegs.csv": {"tripleg_id": "triplegs", "trip_id": "trips", "previous_staypoint_id": "staypoints", "next_staypoint_id": "staypoints"},
    "trips.csv": {"trip_id": "trips", "origin_staypoint_id": "staypoints", "destination_staypoint_id": "staypoints",
                  "origin_location_id": "locations", "destination_location_id": "locations"},
}
GEOJSON_IDS = {
    "staypoints.geojson": {"staypoint_id": "staypoints", "location_id": "locations"},
    "triplegs.geojson": {"tripleg_id": "triplegs", "trip_id": "trips"},
    "dwells.geojson": {"dwell_id": "dwells"},
}
MODE_ORDER = ["still", "walk", "bike", "car", "bus", "train", "boat", "airplane"]


def mode_rank(name):
    return MODE_ORDER.index(name) if name in MODE_ORDER else len(MODE_ORDER)


def counts(files):
    """Rows of each id space in one part."""
    space = {"staypoints.csv": "staypoints", "dwells.csv": "dwells", "locations.csv": "locations", "triplegs.csv": "triplegs",
             "trips.csv": "trips"}
    return {space[name]: len(rawcsv.table(files.get(name, ""))[1]) for name in space}


def offsets(parts):
    """Per part, the rows of each id space in the parts before it."""
    running, result = {}, []
    for part in parts:
        result.append(dict(running))
        for k, v in counts(part["files"]).items():
            running[k] = running.get(k, 0) + v
    return result


def shifted(field, offset):
    return field if field == "" or offset == 0 else str(int(field) + offset)


def join_csv(name, parts, offs):
    header, out = None, []
    for part, off in zip(parts, offs):
        text = part["files"].get(name)
        if text is None:
            continue
        columns, rows = rawcsv.table(text)
        header = header or text.split("\n", 1)[0] + "\n"
        plan = [(columns.index(c), off.get(space, 0)) for c, space in ID_COLUMNS.get(name, {}).items() if c in columns]
        for row in rows:
            for i, o in plan:
                row[i] = shifted(row[i], o)
            out.append(rawcsv.line(row))
    return None if header is None else header + "".join(out)


def join_device_stats(parts):
    tables = [rawcsv.table(p["files"]["device_stats.csv"]) for p in parts if "device_stats.csv" in p["files"]]
    if not tables:
        return None
    fixed = tables[0][0][:12]
    modes = sorted({c[len("time_"):-len("_h")] for cols, _ in tables for c in cols if c.startswith("time_") and c.endswith("_h")},
                   key=lambda m: (mode_rank(m), m))
    columns = fixed + [f"time_{m}_h" for m in modes] + [f"distance_{m}_m" for m in modes] + [f"weekly_{m}_h" for m in modes]
    zero = {"time": "0.000", "distance": "0.0", "weekly": "0.000"}
    out = [rawcsv.line(columns)]
    for cols, rows in tables:
        where = {c: i for i, c in enumerate(cols)}
        for row in rows:
            out.append(rawcsv.line([row[where[c]] if c in where else zero[c.split("_", 1)[0]] for c in columns]))
    return "".join(out)


def join_rides(parts):
    """rides.csv lists the check-ins' rides of every device first, then the rides found in
    recordings; stops.csv and events.csv follow the rides. Ride ids are renumbered in that
    order."""
    rides, stops, events, header = [], [], [], {}
    for part in parts:
        files = part["files"]
        if "rides.csv" not in files:
            continue
        for name in ("rides.csv", "stops.csv", "events.csv"):
            header.setdefault(name, files[name].split("\n", 1)[0] + "\n")
        columns, rows = rawcsv.table(files["rides.csv"])
        source, ride_id = columns.index("source"), columns.index("ride_id")
        for row in rows:
            rides.append((0 if rawcsv.unquote(row[source]) == "checkin" else 1, part["index"], row[ride_id], row))
        for name, into in (("stops.csv", stops), ("events.csv", events)):
            cols, rs = rawcsv.table(files[name])
            at = cols.index("ride_id")
            for r in rs:
                into.append((part["index"], r[at], at, r))
    if not rides:
        return {}
    rides.sort(key=lambda r: (r[0], r[1]))  # stable: each part's own order within
    new_id = {}
    for n, (_, part, old, row) in enumerate(rides, start=1):
        new_id[(part, old)] = str(n)
        row[0] = str(n)

    def renumbered(rows):
        keyed = []
        for part, old, at, row in rows:
            if old != "":
                row[at] = new_id[(part, old)]
            keyed.append((int(row[at]) if row[at] else 0, row))
        keyed.sort(key=lambda k: k[0])
        return "".join(rawcsv.line(r) for _, r in keyed)

    return {"rides.csv": header["rides.csv"] + "".join(rawcsv.line(r[3]) for r in rides),
            "stops.csv": header["stops.csv"] + renumbered(stops), "events.csv": header["events.csv"] + renumbered(events)}


def join_geojson(name, parts, offs):
    prefix, suffix, features = None, None, []
    for part, off in zip(parts, offs):
        text = part["files"].get(name)
        if text is None:
            continue
        start = text.index("[") + 1
        end = text.rindex("]")
        prefix, suffix = text[:start], text[end:]
        body = text[start:end]
        for feature in (body.split(",\n") if body.strip() else []):
            for prop, space in GEOJSON_IDS[name].items():
                o = off.get(space, 0)
                if o:
                    feature = re.sub(r'"%s":(\d+)' % prop, lambda m: '"%s":%d' % (prop, int(m.group(1)) + o), feature)
            features.append(feature)
    return None if prefix is None else prefix + ",\n".join(features) + suffix


def join_all(parts):
    """{file name: text} of every per-device file."""
    parts = sorted(parts, key=lambda p: p["index"])
    offs = offsets(parts)
    files = {}
    for name in ID_COLUMNS:
        files[name] = join_csv(name, parts, offs)
    files["modes.csv"] = join_csv("modes.csv", parts, offs)
    files["device_stats.csv"] = join_device_stats(parts)
    files.update(join_rides(parts))
    for name in GEOJSON_IDS:
        files[name] = join_geojson(name, parts, offs)
    return {k: v for k, v in files.items() if v is not None}
