"""One SQLite store holding every part's rows (but the raw fixes, which are in Parquet), for
`pipeline publish` (the report, the heat maps, quarantine.csv). Built by one Spark task on
an executor from the parts' exports in the work folder (`build`), never on the driver.

Integer ids are renumbered part after part (an id plus the largest id of that table in the
parts before), and every column that references one (the store's declared foreign keys)
follows. A file every part read (geofences, stations, check-ins, labels) is kept once: its
rows from later parts are the same rows, so they map onto the first part's.

A table with no integer id, no reference and no file (`verbatim_tables`: the classified
windows, a million rows at 1,600 device-days) needs none of that: each part's task copies
its rows into a small SQLite file (`copy_verbatim`), and the merge appends them in SQLite
(`INSERT … SELECT` from the attached file), not row by row in Python, which took 9.7 s of
the merged store's task at 1,600 device-days."""
import json
import os
import shutil
import sqlite3
import tempfile

from . import exported

SKIPPED = {"heatmap_device_cells", "derived_state", "heatmaps", "heatmap_cells", "fixes"}  # heat maps: `pipeline publish --reduced`
VERBATIM = "verbatim.sqlite"  # in each part's folder: copy_verbatim's file


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


def verbatim_tables(db, tables):
    """The tables of `tables` whose rows are merged as they are: no integer id, no declared
    reference, no file_id (a file every part read would be kept once)."""
    def columns(t):
        return [row[1] for row in db.execute(f"PRAGMA table_info({t})")]
    return [t for t in tables if t not in SKIPPED and not has_integer_id(db, t) and not foreign_keys(db, t) and "file_id" not in columns(t)]


def copy_verbatim(store, target, tables):
    """A part's task: the rows of `verbatim_tables` of its store into the new SQLite file
    `target` (on the executor's disk; the caller moves it), with the store's table
    definitions. Returns the tables copied."""
    with sqlite3.connect(store) as db:
        copied = verbatim_tables(db, tables)
        db.execute("ATTACH DATABASE ? AS piece", (target,))
        for table in copied:
            ddl = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()[0]
            if not ddl.startswith(f"CREATE TABLE {table} ("):
                raise RuntimeError(f"{table}: unexpected definition {ddl[:80]!r}; the merge copies the store's own definition")
            db.execute(ddl.replace(f"CREATE TABLE {table} (", f"CREATE TABLE piece.{table} (", 1))
            names = ", ".join(row[1] for row in db.execute(f"PRAGMA table_info({table})"))
            db.execute(f"INSERT INTO piece.{table} ({names}) SELECT {names} FROM main.{table}")
        db.commit()
        db.execute("DETACH DATABASE piece")
    return copied


def append_verbatim(db, pieces):
    """The merge's side: each part's verbatim rows appended in part order, in SQLite."""
    for piece in pieces:
        db.execute("ATTACH DATABASE ? AS piece", (piece,))
        for (table,) in db.execute("SELECT name FROM piece.sqlite_master WHERE type = 'table'").fetchall():
            names = ", ".join(row[1] for row in db.execute(f"PRAGMA main.table_info({table})"))
            db.execute(f"INSERT INTO main.{table} ({names}) SELECT {names} FROM piece.{table}")
        db.commit()
        db.execute("DETACH DATABASE piece")


def fill(db, parts, table_rows, order):
    """`table_rows(part, table)` yields the part's typed rows with their column names.
    `order`: tables in an order where a referenced table comes before its references."""
    id_map = {}  # (part, table) -> {old id: new id}
    shared_files = {}  # part -> file ids that an earlier part already holds
    # Rows of a file every part read, as the first part to hold it inserted them:
    # (table, file id) -> [(new id, the row but its id)]. A later part's rows of that file are
    # the same rows in the same (id) order, so the n-th maps onto the n-th: no query per row
    # (a SELECT per row made the 64-part store of 400 device-days take 76 s).
    first_rows = {}
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
            batch = []  # one executemany per part and table: rows only look up earlier parts' rows
            seen = {}  # file id -> rows of that shared file met in this part
            every_shared = set().union(*shared_files.values())  # complete: input_files comes first for all parts
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
                        file_id, rest = row[at["file_id"]], tuple(v for c, v in zip(columns, row) if c != "id")
                        n = seen[file_id] = seen.get(file_id, 0) + 1
                        earlier = first_rows.get((table, file_id), [])
                        if n <= len(earlier) and earlier[n - 1][1] == rest:
                            mapping[row[at["id"]]] = earlier[n - 1][0]
                        else:  # not in the same order: find it by its values
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
                    if "file_id" in at and row[at["file_id"]] in every_shared:
                        first_rows.setdefault((table, row[at["file_id"]]), []).append(
                            (row[at["id"]], tuple(v for c, v in zip(columns, row) if c != "id")))
                batch.append(row)
            db.executemany(insert, batch)
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


def part_rows(part_dir):
    """table_rows for `fill`: a part's exported table as (columns, rows), parsed by Arrow."""
    export = os.path.join(part_dir, "export")
    with open(os.path.join(export, "schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    names = {t["name"] for t in schema["tables"]}

    def rows(name):
        if name not in names or name in SKIPPED:
            return None
        cols = exported.columns(schema, name)
        batches = exported.arrow_batches(os.path.join(export, name + ".csv"), cols)
        columns = [c["name"] for c in cols]
        out = []
        for batch in batches:
            out += zip(*[batch.column(i).to_pylist() for i in range(batch.num_columns)])
        return columns, out
    return rows, [t["name"] for t in schema["tables"]]


def build(part_dirs, target):
    """The merged store of the parts in `part_dirs` (in part order) at `target`, built in a
    temporary folder of the executor (SQLite on a shared file system is slow and its locks
    unreliable) and copied into place."""
    local = tempfile.mkdtemp(prefix="pipeline-merge-")
    try:
        path = os.path.join(local, "pipeline.sqlite")
        with open(os.path.join(part_dirs[0], "ddl.json"), encoding="utf-8") as f:
            db = create(path, json.load(f))
        readers = {i: part_rows(d) for i, d in enumerate(part_dirs)}
        pieces = [os.path.join(d, VERBATIM) for d in part_dirs]
        verbatim = set(verbatim_tables(db, readers[0][1]))
        tables = [t for t in readers[0][1] if t not in verbatim]
        fill(db, list(readers), lambda i, name: readers[i][0](name), order_tables(db, tables))
        append_verbatim(db, pieces)
        db.close()
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(path, target + ".partial")
        os.replace(target + ".partial", target)
    finally:
        shutil.rmtree(local, ignore_errors=True)

