"""The pipeline on Apache Spark: `spark-submit spark/pipeline_spark/job.py INPUT… --out DIR`.

1. Plan (driver, on a thread while Spark starts): `pipeline inputs --json` lists every
   file's device and bytes without reading its records; devices are cut into contiguous,
   byte-balanced parts (plan.py).
2. Parts (executors): each part runs `pipeline run --partial` on the binary shipped with
   the job (`--bundle`, copied into DIR's work folder, unpacked by the first task on each
   node: bundle.py) and writes its store's export and its per-device files into the work
   folder in DIR (layout.py, part.py). A task returns a few numbers: rows per id space, exit
   status, seconds.
3. Offsets (driver): per part, the rows of each id space in the parts before: O(parts).
4. Merged store (one executor task, merged_store.py): every part's rows but the fixes, for
   `pipeline publish`. With locations clustered across devices, a Spark job first puts the
   staypoints into spatial tiles with a 2ε halo and finds each tile's DBSCAN links on the
   executors (location_tiles.py, `pipeline locations --tile-points`); the store's task
   joins them (`pipeline locations --links`) into the locations of one pass.
5. Renumber (executors, renumber.py, parquet_tables.py): each part's rows with data-set
   ids, as chunks of the per-device files and as Parquet datasets partitioned by part.
6. Reductions (reductions.py, the same Spark job): each renumber task emits the partial
   groups its part's binary wrote (heat-map cells, OD pairs, modal-split totals, trains and
   routes; part-tables/partials/), Spark's shuffle brings each group to one reducer task,
   which merges the parts' partials by each column's declared merge (`pipeline schema
   --json`; persons counted over all parts) and writes the reduced tables as CSV into the
   work folder.
   Nothing of them reaches the driver.
7. Finish (one executor task, assemble.py): the per-device files concatenated, `pipeline
   publish --reduced` on the merged store (k and every formula, in Swift), DIR/restricted/parquet/
   replaced; the per-device tables' CSVs joined into DIR/restricted with --csv, into the work
   folder (for publish) without. The task returns the overall heat map's counts for the log.

Outputs replace DIR's files atomically (each written beside and renamed), logs of every
part go to DIR/restricted/logs/, and the exit status is the single run's: 0, 2 when inputs were
quarantined, 1 on failure."""
import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import time

PROCESS_STARTED = time.time()  # the Python driver's start; spark-submit's own JVM starts before it

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pipeline_spark import assemble, bundle, layout, location_tiles, merged_store, part as part_module, plan as planning, reductions, renumber  # noqa: E402


def arguments(argv):
    p = argparse.ArgumentParser(prog="spark_run", description="Run the mobility pipeline on Apache Spark (see spark/README.md).")
    p.add_argument("inputs", nargs="+", help="trace files or folders, readable at the same path on every executor")
    p.add_argument("--out", required=True, help="output folder, on a file system every executor sees: the files `pipeline run --out` "
                   "writes (the per-device tables' CSVs in DIR/restricted only with --csv) and the per-device tables as Parquet in "
                   "DIR/restricted/parquet (replaced on re-run); restricted/ identifies people")
    p.add_argument("--csv", action="store_true", help="also write the per-device tables as CSV (modes.csv, staypoints.csv, dwells.csv, "
                   "triplegs.csv, trips.csv, rides.csv, stops.csv, events.csv), as `pipeline run` does (default: Parquet only)")
    p.add_argument("--partitions", type=int, default=2, help="parts of the devices, one Spark task each (default 2)")
    p.add_argument("--binary", default=None, help="the pipeline executable inside the bundle (default: bin/pipeline of --bundle)")
    p.add_argument("--bundle", default=None, help="a .tar.gz with bin/pipeline, lib/ and models/ (scripts/build/spark_bundle.sh), copied "
                   "into DIR's work folder for the executors; the driver keeps an unpacked copy in ~/.cache/pipeline-spark")
    p.add_argument("--location-tile-degrees", type=float, default=0.05,
                   help="with locations clustered across devices: the side of a spatial tile, degrees (default 0.05, about 5.5 km "
                        "north-south); each tile is clustered by one task with a halo of 3 epsilon_meters")
    p.add_argument("--report-model", default=None, help="the model path the report names (default: the bundle's copy of the shipped model)")
    p.add_argument("--fail-first-attempt", default=None, help=argparse.SUPPRESS)  # tests: a marker file kills one attempt
    p.add_argument("--fail-part", type=int, default=None, help=argparse.SUPPRESS)  # tests: this part fails on every attempt
    p.add_argument("--pause-first-attempt", default=None, help=argparse.SUPPRESS)  # tests: DIR/pause taken by one task, which waits
    p.epilog = ("Options after -- go to every part's `pipeline run` (--config, --model, --rides-from-recordings, …). "
                "scripts/spark_run.sh also takes --master URL (default local[2,4]: two cores, a failed task tried up to 4 times) "
                "and --ui (Spark's web UI in the driver; default off).")
    split = argv.index("--") if "--" in argv else len(argv)
    args = p.parse_args(argv[:split])
    args.run_args = argv[split + 1:]
    if args.partitions < 1:
        p.error("--partitions must be 1 or more")
    if not 0 < args.location_tile_degrees <= 180:
        p.error(f"--location-tile-degrees must be above 0 and at most 180 (degrees), not {args.location_tile_degrees}")
    return args


def run_options(run_args, *names):
    """The run options `names` in `run_args`, as ["--config", PATH, …] (`--config=PATH` too):
    what the driver's own calls of the binary (config, locations, publish) must see."""
    found = []
    for i, arg in enumerate(run_args):
        name, equals, value = arg.partition("=")
        if name in names and (equals or i + 1 < len(run_args)):
            found += [name, value if equals else run_args[i + 1]]
    return found


def configuration(binary, run_args):
    """The run's effective configuration (`pipeline config --json`, with its --config laid
    over the defaults), as the binary reads it."""
    text = subprocess.run([binary, "config", "--json"] + run_options(run_args, "--config"), check=True, capture_output=True,
                          text=True).stdout
    return json.loads(text)


def output_schema(binary):
    """What the driver takes from `pipeline schema --json`: the CSV names of the per-device
    tables (per_device); per file, the columns holding ids and the rows they name (id_of),
    which renumber.py renumbers; and per partial table, its columns and how each merges
    (merge), which reductions.py applies: the id graph and the grouping rules are the
    binary's, not restated here."""
    files = json.loads(subprocess.run([binary, "schema", "--json"], check=True, capture_output=True, text=True).stdout)
    published = [f for f in files if not f["partial"]]
    per_device = [f["file"] for f in published if f["per_device"]]
    id_columns = {f["file"]: {c["name"]: c["id_of"] for c in f["columns"] if c.get("id_of")} for f in published}
    partials = {f["file"].removesuffix(".jsonl"): [(c["name"], c["merge"]) for c in f["columns"]] for f in files if f["partial"]}
    return per_device, id_columns, partials


class Phases:
    """Wall seconds of the driver's phases, for spark_summary.json and the benchmark."""

    def __init__(self):
        self.seconds, self.last = {}, PROCESS_STARTED

    def done(self, name):
        now = time.time()
        self.seconds[name] = round(self.seconds.get(name, 0) + now - self.last, 3)
        self.last = now

    def split(self, name, part_name, seconds):
        """`seconds` of the phase `name` counted as the phase `part_name` instead."""
        seconds = min(seconds, self.seconds[name])
        self.seconds[name] = round(self.seconds[name] - seconds, 3)
        self.seconds[part_name] = round(self.seconds.get(part_name, 0) + seconds, 3)


def write_atomically(path, text):
    with open(path + ".partial", "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(path + ".partial", path)


def log(message):
    print(time.strftime("[%Y-%m-%dT%H:%M:%SZ] ", time.gmtime()) + message, file=sys.stderr, flush=True)


def offsets_of(results):
    """Per part (in part order): rows of each id space in the parts before, and the ride
    numbering (check-in rides first). A few numbers per part."""
    running, rides_before = {}, {"checkin": 0, "recording": 0}
    checkin_total = sum(r["counts"]["rides_checkin"] for r in results)
    out = {}
    for r in results:
        out[r["index"]] = {"offsets": dict(running), "rides": {"checkin_before": rides_before["checkin"], "recording_before": rides_before["recording"],
                                                             "checkin_total": checkin_total, "checkin_here": r["counts"]["rides_checkin"]}}
        for space in part_module.ID_SPACES:
            running[space] = running.get(space, 0) + r["counts"][space]
        for source in rides_before:
            rides_before[source] += r["counts"][f"rides_{source}"]
    return out


def merged_store_task(task):
    """Stage 4 on one executor: the merged store, and with dataset-scope locations, the tiles'
    links joined into them (`pipeline locations --links`)."""
    started = time.time()
    target = os.path.join(task["run_dir"], "merged", "pipeline.sqlite")
    merged_store.build(task["part_dirs"], target)
    if not task["dataset_locations"]:
        return "", time.time() - started
    done = subprocess.run([task["binary"], "locations", "--store", target, "--out", os.path.dirname(target), "--links", task["links"]]
                          + task["config_args"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"pipeline locations failed ({done.returncode}): {done.stderr.strip()}")
    return done.stderr.strip(), time.time() - started


def spark_conf(conf):
    """The job's own Spark settings, each only where the user's spark-submit did not set it.
    Spark's context cleaner (spark.cleaner.referenceTracking) frees the shuffles and
    broadcasts of RDDs the driver no longer references, polling for them ten times a second
    for the whole job; this job's few stages shuffle megabytes and its run ends minutes
    later, when Spark removes them all. Off, the driver's JVM used 0.44 s of CPU over two
    minutes of part tasks instead of 0.77 s (with -XX:-UsePerfData, scripts/spark_run.sh)."""
    return conf.setAppName("mobility-pipeline").setIfMissing("spark.cleaner.referenceTracking", "false")


def plan_job(args):
    """Stage 1, on a thread of the driver while Spark starts: the driver's own copy of the
    binary (`--binary`, else the bundle's, unpacked once into a cache: bundle.driver_binary),
    the effective configuration, the input listing and the parts. Only subprocesses: the GIL
    is free for the context's start."""
    steps, last = {"waited": time.time() - PROCESS_STARTED}, time.time()

    def step(name, value):
        nonlocal last
        steps[name], last = round(time.time() - last, 3), time.time()
        return value

    binary = step("binary", args.binary or bundle.driver_binary(args.bundle))
    configured = step("configuration", configuration(binary, args.run_args))
    per_device_csv, id_columns, partials = step("schema", output_schema(binary))
    listing = step("listing", planning.list_inputs(binary, [os.path.abspath(p) for p in args.inputs]))
    parts = step("parts", planning.plan(listing, args.partitions))
    steps["waited"] = round(steps["waited"], 3)
    return Planned(configured, per_device_csv, id_columns, partials, listing, parts, round(sum(v for k, v in steps.items() if k != "waited"), 3), steps)


# plan_job's result; steps: its seconds per step, "waited" from the process's start to the plan's
Planned = collections.namedtuple("Planned", "configuration per_device_csv id_columns partials listing parts seconds steps")


def main(argv=None):
    args = arguments(argv if argv is not None else sys.argv[1:])
    if args.binary is None and args.bundle is None:
        log("give --bundle (scripts/build/spark_bundle.sh makes one) or --binary (a pipeline executable at the same path on every node)")
        return 1
    phases = Phases()
    with concurrent.futures.ThreadPoolExecutor(1) as helper:
        planning_job = helper.submit(plan_job, args)  # beside PySpark's import and the context's start, which take seconds
        from pyspark import SparkConf, SparkContext, SparkFiles
        sc = SparkContext.getOrCreate(spark_conf(SparkConf()))
        sc.setLogLevel("ERROR")
        phases.done("session_start")
        try:
            planned = planning_job.result()
        except subprocess.CalledProcessError as failed:
            log(f"planning failed: `{' '.join(failed.cmd[:2])} …` exited with {failed.returncode}: {(failed.stderr or '').strip()}")
            sc.stop()
            return 1
        except OSError as failed:  # a --bundle or --binary that is not there or cannot be run
            log(f"planning failed: {failed}; give --bundle (scripts/build/spark_bundle.sh makes one) or --binary")
            sc.stop()
            return 1
    return run_job(args, sc, SparkFiles, phases, planned)


def run_job(args, sc, SparkFiles, phases, planned):
    """Stages 2 to 7, once the context is up and the plan made."""
    configured, listing, parts = planned.configuration, planned.listing, planned.parts
    dataset_locations = configured["trips"]["locations"]["scope"] == "dataset"
    log(f"plan: {len(listing)} files, {sum(len(p.devices) for p in parts)} devices in {len(parts)} parts: "
        + "; ".join(f"part {p.index}: {len(p.devices)} devices, {p.bytes / 1e6:.1f} MB" for p in parts))
    phases.done("plan")
    out = os.path.abspath(args.out)
    # The logs and the summary name input files: restricted/, beside the other per-file tables.
    # An older version wrote them at the top, where they would be published with the rest.
    shutil.rmtree(os.path.join(out, "logs"), ignore_errors=True)
    if os.path.exists(os.path.join(out, "spark_summary.json")):
        os.remove(os.path.join(out, "spark_summary.json"))
    # Earlier versions kept the merged store at the top too; the job makes its store anew in
    # restricted/, so the old one (every fix) goes rather than stay among what publishes.
    former = [os.path.join(out, "pipeline.sqlite" + s) for s in ("", "-wal", "-shm", ".lock")]
    if any(os.path.exists(f) for f in former):
        for f in former:
            if os.path.exists(f):
                os.remove(f)
        log(f"removed {os.path.join(out, 'pipeline.sqlite')}, an earlier job's store: this job's store is "
            f"{os.path.join(out, 'restricted', 'pipeline.sqlite')}, apart from what publishes")
    os.makedirs(os.path.join(out, "restricted", "logs"), exist_ok=True)
    shutil.rmtree(layout.work_root(out), ignore_errors=True)  # a killed run's leftovers
    shutil.rmtree(os.path.join(out, layout.FORMER_WORK_ROOT), ignore_errors=True)  # and an older version's, at the top
    run_dir = layout.run_folder(out, f"{int(time.time())}-{os.getpid()}")
    os.makedirs(run_dir)
    run_args = args.run_args
    shipped = bundle.ship(args.bundle, run_dir) if args.bundle else None  # every node unpacks it with its first task (bundle.py)
    fail_marker = args.fail_first_attempt
    binary_arg = args.binary

    def executor_binary():
        return binary_arg or bundle.binary(shipped, SparkFiles.getRootDirectory())

    attempts, fail_part, pause_dir = task_attempts(sc), args.fail_part, args.pause_first_attempt

    def run(part):
        from pyspark import TaskContext
        task_started = time.time()
        try:
            if part["index"] == fail_part:
                raise RuntimeError(f"part {part['index']}: injected failure on every attempt (test)")
            if pause_dir and TaskContext.get().attemptNumber() == 0:
                pause_for_test(pause_dir, part["index"])
            started = time.time()
            binary = executor_binary()  # the node's first task unpacks the bundle: its seconds count as the part's
            unpack_s = time.time() - started
            result = part_module.run_part(part, binary, run_args, run_dir, fail_marker)
            return dict(result, seconds=result["seconds"] + unpack_s, unpack_seconds=round(unpack_s, 3), started=task_started)
        except Exception as error:  # the last attempt reports the part failed instead of failing the job
            if TaskContext.get().attemptNumber() + 1 < attempts:
                raise
            return {"index": part["index"], "failed": f"{type(error).__name__}: {error}"[-4000:], "exit_status": 1, "seconds": 0.0,
                    "started": task_started}

    submitted, cpu_at_submission = time.time(), driver_cpu_seconds()
    outcomes = sorted(sc.parallelize([p.as_dict() for p in parts], len(parts)).map(run).collect(), key=lambda r: r["index"])
    phases.done("parts")
    # Until the first part task starts, the executors are starting (their JVMs, on a cluster):
    # a cost of the job, not of its parts (the benchmark counts it as fixed). Task and driver
    # clocks are compared: on a cluster, to the nodes' clock skew.
    phases.split("parts", "executors_start", max(0.0, min(r["started"] for r in outcomes) - submitted))
    failed = [r for r in outcomes if r.get("failed")]
    results = [r for r in outcomes if not r.get("failed")]
    for r in failed:
        p = parts[r["index"]]
        write_atomically(os.path.join(out, "restricted", "logs", f"part-{p.index}.log"), r["failed"] + "\n")
        log(f"part {p.index} FAILED on all {attempts} attempts, its devices are missing from every output: {', '.join(p.devices)} "
            f"({len(p.own_files)} files, listed in restricted/quarantine.csv and restricted/spark_summary.json); error in {out}/restricted/logs/part-{p.index}.log")
    if not results:
        log("every part failed; nothing to publish")
        return 1
    for r in results:
        log(f"part {r['index']}: {len(parts[r['index']].devices)} devices, {parts[r['index']].bytes / 1e6:.1f} MB in {r['seconds']:.1f} s, "
            f"exit {r['exit_status']}, log in {out}/restricted/logs/part-{r['index']}.log")
    part_dirs = [layout.part_folder(run_dir, r["index"]) for r in results]
    numbering = offsets_of(results)
    config_args = run_options(run_args, "--config")
    links_dir, tiled = os.path.join(run_dir, "location-links"), []
    if dataset_locations:
        tiled = tile_links(sc, [{"part_dir": d, "offset": numbering[r["index"]]["offsets"].get("staypoints", 0)} for d, r in zip(part_dirs, results)],
                           float(configured["trips"]["locations"]["epsilon_meters"]), args.location_tile_degrees, executor_binary, config_args,
                           links_dir)
        phases.done("location_tiles")
    store_task = {"run_dir": run_dir, "part_dirs": part_dirs, "dataset_locations": dataset_locations, "config_args": config_args,
                  "links": links_dir}
    # The merged store is one task, off the critical path: it runs beside the renumbering and
    # the reductions, which need it only with locations clustered across devices.
    background = concurrent.futures.ThreadPoolExecutor(1)
    store_job = background.submit(lambda: sc.parallelize([store_task], 1).map(
        lambda t: merged_store_task(dict(t, binary=executor_binary()))).collect()[0])
    if dataset_locations:
        store_job.result()
        phases.done("merged_store")
    parquet_dir, tables_dir = os.path.join(run_dir, "parquet"), os.path.join(run_dir, "tables")
    tasks = [{"part_dir": d, "index": r["index"], "counts": r["counts"], "parquet_dir": parquet_dir, "tables_dir": tables_dir,
              "merged_store": os.path.join(run_dir, "merged", "pipeline.sqlite") if dataset_locations else None,
              "id_columns": planned.id_columns, "partials": planned.partials, **numbering[r["index"]]}
             for d, r in zip(part_dirs, results)]
    reduced = os.path.join(run_dir, "reduced")
    written = sorted({name.removesuffix(".jsonl") for d in part_dirs  # the partial tables some part wrote (comfort: when it ran)
                      for name in (os.listdir(os.path.join(d, "part-tables", "partials"))
                                   if os.path.isdir(os.path.join(d, "part-tables", "partials")) else [])
                      if name.removesuffix(".jsonl") in planned.partials})
    merged = renumber_and_reduce(sc, tasks, reduced, planned.partials, written)
    phases.done("renumber")
    # What the driver spent while the executors ran the parts and their renumbering: waiting,
    # which costs spark-submit's JVM CPU for as long as it lasts (heartbeats, the scheduler's
    # offers each second, its compiler); the rest of driver_cpu_s is the driver's own work.
    cpu_during_part_tasks = {k: round(v - cpu_at_submission[k], 2) if v is not None and cpu_at_submission[k] is not None else None
                             for k, v in driver_cpu_seconds().items()}
    reduce_s = max(m["finished"] for m in merged) - min(m["started"] for m in merged)  # the reducers' span: the reduce stage
    phases.seconds["renumber"] = round(phases.seconds["renumber"] - reduce_s, 3)
    phases.seconds["reductions"] = round(reduce_s, 3)
    renumbered = sorted((s for m in merged for s in m["summaries"]), key=lambda s: s["index"])
    per_part = sum(m["flagged"].get("heat_cells.part_alone_meets_k", 0) for m in merged)
    located, store_task_s = store_job.result()
    background.shutdown()
    if located:
        log(located)
    phases.done("merged_store")
    # The planning options too: the weights, od_zones.csv and mode_shares.csv are drawn by publish, from the joined tables.
    passed = run_options(run_args, "--config", "--model", "--zones", "--zone-id", "--zone-name", "--time-band", "--confusion",
                         "--population", "--person-attributes", "--countries", "--country-property")
    if args.report_model and "--model" not in passed:
        passed += ["--model", args.report_model]
    finish = {"run_dir": run_dir, "out": out, "part_dirs": part_dirs, "indices": [r["index"] for r in results],
              "dataset_locations": dataset_locations, "publish_args": passed + ["--reduced", reduced],
              "per_device_csv": planned.per_device_csv, "csv": args.csv,
              "failed_parts": [{"index": r["index"], "files": parts[r["index"]].own_files, "error": r["failed"]} for r in failed]}
    finished = sc.parallelize([finish], 1).map(lambda t: assemble.finish(dict(t, binary=executor_binary()))).collect()[0]
    sys.stderr.write(finished["log"])
    if finished["status"] != 0:
        log(f"publish failed ({finished['status']})")
        return 1
    phases.done("finish")
    overall = finished["heat_map"]
    if overall:
        log(f"heat maps: {overall['cells']} cells published over all parts, {overall['suppressed']} suppressed "
            f"(k = {overall['min_devices']}); k applied per part would have published {per_part}")
    if not args.csv:
        log(f"per-device tables in {out}/restricted/parquet (Parquet, partitioned by part); --csv writes "
            + ", ".join(planned.per_device_csv) + " as well")
    status = 2 if failed or any(r["exit_status"] == 2 for r in results) else 0
    summary = {"failed_parts": [{"index": r["index"], "devices": parts[r["index"]].devices, "files": parts[r["index"]].own_files,
                                 "error": r["failed"]} for r in failed],
               "parts": [{"index": r["index"], "devices": len(parts[r["index"]].devices), "device_names": parts[r["index"]].devices,
                          "first": parts[r["index"]].first, "before": parts[r["index"]].before, "bytes": parts[r["index"]].bytes,
                          "seconds": r["seconds"], "unpack_seconds": r.get("unpack_seconds", 0.0), "renumber_seconds": again["seconds"] + again["partials_seconds"],
                          "partials_seconds": again["partials_seconds"], "exit_status": r["exit_status"],
                          "rows": r["counts"], "parquet_rows": again["rows"]}
                         for r, again in zip(results, renumbered)],
               "heat_map": {"cells": overall["cells"] if overall else 0, "suppressed": overall["suppressed"] if overall else 0,
                            "cells_if_k_per_part": per_part},
               "locations": {"scope": configured["trips"]["locations"]["scope"], "tiles": sum(t["tiles"] for t in tiled),
                             "halo_staypoints": sum(t["halo"] for t in tiled), "tile_degrees": args.location_tile_degrees,
                             "locations_if_per_part": sum(r["counts"]["locations"] for r in results) if dataset_locations else None},
               "csv": args.csv, "phases_s": phases.seconds, "driver_cpu_s": driver_cpu_seconds(), "driver_cpu_during_part_tasks_s": cpu_during_part_tasks, "merged_store_task_s": round(store_task_s, 3), "finish_steps_s": finished["steps_s"], "plan_own_s": planned.seconds, "plan_steps_s": planned.steps, "seconds": time.time() - PROCESS_STARTED, "driver_peak_rss_mb": peak_rss_mb(),
               "exit_status": status, "output_folder": out}
    write_atomically(os.path.join(out, "restricted", "spark_summary.json"), json.dumps(summary, indent=1) + "\n")
    shutil.rmtree(layout.work_root(out), ignore_errors=True)
    log(f"done in {summary['seconds']:.1f} s: {out}/report.html" + ("; some inputs were quarantined (restricted/quarantine.csv)" if status == 2 else "")
        + (f"; {len(failed)} parts failed (restricted/spark_summary.json: failed_parts)" if failed else ""))
    # No sc.stop(): spark-submit's shutdown hook stops the context when this process exits.
    # PySpark's stop() also waits out its accumulator server's poll, 0.7 s more of every run.
    return status


def tile_links(sc, tasks, epsilon_m, tile_deg, binary, config_args, folder):
    """Locations across devices, stage 4's first step: each part's staypoints into tiles with
    a halo, Spark's shuffle brings each tile to one reducer task, which writes its tiles'
    links into `folder` (location_tiles.py); the store's task joins them. Returns the
    reducers' summaries (tiles, staypoints, halo, links)."""
    tiled = (sc.parallelize(tasks, len(tasks)).flatMap(lambda t: location_tiles.points(t, epsilon_m, tile_deg))
             .partitionBy(max(1, min(len(tasks), sc.defaultParallelism)), location_tiles.bucket)
             .mapPartitionsWithIndex(lambda i, items: location_tiles.links(i, items, binary(), config_args, folder)).collect())
    log(f"locations: {sum(t['staypoints'] for t in tiled)} staypoints in {sum(t['tiles'] for t in tiled)} tiles of {tile_deg} degrees "
        f"({sum(t['halo'] for t in tiled)} more in halos), {sum(t['links'] for t in tiled)} links")
    return tiled


def renumber_and_reduce(sc, tasks, reduced, partials, tables):
    """Stages 5 and 6 as one job: the map tasks renumber a part each and emit its partial
    groups; Spark's shuffle brings each group's partials to one reducer, which merges them
    and writes the reduced tables into `reduced` (reductions.py). Returns each reducer's
    seconds, its k-per-part count and the renumber tasks' summaries it passed on."""
    def renumber_and_emit(task):
        again = renumber.renumber_part(task)
        started = time.time()
        found = list(reductions.partials(task))
        yield ("summary", task["index"]), dict(again, index=task["index"], partials_seconds=time.time() - started)
        yield from found
    reducers = max(1, min(len(tasks), sc.defaultParallelism))
    return (sc.parallelize(tasks, len(tasks)).flatMap(renumber_and_emit).partitionBy(reducers, reductions.bucket)
            .mapPartitionsWithIndex(lambda i, items: reductions.reduce_bucket(i, items, reduced, partials, tables)).collect())


def pause_for_test(folder, index):
    """Tests: the first task to take DIR/pause says where it runs (DIR/paused: part and pid)
    and waits, so that the test can kill the worker under it."""
    try:
        os.rename(os.path.join(folder, "pause"), os.path.join(folder, "taken"))
    except FileNotFoundError:
        return
    with open(os.path.join(folder, "paused.partial"), "w") as f:
        f.write(f"{index} {os.getpid()}\n")
    os.replace(os.path.join(folder, "paused.partial"), os.path.join(folder, "paused"))
    for _ in range(600):
        if os.path.exists(os.path.join(folder, "continue")):
            return
        time.sleep(0.2)


def task_attempts(sc):
    """How many times Spark tries a task: local[N,F] says F (local[N], 1), a cluster
    spark.task.maxFailures (default 4)."""
    import re
    found = re.fullmatch(r"local\[[^,\]]+(?:,(\d+))?\]", sc.master)
    if found:
        return int(found.group(1) or 1)
    return int(sc.getConf().get("spark.task.maxFailures", "4"))


def driver_cpu_seconds():
    """The driver's own work, in CPU seconds: its Python process, the binary it ran (config,
    the input listing) and spark-submit's JVM, the Python's parent (which, in local mode, also
    runs the executors' side of every task)."""
    import resource
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    jvm = None
    try:
        with open(f"/proc/{os.getppid()}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        jvm = round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 2)
    except (OSError, IndexError, ValueError):
        pass
    return {"python": round(own.ru_utime + own.ru_stime, 2), "binary": round(children.ru_utime + children.ru_stime, 2), "jvm": jvm}


def peak_rss_mb():
    """The driver's Python process's peak resident memory (Linux ru_maxrss is in KiB)."""
    import resource
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


if __name__ == "__main__":
    sys.exit(main())
