"""train_comfort.csv and route_comfort.csv from every part's rides, in Spark SQL.

A single run (Comfort/Ride.swift, ComfortSummary) groups the rides of check-ins by train
number, or by from -> to station, and gives per group: rides, measured rides, distinct
devices, N_MV and a_v median and p95, the share of measured rides in each EN 12299 N_MV
class, each rating's mean and count, the mean noise and the delays' median and p90. Every
percentile is recomputed here from the merged rows (never merged from the parts' own
summaries), with the single run's definition, Hyndman & Fan type 7
(MobilityCore/Quantile.swift), and the same arithmetic, so the doubles are the same to the
last bit. Numbers are written as FixedPoint.text writes them (see fixed_point)."""
import math

from .aggregates import csv_text

NMV_CLASSES = ["very comfortable", "comfortable", "medium", "uncomfortable", "very uncomfortable"]
RATINGS = ["cleanliness", "odours_temperature", "crowding", "service"]


def fixed_point(value, digits):
    """MobilityCore/FixedPoint.text: |value| scaled by 10^digits in doubles, rounded half away
    from zero (Swift's .rounded()), then split into whole and fraction. Not Python's "%.*f",
    which rounds the exact binary value half to even: 0.125 to 2 digits is "0.13" here."""
    if value is None:
        return None
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    scale = float(10 ** digits)
    product = abs(value) * scale
    floor = math.floor(product)
    scaled = floor + 1.0 if product - floor >= 0.5 else floor
    whole = math.floor(scaled / scale)
    fraction = str(int(scaled - whole * scale))
    sign = "-" if value < 0 and scaled > 0 else ""
    return sign + str(int(whole)) + ("." + "0" * (digits - len(fraction)) + fraction if digits > 0 else "")


def quantile(array, q):
    """Type 7 over an ascending array column, as Quantile.sorted computes it; NULL when empty."""
    position = f"({q!r}D * (size({array}) - 1))"
    lower = f"CAST(floor({position}) AS INT)"
    upper = f"least({lower} + 1, size({array}) - 1)"
    at_lower = f"element_at({array}, {lower} + 1)"
    return (f"CASE WHEN size({array}) = 0 THEN NULL ELSE "
            f"{at_lower} + (element_at({array}, {upper} + 1) - {at_lower}) * ({position} - {lower}) END")


def sorted_values(column, where="TRUE"):
    return f"array_sort(filter(collect_list(CASE WHEN {where} THEN {column} END), v -> v IS NOT NULL))"


def groups(spark, key_columns):
    """One row per group of check-in rides, keyed by the check-in's `key_columns`."""
    keys = ", ".join(f"c.{k}" for k in key_columns)
    class_counts = ", ".join(f"SUM(CASE WHEN measured AND r.nmv_class = '{c}' THEN 1 ELSE 0 END) AS class_{i}"
                             for i, c in enumerate(NMV_CLASSES))
    ratings = ", ".join(f"SUM(c.{r}) AS {r}_sum, COUNT(c.{r}) AS {r}_n" for r in RATINGS)
    # Noise is summed in the single run's ride order: parts in device order, each part's rides by id.
    noise = "aggregate(array_sort(collect_list(struct(r.part, r.id, c.noise_db))), 0D, (acc, x) -> acc + coalesce(x.noise_db, 0D))"
    return spark.sql(f"""
        WITH rides_of_checkins AS (
          SELECT r.*, r.comfort_band IS NOT NULL AS measured FROM rides r WHERE r.source = 'checkin')
        SELECT {keys}, COUNT(*) AS rides, SUM(CASE WHEN measured THEN 1 ELSE 0 END) AS measured_rides,
               COUNT(DISTINCT r.device) AS devices,
               {sorted_values('r.nmv', 'measured')} AS nmvs, {sorted_values('r.a_v', 'measured')} AS totals,
               {class_counts}, {ratings}, {noise} AS noise_sum, COUNT(c.noise_db) AS noise_n,
               {sorted_values('r.departure_delay_s')} AS departures, {sorted_values('r.arrival_delay_s')} AS arrivals
        FROM rides_of_checkins r JOIN checkins c ON c.part = r.part AND c.id = r.checkin_id
        GROUP BY {keys}""").selectExpr(
        *key_columns, "rides", "measured_rides", "devices",
        *[f"class_{i}" for i in range(len(NMV_CLASSES))], *[f"{r}_sum" for r in RATINGS], *[f"{r}_n" for r in RATINGS],
        "noise_sum", "noise_n",
        f"{quantile('nmvs', 0.5)} AS nmv_median", f"{quantile('nmvs', 0.95)} AS nmv_p95",
        f"{quantile('totals', 0.5)} AS a_v_median", f"{quantile('totals', 0.95)} AS a_v_p95",
        f"{quantile('departures', 0.5)} AS departure_median", f"{quantile('departures', 0.9)} AS departure_p90",
        f"{quantile('arrivals', 0.5)} AS arrival_median", f"{quantile('arrivals', 0.9)} AS arrival_p90").collect()


def summary_row(g, keys):
    fields = keys + [str(g.rides), str(g.measured_rides), str(g.devices), fixed_point(g.nmv_median, 2), fixed_point(g.nmv_p95, 2),
                     fixed_point(g.a_v_median, 3), fixed_point(g.a_v_p95, 3)]
    fields += [fixed_point(g[f"class_{i}"] / g.measured_rides, 3) if g.measured_rides else None for i in range(len(NMV_CLASSES))]
    for r in RATINGS:
        n = g[f"{r}_n"]
        fields += [fixed_point(g[f"{r}_sum"] / n, 2) if n else None, str(n)]
    fields.append(fixed_point(g.noise_sum / g.noise_n, 1) if g.noise_n else None)
    fields += [fixed_point(v, 0) for v in (g.departure_median, g.departure_p90, g.arrival_median, g.arrival_p90)]
    return fields


COLUMNS = (["rides", "measured_rides", "devices", "nmv_median", "nmv_p95", "a_v_median_mps2", "a_v_p95_mps2"]
           + ["share_" + c.replace(" ", "_") for c in NMV_CLASSES] + [f"{r}_{s}" for r in RATINGS for s in ("mean", "n")]
           + ["noise_db_mean", "departure_delay_median_s", "departure_delay_p90_s", "arrival_delay_median_s", "arrival_delay_p90_s"])


def summaries(spark):
    """{"train_comfort.csv": text, "route_comfort.csv": text}, groups in the single run's key
    order (Swift String order, the UTF-8 byte order of the key; a route's key is from TAB to)."""
    trains = sorted(groups(spark, ["train"]), key=lambda g: g.train.encode())
    routes = sorted(groups(spark, ["from_station", "to_station"]), key=lambda g: (g.from_station + "\t" + g.to_station).encode())
    return {"train_comfort.csv": csv_text(["train"] + COLUMNS, [summary_row(g, [g.train]) for g in trains]),
            "route_comfort.csv": csv_text(["from_station", "to_station"] + COLUMNS,
                                          [summary_row(g, [g.from_station, g.to_station]) for g in routes])}
