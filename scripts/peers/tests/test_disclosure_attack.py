"""An attacker written apart from the pipeline's audit: it reads only what a run publishes
(od_matrix.csv and modal_split.csv), builds its own linear relations from what the columns
mean, and asks a linear program (scipy's HiGHS) for the least and the most each left-out count
can be. A count is recovered when the two are equal and above zero: the attack must recover
none, on seeded simulated panels and on the shared real panel when it is there.

What the columns mean, as a reader of docs/output-schema.md takes them:
- modal_split.csv: a row's `trips` is a count; `trips / trip_share` is its group's (dimension,
  value) whole, which any published share gives; in every breakdown (hour, weekday, time band,
  purpose) each trip has one value, so a mode's rows over a breakdown add up to its `all` row,
  and the groups' wholes to the `all` whole;
- od_matrix.csv: a row's `trips`, and `share_<mode> × trips` the row's trips of that mode
  (empty: left out); every trip is in one pair of each band's rows, so over all pairs (the
  published rows and what is not published) a mode's trips equal its modal-split row of the
  band (`all` for all_day, `time_band` for a band), and the rows' trips the group's whole; a
  pair's band rows add up to its all_day row.

The cells under k are not known to the attacker; every count it cannot read is a variable
>= 0. The LP relaxation is weaker than an integer attacker, and stronger than subtraction.

Run by scripts/peers/peer_test.sh (part of scripts/test.sh)."""
import csv
import itertools
import os
import shutil
import subprocess
import tempfile
import unittest

import numpy as np
from scipy.optimize import linprog

BINARY = os.environ["PIPELINE_BINARY"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "data")
HOURS = [f"{h:02d}" for h in range(24)]
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
PURPOSES = ["HBW", "HBO", "NHB", "unknown"]


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Attack:
    """The relations of the published tables over the attacker's variables."""

    def __init__(self, folder):
        self.split = read(os.path.join(folder, "modal_split.csv"))
        self.od = read(os.path.join(folder, "od_matrix.csv"))
        with open(os.path.join(folder, "od_matrix.csv"), newline="") as f:
            header = next(csv.reader(f))
        self.modes = [c.removeprefix("share_") for c in header if c.startswith("share_")]
        # The configured bands (planning.time_bands' defaults, which these runs keep) and any a file names.
        bands = sorted({"am_peak", "pm_peak", "off_peak"} | {r["time_band"] for r in self.od if r["time_band"] != "all_day"}
                       | {r["dimension_value"] for r in self.split if r["dimension"] == "time_band"})
        self.groups = ([("all", "all")] + [("hour", h) for h in HOURS] + [("weekday", w) for w in WEEKDAYS]
                       + [("time_band", b) for b in bands] + [("trip_purpose", p) for p in PURPOSES])
        self.names, self.rows, self.values = {}, [], []
        self.known = {}
        self.build(bands)

    def var(self, name):
        if name not in self.names:
            self.names[name] = len(self.names)
        return self.names[name]

    def equal(self, terms, value=0.0):
        self.rows.append([(self.var(n), s) for n, s in terms])
        self.values.append(value)

    def fix(self, name, value):
        self.known[name] = value
        self.equal([(name, 1)], value)

    def build(self, bands):
        largest = {}
        for r in self.split:
            cell = ("ms", r["dimension"], r["dimension_value"], r["travel_mode"])
            self.fix(cell, float(r["trips"]))
            group = (r["dimension"], r["dimension_value"])
            if float(r["trip_share"]) > 0 and float(r["trips"]) > largest.get(group, (0, 0))[0]:
                largest[group] = (float(r["trips"]), float(r["trip_share"]))
        # A share has 4 decimals: the group's whole is read from its largest row, where they are the most.
        for group, (trips, share) in largest.items():
            self.fix(("whole",) + group, round(trips / share))
        for g in self.groups:
            self.equal([(("ms",) + g + (m,), 1) for m in self.modes] + [(("whole",) + g, -1)])
        for dimension in ("hour", "weekday", "time_band", "trip_purpose"):
            keys = [g for g in self.groups if g[0] == dimension]
            for m in self.modes:
                self.equal([(("ms",) + g + (m,), 1) for g in keys] + [(("ms", "all", "all", m), -1)])
            self.equal([(("whole",) + g, 1) for g in keys] + [(("whole", "all", "all"), -1)])
        pairs = {}
        for r in self.od:
            pair, band, trips = (r["origin_geofence_id"], r["destination_geofence_id"]), r["time_band"], float(r["trips"])
            pairs.setdefault(pair, set()).add(band)
            self.fix(("odrow", band) + pair, trips)
            for m in self.modes:
                share = r["share_" + m]
                if share != "":
                    self.fix(("od", band) + pair + (m,), round(float(share) * trips))
            self.equal([(("od", band) + pair + (m,), 1) for m in self.modes] + [(("odrow", band) + pair, -1)])
        for band in ["all_day"] + bands:
            group = ("all", "all") if band == "all_day" else ("time_band", band)
            # Pairs published in some band: their rows of this band, published or not; the rest of the
            # trips are in pairs never published (one remainder per mode).
            for m in self.modes:
                self.equal([(("od", band) + p + (m,), 1) for p in pairs] + [(("rest", band, m), 1), (("ms",) + group + (m,), -1)])
            self.equal([(("odrow", band) + p, 1) for p in pairs] + [(("restrow", band), 1), (("whole",) + group, -1)])
            self.equal([(("rest", band, m), 1) for m in self.modes] + [(("restrow", band), -1)])
            for p in pairs:
                self.equal([(("od", band) + p + (m,), 1) for m in self.modes] + [(("odrow", band) + p, -1)])
        for p in pairs:
            for m in self.modes:
                self.equal([(("od", b) + p + (m,), 1) for b in bands] + [(("od", "all_day") + p + (m,), -1)])
        if bands:
            for m in self.modes:
                self.equal([(("rest", b, m), 1) for b in bands] + [(("rest", "all_day", m), -1)])
        # Rows that name no geofence at either end, and only those: the run had none (its report says
        # so), so that one pair holds every trip.
        if self.od and all(p == ("", "") for p in pairs):
            for band in ["all_day"] + bands:
                self.fix(("restrow", band), 0)

    def bounds(self, name):
        """The least and the most `name` can be under the relations (None when unbounded)."""
        n = len(self.names)
        a = np.zeros((len(self.rows), n))
        for i, row in enumerate(self.rows):
            for j, s in row:
                a[i, j] += s
        c = np.zeros(n)
        c[self.names[name]] = 1
        low = linprog(c, A_eq=a, b_eq=self.values, bounds=(0, None), method="highs")
        high = linprog(-c, A_eq=a, b_eq=self.values, bounds=(0, None), method="highs")
        assert low.status == 0, f"the published tables contradict each other: {low.message}"
        return low.fun, (-high.fun if high.status == 0 else None)

    def targets(self):
        """The counts a reader cannot read: the modal split's rows and the OD shares left out."""
        return [name for name in self.names if name[0] in ("ms", "od") and name not in self.known]


def run(binary, traces, out, *arguments):
    result = subprocess.run([binary, "run", traces, "--out", out, *arguments], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode in (0, 2), result.stderr


class DisclosureAttack(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="disclosure-attack-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def attack(self, traces, label, k=3):
        out = os.path.join(self.work, label)
        run(BINARY, traces, out)
        # The truth, for judging only (the attacker never reads it): every row with its persons.
        truth = os.path.join(self.work, label + "-k1")
        run(BINARY, traces, truth, "--k", "1", "--allow-identifying-k")
        persons = {("ms", r["dimension"], r["dimension_value"], r["travel_mode"]): int(r["persons"])
                   for r in read(os.path.join(truth, "modal_split.csv"))}
        attack = Attack(out)
        recovered, widths = [], []
        for name in attack.targets():
            low, high = attack.bounds(name)
            # A count under k read exactly; an OD share read exactly (its persons are not in any file: taken as under k).
            exact = high is not None and high - low < 1e-6 and low > 0.5
            if exact and (name[0] == "od" or persons.get(name, 0) < k):
                recovered.append((name, low))
            widths.append(float("inf") if high is None else high - low)
        positive = [w for w in widths if w > 1e-6]
        print(f"{label}: {len(attack.targets())} counts left out; recovered {len(recovered)}; "
              f"narrowest feasible interval {min(positive) if positive else None}")
        self.assertEqual(recovered, [], f"{label}: counts the published files give away exactly")
        return attack

    def simulate(self, devices, seed):
        traces = os.path.join(self.work, f"city-{devices}-{seed}")
        made = subprocess.run([BINARY, "simulate", "--devices", str(devices), "--days", "2", "--imu-rate", "0", "--seed", str(seed),
                               "--out", traces], capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(made.returncode, 0, made.stderr)
        return traces

    def test_no_left_out_count_of_a_simulated_city_can_be_recovered(self):
        for devices, seed in [(20, 7), (12, 11), (16, 3)]:
            with self.subTest(devices=devices, seed=seed):
                attack = self.attack(self.simulate(devices, seed), f"city-{devices}-{seed}")
                self.assertGreater(len(attack.od), 0, "the city has geofences: the OD table has rows to attack with")

    def test_no_left_out_count_of_the_shared_real_panel_can_be_recovered(self):
        if not os.path.isdir(SHARED):
            self.skipTest(f"{SHARED} is absent (the shared real recordings)")
        panel = os.path.join(self.work, "panel")
        laid = subprocess.run(["bash", "-c", f'source scripts/data/shared_inputs.sh && panel_inputs "{panel}" "{SHARED}"'],
                              capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(laid.returncode, 0, laid.stderr)
        attack = self.attack(panel, "shared-panel")
        modes = {r["travel_mode"] for r in attack.split if r["dimension"] == "all"}
        self.assertGreaterEqual(len(modes), 5, f"the whole-day modal split survives the panel: {modes}")
