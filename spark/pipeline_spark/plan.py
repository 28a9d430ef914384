"""Parts of a distributed run: contiguous ranges of device names, balanced by input bytes.

Devices are sorted by their UTF-8 bytes (the order of SQLite and Spark) and cut where the
running byte total crosses each k/N of the whole, so every part holds whole devices, the
parts' devices follow one another in the order a single run numbers them (the merge then
renumbers by adding offsets), and the ranges tile every name (a check-in of a device no
file has goes to the one part whose range holds its name). Files that are not one device's
(geofences, stations, check-ins, labels) go to every part; check-ins are then routed by
device range inside the binary (`--devices-from`, `--devices-before`).
"""
import json
import subprocess
from dataclasses import dataclass, field


@dataclass
class Part:
    index: int
    first: str = None   # first device owned; None: open
    before: str = None  # first device not owned; None: open
    devices: list = field(default_factory=list)
    files: list = field(default_factory=list)
    own_files: list = field(default_factory=list)  # the devices' files, without the shared ones
    bytes: int = 0

    def as_dict(self):
        return {"index": self.index, "first": self.first, "before": self.before, "devices": self.devices,
                "files": self.files, "bytes": self.bytes}


def key(name):
    return name.encode("utf-8")


def list_inputs(binary, paths, extra=()):
    """`pipeline inputs --json`: each file's path, format, bytes and device, without reading its records."""
    out = subprocess.run([binary, "inputs", *paths, "--json", *extra], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def plan(listing, partitions):
    """At most `partitions` parts (fewer when there are fewer devices)."""
    shared = [f for f in listing if not f.get("per_device")]
    by_device = {}
    for f in listing:
        if f.get("per_device"):
            by_device.setdefault(f["device"], []).append(f)
    devices = sorted(by_device, key=key)
    sizes = [sum(f["bytes"] for f in by_device[d]) for d in devices]
    total = sum(sizes) or 1
    count = max(1, min(partitions, len(devices)))
    parts, running = [Part(0)], 0
    for device, size in zip(devices, sizes):
        part = parts[-1]
        # Cut before this device when the part already reached its share of the bytes and
        # enough devices remain for the parts still to come.
        if part.devices and len(parts) < count and running >= total * len(parts) / count:
            parts.append(Part(len(parts), first=device))
            parts[-2].before = device
            part = parts[-1]
        part.devices.append(device)
        part.files += [f["path"] for f in by_device[device]]
        part.bytes += size
        running += size
    for part in parts:
        part.own_files = sorted(part.files)
        part.files = part.own_files + sorted(f["path"] for f in shared)
        part.bytes += sum(f["bytes"] for f in shared)
    return parts
