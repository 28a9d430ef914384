"""Writes the small sample inputs in traces/ (deterministic: fixed seed, fixed times).

One of each input kind the pipeline reads, with known quirks (a GPS spike, a duplicate time,
a rating out of range, one malformed file), so `scripts/run.sh` shows ingest and quarantine
on a fresh clone. The multi-device simulator of a later issue replaces this with a city.
Run: python3 scripts/make_sample_traces.py
"""
import gzip
import json
import math
import os
import random
from datetime import datetime, timedelta, timezone

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "traces")
START = datetime(2024, 5, 6, 7, 30, tzinfo=timezone.utc)
HOME = (48.8566, 2.3522)
DAVE_HOME = (48.8530, 2.3450)
M_PER_DEG_LAT = 111_195.0
rng = random.Random(20240506)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S") + f".{t.microsecond // 1000:03d}Z"


def write(name, text, gz=False):
    path = os.path.join(ROOT, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = text.encode("utf-8")
    if gz:
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
            f.write(data)
    else:
        with open(path, "wb") as f:
            f.write(data)


def track(start, legs):
    """Fixes at 1 Hz along legs of (seconds, metres per second east, metres per second north)."""
    lat, lon = HOME
    t = start
    fixes = []
    for seconds, east, north in legs:
        for _ in range(seconds):
            lat += north / M_PER_DEG_LAT
            lon += east / (M_PER_DEG_LAT * math.cos(math.radians(lat)))
            t += timedelta(seconds=1)
            fixes.append((t, lat + rng.gauss(0, 2e-5), lon + rng.gauss(0, 2e-5), round(rng.uniform(0.7, 1.6), 1)))
    return fixes


def day(start, origin, plan, interval=5):
    """Fixes every `interval` s along a plan of ("stay", seconds) and ("move", (lat, lon), m/s)
    steps: stays scatter about 5 m around the place, moves go straight at the speed."""
    lat, lon = origin
    t = start
    fixes = []
    for step in plan:
        if step[0] == "stay":
            for _ in range(int(step[1] / interval)):
                fixes.append((t, lat + rng.gauss(0, 4e-5), lon + rng.gauss(0, 6e-5), round(rng.uniform(0.8, 2.0), 1)))
                t += timedelta(seconds=interval)
        else:
            (target_lat, target_lon), speed = step[1], step[2]
            north = (target_lat - lat) * M_PER_DEG_LAT
            east = (target_lon - lon) * M_PER_DEG_LAT * math.cos(math.radians(lat))
            steps = max(1, int(math.hypot(north, east) / speed / interval))
            for i in range(steps):
                f = i / steps
                fixes.append((t, lat + f * (target_lat - lat) + rng.gauss(0, 2e-5), lon + f * (target_lon - lon) + rng.gauss(0, 3e-5),
                              round(rng.uniform(0.7, 1.6), 1)))
                t += timedelta(seconds=interval)
            lat, lon = target_lat, target_lon
    return fixes


def gpx(fixes, author):
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<gpx version="1.1" creator="make_sample_traces.py" xmlns="http://www.topografix.com/GPX/1/1">',
             f"<metadata><author><name>{author}</name></author></metadata>", "<trk><name>commute</name><trkseg>"]
    for t, lat, lon, hdop in fixes:
        lines.append(f'<trkpt lat="{lat:.7f}" lon="{lon:.7f}"><ele>35.0</ele><time>{iso(t)}</time><hdop>{hdop}</hdop></trkpt>')
    lines += ["</trkseg></trk>", "</gpx>", ""]
    return "\n".join(lines)


def imu_rows(start, seconds, rate, mode):
    rows = []
    for i in range(int(seconds * rate)):
        t = start + timedelta(seconds=i / rate)
        s = i / rate
        g = tuple(rng.gauss(0, 0.004) for _ in range(3))  # gyroscope noise at rest, rad/s
        if mode == "walk":
            # Steps at 1.9 Hz (vertical bounce and fore-aft surge), strides at 0.95 Hz (sway),
            # and the pocket's rotation with each stride: magnitudes seen on phones in trousers.
            step, stride = 2 * math.pi * 1.9 * s, 2 * math.pi * 0.95 * s
            a = (1.6 * math.sin(step + 0.6), 1.0 * math.sin(stride), 9.81 + 2.5 * math.sin(step) + 0.7 * math.sin(2 * step))
            g = (g[0] + 1.1 * math.sin(stride), g[1] + 0.6 * math.sin(step), g[2] + 0.4 * math.sin(stride + 1))
            a = tuple(v + rng.gauss(0, 0.05) for v in a)
        else:
            a = tuple(v + rng.gauss(0, 0.01) for v in (0.0, 0.0, 9.81))  # a phone on a table: sensor noise only
        rows.append((t, a, g))
    return rows


def main():
    # alice: a GPX walk then bike, with one GPS spike and one repeated time.
    fixes = track(START, [(300, 0.0, 1.4), (600, 4.5, 0.5)])
    t, lat, lon, hdop = fixes[400]
    fixes[400] = (t, lat + 0.05, lon, hdop)          # 5.5 km away for one second: a spike
    fixes.insert(200, fixes[199])                     # the same time twice
    write("alice/2024-05-06-commute.gpx", gpx(fixes, "alice"))

    # alice's phone: 50 Hz accelerometer + gyroscope with per-sample labels.
    rows = imu_rows(START, 60, 50, "walk") + imu_rows(START + timedelta(seconds=60), 30, 50, "still")
    text = "time,ax,ay,az,gx,gy,gz,label\n" + "".join(
        f"{r[0].timestamp():.3f},{r[1][0]:.4f},{r[1][1]:.4f},{r[1][2]:.4f},{r[2][0]:.4f},{r[2][1]:.4f},{r[2][2]:.4f},"
        f"{'walking' if i < 3000 else 'still'}\n" for i, r in enumerate(rows))
    write("alice/phone-2024-05-06.csv.gz", text, gz=True)

    # bob: a Sensor Logger export folder (z,y,x column order, Unix ns) with Location.csv.
    bob_start = START + timedelta(hours=1)
    rows = imu_rows(bob_start, 40, 50, "walk")
    ns = lambda t: int(round(t.timestamp() * 1e9))
    sensor = "time,seconds_elapsed,z,y,x\n" + "".join(
        f"{ns(r[0])},{i / 50:.3f},{r[1][2] - 9.81:.4f},{r[1][1]:.4f},{r[1][0]:.4f}\n" for i, r in enumerate(rows))
    total = "time,seconds_elapsed,z,y,x\n" + "".join(
        f"{ns(r[0])},{i / 50:.3f},{r[1][2]:.4f},{r[1][1]:.4f},{r[1][0]:.4f}\n" for i, r in enumerate(rows))
    gyro = "time,seconds_elapsed,z,y,x\n" + "".join(
        f"{ns(r[0])},{i / 50:.3f},{r[2][2]:.4f},{r[2][1]:.4f},{r[2][0]:.4f}\n" for i, r in enumerate(rows))
    location = "time,seconds_elapsed,bearingAccuracy,speedAccuracy,verticalAccuracy,horizontalAccuracy,speed,bearing,altitude,longitude,latitude\n"
    for i, (t, lat, lon, _) in enumerate(track(bob_start, [(40, 1.3, 0.2)])):
        location += f"{ns(t)},{i + 1},12.0,0.5,4.0,{rng.uniform(4, 12):.1f},1.3,81.0,36.0,{lon:.7f},{lat:.7f}\n"
    write("bob/sensor-logger-2024-05-06/Metadata.csv", "version,device name,recording time,platform\n3,bob-pixel,2024-05-06 08:30,android\n")
    write("bob/sensor-logger-2024-05-06/Accelerometer.csv", sensor)
    write("bob/sensor-logger-2024-05-06/TotalAcceleration.csv", total)
    write("bob/sensor-logger-2024-05-06/Gyroscope.csv", gyro)
    write("bob/sensor-logger-2024-05-06/Location.csv", location)

    # carol: an Android sensor event log in long format (times relative to the start in the name).
    start_ms = int((START + timedelta(hours=2)).timestamp() * 1000)
    lines, t_ms = ["6,,0.0,0.0,0.0,0.0"], 0
    for i in range(3000):
        t_ms += rng.choice((18, 20, 22))
        s = t_ms / 1000
        lines.append(f"{t_ms},android.sensor.accelerometer,{0.2 * math.sin(s):.5f},{9.7 + 0.3 * math.sin(12 * s):.5f},{0.5:.5f}")
        if i % 2 == 0:
            lines.append(f"{t_ms + 3},android.sensor.gyroscope,{0.01 * math.sin(s):.5f},0.00100,-0.00200")
        if i % 5 == 0:
            lines.append(f"{t_ms + 5},android.sensor.magnetic_field,21.18,-49.37,-15.24")
        if i % 50 == 0:
            lines.append(f"{t_ms + 7},sound,{rng.uniform(55, 70):.1f}")
    write(f"carol/sensorfile_carol_Car_{start_ms}.csv", "\n".join(lines) + "\n")

    # dave: a GPX day of stays and trips between geofences, for staypoints, dwells and trips:
    # home, walk and cycle to the campus, a café (no geofence) at lunch, back to the campus,
    # then home by car.
    campus, cafe = (48.8612, 2.3752), (48.8562, 2.3688)
    fixes = day(START, DAVE_HOME, [
        ("stay", 1800), ("move", (48.8545, 2.3480), 1.4), ("move", campus, 4.5), ("stay", 2700),
        ("move", cafe, 1.3), ("stay", 1500), ("move", campus, 1.3), ("stay", 3000),
        ("move", (48.8560, 2.3600), 11.0), ("move", DAVE_HOME, 10.0), ("stay", 1500)])
    write("dave/2024-05-06-day.gpx", gpx(fixes, "dave"))

    # Geofences, stations, check-ins and labels.
    features = [
        {"type": "Feature", "id": "home-dave", "properties": {"name": "Dave home", "kind": "home", "radius_m": 80},
         "geometry": {"type": "Point", "coordinates": [DAVE_HOME[1], DAVE_HOME[0]]}},
        {"type": "Feature", "id": "home-alice", "properties": {"name": "Alice home", "kind": "home", "radius_m": 100},
         "geometry": {"type": "Point", "coordinates": [HOME[1], HOME[0]]}},
        {"type": "Feature", "id": "campus", "properties": {"name": "Campus", "kind": "work"},
         "geometry": {"type": "Polygon", "coordinates": [[[2.3700, 48.8580], [2.3800, 48.8580], [2.3800, 48.8640],
                                                          [2.3700, 48.8640], [2.3700, 48.8580]]]}},
    ]
    write("geofences.geojson", json.dumps({"type": "FeatureCollection", "features": features}, indent=1) + "\n")
    write("stations.csv", "id,name,kind,lat,lon,radius_m\ngare-lyon,Gare de Lyon,station,48.8443,2.3743,250\n"
                          "melun,Melun,station,48.5274,2.6553,200\n")
    write("checkins.csv",
          "device,train,from_station,to_station,checkin_time,scheduled_departure,scheduled_arrival,"
          "cleanliness,odours_temperature,crowding,service,noise_db,comment\n"
          f"carol,RER D 5521,gare-lyon,melun,{iso(START + timedelta(hours=2))},{iso(START + timedelta(hours=2, minutes=2))},"
          f"{iso(START + timedelta(hours=2, minutes=40))},4,3,2,4,71.5,\"crowded, but on time\"\n"
          f"alice,RER D 5521,gare-lyon,melun,{iso(START + timedelta(hours=2))},,,5,4,7,3,,rating 7 is out of range\n")
    write("labels.csv", "device,start,end,mode\n"
                        f"alice,{iso(START)},{iso(START + timedelta(seconds=300))},walk\n"
                        f"alice,{iso(START + timedelta(seconds=300))},{iso(START + timedelta(seconds=900))},bike\n")
    write("manifest.csv", "path,device,mode\nbob/sensor-logger-2024-05-06,bob,walk\n")

    # One malformed file, to show quarantine: the track is cut off mid-point.
    text = gpx(track(START, [(5, 1.0, 0.0)]), "dave")
    second_point_end = text.index("</trkpt>", text.index("</trkpt>") + 1) + len("</trkpt>")
    write("broken/cut-off.gpx", text[:second_point_end] + '\n<trkpt lat="48.8"')


if __name__ == "__main__":
    main()
