#!/usr/bin/env python3
"""Writes a synthetic GTFS feed the size of a large city's, over the simulator's city (Paris,
48.8566 N 2.3522 E), for benchmarks only: it measures what a feed of that size costs, never
what a mode is (no real route is in it).

Layout: a 36 x 36 km square; BUS_ROUTES bus routes, each a random walk along a 300 m street
grid with a stop every ~350 m and a shape point every 50 m; RAIL_LINES straight rail lines
through the centre with a station every 1.2 km; TRIPS_PER_ROUTE trips per route (stop_times
grows with them). Default sizes give ~12,000 bus stops, ~600 stations, ~3,000 shapes and
~2.4 million stop times, the order of a European capital's feed.

Usage: scripts/data/make_city_feed.py OUT_FOLDER [BUS_ROUTES] [TRIPS_PER_ROUTE]
"""
import math
import os
import random
import sys

CENTRE = (48.8566, 2.3522)
M_LAT = 6371008.8 * math.pi / 180
M_LON = M_LAT * math.cos(math.radians(CENTRE[0]))


def position(east, north):
    return CENTRE[0] + north / M_LAT, CENTRE[1] + east / M_LON


def main():
    out = sys.argv[1]
    bus_routes = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    trips_per_route = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    rail_lines = 16
    os.makedirs(out, exist_ok=False)
    rng = random.Random(7)
    stops, routes, trips, times, shapes = [], [], [], [], []
    stop_at = {}

    def stop(east, north, prefix):
        key = (prefix, round(east / 50), round(north / 50))
        if key not in stop_at:
            stop_at[key] = f"{prefix}{len(stop_at)}"
            lat, lon = position(east, north)
            stops.append(f"{stop_at[key]},{lat:.6f},{lon:.6f},0")
        return stop_at[key]

    def run_trips(route, shape, calls):
        for t in range(trips_per_route):
            trip = f"{route}t{t}"
            trips.append(f"{route},{trip},{shape}")
            times.extend(f"{trip},{s},{k}" for k, s in enumerate(calls))

    for r in range(bus_routes):
        route, shape = f"B{r}", f"shB{r}"
        routes.append(f"{route},3")
        east, north = rng.uniform(-15000, 15000) // 300 * 300, rng.uniform(-15000, 15000) // 300 * 300
        points, calls, travelled = [(east, north)], [stop(east, north, "b")], 0.0
        for _ in range(rng.randint(20, 40)):  # legs of 300 m along the grid
            de, dn = rng.choice([(300, 0), (-300, 0), (0, 300), (0, -300)])
            for step in range(1, 7):
                points.append((east + de * step / 6, north + dn * step / 6))
            east, north, travelled = east + de, north + dn, travelled + 300
            if travelled >= 350:
                calls.append(stop(east + 8, north + 8, "b"))
                travelled = 0
        for n, (e, nn) in enumerate(points):
            lat, lon = position(e, nn)
            shapes.append(f"{shape},{lat:.6f},{lon:.6f},{n}")
        run_trips(route, shape, calls)
    for line in range(rail_lines):
        route, shape = f"R{line}", f"shR{line}"
        routes.append(f"{route},{1 if line % 2 else 2}")
        angle = math.pi * line / rail_lines
        ends = [(-18000 * math.cos(angle), -18000 * math.sin(angle)), (18000 * math.cos(angle), 18000 * math.sin(angle))]
        count = 31
        calls = []
        for k in range(count):
            f = k / (count - 1)
            e, n = ends[0][0] + (ends[1][0] - ends[0][0]) * f, ends[0][1] + (ends[1][1] - ends[0][1]) * f
            calls.append(stop(e, n, "s"))
            lat, lon = position(e, n)
            shapes.append(f"{shape},{lat:.6f},{lon:.6f},{k}")
        run_trips(route, shape, calls)

    def write(name, header, rows):
        with open(os.path.join(out, name), "w") as f:
            f.write(header + "\n")
            f.write("\n".join(rows) + "\n")
    write("stops.txt", "stop_id,stop_lat,stop_lon,location_type", stops)
    write("routes.txt", "route_id,route_type", routes)
    write("trips.txt", "route_id,trip_id,shape_id", trips)
    write("stop_times.txt", "trip_id,stop_id,stop_sequence", times)
    write("shapes.txt", "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence", shapes)
    print(f"{out}: {len(stops)} stops, {len(routes)} routes, {len(trips)} trips, {len(times)} stop times, "
          f"{len(shapes)} shape points", file=sys.stderr)


if __name__ == "__main__":
    main()
