#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Draws the figures of docs/algorithms.md into docs/img/ (matplotlib, headless):

  scan_networks.png   Hillis-Steele and Blelloch on the 8-element example, step by step
  lookback.png        the decoupled look-back of tile 3 over tiles of 4 items
  pagerank_graph.png  the 4-page graph and its ranks
  cg_2x2.png          CG's two steps on the 2 x 2 system, over the contours of f

The numbers drawn are computed here from the examples' inputs (the same as the document's
blocks, which tests/algorithms/check_examples.py checks). Output is deterministic (no timestamps
in the files).

    python3 docs/img/make_figures.py [--out docs/img]
"""
import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyArrowPatch, Rectangle  # noqa: E402

SCAN_INPUT = [3, 1, 7, 0, 4, 1, 6, 3]
BLUE, ORANGE, GREY, GREEN = "#1f77b4", "#ff7f0e", "#7f7f7f", "#2ca02c"


def save(fig, out, name):
    path = os.path.join(out, name)
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    print("wrote", path)


def boxes(ax, row, values, y, highlight=()):
    for i, v in enumerate(values):
        face = "#fde9c9" if i in highlight else "white"
        ax.add_patch(Rectangle((i - 0.4, y - 0.3), 0.8, 0.6, facecolor=face, edgecolor="black"))
        ax.text(i, y, str(v), ha="center", va="center", fontsize=10)
    ax.text(-0.7, y, row, ha="right", va="center", fontsize=9)


def arrow(ax, x0, y0, x1, y1, color):
    ax.add_patch(FancyArrowPatch((x0, y0), (x1, y1), arrowstyle="-|>", mutation_scale=8,
                                 color=color, lw=0.9, shrinkA=0, shrinkB=0))


def scan_networks(out):
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 6.2),
                                      gridspec_kw={"width_ratios": [1, 1.05]})
    # Hillis-Steele: every element adds the one d to its left, all at once.
    x, y, d = list(SCAN_INPUT), 0, 1
    boxes(left, "input", x, y)
    while d < len(x):
        nxt = [x[i] + (x[i - d] if i >= d else 0) for i in range(len(x))]
        for i in range(len(x)):
            arrow(left, i, y - 0.3, i, y - 1.2, GREY)
            if i >= d:
                arrow(left, i - d, y - 0.3, i, y - 1.2, BLUE)
        y -= 1.5
        boxes(left, "d=%d" % d, nxt, y, highlight=range(d, len(x)))
        x, d = nxt, d * 2
    left.set_title("Hillis-Steele: inclusive scan, %d steps, %d additions" % (3, 7 + 6 + 4),
                   fontsize=11)
    # Blelloch: up-sweep, clear the root, down-sweep.
    x, y, d, n = list(SCAN_INPUT), 0, 1, len(SCAN_INPUT)
    boxes(right, "input", x, y)
    while d < n:
        nxt = list(x)
        touched = list(range(2 * d - 1, n, 2 * d))
        for i in touched:
            nxt[i] += x[i - d]
            arrow(right, i - d, y - 0.3, i, y - 0.95, BLUE)
        y -= 1.25
        boxes(right, "up d=%d" % d, nxt, y, highlight=touched)
        x, d = nxt, d * 2
    x = list(x)
    x[n - 1] = 0
    y -= 1.25
    boxes(right, "clear last", x, y, highlight=[n - 1])
    d = n // 2
    while d >= 1:
        nxt = list(x)
        touched = []
        for i in range(2 * d - 1, n, 2 * d):
            nxt[i - d], nxt[i] = x[i], x[i] + x[i - d]
            arrow(right, i, y - 0.3, i - d, y - 0.95, ORANGE)
            arrow(right, i - d, y - 0.3, i, y - 0.95, BLUE)
            touched += [i - d, i]
        y -= 1.25
        boxes(right, "down d=%d" % d, nxt, y, highlight=touched)
        x, d = nxt, d // 2
    right.set_title("Blelloch: exclusive scan, up-sweep then down-sweep, 2n work", fontsize=11)
    for ax in (left, right):
        ax.set_xlim(-2.2, 7.6)
        ax.set_aspect("equal")
        ax.axis("off")
    left.set_ylim(-5.0, 0.6)
    right.set_ylim(-9.4, 1.2)
    fig.text(0.5, 0.02, "blue: add the value the arrow comes from; orange: copy (the left child "
             "takes its parent's value); shaded: changed in this step", ha="center", fontsize=9)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    save(fig, out, "scan_networks.png")


def lookback(out):
    items = [3, 1, 7, 0, 4, 1, 6, 3, 2, 2, 5, 1, 0, 8, 1, 1]
    tiles = [items[i:i + 4] for i in range(0, 16, 4)]
    agg = [sum(t) for t in tiles]
    incl = [sum(agg[:t + 1]) for t in range(4)]
    status = ["P %d" % incl[0], "A %d" % agg[1], "A %d" % agg[2], "looking back"]
    fig, ax = plt.subplots(figsize=(10, 3.6))
    for t in range(4):
        x0 = t * 5
        ax.add_patch(Rectangle((x0, 0), 4.4, 1.0, facecolor="#eef3fa", edgecolor="black"))
        ax.text(x0 + 2.2, 0.5, " ".join(map(str, tiles[t])), ha="center", va="center", fontsize=11)
        ax.text(x0 + 2.2, 1.25, "tile %d: sum %d" % (t, agg[t]), ha="center", fontsize=10)
        color = GREEN if status[t].startswith("P") else ORANGE if status[t].startswith("A") \
            else BLUE
        ax.add_patch(Rectangle((x0 + 0.7, -1.3), 3.0, 0.8, facecolor="white", edgecolor=color,
                               lw=2))
        ax.text(x0 + 2.2, -0.9, status[t], ha="center", va="center", fontsize=10, color=color)
    for t, label in ((2, "+10"), (1, "+14"), (0, "+11, PREFIX: stop")):
        ax.add_patch(FancyArrowPatch((15 + 2.2, -1.35), (t * 5 + 2.2, -1.35),
                                     connectionstyle="arc3,rad=%.2f" % -(0.25 + 0.08 * (2 - t)),
                                     arrowstyle="-|>", mutation_scale=10, color=BLUE, lw=1))
        ax.text(t * 5 + 1.9, -1.55, label, ha="right", va="top", fontsize=9, color=BLUE)
    ax.text(9.5, -4.9, "prefix of tile 3 = 10 + 14 + 11 = %d; tile 3 publishes PREFIX %d"
            % (incl[2], incl[3]), ha="center", fontsize=10)
    ax.text(-0.3, -0.9, "status", ha="right", va="center", fontsize=9)
    ax.set_xlim(-1.5, 20)
    ax.set_ylim(-5.3, 1.7)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("Decoupled look-back: A = aggregate (the tile alone), P = inclusive prefix "
                 "(the tile and all before it)", fontsize=10)
    fig.tight_layout()
    save(fig, out, "lookback.png")


def pagerank_ranks(n, links, d=0.85, tol=1e-6):
    out = [0] * n
    for i, _ in links:
        out[i] += 1
    r = [1.0 / n] * n
    while True:
        dangling = sum(r[j] for j in range(n) if out[j] == 0)
        y = [0.0] * n
        for i, j in links:
            y[j] += r[i] / out[i]
        nxt = [d * (y[i] + dangling / n) + (1 - d) / n for i in range(n)]
        change = sum(abs(a - b) for a, b in zip(nxt, r))
        r = nxt
        if change < tol:
            return r


def pagerank_graph(out):
    links = [(0, 1), (0, 2), (1, 2), (2, 0), (2, 3)]
    r = pagerank_ranks(4, links)
    pos = {0: (0, 1), 1: (2, 1), 2: (2, -1), 3: (0, -1)}
    fig, ax = plt.subplots(figsize=(5.2, 4.4))
    radius = [0.25 + 0.9 * ri for ri in r]
    for i, j in links:  # from circle edge to circle edge
        (x0, y0), (x1, y1) = pos[i], pos[j]
        dx, dy = x1 - x0, y1 - y0
        length = (dx * dx + dy * dy) ** 0.5
        ux, uy = dx / length, dy / length
        rad = 0.2 if (j, i) in links else 0.0
        ax.add_patch(FancyArrowPatch((x0 + ux * radius[i], y0 + uy * radius[i]),
                                     (x1 - ux * radius[j], y1 - uy * radius[j]),
                                     connectionstyle="arc3,rad=%.1f" % rad, arrowstyle="-|>",
                                     mutation_scale=16, color=GREY, lw=1.5, shrinkA=0,
                                     shrinkB=0))
    for i, (x, y) in pos.items():
        radius = 0.25 + 0.9 * r[i]
        ax.add_patch(plt.Circle((x, y), radius, facecolor="#cfe0f3" if i != 3 else "#fde9c9",
                                edgecolor="black"))
        ax.text(x, y + 0.07, "page %d" % i, ha="center", va="center", fontsize=10)
        ax.text(x, y - 0.17, "%.4f" % r[i], ha="center", va="center", fontsize=9)
    ax.text(0, -1.75, "dangling: its rank is spread over all pages", ha="center", fontsize=8)
    ax.set_xlim(-0.9, 2.9)
    ax.set_ylim(-2.0, 1.7)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("PageRank, d = 0.85 (circle size grows with the rank)", fontsize=10)
    fig.tight_layout()
    save(fig, out, "pagerank_graph.png")


def cg_2x2(out):
    import numpy as np

    A, b = np.array([[4.0, 1.0], [1.0, 3.0]]), np.array([1.0, 2.0])
    x = np.zeros(2)
    r = b - A @ x
    p = r.copy()
    points = [x.copy()]
    for _ in range(2):
        q = A @ p
        alpha = r @ r / (p @ q)
        x = x + alpha * p
        rn = r - alpha * q
        p = rn + (rn @ rn) / (r @ r) * p
        r = rn
        points.append(x.copy())
    g = np.linspace(-0.45, 0.75, 241)
    X, Y = np.meshgrid(g, np.linspace(-0.1, 1.0, 221))
    F = 0.5 * (A[0, 0] * X * X + 2 * A[0, 1] * X * Y + A[1, 1] * Y * Y) - b[0] * X - b[1] * Y
    fig, ax = plt.subplots(figsize=(5.6, 5.0))
    ax.contour(X, Y, F, levels=np.linspace(F.min(), F.min() + 1.2, 13), colors=GREY,
               linewidths=0.7, linestyles="solid")
    names = ["x0", "x1", "x2 = solution"]
    for k in range(2):
        ax.annotate("", xy=points[k + 1], xytext=points[k],
                    arrowprops=dict(arrowstyle="-|>", color=BLUE if k == 0 else ORANGE, lw=1.8))
    for k, pt in enumerate(points):
        ax.plot(*pt, "o", color="black", ms=4)
        ax.text(pt[0] + (0.03 if k < 2 else -0.03), pt[1] + (-0.05 if k < 2 else 0.03),
                "%s (%.4f, %.4f)" % (names[k], pt[0], pt[1]), fontsize=9,
                ha="left" if k < 2 else "right")
    ax.set_xlabel("x[0]")
    ax.set_ylabel("x[1]")
    ax.set_aspect("equal")
    ax.set_title("CG on A = [4 1; 1 3], b = (1, 2): two steps\ncontours of f(x) = x'Ax/2 - b'x",
                 fontsize=10)
    fig.tight_layout()
    save(fig, out, "cg_2x2.png")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    scan_networks(a.out)
    lookback(a.out)
    pagerank_graph(a.out)
    cg_2x2(a.out)


if __name__ == "__main__":
    main()
