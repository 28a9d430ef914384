"""The last task of a distributed run, on one executor: the per-device files joined from
the parts' renumbered chunks (byte concatenation, in part order; the per-device tables'
CSVs into DIR/restricted only with --csv, else into the work folder), then `pipeline publish
--reduced` on the merged store (k and the formulas over Spark's reductions: heat maps, OD,
modal split, comfort summaries; then restricted/quarantine.csv, od_grid.csv, report.html,
pipeline.gpkg), and the Parquet datasets moved into DIR/restricted/parquet. The
driver only starts it: nothing here passes through the driver."""
import concurrent.futures
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time

from . import layout, renumber


# The joined files `pipeline publish` reads (the OD grid, the planning tables and the GeoPackage draw from them):
# joined before it starts. The others (modes.csv, events.csv and the GeoJSON files, 300 MB
# at 1,600 device-days) are joined beside it.
PUBLISH_READS = frozenset({"staypoints.csv", "dwells.csv", "locations.csv", "triplegs.csv", "trips.csv", "rides.csv",
                           "person_days.csv"})  # the planning tables count valid person-days


def append_file(out, path):
    """The bytes of the file `path` appended to the open file `out`, copied by the kernel
    (copy_file_range) where it can, else through a buffer."""
    out.flush()
    with open(path, "rb") as f:
        try:
            while os.copy_file_range(f.fileno(), out.fileno(), 1 << 30):
                pass
        except (AttributeError, OSError):  # no copy_file_range here (or not between these file systems)
            f.seek(os.lseek(f.fileno(), 0, os.SEEK_CUR))  # after what the kernel copied, if anything
            shutil.copyfileobj(f, out, 1 << 20)


def concatenate(out_path, pieces):
    """Writes the files `pieces` one after another to out_path (atomically)."""
    with open(out_path + ".partial", "wb") as out:
        for piece in pieces:
            append_file(out, piece)
    os.replace(out_path + ".partial", out_path)


def restricted(out):
    """OUT/restricted: the files that identify people (Reports/OutputLayout.swift), made with its
    README by `pipeline publish`; made here too, as the joined tables may come first."""
    folder = os.path.join(out, "restricted")
    os.makedirs(folder, exist_ok=True)
    return folder


def assemble_files(part_dirs, out, tables, per_device, dataset_locations, wanted=lambda name: True):
    """The files joined from the parts whose name is `wanted`: the per-device tables' CSVs
    (`per_device`, names) in the folder `tables`, the rest (each identifies people too:
    locations, device_stats, the GeoJSON files) in OUT/restricted; returns their paths."""
    written = []
    globals_ = [os.path.join(d, "global") for d in part_dirs]
    rest = restricted(out)

    def target(name):
        return os.path.join(tables if name in per_device else rest, name)

    def present(name):
        return [g for g in globals_ if os.path.exists(os.path.join(g, name))]
    for name in filter(wanted, renumber.CSV_FILES):
        if name == "locations.csv" and dataset_locations:
            continue  # written by the data-set pass
        having = present(name + ".header")
        if having:
            concatenate(target(name), [os.path.join(having[0], name + ".header")] + [os.path.join(g, name + ".rows") for g in having])
            written.append(target(name))
    for name in filter(wanted, renumber.RIDE_FILES):
        having = present(name + ".header")
        if having:
            concatenate(target(name), [os.path.join(having[0], name + ".header")]
                        + [os.path.join(g, f"{name}.{chunk}.rows") for chunk in renumber.RIDE_CHUNKS for g in having])
            written.append(target(name))
    for name in filter(wanted, renumber.GEOJSON_FILES):
        having = present(name + ".prefix")
        if not having:
            continue
        # The parts' features, joined by ",\n" (a part without features adds nothing), between
        # the first part's prefix and suffix; bytes copied as they are, no text decoded.
        with open(target(name) + ".partial", "wb") as f:
            append_file(f, os.path.join(having[0], name + ".prefix"))
            first = True
            for g in having:
                features = os.path.join(g, name + ".features")
                if os.path.getsize(features) == 0:
                    continue
                if not first:
                    f.write(b",\n")
                append_file(f, features)
                first = False
            append_file(f, os.path.join(having[0], name + ".suffix"))
        os.replace(target(name) + ".partial", target(name))
        written.append(target(name))
    return written


def remove_stale_tables(out, per_device):
    """Without --csv: the per-device tables' CSVs an earlier run left in OUT/restricted removed,
    so no file there is older than the run. Returns the names removed."""
    folder = restricted(out)
    removed = [name for name in per_device if os.path.exists(os.path.join(folder, name))]
    for name in removed:
        os.remove(os.path.join(folder, name))
    return removed


def content_sha256(path):
    """Ingest/ContentHash: SHA-256 of a file's bytes; of a folder, its files' names and
    contents in sorted order, hidden names left out."""
    digest = hashlib.sha256()

    def update(p):
        if os.path.isdir(p):
            for name in sorted(n for n in os.listdir(p) if not n.startswith(".")):
                digest.update(name.encode("utf-8"))
                update(os.path.join(p, name))
            return
        with open(p, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
    update(path)
    return digest.hexdigest()


def set_aside(store, failed_parts):
    """Each file of a part that failed on every attempt, in the merged store as set aside by
    the stage `spark` (stage_failures), so quarantine.csv and the report list it with the
    reason, as they list a file one machine could not use."""
    if not failed_parts:
        return
    with sqlite3.connect(store) as db:
        run = db.execute("SELECT MAX(id) FROM runs").fetchone()[0]
        now = time.time()
        for failed in failed_parts:
            first_line = failed["error"].strip().splitlines()[-1] if failed["error"].strip() else "unknown error"
            reason = (f"part {failed['index']} of the Spark job failed on every attempt ({first_line}); its devices are missing "
                      f"from every output: see logs/part-{failed['index']}.log, fix or remove the file, and run again")
            for path in failed["files"]:
                sha = content_sha256(path)
                size = os.path.getsize(path) if os.path.isfile(path) else 0
                cursor = db.execute("INSERT INTO input_files (path, content_sha256, size_bytes, status, run_id, ingested_unix_s) "
                                    "VALUES (?, ?, ?, 'quarantined', ?, ?)", (path, sha, size, run, now))
                db.execute("INSERT INTO stage_failures (file_id, stage, sha256, code, reason, run_id, failed_unix_s) "
                           "VALUES (?, 'spark', ?, 'part_failed', ?, ?, ?)", (cursor.lastrowid, sha, reason, run, now))


def move_parquet(source, out):
    """OUT/restricted/parquet replaced by this run's datasets (already done when a retried task
    finds them moved): a row per device's window, staypoint, leg … identifies people."""
    target = os.path.join(restricted(out), "parquet")
    if not os.path.exists(source) and os.path.exists(target):
        return
    old = target + ".old"
    shutil.rmtree(old, ignore_errors=True)
    if os.path.exists(target):
        os.rename(target, old)
    os.rename(source, target)
    shutil.rmtree(old, ignore_errors=True)


def discard_read(part_dirs):
    """The parts' files that the stages before the last have read (layout.READ_BEFORE_FINISH)
    removed, so that the driver's removal of the work folder at the end is short: at 1,600
    device-days they are 1.5 of its 2.3 GB, which took 0.6 s to remove. A retried last task
    does not need them."""
    for d in part_dirs:
        for name in layout.READ_BEFORE_FINISH:
            path = os.path.join(d, name)
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            elif os.path.exists(path):
                os.remove(path)


def finish(task):
    """Runs the last stage; returns {"status", "log", "files", "heat_map", "steps_s"}."""
    discarding = threading.Thread(target=discard_read, args=(task["part_dirs"],))  # beside the work below
    discarding.start()
    try:
        return finish_steps(task)
    finally:
        discarding.join()


def finish_steps(task):
    run_dir, out = task["run_dir"], task["out"]
    part_dirs = task["part_dirs"]
    steps, last = {}, time.time()

    def step(name):
        nonlocal last
        steps[name] = round(time.time() - last, 3)
        last = time.time()
    # With --csv the per-device tables' CSVs are published with the rest; without, they are
    # joined in the work folder only, for `pipeline publish --tables` (OD grid, GeoPackage).
    tables = restricted(out) if task["csv"] else os.path.join(run_dir, "assembled")
    os.makedirs(tables, exist_ok=True)
    files = assemble_files(part_dirs, out, tables, task["per_device_csv"], task["dataset_locations"], wanted=PUBLISH_READS.__contains__)
    if task["dataset_locations"]:
        located = os.path.join(restricted(out), "locations.csv")
        shutil.copyfile(os.path.join(run_dir, "merged", "restricted", "locations.csv"), located + ".partial")
        os.replace(located + ".partial", located)
        files.append(located)
    os.makedirs(os.path.join(restricted(out), "logs"), exist_ok=True)
    for i, d in enumerate(part_dirs):  # a part's log names its input files
        shutil.copyfile(os.path.join(d, "log.txt"), os.path.join(restricted(out), "logs", f"part-{task['indices'][i]}.log"))
    step("files")
    with concurrent.futures.ThreadPoolExecutor(1) as beside:
        rest = beside.submit(timed, assemble_files, part_dirs, out, tables, task["per_device_csv"], task["dataset_locations"],
                             wanted=lambda name: name not in PUBLISH_READS)
        result = publish_and_move(task, steps, step, tables, files)
        joined, steps["files_beside_publish"] = rest.result()
    files += joined
    return dict(result, files=files)


def timed(function, *args, **kwargs):
    """function(*args, **kwargs) and the seconds it took."""
    started = time.time()
    return function(*args, **kwargs), round(time.time() - started, 3)


def publish_and_move(task, steps, step, tables, files):
    """The merged store copied, `pipeline publish` on it, the store and the Parquet datasets
    moved into DIR; returns the task's result (steps recorded in `steps`)."""
    run_dir, out, binary = task["run_dir"], task["out"], task["binary"]
    local = tempfile.mkdtemp(prefix="pipeline-publish-")
    try:
        store = os.path.join(local, "pipeline.sqlite")
        shutil.copyfile(os.path.join(run_dir, "merged", "pipeline.sqlite"), store)
        set_aside(store, task.get("failed_parts", []))
        step("store_copy")
        publish = subprocess.run([binary, "publish", "--store", store, "--out", out, "--tables", tables, "--json"] + task["publish_args"],
                                 capture_output=True, text=True)  # --tables DIR/restricted: the report names the CSVs
        step("publish")
        if publish.returncode != 0:
            return {"status": publish.returncode, "log": publish.stderr, "files": files, "heat_map": None, "steps_s": steps}
        steps["publish_stages"] = {k: round(v, 3) for k, v in json.loads(publish.stdout).get("stage_seconds", {}).items()}
        db = sqlite3.connect(store)
        try:
            found = db.execute("SELECT cells, suppressed_cells, min_devices FROM heatmaps WHERE map = 'all'").fetchone()
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the store is copied as one file: its WAL's pages go into it first
        finally:
            db.close()
        heat_map = dict(zip(("cells", "suppressed", "min_devices"), found)) if found else None
        # The store holds every fix: it goes to DIR/restricted, never among what publishes
        # (StoreLocation.swift); the merged store replaces the one an earlier job left there.
        kept = os.path.join(out, "restricted", "pipeline.sqlite")
        os.makedirs(os.path.dirname(kept), exist_ok=True)
        shutil.copyfile(store, kept + ".partial")
        os.replace(kept + ".partial", kept)
    finally:
        shutil.rmtree(local, ignore_errors=True)
    move_parquet(os.path.join(run_dir, "parquet"), out)
    if not task["csv"]:
        remove_stale_tables(out, task["per_device_csv"])
    step("store_and_parquet_moved")
    return {"status": 0, "log": publish.stderr, "files": files, "heat_map": heat_map, "steps_s": steps}
