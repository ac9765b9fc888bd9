#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""libcsr's Python package against the Python tools people use, same files, same run.

  read      libcsr.read(path) -> csr_array against scipy.io.mmread(path).tocsr() and
            fast_matrix_market.mmread(path).tocsr(), at 1 and 2 threads (each tool's own thread
            setting), on cnr-2000 and web-NotreDame written as .mtx text and on a generated
            real general file of 12M entries; alternating rounds (one call of each tool a
            round), median of --reps rounds after a warm-up round. The ratio is the faster
            peer's time over ours.
  pagerank  libcsr.pagerank against networkx.pagerank (its scipy implementation) and igraph's
            Graph.pagerank (PRPACK) on cnr-2000 and web-NotreDame, to the same L1 tolerance
            (networkx's own test is on the L1 change over n: tol/n given); graph building is
            not timed.
  spmv      (--gpu, needs CuPy and a CUDA build) libcsr.spmv on cupyx csr_matrix operands
            against cupyx's A @ x (cuSPARSE), both allocating y, per call (the device
            synchronised after --reps calls), on the read cases and on 1138_bus (the binding's
            per-call overhead: there the work is nothing).

    python3 bench/python_bench.py --shared ../shared --data /tmp/libcsr-pybench \\
        --csv bench/results/python.csv [--only read,pagerank] [--gpu]

Rows go to --csv in bench/plot_results.py's format (benchmarks python_read, python_pagerank,
python_spmv_gpu). Needs the libcsr package installed (pip install ./python).
"""
import argparse
import gzip
import os
import shutil
import statistics
import sys
import time

import numpy as np
import scipy
import scipy.io
import scipy.sparse as sp

import libcsr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_results import append_rows, command_line, machine_description, now_utc  # noqa: E402


def median_seconds(f, reps):
    f()  # warm-up
    times = []
    for _ in range(reps):
        began = time.perf_counter()
        f()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def alternating_medians(tools, reps):
    """{name: median seconds}: each tool called once a round, --reps rounds after a warm-up
    round, so that a slow spell of the machine falls on every tool alike."""
    times = {name: [] for name in tools}
    for round_ in range(reps + 1):
        for name, f in tools.items():
            began = time.perf_counter()
            f()
            if round_:
                times[name].append(time.perf_counter() - began)
    return {name: statistics.median(t) for name, t in times.items()}


def make_files(data, shared):
    """The read cases as uncompressed Matrix Market text: {name: path}."""
    os.makedirs(data, exist_ok=True)
    files = {}
    cnr = os.path.join(data, "cnr-2000.mtx")
    if not os.path.exists(cnr):
        with gzip.open(os.path.join(shared, "matrices", "cnr-2000.mtx.gz"), "rb") as src:
            with open(cnr, "wb") as dst:
                shutil.copyfileobj(src, dst)
    files["cnr-2000"] = cnr
    nd = os.path.join(data, "web-NotreDame.mtx")
    if not os.path.exists(nd):
        libcsr.write(nd, libcsr.read(os.path.join(shared, "matrices", "web-NotreDame.txt.gz")),
                     pattern=True)
    files["web-NotreDame"] = nd
    gen = os.path.join(data, "generated_12M.mtx")
    if not os.path.exists(gen):
        rng = np.random.default_rng(7)
        n, nnz = 2_000_000, 12_000_000
        r, c = rng.integers(0, n, nnz), rng.integers(0, n, nnz)
        v = rng.standard_normal(nnz)
        v[v == 0] = 0.5  # never zero
        libcsr.write(gen, sp.coo_array((v, (r, c)), shape=(n, n)).tocsr())
    files["generated 12M"] = gen
    return files


def set_peer_threads(threads):
    """The thread count of scipy.io's and fast_matrix_market's parallel parsers."""
    import fast_matrix_market as fmm

    fmm.PARALLELISM = threads
    try:
        import scipy.io._fast_matrix_market as sfmm

        sfmm.PARALLELISM = threads
    except ImportError:
        pass


def bench_read(files, reps, rows, device):
    import fast_matrix_market as fmm

    for name, path in files.items():
        for threads in (1, 2):
            set_peer_threads(threads)
            tools = {
                "ours": lambda: libcsr.read(path, threads=threads),
                "scipy %s io.mmread().tocsr()" % scipy.__version__:
                    lambda: scipy.io.mmread(path).tocsr(),
                "fast_matrix_market %s mmread().tocsr()" % fmm.__version__:
                    lambda: fmm.mmread(path).tocsr(),
            }
            times = alternating_medians(tools, reps)
            ours = times.pop("ours")
            peers = times
            anchor = min(peers, key=peers.get)
            A = libcsr.read(path)
            extra = ";".join("%s=%.4g" % (k.split()[0], v) for k, v in peers.items())
            rows.append(dict(benchmark="python_read", case=name,
                             variant="%d thread%s" % (threads, "s" if threads > 1 else ""),
                             ours_seconds=ours, anchor_name=anchor, anchor_seconds=peers[anchor],
                             target_ratio=1.5, bytes=os.path.getsize(path),
                             extra="nnz=%d;%s;median_of=%d" % (A.nnz, extra, reps),
                             device=device))
            print("read %-15s %d thread(s): libcsr %.3f s, %s; ratio %.2f" % (
                name, threads, ours, ", ".join("%s %.3f s" % (k.split()[0], v) for k, v in peers.items()),
                peers[anchor] / ours), flush=True)


def bench_pagerank(shared, reps, rows, device):
    import igraph
    import networkx as nx

    cases = {"cnr-2000": os.path.join(shared, "matrices", "cnr-2000.mtx.gz"),
             "web-NotreDame": os.path.join(shared, "matrices", "web-NotreDame.txt.gz")}
    tol = 1e-6
    for name, path in cases.items():
        A = libcsr.read(path)
        n = A.shape[0]
        ours_ranks, info = libcsr.pagerank(A, tol=tol, return_info=True)
        C = A.tocoo()
        g = igraph.Graph(n=n, edges=np.column_stack((C.row, C.col)), directed=True)
        G = nx.DiGraph()
        G.add_nodes_from(range(n))
        G.add_edges_from(zip(C.row.tolist(), C.col.tolist()))
        del C
        for threads in (1, 2):
            ours = median_seconds(lambda: libcsr.pagerank(A, tol=tol, threads=threads), reps)
            t_ig = median_seconds(lambda: g.pagerank(damping=0.85), reps)
            t_nx = median_seconds(lambda: nx.pagerank(G, alpha=0.85, tol=tol / n, max_iter=1000),
                                  max(1, reps // 2))
            ig = np.array(g.pagerank(damping=0.85))
            nxr = nx.pagerank(G, alpha=0.85, tol=tol / n, max_iter=1000)
            nxv = np.array([nxr[i] for i in range(n)])
            for anchor, t, ref in (("igraph %s PRPACK" % igraph.__version__, t_ig, ig),
                                   ("networkx %s (scipy)" % nx.__version__, t_nx, nxv)):
                rows.append(dict(benchmark="python_pagerank", case=name,
                                 variant="%d thread%s, against %s" % (
                                     threads, "s" if threads > 1 else "", anchor.split()[0]),
                                 ours_seconds=ours, anchor_name=anchor, anchor_seconds=t,
                                 extra="nodes=%d;links=%d;iterations=%d;l1_to_anchor=%.2g;tol=%g"
                                       % (n, A.nnz, info.iterations,
                                          np.abs(ours_ranks - ref).sum(), tol),
                                 device=device))
            print("pagerank %-14s %d thread(s): libcsr %.3f s, igraph %.3f s, networkx %.3f s" % (
                name, threads, ours, t_ig, t_nx), flush=True)


def bench_spmv_gpu(files, repo, reps, rows):
    import cupy as cp
    import cupyx.scipy.sparse as csp

    device = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    cases = dict(files)
    cases["1138_bus (overhead)"] = os.path.join(repo, "matrices", "1138_bus.mtx")
    for name, path in cases.items():
        H = libcsr.read(path)
        A = csp.csr_matrix(H)
        rng = cp.random.default_rng(1)
        A.data = rng.uniform(0.5, 1.5, A.nnz)  # random, never zero (pattern files read as ones)
        x = rng.uniform(-1, 1, H.shape[1])
        del H
        kernel = libcsr.spmv_choice(A).kernel  # what libcsr.spmv runs, for the record
        calls = max(reps, 20)

        def block(f):  # a round: `calls` launches between synchronisations
            def run():
                cp.cuda.Device().synchronize()
                for _ in range(calls):
                    f()
                cp.cuda.Device().synchronize()
            return run

        times = alternating_medians({"ours": block(lambda: libcsr.spmv(A, x)),
                                     "cupyx": block(lambda: A @ x)}, 5)
        ours, theirs = times["ours"] / calls, times["cupyx"] / calls
        rows.append(dict(benchmark="python_spmv_gpu", case=name, variant="f64, y allocated",
                         ours_seconds=ours, anchor_name="cupyx.scipy.sparse %s A @ x" % cp.__version__,
                         anchor_seconds=theirs, target_ratio=1.0,
                         extra="nnz=%d;calls=%d;kernel=%s" % (A.nnz, calls, kernel),
                         device=device))
        print("spmv %-20s %-9s libcsr %.1f us, cupyx %.1f us, ratio %.2f" % (
            name, kernel, ours * 1e6, theirs * 1e6, theirs / ours), flush=True)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=os.path.join(here, "..", "..", "shared"))
    ap.add_argument("--data", default="/tmp/libcsr-pybench")
    ap.add_argument("--csv")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--only", default="read,pagerank")
    ap.add_argument("--gpu", action="store_true", help="the CuPy SpMV comparison too")
    a = ap.parse_args()
    device = machine_description()
    stamp, command = now_utc(), command_line()
    rows = []
    files = make_files(a.data, a.shared)
    only = set(a.only.split(",")) if a.only else set()
    if "read" in only:
        bench_read(files, a.reps, rows, device)
    if "pagerank" in only:
        bench_pagerank(a.shared, a.reps, rows, device)
    if a.gpu:
        bench_spmv_gpu(files, os.path.join(here, ".."), a.reps, rows)
    for r in rows:
        r["date_utc"], r["command"] = stamp, command
    if a.csv:
        append_rows(a.csv, rows)


if __name__ == "__main__":
    main()
