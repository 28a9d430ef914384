"""`pipeline time-zone` (models/time-zones.bin: timezone-boundary-builder's polygons simplified
to 0.0005 degree, about 50 m) against timezonefinder 9.0.0 on the same release's unsimplified
polygons, an independent reader of the source data.

- 20,000 points spread evenly over the globe (a Fibonacci lattice, land and sea alike): the
  zone names must agree on 99.9 % of them.
- Points 300 m either side of a border: along seeded 30 km lines over the lands people
  live in, every change of zone timezonefinder finds is bisected to 0.1 m, and a point is taken
  300 m before and after it on the line, kept when timezonefinder finds its zone all round it
  200 m away (2,000 points). 200 m is four times the tolerance: every one must agree.
- Where the source's polygons of two zones overlap (the West Bank's Asia/Hebron and
  Asia/Jerusalem), timezonefinder answers by the order it tries candidates in and we by the
  smaller bounding box: those points are counted apart, not as disagreements.

Run by scripts/peers/peer_test.sh (part of scripts/test.sh)."""
import math
import os
import random
import subprocess
import unittest

from timezonefinder import TimezoneFinder

BINARY = os.environ["PIPELINE_BINARY"]


def ours(points):
    text = "lat,lon\n" + "".join(f"{lat:.7f},{lon:.7f}\n" for lat, lon in points)
    out = subprocess.run([BINARY, "time-zone", "--csv"], input=text, capture_output=True, text=True, check=True).stdout
    rows = out.strip().split("\n")[1:]
    return [row.split(",")[2] for row in rows]


def in_ring(xs, ys, x, y):
    inside, j = False, len(xs) - 1
    for i in range(len(xs)):
        if (ys[i] > y) != (ys[j] > y) and x < xs[i] + (y - ys[i]) * (xs[j] - xs[i]) / (ys[j] - ys[i]):
            inside = not inside
        j = i
    return inside


def fibonacci(count):
    golden = math.pi * (3 - math.sqrt(5))
    for i in range(count):
        z = 1 - 2 * (i + 0.5) / count
        yield math.degrees(math.asin(z)), math.degrees(math.remainder(golden * i, 2 * math.pi))


class TimeZonesAgainstTimezonefinder(unittest.TestCase):
    tf = TimezoneFinder()

    def theirs(self, lat, lon):
        return self.tf.timezone_at(lat=lat, lng=lon)

    def in_source(self, zone, lat, lon):
        """Whether the source's polygons of `zone` hold the point (outer ring, no hole)."""
        return any(in_ring(*poly[0], lon, lat) and not any(in_ring(*hole, lon, lat) for hole in poly[1:])
                   for poly in self.tf.get_geometry(tz_name=zone))

    def disagreements(self, points, mine):
        """Points where the zones differ, and of them those where the source's polygons of both
        zones hold the point (the source overlaps there: timezonefinder answers by its candidates'
        order, we by the smaller bounding box, and either is the source's answer)."""
        differ = [(p, a, self.theirs(*p)) for p, a in zip(points, mine) if a != self.theirs(*p)]
        overlap = [d for d in differ if self.in_source(d[1], *d[0]) and self.in_source(d[2], *d[0])]
        return [d for d in differ if d not in overlap], overlap

    def test_points_over_the_globe(self):
        points = list(fibonacci(20_000))
        mine = ours(points)
        disagree, overlap = self.disagreements(points, mine)
        share = 1 - len(disagree) / len(points)
        print(f"\nglobe: {len(points) - len(disagree) - len(overlap)} of {len(points)} points agree, {len(overlap)} where the "
              f"source's zones overlap ({share:.4%} but for those); first disagreements: {disagree[:5]}")
        self.assertGreaterEqual(share, 0.999)

    def test_points_300_m_from_a_border(self):
        rng = random.Random(82)
        # Bands of land where people live and zones meet: Europe, the Americas, Africa, Asia, Australia.
        boxes = [(35, 60, -10, 40), (25, 50, -125, -70), (-35, 10, -75, -35), (-30, 35, -15, 45), (5, 55, 45, 135), (-40, -12, 115, 153)]
        pairs = []
        while len(pairs) < 2_000:
            south, north, west, east = rng.choice(boxes)
            lat, lon = rng.uniform(south, north), rng.uniform(west, east)
            bearing = rng.uniform(0, 2 * math.pi)
            dlat = 30_000 * math.cos(bearing) / 111_320
            dlon = 30_000 * math.sin(bearing) / (111_320 * math.cos(math.radians(lat)))
            a, b = (lat, lon), (lat + dlat, lon + dlon)
            steps = 60
            line = [(a[0] + (b[0] - a[0]) * t / steps, a[1] + (b[1] - a[1]) * t / steps) for t in range(steps + 1)]
            zones = [self.theirs(*p) for p in line]
            for i in range(steps):
                if zones[i] == zones[i + 1]:
                    continue
                lo, hi = 0.0, 1.0
                p, q = line[i], line[i + 1]
                for _ in range(12):  # 500 m to about 0.1 m
                    mid = (lo + hi) / 2
                    point = (p[0] + (q[0] - p[0]) * mid, p[1] + (q[1] - p[1]) * mid)
                    if self.theirs(*point) == zones[i]:
                        lo = mid
                    else:
                        hi = mid
                cross = (p[0] + (q[0] - p[0]) * lo, p[1] + (q[1] - p[1]) * lo)
                unit = ((b[0] - a[0]) / 30_000, (b[1] - a[1]) / 30_000)  # degrees per metre along the line
                before = (cross[0] - 300 * unit[0], cross[1] - 300 * unit[1])
                after = (cross[0] + 300 * unit[0], cross[1] + 300 * unit[1])
                # 300 m along a line that meets the border at a slant can lie nearer it: keep a
                # point only when a 200 m circle round it is all in its zone (16 points).
                for point in (before, after):
                    zone = self.theirs(*point)
                    circle = [
                        (point[0] + 200 * math.cos(k * math.pi / 8) / 111_320,
                         point[1] + 200 * math.sin(k * math.pi / 8) / (111_320 * math.cos(math.radians(point[0]))))
                        for k in range(16)
                    ]
                    if all(self.theirs(*c) == zone for c in circle):
                        pairs.append(point)
        mine = ours(pairs)
        disagree, overlap = self.disagreements(pairs, mine)
        print(f"\nborders: {len(pairs) - len(disagree) - len(overlap)} of {len(pairs)} points 200–300 m from a border agree, "
              f"{len(overlap)} where the source's zones overlap ({overlap[:3]}); disagreements: {disagree[:5]}")
        self.assertEqual(disagree, [])


if __name__ == "__main__":
    unittest.main()
