"""comfort.fixed_point against MobilityCore/FixedPoint.text: each expected string is what the
Swift function printed for that value (compiled and run on 2026-11-24). Cases where it differs
from Python's "%.*f" (the exact binary value, ties to even) are the point."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pipeline_spark.comfort import fixed_point  # noqa: E402


class FixedPointText(unittest.TestCase):
    def test_the_documented_example(self):
        self.assertEqual(fixed_point(-2.5, 3), "-2.500")

    def test_a_scaled_tie_rounds_away_from_zero(self):
        self.assertEqual(fixed_point(0.125, 2), "0.13")  # "%.2f" gives 0.12
        self.assertEqual(fixed_point(-0.125, 2), "-0.13")
        self.assertEqual(fixed_point(2.5, 0), "3")  # "%.0f" gives 2
        self.assertEqual("%.2f" % 0.125, "0.12")

    def test_the_product_is_rounded_not_the_decimal(self):
        # 2.675 is 2.67499999999999982236431605997495353221893310546875, but times 100 in doubles it is 267.5.
        self.assertEqual(fixed_point(2.675, 2), "2.68")
        self.assertEqual("%.2f" % 2.675, "2.67")
        # 1.0049999999999999 * 1000 is 1004.9999999999999, which rounds to 1005.
        self.assertEqual(fixed_point(1.0049999999999999, 3), "1.005")

    def test_small_negatives_lose_their_sign(self):
        self.assertEqual(fixed_point(-0.0004, 3), "0.000")
        self.assertEqual(fixed_point(-0.0, 1), "0.0")

    def test_padding_and_whole_numbers(self):
        self.assertEqual(fixed_point(3.05, 2), "3.05")
        self.assertEqual(fixed_point(0.07, 3), "0.070")
        self.assertEqual(fixed_point(172.4, 0), "172")
        self.assertEqual(fixed_point(-58.5, 0), "-59")

    def test_nil_and_non_finite(self):
        self.assertIsNone(fixed_point(None, 2))
        self.assertEqual(fixed_point(float("nan"), 2), "nan")
        self.assertEqual(fixed_point(float("-inf"), 2), "-inf")


if __name__ == "__main__":
    unittest.main()
