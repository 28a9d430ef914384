"""The tables of scripts/bench/bench_spark.sh, from the runs it left in .bench/sim-N.

Per size: the wall time and peak memory of `pipeline run`; of Spark in local mode
(local[2], 4 parts), on the standalone pair (two 1-core workers, 4 parts) and one task at
a time (local[1], up to 64 parts); the driver's own seconds and peak RSS (its Python
process, from restricted/spark_summary.json; on the pair also spark-submit's JVM, which there holds no
executor), and its CPU seconds in all and outside the part tasks (while they run it waits,
which costs its JVM CPU for as long as they last); the phases; and how many published files
are byte-identical to the single run.

Scaling model: a cluster of W two-core workers runs the local[1] run's tasks (each measured
on both cores of this machine), longest first, each on the first free worker, plus Spark's
measured overhead per task, in the job's two stages: the parts' `pipeline run`s, then their
renumbering, beside which the merged store's one task runs (the stage lasts as long as the
longer of the two: at many workers, the merged store). The rest of the pair's run
(spark-submit's launch, session start, plan, the executors' start until the first part
task runs, reductions, finish) is the fixed cost: it does not shrink with workers."""
import filecmp
import heapq
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def wall(path):
    seconds, rss_kb = open(path).read().split()[-2:]
    return float(seconds), int(rss_kb) / 1024


def identical(sim, folder):
    single = os.path.join(sim, "single")
    names = [f for f in os.listdir(single) if f.endswith((".csv", ".geojson", ".png", ".html")) and f != "quarantine.csv"]
    same = sum(os.path.exists(os.path.join(folder, f)) and filecmp.cmp(os.path.join(single, f), os.path.join(folder, f), shallow=False)
               for f in names)
    return same, len(names)


def size(sim):
    n = 0
    for r, _, fs in os.walk(os.path.join(sim, "traces")):
        n += sum(os.path.getsize(os.path.join(r, f)) for f in fs)
    return n / 1e6


def schedule(tasks, workers, overhead):
    free = [0.0] * workers
    for t in sorted(tasks, reverse=True):
        heapq.heapreplace(free, free[0] + t + overhead)
    return max(free)


curve = []
for n in sys.argv[1:]:
    sim = os.path.join(ROOT, ".bench", f"sim-{n}")
    single_s, single_mb = wall(os.path.join(sim, "single.time"))
    mb = size(sim)
    print(f"\n### {n} simulated device-days, {mb:.0f} MB of input; this machine: 2 cores\n")
    print("| run | wall | driver peak RSS | driver phases (s): session / plan / executors' start / parts / merged store / renumber / reductions / finish "
          "| launch | identical files |")
    print("|---|---|---|---|---|---|")
    print(f"| `pipeline run` | {single_s:.1f} s | {single_mb:.0f} MB (the process) | | | |")
    runs = {}
    for name, label in (("local", "local[2]"), ("pair", "standalone pair"), ("serial", "local[1], one task at a time")):
        folder = os.path.join(sim, f"spark-{name}")
        if not os.path.exists(os.path.join(folder, "restricted", "spark_summary.json")):
            print(f"| Spark {label} | failed: see {folder}.log | | | | |")
            continue
        s = json.load(open(os.path.join(folder, "restricted", "spark_summary.json")))
        outer, tree_mb = wall(folder + ".time")
        runs[name] = (s, outer, tree_mb)
        p = s["phases_s"]
        phases = " / ".join(f"{p.get(k, 0):.1f}" for k in ("session_start", "plan", "executors_start", "parts", "merged_store", "renumber", "reductions", "finish"))
        rss = f"{s['driver_peak_rss_mb']:.0f} MB Python" + (f", {tree_mb:.0f} MB JVM" if name == "pair" else "")
        same, total = identical(sim, folder)
        print(f"| Spark {label}, {len(s['parts'])} parts | {outer:.1f} s | {rss} | {phases} | {outer - sum(p.values()):.1f} s | {same} of {total} |")
    if "serial" not in runs or "pair" not in runs:
        continue
    s, _, _ = runs["serial"]
    tasks = [part["seconds"] + part["renumber_seconds"] for part in s["parts"]]
    runs_s, renumbers_s = [part["seconds"] for part in s["parts"]], [part["renumber_seconds"] for part in s["parts"]]
    per_mb = sorted(100 * (part["seconds"] + part["renumber_seconds"]) / (part["bytes"] / 1e6) for part in s["parts"])
    overhead = max(0.0, (s["phases_s"]["parts"] + s["phases_s"]["renumber"] - sum(tasks)) / (2 * len(tasks)))
    pair, pair_wall, pair_jvm = runs["pair"]
    fixed = pair_wall - pair["phases_s"]["parts"] - pair["phases_s"]["renumber"] - pair["phases_s"].get("merged_store", 0)
    store_s = pair.get("merged_store_task_s", 0.0)
    print(f"\n{len(tasks)} part tasks (run + renumber, both cores each): {sum(tasks):.1f} s in all, "
          f"{per_mb[len(per_mb) // 2]:.2f} s per 100 MB (median; {per_mb[0]:.2f}-{per_mb[-1]:.2f}); Spark's overhead per task {overhead:.2f} s.")
    print(f"Fixed cost outside the part tasks, on the pair: {fixed:.1f} s (launch {pair_wall - sum(pair['phases_s'].values()):.1f}, "
          + ", ".join(f"{k} {v:.1f}" for k, v in pair["phases_s"].items() if k not in ("parts", "renumber")) + ")"
          + (f"; the last task: " + ", ".join(f"{k} {v:.1f} s" for k, v in pair["finish_steps_s"].items() if not isinstance(v, dict))
             + " (publish: " + ", ".join(f"{k} {v:.1f} s" for k, v in pair["finish_steps_s"].get("publish_stages", {}).items() if v >= 0.05)
             + "; the report and the GeoPackage beside the others)" if "finish_steps_s" in pair else "")
          + (f"; the plan, on a thread beside the context's start ({pair['plan_steps_s']['waited']:.1f} s after the driver's Python "
             "started): " + ", ".join(f"{k} {v:.2f} s" for k, v in pair["plan_steps_s"].items() if k != "waited") if "plan_steps_s" in pair else "")
          + f"; the merged store's task (beside the renumbering, counted in the model below): {store_s:.1f} s"
          + "\n")
    print("| workers (2 cores each) | parts, simulated | renumbering or merged store, simulated | whole job | against `pipeline run` |")
    print("|---|---|---|---|---|")
    model = {}
    for workers in (1, 2, 4, 8, 16, 64):
        if workers > len(tasks):
            continue
        parts_s = schedule(runs_s, workers, overhead)
        second_s = max(schedule(renumbers_s, workers, overhead), store_s)
        model[workers] = fixed + parts_s + second_s
        print(f"| {workers} | {parts_s:.1f} s | {second_s:.1f} s | {model[workers]:.1f} s | {single_s / model[workers]:.2f}x |")
    driver_s = sum(v for k, v in pair["phases_s"].items() if k not in ("parts", "renumber"))
    cpu = pair.get("driver_cpu_s", {})
    waiting = pair.get("driver_cpu_during_part_tasks_s", {})
    print(f"The driver's own CPU on the pair: Python {cpu.get('python', 0):.1f} s, the binary it ran {cpu.get('binary', 0):.1f} s, "
          f"spark-submit's JVM {cpu.get('jvm') or 0:.1f} s"
          + (f"; of it while the part tasks ran (parts and renumbering, {pair['phases_s']['parts'] + pair['phases_s']['renumber']:.0f} s): "
             f"Python {waiting.get('python') or 0:.2f} s, JVM {waiting.get('jvm') or 0:.2f} s" if waiting else "") + ".")
    total_cpu = sum(v or 0 for v in cpu.values())
    curve.append((n, mb, single_s, runs.get("local", (None, None))[1], pair_wall, pair["driver_peak_rss_mb"], pair_jvm, driver_s,
                  total_cpu, total_cpu - sum(v or 0 for v in waiting.values()) if waiting else None, fixed, model.get(16), model.get(64)))

if curve:
    print("\n### The curve\n")
    print("| device-days | input | `pipeline run` | local[2] | standalone pair | driver RSS, Python / JVM | driver wall s (not in part tasks) "
          "| driver CPU s (outside the part tasks) | fixed cost | 16 workers, simulated | 64 workers, simulated |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n, mb, single_s, local_s, pair_s, py, jvm, driver_s, driver_cpu, outside_cpu, fixed, w16, w64 in curve:
        def ratio(t):
            return f"{t:.1f} s ({single_s / t:.1f}x)" if t else "n/a"
        print(f"| {n} | {mb:.0f} MB | {single_s:.1f} s | {ratio(local_s)} | {ratio(pair_s)} | {py:.0f} MB / {jvm:.0f} MB | {driver_s:.1f} s "
              f"| {driver_cpu:.1f} s" + (f" ({outside_cpu:.1f} s)" if outside_cpu is not None else "") + f" | {fixed:.1f} s | {ratio(w16)} | {ratio(w64)} |")
