#!/usr/bin/env python3
"""The peer of `pipeline ingest DIR && pipeline trips`: trackintel reads a GeoLife folder
(`read_geolife`), then generates staypoints (sliding, 100 m, 5 min, gap 15 min: the pipeline's
defaults), triplegs and trips (activities of 15 min or more). Whole process, reading included.
Usage: trackintel_geolife.py DIR (the folder holding Data/<user>/Trajectory)"""
import os
import sys
import warnings

import trackintel as ti

warnings.simplefilter("ignore")
folder = sys.argv[1]
pfs, _ = ti.io.read_geolife(os.path.join(folder, "Data"), print_progress=False)
pfs, sp = pfs.generate_staypoints(method="sliding", dist_threshold=100, time_threshold=5.0, gap_threshold=15.0)
pfs, tpls = pfs.generate_triplegs(sp, method="between_staypoints", gap_threshold=15)
sp = sp.create_activity_flag(method="time_threshold", time_threshold=15.0)
sp, tpls, trips = sp.generate_trips(tpls, gap_threshold=15)
print(f"trackintel {ti.__version__}: {len(pfs)} fixes, {len(sp)} staypoints, {len(tpls)} triplegs, {len(trips)} trips")
