"""What `pipeline run` writes, read as an analyst reads it: pandas 3 loads every CSV of a run on
the bundled traces, and parses every time column with default arguments (no `format=`), which
it refuses when one column mixes shapes (`...:00Z` beside `...:00.480Z`); no column shadows a
pandas attribute (`df.map` is `DataFrame.map`, not a column).

Run by scripts/peers/peer_test.sh (part of scripts/test.sh)."""
import glob
import json
import os
import sqlite3
import re
import shutil
import subprocess
import tempfile
import unittest

import pandas as pd

BINARY = os.environ["PIPELINE_BINARY"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
# A time column: ISO 8601 text (the `_unix_s` twins are numbers).
TIME_COLUMN = re.compile(r"_at$")
SHAPE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


class PandasReadsOutputs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="pandas-outputs-")
        cls.out = os.path.join(cls.work, "reports")
        run = subprocess.run([BINARY, "run", os.path.join(ROOT, "traces"), "--out", cls.out],
                             capture_output=True, text=True, cwd=ROOT)
        assert run.returncode in (0, 2), run.stderr  # 2: the bundled traces hold files quarantined on purpose

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_every_time_column_parses_with_default_arguments(self):
        files = sorted(glob.glob(os.path.join(self.out, "*.csv")) + glob.glob(os.path.join(self.out, "restricted", "*.csv")))
        self.assertGreater(len(files), 10)
        parsed = 0
        for path in files:
            frame = pd.read_csv(path)
            for column in [c for c in frame.columns if TIME_COLUMN.search(c)]:
                values = frame[column].dropna()
                if values.empty:
                    continue
                with self.subTest(file=os.path.basename(path), column=column):
                    bad = [v for v in values if not SHAPE.match(str(v))]
                    self.assertEqual(bad[:3], [], "every row: YYYY-MM-DDTHH:MM:SS.sssZ")
                    times = pd.to_datetime(values)  # default arguments, as a notebook calls it
                    self.assertEqual(str(times.dt.tz), "UTC")
                    parsed += 1
        self.assertGreater(parsed, 15, "time columns parsed")

    def test_no_column_is_a_pandas_attribute(self):
        """`df.travel_mode` reads the column: no column is named like a DataFrame or Series
        attribute or method (`map`, `mode`, `keys`, `count` ...), which attribute access
        would return instead."""
        taken = set(dir(pd.DataFrame)) | set(dir(pd.Series))
        self.assertIn("map", taken)  # the check itself
        files = sorted(glob.glob(os.path.join(self.out, "*.csv")) + glob.glob(os.path.join(self.out, "restricted", "*.csv")))
        for path in files:
            columns = pd.read_csv(path, nrows=0).columns
            with self.subTest(file=os.path.basename(path)):
                self.assertEqual([c for c in columns if c in taken], [])



class IdentifiersStayText(unittest.TestCase):
    """GeoLife names its users 000 … 181: read with `pipeline schema --pandas-dtypes`, a device
    010 stays "010" and joins the store's, where pandas' default would make it the integer 10."""

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="pandas-dtypes-")
        traces = os.path.join(cls.work, "traces")
        done = subprocess.run([BINARY, "simulate", "--out", traces, "--devices", "11", "--days", "1", "--seed", "5", "--imu-rate", "0"],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        for index in range(1, 12):
            os.rename(os.path.join(traces, f"phone-{index:02d}"), os.path.join(traces, f"{index - 1:03d}"))
        for name in ("checkins.csv", "labels.csv"):  # they name the simulator's phones
            os.remove(os.path.join(traces, name))
        cls.out = os.path.join(cls.work, "reports")
        run = subprocess.run([BINARY, "run", traces, "--out", cls.out], capture_output=True, text=True)
        assert run.returncode in (0, 2), run.stderr
        printed = subprocess.run([BINARY, "schema", "--pandas-dtypes"], capture_output=True, text=True, check=True)
        cls.dtypes = json.loads(printed.stdout)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_devices_000_to_010_stay_text_and_join_the_store(self):
        path = os.path.join(self.out, "restricted", "triplegs.csv")
        self.assertEqual(pd.read_csv(path)["device"].dtype.kind, "i", "the default reads 010 as 10: the problem")
        legs = pd.read_csv(path, dtype=self.dtypes["triplegs.csv"])
        devices = set(legs["device"])
        self.assertIn("010", devices)
        self.assertTrue(devices <= {f"{i:03d}" for i in range(11)}, devices)
        with sqlite3.connect(os.path.join(self.out, "restricted", "pipeline.sqlite")) as db:
            stored = pd.read_sql("SELECT id AS tripleg_id, device FROM triplegs", db)
        joined = legs.merge(stored, on=["tripleg_id", "device"])
        self.assertEqual(len(joined), len(legs), "every leg joins the store's row by id and device")

    def test_every_file_reads_with_its_dtypes(self):
        for path in sorted(glob.glob(os.path.join(self.out, "*.csv")) + glob.glob(os.path.join(self.out, "restricted", "*.csv"))):
            name = os.path.basename(path)
            with self.subTest(file=name):
                frame = pd.read_csv(path, dtype=self.dtypes[name])
                self.assertEqual(set(frame.columns), set(self.dtypes[name]))


if __name__ == "__main__":
    unittest.main()
