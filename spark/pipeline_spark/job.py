"""The pipeline on Apache Spark: `spark-submit spark/pipeline_spark/job.py INPUT… --out DIR`.

1. Plan (driver): `pipeline inputs --json` lists every file's device and bytes without
   reading its records; devices are cut into contiguous, byte-balanced parts (plan.py).
2. Run (executors): each part runs `pipeline run --partial` on the binary shipped with the
   job (`--bundle`, unpacked by Spark on every node) and returns its exported tables and
   its devices' own files (part.py). A failed task is retried by Spark; only one attempt's
   result counts.
3. Merge (Spark SQL): heat maps (devices counted over all parts, then k), OD (exact
   medians), modal split (aggregates.py), per-train and per-route comfort (comfort.py);
   per-device files joined with renumbered ids (device_files.py); one merged store
   (merged_store.py); with locations clustered across devices, one pass over every
   staypoint of the merged store (locations.py).
4. Publish (driver): `pipeline publish` on the merged store writes the heat-map files,
   quarantine.csv and report.html, as `pipeline run` does.

Outputs replace DIR's files atomically (each written beside and renamed), logs of every
part go to DIR/logs/, and the exit status is the single run's: 0, 2 when inputs were
quarantined, 1 on failure."""
import argparse
import json
import os
import subprocess
import sys
import time

PROCESS_STARTED = time.time()  # the Python driver's start; spark-submit's own JVM starts before it

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pipeline_spark import aggregates, comfort, device_files, exported, locations, merged_store, part as part_module, plan as planning, rawcsv  # noqa: E402


def arguments(argv):
    p = argparse.ArgumentParser(prog="spark_run", description="Run the mobility pipeline on Apache Spark (see spark/README.md).")
    p.add_argument("inputs", nargs="+", help="trace files or folders, readable at the same path on every executor")
    p.add_argument("--out", required=True, help="output folder: the same files as `pipeline run --out` (replaced on re-run)")
    p.add_argument("--partitions", type=int, default=2, help="parts of the devices, one Spark task each (default 2)")
    p.add_argument("--binary", default=None, help="the pipeline executable inside the bundle (default: bin/pipeline of --bundle)")
    p.add_argument("--bundle", default=None, help="a .tar.gz with bin/pipeline, lib/ and models/, shipped to every executor")
    p.add_argument("--report-model", default=None, help="the model path the report names (default: the bundle's copy of the shipped model)")
    p.add_argument("--fail-first-attempt", default=None, help=argparse.SUPPRESS)  # tests: a marker file kills one attempt
    p.epilog = "Options after -- go to every part's `pipeline run` (--config, --model, --rides-from-recordings, …)."
    split = argv.index("--") if "--" in argv else len(argv)
    args = p.parse_args(argv[:split])
    args.run_args = argv[split + 1:]
    if args.partitions < 1:
        p.error("--partitions must be 1 or more")
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
    """The run's effective configuration (`pipeline config --print`, with its --config laid
    over the defaults) as dotted keys: {"calendar.utc_offset_hours": "0", …}."""
    text = subprocess.run([binary, "config", "--print"] + run_options(run_args, "--config"), check=True, capture_output=True,
                          text=True).stdout
    values, path = {}, []
    for line in text.splitlines():
        if not line.strip():
            continue
        depth = (len(line) - len(line.lstrip(" "))) // 2
        key, _, value = line.strip().partition(":")
        path = path[:depth] + [key]
        if value.strip():
            values[".".join(path)] = value.strip().strip('"')
    return values


class Phases:
    """Wall seconds of the driver's phases, for spark_summary.json and the benchmark."""

    def __init__(self):
        self.seconds, self.last = {}, PROCESS_STARTED

    def done(self, name):
        now = time.time()
        self.seconds[name] = round(now - self.last, 3)
        self.last = now


def write_atomically(path, text):
    with open(path + ".partial", "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(path + ".partial", path)


def log(message):
    print(time.strftime("[%Y-%m-%dT%H:%M:%SZ] ", time.gmtime()) + message, file=sys.stderr, flush=True)


def main(argv=None):
    args = arguments(argv if argv is not None else sys.argv[1:])
    from pyspark import SparkFiles
    from pyspark.sql import SparkSession

    phases = Phases()
    spark = SparkSession.builder.appName("mobility-pipeline").getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("ERROR")
    if not sc.getConf().contains("spark.sql.shuffle.partitions"):
        # Merged tables are small next to the inputs (rows per trip, cell, ride, not per fix):
        # Spark's 200 shuffle tasks per query cost more than the query (11.6 s of heat maps on
        # 100 device-days, 2 cores). Set spark.sql.shuffle.partitions to override.
        spark.conf.set("spark.sql.shuffle.partitions", str(max(2, sc.defaultParallelism)))
    started = time.time()
    phases.done("session_start")
    os.makedirs(os.path.join(args.out, "logs"), exist_ok=True)
    run_args = args.run_args

    bundle_name = None
    if args.bundle:
        sc.addArchive(args.bundle + "#pipeline-bundle")
        bundle_name = "pipeline-bundle"
    local_binary = args.binary or os.path.join(SparkFiles.get("pipeline-bundle"), "bin", "pipeline")
    configured = configuration(local_binary, run_args)
    utc_offset_hours = float(configured["calendar.utc_offset_hours"])
    inputs = [os.path.abspath(p) for p in args.inputs]
    listing = planning.list_inputs(local_binary, inputs)
    parts = planning.plan(listing, args.partitions)
    log(f"plan: {len(listing)} files, {sum(len(p.devices) for p in parts)} devices in {len(parts)} parts: "
        + "; ".join(f"part {p.index}: {len(p.devices)} devices, {p.bytes / 1e6:.1f} MB" for p in parts))
    phases.done("plan")
    fail_marker = args.fail_first_attempt
    binary_arg = args.binary

    def run(part):
        binary = binary_arg or os.path.join(SparkFiles.get(bundle_name), "bin", "pipeline")
        return part_module.run_part(part, binary, run_args, fail_marker)

    results = sc.parallelize([p.as_dict() for p in parts], len(parts)).map(run).persist()
    light = results.map(lambda r: {k: r[k] for k in ("index", "devices", "bytes", "exit_status", "summary", "log", "ddl", "schema", "files",
                                                     "seconds")}).collect()
    light.sort(key=lambda r: r["index"])
    phases.done("parts")
    for r in light:
        write_atomically(os.path.join(args.out, "logs", f"part-{r['index']}.log"), r["log"])
        log(f"part {r['index']}: {len(r['devices'])} devices, {r['bytes'] / 1e6:.1f} MB in {r['seconds']:.1f} s, "
            f"exit {r['exit_status']}, log in {args.out}/logs/part-{r['index']}.log")
    schema = json.loads(light[0]["schema"])

    # Every part's table as one DataFrame with the part's index, typed by the export's schema,
    # parsed on the executors by Arrow's C++ CSV reader instead of a Python tuple per row
    # (merge 33.5 s -> 30.2 s on 100 device-days, 4 parts).
    def table(name):
        cols = exported.columns(schema, name)
        from pyspark.sql.types import LongType, StructField, StructType
        texts = spark.createDataFrame(results.map(lambda r: (r["index"], r["tables"].get(name))), "part long, text string")
        texts = texts.coalesce(max(1, min(len(parts), sc.defaultParallelism)))  # a task per core, not per part

        def parse(batches):
            for batch in batches:
                for part, text in zip(batch.column(0).to_pylist(), batch.column(1).to_pylist()):
                    if text is not None:
                        yield from exported.arrow_batches(text, cols, part)
        return texts.mapInArrow(parse, StructType([StructField("part", LongType(), True)] + exported.spark_schema(cols).fields))

    for name in ("trips", "triplegs", "geofences", "heatmaps", "heatmap_device_cells", "rides", "checkins"):
        table(name).cache().createOrReplaceTempView(name)  # parsed once, not once per query

    files = device_files.join_all(light)
    files["od_matrix.csv"] = aggregates.od_matrix(spark)
    files["modal_split.csv"] = aggregates.modal_split(spark, utc_offset_hours)
    maps = aggregates.heat_maps(spark)
    per_part = aggregates.cells_if_k_per_part(spark)
    overall = next((m for m in maps if m["map"] == "all"), None)
    if overall:
        log(f"heat maps: {len(overall['cells'])} cells published over all parts, {overall['suppressed']} suppressed "
            f"(k = {overall['min_devices']}); k applied per part would have published {per_part}")
    if "rides.csv" in files:  # a single run writes the five comfort files together
        files.update(comfort.summaries(spark))
    phases.done("merge")
    store_path = os.path.join(args.out, "pipeline.sqlite")
    # The store takes every part's rows but the heat-map device cells (the driver holds them
    # once, to write them into SQLite; nothing of a part's cells reaches a file).
    by_index = dict(results.map(lambda r: (r["index"], {t: v for t, v in r["tables"].items() if t != "heatmap_device_cells"})).collect())
    db = merged_store.create(store_path + ".partial", light[0]["ddl"])
    tables = [t["name"] for t in schema["tables"]]

    def table_rows(index, name):
        if name not in tables:
            return None
        cols = exported.columns(schema, name)
        text = by_index[index].get(name)
        return None if text is None else ([c["name"] for c in cols], list(exported.rows(text, cols)))

    merged_store.fill(db, [r["index"] for r in light], table_rows, merged_store.order_tables(db, tables))
    merged_store.insert_heat_maps(db, maps)
    db.close()
    os.replace(store_path + ".partial", store_path)
    phases.done("merged_store")
    per_part_locations = None
    if configured["trips.locations.scope"] == "dataset":
        per_part_locations = len(rawcsv.table(files.get("locations.csv", ""))[1])  # the control: what pooling the parts' own gives
        print(locations.global_pass(local_binary, store_path, args.out, run_options(run_args, "--config")), file=sys.stderr, flush=True)
        files.pop("locations.csv", None)  # written by the pass
        locations.relabel(files, store_path)
    for name, text in files.items():
        write_atomically(os.path.join(args.out, name), text)
    phases.done("locations_and_files")
    passed = run_options(run_args, "--config", "--model")
    if args.report_model and "--model" not in passed:
        passed += ["--model", args.report_model]
    publish = subprocess.run([local_binary, "publish", "--store", store_path, "--out", args.out] + passed, capture_output=True, text=True)
    sys.stderr.write(publish.stderr)
    if publish.returncode != 0:
        log(f"publish failed ({publish.returncode})")
        return 1
    phases.done("publish")
    status = 2 if any(r["exit_status"] == 2 for r in light) else 0
    ranges = {p.index: (p.first, p.before) for p in parts}
    summary = {"parts": [{"index": r["index"], "devices": len(r["devices"]), "device_names": r["devices"], "first": ranges[r["index"]][0],
                          "before": ranges[r["index"]][1], "bytes": r["bytes"], "seconds": r["seconds"], "exit_status": r["exit_status"]}
                         for r in light],
               "heat_map": {"cells": len(overall["cells"]) if overall else 0, "suppressed": overall["suppressed"] if overall else 0,
                            "cells_if_k_per_part": per_part},
               "locations": {"scope": configured["trips.locations.scope"], "locations_if_per_part": per_part_locations},
               "phases_s": phases.seconds, "seconds": time.time() - started, "exit_status": status, "output_folder": args.out}
    write_atomically(os.path.join(args.out, "spark_summary.json"), json.dumps(summary, indent=1) + "\n")
    log(f"done in {summary['seconds']:.1f} s: {args.out}/report.html" + ("; some inputs were quarantined (quarantine.csv)" if status == 2 else ""))
    spark.stop()
    return status


if __name__ == "__main__":
    sys.exit(main())
