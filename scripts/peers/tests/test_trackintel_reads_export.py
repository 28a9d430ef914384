"""`pipeline export --format trackintel` read by trackintel itself: its five read_*_csv
functions load what the export wrote, with the store's ids and the counts of the run's own
CSVs, and trackintel's next steps (locations, modal split) run on them.

Run by scripts/peers/peer_test.sh (part of scripts/test.sh), with trackintel pinned in
tests/peers/requirements.txt."""
import os
import shutil
import subprocess
import tempfile
import unittest
import warnings

import pandas as pd
import trackintel as ti

BINARY = os.environ["PIPELINE_BINARY"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


class TrackintelReadsExport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="trackintel-export-")
        cls.out = os.path.join(cls.work, "reports")
        cls.export = os.path.join(cls.work, "ti")
        run = subprocess.run([BINARY, "run", os.path.join(ROOT, "traces"), "--out", cls.out], capture_output=True, text=True)
        assert run.returncode in (0, 2), run.stderr  # 2: the bundled traces hold files quarantined on purpose
        export = subprocess.run([BINARY, "export", "--store", os.path.join(cls.out, "restricted", "pipeline.sqlite"), "--format", "trackintel",
                                 "--out", cls.export], capture_output=True, text=True)
        assert export.returncode == 0, export.stderr
        warnings.simplefilter("ignore")  # trackintel 1.4.2 calls pandas 3 APIs that warn of their own deprecation
        path = lambda name: os.path.join(cls.export, name)
        cls.pfs = ti.read_positionfixes_csv(path("positionfixes.csv"), index_col="id", crs="EPSG:4326")
        cls.sp = ti.read_staypoints_csv(path("staypoints.csv"), index_col="id", crs="EPSG:4326")
        cls.tpls = ti.read_triplegs_csv(path("triplegs.csv"), index_col="id", crs="EPSG:4326")
        cls.trips = ti.read_trips_csv(path("trips.csv"), index_col="id", geom_col="geom", crs="EPSG:4326")
        cls.locs = ti.read_locations_csv(path("locations.csv"), index_col="id", crs="EPSG:4326")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def ours(self, name):
        return pd.read_csv(os.path.join(self.out, "restricted", name))

    def test_each_table_is_trackintels_model(self):
        self.assertIsInstance(self.pfs, ti.Positionfixes)
        self.assertIsInstance(self.sp, ti.Staypoints)
        self.assertIsInstance(self.tpls, ti.Triplegs)
        self.assertIsInstance(self.trips, ti.TripsGeoDataFrame)  # trips with their MultiPoint geometry
        self.assertIsInstance(self.locs, ti.Locations)
        self.assertEqual(set(self.sp.geometry.geom_type), {"Point"})
        self.assertEqual(set(self.tpls.geometry.geom_type), {"LineString"})
        self.assertEqual(set(self.trips.geometry.geom_type), {"MultiPoint"})
        for frame, column in [(self.pfs, "tracked_at"), (self.sp, "started_at"), (self.tpls, "finished_at"), (self.trips, "started_at")]:
            self.assertEqual(str(frame[column].dt.tz), "UTC")

    def test_ids_and_counts_are_the_runs(self):
        for frame, name, key in [(self.sp, "staypoints.csv", "staypoint_id"), (self.tpls, "triplegs.csv", "tripleg_id"),
                                 (self.trips, "trips.csv", "trip_id"), (self.locs, "locations.csv", "location_id")]:
            with self.subTest(table=name):
                ours = self.ours(name)
                self.assertGreater(len(ours), 0)
                self.assertEqual(list(frame.index), list(ours[key]))
        legs = self.ours("triplegs.csv")
        self.assertEqual(list(self.tpls["mode"]), list(legs["travel_mode"]))
        self.assertEqual(list(self.tpls["user_id"]), list(legs["device"]))
        stays = self.ours("staypoints.csv")
        self.assertLess((self.sp.geometry.x - stays["lon"].values).abs().max(), 1e-6)
        # Each staypoint's fixes carry its id: as many as its `fixes` (the fix at `finished_at`,
        # the first after the stay, is its leg's, as in trackintel).
        counted = self.pfs["staypoint_id"].value_counts()
        for staypoint, fixes in zip(stays["staypoint_id"], stays["fixes"]):
            self.assertEqual(counted.get(staypoint, 0), fixes, f"staypoint {staypoint}")

    def test_trackintel_continues_the_analysis(self):
        sp, locs = self.sp.generate_locations(method="dbscan", epsilon=100, num_samples=1, distance_metric="haversine", agg_level="user")
        self.assertGreater(len(locs), 0)
        self.assertTrue(sp["location_id"].notna().all())
        split = ti.analysis.calculate_modal_split(self.tpls, freq=None, metric="count", per_user=False)
        self.assertEqual(int(split.sum(axis=1).iloc[0]), len(self.tpls))


if __name__ == "__main__":
    unittest.main()
