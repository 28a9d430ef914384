"""pyspark_compiled_first (spark/site-packages, installed into .venv-spark by
scripts/build/spark_setup.sh): Spark's zipped PySpark moves behind the venv's compiled copy only
when the two are the same version; on small folders with known answers, then in the venv
with Spark's own zips on PYTHONPATH as spark-submit and the executors put them."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "site-packages"))

import pyspark_compiled_first  # noqa: E402

VENV_PYTHON = os.path.join(os.path.dirname(os.path.dirname(HERE)), ".venv-spark", "bin", "python")


class PreferCompiled(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="compiled-first-")
        self.site = os.path.join(self.work, "site-packages")
        for package, version in (("pyspark", "4.0.1"), ("py4j", "0.10.9.9")):
            os.makedirs(os.path.join(self.site, package))
            with open(os.path.join(self.site, package, "version.py"), "w") as f:
                f.write(f'__version__ = "{version}"\n')

    def tearDown(self):
        shutil.rmtree(self.work)

    def zipped(self, name, package, version):
        path = os.path.join(self.work, name)
        with zipfile.ZipFile(path, "w") as z:
            z.writestr(f"{package}/__init__.py", "")
            z.writestr(f"{package}/version.py", f'__version__ = "{version}"\n')
        return path

    def test_zips_of_the_same_version_move_just_behind_site_packages(self):
        spark, py4j = self.zipped("pyspark.zip", "pyspark", "4.0.1"), self.zipped("py4j-0.10.9.9-src.zip", "py4j", "0.10.9.9")
        path = ["", spark, py4j, "/stdlib", self.site, "/after"]
        moved = pyspark_compiled_first.prefer_compiled(path, self.site)
        self.assertEqual(moved, [spark, py4j])
        self.assertEqual(path, ["", "/stdlib", self.site, spark, py4j, "/after"])

    def test_a_zip_of_another_version_stays_where_spark_put_it(self):
        spark, py4j = self.zipped("pyspark.zip", "pyspark", "4.0.0"), self.zipped("py4j-0.10.9.9-src.zip", "py4j", "0.10.9.9")
        path = [spark, py4j, self.site]
        self.assertEqual(pyspark_compiled_first.prefer_compiled(path, self.site), [py4j])
        self.assertEqual(path, [spark, self.site, py4j])

    def test_nothing_moves_without_the_package_installed_or_without_site_packages_on_the_path(self):
        spark = self.zipped("pyspark.zip", "pyspark", "4.0.1")
        shutil.rmtree(os.path.join(self.site, "pyspark"))
        path = [spark, self.site]
        self.assertEqual(pyspark_compiled_first.prefer_compiled(path, self.site), [])
        self.assertEqual(path, [spark, self.site])
        elsewhere = [spark, "/other"]
        self.assertEqual(pyspark_compiled_first.prefer_compiled(elsewhere, self.site), [])
        self.assertEqual(elsewhere, [spark, "/other"])

    def test_other_zips_and_a_broken_zip_are_left_alone(self):
        other = self.zipped("mylib.zip", "pyspark", "4.0.1")
        broken = os.path.join(self.work, "pyspark.zip")
        with open(broken, "w") as f:
            f.write("not a zip")
        path = [other, broken, self.site]
        self.assertEqual(pyspark_compiled_first.prefer_compiled(path, self.site), [])
        self.assertEqual(path, [other, broken, self.site])

    @unittest.skipUnless(os.path.exists(VENV_PYTHON), ".venv-spark is made by scripts/build/spark_setup.sh")
    def test_the_venv_imports_its_compiled_pyspark_when_sparks_zips_lead_the_path(self):
        found = subprocess.run([VENV_PYTHON, "-c", "import os, pyspark; print(os.path.dirname(pyspark.__file__))"],
                               capture_output=True, text=True, check=True).stdout.strip()
        lib = os.path.join(found, "python", "lib")
        zips = sorted(os.path.join(lib, n) for n in os.listdir(lib) if n.endswith(".zip"))
        self.assertEqual(len(zips), 2, f"Spark's pyspark.zip and py4j's zip in {lib}")
        env = dict(os.environ, PYTHONPATH=":".join(reversed(zips)))
        imported = subprocess.run([VENV_PYTHON, "-c", "import pyspark, py4j; print(pyspark.__file__); print(py4j.__file__)"],
                                  env=env, capture_output=True, text=True, check=True).stdout.split()
        self.assertEqual(len(imported), 2)
        for module in imported:
            self.assertNotIn(".zip", module, "imported from the compiled copy, not from Spark's zip")
            self.assertTrue(os.path.exists(module))
        env["PYSPARK_ZIP_FIRST"] = "1"
        as_spark_put_it = subprocess.run([VENV_PYTHON, "-c", "import pyspark; print(pyspark.__file__)"], env=env, capture_output=True,
                                         text=True, check=True).stdout.strip()
        self.assertTrue(as_spark_put_it.startswith(os.path.join(lib, "pyspark.zip")), as_spark_put_it)


if __name__ == "__main__":
    unittest.main()
