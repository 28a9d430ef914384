"""The shipped binary on an executor. The driver copies the bundle (`scripts/build/spark_bundle.sh`)
into the run's work folder, on the shared file system where the parts write their tables;
the first task on each node that needs the binary unpacks it into the node's Spark files
folder (`SparkFiles.getRootDirectory()`, removed by Spark when the job ends), and the node's
other tasks wait for it rather than unpack it again.

Not Spark's `addArchive` nor `addFile`: both copy the file on the driver, in the JVM, before
the first task can start (1.0 s for the 57 MB bundle with addFile, 1.5 s with addArchive,
which unpacks it there too, on this machine); a copy with `sendfile` takes 0.05 s. The driver
never runs the bundle's binary through Spark: it has its own copy (`driver_binary`, used
while Spark starts). A node's unpack (`tar`, 1.0 s) counts in its first task's seconds."""
import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile

NAME = "pipeline-bundle.tar.gz"


def ship(bundle, run_dir):
    """The bundle copied into the run's work folder; returns the path every node reads."""
    shipped = os.path.join(run_dir, NAME)
    shutil.copyfile(bundle, shipped)
    return shipped


def driver_binary(bundle, cache=None):
    """The driver's own bin/pipeline (for the configuration and the input listing), from a
    cache of unpacked bundles (`cache`, default ~/.cache/pipeline-spark), one folder per
    bundle file (path, size and modification time), so that a nightly job's driver unpacks
    its bundle once, not on every run (1.0 s of CPU beside Spark's start on two cores). The
    three most recently used are kept."""
    cache = cache or os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pipeline-spark")
    stat = os.stat(bundle)
    key = hashlib.sha256(f"{os.path.abspath(bundle)}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    root = os.path.join(cache, key)
    os.makedirs(root, exist_ok=True)
    found = binary(bundle, root)
    os.utime(root)  # most recently used
    entries = sorted((os.path.join(cache, n) for n in os.listdir(cache)), key=os.path.getmtime, reverse=True)
    for old in entries[3:]:
        shutil.rmtree(old, ignore_errors=True)
    return found


def binary(shipped, root):
    """bin/pipeline of the bundle `shipped`, unpacked once into this node's folder `root`."""
    target = os.path.join(root, "pipeline-bundle")
    found = os.path.join(target, "bin", "pipeline")
    if os.path.exists(found):
        return found
    with open(target + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also when this process dies
        if not os.path.exists(found):
            staging = tempfile.mkdtemp(prefix=".unpacking-", dir=root)
            try:
                subprocess.run(["tar", "-xzf", shipped, "-C", staging], check=True, capture_output=True)
                os.rename(staging, target)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
    return found
