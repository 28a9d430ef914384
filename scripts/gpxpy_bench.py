"""Times gpxpy (the peer) parsing one GPX file: points/s, MB/s and peak memory."""
import os
import resource
import sys
import time

import gpxpy

path = sys.argv[1]
start = time.perf_counter()
with open(path, encoding="utf-8") as handle:
    gpx = gpxpy.parse(handle)
seconds = time.perf_counter() - start
points = sum(len(segment.points) for track in gpx.tracks for segment in track.segments)
megabytes = os.path.getsize(path) / 1e6
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"gpxpy {gpxpy.__version__} {os.path.basename(path):<30} {seconds:8.3f} s  "
      f"{points / seconds:.3g} points/s, {megabytes / seconds:.3g} MB/s  peak RSS {rss:.0f} MB")
