"""The reducers' merge of the parts' partial groups (no Spark: the shuffle only decides which
reducer sees a group). The merge of each column is what `pipeline schema --json` declares;
the groups are what the binary's `--partial` parts write. Known answers first, then two real
parts of one person. The whole path is compared with a single run byte for byte in
test_equivalence.py."""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pipeline_spark import job, reductions  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("PIPELINE_BINARY", os.path.join(ROOT, ".build-static", "release", "pipeline"))  # scripts/build/static_build.sh


def schema():
    if not os.path.exists(BINARY):
        raise unittest.SkipTest(f"no binary at {BINARY}: build it with scripts/build/static_build.sh (scripts/spark_test.sh does)")
    return job.output_schema(BINARY)[2]


def reduced(items, partials, tables):
    folder = tempfile.mkdtemp(prefix="reductions-test-")
    try:
        stats = list(reductions.reduce_bucket(0, iter(items), folder, partials, tables))
        found = {}
        for table in os.listdir(folder):
            with open(os.path.join(folder, table, "part-00000.csv"), newline="") as f:
                found[table] = list(csv.DictReader(f))
        return found, stats[0]
    finally:
        shutil.rmtree(folder)


def item(partials, table, part, **values):
    """A group's partial row of one part, its key from the columns the schema marks key."""
    columns = partials[table]
    row = [values[name] for name, _ in columns]
    return (table, *(row[i] for i, (_, merge) in enumerate(columns) if merge == "key")), (part, row)


class DeclaredMerges(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.partials = schema()

    def test_the_schema_declares_every_reduced_table_and_only_known_merges(self):
        self.assertEqual(set(self.partials), {"heatmaps", "heat_cells", "od_groups", "od_mode_groups", "modal_totals", "train_comfort_groups",
                                              "route_comfort_groups"})
        merges = {merge for columns in self.partials.values() for _, merge in columns}
        self.assertEqual(merges, {"key", "same", "sum", "distinct_count", "ordered_sum", "sorted_numbers", "joined", "any", "person_sums"})
        for merge in merges:
            empty = {} if merge == "person_sums" else [] if merge in ("distinct_count", "ordered_sum", "sorted_numbers", "joined") else 0
            reductions.merge_column(merge, [empty])

    def test_an_unknown_merge_is_an_error(self):
        with self.assertRaisesRegex(ValueError, "unknown merge 'median'"):
            reductions.merge_column("median", [[1.0]])

    def test_a_person_with_devices_in_two_parts_counts_once_and_the_per_part_control(self):
        # part 0: ann's phone and bob; part 1: ann's watch. Three devices, two persons.
        p = self.partials
        items = [item(p, "heat_cells", 1, heat_map="all", cell_id="3:4", fixes=5, devices=1, persons=["ann"], dwell_s=[2.5],
                      part_alone_meets_k=False),
                 item(p, "heat_cells", 0, heat_map="all", cell_id="3:4", fixes=7, devices=2, persons=["ann", "bob"],
                      dwell_s=[1.0, 0.25], part_alone_meets_k=True),
                 item(p, "heatmaps", 0, heat_map="all", cell_m=100.0, min_devices=2, filter=""),
                 item(p, "heatmaps", 1, heat_map="all", cell_m=100.0, min_devices=2, filter="")]
        tables, stats = reduced(items, p, ["heat_cells", "heatmaps"])
        cell, = tables["heat_cells"]
        self.assertEqual((cell["fixes"], cell["devices"], cell["persons"], float(cell["dwell_s"])), ("12", "3", "2", 3.75))
        self.assertEqual(tables["heatmaps"], [{"heat_map": "all", "cell_m": "100.0", "min_devices": "2", "filter": ""}])
        self.assertEqual(stats["flagged"], {"heat_cells.part_alone_meets_k": 1})

    def test_doubles_are_added_in_part_order_one_value_at_a_time(self):
        # 1e16 + 1 + 1 is 1e16 one by one, 1e16 + 2 when the parts' sums were added.
        p = self.partials
        items = [item(p, "heat_cells", 1, heat_map="all", cell_id="0:0", fixes=1, devices=1, persons=["b"], dwell_s=[1.0],
                      part_alone_meets_k=False),
                 item(p, "heat_cells", 0, heat_map="all", cell_id="0:0", fixes=1, devices=1, persons=["a"], dwell_s=[1e16, 1.0],
                      part_alone_meets_k=False)]
        cell, = reduced(items, p, ["heat_cells"])[0]["heat_cells"]
        self.assertEqual(float(cell["dwell_s"]), (1e16 + 1.0) + 1.0)
        self.assertNotEqual(float(cell["dwell_s"]), 1e16 + (1.0 + 1.0))

    def test_od_groups_concatenate_and_sort_lists_and_keep_null_and_empty_keys_apart(self):
        p = self.partials
        items = [item(p, "od_groups", 1, time_band="all_day", origin_geofence_id=None, destination_geofence_id="g2", trips=1, devices=1, persons=["ann"],
                      durations_s=[30.0], distances_m=[400.0], main_modes=["walk"]),
                 item(p, "od_groups", 0, time_band="all_day", origin_geofence_id=None, destination_geofence_id="g2", trips=2, devices=2,
                      persons=["ann", "bo"], durations_s=[60.0, 10.0], distances_m=[900.0, 100.0], main_modes=["car", "unknown"]),
                 item(p, "od_groups", 0, time_band="all_day", origin_geofence_id="", destination_geofence_id="g2", trips=1, devices=1, persons=["bo"],
                      durations_s=[5.0], distances_m=[50.0], main_modes=["walk"])]
        tables, _ = reduced(items, p, ["od_groups"])
        self.assertEqual(len(tables["od_groups"]), 2, "NULL and the empty text are two keys")
        row = next(r for r in tables["od_groups"] if r["trips"] == "3")
        self.assertEqual((row["trips"], row["devices"], row["persons"]), ("3", "3", "2"))
        self.assertEqual(row["durations_s"], "10.0 30.0 60.0")
        self.assertEqual(row["distances_m"], "100.0 400.0 900.0")
        self.assertEqual(row["main_modes"], "car unknown walk", "parts in order")

    def test_modal_totals_add_legs_in_part_order_and_union_persons(self):
        p = self.partials
        items = [item(p, "modal_totals", 1, dimension="hour", dimension_value="08", travel_mode="bike", trips=0, distance_m=[1.0],
                      duration_s=[2.0], persons=["ann"], trip_persons=[], leg_persons=["ann"],
                      distance_m_by_person={"ann": [1.0]}, duration_s_by_person={"ann": [2.0]}),
                 item(p, "modal_totals", 0, dimension="hour", dimension_value="08", travel_mode="bike", trips=2,
                      distance_m=[1e16, 1.0], duration_s=[10.0, 20.0], persons=["ann", "bo"], trip_persons=["bo"],
                      leg_persons=["ann", "bo"], distance_m_by_person={"ann": [1e16], "bo": [1.0]},
                      duration_s_by_person={"ann": [10.0], "bo": [20.0]})]
        row, = reduced(items, p, ["modal_totals"])[0]["modal_totals"]
        self.assertEqual((row["trips"], float(row["distance_m"]), float(row["duration_s"])), ("2", (1e16 + 1.0) + 1.0, 32.0))
        self.assertEqual(row["persons"], "2", "persons are unioned by name over parts")
        self.assertEqual((row["trip_persons"], row["leg_persons"]), ("1", "2"), "trips' and legs' persons apart")
        # Each person's part, over the parts in order: ann's legs of parts 0 and 1 added to 1e16 one at a time.
        self.assertEqual(json.loads(row["distance_m_by_person"]), {"ann": 1e16 + 1.0, "bo": 1.0})
        self.assertEqual(json.loads(row["duration_s_by_person"]), {"ann": 12.0, "bo": 20.0})

    def test_comfort_groups_merge_counts_lists_and_noise_in_part_order(self):
        p = self.partials

        def group(part, rides, measured, nmvs, noise, persons):
            values = {name: 0 for name, merge in p["train_comfort_groups"] if merge == "sum"}
            values.update(train="IC 5", rides=rides, measured_rides=measured, devices=1, persons=persons, nmvs=nmvs, a_vs_mps2=[],
                          class_very_comfortable=measured, cleanliness_sum=4, cleanliness_n=1, noise_db_sum=noise, noise_n=len(noise),
                          departure_delays_s=[], arrival_delays_s=[60.0])
            return item(p, "train_comfort_groups", part, **values)
        items = [group(1, 1, 1, [2.5], [1.0], ["ann"]), group(0, 2, 1, [1.5], [1e16], ["ann"])]
        tables, _ = reduced(items, p, ["train_comfort_groups", "route_comfort_groups"])
        row, = tables["train_comfort_groups"]
        self.assertEqual((row["train"], row["rides"], row["measured_rides"], row["devices"]), ("IC 5", "3", "2", "2"))
        self.assertEqual(row["persons"], "1", "two devices of one person")
        self.assertEqual(row["nmvs"], "1.5 2.5")
        self.assertEqual((row["cleanliness_sum"], row["cleanliness_n"], row["class_very_comfortable"]), ("8", "2", "2"))
        self.assertEqual((float(row["noise_db_sum"]), row["noise_n"]), (1e16 + 1.0, "2"))
        self.assertEqual(tables["route_comfort_groups"], [], "a table some part wrote has a file, even empty")

    def test_a_table_no_part_wrote_has_no_file(self):
        tables, _ = reduced([], self.partials, ["heat_cells"])
        self.assertEqual(tables, {"heat_cells": []})


class TwoRealParts(unittest.TestCase):
    """Two `pipeline run --partial` parts of one simulated city whose four devices one person
    carries (a manifest says so): the binary's partial files, read and merged here, count that
    person once where both parts' devices were, and keep every part's trips."""

    @classmethod
    def setUpClass(cls):
        cls.partials = schema()
        cls.work = tempfile.mkdtemp(prefix="reductions-parts-")
        traces = os.path.join(cls.work, "traces")
        subprocess.run([BINARY, "simulate", "--out", traces, "--devices", "4", "--days", "1", "--imu-rate", "0", "--seed", "3"],
                       check=True, capture_output=True)
        devices = sorted(name for name in os.listdir(traces) if os.path.isdir(os.path.join(traces, name)))
        with open(os.path.join(traces, "manifest.csv"), "w", encoding="utf-8") as f:
            f.write("path,device,person\n" + "".join(f"{d}/*,{d},ann\n" for d in devices))
        middle = devices[len(devices) // 2]
        cls.parts = []
        for index, bounds in enumerate((["--devices-before", middle], ["--devices-from", middle])):
            out = os.path.join(cls.work, f"part-{index}")
            subprocess.run([BINARY, "run", traces, "--out", out, "--partial", *bounds], check=True, capture_output=True)
            cls.parts.append(out)
        items = []
        for index, part in enumerate(cls.parts):
            items += reductions.partials({"part_dir": part, "index": index, "partials": cls.partials})
        cls.tables, cls.stats = reduced(items, cls.partials, sorted(cls.partials))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def part_trips(self, index):
        with open(os.path.join(self.parts[index], "part-tables", "trips.csv"), newline="") as f:
            return list(csv.DictReader(f))

    def test_each_part_writes_the_partial_tables_the_schema_names(self):
        for part in self.parts:
            self.assertEqual(sorted(os.listdir(os.path.join(part, "part-tables", "partials"))),
                             sorted(f"{t}.jsonl" for t in self.partials), part)

    def test_one_person_counts_once_where_devices_of_both_parts_were(self):
        cells = self.tables["heat_cells"]
        shared = [c for c in cells if c["heat_map"] == "all" and int(c["devices"]) >= 2]
        self.assertTrue(shared, "the simulated devices share no cell: the test shows nothing")
        self.assertEqual({c["persons"] for c in cells}, {"1"})
        everything = [r for r in self.tables["modal_totals"] if r["dimension"] == "all"]
        self.assertEqual({r["persons"] for r in everything}, {"1"})
        self.assertEqual(self.stats["flagged"], {"heat_cells.part_alone_meets_k": 0}, "k = 3 is never met by one person")

    def test_the_merged_trips_are_every_parts(self):
        trips = [self.part_trips(0), self.part_trips(1)]
        self.assertTrue(trips[0] and trips[1])
        # Each trip is in its pair's whole-day group and in its time band's.
        for whole_day in (True, False):
            rows = [r for r in self.tables["od_groups"] if (r["time_band"] == "all_day") == whole_day]
            self.assertEqual(sum(int(r["trips"]) for r in rows), len(trips[0]) + len(trips[1]))
        by_mode = {}
        for row in trips[0] + trips[1]:
            by_mode[row["main_mode"]] = by_mode.get(row["main_mode"], 0) + 1
        self.assertEqual({r["travel_mode"]: int(r["trips"]) for r in self.tables["modal_totals"]
                          if r["dimension"] == "all" and int(r["trips"]) > 0}, by_mode)


if __name__ == "__main__":
    unittest.main()
