#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""apps/pagerank's top 100 against igraph's PRPACK on cnr-2000 and web-NotreDame
(../shared/matrices, the corpus beside the checkout).

    python3 pagerank_igraph.py APPS_DIR SOURCE_DIR [BACKEND]

igraph's top 200 is stored in tests/data/igraph/*.top200 (made by make_top.py there), so the
test needs no igraph. Pages of equal rank may come in either order, so "the same order" means:
our k-th page has, in igraph's ranking, the rank of igraph's k-th page within 1e-11 (and is
among igraph's top 200). Ours runs with --tol 1e-12, on BACKEND (--backend; default the app's
own choice). Exit 0 pass, 1 fail, 77 skipped (../shared absent; BACKEND cuda without a CUDA
build and a device).
"""
import os
import shutil
import subprocess
import sys
import tempfile

APPS, SRC = sys.argv[1:3]
backend = sys.argv[3:4]
shared = os.path.join(SRC, "..", "shared", "matrices")
if not os.path.isdir(shared):
    print("SKIP: ../shared/matrices is absent")
    sys.exit(77)
if backend == ["cuda"]:
    version = subprocess.run([os.path.join(APPS, "pagerank"), "--version"], capture_output=True,
                             text=True).stdout
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0 \
        if shutil.which("nvidia-smi") else False
    if " cuda" not in version or not gpu:
        print("SKIP: no CUDA build or no device")
        sys.exit(77)
failed = False
for graph in ("cnr-2000.mtx.gz", "web-NotreDame.txt.gz"):
    stored = os.path.join(SRC, "tests", "data", "igraph", graph.split(".")[0] + ".top200")
    theirs = [line.split() for line in open(stored) if not line.startswith("#")]
    rank_of = {int(i): float(r) for i, r in theirs}
    with tempfile.NamedTemporaryFile(suffix=".txt") as out:
        subprocess.run([os.path.join(APPS, "pagerank"), os.path.join(shared, graph), "--tol",
                        "1e-12", "--top", "0", "--output", out.name]
                       + (["--backend", backend[0]] if backend else []), check=True,
                       stdout=subprocess.DEVNULL)
        ours = [line.split() for line in open(out.name)]
    ours.sort(key=lambda row: -float(row[1]))
    for k in range(100):
        page = int(ours[k][0])
        want = float(theirs[k][1])
        got = rank_of.get(page)
        if got is None or abs(got - want) > 1e-11 or abs(float(ours[k][1]) - want) > 1e-11:
            print(f"FAIL {graph}: our #{k + 1} is page {page} (ours {ours[k][1]}, igraph "
                  f"{got}), igraph's #{k + 1} has rank {want}")
            failed = True
            break
    else:
        print(f"{graph}: top 100 in igraph's order (ranks within 1e-11)"
              + (f", on {backend[0]}" if backend else ""))
sys.exit(1 if failed else 0)
