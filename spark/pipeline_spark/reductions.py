"""The reductions of what crosses devices, as one Spark shuffle: each part's task emits its
partial groups (`partials`, from the part's renumbered Parquet, after renumber.py wrote it),
Spark moves every group to one reducer task (`bucket`), and the reducer merges the parts'
partials and writes the reduced tables as CSV into the run's work folder (`reduce_bucket`).
`pipeline publish --reduced` then applies every formula (k, medians, shares, quantiles,
means) and formatting rule with the single run's Swift code (PipelineRunner/Distributed/ReducedTables.swift).

The tables, per group:
  heat_cells            per map and cell: fixes summed, devices and persons counted over all
                        parts, dwell summed; heatmaps: each map's cell size, k and filter
  od_groups             per OD pair: trips, devices, persons (unioned by name over parts),
                        the durations, distances, main modes
  modal_totals          per modal-split key (the binary's, modal_keys.csv) and mode: trips,
                        distance and duration summed, persons (unioned by name over parts)
  train_comfort_groups  per train, and per route (route_comfort_groups): rides, devices,
                        persons (unioned by name over parts), N_MV and a_v values, classes, ratings' sums and counts, noise, delays

Merging is exact, not approximate: parts hold disjoint, contiguous ranges of devices in the
single run's order (plan.py), so devices add up across parts; persons (a person may have
devices in two parts) are unioned by name; lists are concatenated; and a sum of doubles is
taken over the values themselves, in the order a single run adds them (device order, then
data-set id order), so totals are the single run's to the last bit. Only what a group needs
moves: at most a number per device-cell, trip, tripleg or ride, never a fix.

This replaced six Spark SQL jobs over the Parquet datasets (the same groups), which took
16-23 s on the standalone pair at 100-1600 device-days for a few thousand rows; the reduce
stage of this shuffle takes 0.1-0.4 s there (scripts/bench/bench_spark.sh, spark/README.md)."""
import os
import time
import zlib

NMV_CLASSES = ["very comfortable", "comfortable", "medium", "uncomfortable", "very uncomfortable"]
RATINGS = ["cleanliness", "odours_temperature", "crowding", "service"]

COLUMNS = {
    "heat_cells": ["heat_map", "cell_id", "fixes", "devices", "persons", "dwell_s"],
    "heatmaps": ["heat_map", "cell_m", "min_devices", "filter"],
    "od_groups": ["origin_geofence_id", "destination_geofence_id", "trips", "devices", "persons", "durations_s", "distances_m", "main_modes"],
    "modal_totals": ["dimension", "dimension_value", "travel_mode", "trips", "distance_m", "duration_s", "persons"],
}
COMFORT_COLUMNS = (["rides", "measured_rides", "devices", "persons", "nmvs", "a_vs_mps2"]
                   + [f"class_{c.replace(' ', '_')}" for c in NMV_CLASSES]
                   + [f"{r}_{s}" for r in RATINGS for s in ("sum", "n")]
                   + ["noise_db_sum", "noise_n", "departure_delays_s", "arrival_delays_s"])
COMFORT = {"train_comfort_groups": ["train"], "route_comfort_groups": ["from_station", "to_station"]}
for _table, _keys in COMFORT.items():
    COLUMNS[_table] = _keys + COMFORT_COLUMNS


# --- the map side: one part's partial groups ---------------------------------------------

def read(folder, name, index, columns):
    """{column: values} of one part's table (None when the part has no such table)."""
    import pyarrow.parquet as pq
    path = os.path.join(folder, name, f"part={index}", f"part-{index}.parquet")
    if not os.path.exists(path):
        return None
    table = pq.read_table(path, columns=columns)
    return {c: table[c].to_pylist() for c in columns}


def rows(table):
    return zip(*table.values()) if table else ()


def partials(task):
    """(key, (part, partial)) for every group the part's rows fall in. The key's first field
    names the reduced table."""
    index, parquet_dir, tables_dir = task["index"], task["parquet_dir"], task["tables_dir"]
    persons = persons_of(task["part_dir"])
    yield from heat_partials(index, tables_dir)
    yield from od_partials(index, read(parquet_dir, "trips", index,
                                       ["device", "origin_geofence_id", "destination_geofence_id", "duration_s", "distance_m", "main_mode"]),
                           persons)
    yield from modal_partials(index, modal_keys(task),
                              read(parquet_dir, "trips", index, ["trip_id", "main_mode", "device"]),
                              read(parquet_dir, "triplegs", index, ["tripleg_id", "travel_mode", "distance_m", "duration_s", "device"]),
                              persons)
    yield from comfort_partials(index, parquet_dir, tables_dir, persons)


def heat_partials(index, tables_dir):
    maps = read(tables_dir, "heatmaps", index, ["map", "cell_m", "min_devices", "filter"])
    k_of = {}
    for name, cell_m, k, filter_ in rows(maps):
        k_of[name] = k
        yield ("heatmaps", name), (index, (cell_m, k, filter_))
    cells = read(tables_dir, "heatmap_device_cells", index, ["map", "cell_id", "device", "person", "fixes", "dwell_s"])
    groups = {}
    for name, cell, device, person, fixes, dwell in rows(cells):
        group = groups.setdefault((name, cell), [0, set(), set(), []])
        group[0] += fixes
        group[1].add(device)
        group[2].add(person if person is not None else device)
        group[3].append((device.encode("utf-8"), dwell))
    for (name, cell), (fixes, devices, persons, dwells) in groups.items():
        dwells.sort()  # device order, as a single run adds them
        yield ("heat_cells", name, cell), (index, (fixes, len(devices), sorted(persons), [d for _, d in dwells], k_of.get(name)))


def persons_of(part_dir):
    """{device: person} of the part's devices from its exported `input_files` (one row per
    input file, never per fix), by the rule of the store's `deviceIdentities`: the least person
    of the device's ingested files, the device itself where none is named."""
    import csv
    path = os.path.join(part_dir, "export", "input_files.csv")
    persons = {}
    if not os.path.exists(path):
        return persons
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            device = row.get("device")
            if not device or row.get("status") != "ingested":
                continue
            person = row.get("person") or device
            persons[device] = min(persons.get(device, person), person)
    return persons


def od_partials(index, trips, persons):
    groups = {}
    for device, origin, destination, duration, distance, mode in rows(trips):
        group = groups.setdefault((origin, destination), [0, set(), [], [], [], set()])
        group[0] += 1
        group[1].add(device)
        group[5].add(persons.get(device, device))
        if duration is not None:
            group[2].append(duration)
        if distance is not None:
            group[3].append(distance)
        group[4].append(mode if mode is not None else "unknown")
    for (origin, destination), (trips_, devices, durations, distances, modes, persons_) in groups.items():
        yield ("od_groups", origin, destination), (index, (trips_, len(devices), durations, distances, modes, sorted(persons_)))


def modal_keys(task):
    """{(kind, data-set id): [(dimension, key), …]} from the part's `modal_keys.csv`: the keys
    the binary gives each trip and leg (ModalTotal.keys: all, local hour, weekday, device),
    so the calendar arithmetic lives only in Swift."""
    import pyarrow.csv as pacsv
    path = os.path.join(task["part_dir"], "part-tables", "modal_keys.csv")
    if not os.path.exists(path):
        return {}
    table = pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(
        column_types={"kind": "string", "id": "int64", "dimension": "string", "dimension_value": "string"}, strings_can_be_null=False))
    offsets = {"trip": task["offsets"].get("trips", 0), "tripleg": task["offsets"].get("triplegs", 0)}
    keys = {}
    for kind, local, dimension, value in zip(*(table[c].to_pylist() for c in ("kind", "id", "dimension", "dimension_value"))):
        keys.setdefault((kind, local + offsets[kind]), []).append((dimension, value))
    return keys


def modal_partials(index, keys, trips, triplegs, persons=None):
    persons = persons or {}
    groups = {}
    for trip_id, mode, device in rows(trips):
        for dimension, key in keys[("trip", trip_id)]:
            group = groups.setdefault((dimension, key, mode if mode is not None else "unknown"), [0, [], set()])
            group[0] += 1
            group[2].add(persons.get(device, device))
    for tripleg_id, mode, distance, duration, device in rows(triplegs):
        for dimension, key in keys[("tripleg", tripleg_id)]:
            group = groups.setdefault((dimension, key, mode if mode is not None else "unknown"), [0, [], set()])
            group[1].append((tripleg_id, distance, duration))
            group[2].add(persons.get(device, device))
    for (dimension, key, mode), (trips_, legs, persons_) in groups.items():
        yield ("modal_totals", dimension, key, mode), (index, (trips_, legs, sorted(persons_)))


def comfort_partials(index, parquet_dir, tables_dir, persons=None):
    persons = persons or {}
    rides = read(parquet_dir, "rides", index, ["ride_id", "source", "checkin_id", "device", "comfort_band", "nmv", "nmv_class", "a_v",
                                               "departure_delay_s", "arrival_delay_s"])
    checkins = read(tables_dir, "checkins", index, ["id", "train", "from_station", "to_station", *RATINGS, "noise_db"])
    if not rides or not checkins:
        return
    by_id = {row[0]: row for row in rows(checkins)}
    groups = {}
    for ride_id, source, checkin_id, device, band, nmv, nmv_class, a_v, departure, arrival in rows(rides):
        if source != "checkin" or checkin_id not in by_id:
            continue
        _, train, origin, destination, *ratings, noise = by_id[checkin_id]
        measured = band is not None
        for table, key in (("train_comfort_groups", (train,)), ("route_comfort_groups", (origin, destination))):
            g = groups.setdefault((table, *key), {"rides": 0, "measured": 0, "devices": set(), "persons": set(), "nmvs": [], "a_vs": [],
                                                  "classes": [0] * len(NMV_CLASSES), "ratings": [[0, 0] for _ in RATINGS],
                                                  "noise": [], "departures": [], "arrivals": []})
            g["rides"] += 1
            g["devices"].add(device)
            g["persons"].add(persons.get(device, device))
            if measured:
                g["measured"] += 1
                if nmv is not None:
                    g["nmvs"].append(nmv)
                if a_v is not None:
                    g["a_vs"].append(a_v)
                if nmv_class in NMV_CLASSES:
                    g["classes"][NMV_CLASSES.index(nmv_class)] += 1
            for total, value in zip(g["ratings"], ratings):
                if value is not None:
                    total[0] += value
                    total[1] += 1
            g["noise"].append((ride_id, noise))
            if departure is not None:
                g["departures"].append(departure)
            if arrival is not None:
                g["arrivals"].append(arrival)
    for key, g in groups.items():
        g["devices"] = len(g["devices"])
        g["persons"] = sorted(g["persons"])
        yield key, (index, g)


# --- the shuffle and the reduce side -----------------------------------------------------

def bucket(key):
    """The reducer of a group: a hash that is the same in every executor's Python (str hashes
    are salted per process)."""
    return zlib.crc32(repr(key).encode("utf-8"))


def reduce_bucket(reducer, items, folder, with_comfort):
    """Merges every group of one reducer and writes its files `folder`/<table>/part-<reducer>.csv
    (a header even when empty: a table's folder always exists). Yields its seconds and the
    negative control's count (overall-map cells that some part alone would have published)."""
    started = time.time()
    groups = {}
    passed = []
    for key, value in items:
        if key[0] == "summary":
            passed.append(value)
        else:
            groups.setdefault(key, []).append(value)
    out = {table: [] for table in COLUMNS if with_comfort or table not in COMFORT}
    per_part = 0
    for key, values in groups.items():
        values.sort(key=lambda v: v[0])  # part order: device order
        merged = [v[1] for v in values]
        table = key[0]
        if table == "heat_cells":
            fixes, devices, persons, dwell = 0, 0, set(), 0.0
            for f, d, p, dwells, _ in merged:
                fixes, devices = fixes + f, devices + d
                persons.update(p)
                for x in dwells:
                    dwell += x
            out[table].append([key[1], key[2], fixes, devices, len(persons), dwell])
            if key[1] == "all":  # the negative control: would some part alone have published the cell?
                per_part += any(k is not None and len(p) >= k for _, _, p, _, k in merged)
        elif table == "heatmaps":
            cell_m, k, filter_ = merged[0]
            out[table].append([key[1], cell_m, k, filter_])
        elif table == "od_groups":
            out[table].append([key[1], key[2], sum(m[0] for m in merged), sum(m[1] for m in merged),
                               len(set(p for m in merged for p in m[5])),
                               numbers(x for m in merged for x in m[2]), numbers(x for m in merged for x in m[3]),
                               " ".join(x for m in merged for x in m[4])])
        elif table == "modal_totals":
            legs = sorted((leg for m in merged for leg in m[1]), key=lambda leg: leg[0])  # data-set id order
            out[table].append([key[1], key[2], key[3], sum(m[0] for m in merged), ordered_sum(leg[1] for leg in legs),
                               ordered_sum(leg[2] for leg in legs), len(set(p for m in merged for p in m[2]))])
        elif table in out:
            out[table].append(list(key[1:]) + comfort_row(merged))
    for table, found in out.items():
        write_csv(os.path.join(folder, table, f"part-{reducer:05d}.csv"), COLUMNS[table], found)
    yield {"reducer": reducer, "started": started, "finished": time.time(), "cells_if_k_per_part": per_part, "summaries": passed}


def ordered_sum(values):
    """A sum of doubles in the given order; NULL when one is NULL (Spark SQL's `acc + NULL`,
    which the reduced table then writes as 0)."""
    total = 0.0
    for x in values:
        if x is None:
            return 0.0
        total += x
    return total


def comfort_row(merged):
    noise = sorted((n for g in merged for n in g["noise"]), key=lambda n: n[0])  # ride id order
    noise_sum = 0.0
    for _, value in noise:
        noise_sum += value if value is not None else 0.0
    row = [sum(g["rides"] for g in merged), sum(g["measured"] for g in merged), sum(g["devices"] for g in merged),
           len(set(p for g in merged for p in g.get("persons", []))),
           numbers(x for g in merged for x in g["nmvs"]), numbers(x for g in merged for x in g["a_vs"])]
    row += [sum(g["classes"][i] for g in merged) for i in range(len(NMV_CLASSES))]
    for i in range(len(RATINGS)):
        row += [sum(g["ratings"][i][0] for g in merged), sum(g["ratings"][i][1] for g in merged)]
    row += [noise_sum, sum(1 for _, v in noise if v is not None),
            numbers(x for g in merged for x in g["departures"]), numbers(x for g in merged for x in g["arrivals"])]
    return row


def numbers(values):
    """Ascending, as one field of shortest round-trip texts separated by spaces."""
    return " ".join(repr(float(v)) for v in sorted(values))


def field(value):
    """RFC 4180, as ReducedTables reads it: NULL an empty field, "" the empty string."""
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    text = str(value)
    if text == "" or any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def write_csv(path, columns, table_rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".partial", "w", encoding="utf-8", newline="") as f:
        f.write(",".join(columns) + "\n")
        for row in table_rows:
            f.write(",".join(field(v) for v in row) + "\n")
    os.replace(path + ".partial", path)
