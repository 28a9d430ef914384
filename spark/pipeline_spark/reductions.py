"""The reductions of what crosses devices, as one Spark shuffle: each part's task emits its
partial groups, Spark moves every group to one reducer task (`bucket`), and the reducer merges
the parts' partials and writes the reduced tables as CSV into the run's work folder
(`reduce_bucket`). `pipeline publish --reduced` then applies every formula (k, medians,
shares, quantiles, means) and formatting rule with the single run's Swift code
(PipelineRunner/Distributed/ReducedTables.swift).

No grouping rule lives here. The binary forms each part's groups with the code that forms a
single run's (heat-map cells, OD pairs, modal-split totals, comfort groups) and writes them
as JSON lines in the part's `part-tables/partials/` (MobilityCore's PartialTable); each
column declares how its values merge over the parts (`merge` in `pipeline schema --json`,
which the driver reads once and passes here as `partials`: {table: [(column, merge), ...]}):

  key             the group's key (NULL or text)
  same            a setting equal in every part: the first part's
  sum             integers added
  distinct_count  a list of names per part: the count of distinct names (persons)
  ordered_sum     a list of numbers per part: added one at a time from 0, parts in order
  sorted_numbers  a list of numbers per part: all ascending, one field separated by spaces
  joined          a list of texts per part: all separated by spaces, parts in order
  any             a boolean per part: 1 when true in any part (the groups with 1 are counted)
  person_sums     a map of name to numbers per part: per name, added one at a time from 0, parts
                  in order; a JSON object name -> sum (each person's part, for the dominance rule)

Merging is exact, not approximate: parts hold disjoint, contiguous ranges of devices in the
single run's order (plan.py), so counts of devices add up across parts, persons (a person may
have devices in two parts) are unioned by name, and a sum of doubles is taken over the values
themselves in the order a single run adds them, so totals are the single run's to the last
bit. Only what a group needs moves: at most a number per device-cell, trip, leg or ride,
never a fix.

This replaced six Spark SQL jobs over the Parquet datasets (the same groups), which took
16-23 s on the standalone pair at 100-1600 device-days for a few thousand rows; the reduce
stage of this shuffle takes 0.1-0.4 s there (scripts/bench/bench_spark.sh, spark/README.md)."""
import json
import os
import time
import zlib


# --- the map side: one part's partial groups ---------------------------------------------

def partials(task):
    """(key, (part, row)) for every group of the part's partial tables. The key's first field
    names the table, the rest are the group's key columns."""
    folder = os.path.join(task["part_dir"], "part-tables", "partials")
    for table, columns in task["partials"].items():
        path = os.path.join(folder, f"{table}.jsonl")
        if not os.path.exists(path):
            continue
        keys = [i for i, (_, merge) in enumerate(columns) if merge == "key"]
        with open(path, encoding="utf-8") as f:
            header = json.loads(f.readline())
            if header != [name for name, _ in columns]:
                raise RuntimeError(f"{path}: columns {header}, not the schema's {[name for name, _ in columns]}: "
                                   "the part ran another version of the binary")
            for line in f:
                row = json.loads(line)
                yield (table, *(row[i] for i in keys)), (task["index"], row)


# --- the shuffle and the reduce side -----------------------------------------------------

def bucket(key):
    """The reducer of a group: a hash that is the same in every executor's Python (str hashes
    are salted per process)."""
    return zlib.crc32(repr(key).encode("utf-8"))


def reduce_bucket(reducer, items, folder, partials, tables):
    """Merges every group of one reducer and writes its files `folder`/<table>/part-<reducer>.csv
    for each of `tables` (the partial tables some part wrote; a header even when empty: a
    table's folder always exists). Yields its seconds, for each `any` column the groups where
    it is 1 ("table.column": count; the negative control), and the renumber tasks' summaries
    passed through."""
    started = time.time()
    groups = {}
    passed = []
    for key, value in items:
        if key[0] == "summary":
            passed.append(value)
        else:
            groups.setdefault(key, []).append(value)
    out = {table: [] for table in tables}
    flagged = {f"{table}.{name}": 0 for table in tables for name, merge in partials[table] if merge == "any"}
    for key, values in groups.items():
        values.sort(key=lambda v: v[0])  # part order: device order
        table = key[0]
        row = []
        for i, (name, merge) in enumerate(partials[table]):
            merged = merge_column(merge, [v[1][i] for v in values])
            if merge == "any" and merged:
                flagged[f"{table}.{name}"] += 1
            row.append(merged)
        out[table].append(row)
    for table, found in out.items():
        write_csv(os.path.join(folder, table, f"part-{reducer:05d}.csv"), [name for name, _ in partials[table]], found)
    yield {"reducer": reducer, "started": started, "finished": time.time(), "flagged": flagged, "summaries": passed}


def merge_column(merge, values):
    """One column's values of one group, one per part in part order, merged as declared."""
    if merge in ("key", "same"):
        return values[0]
    if merge == "sum":
        return sum(values)
    if merge == "distinct_count":
        return len(set(name for names in values for name in names))
    if merge == "ordered_sum":
        total = 0.0
        for numbers_ in values:
            for x in numbers_:
                total += x
        return total
    if merge == "sorted_numbers":
        return numbers(x for numbers_ in values for x in numbers_)
    if merge == "joined":
        return " ".join(text for texts in values for text in texts)
    if merge == "any":
        return 1 if any(values) else 0
    if merge == "person_sums":
        sums = {}
        for parts in values:
            for name, numbers_ in parts.items():
                total = sums.get(name, 0.0)
                for x in numbers_:
                    total += x
                sums[name] = total
        return json.dumps(dict(sorted(sums.items())), ensure_ascii=False, separators=(",", ":"))
    raise ValueError(f"unknown merge {merge!r} (pipeline schema --json names it; this reducer is older than the binary)")


def numbers(values):
    """Ascending, as one field of shortest round-trip texts separated by spaces."""
    return " ".join(repr(float(v)) for v in sorted(values))


def field(value):
    """RFC 4180, as ReducedTables reads it: NULL an empty field, "" the empty string."""
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    text = str(value)
    if text == "" or any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def write_csv(path, columns, table_rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".partial", "w", encoding="utf-8", newline="") as f:
        f.write(",".join(columns) + "\n")
        for row in table_rows:
            f.write(",".join(field(v) for v in row) + "\n")
    os.replace(path + ".partial", path)
