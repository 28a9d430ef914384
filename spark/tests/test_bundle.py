"""The bundle on a node (bundle.py), the removal of an earlier run's per-device CSVs and of
what the last task no longer needs (assemble.py), on small files with known answers. The
whole job is tested in test_equivalence.py."""
import multiprocessing
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from pipeline_spark import assemble, bundle, layout  # noqa: E402


def unpack_in_process(args):
    shipped, root = args
    return bundle.binary(shipped, root)


class Bundle(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="bundle-test-")
        stage = os.path.join(self.work, "stage", "bin")
        os.makedirs(stage)
        with open(os.path.join(stage, "pipeline"), "w") as f:
            f.write("#!/bin/sh\necho bundled\n")
        os.chmod(os.path.join(stage, "pipeline"), 0o755)
        source = os.path.join(self.work, "pipeline-bundle.tar.gz")
        with tarfile.open(source, "w:gz") as tar:
            tar.add(os.path.join(self.work, "stage"), arcname=".")
        self.run_dir, self.root = os.path.join(self.work, "run"), os.path.join(self.work, "node")
        os.makedirs(self.run_dir)
        os.makedirs(self.root)
        self.shipped = bundle.ship(source, self.run_dir)

    def tearDown(self):
        shutil.rmtree(self.work)

    def test_tasks_of_one_node_share_one_unpacked_bundle_and_run_its_binary(self):
        with multiprocessing.Pool(4) as pool:
            found = pool.map(unpack_in_process, [(self.shipped, self.root)] * 8)
        self.assertEqual(set(found), {os.path.join(self.root, "pipeline-bundle", "bin", "pipeline")})
        self.assertEqual(subprocess.run([found[0]], capture_output=True, text=True).stdout, "bundled\n")
        left = sorted(n for n in os.listdir(self.root) if not n.endswith(".lock"))
        self.assertEqual(left, ["pipeline-bundle"], "no half-unpacked folder is left beside it")

    def test_the_drivers_copy_is_unpacked_once_per_bundle_and_three_are_kept(self):
        cache = os.path.join(self.work, "cache")
        source = os.path.join(self.work, "pipeline-bundle.tar.gz")
        first = bundle.driver_binary(source, cache)
        inode = os.stat(first).st_ino
        self.assertEqual(bundle.driver_binary(source, cache), first)
        self.assertEqual(os.stat(first).st_ino, inode, "the second run finds it unpacked")
        for minute in range(1, 5):  # a rebuilt bundle (another modification time) is another entry
            os.utime(source, (1_700_000_000 + 60 * minute, 1_700_000_000 + 60 * minute))
            found = bundle.driver_binary(source, cache)
            self.assertEqual(subprocess.run([found], capture_output=True, text=True).stdout, "bundled\n")
        self.assertEqual(len(os.listdir(cache)), 3)
        self.assertTrue(os.path.exists(found))

    def test_the_shipped_copy_is_in_the_runs_folder(self):
        self.assertEqual(self.shipped, os.path.join(self.run_dir, bundle.NAME))
        self.assertTrue(tarfile.is_tarfile(self.shipped))


class JobPackage(unittest.TestCase):
    """The job's package as spark-submit ships it (--py-files .build/spark/pipeline_spark.zip,
    scripts/build/spark_bundle.sh): each module beside its byte code, which the executors' Python
    (the venv's) imports without compiling the module."""

    def test_the_executors_python_imports_every_module_without_compiling_it(self):
        root = os.path.dirname(os.path.dirname(HERE))
        subprocess.run([os.path.join(root, "scripts", "build", "spark_bundle.sh")], check=True, capture_output=True)
        package = os.path.join(root, ".build", "spark", "pipeline_spark.zip")
        sources = sorted(n[:-3] for n in os.listdir(os.path.join(HERE, "..", "pipeline_spark")) if n.endswith(".py"))
        with zipfile.ZipFile(package) as z:
            names = set(z.namelist())
            for module in sources:
                with open(os.path.join(HERE, "..", "pipeline_spark", module + ".py"), "rb") as f:
                    self.assertEqual(z.read(f"pipeline_spark/{module}.py"), f.read(), f"{module}.py is the source's")
                self.assertIn(f"pipeline_spark/{module}.pyc", names)
        probe = ("import builtins, importlib, sys\n"
                 "compiled, compile_ = [], builtins.compile\n"
                 "def recorded(source, filename, *a, **k):\n"
                 "    compiled.append(str(filename))\n"
                 "    return compile_(source, filename, *a, **k)\n"
                 "builtins.compile = recorded\n"
                 "sys.path.insert(0, sys.argv[1])\n"
                 "for m in sys.argv[2:]:\n"
                 "    importlib.import_module('pipeline_spark.' + m if m != '__init__' else 'pipeline_spark')\n"
                 "print([f for f in compiled if 'pipeline_spark' in f])\n")
        venv_python = os.path.join(root, ".venv-spark", "bin", "python")
        done = subprocess.run([venv_python, "-c", probe, package] + sources, capture_output=True, text=True, check=True)
        self.assertEqual(done.stdout.strip(), "[]", f"compiled from source: {done.stdout.strip()}")


class StaleTables(unittest.TestCase):
    NAMES = ["staypoints.csv", "trips.csv"]

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="stale-test-")
        self.out = os.path.join(self.work, "out")
        os.makedirs(os.path.join(self.out, "restricted"))
        for name in self.NAMES:
            with open(os.path.join(self.out, "restricted", name), "w") as f:
                f.write("an earlier run's\n")
        with open(os.path.join(self.out, "heatmap.csv"), "w") as f:
            f.write("published\n")

    def tearDown(self):
        shutil.rmtree(self.work)

    def test_without_csv_no_earlier_table_is_left_and_other_files_stay(self):
        self.assertEqual(assemble.remove_stale_tables(self.out, self.NAMES + ["events.csv"]), self.NAMES)
        self.assertEqual(sorted(os.listdir(self.out)), ["heatmap.csv", "restricted"])
        self.assertEqual(os.listdir(os.path.join(self.out, "restricted")), [])


class ReadParts(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="read-parts-test-")
        self.parts = [layout.part_folder(self.work, i) for i in range(2)]
        for d in self.parts:
            for folder in ("export", "part-tables", "global"):
                os.makedirs(os.path.join(d, folder))
                with open(os.path.join(d, folder, "rows.csv"), "w") as f:
                    f.write("id\n1\n")
            for name in ("verbatim.sqlite", "log.txt", "run.json"):
                with open(os.path.join(d, name), "w") as f:
                    f.write("x")

    def tearDown(self):
        shutil.rmtree(self.work)

    def test_the_last_task_removes_what_was_read_and_keeps_what_it_reads(self):
        assemble.discard_read(self.parts)
        for d in self.parts:
            self.assertEqual(sorted(os.listdir(d)), ["global", "log.txt", "run.json"])
        assemble.discard_read(self.parts)  # a retried last task finds them gone
        self.assertEqual(sorted(os.listdir(self.parts[0])), ["global", "log.txt", "run.json"])


if __name__ == "__main__":
    unittest.main()
