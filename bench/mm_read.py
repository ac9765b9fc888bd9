#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Matrix Market read/write: libcsr against fast_matrix_market (PyPI), same files, same run.

Generates the files (a ~11M-entry real general file, the same triples sorted by row then column,
an integer file, cnr-2000 unpacked, and a gzip file), then for 1 and 2 threads times
fast_matrix_market's read_coo / mmwrite and libcsr's csr_read_coo / csr_write_coo_mm
(bench/mm_read.c), interleaved, median of --reps after a warm-up. Then the file to an assembled
CSR: libcsr's csr_read_csr against fast_matrix_market's read_coo followed by scipy's tocsr (duplicates
summed, columns sorted: the same matrix), timed together, in alternating rounds (one call of each
per round, each process warmed up first), median of --reps rounds. Prints markdown tables; with
--csv FILE appends one row per file and thread count for reading (benchmark mm_read), writing
(mm_write) and reading to CSR (mm_read_csr) in the format of bench/plot_results.py
(bench/README.md, "Results").

    python3 bench/mm_read.py --build build --data /tmp/libcsr-mmbench --csv bench/results/mm_read.csv
"""
import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

import fast_matrix_market as fmm
import numpy as np
import scipy
import scipy.sparse as sp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_results import append_rows, command_line, machine_description, now_utc  # noqa: E402


def make_files(data, shared):
    os.makedirs(data, exist_ok=True)
    rng = np.random.default_rng(42)
    files = {}
    n = 3_000_000
    path = os.path.join(data, "real_general.mtx")  # ~11.2M entries, ~400 MB
    if not os.path.exists(path):
        r, c = rng.integers(0, n, 11_200_000), rng.integers(0, n, 11_200_000)
        v = rng.standard_normal(11_200_000)
        v[v == 0] = 0.5  # never zero
        fmm.mmwrite(path, sp.coo_matrix((v, (r, c)), shape=(n, n)), parallelism=2)
    files["real general 11.2M"] = path
    sorted_path = os.path.join(data, "real_general_sorted.mtx")  # the same triples, row-major order
    if not os.path.exists(sorted_path):
        (v, (r, c)), shape = fmm.read_coo(path, parallelism=2)
        order = np.lexsort((c, r))
        fmm.mmwrite(sorted_path, sp.coo_matrix((v[order], (r[order], c[order])), shape=shape), parallelism=2)
    files["real general 11.2M sorted"] = sorted_path
    path = os.path.join(data, "integer_general.mtx")
    if not os.path.exists(path):
        r, c = rng.integers(0, n, 5_000_000), rng.integers(0, n, 5_000_000)
        v = rng.integers(-1_000_000, 1_000_000, 5_000_000)
        v[v == 0] = 7
        fmm.mmwrite(path, sp.coo_matrix((v, (r, c)), shape=(n, n)), parallelism=2)
    files["integer general 5M"] = path
    path = os.path.join(data, "cnr-2000.mtx")
    if not os.path.exists(path):
        with gzip.open(os.path.join(shared, "matrices", "cnr-2000.mtx.gz"), "rb") as src, open(path, "wb") as dst:
            shutil.copyfileobj(src, dst)
    files["cnr-2000 (pattern)"] = path
    path = os.path.join(data, "cnr-2000.mtx.gz")
    if not os.path.exists(path):
        shutil.copy(os.path.join(shared, "matrices", "cnr-2000.mtx.gz"), path)
    files["cnr-2000 gzip"] = path
    return files


def time_fmm_read(path, threads, reps):
    times = []
    for _ in range(reps + 1):
        t0 = time.perf_counter()
        fmm.read_coo(path, parallelism=threads)
        times.append(time.perf_counter() - t0)
    return statistics.median(times[1:])


def time_fmm_write(path, out, threads, reps):
    (data, (i, j)), shape = fmm.read_coo(path, parallelism=threads)
    coo = sp.coo_matrix((data, (i, j)), shape=shape)
    times = []
    for _ in range(reps + 1):
        t0 = time.perf_counter()
        fmm.mmwrite(out, coo, parallelism=threads)
        times.append(time.perf_counter() - t0)
    return statistics.median(times[1:]), os.path.getsize(out)


def run_ours(build, path, threads, reps, write_to, csr=False):
    cmd = [os.path.join(build, "bench", "mm_read"), path, "--threads", str(threads), "--reps", str(reps)]
    if write_to:
        cmd += ["--write", write_to]
    if csr:
        cmd += ["--csr"]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def fmm_csr_once(path, threads):
    """Seconds of fast_matrix_market's read_coo plus scipy's tocsr, and the CSR's nnz."""
    t0 = time.perf_counter()
    (data, (i, j)), shape = fmm.read_coo(path, parallelism=threads)
    A = sp.coo_matrix((data, (i, j)), shape=shape).tocsr()
    return time.perf_counter() - t0, A.nnz


def compare_csr(build, path, threads, rounds):
    """Alternating rounds of csr_read_csr (one timed call after a warm-up in its process) and of
    read_coo + tocsr (after one warm-up call here); the medians, the nnz of both, our peak RSS."""
    fmm_csr_once(path, threads)
    ours, theirs = [], []
    for _ in range(rounds):
        o = run_ours(build, path, threads, 1, None, csr=True)
        t, nnz = fmm_csr_once(path, threads)
        ours.append(o["read_s"])
        theirs.append(t)
    return dict(ours_s=statistics.median(ours), fmm_s=statistics.median(theirs), nnz=o["nnz"],
                fmm_nnz=nnz, mb=o["text_mb"], peak=o["peak_over_coo_plus_file"], peak_mb=o["peak_rss_mb"])


CSR_FILES = ("real general 11.2M sorted", "real general 11.2M", "cnr-2000 (pattern)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--data", default="/tmp/libcsr-mmbench")
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared"),
                    help="directory with matrices/cnr-2000.mtx.gz (default: ../shared beside the "
                    "checkout, docs/testing.md)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--csv", metavar="FILE", help="append the results to this CSV (bench/README.md)")
    ap.add_argument("--no-write", action="store_true", help="time reading only")
    ap.add_argument("--only", choices=("all", "coo", "csr"), default="all",
                    help="coo: reading and writing triples only; csr: reading to CSR only")
    args = ap.parse_args()
    files = make_files(args.data, args.shared)
    started, command = now_utc(), command_line()
    rows, csr_rows = [], []
    if args.only != "csr":
        rows = compare_coo(args, files)
    if args.only != "coo":
        csr_rows = compare_csr_files(args, files)
    if args.csv:
        write_csv(args, rows, csr_rows, started, command)


def compare_csr_files(args, files):
    print(f"\nfile -> CSR: csr_read_csr against fast_matrix_market {fmm.__version__} read_coo + scipy "
          f"{scipy.__version__} tocsr; median of {args.reps} alternating rounds")
    print("| file | MB | threads | fmm + scipy s | ours s | ratio | CSR nnz | our peak RSS MB (/ (COO + file)) |")
    print("|---|---|---|---|---|---|---|---|")
    out = []
    for name in CSR_FILES:
        for threads in (1, 2):
            r = compare_csr(args.build, files[name], threads, args.reps)
            if r["nnz"] != r["fmm_nnz"]:
                sys.exit(f"{name}: our CSR has {r['nnz']} entries, scipy's {r['fmm_nnz']}")
            r.update(file=name, threads=threads, ratio=r["fmm_s"] / r["ours_s"])
            out.append(r)
            print(f"| {name} | {r['mb']:.0f} | {threads} | {r['fmm_s']:.3f} | {r['ours_s']:.3f} | {r['ratio']:.2f}x "
                  f"| {r['nnz']} | {r['peak_mb']:.0f} ({r['peak']:.2f}) |", flush=True)
    return out


def compare_coo(args, files):
    rows = []
    print(f"fast_matrix_market {fmm.__version__}; median of {args.reps} after a warm-up; MB = text bytes")
    print("| file | MB | threads | fmm read s | ours read s | read ratio | fmm write s | ours write s | write ratio | our peak RSS / (COO + file) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, path in files.items():
        for threads in (1, 2):
            writing = not path.endswith(".gz") and not args.no_write
            ours = run_ours(args.build, path, threads, args.reps, os.path.join(args.data, "ours_out.mtx") if writing else None)
            fr = time_fmm_read(path, threads, args.reps)
            fw, _ = time_fmm_write(path, os.path.join(args.data, "fmm_out.mtx"), threads, args.reps) if writing else (None, 0)
            row = dict(file=name, mb=ours["text_mb"], threads=threads, fmm_read_s=fr, ours_read_s=ours["read_s"],
                       read_ratio=fr / ours["read_s"], fmm_write_s=fw, ours_write_s=ours.get("write_s"),
                       write_ratio=(fw / ours["write_s"]) if fw else None, peak=ours["peak_over_coo_plus_file"])
            rows.append(row)
            w = f"{fw:.3f} | {ours['write_s']:.3f} | {fw / ours['write_s']:.2f}x" if fw else "- | - | -"
            print(f"| {name} | {row['mb']:.0f} | {threads} | {fr:.3f} | {ours['read_s']:.3f} | {row['read_ratio']:.2f}x | {w} | {row['peak']:.2f} |", flush=True)
    return rows


def write_csv(args, rows, csr_rows, started, command):
    out = []
    if rows:
        for bench, ours, theirs, ratio, anchor, target in (
                ("mm_read", "ours_read_s", "fmm_read_s", "read_ratio", "read_coo", 1.5),
                ("mm_write", "ours_write_s", "fmm_write_s", "write_ratio", "mmwrite", 1.0)):
            for r in rows:
                if r[ours] is None or r[theirs] is None:
                    continue
                extra = "text_mb=%.1f;median_of=%d" % (r["mb"], args.reps)
                if bench == "mm_read":
                    extra += ";peak_rss_over_coo_plus_file=%.3f" % r["peak"]
                out.append(dict(benchmark=bench, case=r["file"],
                                variant="%d thread%s" % (r["threads"], "s" if r["threads"] > 1 else ""),
                                ours_seconds=r[ours], anchor_name="fast_matrix_market %s %s" % (fmm.__version__, anchor),
                                anchor_seconds=r[theirs], ratio=r[ratio], target_ratio=target, extra=extra,
                                device=machine_description(), date_utc=started, command=command))
    for r in csr_rows:
        out.append(dict(benchmark="mm_read_csr", case=r["file"],
                        variant="%d thread%s" % (r["threads"], "s" if r["threads"] > 1 else ""),
                        ours_seconds=r["ours_s"],
                        anchor_name="fast_matrix_market %s read_coo + scipy %s tocsr" % (fmm.__version__, scipy.__version__),
                        anchor_seconds=r["fmm_s"], ratio=r["ratio"], target_ratio=1.5,
                        extra="text_mb=%.1f;median_of=%d;nnz=%d;peak_rss_mb=%.1f;peak_rss_over_coo_plus_file=%.3f"
                        % (r["mb"], args.reps, r["nnz"], r["peak_mb"], r["peak"]),
                        device=machine_description(), date_utc=started, command=command))
    append_rows(args.csv, out)


if __name__ == "__main__":
    main()
