"""Parquet files with a WKB geometry column and GeoParquet 1.1 `geo` metadata
(https://geoparquet.org/releases/v1.1.0/, "Column metadata": encoding WKB, geometry_types,
bbox; no `crs` member means OGC:CRS84, longitude then latitude, the coordinates we store).

WKB (OGC Simple Features 1.2.1, clause 8.2): byte order 1 (little endian), a uint32 type
(1 Point, 2 LineString), then the coordinates as float64. Points are built as one numpy
buffer, not a Python object per row: a part's fixes are millions of rows."""
import json
import struct

POINT_DTYPE = [("order", "u1"), ("type", "<u4"), ("x", "<f8"), ("y", "<f8")]


def points(lon, lat):
    """A binary Arrow array of WKB points from two float64 arrays."""
    import numpy as np
    import pyarrow as pa
    lon, lat = np.asarray(lon, dtype="float64"), np.asarray(lat, dtype="float64")
    n = len(lon)
    wkb = np.empty(n, dtype=POINT_DTYPE)
    wkb["order"], wkb["type"], wkb["x"], wkb["y"] = 1, 1, lon, lat
    offsets = np.arange(0, 21 * (n + 1), 21, dtype="int32")
    return pa.Array.from_buffers(pa.binary(), n, [None, pa.py_buffer(offsets.tobytes()), pa.py_buffer(wkb.tobytes())])


def line(coordinates):
    """WKB of a LineString from [(lon, lat), …]; None for fewer than two points."""
    if coordinates is None or len(coordinates) < 2:
        return None
    return struct.pack("<BII", 1, 2, len(coordinates)) + b"".join(struct.pack("<dd", float(x), float(y)) for x, y, *_ in coordinates)


def bbox_of(wkb_values):
    """[xmin, ymin, xmax, ymax] over WKB points and lines (None when there is no geometry)."""
    xs, ys = [], []
    for value in wkb_values:
        if value is None:
            continue
        kind = struct.unpack_from("<I", value, 1)[0]
        if kind == 1:
            x, y = struct.unpack_from("<dd", value, 5)
            xs.append(x), ys.append(y)
        else:
            n = struct.unpack_from("<I", value, 5)[0]
            coords = struct.unpack_from(f"<{2 * n}d", value, 9)
            xs += coords[0::2]
            ys += coords[1::2]
    return [min(xs), min(ys), max(xs), max(ys)] if xs else None


def point_bbox(lon, lat):
    import pyarrow.compute as pc
    if len(lon) == 0:
        return None
    return [pc.min(lon).as_py(), pc.min(lat).as_py(), pc.max(lon).as_py(), pc.max(lat).as_py()]


def metadata(geometry_type, bbox):
    column = {"encoding": "WKB", "geometry_types": [geometry_type]}
    if bbox is not None:
        column["bbox"] = bbox
    return {"version": "1.1.0", "primary_column": "geometry", "columns": {"geometry": column}}


def write(table, path, geometry_type=None, bbox=None):
    """Writes `table` to `path` (replacing it atomically); with `geometry_type`, its
    `geometry` column is declared in the `geo` metadata."""
    import os

    import pyarrow.parquet as pq
    if geometry_type is not None:
        meta = dict(table.schema.metadata or {})
        meta[b"geo"] = json.dumps(metadata(geometry_type, bbox)).encode()
        table = table.replace_schema_metadata(meta)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    pq.write_table(table, path + ".partial", compression="zstd")
    os.replace(path + ".partial", path)
