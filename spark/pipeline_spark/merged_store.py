"""One SQLite store holding every part's rows, for `pipeline publish` (the report, the heat
maps, quarantine.csv) on the driver.

Integer ids are renumbered part after part (an id plus the largest id of that table in the
parts before), and every column that references one (the store's declared foreign keys)
follows. A file every part read (geofences, stations, check-ins, labels) is kept once: its
rows from later parts are the same rows, so they map onto the first part's."""
import os
import sqlite3

from . import exported

SKIPPED = {"heatmap_device_cells", "derived_state", "heatmaps", "heatmap_cells"}  # the merge's heat maps go in by insert_heat_maps


def create(path, ddl):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    for statement in ddl["ddl"]:
        db.execute(statement)
    db.executemany("INSERT OR IGNORE INTO grdb_migrations (identifier) VALUES (?)", [(m,) for m in ddl["migrations"]])
    db.commit()
    return db


def foreign_keys(db, table):
    return {row[3]: row[2] for row in db.execute(f"PRAGMA foreign_key_list({table})")}


def has_integer_id(db, table):
    return any(row[1] == "id" and row[5] == 1 and row[2].upper() == "INTEGER" for row in db.execute(f"PRAGMA table_info({table})"))


def fill(db, parts, table_rows, order):
    """`table_rows(part, table)` yields the part's typed rows with their column names.
    `order`: tables in an order where a referenced table comes before its references."""
    id_map = {}  # (part, table) -> {old id: new id}
    shared_files = {}  # part -> file ids that an earlier part already holds
    for table in order:
        if table in SKIPPED:
            continue
        keys, with_id = foreign_keys(db, table), has_integer_id(db, table)
        base = (db.execute(f"SELECT MAX(id) FROM {table}").fetchone()[0] or 0) if with_id else 0
        for part in parts:
            got = table_rows(part, table)
            if got is None:
                continue
            columns, rows = got
            at = {c: i for i, c in enumerate(columns)}
            mapping = id_map.setdefault((part, table), {})
            largest = 0
            insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"
            for row in rows:
                row = list(row)
                for column, target in keys.items():
                    if column in at and row[at[column]] is not None and (part, target) in id_map:
                        row[at[column]] = id_map[(part, target)].get(row[at[column]], row[at[column]])
                if table == "input_files":
                    found = db.execute("SELECT id FROM input_files WHERE path = ?", (row[at["path"]],)).fetchone()
                    if found:
                        mapping[row[at["id"]]] = found[0]
                        shared_files.setdefault(part, set()).add(found[0])
                        continue
                elif "file_id" in at and row[at["file_id"]] in shared_files.get(part, ()):
                    if with_id:  # the same row as the first part's: map onto it
                        others = [c for c in columns if c != "id"]
                        found = db.execute(f"SELECT id FROM {table} WHERE " + " AND ".join(f"{c} IS ?" for c in others),
                                           [row[at[c]] for c in others]).fetchone()
                        if found:
                            mapping[row[at["id"]]] = found[0]
                    continue
                if with_id:
                    old = row[at["id"]]
                    mapping[old] = old + base
                    row[at["id"]] = old + base
                    largest = max(largest, old)
                db.execute(insert, row)
            base += largest
    db.commit()


def order_tables(db, tables):
    """References after what they reference."""
    done, ordered = set(), []

    def visit(t):
        if t in done or t not in tables:
            return
        done.add(t)
        for target in foreign_keys(db, t).values():
            if target != t:
                visit(target)
        ordered.append(t)
    for t in tables:
        visit(t)
    return ordered


def insert_heat_maps(db, maps):
    db.execute("DELETE FROM heatmap_cells")
    db.execute("DELETE FROM heatmaps")
    for m in maps:
        db.execute("INSERT INTO heatmaps (map, cell_m, min_devices, filter, cells, suppressed_cells) VALUES (?, ?, ?, ?, ?, ?)",
                   (m["map"], m["cell_m"], m["min_devices"], m["filter"], len(m["cells"]), m["suppressed"]))
        # Centre and edges follow from the cell id; `pipeline publish` computes them (0 until then).
        db.executemany("INSERT INTO heatmap_cells (map, cell_id, center_lat_deg, center_lon_deg, south_deg, west_deg, north_deg, east_deg,"
                       " fixes, devices, persons, dwell_s) VALUES (?, ?, 0, 0, 0, 0, 0, 0, ?, ?, ?, ?)",
                       [(m["map"], c[0], c[1], c[2], c[3], c[4]) for c in m["cells"]])
    db.commit()
