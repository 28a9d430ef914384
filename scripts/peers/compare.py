#!/usr/bin/env python3
"""Times the pipeline and its peers as whole processes on the same inputs in the same run,
alternating (pipeline, peer, pipeline, peer, ...), and prints the medians and ratios as the
Markdown table docs/performance.md shows, with the date and the machine.

Usage: compare.py --pipeline BIN --python VENV_PYTHON [--runs N] [--device-days DIR N]
                  [--out FILE.md] [--readme README.md]

Inputs come from .bench/peers/ (scripts/bench/bench_peers.sh builds them). A row's wall time is the
median over N runs of the whole process, start-up, reading and writing included (for a chain,
the sum of its processes); peak RSS is the largest any of its processes reached (GNU time's
%M). Ratios are the peer's median over the pipeline's: on a shared 2-core machine the ratios
are steadier than either figure. With --readme FILE (docs/performance.md), the lines between its
`<!-- peers:begin -->` and `<!-- peers:end -->` are replaced by the table. Standard library only.
"""
import argparse
import datetime as dt
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BENCH = ".bench/peers"
SCRIPTS = os.path.dirname(os.path.abspath(__file__))


def run_once(chain):
    """Runs each argv of the chain in turn; returns (wall s, peak RSS MB)."""
    wall, peak = 0.0, 0.0
    for argv in chain:
        with tempfile.NamedTemporaryFile("r") as usage:
            start = time.perf_counter()
            done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", usage.name] + argv,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            wall += time.perf_counter() - start
            if done.returncode not in (0, 2):
                sys.exit(f"failed ({done.returncode}): {' '.join(argv)}\n{done.stderr[-3000:]}")
            lines = [line for line in usage.read().splitlines() if line.strip().isdigit()]
            peak = max(peak, int(lines[-1]) / 1024 if lines else 0)
    return wall, peak


class Side:
    """One side of a row: how to prepare a run and the chain of processes it times."""

    def __init__(self, chain, prepare=None):
        self.chain, self.prepare, self.walls, self.peak = chain, prepare, [], 0.0

    def run(self):
        if self.prepare:
            self.prepare()
        wall, peak = run_once(self.chain)
        self.walls.append(wall)
        self.peak = max(self.peak, peak)

    @property
    def median(self):
        return statistics.median(self.walls)

    def spread(self):
        return f"{min(self.walls):.2f}–{max(self.walls):.2f} s" if len(self.walls) > 1 else f"{self.walls[0]:.2f} s"


def fresh(*paths):
    """A prepare step that removes outputs a previous run left (a store, a folder)."""
    def prepare():
        for path in paths:
            for candidate in (path, path + "-wal", path + "-shm"):
                if os.path.isdir(candidate):
                    shutil.rmtree(candidate)
                elif os.path.exists(candidate):
                    os.remove(candidate)
    return prepare


def compare(name, ours, peer, runs):
    """Alternates the two sides `runs` times after one untimed warm-up each (page cache)."""
    print(f"  {name} ...", file=sys.stderr, flush=True)
    for side in (ours, peer):
        if side:
            side.run()
            side.walls.clear()
    for _ in range(runs):
        ours.run()
        if peer:
            peer.run()
    return ours, peer


def megabytes(path):
    if os.path.isdir(path):
        return sum(os.path.getsize(os.path.join(root, f)) for root, _, files in os.walk(path) for f in files) / 1e6
    return os.path.getsize(path) / 1e6


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores ({model}), {memory_gib:.0f} GiB, {platform.system()} {platform.release()}"


def version(python, module):
    code = f"import importlib.metadata as m; print(m.version('{module}'))"
    done = subprocess.run([python, "-c", code], capture_output=True, text=True)
    return done.stdout.strip() or "?"


def rows(args):
    pipeline, python = args.pipeline, args.python
    work = tempfile.mkdtemp(prefix="peers-")
    gpx = os.path.join(BENCH, "real-60mb.gpx")
    geolife = os.path.join(BENCH, "geolife")
    imu15 = os.path.join(BENCH, "real-imu-15min.csv")
    imu60 = os.path.join(BENCH, "real-imu-60min.csv")
    store = os.path.join(work, "store.sqlite")
    peer_store = os.path.join(work, "peer.sqlite")
    points = int(subprocess.run(["grep", "-c", "<trkpt", gpx], capture_output=True, text=True).stdout)
    geolife_fixes = sum(sum(1 for _ in open(os.path.join(root, f))) - 6
                        for root, _, files in os.walk(geolife) for f in files if f.endswith(".plt"))
    gpxpy, trackintel, tsfel, numpy = (version(python, m) for m in ("gpxpy", "trackintel", "tsfel", "numpy"))
    runs = args.runs
    table = []

    ours, peer = compare("GPX parse", Side([[pipeline, "inspect", gpx]]),
                         Side([[python, f"{SCRIPTS}/gpxpy_parse.py", gpx]]), runs)
    size = megabytes(gpx)
    table.append((f"parse a {size:.1f} MB GPX of real track points ({points:,} points, 6–30 digit coordinates, "
                  "built from ../shared/data/gpx): `pipeline inspect` vs `gpxpy.parse`",
                  ours, f"{size / ours.median:.0f} MB/s, {points / ours.median / 1e6:.2f} M points/s",
                  peer, f"gpxpy {gpxpy}: {size / peer.median:.1f} MB/s", "≥ 300 MB/s, ≥ 100×"))

    ours, peer = compare("GPX ingest", Side([[pipeline, "ingest", gpx, "--store", store]], fresh(store)),
                         Side([[python, f"{SCRIPTS}/gpxpy_sqlite.py", gpx, peer_store]], fresh(peer_store)), runs)
    table.append(("ingest the same file into SQLite (parse, clean, write; one transaction): `pipeline ingest` "
                  "vs gpxpy + sqlite3 `executemany`, one transaction",
                  ours, f"{points / ours.median / 1e6:.2f} M points/s",
                  peer, f"gpxpy {gpxpy} + sqlite3: {points / peer.median / 1e3:.0f} k points/s", "≥ 1 M fixes/s, ≥ 50×"))

    trips_out = os.path.join(work, "trips")
    ours, peer = compare("GeoLife", Side([[pipeline, "ingest", geolife, "--store", store],
                                          [pipeline, "trips", "--store", store, "--out", trips_out]],
                                         fresh(store, trips_out)),
                         Side([[python, f"{SCRIPTS}/trackintel_geolife.py", geolife]]), runs)
    users = len(os.listdir(os.path.join(geolife, "Data")))
    table.append((f"GeoLife layout, {users} simulated users × 1 day at 1 Hz ({geolife_fixes:,} fixes, generated: "
                  "no GeoLife user is in ../shared/data), whole call incl. reading: `ingest` + `trips` vs "
                  "trackintel `read_geolife` + staypoints + triplegs + trips",
                  ours, f"{geolife_fixes / ours.median / 1e6:.2f} M fixes/s",
                  peer, f"trackintel {trackintel}: {geolife_fixes / peer.median / 1e3:.0f} k fixes/s", "≥ 50×"))

    out = os.path.join(work, "features.csv")
    ours, peer = compare("TSFEL", Side([[pipeline, "features", imu15, "--out", out]]),
                         Side([[python, f"{SCRIPTS}/tsfel_features.py", imu15, out]]), runs)
    table.append(("windowed features, 15 min of a real ~100 Hz 6-axis phone (GeoTecINIT, repeated; 5 s windows, "
                  "50 % overlap, 5 channels): `pipeline features` vs TSFEL statistical + spectral domains",
                  ours, "", peer, f"TSFEL {tsfel}", "≥ 500×"))

    ours, peer = compare("numpy", Side([[pipeline, "features", imu60, "--out", out]]),
                         Side([[python, f"{SCRIPTS}/numpy_features.py", imu60, out]]), runs)
    table.append(("the same features, 1 h file: `pipeline features` vs the same statistics in vectorised numpy "
                  "(`scripts/peers/numpy_features.py`)", ours, "", peer, f"numpy {numpy}", "≥ 10×"))

    if args.device_days:
        folder, days = args.device_days[0], int(args.device_days[1])
        reports = os.path.join(work, "reports")
        model = ["--model", args.model] if args.model else []
        ours, _ = compare("run", Side([[pipeline, "run", folder, "--out", reports] + model], fresh(reports)), None, runs)
        table.append((f"`pipeline run`, {days} simulated device-days ({megabytes(folder):.0f} MB, generated by "
                      "`scripts/bench/bench_run.sh`), every stage", ours,
                      f"{ours.median / days:.2f} s per device-day", None, "no peer runs the whole chain",
                      "≤ 0.3 s per device-day"))
    shutil.rmtree(work, ignore_errors=True)
    return table


def markdown(table, runs):
    today = dt.date.today().isoformat()
    lines = [f"Measured {today} by `scripts/bench/bench_peers.sh` on {machine()}: whole processes (the pipeline "
             "as the install script ships it, its Swift runtime linked statically), each side "
             f"run {runs} times alternating after one untimed warm-up; median wall (range), largest peak RSS.",
             "",
             "| work | pipeline | peer, same input, same run | ratio | target (issue 18) |",
             "|---|---|---|---|---|"]
    for work, ours, ours_rate, peer, peer_label, target in table:
        ours_cell = f"{ours.median:.2f} s ({ours.spread()}), {ours.peak:.0f} MB" + (f"; {ours_rate}" if ours_rate else "")
        if peer:
            label, _, rate = peer_label.partition(": ")
            peer_cell = f"{label}: {peer.median:.2f} s ({peer.spread()}), {peer.peak:.0f} MB" + (f"; {rate}" if rate else "")
            ratio = f"{peer.median / ours.median:.1f}×"
        else:
            peer_cell, ratio = peer_label, ""
        lines.append(f"| {work} | {ours_cell} | {peer_cell} | {ratio} | {target} |")
    return "\n".join(lines) + "\n"


def update_readme(path, text):
    with open(path) as handle:
        content = handle.read()
    begin, end = "<!-- peers:begin -->", "<!-- peers:end -->"
    if begin not in content or end not in content:
        sys.exit(f"{path} has no {begin} ... {end} lines to replace")
    head, rest = content.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as handle:
        handle.write(head + begin + "\n" + text + end + tail)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pipeline", required=True, help="the release binary")
    parser.add_argument("--python", required=True, help="the virtual environment's python with the peers")
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each side (default 3)")
    parser.add_argument("--device-days", nargs=2, metavar=("DIR", "N"), help="a simulated folder for `pipeline run`")
    parser.add_argument("--model", help="the mode model `pipeline run` classifies with")
    parser.add_argument("--out", default=os.path.join(BENCH, "peers.md"), help="where the table is written")
    parser.add_argument("--readme", help="a README whose peers section is replaced by the table")
    args = parser.parse_args()
    text = markdown(rows(args), args.runs)
    with open(args.out, "w") as handle:
        handle.write(text)
    print(text)
    if args.readme:
        update_readme(args.readme, text)
        print(f"updated {args.readme}")


if __name__ == "__main__":
    main()
