"""`--json` an operator can script against: every command's `--json` (`run`, `forget`, `ingest`,
`trips`, `heatmap`, `comfort`, `export`, `publish`, `inputs`, `inspect`, `locations`, `evaluate`,
`schema`, `simulate`) validates against its JSON Schema in docs/json-schemas (every key required,
no other allowed) on a first run, an up-to-date run and a failed run, checked by the `jsonschema`
package (Draft 2020-12), not by our own code.

Run by scripts/peers/peer_test.sh (part of scripts/test.sh)."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import jsonschema
from referencing import Registry, Resource

BINARY = os.environ["PIPELINE_BINARY"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SCHEMAS = os.path.join(ROOT, "docs", "json-schemas")
COMMANDS = ["run", "forget", "ingest", "trips", "heatmap", "comfort", "export", "publish", "inputs",
            "inspect", "locations", "evaluate", "schema", "simulate"]
MODEL = os.path.join(ROOT, "models", "mode-model.json")


def load(name):
    with open(os.path.join(SCHEMAS, name)) as f:
        return json.load(f)


class JSONSchemas(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="json-schemas-")
        schemas = {name: load(f"{name}.schema.json") for name in COMMANDS}
        registry = Registry().with_resources([(s["$id"], Resource.from_contents(s)) for s in schemas.values()])
        cls.validators = {name: jsonschema.Draft202012Validator(schema, registry=registry) for name, schema in schemas.items()}
        for schema in schemas.values():
            jsonschema.Draft202012Validator.check_schema(schema)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def pipeline(self, *arguments):
        done = subprocess.run([BINARY, *arguments, "--json"], capture_output=True, text=True, cwd=self.work)
        return done.returncode, json.loads(done.stdout)

    def valid(self, command, summary):
        errors = sorted(self.validators[command].iter_errors(summary), key=lambda e: list(e.absolute_path))
        self.assertEqual([f"{list(e.absolute_path)}: {e.message[:300]}" for e in errors[:5]], [])

    def test_run_first_up_to_date_and_failed(self):
        status, first = self.pipeline("run", os.path.join(ROOT, "traces"), "--out", "out")
        self.assertEqual(status, 2)  # the bundled traces hold one cut-off upload
        self.valid("run", first)
        status, again = self.pipeline("run", os.path.join(ROOT, "traces"), "--out", "out")
        self.assertEqual((status, again["up_to_date"]), (0, True))
        self.valid("run", again)
        self.assertEqual(sorted(first), sorted(again), "the same keys on every run")
        status, failed = self.pipeline("run", os.path.join(self.work, "no-such-folder"), "--out", "failed")
        self.assertEqual(status, 1)
        self.valid("run", failed)
        self.assertIn("no such file or folder", failed["error"])

    def test_run_and_trips_with_two_transit_feeds(self):
        """`transit`, one object per feed: the real BART and Caltrain feeds of the shared data, given as their folder."""
        feeds = os.path.join(os.path.dirname(ROOT), "shared", "data", "gtfs")
        if not os.path.isdir(feeds):
            self.skipTest(f"{feeds} is absent (the shared data is not beside the project)")
        status, run = self.pipeline("run", os.path.join(ROOT, "traces"), "--out", "transit-out", "--transit", feeds)
        self.assertEqual(status, 2)
        self.valid("run", run)
        self.assertEqual([feed["feed"] for feed in run["transit"]], ["bart-2018-05-26", "caltrain-2017-10-02"])
        status, trips = self.pipeline("trips", "--store", "transit-out/restricted/pipeline.sqlite", "--out", "transit-out",
                                      "--transit", os.path.join(feeds, "caltrain-2017-10-02.zip"))
        self.assertEqual(status, 0, trips)
        self.valid("trips", trips)
        self.assertEqual([(feed["agency"], feed["service_start"]) for feed in trips["transit"]], [("Caltrain", "2017-10-02")])

    def test_forget_known_and_unknown(self):
        status, _ = self.pipeline("run", os.path.join(ROOT, "traces"), "--out", "forget-out")
        self.assertEqual(status, 2)
        status, forgot = self.pipeline("forget", "--out", "forget-out", "--person", "phone-05")
        self.assertEqual(status, 0)
        self.valid("forget", forgot)
        self.assertGreater(forgot["forgotten"]["fixes"], 0)
        status, refused = self.pipeline("forget", "--out", "forget-out", "--person", "Phone-06")
        self.assertEqual(status, 1)
        self.valid("forget", refused)

    def test_stage_commands_done_again_and_failed(self):
        """trips, heatmap, comfort and export (exact CSV, trackintel's tables, the diary) on a store, twice (the second changes nothing), and
        each on a store that is not there: the failure object, exit 1."""
        status, first = self.pipeline("ingest", os.path.join(ROOT, "traces"), "--store", "stages/pipeline.sqlite")
        self.assertEqual(status, 2)
        self.valid("ingest", first)
        status, again = self.pipeline("ingest", os.path.join(ROOT, "traces"), "--store", "stages/pipeline.sqlite")
        self.assertEqual((status, again["ingested"]), (0, 0))
        self.valid("ingest", again)
        status, failed = self.pipeline("ingest", os.path.join(self.work, "no-such-folder"), "--store", "failed/pipeline.sqlite")
        self.assertEqual(status, 1)
        self.valid("ingest", failed)
        for command, extra in (("trips", ["--out", "stages"]), ("heatmap", ["--out", "stages"]), ("comfort", ["--out", "stages"]),
                               ("export", []), ("export", ["--format", "trackintel"]), ("export", ["--format", "diary"])):
            for attempt in (1, 2):
                with self.subTest(command=command, extra=extra, attempt=attempt):
                    status, summary = self.pipeline(command, "--store", "stages/pipeline.sqlite", *extra)
                    self.assertEqual(status, 0, summary)
                    self.valid(command, summary)
            with self.subTest(command=command, failed=True):
                status, failed = self.pipeline(command, "--store", "nowhere/pipeline.sqlite", *extra)
                self.assertEqual(status, 1)
                self.valid(command, failed)
                self.assertIn("no store at", failed["error"])

    def on_a_run_and_without_a_store(self, command, out):
        """`command` on the store of a run of the bundled traces, then on a store that is not there."""
        status, _ = self.pipeline("run", os.path.join(ROOT, "traces"), "--out", out)
        self.assertEqual(status, 2)
        status, summary = self.pipeline(command, "--store", f"{out}/pipeline.sqlite", "--out", out)
        self.assertEqual(status, 0, summary)
        self.valid(command, summary)
        status, failed = self.pipeline(command, "--store", "nowhere/pipeline.sqlite", "--out", "nowhere")
        self.assertEqual(status, 1)
        self.valid(command, failed)

    def test_publish_done_and_failed(self):
        self.on_a_run_and_without_a_store("publish", "published")

    def test_inputs_listed_and_failed(self):
        status, listed = self.pipeline("inputs", os.path.join(ROOT, "traces"))
        self.assertEqual(status, 0)
        self.valid("inputs", listed)
        self.assertGreater(len(listed), 10)
        status, failed = self.pipeline("inputs", os.path.join(self.work, "no-such-folder"))
        self.assertEqual(status, 1)
        self.valid("inputs", failed)

    def test_inspect_a_file_a_folder_and_a_missing_path(self):
        status, one = self.pipeline("inspect", os.path.join(ROOT, "traces", "phone-02", "2024-05-06.gpx"))
        self.assertEqual(status, 0)
        self.valid("inspect", one)
        status, folder = self.pipeline("inspect", os.path.join(ROOT, "traces"))
        self.assertEqual(status, 2)  # the cut-off upload would be quarantined
        self.valid("inspect", folder)
        self.assertEqual(len({tuple(sorted(entry)) for entry in one + folder}), 1, "the same keys for every file")
        status, missing = self.pipeline("inspect", os.path.join(self.work, "no-such-file.gpx"))
        self.assertEqual(status, 2)
        self.valid("inspect", missing)
        self.assertIsNotNone(missing[0]["error"])

    def test_locations_on_a_store_and_without_one(self):
        self.on_a_run_and_without_a_store("locations", "locations-out")

    def test_evaluate_a_model_cross_validation_legs_and_a_failure(self):
        traces = os.path.join(ROOT, "traces")
        runs = {"model": ("--model", MODEL), "cross_validation": ("--inner-folds", "0", "--folds", "2"),
                "legs": ("--legs-only",), "legs_model": ("--legs-only", "--model", MODEL)}
        for name, extra in runs.items():
            with self.subTest(name):
                status, summary = self.pipeline("evaluate", traces, *extra)
                self.assertEqual(status, 0, summary)
                self.valid("evaluate", summary)
        status, failed = self.pipeline("evaluate", traces, "--model", os.path.join(self.work, "no-such-model.json"))
        self.assertEqual(status, 1)
        self.valid("evaluate", failed)

    def test_schema_and_simulate(self):
        status, schema = self.pipeline("schema")
        self.assertEqual(status, 0)
        self.valid("schema", schema)
        status, simulated = self.pipeline("simulate", "--out", "simulated", "--devices", "1", "--days", "1", "--imu-rate", "0")
        self.assertEqual(status, 0, simulated)
        self.valid("simulate", simulated)
        open(os.path.join(self.work, "a-file"), "w").close()
        status, failed = self.pipeline("simulate", "--out", "a-file/simulated", "--devices", "1", "--days", "1")
        self.assertEqual(status, 1)
        self.valid("simulate", failed)
        self.assertIn("cannot create the folder", failed["error"])

    def test_a_key_too_many_or_too_few_fails(self):
        """The schemas are strict: the check itself can fail."""
        status, summary = self.pipeline("run", os.path.join(ROOT, "traces"), "--out", "strict")
        self.assertIn(status, (0, 2))
        extra = dict(summary, surprise=1)
        missing = {k: v for k, v in summary.items() if k != "releases"}
        for broken in (extra, missing):
            self.assertTrue(list(self.validators["run"].iter_errors(broken)))


if __name__ == "__main__":
    unittest.main()
