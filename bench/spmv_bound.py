#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The most that any SpMV reading the matrix once can gain over cuSPARSE on one benchmark run.

From one run of gpu_bench_spmv_cg in bench/results/gpu_spmv_cg.csv (AUTO rows, fp64 and fp32):
  - a matrix whose gathers of x are local is bound by DRAM: at best ours runs at the copy floor,
    so the gain is at most cuSPARSE's time over the floor's time = 1 / (cuSPARSE's fraction of
    the floor);
  - a matrix given with --l2-bound (columns at random; Nsight Compute shows both libraries at the
    L2's throughput with the same sector count) can at best tie: gain 1.
Prints each matrix's bound, the geometric mean of the bounds and the one measured.

    python3 bench/spmv_bound.py [--csv bench/results/gpu_spmv_cg.csv] [--date 2026-11-24T14:56Z]
        [--l2-bound uniform_16_per_row,8_per_row_40_long_rows,...]
"""
import argparse
import csv
import math

L2_BOUND = "uniform_16_per_row,8_per_row_40_long_rows,rmat_22_16,one_row_half_of_nnz,odd_rows_empty"


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--csv", default="bench/results/gpu_spmv_cg.csv")
    ap.add_argument("--date", default=None, help="the run's date_utc (default: the latest)")
    ap.add_argument("--l2-bound", default=L2_BOUND, help="comma-separated case names")
    args = ap.parse_args()
    rows = [r for r in csv.DictReader(open(args.csv))
            if r["benchmark"] == "gpu_spmv" and r["variant"] in ("auto", "auto_f32")]
    date = args.date or max(r["date_utc"] for r in rows)
    rows = [r for r in rows if r["date_utc"] == date]
    l2 = set(args.l2_bound.split(","))
    print(f"run {date}, {rows[0]['device'] if rows else '?'}")
    for variant, label in (("auto", "fp64"), ("auto_f32", "fp32")):
        bounds, measured = [], []
        for r in (r for r in rows if r["variant"] == variant):
            bound = 1.0 if r["case"] in l2 else 1.0 / float(r["anchor_fraction_of_floor"])
            bounds.append(bound)
            measured.append(float(r["ratio"]))
            print(f"  {label} {r['case']:32s} measured {float(r['ratio']):.2f}  bound {bound:.2f}"
                  f"{'  (L2-bound: a tie)' if r['case'] in l2 else ''}")
        if bounds:
            print(f"{label}: geometric mean measured {geomean(measured):.3f}, "
                  f"bound {geomean(bounds):.3f} over {len(bounds)} matrices")


if __name__ == "__main__":
    main()
