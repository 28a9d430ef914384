"""The tables of scripts/bench_spark.sh, from the runs it left in .bench/sim-N (run from there).

Scaling model: a cluster of W workers like this machine (2 cores each) runs the part tasks
of the 16-part run, longest first, each on the first free worker (Spark's scheduler hands
tasks out as slots free up; longest-first is the best case for it). A task costs its
measured time plus Spark's measured per-task overhead (the 16-part run's task stage wall
minus its tasks' own time, over 16). The driver's work (session start, plan, merge,
publish) and spark-submit's launch stay as measured: they do not shrink with workers."""
import filecmp
import heapq
import json
import os
import sys

n = sys.argv[1]


def wall(name):
    seconds, rss_kb = open(name + ".time").read().split()[-2:]
    return float(seconds), int(rss_kb) / 1024


def identical(folder):
    names = [f for f in os.listdir("single") if f.endswith((".csv", ".geojson", ".png", ".html")) and f != "quarantine.csv"]
    return sum(filecmp.cmp(os.path.join("single", f), os.path.join(folder, f), shallow=False) for f in names if
               os.path.exists(os.path.join(folder, f))), len(names)


single_s, single_mb = wall("single")
size_mb = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk("traces") for f in fs) / 1e6
print(f"\n{n} simulated device-days, {size_mb:.0f} MB; this machine: 2 cores\n")
print("| run | wall | driver: session start / plan / part tasks / merge / store / files / publish | spark-submit launch, set-up | files identical to the single run |")
print("|---|---|---|---|---|")
print(f"| `pipeline run` | {single_s:.1f} s ({single_mb:.0f} MB peak RSS) | | | |")
runs = {}
for parts in (2, 4, 8, 16):
    if not os.path.exists(f"spark-{parts}/spark_summary.json"):
        print(f"| Spark, {parts} parts | failed: see spark-{parts}.log | | | |")
        continue
    s = json.load(open(f"spark-{parts}/spark_summary.json"))
    runs[parts] = s
    outer, _ = wall(f"spark-{parts}")
    p = s["phases_s"]
    driver = sum(p.values())
    same, total = identical(f"spark-{parts}")
    master = "local[1]" if parts == 16 else "local[2]"
    print(f"| Spark {master}, {parts} parts | {outer:.1f} s | {driver:.1f} s: " + " / ".join(f"{v:.1f}" for v in p.values())
          + f" | {outer - driver:.1f} s | {same} of {total} |")

if 16 in runs:
    s = runs[16]
    tasks = sorted(((part["bytes"] / 1e6, part["seconds"]) for part in s["parts"]), key=lambda t: t[0])
    print("\nPart tasks of the 16-part run (local[1]: one at a time, both cores each):\n")
    print("| part MB | task s | s per 100 MB |")
    print("|---|---|---|")
    for mb, sec in tasks:
        print(f"| {mb:.1f} | {sec:.2f} | {100 * sec / mb:.2f} |")
    xs, ys = [t[0] for t in tasks], [t[1] for t in tasks]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / max(1e-12, sum((x - mx) ** 2 for x in xs))
    print(f"\nleast squares: task s = {my - slope * mx:.2f} + {slope * 100:.2f} x (part MB / 100)")
    own = sum(ys)
    overhead = max(0.0, (s["phases_s"]["parts"] - own) / len(ys))
    fixed = sum(v for k, v in s["phases_s"].items() if k != "parts") + (wall("spark-16")[0] - sum(s["phases_s"].values()))
    print(f"Spark's overhead per task: {overhead:.2f} s (task stage {s['phases_s']['parts']:.1f} s, tasks' own time {own:.1f} s); "
          f"fixed cost outside the tasks: {fixed:.1f} s\n")
    print("| workers (2 cores each) | part tasks, simulated | whole job | against `pipeline run` |")
    print("|---|---|---|---|")
    for workers in (1, 2, 4, 8, 16):
        free = [0.0] * workers
        for t in sorted(ys, reverse=True):
            heapq.heapreplace(free, free[0] + t + overhead)
        makespan = max(free)
        print(f"| {workers} | {makespan:.1f} s | {fixed + makespan:.1f} s | {single_s / (fixed + makespan):.2f}x |")
