#!/usr/bin/env python3
"""Staypoints by trackintel 1.4 on the fixes a pipeline store holds, one track per file.

Usage: trackintel_reference.py STORE OUT.json [PREFIX]

Writes {"trackintel": version, "parameter_sets": [...], "files": {path: {set_name: [[start, end, lat, lon], ...]}}}
with times in Unix seconds. PREFIX is stripped from the stored paths, so the file names
match wherever the data folder lies. Used by scripts/data/make_trackintel_reference.sh to make
the reference the staypoint tests compare against.
"""
import json
import sqlite3
import sys
import warnings

import geopandas as gpd
import pandas as pd
import trackintel as ti

PARAMETER_SETS = [
    {"name": "default", "dist_threshold": 100, "time_threshold": 5.0, "gap_threshold": 15.0, "include_last": False},
    {"name": "include_last", "dist_threshold": 100, "time_threshold": 5.0, "gap_threshold": 15.0, "include_last": True},
    {"name": "50m_2min", "dist_threshold": 50, "time_threshold": 2.0, "gap_threshold": 15.0, "include_last": False},
    {"name": "20m_1min_gap5", "dist_threshold": 20, "time_threshold": 1.0, "gap_threshold": 5.0, "include_last": True},
]


def main():
    store, out = sys.argv[1], sys.argv[2]
    prefix = sys.argv[3] if len(sys.argv) > 3 else ""
    connection = sqlite3.connect(store)
    frame = pd.read_sql_query(
        """SELECT i.path AS path, f.time_unix_s AS t, f.lat_deg AS lat, f.lon_deg AS lon
           FROM fixes f JOIN input_files i ON i.id = f.file_id
           WHERE i.status = 'ingested' AND f.time_unix_s IS NOT NULL ORDER BY f.file_id, f.seq""",
        connection,
    )
    result = {"trackintel": ti.__version__, "parameter_sets": PARAMETER_SETS, "files": {}}
    for path, fixes in frame.groupby("path", sort=True):
        name = path[len(prefix):] if path.startswith(prefix) else path
        pfs = gpd.GeoDataFrame(
            {"user_id": 0, "tracked_at": pd.to_datetime(fixes["t"].to_numpy(), unit="s", utc=True)},
            geometry=gpd.points_from_xy(fixes["lon"], fixes["lat"]),
            crs="EPSG:4326",
        )
        pfs = ti.Positionfixes(pfs)
        per_set = {}
        for parameters in PARAMETER_SETS:
            arguments = {key: value for key, value in parameters.items() if key != "name"}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _, staypoints = pfs.generate_staypoints(method="sliding", **arguments)
            per_set[parameters["name"]] = [
                [row.started_at.timestamp(), row.finished_at.timestamp(), row.geometry.y, row.geometry.x]
                for row in staypoints.itertuples()
            ]
        result["files"][name] = {"fixes": len(fixes), "staypoints": per_set}
    with open(out, "w") as handle:
        json.dump(result, handle, indent=1, sort_keys=True)
        handle.write("\n")


if __name__ == "__main__":
    main()
