"""An attacker written apart from the pipeline's audit: it reads only what a run publishes
(od_matrix.csv, modal_split.csv, od_grid.csv, od_zones.csv and the counts `run --json` gives
beside them), builds its own linear relations from what the columns mean, and asks a linear
program (scipy's HiGHS) for the least and the most each left-out count can be. A count is
recovered when the two are equal and above zero: the attack must recover none, bound no
modal-split count under k closer than ±k (judged against a k = 1 run's rows), and bound no grid
or zone share left out to k or less (it holds a trip or more: under k it must reach k above), on seeded
simulated panels (with and without a layer of zones) and on the shared real panel when it is
there. Beside the attack, a judge of its own checks the dominance rule on the modal split's
whole-day distance and time against the run's legs.

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
- od_grid.csv and od_zones.csv: the same for their rows and shares, with their own modes shown
  as `other` (`--json` `od_grid.recoded_modes`, `od_zones.recoded_modes`; the modal split's are
  `modal_split.recoded_modes`), so the attacker counts each row's trips of every mode apart. A
  grid row's trips are in no other grid row; the trips in no published row are `--json`'s
  `suppressed_trips`, `complementary_trips` and `unplaced_trips` (od_grid), and every trip not in a published zone
  row is a remainder >= 0 (od_zones counts only valid person-days). Over the whole day (and,
  for zones, per band) a mode's trips in the rows and the remainder are at most the modal
  split's, exactly for the grid.

The cells under k are not known to the attacker; every count it cannot read is a variable
>= 0. The LP relaxation is weaker than an integer attacker, and stronger than subtraction.

Run by scripts/peers/peer_test.sh (part of scripts/test.sh)."""
import csv
import itertools
import json
import os
import re
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

    def __init__(self, folder, summary):
        self.summary = summary
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
        self.grid = read(os.path.join(folder, "od_grid.csv")) if os.path.exists(os.path.join(folder, "od_grid.csv")) else []
        zones = os.path.join(folder, "od_zones.csv")
        self.zones = read(zones) if os.path.exists(zones) else []
        self.build_other_od(bands)

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

    def split_terms(self, group, base):
        """The modal split's cell of `group` that holds the trips of `base` mode (its `other` when recoded)."""
        recoded = set(self.summary["modal_split"]["recoded_modes"])
        return ("ms",) + group + ("other" if base in recoded else base,)

    def build_other_od(self, bands):
        """od_grid.csv and od_zones.csv: each row's trips of every base mode, their published columns,
        and their sum over the rows (with a remainder) against the modal split's."""
        base = [m for m in self.modes if m != "other"]
        split_recoded = set(self.summary["modal_split"]["recoded_modes"])
        tables = []
        if self.grid:
            rows = [(("grid", r["cell_m"], r["origin_cell_id"], r["destination_cell_id"]), "all_day", r) for r in self.grid]
            grid = self.summary["od_grid"]
            rest = grid["suppressed_trips"] + grid["complementary_trips"] + grid["unplaced_trips"]
            tables.append(("grid", rows, set(self.summary["od_grid"]["recoded_modes"]), rest))
        if self.zones:
            rows = [(("zone", r["origin_zone_id"], r["destination_zone_id"]), r["time_band"], r) for r in self.zones]
            tables.append(("zone", rows, set(self.summary["od_zones"]["recoded_modes"]), None))
        for table, rows, recoded, rest in tables:
            pairs = {}
            for pair, band, r in rows:
                pairs.setdefault(pair, set()).add(band)
                trips = float(r["trips"])
                self.fix((table + "row", band) + pair, trips)
                self.equal([((table, band) + pair + (m,), 1) for m in base] + [((table + "row", band) + pair, -1)])
                for column in self.modes:
                    share = r["share_" + column]
                    members = sorted(recoded) if column == "other" else ([] if column in recoded else [column])
                    if share == "" or not members:
                        continue
                    self.equal([((table, band) + pair + (m,), 1) for m in members], round(float(share) * trips))
                    if len(members) == 1:
                        self.known[(table, band) + pair + (members[0],)] = round(float(share) * trips)
                # The published share columns left out, each a count of the row (other: of its modes together).
                for column in self.modes:
                    if r["share_" + column] == "":
                        members = sorted(recoded) if column == "other" else [column]
                        self.equal([((table, band) + pair + (m,), 1) for m in members] + [((table + "col", band) + pair + (column,), -1)])
            for band in sorted({b for _, b, _ in rows}):
                group = ("all", "all") if band == "all_day" else ("time_band", band)
                members = [p for p in pairs if band in pairs[p]]
                for name in sorted({"other" if m in split_recoded else m for m in base}):
                    modes = [m for m in base if (m in split_recoded) == (name == "other") and (name == "other" or m == name)]
                    self.equal([((table, band) + p + (m,), 1) for p in members for m in modes]
                               + [((table + "rest", band, m), 1) for m in modes] + [(("ms",) + group + (name,), -1)])
                if rest is not None:
                    self.equal([((table + "rest", band, m), 1) for m in base], rest)
            if table == "zone":
                # A pair's band rows add up to its all_day row, mode by mode, when all its rows are published.
                for p, present in pairs.items():
                    if present == {"all_day"} | set(bands):
                        for m in base:
                            self.equal([(("zone", b) + p + (m,), 1) for b in bands] + [(("zone", "all_day") + p + (m,), -1)])

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
        return [name for name in self.names if name[0] in ("ms", "od", "gridcol", "zonecol") and name not in self.known]


def run(binary, traces, out, *arguments):
    """`run --json`'s summary: the counts a reader of the report has beside the files."""
    result = subprocess.run([binary, "run", traces, "--out", out, "--json", *arguments], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode in (0, 2), result.stderr
    return json.loads(result.stdout)


def dominated(parts, k, n=2, p=0.85):
    """The (n, p) dominance rule (Hundepool et al. 2012, section 4.2.2), written here apart from
    the pipeline's: a magnitude made of `parts` (one per person) may not be published when fewer
    than k persons made it, or its n largest parts make more than p of it."""
    xs = sorted((x for x in parts if x > 0), reverse=True)
    return bool(xs) and (len(xs) < k or sum(xs[:n]) > p * sum(xs))


def dominance_violations(out, traces, summary, k):
    """The whole-day rows of modal_split.csv whose published distance or time (or whose group's
    whole, which a published share gives) one or two persons make most of, judged from the run's
    own legs (restricted/triplegs.csv) and each device's person (the traces' manifest.csv; a
    device without one is its own person). Also the rows whose published distance is not the
    legs' (the judge reads the legs wrongly)."""
    person = {}
    manifest = os.path.join(traces, "manifest.csv")
    if os.path.exists(manifest):
        person = {r["device"]: r["person"] or r["device"] for r in read(manifest)}
    recoded = set(summary["modal_split"]["recoded_modes"])
    parts = {}
    for leg in read(os.path.join(out, "restricted", "triplegs.csv")):
        mode = leg["travel_mode"] or "unknown"
        for row in ("other" if mode in recoded else mode, None):  # None: the whole day's whole
            made = parts.setdefault(row, {}).setdefault(person.get(leg["device"], leg["device"]), [0.0, 0.0])
            made[0] += float(leg["distance_m"])
            made[1] += float(leg["duration_s"])
    found, published = [], False
    for r in read(os.path.join(out, "modal_split.csv")):
        if r["dimension"] != "all" or r["distance_m"] == "":
            continue
        published = True
        made = parts.get(r["travel_mode"], {}).values()
        if abs(sum(m[0] for m in made) - float(r["distance_m"])) > 1 + 1e-6 * float(r["distance_m"]):
            found.append((r["travel_mode"], "distance is not its legs'", r["distance_m"], sum(m[0] for m in made)))
        elif dominated([m[0] for m in made], k) or dominated([m[1] for m in made], k):
            found.append((r["travel_mode"], "dominated"))
    whole = parts.get(None, {}).values()
    if published and (dominated([m[0] for m in whole], k) or dominated([m[1] for m in whole], k)):
        found.append(("(the whole day)", "dominated"))
    return found


def zone_layer(traces, path, side=3):
    """A planner's layer of side × side squares over the traces' extent (read from their GPX)."""
    points = []
    for folder, _, files in os.walk(traces):
        for name in files:
            if name.endswith(".gpx"):
                with open(os.path.join(folder, name)) as f:
                    points += [(float(a), float(b)) for a, b in re.findall(r'lat="([-0-9.]+)" lon="([-0-9.]+)"', f.read())]
    lats, lons = [p[0] for p in points], [p[1] for p in points]
    south, west = min(lats) - 0.001, min(lons) - 0.001
    dlat, dlon = (max(lats) + 0.001 - south) / side, (max(lons) + 0.001 - west) / side
    features = []
    for i, j in itertools.product(range(side), range(side)):
        s, w = south + i * dlat, west + j * dlon
        ring = [[w, s], [w + dlon, s], [w + dlon, s + dlat], [w, s + dlat], [w, s]]
        features.append({"type": "Feature", "properties": {"id": f"z{i}{j}", "name": f"zone {i}{j}"},
                         "geometry": {"type": "Polygon", "coordinates": [ring]}})
    with open(path, "w") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f)
    return path


class DisclosureAttack(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="disclosure-attack-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def attack(self, traces, label, *arguments, k=3):
        out = os.path.join(self.work, label)
        summary = run(BINARY, traces, out, *arguments)
        # The truth, for judging only (the attacker never reads it): every row with its persons.
        truth = os.path.join(self.work, label + "-k1")
        run(BINARY, traces, truth, "--k", "1", "--allow-identifying-k", *arguments)
        persons = {("ms", r["dimension"], r["dimension_value"], r["travel_mode"]): int(r["persons"])
                   for r in read(os.path.join(truth, "modal_split.csv"))}
        values = {("ms", r["dimension"], r["dimension_value"], r["travel_mode"]): int(r["trips"])
                  for r in read(os.path.join(truth, "modal_split.csv"))}
        attack = Attack(out, summary)
        recovered, widths, narrow, narrow_shares = [], [], [], []
        for name in attack.targets():
            low, high = attack.bounds(name)
            # A count under k read exactly; an OD share read exactly (its persons are not in any file: taken as under k).
            exact = high is not None and high - low < 1e-6 and low > 0.5
            if exact and (name[0] != "ms" or persons.get(name, 0) < k):
                recovered.append((name, low))
            widths.append((float("inf") if high is None else high - low, name))
            recoded = set(summary["modal_split"]["recoded_modes"])
            if name[0] == "ms" and persons.get(name, 0) < k and values.get(name, 0) > 0 and name[3] not in recoded:
                x = values[name]
                if not (low <= max(0, x - k) + 1e-6 and (high is None or high >= x + k - 1e-6)):
                    narrow.append((name, x, low, high))
            # A grid or zone share printed empty holds a trip or more; under k it must reach k above
            # its count, so a most of k or less is too narrow whatever the count (a necessary condition:
            # the files do not say which shares are under k).
            if name[0] in ("gridcol", "zonecol") and high is not None and high < k + 1 - 1e-6:
                narrow_shares.append((name, low, high))
        positive = sorted(w for w in widths if w[0] > 1e-6)
        print(f"{label}: {len(attack.targets())} counts left out; recovered {len(recovered)}; "
              f"narrowest feasible interval {min(positive) if positive else None}; "
              f"{len(narrow)} modal-split counts under k within less than ±{k}: {narrow[:5]}; "
              f"{len(narrow_shares)} left-out grid or zone shares at most {k}: {narrow_shares[:5]}")
        self.assertEqual(recovered, [], f"{label}: counts the published files give away exactly: {recovered}")
        # Protected also means bounded no closer than ±k: the least the attacker can say is 0 (or
        # the count less k), the most the count plus k (docs/privacy.md, protection levels).
        self.assertEqual(narrow, [], f"{label}: modal-split counts under k the published files bound closer than ±{k}")
        self.assertEqual(narrow_shares, [], f"{label}: left-out grid or zone shares the published files bound to at most k")
        # Magnitudes (issue 81, step 5): no whole-day distance or time published that one or two persons make most of.
        violations = dominance_violations(out, traces, summary, k)
        self.assertEqual(violations, [], f"{label}: modal-split distances or times the dominance rule should have left out")
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
                self.assertGreater(len(attack.grid), 0, "the city's trips have staypoints: the OD grid has rows to attack with")

    def test_no_left_out_count_of_a_simulated_city_with_zones_can_be_recovered(self):
        for devices, seed in [(20, 7), (16, 3)]:
            with self.subTest(devices=devices, seed=seed):
                traces = self.simulate(devices, seed)
                layer = zone_layer(traces, os.path.join(self.work, f"zones-{devices}-{seed}.geojson"))
                attack = self.attack(traces, f"city-zones-{devices}-{seed}", "--zones", layer)
                self.assertGreater(len(attack.zones), 0, "the city's zones have rows to attack with")

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
