#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plots the benchmark results in bench/results/*.csv into docs/img/ (PNG, matplotlib, headless).

For every benchmark (the CSV's `benchmark` column):
  docs/img/bench_<benchmark>_ratio.png   ours against the anchor per case: bars of
                                         anchor time / our time (> 1: we are faster), a line at
                                         1.0, libcsr's goal marked where the row names one;
  docs/img/bench_<benchmark>_floor.png   where the rows give one (GPU, CPU SpMV): the fraction
                                         of the bandwidth floor (our GB/s over the copy bandwidth
                                         measured in the same run), ours and the anchor's.
When a (benchmark, case, variant) appears in several rows, the latest date wins. The subtitle
names the machine from the rows' `device` column and the date.

The CSV format (bench/README.md, "Results"): one row per measurement, the columns of COLUMNS
below. The CPU drivers (mm_read.py, pagerank_cpu.py, cg_cpu.py) append rows with --csv FILE
through append_rows(); other programs may write the same columns themselves.

    python3 bench/plot_results.py [--results bench/results] [--out docs/img]
"""
import argparse
import csv
import datetime
import glob
import os
import platform
import shlex
import sys

COLUMNS = [
    "benchmark",         # what was measured: mm_read, mm_write, pagerank_cpu, cg_cpu, gpu_primitives
    "case",              # the matrix, file or primitive
    "variant",           # threads, precision, kernel: what distinguishes rows of one case
    "ours_seconds",      # our time (median)
    "anchor_name",       # what we are compared with (fast_matrix_market 1.7.6, igraph, CUB, ...)
    "anchor_seconds",    # its time, same run
    "ratio",             # anchor_seconds / ours_seconds: > 1 means we are faster
    "target_ratio",      # libcsr's goal for ratio (1.5: at least 1.5x the anchor), empty when none
    "bytes",             # bytes the operation must move at least (for GB/s), empty when not stated
    "ours_gbs",          # bytes / ours_seconds / 1e9
    "floor_gbs",         # the bandwidth floor: copy bandwidth measured in the same run
    "fraction_of_floor",  # ours_gbs / floor_gbs
    "anchor_fraction_of_floor",  # bytes / anchor_seconds / 1e9 / floor_gbs
    "extra",             # key=value pairs separated by ';' (iterations, peak memory, ...)
    "device",            # the machine: CPU model and cores, or GPU name
    "date_utc",          # when, ISO 8601 UTC (2026-11-22T04:52Z)
    "command",           # the command that produced the row
]


# --- writing rows (used by the drivers) ------------------------------------------------------

def machine_description():
    """'x86_64, <CPU model>, <n> CPUs, <m> GiB' from /proc (Linux), else platform's words."""
    model, mem = platform.processor() or platform.machine(), None
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) / 2 ** 20
                break
    except OSError:
        pass
    words = [platform.machine(), model, "%d CPUs" % os.cpu_count()]
    if mem:
        words.append("%.0f GiB" % mem)
    return ", ".join(words)


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ")


def command_line():
    return " ".join(shlex.quote(a) for a in ["python3"] + sys.argv)


def append_rows(path, rows):
    """Appends rows (dicts with keys of COLUMNS; missing ones empty, ratio and fractions computed
    when their inputs are there) to the CSV at path, writing the header if the file is new."""
    new = not os.path.exists(path) or os.path.getsize(path) == 0
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        if new:
            w.writeheader()
        for r in rows:
            r = dict(r)
            if r.get("ratio") in (None, "") and r.get("ours_seconds") and r.get("anchor_seconds"):
                r["ratio"] = float(r["anchor_seconds"]) / float(r["ours_seconds"])
            if r.get("bytes") and r.get("ours_seconds") and not r.get("ours_gbs"):
                r["ours_gbs"] = float(r["bytes"]) / float(r["ours_seconds"]) / 1e9
            if r.get("ours_gbs") and r.get("floor_gbs") and not r.get("fraction_of_floor"):
                r["fraction_of_floor"] = float(r["ours_gbs"]) / float(r["floor_gbs"])
            if (r.get("bytes") and r.get("anchor_seconds") and r.get("floor_gbs")
                    and not r.get("anchor_fraction_of_floor")):
                r["anchor_fraction_of_floor"] = (float(r["bytes"]) / float(r["anchor_seconds"])
                                                 / 1e9 / float(r["floor_gbs"]))
            unknown = set(r) - set(COLUMNS)
            if unknown:
                raise ValueError("unknown columns: %s" % ", ".join(sorted(unknown)))
            w.writerow({k: fmt(r.get(k)) for k in COLUMNS})


def fmt(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return "%.6g" % v
    return str(v)


# --- reading and plotting --------------------------------------------------------------------

def read_results(directory):
    rows = []
    for path in sorted(glob.glob(os.path.join(directory, "*.csv"))):
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            for r in reader:
                missing = [c for c in ("benchmark", "case", "variant", "date_utc") if c not in r]
                if missing:
                    raise SystemExit("%s: column(s) %s missing" % (path, ", ".join(missing)))
                # A comma left unquoted in a field shifts the columns after it (the date would
                # then be read from another column and decide which run is the latest).
                if None in r or None in r.values():
                    raise SystemExit("%s:%d: %s fields than the header's %d (a comma to quote?)"
                                     % (path, reader.line_num, "more" if None in r else "fewer",
                                        len(reader.fieldnames)))
                rows.append(r)
    latest = {}
    for r in rows:  # the latest row of each (benchmark, case, variant)
        key = (r["benchmark"], r["case"], r["variant"])
        if key not in latest or r["date_utc"] >= latest[key]["date_utc"]:
            latest[key] = r
    order = {}
    for r in rows:  # keep the files' order of first appearance
        order.setdefault((r["benchmark"], r["case"], r["variant"]), len(order))
    return sorted(latest.values(), key=lambda r: order[(r["benchmark"], r["case"], r["variant"])])


def extras(r):
    """The row's extra column as a dict (key=value pairs separated by ';')."""
    out = {}
    for part in (r.get("extra") or "").split(";"):
        if "=" in part:
            k, v = part.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def number(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def label(r):
    return r["case"] if not r["variant"] else "%s\n%s" % (r["case"], r["variant"])


def subtitle(rows):
    devices = sorted({r["device"] for r in rows if r.get("device")})
    dates = sorted({r["date_utc"][:10] for r in rows if r.get("date_utc")})
    return "%s; %s" % (" / ".join(devices), ", ".join(dates))


def wrap(text, width=110):
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


def plot_ratio(plt, benchmark, rows, out):
    rows = [r for r in rows if number(r.get("ratio")) is not None]
    if not rows:
        return None
    ratios = [number(r["ratio"]) for r in rows]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(rows) + 2.5), 4.8))
    colors = ["#2ca02c" if t is None or q >= t else "#d62728"
              for q, t in zip(ratios, (number(r.get("target_ratio")) for r in rows))]
    xs = range(len(rows))
    ax.bar(xs, ratios, color=colors, width=0.65)
    for x, q in zip(xs, ratios):
        ax.text(x, q, "%.2f" % q, ha="center", va="bottom", fontsize=8)
    ax.axhline(1.0, color="black", lw=1)
    targets = [(x, number(r.get("target_ratio"))) for x, r in zip(xs, rows)]
    marked = False
    for x, t in targets:
        if t is not None:
            ax.plot([x - 0.4, x + 0.4], [t, t], color="#ff7f0e", lw=2.2, ls="--",
                    label=None if marked else "goal")
            marked = True
    ax.set_xticks(list(xs))
    ax.set_xticklabels([label(r) for r in rows], fontsize=7, rotation=30, ha="right")
    anchors = sorted({r["anchor_name"] for r in rows if r.get("anchor_name")})
    ax.set_ylabel("anchor time / our time (> 1: ours faster)")
    width = int(fig.get_figwidth() * 12)
    ax.set_title(wrap("%s: ours against %s" % (benchmark, ", ".join(anchors)), width) + "\n"
                 + wrap(subtitle(rows), width), fontsize=9)
    from matplotlib.patches import Patch

    handles = [Patch(color="#2ca02c", label="goal met (or none)"),
               Patch(color="#d62728", label="goal missed")]
    if marked:
        handles += ax.get_legend_handles_labels()[0]
    ax.legend(handles=handles, fontsize=8, loc="upper right")
    ax.set_ylim(0, max(ratios + [t for _, t in targets if t is not None] + [1.0]) * 1.18)
    fig.tight_layout()
    path = os.path.join(out, "bench_%s_ratio.png" % benchmark)
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return path


def plot_floor(plt, benchmark, rows, out):
    rows = [r for r in rows if number(r.get("fraction_of_floor")) is not None]
    if not rows:
        return None
    ours = [100 * number(r["fraction_of_floor"]) for r in rows]
    theirs = [100 * (number(r.get("anchor_fraction_of_floor")) or 0.0) for r in rows]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.0 * len(rows) + 2.5), 4.8))
    xs = list(range(len(rows)))
    ax.bar([x - 0.2 for x in xs], ours, width=0.4, label="ours", color="#1f77b4")
    ax.bar([x + 0.2 for x in xs], theirs, width=0.4,
           label=", ".join(sorted({r["anchor_name"] for r in rows})), color="#bbbbbb")
    for x, v in zip(xs, ours):
        ax.text(x - 0.2, v, "%.0f" % v, ha="center", va="bottom", fontsize=8)
    for x, v in zip(xs, theirs):
        if v:
            ax.text(x + 0.2, v, "%.0f" % v, ha="center", va="bottom", fontsize=8)
    ax.axhline(100, color="black", lw=1)
    marked = False
    for x, r in zip(xs, rows):  # a goal given in extra as target_fraction_of_floor=0.70
        t = number(extras(r).get("target_fraction_of_floor"))
        if t is not None:
            ax.plot([x - 0.45, x + 0.45], [100 * t] * 2, color="#ff7f0e", lw=2.2, ls="--",
                    label=None if marked else "goal")
            marked = True
    floors = sorted({number(r["floor_gbs"]) for r in rows if number(r.get("floor_gbs"))})
    ax.set_ylabel("% of the bandwidth floor" + (" (copy: %.0f GB/s)" % floors[0]
                                                  if len(floors) == 1 else ""))
    ax.set_xticks(xs)
    ax.set_xticklabels([label(r) + ("\nfloor %.0f GB/s" % number(r["floor_gbs"])
                                     if len(floors) > 1 else "") for r in rows],
                       fontsize=7, rotation=30, ha="right")
    ax.set_ylim(0, max(ours + theirs + [100]) * 1.15)
    ax.legend(fontsize=8, loc="upper left")
    width = int(fig.get_figwidth() * 12)
    ax.set_title(wrap("%s: fraction of the bandwidth floor (bytes moved / time / copy bandwidth)"
                      % benchmark, width) + "\n" + wrap(subtitle(rows), width), fontsize=9)
    fig.tight_layout()
    path = os.path.join(out, "bench_%s_floor.png" % benchmark)
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return path


# Benchmarks whose plot shows only these variants of its latest run (one bar per case and
# precision; every forced kernel stays in the CSV).
PLOTTED_VARIANTS = {"gpu_spmv": ("auto", "auto_f32")}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", default=os.path.join(here, "results"))
    ap.add_argument("--out", default=os.path.join(here, "..", "docs", "img"))
    ap.add_argument("--check", action="store_true",
                    help="only read the results (every row well-formed), plot nothing")
    a = ap.parse_args()
    if a.check:
        rows = read_results(a.results)
        print("%d latest rows, every CSV well-formed" % len(rows))
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_results(a.results)
    if not rows:
        raise SystemExit("no rows in %s/*.csv" % a.results)
    os.makedirs(a.out, exist_ok=True)
    for benchmark in dict.fromkeys(r["benchmark"] for r in rows):
        mine = [r for r in rows if r["benchmark"] == benchmark]
        if benchmark in PLOTTED_VARIANTS:  # the latest run's chosen kernels; the CSV has the rest
            last = max(r["date_utc"] for r in mine)
            mine = [r for r in mine
                    if r["date_utc"] == last and r["variant"] in PLOTTED_VARIANTS[benchmark]]
        for path in (plot_ratio(plt, benchmark, mine, a.out), plot_floor(plt, benchmark, mine, a.out)):
            if path:
                print("wrote", os.path.relpath(path))


if __name__ == "__main__":
    main()
