"""trackintel's own positionfix tables, written by trackintel, read by `pipeline ingest`: the
same fixes (time, position, accuracy), the person from user_id, and a table of several people
refused with how to split it.

Run by scripts/peers/peer_test.sh (part of scripts/test.sh)."""
import math
import os
import shutil
import sqlite3
import subprocess
import tempfile
import unittest

import geopandas as gpd
import pandas as pd
import trackintel as ti
from shapely.geometry import Point

BINARY = os.environ["PIPELINE_BINARY"]


def positionfixes(user, count, start="2024-05-01T08:00:00Z", step_s=2.5):
    """A walk of `count` fixes north from Amsterdam Centraal, every `step_s` seconds, every
    third without accuracy."""
    times = pd.date_range(start, periods=count, freq=pd.Timedelta(seconds=step_s))
    frame = gpd.GeoDataFrame({
        "user_id": [user] * count,
        "tracked_at": times,
        "accuracy": [None if i % 3 == 0 else 4.0 + i % 7 for i in range(count)],
        "geometry": [Point(4.9003 + i * 1e-5, 52.3789 + i * 2e-5) for i in range(count)],
    }, geometry="geometry", crs="EPSG:4326")
    return ti.Positionfixes(frame)


class TrackintelRoundTrip(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="trackintel-roundtrip-")
        self.traces = os.path.join(self.work, "traces")
        os.makedirs(self.traces)

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def ingest(self):
        store = os.path.join(self.work, "out", "restricted", "pipeline.sqlite")
        run = subprocess.run([BINARY, "ingest", self.traces, "--store", store, "--json"], capture_output=True, text=True)
        return run, sqlite3.connect(store)

    def assert_same_fixes(self, db, path, expected):
        rows = db.execute("""SELECT x.time_unix_s, x.lat_deg, x.lon_deg, x.accuracy_m FROM fixes x
                             JOIN input_files f ON f.id = x.file_id WHERE f.path = ? ORDER BY x.seq""", (path,)).fetchall()
        self.assertEqual(len(rows), len(expected))
        for (time, lat, lon, accuracy), (_, fix) in zip(rows, expected.iterrows()):
            self.assertAlmostEqual(time, fix.tracked_at.timestamp(), places=6)
            self.assertAlmostEqual(lat, fix.geometry.y, places=9)
            self.assertAlmostEqual(lon, fix.geometry.x, places=9)
            if fix.accuracy is None or math.isnan(fix.accuracy):
                self.assertIsNone(accuracy)
            else:
                self.assertAlmostEqual(accuracy, fix.accuracy, places=9)

    def test_trackintel_csv_with_longitude_latitude_columns(self):
        pfs = positionfixes(7, 120)
        path = os.path.join(self.traces, "walk.csv")
        ti.io.write_positionfixes_csv(pfs, path)
        run, db = self.ingest()
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(db.execute("SELECT format, person, person_source FROM input_files").fetchall(),
                         [("position_csv", "7", "table_column")])
        self.assert_same_fixes(db, path, pfs)

    def test_trackintel_csv_with_a_wkt_geometry_column(self):
        pfs = positionfixes("anna", 40, step_s=1.0)
        path = os.path.join(self.traces, "anna.csv")
        # A WKT `geom` column, as trackintel writes its other tables (staypoints, triplegs) and GeoPandas to_wkt does.
        table = pd.DataFrame(pfs.drop(columns="geometry"))
        table["geom"] = pfs.geometry.to_wkt()
        table.to_csv(path, index=False)
        with open(path, encoding="utf-8") as f:
            self.assertIn("POINT (4.9003 52.3789)", f.read())
        again = gpd.GeoSeries.from_wkt(pd.read_csv(path)["geom"])
        self.assertAlmostEqual(again.iloc[39].y, pfs.geometry.iloc[39].y, places=9)
        run, db = self.ingest()
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assert_same_fixes(db, path, pfs)

    def test_a_table_of_several_people_is_refused_with_how_to_split_it(self):
        both = pd.concat([positionfixes(1, 20), positionfixes(2, 20)])
        path = os.path.join(self.traces, "everyone.csv")
        ti.io.write_positionfixes_csv(ti.Positionfixes(both), path)
        run, db = self.ingest()
        self.assertEqual(run.returncode, 2, run.stderr)
        reason = db.execute("SELECT reason FROM quarantine").fetchone()[0]
        self.assertIn("more than one person (user_id 1 in the first row, 2 here)", reason)
        self.assertIn("groupby('user_id')", reason)
        # Split as the message says: every person's fixes are read, each file its person's.
        for key, rows in pd.read_csv(path).groupby("user_id"):
            rows.to_csv(os.path.join(self.traces, f"user_id-{key}.csv"), index=False)
        os.remove(path)
        run, db = self.ingest()
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(db.execute("SELECT person, fixes FROM input_files WHERE status = 'ingested' ORDER BY person").fetchall(),
                         [("1", 20), ("2", 20)])


if __name__ == "__main__":
    unittest.main()
