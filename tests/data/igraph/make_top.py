#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes igraph's PRPACK PageRank top 200 of cnr-2000 and web-NotreDame (../shared/matrices) as
`id rank` lines (ids as the files number them: 1-based for Matrix Market, 0-based for edge
lists), for tests/apps/pagerank_igraph.py, which then needs no igraph.

    pip install igraph && python3 tests/data/igraph/make_top.py ../shared/matrices

Graphs are read as apps/pagerank reads them (bench/pagerank_cpu.py's read_edges: repeated links
merged, self-loops kept, an edge list has max id + 1 nodes); damping 0.85, dangling rank spread
uniformly (igraph's default)."""
import importlib.util
import os
import sys

import igraph
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "bench", os.path.join(here, "..", "..", "..", "bench", "pagerank_cpu.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

for name, base in (("cnr-2000.mtx.gz", 1), ("web-NotreDame.txt.gz", 0)):
    n, edges = bench.read_edges(os.path.join(sys.argv[1], name))
    g = igraph.Graph(n=n, edges=edges.tolist(), directed=True)
    ranks = np.array(g.pagerank(damping=0.85, directed=True, implementation="prpack"))
    top = np.argsort(-ranks, kind="stable")[:200]
    with open(os.path.join(here, name.split(".")[0] + ".top200"), "w") as f:
        f.write(f"# igraph {igraph.__version__} PRPACK, damping 0.85: id rank (top 200 of {n})\n")
        for i in top:
            f.write(f"{i + base} {ranks[i]:.17g}\n")
