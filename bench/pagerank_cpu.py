#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""PageRank on the CPU: apps/pagerank (csr_pagerank, omp backend, 1 and 2 threads) against
igraph's PRPACK (PyPI "igraph", single-threaded), same graphs, same run. Not part of ctest.

    python3 bench/pagerank_cpu.py --build build [--shared ../shared/matrices] [--reps 5]

Both solve the same model: d = 0.85, uniform teleport, dangling pages spread uniformly,
self-loops kept (igraph agrees with networkx and with us on these). Ours runs with --tol 1e-6
(L1 change) --max-iter 1000; PRPACK uses its own fixed tolerance (1e-10) and reports no
iteration count. Times are of the PageRank computation only, with the read apart: ours the
"seconds" of the app's JSON (the csr_pagerank call, its setup included: out-degrees and the
transposed graph), igraph's the Graph.pagerank call on a graph built beforehand (its PRPACK setup
included). Median of --reps runs, interleaved (ours 1 thread, ours 2 threads, igraph) so that a
slow spell of a busy machine hits all alike. "L1 vs igraph": sum_i |ours_i - igraph_i|.
Prints a markdown table; with --csv FILE also appends one row per graph and thread count (ours
against igraph) in the format of bench/plot_results.py (bench/README.md, "Results").
"""
import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import igraph
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_results import append_rows, command_line, machine_description, now_utc  # noqa: E402


def read_edges(path):
    """(n, edges as an m x 2 array of 0-based ids) the way the app reads the file: Matrix Market
    rows/cols 1-based, edge lists 0-based with n = max id + 1; duplicates merged as ours does."""
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        if ".mtx" in path:
            lines = (line for line in f if not line.startswith("%"))
            rows, cols, _ = map(int, next(lines).split())
            assert rows == cols, path
            e = np.loadtxt(lines, dtype=np.int64, usecols=(0, 1), ndmin=2) - 1
            n = rows
        else:
            e = np.loadtxt(f, dtype=np.int64, comments="#", usecols=(0, 1), ndmin=2)
            n = int(e.max()) + 1
    return n, np.unique(e, axis=0)


def run_ours(app, path, threads, out):
    cmd = [app, path, "--json", "--top", "0", "--tol", "1e-6", "--max-iter", "1000",
           "--backend", "omp", "--threads", str(threads), "--output", out]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def bench(app, path, reps):
    n, edges = read_edges(path)
    g = igraph.Graph(n=n, edges=edges.tolist(), directed=True)
    out = tempfile.NamedTemporaryFile(suffix=".txt", delete=False).name
    t = {1: [], 2: [], "igraph": []}
    runs = {}
    for r in range(reps + 1):  # round 0: warm-up, untimed
        for threads in (1, 2):
            runs[threads] = run_ours(app, path, threads, out)
            if r > 0:
                t[threads].append(runs[threads]["seconds"])
        t0 = time.perf_counter()
        theirs = np.array(g.pagerank(damping=0.85, directed=True, implementation="prpack"))
        if r > 0:
            t["igraph"].append(time.perf_counter() - t0)
    ours = np.loadtxt(out, usecols=1)
    os.unlink(out)
    if runs[1]["links"] != len(edges) or runs[1]["nodes"] != n:
        raise SystemExit(f"{path}: ours {runs[1]['nodes']} x {runs[1]['links']}, read {n} x {len(edges)}")
    l1 = float(np.abs(ours - theirs).sum())
    name = os.path.basename(path)
    rows = []
    for threads in (1, 2):
        j, s = runs[threads], statistics.median(t[threads])
        rows.append((name, n, len(edges), f"libcsr omp, {threads} thread{'s' if threads > 1 else ''}",
                     s, j["iterations"], s / j["iterations"], j["bytes_per_iteration"] * j["iterations"] / s / 1e9, l1))
    rows.append((name, n, len(edges), "igraph PRPACK", statistics.median(t["igraph"]), None, None, None, 0.0))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build", help="build directory (apps/pagerank in it)")
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "matrices"),
                    help="directory with cnr-2000.mtx.gz and web-NotreDame.txt.gz (default: "
                    "../shared/matrices beside the checkout, docs/testing.md)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--csv", metavar="FILE", help="append the results to this CSV (bench/README.md)")
    a = ap.parse_args()
    app = os.path.join(a.build, "apps", "pagerank")
    started, command = now_utc(), command_line()
    rows = []
    for f in ("cnr-2000.mtx.gz", "web-NotreDame.txt.gz"):
        rows += bench(app, os.path.join(a.shared, f), a.reps)
    print(f"igraph {igraph.__version__}; median of {a.reps} after a warm-up; ours --tol 1e-6\n")
    print("| graph | nodes | links | solver | seconds | iterations | ms / iteration | GB/s | L1 vs igraph |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, n, m, who, s, it, spi, gbs, l1 in rows:
        print(f"| {name} | {n} | {m} | {who} | {s:.4f} | {it if it else '-'} | "
              f"{f'{spi * 1e3:.2f}' if spi else '-'} | {f'{gbs:.2f}' if gbs else '-'} | "
              f"{f'{l1:.2g}' if who != 'igraph PRPACK' else '-'} |")
    if a.csv:
        out = []
        for name, n, m, who, s, it, spi, gbs, l1 in rows:
            if who == "igraph PRPACK":
                continue
            theirs = next(r[4] for r in rows if r[0] == name and r[3] == "igraph PRPACK")
            threads = who.split(", ")[1]
            out.append(dict(benchmark="pagerank_cpu", case=name.split(".")[0], variant="omp, " + threads,
                            ours_seconds=s, anchor_name="igraph %s PRPACK" % igraph.__version__,
                            anchor_seconds=theirs, target_ratio=1.0, ours_gbs=gbs,
                            extra="nodes=%d;links=%d;iterations=%d;ms_per_iteration=%.2f;l1_to_igraph=%.2g;"
                                  "tol=1e-6;median_of=%d" % (n, m, it, spi * 1e3, l1, a.reps),
                            device=machine_description(), date_utc=started, command=command))
        append_rows(a.csv, out)


if __name__ == "__main__":
    main()
