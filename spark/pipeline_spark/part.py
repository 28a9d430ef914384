"""One part of a distributed run, on an executor: `pipeline run --partial` over the part's
files in a temporary folder of the executor, then `pipeline export` of the tables the merge
needs. Everything the merge reads comes back as the task's result, so a cluster needs no
shared folder for intermediate data, and a retried task's result replaces the failed
attempt's: Spark keeps one result per partition, so rows are never duplicated."""
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time

# What the merge reads from each part's store: every table but the raw samples
# (fixes, waypoints, IMU), the run bookkeeping and what is rebuilt from the parts.
EXPORTED_TABLES = [
    "runs", "input_files", "imu_streams", "other_sensors", "labels", "geofences", "checkins", "dropped_records", "quarantine",
    "classified_files", "stage_failures", "mode_windows", "locations", "staypoints", "dwells", "trips", "triplegs",
    "heatmaps", "heatmap_device_cells", "rides", "ride_stops", "ride_events",
]

PART_FILES = ["staypoints.csv", "dwells.csv", "locations.csv", "triplegs.csv", "trips.csv", "device_stats.csv", "modes.csv",
              "rides.csv", "stops.csv", "events.csv", "staypoints.geojson", "triplegs.geojson", "dwells.geojson"]


def run_part(part, binary, run_args, fail_marker=None):
    """The part's results as one dict (see `merge`)."""
    started = time.time()
    if fail_marker:  # a test's injected failure: the first attempt to take the marker dies, its retry succeeds
        try:
            os.remove(fail_marker)
        except FileNotFoundError:
            pass
        else:
            raise RuntimeError(f"part {part['index']}: injected failure (test), Spark retries the task")
    work = tempfile.mkdtemp(prefix=f"pipeline-part-{part['index']}-")
    try:
        out = os.path.join(work, "part")
        command = [binary, "run", *part["files"], "--out", out, "--partial", "--json", *run_args]
        if part.get("first") is not None:
            command += ["--devices-from", part["first"]]
        if part.get("before") is not None:
            command += ["--devices-before", part["before"]]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode not in (0, 2):
            raise RuntimeError(f"part {part['index']}: pipeline run exited {run.returncode}:\n{run.stderr[-4000:]}")
        store = os.path.join(out, "pipeline.sqlite")
        export = os.path.join(work, "export")
        tables = [t for t in EXPORTED_TABLES if t in existing_tables(store)]
        exported = subprocess.run([binary, "export", "--store", store, "--out", export, *sum((["--table", t] for t in tables), [])],
                                  capture_output=True, text=True)
        if exported.returncode != 0:
            raise RuntimeError(f"part {part['index']}: pipeline export exited {exported.returncode}:\n{exported.stderr[-4000:]}")
        result = {
            "index": part["index"], "devices": part["devices"], "bytes": part["bytes"], "exit_status": run.returncode,
            "summary": json.loads(run.stdout), "log": run.stderr + exported.stderr, "ddl": schema(store),
            "schema": read(os.path.join(export, "schema.json")),
            "tables": {t: read(os.path.join(export, t + ".csv")) for t in tables},
            "files": {name: read(os.path.join(out, "part-tables", name)) for name in PART_FILES
                      if os.path.exists(os.path.join(out, "part-tables", name))},
        }
        result["seconds"] = time.time() - started
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def existing_tables(store):
    with sqlite3.connect(store) as db:
        return {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def schema(store):
    """The store's CREATE statements and migration marks, so the driver makes an empty store
    the binary opens as its own."""
    with sqlite3.connect(store) as db:
        ddl = [row[0] for row in db.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type = 'index', rowid")]
        migrations = [row[0] for row in db.execute("SELECT identifier FROM grdb_migrations ORDER BY rowid")]
    return {"ddl": ddl, "migrations": migrations}
