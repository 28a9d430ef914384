#!/usr/bin/env python3
"""Checks the imports of every module in Sources/ (and Benchmarks/) and the dependencies
Package.swift declares against docs/architecture.md: a module imports only modules of lower
layers, the libraries its row names, and the exceptions the page lists with a reason; a
declared dependency is imported by some file of the module; no file of Reports holds, takes
or opens a store (a `PipelineStore` value), and none mentions PipelineStore at all outside
the files its exception names (they take the store's row types as values). Prints each violation with its file and
exits 1 when there is one. Run by scripts/test.sh.

Usage: scripts/dev/check_architecture.py [PROJECT_ROOT]"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
SYSTEM = {"Foundation", "Glibc", "Dispatch"}
# The files of Reports that name the store's row types (`PipelineStore.HeatMapRows`,
# `PipelineStore.ModeWindowRow`), taken as values (the exception in docs/architecture.md); no
# other file of Reports may mention PipelineStore, and no file may hold or take a store.
REPORTS_STORE_FILES = {"HeatMapFiles.swift", "ModesCSV.swift"}
A_STORE_VALUE = re.compile(r"(:|->)\s*\[?PipelineStore\b(?!\.)|\bPipelineStore\(")


def tables(markdown):
    """Every markdown table of the page under its heading: heading -> rows of cells."""
    found, heading, rows = {}, None, None
    for line in markdown.splitlines():
        if line.startswith("#"):
            heading, rows = line.lstrip("#").strip(), None
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if rows is None:
                rows = found.setdefault(heading, [])
                continue  # the header
            if not all(set(c) <= set("-: ") for c in cells):
                rows.append(cells)
        else:
            rows = None
    return found


def names(cell):
    return {n.strip() for n in cell.replace("`", "").split(",") if n.strip() and n.strip() != "–"}


def package_targets(text):
    """Package.swift's targets (not tests, not system libraries): name -> (path, declared deps)."""
    targets = {}
    for match in re.finditer(r'\.(target|executableTarget)\(\s*name:\s*"([^"]+)"', text):
        start, depth, end = match.end(), 1, match.end()
        while depth and end < len(text):
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        body = text[start:end]
        deps = set()
        listed = re.search(r"dependencies:\s*\[", body)
        if listed:
            i, depth = listed.end(), 1
            while depth:
                depth += {"[": 1, "]": -1}.get(body[i], 0)
                i += 1
            inner = body[listed.end():i - 1]
            deps |= set(re.findall(r'\.product\(name:\s*"([^"]+)"', inner))
            deps |= set(re.findall(r'(?<!name:\s)(?<!package:\s)"([^"]+)"', re.sub(r'\.product\([^)]*\)', "", inner)))
        path = re.search(r'path:\s*"([^"]+)"', body)
        targets[match.group(2)] = (path.group(1) if path else os.path.join("Sources", match.group(2)), deps)
    return targets


def main():
    with open(os.path.join(ROOT, "docs", "architecture.md")) as f:
        page = tables(f.read())
    layer = {row[1].strip("`"): row[0] for row in page["Layers"]}
    libraries = {row[0].strip("`"): names(row[1]) for row in page["Libraries each module may use"]}
    exceptions = {}
    for row in page["Exceptions"]:
        exceptions.setdefault(row[0].strip("`"), set()).update(names(row[1]))
    with open(os.path.join(ROOT, "Package.swift")) as f:
        targets = package_targets(f.read())
    problems = []

    def allowed(module):
        mine = layer.get(module)
        below = set()
        if module == "TestSupport":
            below = {m for m, l in layer.items() if l in ("0", "2")}
        elif mine is not None and mine != "–":
            below = {m for m, l in layer.items() if l != "–" and int(l) < int(mine)}
            if int(mine) == max(int(l) for l in layer.values() if l != "–"):  # the top layer: the CLI and the benchmarks
                below.add("TestSupport")
        return below | libraries.get(module, set()) | exceptions.get(module, set()) | SYSTEM

    for module, (path, declared) in sorted(targets.items()):
        if module not in layer:
            problems.append(f"Package.swift: target {module} has no row in docs/architecture.md's layer table")
            continue
        ok = allowed(module)
        imported = set()
        folder = os.path.join(ROOT, path)
        for directory, _, files in os.walk(folder):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                file = os.path.join(directory, name)
                with open(file) as f:
                    text = f.read()
                for line_number, line in enumerate(text.splitlines(), 1):
                    m = re.match(r"\s*(?:@testable\s+|@_exported\s+|public\s+|package\s+|internal\s+)?import\s+(?:struct\s+|class\s+|enum\s+|func\s+)?(\w+)", line)
                    if not m:
                        continue
                    imported.add(m.group(1))
                    if m.group(1) not in ok:
                        problems.append(f"{os.path.relpath(file, ROOT)}:{line_number}: {module} (layer {layer[module]}) imports {m.group(1)}, "
                                        "which docs/architecture.md does not allow")
                if module == "Reports" and name not in REPORTS_STORE_FILES and "PipelineStore" in text:
                    problems.append(f"{os.path.relpath(file, ROOT)}: Reports mentions PipelineStore; a file is written from values")
                if module == "Reports" and A_STORE_VALUE.search(text):
                    problems.append(f"{os.path.relpath(file, ROOT)}: Reports holds or takes a store; give it the values (ReportFacts, closures)")
        for dependency in sorted(declared):
            if dependency not in ok:
                problems.append(f"Package.swift: {module} declares {dependency}, which docs/architecture.md does not allow")
            elif dependency not in imported:
                problems.append(f"Package.swift: {module} declares {dependency}, which none of its files imports")
    for problem in problems:
        print(problem)
    print(f"architecture: {len(targets)} modules checked against docs/architecture.md, {len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
