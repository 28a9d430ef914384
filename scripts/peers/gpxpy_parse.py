#!/usr/bin/env python3
"""The peer of `pipeline inspect FILE.gpx`: gpxpy reads and parses the whole file and counts
its track points. Whole process, like the pipeline's command. Usage: gpxpy_parse.py FILE"""
import sys

import gpxpy

with open(sys.argv[1], encoding="utf-8") as handle:
    gpx = gpxpy.parse(handle)
points = sum(len(segment.points) for track in gpx.tracks for segment in track.segments)
print(f"gpxpy {gpxpy.__version__}: {points} track points")
