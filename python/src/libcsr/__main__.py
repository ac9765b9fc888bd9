# SPDX-License-Identifier: BSD-3-Clause
"""python -m libcsr FILE [--json]: what a Matrix Market file or an edge list holds, as the mminfo
app prints it -- banner, size, entries as stored and after symmetric expansion, the assembled CSR
(duplicates summed), row-length statistics with a log2 histogram, the CSR memory footprint and
the SpMV kernel libcsr's GPU backend would run for it."""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

import libcsr


def bin_range(b: int) -> str:
    if b == 0:
        return "0"
    lo, hi = 1 << (b - 1), (1 << b) - 1
    return str(lo) if lo == hi else f"{lo}-{hi}"


def describe(path: str, threads: int | None) -> dict:
    began = time.perf_counter()
    A, info = libcsr.read(path, return_info=True, threads=threads)
    seconds = time.perf_counter() - began
    stats = libcsr.row_stats(A)
    choice = libcsr.spmv_choice(A)
    zeros = int(np.count_nonzero(A.data == 0))
    value_bytes = 0 if info["field"] == "pattern" else 8
    return {
        "file": path,
        "format": info["format"],
        "layout": info["layout"],
        "field": info["field"],
        "symmetry": info["symmetry"],
        "gzip": info["gzip"],
        "rows": A.shape[0],
        "cols": A.shape[1],
        "stored_entries": info["stored_entries"],
        "entries": info["entries"],
        "nnz": A.nnz,
        "explicit_zeros": zeros,
        "max_row": stats.longest,
        "mean_row": stats.mean,
        "variance_row": stats.variance,
        "empty_rows": stats.empty_rows,
        "csr_bytes": 8 * (A.shape[0] + 1) + (4 + value_bytes) * A.nnz,
        "histogram": stats.histogram,
        "gpu_kernel": choice.kernel,
        "gpu_kernel_reason": choice.reason,
        "text_bytes": info["text_bytes"],
        "read_seconds": seconds,
    }


def print_text(d: dict) -> None:
    print(f"file            {d['file']}")
    print(f"format          {d['format']}, {d['layout']}, {d['field']}, {d['symmetry']}"
          + (", gzip" if d["gzip"] else ""))
    print(f"size            {d['rows']} x {d['cols']}")
    print(f"entries         {d['stored_entries']} stored, {d['entries']} after expansion")
    print(f"nnz             {d['nnz']} (duplicates summed, {d['explicit_zeros']} explicit zeros)")
    print(f"rows            longest {d['max_row']}, mean {d['mean_row']:.3f}, "
          f"variance {d['variance_row']:.3f}, {d['empty_rows']} empty")
    print(f"memory          {d['csr_bytes']} bytes as CSR")
    print(f"gpu spmv        {d['gpu_kernel']}: {d['gpu_kernel_reason']}")
    print(f"read            {d['text_bytes']} bytes of text in {d['read_seconds']:.3f} s")
    print("row lengths")
    widest = max(d["histogram"]) if d["histogram"] else 0
    for b, count in enumerate(d["histogram"]):
        bar = "#" * (round(40 * count / widest) if widest else 0)
        print(f"  {bin_range(b):>13} {count:>12} {bar}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m libcsr",
        description="Reads FILE (Matrix Market or an edge list, gzip or not) and prints what it holds.",
    )
    parser.add_argument("file", help='the file ("-" is standard input)')
    parser.add_argument("--json", action="store_true", help="one JSON object instead of text")
    parser.add_argument("--threads", type=int, default=None, help="reader threads (OpenMP)")
    parser.add_argument("--version", action="version",
                        version=f"libcsr {libcsr.__version__} ({', '.join(libcsr.build_info()['backends'])})")
    args = parser.parse_args(argv)
    try:
        d = describe(args.file, args.threads)
    except libcsr.Error as e:
        print(f"python -m libcsr: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(d, indent=2))
    else:
        print_text(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
