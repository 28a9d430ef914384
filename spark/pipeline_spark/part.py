"""One part of a distributed run, on an executor: `pipeline run --partial` over the part's
files in a temporary folder of the executor, then `pipeline export` of its store, and the
results moved into the run's work folder on the shared file system (layout.py).

The task's result is a few numbers (rows per id space, exit status, seconds): nothing that
grows with the data passes through the driver. A retried or speculative attempt builds its
folder beside and renames it into place, so one attempt's rows count, never two."""
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time
import uuid

from . import layout, merged_store

# What the merge reads from each part's store: every table but the run bookkeeping and
# what is rebuilt from the parts, and the raw IMU samples (fixes go to Parquet).
EXPORTED_TABLES = [
    "runs", "input_files", "imu_streams", "other_sensors", "labels", "geofences", "checkins", "dropped_records", "quarantine",
    "classified_files", "stage_failures", "mode_windows", "locations", "staypoints", "dwells", "trips", "triplegs",
    "heatmaps", "heatmap_device_cells", "rides", "ride_stops", "ride_events", "fixes",
    "device_zones", "person_days", "untracked_intervals", "diary_episodes",
]

# Tables whose integer ids are numbered in device order, then time order: a part's ids are
# 1…n, and a data-set id is the part's id plus the rows of the parts before (plan.py keeps
# the parts' devices in the single run's order).
ID_SPACES = ["staypoints", "dwells", "locations", "triplegs", "trips"]


def task_cpus():
    """The cores Spark gave this task (spark.task.cpus), or None outside a task."""
    try:
        from pyspark import TaskContext
        context = TaskContext.get()
        return context.cpus() if context is not None else None
    except Exception:  # an older pyspark, or not inside Spark
        return None


def jobs_option(run_args, cpus):
    """`--jobs` for a part: the task's cores, so the executors' tasks side by side never take
    more cores than Spark gave them; none where the user gave --jobs or no task is known."""
    if cpus is None or any(a == "--jobs" or a.startswith("--jobs=") for a in run_args):
        return []
    return ["--jobs", str(max(1, int(cpus)))]


def run_part(part, binary, run_args, run_dir, fail_marker=None):
    """Runs one part into `run_dir`/part-N; returns {index, exit_status, seconds, counts}."""
    started = time.time()
    if fail_marker:  # a test's injected failure: the first attempt to take the marker dies, its retry succeeds
        try:
            os.remove(fail_marker)
        except FileNotFoundError:
            pass
        else:
            raise RuntimeError(f"part {part['index']}: injected failure (test), Spark retries the task")
    work = tempfile.mkdtemp(prefix=f"pipeline-part-{part['index']}-")
    attempt = os.path.join(run_dir, f".part-{part['index']}.{uuid.uuid4().hex}")
    try:
        out = os.path.join(work, "part")
        command = [binary, "run", *part["files"], "--out", out, "--partial", "--json", *run_args, *jobs_option(run_args, task_cpus())]
        if part.get("first") is not None:
            command += ["--devices-from", part["first"]]
        if part.get("before") is not None:
            command += ["--devices-before", part["before"]]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode not in (0, 2):
            raise RuntimeError(f"part {part['index']}: pipeline run exited {run.returncode}:\n{run.stderr[-4000:]}")
        store = os.path.join(out, "restricted", "pipeline.sqlite")  # a run's store is in its restricted/ (StoreLocation.swift)
        os.makedirs(attempt)
        present = existing_tables(store)
        tables = [t for t in EXPORTED_TABLES if t in present]
        exported = subprocess.run([binary, "export", "--store", store, "--out", os.path.join(attempt, "export"),
                                   *sum((["--table", t] for t in tables), [])], capture_output=True, text=True)
        if exported.returncode != 0:
            raise RuntimeError(f"part {part['index']}: pipeline export exited {exported.returncode}:\n{exported.stderr[-4000:]}")
        shutil.copytree(os.path.join(out, "part-tables"), os.path.join(attempt, "part-tables"))
        piece = os.path.join(work, merged_store.VERBATIM)
        merged_store.copy_verbatim(store, piece, tables)
        shutil.copyfile(piece, os.path.join(attempt, merged_store.VERBATIM))
        counts = id_counts(store)
        layout.write_text(os.path.join(attempt, "ddl.json"), json.dumps(schema(store)))
        layout.write_text(os.path.join(attempt, "run.json"), run.stdout)
        layout.write_text(os.path.join(attempt, "log.txt"), run.stderr + exported.stderr)
        layout.replace_folder(attempt, layout.part_folder(run_dir, part["index"]))
        return {"index": part["index"], "exit_status": run.returncode, "seconds": time.time() - started, "counts": counts}
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(attempt, ignore_errors=True)


def existing_tables(store):
    with sqlite3.connect(store) as db:
        return {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def id_counts(store):
    """Rows per id space, and the check-in and recording rides apart (rides.csv lists every
    device's check-in rides before the rides found in recordings). Ids must be 1…n: the
    offsets renumber by adding, which holds only then."""
    counts = {}
    with sqlite3.connect(store) as db:
        for table in ID_SPACES:
            n, largest = db.execute(f"SELECT COUNT(*), COALESCE(MAX(id), 0) FROM {table}").fetchone()
            if n != largest:
                raise RuntimeError(f"{table}: ids are not 1…{n} (largest {largest}); the merge renumbers by offsets")
            counts[table] = n
        for source in ("checkin", "recording"):
            counts[f"rides_{source}"] = db.execute("SELECT COUNT(*) FROM rides WHERE source = ?", (source,)).fetchone()[0]
        first_recording = db.execute("SELECT MIN(id) FROM rides WHERE source = 'recording'").fetchone()[0]
        last_checkin = db.execute("SELECT MAX(id) FROM rides WHERE source = 'checkin'").fetchone()[0]
        if first_recording is not None and last_checkin is not None and first_recording < last_checkin:
            raise RuntimeError("rides: a recording's ride comes before a check-in's; the merge numbers check-in rides first")
    return counts


def schema(store):
    """The store's CREATE statements and migration marks, so the merge makes an empty store
    the binary opens as its own."""
    with sqlite3.connect(store) as db:
        ddl = [row[0] for row in db.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type = 'index', rowid")]
        migrations = [row[0] for row in db.execute("SELECT identifier FROM grdb_migrations ORDER BY rowid")]
    return {"ddl": ddl, "migrations": migrations}
