#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""apps/pagerank against networkx.pagerank and against the model iterated by hand in numpy.

    python3 pagerank_check.py CASE APPS_DIR SOURCE_DIR

CASE: nx_karate, nx_dangling, nx_weighted, nx_personalization, nx_web (the ../shared web graph).
Exit 0 pass, 1 fail, 77 skipped (networkx missing, or ../shared absent for nx_web).

networkx runs with alpha 0.85 and a tolerance per node of 1e-13 / N (its stop rule is
sum |change| < N * tol), ours with --tol 1e-12 on the L1 change: both then sit within ~1e-11 of
the fixed point, so f64 ranks must agree within L1 1e-9; f32 ranks within 1e-5. With uniform
personalization networkx spreads dangling rank uniformly, as ours does; with a personalization
it is told dangling=uniform to match ours.
"""
import atexit
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

try:
    import networkx as nx
    import numpy as np
except ImportError as e:
    print(f"SKIP: {e} (pip install networkx scipy numpy)")
    sys.exit(77)

CASE, APPS, SRC = sys.argv[1:4]
APP = os.path.join(APPS, "pagerank")
TMP = tempfile.mkdtemp(prefix="pagerank_check_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
F64_LIMIT, F32_LIMIT = 1e-9, 1e-5


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def run_app(graph, *args):
    """Runs the app with --json --output; returns (json object, ranks by 0-based row)."""
    out = os.path.join(TMP, "ranks.txt")
    cmd = [APP, graph, "--json", "--output", out, *args]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"exit {p.returncode}: {' '.join(cmd)}\n{p.stdout}{p.stderr}")
    j = json.loads(p.stdout)
    table = np.loadtxt(out, ndmin=2)
    base = 1 if graph.endswith((".mtx", ".mtx.gz")) else 0
    if j["id_base"] != base or table.shape[0] != j["nodes"]:
        fail(f"{graph}: id_base {j['id_base']}, {table.shape[0]} lines for {j['nodes']} nodes")
    if not np.array_equal(table[:, 0], np.arange(base, base + j["nodes"])):
        fail(f"{graph}: --output ids are not {base}..{base + j['nodes'] - 1} in order")
    ranks = table[:, 1]
    check_report(graph, j, ranks, args)
    return j, ranks


def check_report(graph, j, ranks, args):
    """The JSON report against the ranks file and the documented formulas."""
    f32 = "f32" in args
    if abs(ranks.sum() - 1.0) > (1e-5 if f32 else 1e-12):
        fail(f"{graph}: ranks sum to {ranks.sum():.17g}")
    if j["converged"] != (j["l1_change"] < j["tol"]):
        fail(f"{graph}: converged {j['converged']} with l1_change {j['l1_change']}")
    v = 4 if f32 else 8
    a = v if "--weighted" in args else 0
    bytes_ = (4 + a) * j["links"] + 3 * v * j["nodes"]
    if j["bytes_per_iteration"] != bytes_:
        fail(f"{graph}: bytes_per_iteration {j['bytes_per_iteration']}, formula {bytes_}")
    gbs = bytes_ * j["iterations"] / j["seconds"] / 1e9
    spi = j["seconds"] / j["iterations"]
    if abs(j["gbs"] - gbs) > 1e-9 * gbs or abs(j["seconds_per_iteration"] - spi) > 1e-9 * spi:
        fail(f"{graph}: gbs {j['gbs']} / seconds_per_iteration inconsistent with seconds")
    order = sorted(range(len(ranks)), key=lambda i: (-ranks[i], i))[: len(j["top"])]
    want = [{"id": i + j["id_base"], "rank": float(ranks[i])} for i in order]
    got = [{"id": t["id"], "rank": float(np.float64(t["rank"]))} for t in j["top"]]
    if [t["id"] for t in got] != [t["id"] for t in want]:
        fail(f"{graph}: top {got} is not the best of --output: {want}")


def nx_ranks(G, n, **kw):
    pr = nx.pagerank(G, alpha=0.85, tol=1e-13 / n, max_iter=10000, **kw)
    return np.array([pr[i] for i in range(n)])


def compare(what, ours, theirs, limit):
    d = np.abs(ours - theirs).sum()
    print(f"{what}: L1 distance {d:.3g} (limit {limit:g})")
    if not d < limit:
        fail(f"{what}: L1 distance {d:.3g} to networkx, limit {limit:g}")


def against_nx(graph, G, n, app_args=(), backends=("ref", "omp"), **nx_kw):
    theirs = nx_ranks(G, n, **nx_kw)
    label = " ".join(os.path.basename(a) for a in app_args)
    for b in backends:
        j, ours = run_app(graph, "--tol", "1e-12", "--backend", b, *app_args)
        if not j["converged"] or j["backend"] != b:
            fail(f"{graph} {b}: converged {j['converged']}, backend {j['backend']}")
        compare(f"{os.path.basename(graph)} {b} f64 {label}", ours, theirs, F64_LIMIT)
        j, ours = run_app(graph, "--tol", "1e-7", "--backend", b, "--precision", "f32", *app_args)
        what = f"{os.path.basename(graph)} {b} f32 ({j['iterations']} iterations) {label}"
        compare(what, ours, theirs, F32_LIMIT)


def model_iterates(graph, edges, n, weights=None, p=None, iters=3, app_args=()):
    """--max-iter ITERS leaves the ITERS-th iterate of the documented formula: compare with numpy."""
    src = np.array([e[0] for e in edges], dtype=np.int64)
    dst = np.array([e[1] for e in edges], dtype=np.int64)
    a = np.ones(len(edges)) if weights is None else np.array(weights)
    w = np.bincount(src, weights=a, minlength=n)
    tele = np.full(n, 1.0 / n) if p is None else np.array(p) / np.sum(p)
    r = np.full(n, 1.0 / n)
    for _ in range(iters):
        prev = r
        flow = np.bincount(dst, weights=r[src] * a / w[src], minlength=n)
        r = 0.85 * (flow + r[w == 0].sum() / n) + 0.15 * tele
    for b in ("ref", "omp"):
        j, ours = run_app(graph, "--max-iter", str(iters), "--backend", b, *app_args)
        if j["iterations"] != iters or j["converged"]:
            fail(f"{graph}: --max-iter {iters}: {j['iterations']} iterations, converged?")
        if abs(j["l1_change"] - np.abs(r - prev).sum()) > 1e-12:
            fail(f"{graph}: l1_change {j['l1_change']}, model {np.abs(r - prev).sum()}")
        compare(f"{os.path.basename(graph)} {b} {iters} iterations vs model", ours, r, 1e-14)


def random_graph(seed, weighted=False):
    """A directed graph on ids 0..n-1 with ~60% dangling pages, some ids in no edge at all (they
    still count: ours has max id + 1 pages), self-loops, and the largest id only a target."""
    rng = random.Random(seed)
    n = 3000
    edges = set()
    for u in range(n - 1):
        if rng.random() < 0.4 and u % 97 != 0:  # u % 97 == 0: no out-links
            for _ in range(rng.choice((1, 1, 2, 3, 8, 40))):
                v = u if rng.random() < 0.02 else rng.randrange(n - 1)
                if v % 89 != 5:  # v % 89 == 5: no in-links either, for some ids
                    edges.add((u, v))
    edges.add((0, n - 1))
    edges = sorted(edges)
    weights = [rng.choice((0.5, 1.0, 2.0, 3.25, 10.0)) for _ in edges] if weighted else None
    return n, edges, weights


def write_edges(name, edges, weights=None):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write("# generated by tests/apps/pagerank_check.py: from to [weight]\n")
        for k, (u, v) in enumerate(edges):
            f.write(f"{u} {v}\n" if weights is None else f"{u} {v} {weights[k]!r}\n")
    return path


def digraph(n, edges, weights=None):
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    if weights is None:
        G.add_edges_from(edges)
    else:
        G.add_weighted_edges_from((u, v, w) for (u, v), w in zip(edges, weights))
    return G


def case_nx_karate():
    from scipy.io import mmread

    path = os.path.join(SRC, "matrices", "karate.mtx")
    A = mmread(path)  # symmetric: both directions of every link
    G = nx.from_scipy_sparse_array(A, create_using=nx.DiGraph)
    against_nx(path, G, A.shape[0], weight=None)


def case_nx_dangling():
    n, edges, _ = random_graph(1)
    path = write_edges("dangling.el", edges)
    G = digraph(n, edges)
    dangling = sum(1 for u in range(n) if G.out_degree(u) == 0)
    print(f"generated graph: {n} pages, {len(edges)} links, {dangling} dangling")
    against_nx(path, G, n, weight=None)
    model_iterates(path, edges, n)


def case_nx_weighted():
    n, edges, weights = random_graph(2, weighted=True)
    path = write_edges("weighted.el", edges, weights)
    against_nx(path, digraph(n, edges, weights), n, ("--weighted",), weight="weight")
    model_iterates(path, edges, n, weights=weights, app_args=("--weighted",))


def case_nx_personalization():
    n, edges, _ = random_graph(3)
    path = write_edges("pers.el", edges)
    rng = random.Random(4)
    p = [0.0 if rng.random() < 0.5 else rng.choice((1.0, 2.5, 7.0)) for _ in range(n)]
    p_path = os.path.join(TMP, "p.txt")
    with open(p_path, "w") as f:
        f.write("# one value per page, page 0 first\n")
        f.writelines(f"{x!r}\n" for x in p)
    args = ("--personalization", p_path)
    pers = {i: x for i, x in enumerate(p)}
    uniform = {i: 1.0 for i in range(n)}
    against_nx(path, digraph(n, edges), n, args, weight=None, personalization=pers,
               dangling=uniform)
    model_iterates(path, edges, n, p=p, app_args=args)


def case_nx_web():
    path = os.path.join(SRC, "..", "shared", "matrices", "web-NotreDame.txt.gz")
    if not os.path.exists(path):
        print(f"SKIP: {path} absent (the corpus beside the checkout)")
        sys.exit(77)
    with gzip.open(path, "rt") as f:
        e = np.loadtxt(f, dtype=np.int64, comments="#", ndmin=2)
    n = int(e.max()) + 1
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_edges_from(e.tolist())
    # One nx run, ours on both backends in f64 and on omp in f32.
    theirs = nx_ranks(G, n, weight=None)
    for b, prec, tol, limit in (("ref", "f64", "1e-12", F64_LIMIT), ("omp", "f64", "1e-12", F64_LIMIT),
                                ("omp", "f32", "1e-7", F32_LIMIT)):
        j, ours = run_app(path, "--tol", tol, "--backend", b, "--precision", prec)
        if prec == "f64" and not j["converged"]:
            fail(f"{path} {b}: did not converge")
        compare(f"web-NotreDame {b} {prec} ({j['iterations']} iterations)", ours, theirs, limit)


if __name__ == "__main__":
    cases = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}
    if CASE not in cases:
        fail(f"unknown case {CASE}; known: {', '.join(cases)}")
    cases[CASE]()
    print(f"{CASE}: ok")
