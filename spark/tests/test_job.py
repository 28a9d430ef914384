"""job.py's own Spark settings: each applies only where the user's spark-submit did not
set it (the whole job is tested in test_equivalence.py)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pyspark import SparkConf  # noqa: E402

from pipeline_spark import job, part  # noqa: E402


class SparkSettings(unittest.TestCase):
    def test_the_context_cleaner_is_off_unless_the_user_turned_it_on(self):
        conf = job.spark_conf(SparkConf(loadDefaults=False))
        self.assertEqual(conf.get("spark.cleaner.referenceTracking"), "false")
        self.assertEqual(conf.get("spark.app.name"), "mobility-pipeline")
        users = job.spark_conf(SparkConf(loadDefaults=False).set("spark.cleaner.referenceTracking", "true"))
        self.assertEqual(users.get("spark.cleaner.referenceTracking"), "true")


class PartJobs(unittest.TestCase):
    def test_a_part_works_on_as_many_recordings_at_once_as_its_task_has_cores(self):
        self.assertEqual(part.jobs_option(["--config", "c.yaml"], 2), ["--jobs", "2"])
        self.assertEqual(part.jobs_option(["--jobs", "3"], 2), [], "the user's --jobs stands")
        self.assertEqual(part.jobs_option(["--jobs=3"], 2), [])
        self.assertEqual(part.jobs_option([], None), [], "outside a task: the binary's default")
        self.assertIsNone(part.task_cpus(), "no task on the driver")


if __name__ == "__main__":
    unittest.main()
