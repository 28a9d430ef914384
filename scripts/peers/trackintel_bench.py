#!/usr/bin/env python3
"""trackintel 1.4 on the fixes of `pipeline-bench generate-days`: generate_staypoints
(sliding, 100 m / 5 min / gap 15 min), then generate_triplegs and generate_trips (activity
15 min), timed like the pipeline's own measurement. Prints one line per stage.

Usage: trackintel_bench.py FILE.csv NAME
"""
import sys
import time
import warnings

import geopandas as gpd
import pandas as pd
import trackintel as ti


def main():
    path, name = sys.argv[1], sys.argv[2]
    frame = pd.read_csv(path)
    pfs = gpd.GeoDataFrame(
        {"user_id": frame["user_id"], "tracked_at": pd.to_datetime(frame["tracked_at_unix_s"], unit="s", utc=True)},
        geometry=gpd.points_from_xy(frame["longitude"], frame["latitude"]),
        crs="EPSG:4326",
    )
    pfs = ti.Positionfixes(pfs)
    fixes = len(pfs)
    warnings.simplefilter("ignore")
    start = time.perf_counter()
    pfs, sp = pfs.generate_staypoints(method="sliding", dist_threshold=100, time_threshold=5.0, gap_threshold=15.0)
    staypoints_s = time.perf_counter() - start
    pfs, tpls = pfs.generate_triplegs(sp, method="between_staypoints", gap_threshold=15)
    sp = sp.create_activity_flag(method="time_threshold", time_threshold=15.0)
    sp, tpls, trips = sp.generate_trips(tpls, gap_threshold=15)
    chain_s = time.perf_counter() - start
    print(f"{name}: trackintel {ti.__version__} staypoints ({len(sp)} staypoints)  {staypoints_s:.3f} s  {fixes / staypoints_s:.3g} fixes/s")
    print(f"{name}: trackintel staypoints+triplegs+trips ({len(trips)} trips)  {chain_s:.3f} s  {fixes / chain_s:.3g} fixes/s")


if __name__ == "__main__":
    main()
