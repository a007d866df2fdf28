#!/usr/bin/env python3
"""The ladder's percentages of cuBLAS in kernels/README.md come from one committed CSV, not
from a hand: each rung row's two figures, and cuBLAS's GFLOP/s, are computed here from the
run that `tilescope-cli bench --preset ladder --csv` wrote on the H100 (the same file the app
shows without a GPU, assets/timings/ladder-h100.csv).

  tests/docs/ladder_table.py REPO_ROOT           check: exit 1 where the table and the CSV differ
  tests/docs/ladder_table.py REPO_ROOT --write   rewrite the figures in the table from the CSV

A row whose kernel the CSV lacks (rung 9, measured on another device) is left as written."""
import csv
import os
import re
import sys

CSV = "bench/results/2026-11-26-h100-session13/bench-ladder.csv"
README = "kernels/README.md"
SIZES = (1024, 4096, 8192)  # the table's last columns, in order
ROW = re.compile(r"^\| *(\d+) \| `([a-z0-9-]+)` ")
CUBLAS = re.compile(r"^\| *\| cuBLAS SGEMM ")


def gflops_by_kernel(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        rows = csv.reader(line for line in f if not line.startswith("#"))
        head = next(rows)
        col = {name: i for i, name in enumerate(head)}
        for r in rows:
            j, k, l = int(r[col["j"]]), int(r[col["k"]]), int(r[col["l"]])
            if j == k == l and r[col["verified"]] == "1":
                out[(r[col["kernel"]], j)] = float(r[col["gflops"]])
    return out


def thousands(x):
    return f"{round(x):,}".replace(",", " ")


def regenerate(lines, g):
    """The table's lines with their figures from the CSV; the others as they are."""
    out = []
    for line in lines:
        cells = line.rstrip("\n").split("|")
        row, cublas = ROW.match(line), CUBLAS.match(line)
        if row and all((row.group(2), n) in g for n in SIZES):
            kernel = row.group(2)
            figures = [100.0 * g[(kernel, n)] / g[("cublas", n)] for n in SIZES]
            bold = "**" in cells[-2]
            cells[-1 - len(SIZES):-1] = [f" {'**' if bold else ''}{f:.1f}{'**' if bold else ''} " for f in figures]
            line = "|".join(cells) + "\n"
        elif cublas:
            cells[-1 - len(SIZES):-1] = [f" {thousands(g[('cublas', n)])} GFLOP/s " for n in SIZES]
            line = "|".join(cells) + "\n"
        out.append(line)
    return out


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    g = gflops_by_kernel(os.path.join(root, CSV))
    path = os.path.join(root, README)
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    new = regenerate(lines, g)
    if "--write" in sys.argv:
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(new)
        return 0
    differ = [(i + 1, a, b) for i, (a, b) in enumerate(zip(lines, new)) if a != b]
    for number, was, want in differ:
        print(f"{README}:{number}: the table says\n  {was.rstrip()}\nbut {CSV} gives\n  {want.rstrip()}")
    print(f"ladder table: {len(differ)} rows differ from {CSV}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
