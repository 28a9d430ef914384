"""What crosses devices, computed in Spark SQL over every part's rows at full precision:
the heat maps (devices counted over all parts, then k), the origin-destination table (exact
medians) and the modal split. Formatting follows the binary's writers (Reports/TripTables,
Reports/HeatMapFiles): printf-style rounding of the exact double, as Swift's
String(format:) does.

Sums run in the order a single run adds: device order (the parts' order), then each
device's rows in id order, so totals are the single run's to the last bit."""
from . import rawcsv
from .device_files import mode_rank

WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def csv_text(columns, rows):
    return "".join(rawcsv.line([quote(v) for v in r]) for r in [columns] + rows)


def quote(value):
    """CSVWriter's rule (RFC 4180): quote a field holding a comma, quote, CR or LF; NULL empty."""
    if value is None:
        return ""
    if any(c in value for c in ',"\r\n'):
        return '"' + value.replace('"', '""') + '"'
    return value


def number(value, decimals):
    return "%.*f" % (decimals, value)


def ordered_sum(column):
    """The sum of `column` over a group in (part, id) order: the single run's order."""
    return f"aggregate(array_sort(collect_list(struct(part, id, {column}))), 0D, (acc, x) -> acc + x.{column})"


def median(column):
    a = f"array_sort(collect_list({column}))"
    return (f"CASE WHEN size({a}) % 2 = 1 THEN element_at({a}, CAST(size({a}) / 2 AS INT) + 1) "
            f"ELSE (element_at({a}, CAST(size({a}) / 2 AS INT)) + element_at({a}, CAST(size({a}) / 2 AS INT) + 1)) / 2 END")


# OutputSchema.modeNames: every file's per-mode columns cover these, whatever occurred.
MODE_NAMES = ["still", "walk", "bike", "car", "bus", "train", "boat", "airplane", "unknown"]


def geofence_names(spark):
    return {r[0]: r[1] for r in spark.sql("SELECT geofence_id, name FROM geofences").collect()}


def od_matrix(spark):
    modes, names = MODE_NAMES, geofence_names(spark)
    rows = spark.sql(f"""
        SELECT origin_geofence_id AS o, destination_geofence_id AS d, COUNT(*) AS trips, COUNT(DISTINCT device) AS devices,
               {median('duration_s')} AS median_duration_s, {median('distance_m')} AS median_distance_m,
               collect_list(COALESCE(main_mode, 'unknown')) AS trip_modes
        FROM trips GROUP BY origin_geofence_id, destination_geofence_id""").collect()
    rows = sorted(rows, key=lambda r: (-r.trips, (r.o or "").encode(), (r.d or "").encode()))
    out = []
    for r in rows:
        shares = {}
        for m in r.trip_modes:  # as ODMatrix adds them: 1/n per trip
            shares[m] = shares.get(m, 0.0) + 1 / r.trips
        out.append([r.o, names.get(r.o, r.o) if r.o is not None else "(no geofence)", r.d,
                    names.get(r.d, r.d) if r.d is not None else "(no geofence)", str(r.trips), str(r.devices),
                    number(r.median_duration_s, 1), number(r.median_distance_m, 1)] + [number(shares.get(m, 0.0), 4) for m in modes])
    columns = ["origin_geofence_id", "origin_name", "destination_geofence_id", "destination_name", "trips", "devices",
               "median_duration_s", "median_distance_m"] + [f"share_{m}" for m in modes]
    return csv_text(columns, out)


def calendar_keys(column, offset_s):
    local = f"({column} + {offset_s!r}D)"
    hour = f"lpad(CAST(least(23, CAST(({local} - floor({local} / 86400D) * 86400D) / 3600D AS INT)) AS STRING), 2, '0')"
    weekday = f"element_at(array({', '.join(repr(w) for w in WEEKDAYS)}), CAST(pmod(floor({local} / 86400D) + 3, 7) AS INT) + 1)"
    return (f"explode(array(named_struct('dimension', 'all', 'key', 'all'), named_struct('dimension', 'hour', 'key', {hour}), "
            f"named_struct('dimension', 'weekday', 'key', {weekday}), named_struct('dimension', 'device', 'key', device)))")


def modal_split(spark, utc_offset_hours):
    offset = utc_offset_hours * 3600
    trips = spark.sql(f"""
        SELECT k.dimension, k.key, mode, COUNT(*) AS trips FROM (
          SELECT {calendar_keys('started_unix_s', offset)} AS k, COALESCE(main_mode, 'unknown') AS mode FROM trips)
        GROUP BY k.dimension, k.key, mode""").collect()
    legs = spark.sql(f"""
        SELECT k.dimension, k.key, mode, {ordered_sum('distance_m')} AS distance, {ordered_sum('duration_s')} AS duration FROM (
          SELECT {calendar_keys('started_unix_s', offset)} AS k, COALESCE(mode, 'unknown') AS mode, part, id, distance_m, duration_s
          FROM triplegs)
        GROUP BY k.dimension, k.key, mode""").collect()
    totals = {}
    for r in trips:
        totals.setdefault((r.dimension, r.key, r.mode), [0, 0.0, 0.0])[0] = r.trips
    for r in legs:
        t = totals.setdefault((r.dimension, r.key, r.mode), [0, 0.0, 0.0])
        t[1], t[2] = r.distance, r.duration
    groups = {}
    for key in sorted(totals, key=lambda k: mode_rank(k[2])):
        g = groups.setdefault(key[:2], [0, 0.0, 0.0])
        for i in range(3):
            g[i] += totals[key][i]

    def share(part, whole):
        return part / whole if whole > 0 else 0.0

    order = {"all": 0, "hour": 1, "weekday": 2, "device": 3}
    keys = sorted(totals, key=lambda k: (order[k[0]], WEEKDAYS.index(k[1]) if k[1] in WEEKDAYS else 0, k[1].encode(), mode_rank(k[2])))
    rows = []
    for k in keys:
        (n, distance, duration), whole = totals[k], groups[k[:2]]
        rows.append([k[0], k[1], k[2], str(n), number(share(n, whole[0]), 4), number(distance, 1), number(share(distance, whole[1]), 4),
                     number(duration, 1), number(share(duration, whole[2]), 4)])
    return csv_text(["dimension", "dimension_value", "travel_mode", "trips", "trip_share", "distance_m", "distance_share", "duration_s", "duration_share"], rows)


def heat_maps(spark):
    """Per map: its parameters, its published cells (devices counted over every part, then
    k) and how many cells were suppressed. No cell below k leaves Spark SQL: the filter is
    in the query. Two jobs over all maps at once, not two per map (heat maps 18.5 s -> 14.4 s
    on 100 device-days; most of the rest was Spark's 200 shuffle tasks, see job.py)."""
    meta = {r.map: r for r in spark.sql("SELECT DISTINCT map, cell_m, min_devices, filter FROM heatmaps").collect()}
    spark.sql("""
        SELECT c.map, cell_id, SUM(fixes) AS fixes, COUNT(DISTINCT device) AS devices,
               COUNT(DISTINCT COALESCE(person, device)) AS persons, FIRST(h.min_devices) AS k,
               aggregate(array_sort(collect_list(struct(encode(device, 'UTF-8') AS d, dwell_s))), 0D, (acc, x) -> acc + x.dwell_s) AS dwell_s
        FROM heatmap_device_cells c JOIN (SELECT DISTINCT map, min_devices FROM heatmaps) h ON h.map = c.map
        GROUP BY c.map, cell_id""").cache().createOrReplaceTempView("merged_cells")
    kept, suppressed = {}, {}
    for c in spark.sql("SELECT map, cell_id, fixes, devices, persons, dwell_s FROM merged_cells WHERE persons >= k").collect():
        kept.setdefault(c.map, []).append((c.cell_id, c.fixes, c.devices, c.persons, c.dwell_s))
    for r in spark.sql("SELECT map, COUNT(*) AS n FROM merged_cells WHERE persons < k GROUP BY map").collect():
        suppressed[r.map] = r.n
    return [{"map": name, "cell_m": m.cell_m, "min_devices": m.min_devices, "filter": m.filter, "suppressed": suppressed.get(name, 0),
             "cells": kept.get(name, [])} for name, m in meta.items()]


def cells_if_k_per_part(spark):
    """The negative control: overall-map cells published if each part applied k to its own
    devices and the parts' cells were then pooled (what must not be done)."""
    k = spark.sql("SELECT min_devices FROM heatmaps WHERE map = 'all' LIMIT 1").collect()
    if not k:
        return 0
    return spark.sql(f"""SELECT COUNT(DISTINCT cell_id) FROM (
        SELECT part, cell_id FROM heatmap_device_cells WHERE map = 'all' GROUP BY part, cell_id HAVING COUNT(DISTINCT COALESCE(person, device)) >= {k[0][0]})""").collect()[0][0]
