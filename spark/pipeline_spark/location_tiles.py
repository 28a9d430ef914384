"""Dataset-scope locations (trips.locations.scope: dataset) clustered where the staypoints
are: each part's task puts its staypoints (data-set ids) into spatial tiles of a fixed size
in degrees, each staypoint also into the neighbouring tiles it lies within 2ε of (the halo);
Spark's shuffle brings each tile to one reducer task, which runs `pipeline locations
--tile-points` on its tiles (LocationClusterer.tileLinks: core points, clusters, borders of
the tile's own staypoints) and writes the links into the work folder; the merged store's
task then joins every tile's links (`pipeline locations --links`) into the locations of one
DBSCAN pass over every staypoint (LocationClusterer+Tiles.swift says why they are equal).

The halo is generous, never short: 1.5 × 2ε, with a degree of latitude taken as 110.5 km
(the shortest: at the equator), and a degree of longitude shrunk by the cosine of the
latitude nearer the pole. A larger halo costs duplicates, never a different answer; tiles
wrap at the antimeridian, and near a pole a staypoint's halo spans every column."""
import json
import math
import os
import subprocess
import tempfile
import time
import zlib

from . import parquet_tables

METRES_PER_DEGREE_LATITUDE_MIN = 110_500.0


def tiles_of(lat, lon, halo_deg_lat, tile_deg):
    """(row, column) of every tile whose owned area lies within the halo of (lat, lon), the
    owning tile first."""
    columns = round(360 / tile_deg)
    own = (math.floor((lat + 90) / tile_deg), math.floor((lon + 180) / tile_deg) % columns)
    shrink = math.cos(math.radians(min(90.0, abs(lat) + halo_deg_lat)))
    halo_deg_lon = halo_deg_lat / shrink if shrink > 1e-9 else 360.0
    rows = range(math.floor((lat - halo_deg_lat + 90) / tile_deg), math.floor((lat + halo_deg_lat + 90) / tile_deg) + 1)
    if halo_deg_lon >= 180:
        cols = range(columns)
    else:
        cols = range(math.floor((lon - halo_deg_lon + 180) / tile_deg), math.floor((lon + halo_deg_lon + 180) / tile_deg) + 1)
    found = [own]
    for row in rows:
        for col in {c % columns for c in cols}:
            if (row, col) != own:
                found.append((row, col))
    return found


def points(task, epsilon_m, tile_deg):
    """(tile, (id, lat, lon, owned)) for one part's staypoints, from its export."""
    export_dir = os.path.join(task["part_dir"], "export")
    with open(os.path.join(export_dir, "schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    if "staypoints" not in {t["name"] for t in schema["tables"]}:
        return
    table = parquet_tables.read_export(export_dir, schema, "staypoints")
    halo_deg = 1.5 * 2 * epsilon_m / METRES_PER_DEGREE_LATITUDE_MIN
    offset = task["offset"]
    for local, lat, lon in zip(table["id"].to_pylist(), table["lat_deg"].to_pylist(), table["lon_deg"].to_pylist()):
        for k, tile in enumerate(tiles_of(lat, lon, halo_deg, tile_deg)):
            yield tile, (local + offset, lat, lon, k == 0)


def bucket(tile):
    return zlib.crc32(repr(tile).encode("utf-8"))


def links(reducer, items, binary, config_args, folder):
    """One reducer: its tiles' staypoints into a file, `pipeline locations --tile-points` over
    it, the links into `folder`/part-<reducer>.csv. Yields the step's summary and seconds."""
    started = time.time()
    os.makedirs(folder, exist_ok=True)
    rows = sorted((tile, point) for tile, point in items)
    with tempfile.TemporaryDirectory(prefix="pipeline-tiles-") as work:
        path = os.path.join(work, "points.csv")
        with open(path, "w", encoding="utf-8") as f:
            f.write("tile,id,lat_deg,lon_deg,owned\n")
            for (row, col), (id_, lat, lon, owned) in rows:
                f.write(f"{row}:{col},{id_},{lat!r},{lon!r},{1 if owned else 0}\n")
        target = os.path.join(folder, f"part-{reducer:05d}.csv")
        done = subprocess.run([binary, "locations", "--tile-points", path, "--links-out", target + ".partial", "--json", *config_args],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"pipeline locations --tile-points exited {done.returncode}: {done.stderr.strip()[-3000:]}")
        os.replace(target + ".partial", target)
    yield dict(json.loads(done.stdout), reducer=reducer, seconds=time.time() - started)
