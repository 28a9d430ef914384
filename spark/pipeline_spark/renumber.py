"""A part's rows with data-set ids, on an executor: its per-device files as chunks to
concatenate (global/) and its tables as Parquet (parquet/, published; tables/, what the
merge reads).

A single run numbers rows in device order, then time order; the parts hold contiguous
ranges of devices in that order (plan.py), so a row's data-set id is its id in the part
plus the rows of that kind in the parts before (`offsets`, computed by the driver from the
parts' counts: a few numbers per part). Rides are numbered check-ins first: a check-in's
ride follows the check-in rides of the parts before, a recording's ride all check-in rides
and the recording rides of the parts before. Rows are copied as the binary wrote them; only
id fields change."""
import os
import re
import sqlite3

from . import layout, rawcsv

# The per-device files a part writes whole (concatenated in part order), and its GeoJSON
# files. Which of their columns hold ids, and of which rows, is the binary's
# (`pipeline schema --json`: id_of), passed in by the driver (`id_columns`); a GeoJSON file's
# features carry the ids of the CSV of its name.
CSV_FILES = ["staypoints.csv", "dwells.csv", "locations.csv", "triplegs.csv", "trips.csv", "modes.csv", "device_stats.csv",
             "person_days.csv", "untracked.csv", "tours.csv"]
GEOJSON_FILES = ["staypoints.geojson", "triplegs.geojson", "dwells.geojson"]
RIDE_FILES = ["rides.csv", "stops.csv", "events.csv"]
RIDE_CHUNKS = ["none", "checkin", "recording"]  # stops and events without a ride sort first (ride id 0)


def records(text):
    """Raw fields of each record: lines without a quote split at commas (C speed); a quoted
    line, joined with the next while its quotes are open, goes through rawcsv."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    i = 0
    while i < len(lines):
        line = lines[i]
        if '"' not in line:
            yield line.split(",")
        else:
            while line.count('"') % 2 == 1:
                i += 1
                line += "\n" + lines[i]
            yield next(rawcsv.records(line + "\n"))
        i += 1


def header_and_rows(text):
    rows = records(text)
    header = next(rows, None)
    return ([rawcsv.unquote(f) for f in header] if header else []), rows


def shifted(field, offset):
    return field if field == "" or offset == 0 else str(int(field) + offset)


class Numbering:
    """The data-set ids of one part."""

    def __init__(self, offsets, rides, id_columns, locations=None):
        self.offsets = offsets  # id space -> rows in the parts before
        self.id_columns = id_columns  # file -> {column: id space}, from `pipeline schema --json`
        self.rides = rides  # {"checkin_before", "recording_before", "checkin_total", "checkin_here"}
        self.locations = locations  # dataset scope: ({staypoint id: location}, {trip id: (origin, destination)}), data-set ids

    def ride(self, local):
        if local <= self.rides["checkin_here"]:
            return local + self.rides["checkin_before"]
        return local - self.rides["checkin_here"] + self.rides["checkin_total"] + self.rides["recording_before"]

    def ride_chunk(self, local_field):
        if local_field == "":
            return "none"
        return "checkin" if int(local_field) <= self.rides["checkin_here"] else "recording"


def renumber_csv(name, text, numbering):
    """(header line, rows text) of one per-device file with data-set ids."""
    columns, rows = header_and_rows(text)
    plan = [(columns.index(c), numbering.offsets.get(space, 0)) for c, space in numbering.id_columns.get(name, {}).items() if c in columns]
    relabel = None
    if numbering.locations is not None and name == "staypoints.csv":
        staypoints = numbering.locations[0]
        at, to = columns.index("staypoint_id"), columns.index("location_id")
        plan = [p for p in plan if p[0] != to]
        relabel = lambda row: row.__setitem__(to, text_of(staypoints.get(int(row[at]))))  # noqa: E731
    elif numbering.locations is not None and name == "trips.csv":
        trips = numbering.locations[1]
        at, o, d = columns.index("trip_id"), columns.index("origin_location_id"), columns.index("destination_location_id")
        plan = [p for p in plan if p[0] not in (o, d)]

        def relabel(row):
            row[o], row[d] = (text_of(v) for v in trips.get(int(row[at]), (None, None)))
    out = []
    for row in rows:
        for i, offset in plan:
            row[i] = shifted(row[i], offset)
        if relabel:
            relabel(row)
        out.append(rawcsv.line(row))
    return text.split("\n", 1)[0] + "\n", "".join(out)


def text_of(value):
    return "" if value is None else str(value)


def renumber_ride_files(files, numbering):
    """{file: (header, {chunk: rows text})} for rides.csv, stops.csv and events.csv."""
    result = {}
    for name in RIDE_FILES:
        if name not in files:
            continue
        columns, rows = header_and_rows(files[name])
        at = columns.index("ride_id")
        chunks = {c: [] for c in RIDE_CHUNKS}
        for row in rows:
            local = row[at]
            chunk = numbering.ride_chunk(local)
            if local != "":
                row[at] = str(numbering.ride(int(local)))
            chunks[chunk].append((int(row[at]) if row[at] else 0, row))
        result[name] = (files[name].split("\n", 1)[0] + "\n",
                        {c: "".join(rawcsv.line(r) for _, r in sorted(rows, key=lambda k: k[0])) for c, rows in chunks.items()})
    return result


def renumber_geojson(name, text, numbering):
    """(prefix, features joined by ",\\n", suffix)."""
    start, end = text.index("[") + 1, text.rindex("]")
    body = text[start:end]
    out = []
    relabel = numbering.locations is not None and name == "staypoints.geojson"
    for feature in (body.split(",\n") if body.strip() else []):
        for prop, space in numbering.id_columns.get(name.replace(".geojson", ".csv"), {}).items():
            offset = numbering.offsets.get(space, 0)
            if relabel and prop == "location_id":
                continue
            if offset:
                feature = re.sub(r'"%s":(\d+)' % prop, lambda m: '"%s":%d' % (prop, int(m.group(1)) + offset), feature)
        if relabel:
            feature = relabel_location(feature, numbering.locations[0])
        out.append(feature)
    return text[:start], ",\n".join(out), text[end:]


def relabel_location(feature, staypoints):
    """A staypoint feature with its location id from the data-set pass. Properties are
    written with sorted keys, so location_id, when a staypoint has one, sits right before
    started_at."""
    feature = re.sub(r'"location_id":\d+,', "", feature)
    stay = int(re.search(r'"staypoint_id":(\d+)', feature).group(1))
    location = staypoints.get(stay)
    return feature if location is None else feature.replace('"started_at":', f'"location_id":{location},"started_at":', 1)


def dataset_locations(store_path, offsets, counts):
    """This part's staypoints' and trips' location ids from the merged store of the data-set
    pass (read-only, immutable: many executors read it at once)."""
    uri = f"file:{store_path}?mode=ro&immutable=1"
    with sqlite3.connect(uri, uri=True) as db:
        s0, t0 = offsets.get("staypoints", 0), offsets.get("trips", 0)
        staypoints = dict(db.execute("SELECT id, location_id FROM staypoints WHERE id > ? AND id <= ?", (s0, s0 + counts["staypoints"])))
        trips = {r[0]: (r[1], r[2]) for r in db.execute(
            "SELECT id, origin_location_id, destination_location_id FROM trips WHERE id > ? AND id <= ?", (t0, t0 + counts["trips"]))}
    return staypoints, trips


def write_chunks(part_dir, files, numbering):
    """The part's per-device files with data-set ids into part_dir/global/."""
    target = os.path.join(part_dir, "global")
    for name in CSV_FILES:
        if name in files:
            header, rows = renumber_csv(name, files[name], numbering)
            layout.write_text(os.path.join(target, name + ".header"), header)
            layout.write_text(os.path.join(target, name + ".rows"), rows)
    for name, (header, chunks) in renumber_ride_files(files, numbering).items():
        layout.write_text(os.path.join(target, name + ".header"), header)
        for chunk, rows in chunks.items():
            layout.write_text(os.path.join(target, f"{name}.{chunk}.rows"), rows)
    for name in GEOJSON_FILES:
        if name in files:
            prefix, features, suffix = renumber_geojson(name, files[name], numbering)
            layout.write_text(os.path.join(target, name + ".prefix"), prefix)
            layout.write_text(os.path.join(target, name + ".features"), features)
            layout.write_text(os.path.join(target, name + ".suffix"), suffix)


def renumber_part(task):
    """Stage 5 of job.py for one part: returns the rows written per Parquet table and the
    task's seconds."""
    import time
    started = time.time()
    part_dir, index = task["part_dir"], task["index"]
    locations = None
    if task.get("merged_store"):
        locations = dataset_locations(task["merged_store"], task["offsets"], task["counts"])
    numbering = Numbering(task["offsets"], task["rides"], task["id_columns"], locations)
    folder = os.path.join(part_dir, "part-tables")
    files = {name: layout.read_text(os.path.join(folder, name)) for name in os.listdir(folder)
             if name in CSV_FILES or name in RIDE_FILES or name in GEOJSON_FILES}  # not partials/: reductions.py reads it
    write_chunks(part_dir, files, numbering)
    from . import parquet_tables
    rows = parquet_tables.write_part(part_dir, index, numbering, task["parquet_dir"], task["tables_dir"])
    return {"rows": rows, "seconds": time.time() - started}
