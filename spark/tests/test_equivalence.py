"""The Spark job against a single `pipeline run` on the same simulated city: 12 devices
(4 with IMU recordings, train riders with check-ins, a cut-off GPX upload), the Spark run
in 3 parts of uneven size with one task failing once on purpose.

Run by scripts/spark_test.sh (part of scripts/test.sh): python -m unittest from spark/."""
import csv
import io
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("PIPELINE_BINARY", os.path.join(ROOT, ".build", "release", "pipeline"))
SAME_BYTES = ["staypoints.csv", "dwells.csv", "locations.csv", "triplegs.csv", "trips.csv", "od_matrix.csv", "od_grid.csv", "modal_split.csv",
              "device_stats.csv", "modes.csv", "rides.csv", "stops.csv", "events.csv", "train_comfort.csv", "route_comfort.csv", "heatmap.csv", "staypoints.geojson",
              "triplegs.geojson", "dwells.geojson", "heatmap.geojson", "report.html"]


class CityRuns(unittest.TestCase):
    """A simulated city in cls.work, run once on one machine (cls.single) and once on Spark
    (cls.spark) by a subclass's setUpClass."""

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def read(self, folder, name):
        with open(os.path.join(folder, name), encoding="utf-8", newline="") as f:
            return f.read()


class SparkEquivalence(CityRuns):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="spark-equivalence-")
        traces = os.path.join(cls.work, "traces")
        subprocess.run([BINARY, "simulate", "--out", traces, "--devices", "12", "--imu-devices", "4", "--imu-trips-per-day", "1",
                        "--faults", "--seed", "11"], check=True, capture_output=True)
        cls.single = os.path.join(cls.work, "single")
        run = subprocess.run([BINARY, "run", traces, "--out", cls.single], capture_output=True, text=True)
        assert run.returncode == 2, run.stderr  # the cut-off upload is quarantined
        cls.spark = os.path.join(cls.work, "spark")
        marker = os.path.join(cls.work, "fail-once")
        open(marker, "w").close()
        cls.job = subprocess.run([os.path.join(ROOT, "scripts", "spark_run.sh"), traces, "--out", cls.spark, "--partitions", "3",
                                  "--fail-first-attempt", marker], capture_output=True, text=True)
        cls.marker_left = os.path.exists(marker)

    def test_exit_status_is_the_single_runs(self):
        self.assertEqual(self.job.returncode, 2, self.job.stderr[-3000:])

    def test_a_failed_task_was_retried_without_duplicating_rows(self):
        self.assertFalse(self.marker_left, "the injected failure never happened")
        for name in ("trips.csv", "staypoints.csv", "rides.csv"):
            self.assertEqual(self.read(self.single, name), self.read(self.spark, name), name)

    def test_parts_are_uneven_and_one_has_no_check_in(self):
        with open(os.path.join(self.spark, "spark_summary.json")) as f:
            parts = json.load(f)["parts"]
        self.assertEqual(len(parts), 3)
        self.assertGreater(len({p["devices"] for p in parts}), 1, parts)
        with open(os.path.join(self.spark, "rides.csv"), newline="") as f:
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

    def test_the_geopackage_holds_the_single_runs_layers(self):
        """`pipeline publish` writes pipeline.gpkg from the merged store and the files the merge
        wrote: every layer's rows (geometry included) are the single run's."""
        def layers(folder):
            db = sqlite3.connect(os.path.join(folder, "pipeline.gpkg"))
            names = [r[0] for r in db.execute("SELECT table_name FROM gpkg_contents ORDER BY table_name")]
            rows = {n: db.execute(f'SELECT * FROM "{n}" ORDER BY fid').fetchall() for n in names}
            db.close()
            return rows
        single, spark = layers(self.single), layers(self.spark)
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
            with sqlite3.connect(os.path.join(folder, "pipeline.sqlite")) as db:
                return db.execute("SELECT map, min_devices, cells, suppressed_cells FROM heatmaps ORDER BY map").fetchall()
        self.assertEqual(maps(self.single), maps(self.spark))
        k = maps(self.spark)[0][1]
        with open(os.path.join(self.spark, "heatmap.csv"), newline="") as f:
            devices = [int(row["devices"]) for row in csv.DictReader(f)]
        self.assertTrue(devices and min(devices) >= k, (k, min(devices or [0])))

    def test_negative_control_k_per_part_differs(self):
        with open(os.path.join(self.spark, "spark_summary.json")) as f:
            summary = json.load(f)
        self.assertNotEqual(summary["heat_map"]["cells_if_k_per_part"], summary["heat_map"]["cells"], summary["heat_map"])

    def test_bad_input_is_quarantined_the_same_way(self):
        def rows(folder):
            with open(os.path.join(folder, "quarantine.csv"), newline="") as f:
                return [{k: v for k, v in row.items() if not k.startswith("run_started")} for row in csv.DictReader(f)]
        single = rows(self.single)
        self.assertEqual(len(single), 1)
        self.assertEqual(single, rows(self.spark))

    def test_the_merged_store_holds_the_single_runs_rows(self):
        for table in ("staypoints", "trips", "triplegs", "dwells", "rides", "mode_windows"):
            with sqlite3.connect(os.path.join(self.single, "pipeline.sqlite")) as a, \
                    sqlite3.connect(os.path.join(self.spark, "pipeline.sqlite")) as b:
                self.assertEqual(a.execute(f"SELECT COUNT(*) FROM {table}").fetchone(), b.execute(f"SELECT COUNT(*) FROM {table}").fetchone(), table)

    def test_comfort_summaries_group_rides_of_several_devices(self):
        with open(os.path.join(self.spark, "train_comfort.csv"), newline="") as f:
            trains = list(csv.DictReader(f))
        self.assertTrue(trains, "the simulated riders checked in to trains")
        self.assertTrue(any(int(t["measured_rides"]) > 0 and t["nmv_median"] for t in trains), trains)

class SparkDatasetLocations(CityRuns):
    """Locations clustered across devices (trips.locations.scope: dataset), with a minimum of
    3 staypoints so that some staypoints stay in no location: one pass over every part's
    staypoints must give the single run's locations and location ids."""

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
                                  "--", "--config", config], capture_output=True, text=True)

    def test_locations_and_their_ids_are_the_single_runs(self):
        self.assertEqual(self.job.returncode, 0, self.job.stderr[-3000:])
        for name in ("locations.csv", "staypoints.csv", "trips.csv", "staypoints.geojson", "report.html"):
            with self.subTest(file=name):
                self.assertEqual(self.read(self.single, name), self.read(self.spark, name))

    def test_locations_span_devices_and_some_staypoints_have_none(self):
        with open(os.path.join(self.spark, "locations.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertTrue(any(int(r["devices"]) > 1 for r in rows), rows)
        self.assertTrue(all(r["device"] == "" for r in rows))
        with open(os.path.join(self.spark, "staypoints.csv"), newline="") as f:
            self.assertTrue(any(r["location_id"] == "" for r in csv.DictReader(f)))

    def test_negative_control_per_part_locations_differ(self):
        with open(os.path.join(self.spark, "spark_summary.json")) as f:
            summary = json.load(f)["locations"]
        with open(os.path.join(self.spark, "locations.csv"), newline="") as f:
            found = len(list(csv.DictReader(f)))
        self.assertEqual(summary["scope"], "dataset")
        self.assertNotEqual(summary["locations_if_per_part"], found, summary)


if __name__ == "__main__":
    unittest.main()
