#!/usr/bin/env python3
"""Builds the benchmark's fixed inputs in .bench/peers/ (git-ignored), from real recordings in
../shared/data where it can, so the figures are about what users' files look like. Nothing
built here is shipped: the files stay on the machine that ran the benchmark.

  real-gpx OUT MB      one GPX track of the real track points of every GPX file in
                       ../shared/data/gpx that has times (Garmin exports with 10-30 digit
                       coordinates among them): lat, lon, ele and time as recorded, repeated
                       in order with times moved on so the track never goes back, until the
                       file holds MB megabytes.
  real-imu OUT MINUTES one phone's 6-axis CSV (GeoTecINIT header: x_acc..z_gyro, timestamp in
                       Unix ms, label) of the real ~100 Hz trouser-pocket recordings in
                       ../shared/data/imu/GeoTecINIT_sp-sw-har, concatenated in order with
                       times moved on, MINUTES long.
  geolife DIR CSV      a GeoLife-layout folder (DIR/Data/<user>/Trajectory/*.plt, one folder
                       per device, one file per day) of the generated fixes in CSV
                       (`pipeline-bench generate-days`): no GeoLife user is in
                       ../shared/data, so these are simulated.

Standard library only: it runs before any virtual environment exists.
"""
import csv
import datetime as dt
import glob
import os
import re
import sys

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data")
TRKPT = re.compile(rb"<trkpt\b[^>]*>.*?</trkpt>", re.S)
LAT = re.compile(rb'lat="([^"]+)"')
LON = re.compile(rb'lon="([^"]+)"')
ELE = re.compile(rb"<ele>([^<]+)</ele>")
TIME = re.compile(rb"<time>([^<]+)</time>")


def parse_time(text):
    text = text.decode().strip().replace("Z", "+00:00")
    return dt.datetime.fromisoformat(text)


def real_points():
    """(lat, lon, ele or None, seconds from the file's first fix) of each real file with times."""
    segments = []
    for path in sorted(glob.glob(os.path.join(DATA, "gpx", "**", "*.gpx"), recursive=True)):
        with open(path, "rb") as handle:
            body = handle.read()
        points = []
        for match in TRKPT.finditer(body):
            block = match.group(0)
            lat, lon, time = LAT.search(block), LON.search(block), TIME.search(block)
            if not (lat and lon and time):
                continue
            try:
                moment = parse_time(time.group(1))
            except ValueError:
                continue
            ele = ELE.search(block)
            points.append((lat.group(1), lon.group(1), ele.group(1) if ele else None, moment))
        if len(points) >= 10:
            start = points[0][3]
            segments.append([(a, b, e, (t - start).total_seconds()) for a, b, e, t in points])
    return segments


def real_gpx(out, megabytes):
    segments = real_points()
    if not segments:
        sys.exit("no GPX file with timed track points under " + DATA)
    target = int(float(megabytes) * 1e6)
    clock = dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc)
    written = 0
    with open(out, "wb") as handle:
        head = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
                b'<gpx version="1.1" creator="pipeline bench: real track points from ../shared/data/gpx"'
                b' xmlns="http://www.topografix.com/GPX/1/1">\n<trk><name>real points</name>\n')
        handle.write(head)
        written += len(head)
        while written < target:
            for segment in segments:
                lines = [b"<trkseg>\n"]
                for lat, lon, ele, offset in segment:
                    stamp = (clock + dt.timedelta(seconds=offset)).strftime("%Y-%m-%dT%H:%M:%S.000Z").encode()
                    ele_text = b"<ele>" + ele + b"</ele>" if ele is not None else b""
                    lines.append(b'<trkpt lat="' + lat + b'" lon="' + lon + b'">' + ele_text
                                 + b"<time>" + stamp + b"</time></trkpt>\n")
                lines.append(b"</trkseg>\n")
                block = b"".join(lines)
                handle.write(block)
                written += len(block)
                clock += dt.timedelta(seconds=segment[-1][3] + 3600)
                if written >= target:
                    break
        handle.write(b"</trk>\n</gpx>\n")


def real_imu(out, minutes):
    files = sorted(glob.glob(os.path.join(DATA, "imu", "GeoTecINIT_sp-sw-har", "DATA", "*", "*_sp.csv")))
    if not files:
        sys.exit("no GeoTecINIT phone recordings under " + DATA)
    wanted_ms = int(float(minutes) * 60_000)
    clock_ms = 1_700_000_000_000
    span_ms = 0
    with open(out, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["x_acc", "y_acc", "z_acc", "x_gyro", "y_gyro", "z_gyro", "timestamp", "label"])
        while span_ms < wanted_ms:
            for path in files:
                with open(path, newline="") as source:
                    rows = list(csv.reader(source))[1:]
                if not rows:
                    continue
                first = int(rows[0][6])
                for row in rows:
                    offset = int(row[6]) - first
                    if span_ms + offset >= wanted_ms:
                        return
                    writer.writerow(row[:6] + [str(clock_ms + offset), row[7]])
                last = int(rows[-1][6]) - first
                clock_ms += last + 10
                span_ms += last + 10


def geolife(folder, fixes_csv):
    """GeoLife PLT: 6 header lines, then lat,lon,0,altitude ft,days since 1899-12-30,date,time."""
    epoch = dt.datetime(1899, 12, 30, tzinfo=dt.timezone.utc)
    days = {}
    with open(fixes_csv, newline="") as handle:
        for row in csv.DictReader(handle):
            moment = dt.datetime.fromtimestamp(float(row["tracked_at_unix_s"]), dt.timezone.utc)
            key = (row["user_id"], moment.date())
            days.setdefault(key, []).append((row["latitude"], row["longitude"], moment))
    users = {user: f"{number:03d}" for number, user in enumerate(sorted({user for user, _ in days}))}
    for (user, _), rows in sorted(days.items()):
        trajectory = os.path.join(folder, "Data", users[user], "Trajectory")
        os.makedirs(trajectory, exist_ok=True)
        name = rows[0][2].strftime("%Y%m%d%H%M%S") + ".plt"
        with open(os.path.join(trajectory, name), "w") as plt:
            plt.write("Geolife trajectory\nWGS 84\nAltitude is in Feet\nReserved 3\n"
                      "0,2,255,My Track,0,0,2,8421376\n0\n")
            for lat, lon, moment in rows:
                serial = (moment - epoch).total_seconds() / 86400
                plt.write(f"{lat},{lon},0,100,{serial:.10f},{moment:%Y-%m-%d},{moment:%H:%M:%S}\n")


if __name__ == "__main__":
    commands = {"real-gpx": real_gpx, "real-imu": real_imu, "geolife": geolife}
    if len(sys.argv) != 4 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]](sys.argv[2], sys.argv[3])
