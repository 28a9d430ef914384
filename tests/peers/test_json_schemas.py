"""`--json` an operator can script against: every `pipeline run --json` and `pipeline forget
--json` validates against its JSON Schema in docs/json-schemas (every key required, no other
allowed) on a first run, an up-to-date run and a failed run, checked by the `jsonschema`
package (Draft 2020-12), not by our own code.

Run by scripts/peer_test.sh (part of scripts/test.sh)."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import jsonschema
from referencing import Registry, Resource

BINARY = os.environ["PIPELINE_BINARY"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(ROOT, "docs", "json-schemas")


def load(name):
    with open(os.path.join(SCHEMAS, name)) as f:
        return json.load(f)


class JSONSchemas(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="json-schemas-")
        cls.run_schema, cls.forget_schema = load("run.schema.json"), load("forget.schema.json")
        registry = Registry().with_resources([(s["$id"], Resource.from_contents(s)) for s in (cls.run_schema, cls.forget_schema)])
        cls.validators = {name: jsonschema.Draft202012Validator(schema, registry=registry)
                          for name, schema in (("run", cls.run_schema), ("forget", cls.forget_schema))}
        for schema in (cls.run_schema, cls.forget_schema):
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
