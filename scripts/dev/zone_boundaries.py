#!/usr/bin/env python3
"""Writes models/time-zones.bin, the time-zone boundary polygons `pipeline` looks a device's
zone up in (MobilityCore's ZoneBoundaries reads it), from timezone-boundary-builder's polygons
with the oceans' nautical zones (ODbL 1.0; notice in models/time-zones.NOTICE), as PyPI's
timezonefinder-data carries them. Run in the peer checks' environment, which pins both packages:

    scripts/peers/peer_setup.sh && .venv-peers/bin/python scripts/dev/zone_boundaries.py

The source has 8.2 million vertices (32 MB); the file keeps the zones' shape to within
TOLERANCE_DEGREES (about 50 m across the latitudes people live at) in about 6 MB. Douglas–Peucker
alone would simplify two neighbours' shared border apart and leave slivers of no zone or two
between them, so each ring is cut into arcs at its junctions (the vertices where the set of
rings sharing it changes) and each arc is simplified once, the same way from both sides.

The format (little-endian; varints are LEB128, signed ones zig-zag encoded):
    "MPTZ" u8 version=1
    varint length + UTF-8 source line (release, package)
    varint zone count, each: varint length + UTF-8 IANA name
    varint polygon count, each: varint zone index, varint ring count (the first is the outer
        ring, the rest its holes), each ring: varint vertex count, then per vertex the
        longitude and latitude in units of 1e-5 degree, the first absolute, the rest as
        differences from the one before (signed varints)
"""
import math
import os
import sys

import numpy as np
from timezonefinder import TimezoneFinder
from importlib.metadata import version

TOLERANCE_DEGREES = 0.0005  # about 55 m of latitude; longitude is scaled by the arc's cos(latitude)
UNIT = 1e-5  # stored coordinate unit, degrees (1.1 m of latitude)


def rings_of(tf):
    """(zone index, polygon index, ring index, xs, ys) of every ring, coordinates in 1e-7 degree."""
    out = []
    polygon = 0
    for zone_index, name in enumerate(tf.timezone_names):
        for poly in tf.get_geometry(tz_name=name, coords_as_pairs=False):
            for ring_index, (xs, ys) in enumerate(poly):
                x = np.rint(np.asarray(xs) * 1e7).astype(np.int64)
                y = np.rint(np.asarray(ys) * 1e7).astype(np.int64)
                if len(x) > 1 and x[0] == x[-1] and y[0] == y[-1]:
                    x, y = x[:-1], y[:-1]
                out.append((zone_index, polygon, ring_index, x, y))
            polygon += 1
    return out


def signatures(rings):
    """Per ring, per vertex, a signature of the set of rings sharing that vertex."""
    keys = np.concatenate([(x + 1_800_000_000) * 4_000_000_000 + (y + 900_000_000) for _, _, _, x, y in rings])
    ids = np.concatenate([np.full(len(r[3]), i, dtype=np.int64) for i, r in enumerate(rings)])
    unique, inverse = np.unique(keys, return_inverse=True)
    # A wrapping hash of the set of rings at each vertex: a collision only moves a junction.
    mixed = (ids * np.int64(0x9E3779B97F4A7C15 - (1 << 64)) + np.int64(0x632BE59BD9B4E019)) ^ (ids << np.int64(29))
    with np.errstate(over="ignore"):
        sig = np.zeros(len(unique), dtype=np.int64)
        np.add.at(sig, inverse, mixed)
        square = np.zeros(len(unique), dtype=np.int64)
        np.add.at(square, inverse, mixed * mixed)
    sig = (sig ^ (square << np.int64(1)))[inverse]
    out, start = [], 0
    for r in rings:
        out.append(sig[start:start + len(r[3])])
        start += len(r[3])
    return out, keys


def simplify(x, y, scale):
    """Indices kept by Douglas–Peucker of the open polyline x, y (first and last always)."""
    n = len(x)
    if n <= 2:
        return list(range(n))
    keep = np.zeros(n, dtype=bool)
    keep[0] = keep[-1] = True
    xs, ys = x * scale, y
    stack = [(0, n - 1)]
    tol = TOLERANCE_DEGREES * 1e7
    while stack:
        a, b = stack.pop()
        if b - a < 2:
            continue
        px, py = xs[a + 1:b], ys[a + 1:b]
        dx, dy = xs[b] - xs[a], ys[b] - ys[a]
        length = math.hypot(dx, dy)
        if length == 0:
            d = np.hypot(px - xs[a], py - ys[a])
        else:
            d = np.abs(dy * (px - xs[a]) - dx * (py - ys[a])) / length
        i = int(np.argmax(d))
        if d[i] > tol:
            m = a + 1 + i
            keep[m] = True
            stack.append((a, m))
            stack.append((m, b))
    return list(np.nonzero(keep)[0])


def simplify_ring(x, y, sig, keys):
    n = len(x)
    fixed = (sig != np.roll(sig, 1)) | (sig != np.roll(sig, -1))
    idx = list(np.nonzero(fixed)[0])
    if len(idx) < 2:
        # A ring shared whole or not at all: fix the vertex of least key and the one farthest from
        # it, which a neighbour sharing the whole ring (an enclave's hole) finds the same.
        first = int(np.argmin(keys))
        far = int(np.argmax((x - x[first]).astype(np.float64) ** 2 + (y - y[first]).astype(np.float64) ** 2))
        idx = sorted({first, far} | set(idx))
    kept = []
    for j, a in enumerate(idx):
        b = idx[(j + 1) % len(idx)]
        span = list(range(a, b + 1)) if b > a else list(range(a, n)) + list(range(0, b + 1))
        ax, ay = x[span].astype(np.float64), y[span].astype(np.float64)
        # The same arc seen from the neighbour runs the other way: simplify it in one direction.
        reverse = keys[span[0]] > keys[span[-1]]
        if reverse:
            ax, ay = ax[::-1], ay[::-1]
        scale = math.cos(math.radians(float(np.mean(ay)) / 1e7))
        chosen = simplify(ax, ay, scale)
        if reverse:
            chosen = [len(span) - 1 - c for c in reversed(chosen)]
        kept.extend(span[c] for c in chosen[:-1])
    return kept


def varint(value, out):
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def signed(value, out):
    varint((value << 1) ^ (value >> 63) if value < 0 else value << 1, out)


def text(value, out):
    data = value.encode("utf-8")
    varint(len(data), out)
    out.extend(data)


def main():
    tf = TimezoneFinder()
    rings = rings_of(tf)
    sigs, _ = signatures(rings)
    polygons = {}
    vertices_in = vertices_out = dropped = 0
    for (zone, polygon, ring_index, x, y), sig in zip(rings, sigs):
        vertices_in += len(x)
        vkeys = (x + 1_800_000_000) * 4_000_000_000 + (y + 900_000_000)
        kept = simplify_ring(x, y, sig, vkeys)
        qx = np.rint(x[kept] / (UNIT * 1e7)).astype(np.int64)
        qy = np.rint(y[kept] / (UNIT * 1e7)).astype(np.int64)
        points = [(a, b) for a, b in zip(qx.tolist(), qy.tolist())]
        points = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
        if len(points) > 1 and points[0] == points[-1]:
            points.pop()
        if len(set(points)) < 3:  # smaller than the tolerance: an islet or a hole of a few metres
            dropped += 1
            if ring_index == 0:
                polygons[polygon] = None
            continue
        entry = polygons.setdefault(polygon, (zone, []))
        if entry is None:
            continue
        entry[1].append(points)
        vertices_out += len(points)
    out = bytearray(b"MPTZ")
    out.append(1)
    text(f"timezone-boundary-builder {tf.data_version} with oceans, from timezonefinder-data "
         f"{version('timezonefinder-data')} (ODbL 1.0), simplified to {TOLERANCE_DEGREES} degrees "
         "by scripts/dev/zone_boundaries.py", out)
    varint(len(tf.timezone_names), out)
    for name in tf.timezone_names:
        text(name, out)
    kept_polygons = [p for p in polygons.values() if p is not None]
    varint(len(kept_polygons), out)
    for zone, ring_list in kept_polygons:
        varint(zone, out)
        varint(len(ring_list), out)
        for points in ring_list:
            varint(len(points), out)
            px, py = 0, 0
            for x, y in points:
                signed(x - px, out)
                signed(y - py, out)
                px, py = x, y
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = os.path.join(root, "models", "time-zones.bin")
    with open(path, "wb") as f:
        f.write(out)
    print(f"{len(tf.timezone_names)} zones, {len(kept_polygons)} polygons, {vertices_in} → {vertices_out} vertices "
          f"({dropped} rings under the tolerance dropped), {len(out) / 1e6:.1f} MB written to {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
