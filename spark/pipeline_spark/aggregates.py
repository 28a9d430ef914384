"""The reductions of what crosses devices, in Spark SQL over every part's Parquet rows:
heat-map cells (fixes and dwell summed, devices and persons counted over all parts), the
OD pairs' trips (counts, durations, distances, main modes), the modal split's totals and
the comfort groups (comfort.py). Each is written by an executor as CSV into the run's work
folder (`reduced/<table>/`), never collected on the driver; `pipeline publish --reduced`
then applies every formula (k, medians, shares, quantiles, means) and formatting rule with
the single run's Swift code (PipelineRunner/ReducedTables.swift).

Sums run in the order a single run adds: data-set id order (device order, then each
device's rows in time order), so totals are the single run's to the last bit. Lists of
numbers are one field of Java's Double.toString texts separated by spaces."""
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def write(frame, folder):
    """One CSV file (RFC 4180 quoting, NULL as an empty field, "" for an empty string)."""
    frame.coalesce(1).write.mode("overwrite").option("header", True).option("quote", '"').option("escape", '"').csv(folder)


def ordered_sum(column, id_column):
    """The sum of `column` over a group in data-set id order: the single run's order."""
    return f"aggregate(array_sort(collect_list(struct({id_column}, {column}))), 0D, (acc, x) -> acc + x.{column})"


def number_list(column):
    """The group's values of `column` (NULLs left out), ascending, as one text field."""
    return f"array_join(transform(array_sort(collect_list({column})), v -> CAST(v AS STRING)), ' ')"


def od_groups(spark, folder):
    write(spark.sql(f"""
        SELECT origin_geofence_id, destination_geofence_id, COUNT(*) AS trips, COUNT(DISTINCT device) AS devices,
               {number_list('duration_s')} AS durations_s, {number_list('distance_m')} AS distances_m,
               array_join(collect_list(COALESCE(main_mode, 'unknown')), ' ') AS main_modes
        FROM trips GROUP BY origin_geofence_id, destination_geofence_id"""), folder)


def calendar_keys(column, offset_s):
    """The modal split's grouping keys of a start time: all, the local hour (00-23) and
    weekday (calendar.utc_offset_hours), and the device (CalendarKeys in Swift)."""
    local = f"({column} + {offset_s!r}D)"
    hour = f"lpad(CAST(least(23, CAST(({local} - floor({local} / 86400D) * 86400D) / 3600D AS INT)) AS STRING), 2, '0')"
    weekday = f"element_at(array({', '.join(repr(w) for w in WEEKDAYS)}), CAST(pmod(floor({local} / 86400D) + 3, 7) AS INT) + 1)"
    return (f"explode(array(named_struct('dimension', 'all', 'key', 'all'), named_struct('dimension', 'hour', 'key', {hour}), "
            f"named_struct('dimension', 'weekday', 'key', {weekday}), named_struct('dimension', 'device', 'key', device)))")


def modal_totals(spark, utc_offset_hours, folder):
    offset = utc_offset_hours * 3600
    write(spark.sql(f"""
        WITH t AS (
          SELECT k.dimension, k.key, mode, COUNT(*) AS trips FROM (
            SELECT {calendar_keys('started_unix_s', offset)} AS k, COALESCE(main_mode, 'unknown') AS mode FROM trips)
          GROUP BY k.dimension, k.key, mode),
        l AS (
          SELECT k.dimension, k.key, mode, {ordered_sum('distance_m', 'tripleg_id')} AS distance,
                 {ordered_sum('duration_s', 'tripleg_id')} AS duration FROM (
            SELECT {calendar_keys('started_unix_s', offset)} AS k, COALESCE(travel_mode, 'unknown') AS mode, tripleg_id, distance_m, duration_s
            FROM triplegs)
          GROUP BY k.dimension, k.key, mode)
        SELECT COALESCE(t.dimension, l.dimension) AS dimension, COALESCE(t.key, l.key) AS dimension_value,
               COALESCE(t.mode, l.mode) AS travel_mode, COALESCE(t.trips, 0) AS trips,
               COALESCE(l.distance, 0D) AS distance_m, COALESCE(l.duration, 0D) AS duration_s
        FROM t FULL OUTER JOIN l ON t.dimension = l.dimension AND t.key = l.key AND t.mode = l.mode"""), folder)


def heat_cells(spark, cells_folder, maps_folder):
    """Every map's merged cells before k (k is applied by `pipeline publish`; the cells stay
    in the work folder, which the run removes)."""
    write(spark.sql("""
        SELECT map AS heat_map, cell_id, SUM(fixes) AS fixes, COUNT(DISTINCT device) AS devices,
               COUNT(DISTINCT COALESCE(person, device)) AS persons,
               aggregate(array_sort(collect_list(struct(encode(device, 'UTF-8') AS d, dwell_s))), 0D, (acc, x) -> acc + x.dwell_s) AS dwell_s
        FROM heatmap_device_cells GROUP BY map, cell_id"""), cells_folder)
    write(spark.sql("SELECT DISTINCT map AS heat_map, cell_m, min_devices, filter FROM heatmaps"), maps_folder)


def cells_if_k_per_part(spark):
    """The negative control: overall-map cells published if each part applied k to its own
    devices and the parts' cells were then pooled (what must not be done). One number."""
    k = spark.sql("SELECT min_devices FROM heatmaps WHERE map = 'all' LIMIT 1").collect()
    if not k:
        return 0
    return spark.sql(f"""SELECT COUNT(DISTINCT cell_id) FROM (
        SELECT part, cell_id FROM heatmap_device_cells WHERE map = 'all' GROUP BY part, cell_id
        HAVING COUNT(DISTINCT COALESCE(person, device)) >= {k[0][0]})""").collect()[0][0]
