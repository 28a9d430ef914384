"""The Spark job against a single `pipeline run` on the same simulated city: 12 devices
(4 with IMU recordings, train riders with check-ins, a cut-off GPX upload), the Spark run
in 3 parts of uneven size with one task failing once on purpose.

With SPARK_TEST_CLUSTER (the folder scripts/build/spark_cluster.sh started a standalone master and
two workers in; scripts/spark_test.sh sets it), the job runs on that cluster and one worker
is killed, with its executor, while it runs a part task; without it, in local mode.

Run by scripts/spark_test.sh (part of scripts/test.sh): python -m unittest from spark/."""
import csv
import io
import json
import os
import shutil
import sqlite3
import subprocess
import signal
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("PIPELINE_BINARY", os.path.join(ROOT, ".build-static", "release", "pipeline"))  # scripts/build/static_build.sh
SAME_BYTES = ["staypoints.csv", "dwells.csv", "locations.csv", "triplegs.csv", "trips.csv", "od_matrix.csv", "od_grid.csv", "od_zones.csv",
              "mode_shares.csv", "person_weights.csv", "co2e.csv", "person_co2e.csv", "modal_split.csv", "punctuality.csv", "device_stats.csv", "modes.csv", "rides.csv", "stops.csv", "events.csv", "train_comfort.csv", "route_comfort.csv", "heatmap.csv", "staypoints.geojson",
              "triplegs.geojson", "dwells.geojson", "heatmap.geojson", "report.html", "restricted/report.html"]


# What identifies people is in DIR/restricted (Reports/OutputLayout.swift), on Spark as on one machine.
RESTRICTED = {"modes.csv", "staypoints.csv", "dwells.csv", "locations.csv", "triplegs.csv", "trips.csv", "device_stats.csv", "rides.csv",
              "stops.csv", "events.csv", "quarantine.csv", "person_weights.csv", "person_co2e.csv", "staypoints.geojson", "triplegs.geojson", "dwells.geojson"}


def at(folder, name):
    """Where a run's output `name` is in its output folder."""
    return os.path.join(folder, "restricted", name) if name in RESTRICTED else os.path.join(folder, name)


PER_DEVICE_CSV = ["modes.csv", "staypoints.csv", "dwells.csv", "triplegs.csv", "trips.csv", "rides.csv", "stops.csv", "events.csv"]


class CityRuns(unittest.TestCase):
    """A simulated city in cls.work, run once on one machine (cls.single) and once on Spark
    (cls.spark) by a subclass's setUpClass."""

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def read(self, folder, name):
        with open(at(folder, name), encoding="utf-8", newline="") as f:
            return f.read()

    def geopackage_layers(self, folder):
        """Every layer's rows of folder/pipeline.gpkg (folder/restricted/pipeline.gpkg too), by layer name."""
        if not folder.endswith("restricted"):
            return dict(self.geopackage_layers(os.path.join(folder, "restricted")), **self.geopackage_layers_of(folder))
        return self.geopackage_layers_of(folder)

    def geopackage_layers_of(self, folder):
        db = sqlite3.connect(os.path.join(folder, "pipeline.gpkg"))
        names = [r[0] for r in db.execute("SELECT table_name FROM gpkg_contents ORDER BY table_name")]
        rows = {n: db.execute(f'SELECT * FROM "{n}" ORDER BY fid').fetchall() for n in names}
        db.close()
        return rows


def ancestors(pid):
    chain = []
    while pid > 1:
        chain.append(pid)
        with open(f"/proc/{pid}/stat") as f:
            pid = int(f.read().rsplit(")", 1)[1].split()[1])
    return chain


def kill_worker_under_paused_task(pause, cluster, job):
    """Waits for the paused part task, then kills (SIGKILL) the worker JVM whose executor runs
    it, and that executor: a node lost mid-task. Returns (part, worker pid) or None."""
    workers = {}
    for name in os.listdir(cluster):
        if name.startswith("worker-") and name.endswith(".pid"):
            with open(os.path.join(cluster, name)) as f:
                workers[int(f.read().strip())] = name
    for _ in range(1200):
        if os.path.exists(os.path.join(pause, "paused")) or job.poll() is not None:
            break
        time.sleep(0.1)
    if not os.path.exists(os.path.join(pause, "paused")):
        return None
    with open(os.path.join(pause, "paused")) as f:
        part, pid = (int(v) for v in f.read().split())
    chain = ancestors(pid)
    worker = next((p for p in chain if p in workers), None)
    if worker is None:
        return None
    executor = chain[chain.index(worker) - 1]
    os.kill(worker, signal.SIGKILL)
    os.kill(executor, signal.SIGKILL)
    return part, worker


class SparkEquivalence(CityRuns):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="spark-equivalence-")
        traces = os.path.join(cls.work, "traces")
        subprocess.run([BINARY, "simulate", "--out", traces, "--devices", "12", "--imu-devices", "4", "--imu-trips-per-day", "1",
                        "--faults", "--seed", "11"], check=True, capture_output=True)
        # A planner's two zones, west and east of the simulated city's centre (2.3522° E): od_zones.csv
        # is drawn by publish from the joined tables on Spark, by the run on one machine.
        zones = os.path.join(cls.work, "zones.geojson")
        with open(zones, "w") as f:
            json.dump({"type": "FeatureCollection", "features": [
                {"type": "Feature", "properties": {"id": name, "name": name},
                 "geometry": {"type": "Polygon", "coordinates": [[[w, 40], [e, 40], [e, 60], [w, 60], [w, 40]]]}}
                for name, w, e in (("west", -10, 2.3522), ("east", 2.3522, 20))]}, f)
        # A confusion measured on two persons: mode_shares.csv's corrected shares, drawn by publish too.
        confusion = os.path.join(cls.work, "confusion.csv")
        with open(confusion, "w") as f:
            f.write("person,true_mode,predicted_mode,count\n" + "".join(
                f"{p},{t},{o},{n}\n" for p in ("e1", "e2") for t, o, n in
                (("walk", "walk", 40), ("walk", "bike", 10), ("bike", "bike", 20), ("bike", "walk", 5), ("car", "car", 45), ("car", "bus", 5))))
        # Residents of the two zones, to weight the persons to (person_weights.csv, the weighted columns).
        population = os.path.join(cls.work, "population.csv")
        with open(population, "w") as f:
            f.write("zone_id,population\nwest,50000\neast,70000\n")
        # Countries, to choose each leg's CO2e factors by (triplegs.csv start_country): the west in
        # the default table's GB, the east in IE, which it does not list (those legs have no CO2e).
        countries = os.path.join(cls.work, "countries.geojson")
        with open(countries, "w") as f:
            json.dump({"type": "FeatureCollection", "features": [
                {"type": "Feature", "properties": {"code": code},
                 "geometry": {"type": "Polygon", "coordinates": [[[w, 40], [e, 40], [e, 60], [w, 60], [w, 40]]]}}
                for code, w, e in (("GB", -10, 2.3522), ("IE", 2.3522, 20))]}, f)
        planning = ["--zones", zones, "--confusion", confusion, "--population", population,
                    "--countries", countries, "--country-property", "code"]
        cls.single = os.path.join(cls.work, "single")
        run = subprocess.run([BINARY, "run", traces, "--out", cls.single] + planning, capture_output=True, text=True)
        assert run.returncode == 2, run.stderr  # the cut-off upload is quarantined
        cls.spark = os.path.join(cls.work, "spark")
        marker = os.path.join(cls.work, "fail-once")
        open(marker, "w").close()
        command = [os.path.join(ROOT, "scripts", "spark_run.sh"), traces, "--out", cls.spark, "--partitions", "3", "--csv",
                   "--fail-first-attempt", marker]
        cls.cluster, cls.killed = os.environ.get("SPARK_TEST_CLUSTER"), None
        if cls.cluster:
            cls.pause = os.path.join(cls.work, "pause")
            os.makedirs(cls.pause)
            open(os.path.join(cls.pause, "pause"), "w").close()
            with open(os.path.join(cls.cluster, "master.url")) as f:
                command += ["--master", f.read().strip(), "--pause-first-attempt", cls.pause]
        command += ["--"] + planning  # every part's `pipeline run`, and publish, get them
        with open(os.path.join(cls.work, "job.log"), "w+") as log:
            job = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, text=True)
            if cls.cluster:
                cls.killed = kill_worker_under_paused_task(cls.pause, cls.cluster, job)
            job.wait()
            log.seek(0)
            cls.job = subprocess.CompletedProcess(command, job.returncode, "", log.read())
        cls.marker_left = os.path.exists(marker)

    def test_a_worker_killed_during_a_part_task_changes_nothing(self):
        """On the standalone cluster: the paused part's worker and executor were killed, Spark
        ran the part again on the other worker, and the outputs are still the single run's."""
        if not self.cluster:
            self.skipTest("no standalone cluster (SPARK_TEST_CLUSTER): scripts/spark_test.sh starts one")
        self.assertIsNotNone(self.killed, "no part task paused on a worker of the cluster:\n" + self.job.stderr[-3000:])
        part, worker = self.killed
        with self.assertRaises(ProcessLookupError):
            os.kill(worker, 0)
        with open(os.path.join(self.spark, "restricted", "spark_summary.json")) as f:
            summary = json.load(f)
        self.assertEqual(summary["failed_parts"], [])
        self.assertIn(part, [p["index"] for p in summary["parts"]])
        for name in ("staypoints.csv", "trips.csv", "heatmap.csv", "report.html"):
            self.assertEqual(self.read(self.single, name), self.read(self.spark, name), name)

    def test_the_top_of_the_folder_holds_what_the_single_run_publishes(self):
        """The logs and spark_summary.json name input files: they are in restricted/, and the
        top of the folder, which is published, holds the single run's files and no other."""
        def top(folder):
            return sorted(n for n in os.listdir(folder) if not n.startswith("."))
        self.assertEqual(top(self.spark), top(self.single))
        self.assertNotIn("pipeline.sqlite", top(self.spark), "the store is in restricted/, not among what publishes")
        self.assertTrue(os.path.exists(os.path.join(self.spark, "restricted", "pipeline.sqlite")))
        self.assertTrue(os.path.exists(os.path.join(self.spark, "restricted", "logs", "part-0.log")))

    def test_exit_status_is_the_single_runs(self):
        self.assertEqual(self.job.returncode, 2, self.job.stderr[-3000:])

    def test_a_failed_task_was_retried_without_duplicating_rows(self):
        self.assertFalse(self.marker_left, "the injected failure never happened")
        for name in ("trips.csv", "staypoints.csv", "rides.csv"):
            self.assertEqual(self.read(self.single, name), self.read(self.spark, name), name)

    def test_parts_are_uneven_and_one_has_no_check_in(self):
        with open(os.path.join(self.spark, "restricted", "spark_summary.json")) as f:
            parts = json.load(f)["parts"]
        self.assertEqual(len(parts), 3)
        self.assertGreater(len({p["devices"] for p in parts}), 1, parts)
        with open(at(self.spark, "rides.csv"), newline="") as f:
            riders = {row["device"] for row in csv.DictReader(f) if row["source"] == "checkin"}
        self.assertTrue(riders, "the simulated city has train riders with check-ins")
        owners = {d: [p["index"] for p in parts if (p["first"] is None or d.encode() >= p["first"].encode())
                      and (p["before"] is None or d.encode() < p["before"].encode())] for d in riders}
        self.assertTrue(all(len(o) == 1 for o in owners.values()), owners)  # each rider's check-ins in exactly one part
        self.assertTrue(any(not set(p["device_names"]) & riders for p in parts), (riders, parts))

    def test_per_device_and_cross_device_files_are_byte_identical(self):
        for name in SAME_BYTES:
            with self.subTest(file=name):
                self.assertEqual(self.read(self.single, name), self.read(self.spark, name))

    def test_each_leg_takes_its_countrys_factors_in_every_part(self):
        """The parts read the countries layer: legs start in GB and IE, and IE's (not in the
        default table) have no CO2e but a walk's or ride's 0, in the joined triplegs.csv as in the
        single run's."""
        legs = list(csv.DictReader(io.StringIO(self.read(self.spark, "triplegs.csv"))))
        countries = {row["start_country"] for row in legs}
        self.assertTrue({"GB", "IE"} <= countries, countries)
        self.assertTrue(all(row["co2e_g"] == ("0.0" if row["travel_mode"] in ("walk", "bike") else "")
                            for row in legs if row["start_country"] == "IE" and float(row["distance_m"]) > 0))
        self.assertTrue(any(row["co2e_g"] not in ("", "0", "0.0") for row in legs if row["start_country"] == "GB"))
        self.assertIn("legs started in a country the table has no factors for", self.read(self.spark, "report.html"))

    def test_the_geopackage_holds_the_single_runs_layers(self):
        """`pipeline publish` writes pipeline.gpkg from the merged store and the files the merge
        wrote: every layer's rows (geometry included) are the single run's."""
        single, spark = self.geopackage_layers(self.single), self.geopackage_layers(self.spark)
        self.assertIn("triplegs", single)
        self.assertEqual(sorted(single), sorted(spark))
        for name in single:
            self.assertEqual(single[name], spark[name], name)

    def test_heat_map_images_are_identical(self):
        names = sorted(n for n in os.listdir(self.single) if n.endswith(".png"))
        self.assertTrue(names)
        for name in names:
            with open(os.path.join(self.single, name), "rb") as a, open(os.path.join(self.spark, name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)

    def test_suppressed_cells_match_and_no_published_cell_is_below_k(self):
        def maps(folder):
            with sqlite3.connect(os.path.join(folder, "restricted", "pipeline.sqlite")) as db:
                return db.execute("SELECT map, min_devices, cells, suppressed_cells FROM heatmaps ORDER BY map").fetchall()
        self.assertEqual(maps(self.single), maps(self.spark))
        k = maps(self.spark)[0][1]
        with open(os.path.join(self.spark, "heatmap.csv"), newline="") as f:
            devices = [int(row["devices"]) for row in csv.DictReader(f)]
        self.assertTrue(devices and min(devices) >= k, (k, min(devices or [0])))

    def test_negative_control_k_per_part_differs(self):
        with open(os.path.join(self.spark, "restricted", "spark_summary.json")) as f:
            summary = json.load(f)
        self.assertNotEqual(summary["heat_map"]["cells_if_k_per_part"], summary["heat_map"]["cells"], summary["heat_map"])

    def test_bad_input_is_quarantined_the_same_way(self):
        def rows(folder):
            with open(at(folder, "quarantine.csv"), newline="") as f:
                return [{k: v for k, v in row.items() if not k.startswith("run_started")} for row in csv.DictReader(f)]
        single = rows(self.single)
        self.assertEqual(len(single), 1)
        self.assertEqual(single, rows(self.spark))

    def test_the_merged_store_holds_the_single_runs_rows(self):
        for table in ("staypoints", "trips", "triplegs", "dwells", "rides", "mode_windows"):
            with sqlite3.connect(os.path.join(self.single, "restricted", "pipeline.sqlite")) as a, \
                    sqlite3.connect(os.path.join(self.spark, "restricted", "pipeline.sqlite")) as b:
                self.assertEqual(a.execute(f"SELECT COUNT(*) FROM {table}").fetchone(), b.execute(f"SELECT COUNT(*) FROM {table}").fetchone(), table)

    def test_comfort_summaries_group_rides_of_several_devices(self):
        with open(os.path.join(self.spark, "route_comfort.csv"), newline="") as f:
            routes = list(csv.DictReader(f))
        self.assertTrue(routes, "the simulated riders checked in to trains between two stations")
        # Only routes and trains k = 3 persons or more rode are published (docs/privacy.md), and
        # none that would bound a left-out one closer than ±3 rides: here the three one-ride trains
        # take the one train of three persons with them (the routes less it would put each in
        # [0, 3]). The formulas over measured rides are checked on known reductions (ReducedTablesTests).
        self.assertTrue(all(int(r["persons"]) >= 3 for r in routes), routes)
        self.assertTrue(any(int(r["devices"]) > 1 for r in routes), routes)

    # The Parquet datasets: every per-device table, with the single run's rows and ids.
    PARQUET = {  # published table -> (store table, [(parquet column, store column)])
        "staypoints": ("staypoints", [("staypoint_id", "id"), ("device", "device"), ("started_unix_s", "started_unix_s"), ("lat", "lat_deg"),
                                      ("lon", "lon_deg"), ("location_id", "location_id")]),
        "triplegs": ("triplegs", [("tripleg_id", "id"), ("trip_id", "trip_id"), ("device", "device"), ("travel_mode", "mode"),
                                  ("distance_m", "distance_m"), ("previous_staypoint_id", "previous_staypoint_id")]),
        "trips": ("trips", [("trip_id", "id"), ("device", "device"), ("main_mode", "main_mode"), ("origin_staypoint_id", "origin_staypoint_id"),
                            ("destination_location_id", "destination_location_id")]),
        "dwells": ("dwells", [("dwell_id", "id"), ("device", "device"), ("geofence_id", "geofence_id"), ("started_unix_s", "entry_unix_s")]),
        "rides": ("rides", [("ride_id", "id"), ("device", "device"), ("source", "source"), ("checkin_id", "checkin_id"), ("nmv", "nmv")]),
        "stops": ("ride_stops", [("ride_id", "ride_id"), ("started_unix_s", "start_unix_s"), ("finished_unix_s", "end_unix_s")]),
        "events": ("ride_events", [("ride_id", "ride_id"), ("kind", "kind"), ("started_unix_s", "start_unix_s"), ("peak_jerk_mps3", "peak_jerk_mps3")]),
        "windows": ("mode_windows", [("device", "device"), ("trace", "trace"), ("started_unix_s", "start_unix_s"), ("travel_mode", "mode")]),
    }

    def parquet(self, name):
        import pyarrow.parquet as pq
        return pq.read_table(os.path.join(self.spark, "restricted", "parquet", name))

    def test_parquet_tables_hold_the_single_runs_rows_and_ids(self):
        with sqlite3.connect(os.path.join(self.single, "restricted", "pipeline.sqlite")) as db:
            for name, (store_table, pairs) in self.PARQUET.items():
                with self.subTest(table=name):
                    table = self.parquet(name)
                    got = sorted(zip(*[table[c].to_pylist() for c, _ in pairs]), key=repr)
                    want = sorted(db.execute(f"SELECT {', '.join(c for _, c in pairs)} FROM {store_table}").fetchall(), key=repr)
                    if name != "stops":  # the simulated trains' stops are not always detected
                        self.assertTrue(want, f"the single run has no {store_table}")
                    self.assertEqual(got, want)
            fixes = self.parquet("fixes")
            want = db.execute("SELECT f.time_unix_s, f.lat_deg, f.lon_deg, i.device, i.content_sha256 FROM fixes f "
                              "JOIN input_files i ON i.id = f.file_id ORDER BY i.content_sha256, f.seq").fetchall()
            got = sorted(zip(*[fixes[c].to_pylist() for c in ("time_unix_s", "lat", "lon", "device", "file_sha256", "seq")]), key=lambda r: (r[4], r[5]))
            self.assertEqual([r[:5] for r in got], want)

    def test_ids_in_parquet_are_the_csv_ids(self):
        staypoints = self.parquet("staypoints")
        with open(at(self.spark, "staypoints.csv"), newline="") as f:
            csv_ids = {(int(r["staypoint_id"]), r["device"]) for r in csv.DictReader(f)}
        self.assertEqual(set(zip(staypoints["staypoint_id"].to_pylist(), staypoints["device"].to_pylist())), csv_ids)

    def test_geoparquet_reads_in_geopandas_with_the_rows_places(self):
        import geopandas
        with sqlite3.connect(os.path.join(self.single, "restricted", "pipeline.sqlite")) as db:
            legs = dict(db.execute("SELECT id, geometry_geojson FROM triplegs"))
        for name, kind in (("staypoints", "Point"), ("dwells", "Point"), ("fixes", "Point"), ("triplegs", "LineString"), ("trips", "LineString")):
            with self.subTest(table=name):
                frame = geopandas.read_parquet(os.path.join(self.spark, "restricted", "parquet", name))
                self.assertEqual(frame.crs.to_string(), "OGC:CRS84")
                self.assertEqual(set(frame.geometry.dropna().geom_type), {kind})
                if kind == "Point":
                    self.assertTrue(((frame.geometry.x == frame["lon"]) & (frame.geometry.y == frame["lat"])).all())
        frame = geopandas.read_parquet(os.path.join(self.spark, "restricted", "parquet", "triplegs"))
        for leg_id, geometry in zip(frame["tripleg_id"], frame.geometry):
            self.assertEqual([list(c) for c in geometry.coords], [c[:2] for c in json.loads(legs[leg_id])["coordinates"]])

    def test_spark_reads_the_datasets_partitioned_by_part(self):
        from pyspark.sql import SparkSession
        spark = SparkSession.builder.master("local[1]").appName("parquet-check").getOrCreate()
        try:
            with open(os.path.join(self.spark, "restricted", "spark_summary.json")) as f:
                summary = json.load(f)
            for name in ("fixes", "staypoints", "triplegs", "rides", "windows"):
                frame = spark.read.parquet(os.path.join(self.spark, "restricted", "parquet", name))
                counts = {r["part"]: r["count"] for r in frame.groupBy("part").count().collect()}
                want = {p["index"]: p["parquet_rows"][name] for p in summary["parts"] if p["parquet_rows"][name]}
                self.assertEqual(counts, want, name)
        finally:
            spark.stop()

    def test_the_summary_gives_the_drivers_cpu_while_the_part_tasks_ran_as_part_of_its_whole(self):
        with open(os.path.join(self.spark, "restricted", "spark_summary.json")) as f:
            summary = json.load(f)
        whole, during = summary["driver_cpu_s"], summary["driver_cpu_during_part_tasks_s"]
        self.assertEqual(set(during), {"python", "binary", "jvm"})
        for process in ("python", "jvm"):
            self.assertGreaterEqual(during[process], 0, process)
            self.assertLess(during[process], whole[process], f"{process}: the start and the plan come before the part tasks")
        self.assertEqual(during["binary"], 0, "the driver runs no binary while the executors run the parts")

    def test_no_work_folder_and_no_cell_below_k_is_left_in_the_output(self):
        with open(os.path.join(self.spark, "restricted", "spark_summary.json")) as f:
            summary = json.load(f)
        self.assertGreater(summary["driver_peak_rss_mb"], 0)
        self.assertFalse(os.path.exists(os.path.join(self.spark, ".spark-work")))
        self.assertFalse(os.path.exists(os.path.join(self.spark, "restricted", ".spark-work")))
        self.assertFalse(os.path.exists(os.path.join(self.spark, "restricted", "parquet", "heatmap_device_cells")), "cells below k must not be published")
        self.assertEqual(sorted(os.listdir(os.path.join(self.spark, "restricted", "parquet"))),
                         ["dwells", "events", "fixes", "rides", "staypoints", "stops", "triplegs", "trips", "windows"])


class SparkDatasetLocations(CityRuns):
    """Locations clustered across devices (trips.locations.scope: dataset), with a minimum of
    3 staypoints so that some staypoints stay in no location, in tiles of 0.01 degrees (about
    1.1 km, so that locations and neighbourhoods cross tiles): the tiles' links joined must
    give the single run's locations and location ids. Run without --csv: the per-device
    tables are Parquet only, and the files drawn from them (od_grid.csv, pipeline.gpkg, the
    GeoJSON) are still the single run's."""

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="spark-locations-")
        traces = os.path.join(cls.work, "traces")
        subprocess.run([BINARY, "simulate", "--out", traces, "--devices", "12", "--seed", "11"], check=True, capture_output=True)
        config = os.path.join(cls.work, "dataset.yaml")
        with open(config, "w") as f:
            f.write("trips:\n  locations:\n    scope: dataset\n    minimum_staypoints: 3\n    epsilon_meters: 150\n")
        cls.single = os.path.join(cls.work, "single")
        subprocess.run([BINARY, "run", traces, "--out", cls.single, "--config", config], check=True, capture_output=True)
        cls.spark = os.path.join(cls.work, "spark")
        cls.job = subprocess.run([os.path.join(ROOT, "scripts", "spark_run.sh"), traces, "--out", cls.spark, "--partitions", "3",
                                  "--location-tile-degrees", "0.01", "--", "--config", config], capture_output=True, text=True)

    def test_staypoints_were_clustered_in_several_tiles_with_halos(self):
        self.assertEqual(self.job.returncode, 0, self.job.stderr[-3000:])
        with open(os.path.join(self.spark, "restricted", "spark_summary.json")) as f:
            summary = json.load(f)["locations"]
        self.assertGreater(summary["tiles"], 3, summary)
        self.assertGreater(summary["halo_staypoints"], 0, summary)

    def staypoint_locations(self):
        """(staypoint_id, location_id or None) of the single run's staypoints.csv and of the
        Spark run's Parquet dataset."""
        import pyarrow.parquet as pq
        with open(at(self.single, "staypoints.csv"), newline="") as f:
            single = sorted((int(r["staypoint_id"]), int(r["location_id"]) if r["location_id"] else None) for r in csv.DictReader(f))
        table = pq.read_table(os.path.join(self.spark, "restricted", "parquet", "staypoints"))
        return single, sorted(zip(table["staypoint_id"].to_pylist(), table["location_id"].to_pylist()))

    def test_locations_and_their_ids_are_the_single_runs(self):
        self.assertEqual(self.job.returncode, 0, self.job.stderr[-3000:])
        for name in ("locations.csv", "staypoints.geojson", "triplegs.geojson", "od_grid.csv", "od_matrix.csv"):
            with self.subTest(file=name):
                self.assertEqual(self.read(self.single, name), self.read(self.spark, name))
        # The report is the single run's but where it names a per-device CSV: without --csv it
        # points at the Parquet dataset instead (parquet/trips).
        report = self.read(self.single, "report.html")
        for name in PER_DEVICE_CSV:
            report = report.replace(name, "parquet/" + name[:-len(".csv")])
        self.assertIn("restricted/parquet/trips, restricted/parquet/triplegs", report)
        self.assertEqual(report, self.read(self.spark, "report.html"))
        single, spark = self.staypoint_locations()
        self.assertEqual(single, spark)

    def test_without_csv_the_per_device_tables_are_parquet_only(self):
        self.assertEqual(self.job.returncode, 0, self.job.stderr[-3000:])
        self.assertEqual([n for n in PER_DEVICE_CSV if os.path.exists(at(self.spark, n))], [])
        self.assertIn("--csv writes modes.csv, staypoints.csv", self.job.stdout + self.job.stderr)
        single, spark = self.geopackage_layers(self.single), self.geopackage_layers(self.spark)
        self.assertIn("trips", single)
        self.assertEqual(single, spark)

    def test_locations_span_devices_and_some_staypoints_have_none(self):
        with open(at(self.spark, "locations.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertTrue(any(int(r["devices"]) > 1 for r in rows), rows)
        self.assertTrue(all(r["device"] == "" for r in rows))
        self.assertTrue(any(location is None for _, location in self.staypoint_locations()[1]))

    def test_negative_control_per_part_locations_differ(self):
        with open(os.path.join(self.spark, "restricted", "spark_summary.json")) as f:
            summary = json.load(f)["locations"]
        with open(at(self.spark, "locations.csv"), newline="") as f:
            found = len(list(csv.DictReader(f)))
        self.assertEqual(summary["scope"], "dataset")
        self.assertNotEqual(summary["locations_if_per_part"], found, summary)


class SparkRerunAndFailedPart(CityRuns):
    """The same output folder run twice: the second time one part fails on every attempt. Its
    devices are reported with their files, the other parts are published, the exit status is
    2, and nothing of the first run is left twice. The first run writes the per-device CSVs
    (--csv), the second does not: none of the first run's is left beside the second's."""

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="spark-faults-")
        traces = os.path.join(cls.work, "traces")
        subprocess.run([BINARY, "simulate", "--out", traces, "--devices", "6", "--seed", "5"], check=True, capture_output=True)
        cls.spark = os.path.join(cls.work, "spark")
        run = [os.path.join(ROOT, "scripts", "spark_run.sh"), traces, "--out", cls.spark, "--partitions", "3", "--master", "local[2,2]"]
        cls.first = subprocess.run(run + ["--csv"], capture_output=True, text=True)
        with open(at(cls.spark, "staypoints.csv"), newline="") as f:
            cls.first_staypoints = list(csv.DictReader(f))
        cls.second = subprocess.run(run + ["--fail-part", "1"], capture_output=True, text=True)
        with open(os.path.join(cls.spark, "restricted", "spark_summary.json")) as f:
            cls.summary = json.load(f)

    def test_the_failed_part_is_reported_with_its_devices_and_files(self):
        self.assertEqual(self.first.returncode, 0, self.first.stderr[-3000:])
        self.assertEqual(self.second.returncode, 2, self.second.stderr[-3000:])
        failed = self.summary["failed_parts"]
        self.assertEqual([f["index"] for f in failed], [1])
        self.assertTrue(failed[0]["devices"] and failed[0]["files"], failed)
        said = self.second.stdout + self.second.stderr  # spark-submit passes the Python driver's stderr to its stdout
        self.assertIn("FAILED on all 2 attempts", said)
        self.assertIn(failed[0]["devices"][0], said)
        self.assertIn("injected failure", self.read(self.spark, os.path.join("restricted", "logs", "part-1.log")))
        with open(at(self.spark, "quarantine.csv"), newline="") as f:
            set_aside = [r for r in csv.DictReader(f) if r["stage"] == "spark"]
        self.assertEqual(sorted(r["path"] for r in set_aside), sorted(failed[0]["files"]))
        self.assertTrue(all(r["code"] == "part_failed" and "missing from every output" in r["reason"] for r in set_aside), set_aside)
        self.assertIn("part_failed", self.read(self.spark, "report.html"))

    def test_the_other_parts_are_published_once(self):
        lost = set(self.summary["failed_parts"][0]["devices"])
        import pyarrow.parquet as pq
        table = pq.read_table(os.path.join(self.spark, "restricted", "parquet", "staypoints")).to_pylist()
        rows = sorted(table, key=lambda r: r["staypoint_id"])
        kept = [r for r in self.first_staypoints if r["device"] not in lost]
        self.assertTrue(kept and len(kept) < len(self.first_staypoints))
        self.assertEqual([r["device"] for r in rows], [r["device"] for r in kept])
        for got, want in zip(rows, kept):  # the CSV's text has 3 decimals, Parquet the store's double
            self.assertAlmostEqual(got["started_unix_s"], float(want["started_unix_s"]), places=3)
        self.assertEqual([r["staypoint_id"] for r in rows], list(range(1, len(rows) + 1)), "ids stay 1…n; the first run's rows are gone")
        self.assertEqual([n for n in PER_DEVICE_CSV if os.path.exists(at(self.spark, n))], [], "no CSV of the first run is left")


if __name__ == "__main__":
    unittest.main()
