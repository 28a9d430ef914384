"""Times gpxpy (the peer) parsing one GPX file: points/s, MB/s and peak memory.

Usage: gpxpy_bench.py FILE [REPEATS]; reports the best of REPEATS parses (default 1), as
pipeline-bench does with BENCH_REPEATS.
"""
import os
import resource
import sys
import time

import gpxpy

path = sys.argv[1]
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 1
seconds = float("inf")
for _ in range(repeats):
    start = time.perf_counter()
    with open(path, encoding="utf-8") as handle:
        gpx = gpxpy.parse(handle)
    seconds = min(seconds, time.perf_counter() - start)
points = sum(len(segment.points) for track in gpx.tracks for segment in track.segments)
megabytes = os.path.getsize(path) / 1e6
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
best = f" (best of {repeats})" if repeats > 1 else ""
print(f"gpxpy {gpxpy.__version__} {os.path.basename(path) + best:<42} {seconds:8.3f} s  "
      f"{points / seconds:.3g} points/s, {megabytes / seconds:.3g} MB/s  peak RSS {rss:.0f} MB")
