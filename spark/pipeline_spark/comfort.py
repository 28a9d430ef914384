"""The comfort summaries' reductions, in Spark SQL over every part's rides: per train number
and per route (from, to), the check-in rides' counts, distinct devices, the measured rides'
N_MV and a_v values and EN 12299 classes, the ratings' sums and counts, the noise summed in
the single run's ride order, and the delays. `pipeline publish --reduced` applies the
formulas (type 7 quantiles, shares, means) and FixedPoint formatting with the single run's
code (Comfort/Ride.swift, ComfortSummary(group:))."""
from .aggregates import number_list, write

NMV_CLASSES = ["very comfortable", "comfortable", "medium", "uncomfortable", "very uncomfortable"]
RATINGS = ["cleanliness", "odours_temperature", "crowding", "service"]


def groups(spark, key_columns, folder):
    keys = ", ".join(f"c.{k}" for k in key_columns)
    class_counts = ", ".join(f"SUM(CASE WHEN measured AND r.nmv_class = '{c}' THEN 1 ELSE 0 END) AS class_{c.replace(' ', '_')}"
                             for c in NMV_CLASSES)
    ratings = ", ".join(f"COALESCE(SUM(c.{r}), 0) AS {r}_sum, COUNT(c.{r}) AS {r}_n" for r in RATINGS)
    noise = "aggregate(array_sort(collect_list(struct(r.ride_id, c.noise_db))), 0D, (acc, x) -> acc + coalesce(x.noise_db, 0D))"
    write(spark.sql(f"""
        WITH rides_of_checkins AS (
          SELECT r.*, r.comfort_band IS NOT NULL AS measured FROM rides r WHERE r.source = 'checkin')
        SELECT {keys}, COUNT(*) AS rides, SUM(CASE WHEN measured THEN 1 ELSE 0 END) AS measured_rides,
               COUNT(DISTINCT r.device) AS devices,
               {number_list('CASE WHEN measured THEN r.nmv END')} AS nmvs, {number_list('CASE WHEN measured THEN r.a_v END')} AS a_vs_mps2,
               {class_counts}, {ratings}, {noise} AS noise_db_sum, COUNT(c.noise_db) AS noise_n,
               {number_list('r.departure_delay_s')} AS departure_delays_s, {number_list('r.arrival_delay_s')} AS arrival_delays_s
        FROM rides_of_checkins r JOIN checkins c ON c.part = r.part AND c.id = r.checkin_id
        GROUP BY {keys}"""), folder)

