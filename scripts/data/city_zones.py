#!/usr/bin/env python3
"""A zone layer of 1 km squares over each city of the shared panel (`panel_inputs` in
scripts/data/shared_inputs.sh), for `pipeline run --zones`: what a planner's layer of small
zones looks like to the zone OD, without a real layer we may redistribute.

Usage: city_zones.py OUT.geojson [--cell-m 1000]

Cities (longitude/latitude boxes, EPSG:4326): Helsinki and Espoo (the Aalto phones), Amsterdam
to Utrecht (most of the CBS diaries; their trips to Heidelberg and Lower Saxony lie outside
every zone, as a city's layer leaves them), and the Bay Area from San Francisco to San Jose
(MobilityNet). Each square is `cell_m` wide and high (degrees of longitude scaled by the
cosine of its latitude band's centre); ids are `city-row-column`.
"""
import json
import math
import sys

CITIES = {
    "helsinki": (60.10, 60.35, 24.50, 25.30),
    "amsterdam-utrecht": (51.95, 52.50, 4.60, 5.30),
    "bay-area": (37.20, 38.00, -122.60, -121.80),
}
METRES_PER_DEGREE = 6371008.8 * math.pi / 180


def squares(name, box, cell_m):
    south, north, west, east = box
    dlat = cell_m / METRES_PER_DEGREE
    row, lat = 0, south
    while lat < north:
        dlon = cell_m / (METRES_PER_DEGREE * math.cos(math.radians(lat + dlat / 2)))
        column, lon = 0, west
        while lon < east:
            ring = [[lon, lat], [lon + dlon, lat], [lon + dlon, lat + dlat], [lon, lat + dlat], [lon, lat]]
            yield {
                "type": "Feature",
                "properties": {"id": f"{name}-{row}-{column}", "name": f"{name} {row},{column}"},
                "geometry": {"type": "Polygon", "coordinates": [[[round(x, 6), round(y, 6)] for x, y in ring]]},
            }
            column, lon = column + 1, lon + dlon
        row, lat = row + 1, lat + dlat


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("--"):
        sys.exit(__doc__)
    cell_m = float(args[args.index("--cell-m") + 1]) if "--cell-m" in args else 1000.0
    features = [f for name, box in CITIES.items() for f in squares(name, box, cell_m)]
    with open(args[0], "w", encoding="utf-8") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f, separators=(",", ":"))
    print(f"{len(features)} zones of {cell_m:.0f} m in {len(CITIES)} cities: {args[0]}")


if __name__ == "__main__":
    main()
