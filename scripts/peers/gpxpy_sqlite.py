#!/usr/bin/env python3
"""The peer of `pipeline ingest FILE.gpx --store S`: gpxpy parses the file, and sqlite3 writes
its track points into a fresh table in one transaction with one prepared `executemany`, the
fastest plain way in Python. No cleaning (the pipeline also cleans and deduplicates).
Usage: gpxpy_sqlite.py FILE STORE"""
import os
import sqlite3
import sys

import gpxpy

path, store = sys.argv[1], sys.argv[2]
if os.path.exists(store):
    os.remove(store)
with open(path, encoding="utf-8") as handle:
    gpx = gpxpy.parse(handle)
rows = ((p.time.timestamp() if p.time else None, p.latitude, p.longitude, p.elevation)
        for track in gpx.tracks for segment in track.segments for p in segment.points)
connection = sqlite3.connect(store)
connection.execute("CREATE TABLE fixes (time_s REAL, latitude REAL, longitude REAL, elevation_m REAL)")
with connection:
    connection.executemany("INSERT INTO fixes VALUES (?, ?, ?, ?)", rows)
count = connection.execute("SELECT count(*) FROM fixes").fetchone()[0]
connection.close()
print(f"gpxpy {gpxpy.__version__} + sqlite3 {sqlite3.sqlite_version}: {count} rows")
