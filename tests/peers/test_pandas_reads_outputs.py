"""What `pipeline run` writes, read as an analyst reads it: pandas 3 loads every CSV of a run on
the bundled traces, and parses every time column with default arguments (no `format=`), which
it refuses when one column mixes shapes (`...:00Z` beside `...:00.480Z`); no column shadows a
pandas attribute (`df.map` is `DataFrame.map`, not a column).

Run by scripts/peer_test.sh (part of scripts/test.sh)."""
import glob
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import pandas as pd

BINARY = os.environ["PIPELINE_BINARY"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


if __name__ == "__main__":
    unittest.main()
