"""One part's tables as Parquet, with data-set ids, written where the output lives:

    OUT/parquet/<table>/part=N/part-N.parquet   fixes, windows, staypoints, triplegs, trips,
                                                dwells, rides, stops, events (published)
    <work>/tables/<table>/part=N/part-N.parquet check-ins, heat maps and each
                                                device's heat-map cells (the merge's input;
                                                never published: cells below k are in it)

Column names follow the published CSVs (OutputSchema: `staypoint_id`, `lat`, `travel_mode`,
`started_unix_s`), values are the store's exact doubles (not the CSVs' rounded text), and
tables with a place carry `geometry` (WKB, GeoParquet 1.1 metadata; geoparquet.py). Fixes
name their file by content (`file_sha256`), device and person, not by a part's file id."""
import json
import os

from . import exported, geoparquet

# store table -> (published name, {store column: published column}). Which columns hold ids,
# and of which rows, is the binary's (`pipeline schema --json`: id_of of the published CSV's
# columns, `numbering.id_columns`); ride ids are numbered their own way (`with_ride_ids`).
PUBLISHED = {
    "staypoints": ("staypoints", {"id": "staypoint_id", "lat_deg": "lat", "lon_deg": "lon"}),
    "triplegs": ("triplegs", {"id": "tripleg_id", "mode": "travel_mode"}),
    "trips": ("trips", {"id": "trip_id"}),
    "dwells": ("dwells", {"id": "dwell_id", "entry_unix_s": "started_unix_s", "exit_unix_s": "finished_unix_s", "lat_deg": "lat",
                          "lon_deg": "lon"}),
    "rides": ("rides", {"id": "ride_id"}),
    "ride_stops": ("stops", {"start_unix_s": "started_unix_s", "end_unix_s": "finished_unix_s"}),
    "ride_events": ("events", {"start_unix_s": "started_unix_s", "end_unix_s": "finished_unix_s"}),
    "mode_windows": ("windows", {"start_unix_s": "started_unix_s", "end_unix_s": "finished_unix_s", "mode": "travel_mode"}),
    "fixes": ("fixes", {"lat_deg": "lat", "lon_deg": "lon"}),
}
INTERMEDIATE = ["checkins", "heatmaps", "heatmap_device_cells"]


def read_export(export_dir, schema, name):
    import pyarrow as pa
    path = os.path.join(export_dir, name + ".csv")
    if not os.path.exists(path):
        return None
    batches = exported.arrow_batches(path, exported.columns(schema, name))
    cols = exported.columns(schema, name)
    target = pa.schema([(c["name"], getattr(pa, exported.ARROW_TYPES[c["type"]])()) for c in cols])
    return pa.Table.from_batches(batches, schema=target) if batches else target.empty_table()


def add(table, column, offset):
    import pyarrow.compute as pc
    if offset == 0 or column not in table.column_names:
        return table
    at = table.column_names.index(column)
    return table.set_column(at, column, pc.add(table[column], offset))


def with_ride_ids(table, column, numbering):
    import pyarrow as pa
    at = table.column_names.index(column)
    values = [None if v is None else numbering.ride(v) for v in table[column].to_pylist()]
    return table.set_column(at, column, pa.array(values, pa.int64()))


def with_dataset_locations(table, name, numbering):
    """Dataset scope: location ids from the data-set pass (already data-set ids)."""
    import pyarrow as pa
    staypoints, trips = numbering.locations
    if name == "staypoints":
        ids = table["id"].to_pylist()
        return table.set_column(table.column_names.index("location_id"), "location_id", pa.array([staypoints.get(i) for i in ids], pa.int64()))
    if name == "trips":
        ids = table["id"].to_pylist()
        for k, column in enumerate(("origin_location_id", "destination_location_id")):
            table = table.set_column(table.column_names.index(column), column, pa.array([trips.get(i, (None, None))[k] for i in ids], pa.int64()))
    return table


def write_part(part_dir, index, numbering, parquet_dir, tables_dir):
    """Writes the part's tables; returns {table: rows}."""
    import pyarrow as pa
    export_dir = os.path.join(part_dir, "export")
    with open(os.path.join(export_dir, "schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    present = {t["name"] for t in schema["tables"]}
    written = {}
    file_name = f"part-{index}.parquet"
    for name in INTERMEDIATE:
        if name in present:
            table = read_export(export_dir, schema, name)
            geoparquet.write(table, os.path.join(tables_dir, name, f"part={index}", file_name))
    staypoints_local = read_export(export_dir, schema, "staypoints") if "staypoints" in present else None
    files = read_export(export_dir, schema, "input_files") if "input_files" in present else None
    for store_name, (name, renames) in PUBLISHED.items():
        if store_name not in present:
            continue
        table = read_export(export_dir, schema, store_name)
        ids = numbering.id_columns.get(name + ".csv", {})
        id_columns = {c: ids[renames.get(c, c)] for c in table.column_names if ids.get(renames.get(c, c)) not in (None, "rides")}
        geometry, bbox, kind = None, None, None
        if store_name in ("staypoints", "dwells", "fixes"):
            geometry, kind = geoparquet.points(table["lon_deg"], table["lat_deg"]), "Point"
            bbox = geoparquet.point_bbox(table["lon_deg"], table["lat_deg"])
        elif store_name == "triplegs":
            lines = [geoparquet.line(json.loads(g)["coordinates"]) if g else None for g in table["geometry_geojson"].to_pylist()]
            geometry, kind, bbox = pa.array(lines, pa.binary()), "LineString", geoparquet.bbox_of(lines)
            table = table.drop_columns(["geometry_geojson"])
        elif store_name == "trips" and staypoints_local is not None:
            at = dict(zip(staypoints_local["id"].to_pylist(), zip(staypoints_local["lon_deg"].to_pylist(), staypoints_local["lat_deg"].to_pylist())))
            lines = [geoparquet.line([at[o], at[d]]) if o in at and d in at else None
                     for o, d in zip(table["origin_staypoint_id"].to_pylist(), table["destination_staypoint_id"].to_pylist())]
            geometry, kind, bbox = pa.array(lines, pa.binary()), "LineString", geoparquet.bbox_of(lines)
        if store_name == "fixes" and files is not None:
            table = with_file_identity(table, files)
        if numbering.locations is not None and store_name in ("staypoints", "trips"):
            table = with_dataset_locations(add(table, "id", numbering.offsets.get(store_name, 0)), store_name, numbering)
            id_columns = {c: s for c, s in id_columns.items() if c != "id" and not c.endswith("location_id")}
        for column, space in id_columns.items():
            table = add(table, column, numbering.offsets.get(space, 0))
        if store_name == "rides":
            table = with_ride_ids(table, "id", numbering)
        elif store_name in ("ride_stops", "ride_events"):
            table = with_ride_ids(table, "ride_id", numbering)
        table = table.rename_columns([renames.get(c, c) for c in table.column_names])
        if geometry is not None:
            table = table.append_column("geometry", geometry)
        geoparquet.write(table, os.path.join(parquet_dir, name, f"part={index}", file_name), kind, bbox)
        written[name] = table.num_rows
    return written


def with_file_identity(fixes, files):
    """Fixes with their file's content hash, device and person in place of the part's file id."""
    import pyarrow as pa
    import pyarrow.compute as pc
    identity = files.select(["id", "content_sha256", "device", "person"]).rename_columns(["file_id", "file_sha256", "device", "person"])
    order = fixes.column_names
    joined = fixes.join(identity, "file_id", join_type="left outer")
    # join does not keep row order: back to (file, seq), the store's primary-key order
    joined = joined.take(pc.sort_indices(joined, sort_keys=[("file_id", "ascending"), ("seq", "ascending")]))
    keep = ["device", "person", "file_sha256"] + [c for c in order if c != "file_id"]
    return joined.select(keep)
