"""Where a distributed run keeps its intermediate data: a work folder inside the output
folder's restricted/ (on the shared file system the inputs are on, so every executor reaches
it; its parts' stores and exports hold every fix, so never among what publishes), one
sub-folder per part. The driver never reads these files; executors write and read them.

    OUT/restricted/.spark-work/<run>/part-N/   one part's run: export/ (exact CSV of its store),
                                         part-tables/ (its per-device files), verbatim.sqlite (its
                                         windows, for the merged store), ddl.json, run.json, log.txt
    OUT/restricted/.spark-work/<run>/part-N/global/ the part's rows with data-set ids, as chunks to concatenate
    OUT/restricted/.spark-work/<run>/tables/T/part=N/  intermediate Parquet the merge reads (check-ins, geofences,
                                         heat-map cells per device: never published)
    OUT/restricted/.spark-work/<run>/parquet/T/part=N/ the published Parquet datasets, moved to OUT/restricted/parquet/ at the end
    OUT/restricted/.spark-work/<run>/merged/        the merged store (and dataset-scope locations)

A run removes its work folder when it ends; a run that was killed leaves it, and the next
run over the same OUT removes it (`.spark-work` is never an input: discovery skips folders
whose name starts with a dot, and restricted/ holds the store)."""
import os
import shutil

WORK = ".spark-work"
FORMER_WORK_ROOT = WORK  # where earlier versions kept it: at the top of OUT
# What the merged store, the tiles and the renumbering read from a part folder: the last task
# reads none of it (only global/ and log.txt), so it removes them while it works.
READ_BEFORE_FINISH = ("export", "part-tables", "verbatim.sqlite")


def work_root(out):
    return os.path.join(out, "restricted", WORK)


def run_folder(out, run):
    return os.path.join(work_root(out), run)


def part_folder(run_dir, index):
    return os.path.join(run_dir, f"part-{index}")


def replace_folder(source, target):
    """Moves the finished folder `source` to `target`, replacing what is there (a task's
    earlier attempt, or a speculative copy: both hold the same rows)."""
    if os.path.exists(target):
        shutil.rmtree(target, ignore_errors=True)
    try:
        os.rename(source, target)
    except OSError:
        if not os.path.exists(target):  # not a concurrent attempt that won the rename
            raise
        shutil.rmtree(source, ignore_errors=True)


def read_text(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def write_text(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".partial", "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(path + ".partial", path)
