"""The reducers' merge of the parts' partial groups, on groups with known answers (no Spark:
the shuffle only decides which reducer sees a group). The whole path is compared with a
single run byte for byte in test_equivalence.py."""
import csv
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pipeline_spark import reductions  # noqa: E402


def reduced(items, with_comfort=False):
    folder = tempfile.mkdtemp(prefix="reductions-test-")
    try:
        stats = list(reductions.reduce_bucket(0, iter(items), folder, with_comfort))
        tables = {}
        for table in os.listdir(folder):
            with open(os.path.join(folder, table, "part-00000.csv"), newline="") as f:
                tables[table] = list(csv.DictReader(f))
        return tables, stats[0]
    finally:
        shutil.rmtree(folder)


class HeatCells(unittest.TestCase):
    def test_a_person_with_devices_in_two_parts_counts_once(self):
        # part 0: ann's phone and bob; part 1: ann's watch. Three devices, two persons.
        items = [(("heat_cells", "all", "3:4"), (1, (5, 1, ["ann"], [2.5], 2))),
                 (("heat_cells", "all", "3:4"), (0, (7, 2, ["ann", "bob"], [1.0, 0.25], 2))),
                 (("heatmaps", "all"), (0, (100.0, 2, ""))), (("heatmaps", "all"), (1, (100.0, 2, "")))]
        tables, stats = reduced(items)
        cell, = tables["heat_cells"]
        self.assertEqual((cell["fixes"], cell["devices"], cell["persons"], float(cell["dwell_s"])), ("12", "3", "2", 3.75))
        self.assertEqual(tables["heatmaps"], [{"heat_map": "all", "cell_m": "100.0", "min_devices": "2", "filter": ""}])
        self.assertEqual(stats["cells_if_k_per_part"], 1)  # part 0 alone has 2 persons: k = 2 met

    def test_dwell_is_added_in_part_order_one_value_at_a_time(self):
        # 1e16 + 1 + 1 is 1e16 one by one, 1e16 + 2 when the parts' sums were added.
        items = [(("heat_cells", "all", "0:0"), (1, (1, 1, ["b"], [1.0], 3))),
                 (("heat_cells", "all", "0:0"), (0, (1, 1, ["a"], [1e16, 1.0], 3)))]
        cell, = reduced(items)[0]["heat_cells"]
        self.assertEqual(float(cell["dwell_s"]), (1e16 + 1.0) + 1.0)
        self.assertNotEqual(float(cell["dwell_s"]), 1e16 + (1.0 + 1.0))

    def test_no_part_meets_k_alone(self):
        items = [(("heat_cells", "all", "0:0"), (0, (1, 1, ["a"], [0.0], 2))),
                 (("heat_cells", "all", "0:0"), (1, (1, 1, ["b"], [0.0], 2)))]
        tables, stats = reduced(items)
        self.assertEqual(tables["heat_cells"][0]["persons"], "2")
        self.assertEqual(stats["cells_if_k_per_part"], 0)


class TripsAndLegs(unittest.TestCase):
    def test_od_groups_concatenate_and_sort_lists_and_keep_null_keys(self):
        # Part 1's device and one of part 0's were carried by one person: 3 devices, 2 persons.
        items = [(("od_groups", None, "g2"), (1, (1, 1, [30.0], [400.0], ["walk"], ["ann"]))),
                 (("od_groups", None, "g2"), (0, (2, 2, [60.0, 10.0], [900.0, 100.0], ["car", "unknown"], ["ann", "bo"])))]
        row, = reduced(items)[0]["od_groups"]
        self.assertEqual(row["origin_geofence_id"], "")
        self.assertEqual((row["trips"], row["devices"], row["persons"]), ("3", "3", "2"))
        self.assertEqual(row["durations_s"], "10.0 30.0 60.0")
        self.assertEqual(row["distances_m"], "100.0 400.0 900.0")
        self.assertEqual(sorted(row["main_modes"].split()), ["car", "unknown", "walk"])

    def test_modal_totals_add_legs_in_id_order_and_keep_keys_without_trips(self):
        items = [(("modal_totals", "hour", "08", "bike"), (1, (0, [(7, 1.0, 2.0)], ["ann"]))),
                 (("modal_totals", "hour", "08", "bike"), (0, (2, [(3, 1e16, 10.0), (5, 1.0, 20.0)], ["ann", "bo"])))]
        row, = reduced(items)[0]["modal_totals"]
        self.assertEqual((row["trips"], float(row["distance_m"]), float(row["duration_s"])), ("2", (1e16 + 1.0) + 1.0, 32.0))
        self.assertEqual(row["persons"], "2", "persons are unioned by name over parts")

    def test_modal_partials_group_by_the_binarys_keys(self):
        keys = {("trip", 11): [("all", "all"), ("hour", "23")], ("tripleg", 21): [("all", "all"), ("hour", "23")],
                ("tripleg", 22): [("all", "all"), ("hour", "00")]}
        found = dict(reductions.modal_partials(0, keys, {"trip_id": [11], "main_mode": [None], "device": ["p1"]},
                                               {"tripleg_id": [21, 22], "travel_mode": ["walk", "walk"], "distance_m": [1.0, 2.0],
                                                "duration_s": [10.0, 20.0], "device": ["p1", "p2"]},
                                               {"p1": "ann", "p2": "ann"}))
        self.assertEqual(found[("modal_totals", "all", "all", "unknown")], (0, (1, [], ["ann"])))
        self.assertEqual(found[("modal_totals", "all", "all", "walk")], (0, (0, [(21, 1.0, 10.0), (22, 2.0, 20.0)], ["ann"])))
        self.assertEqual(found[("modal_totals", "hour", "00", "walk")], (0, (0, [(22, 2.0, 20.0)], ["ann"])))


class Comfort(unittest.TestCase):
    def group(self, rides, measured, nmvs, noise, persons=("ann",)):
        return {"rides": rides, "measured": measured, "devices": 1, "persons": list(persons), "nmvs": nmvs, "a_vs": [], "classes": [measured, 0, 0, 0, 0],
                "ratings": [[4, 1], [0, 0], [0, 0], [0, 0]], "noise": noise, "departures": [], "arrivals": [60.0]}

    def test_comfort_groups_merge_counts_lists_and_noise_in_ride_order(self):
        items = [(("train_comfort_groups", "IC 5"), (1, self.group(1, 1, [2.5], [(9, 1.0)]))),
                 (("train_comfort_groups", "IC 5"), (0, self.group(2, 1, [1.5], [(2, 1e16), (4, None)])))]
        tables, _ = reduced(items, with_comfort=True)
        row, = tables["train_comfort_groups"]
        self.assertEqual((row["train"], row["rides"], row["measured_rides"], row["devices"]), ("IC 5", "3", "2", "2"))
        self.assertEqual(row["persons"], "1", "two devices of one person")
        self.assertEqual(row["nmvs"], "1.5 2.5")
        self.assertEqual((row["cleanliness_sum"], row["cleanliness_n"], row["class_very_comfortable"]), ("8", "2", "2"))
        self.assertEqual((float(row["noise_db_sum"]), row["noise_n"]), (1e16 + 1.0, "2"))
        self.assertEqual(tables["route_comfort_groups"], [])

    def test_without_rides_no_comfort_table_is_written(self):
        tables, _ = reduced([])
        self.assertNotIn("train_comfort_groups", tables)
        self.assertEqual(tables["heat_cells"], [])


if __name__ == "__main__":
    unittest.main()
