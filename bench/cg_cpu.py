#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""apps/cg (csr_solve CG) against scipy.sparse.linalg.cg on a 3D Poisson matrix (7-point
Laplacian on an m^3 grid, written as .mtx to a temporary directory), b = A * ones, x0 = 0, the
same stopping rule ||r||_2 <= rtol * ||b||_2 (scipy's rtol=, atol=0). Solve time only: scipy's cg
call; ours the time apps/cg --json reports for the csr_solve call. Median of --reps runs (3).
Prints a markdown table; with --csv FILE also appends one row per thread count (ours against
scipy) in the format of bench/plot_results.py (bench/README.md, "Results").

  python3 bench/cg_cpu.py [--app build/apps/cg] [--m 60] [--rtol 1e-8] [--reps 3] [--csv FILE]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

import numpy as np
import scipy.io
import scipy.sparse as sp
import scipy.sparse.linalg as sla

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_results import append_rows, command_line, machine_description, now_utc  # noqa: E402


def poisson3d(m):
    one = sp.identity(m, format="csr")
    t = sp.diags([-np.ones(m - 1), 2 * np.ones(m), -np.ones(m - 1)], [-1, 0, 1], format="csr")
    return (sp.kron(sp.kron(t, one), one) + sp.kron(sp.kron(one, t), one)
            + sp.kron(sp.kron(one, one), t)).tocsr()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--app", default=os.path.join(here, "..", "build", "apps", "cg"))
    p.add_argument("--m", type=int, default=60)
    p.add_argument("--rtol", type=float, default=1e-8)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--csv", metavar="FILE", help="append the results to this CSV (bench/README.md)")
    a = p.parse_args()
    started, command = now_utc(), command_line()
    A = poisson3d(a.m)
    n = A.shape[0]
    b = A @ np.ones(n)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "poisson3d_%d.mtx" % a.m)
        scipy.io.mmwrite(path, A, symmetry="symmetric")
        for threads in (1, 2):
            times, its, rel = [], None, None
            for _ in range(a.reps):
                out = subprocess.run([a.app, path, "--method", "cg", "--tol", repr(a.rtol),
                                      "--threads", str(threads), "--backend", "omp", "--json"],
                                     check=True, capture_output=True, text=True).stdout
                j = json.loads(out)
                if not j["converged"]:
                    sys.exit("apps/cg did not converge: %s" % out)
                times.append(j["seconds"])
                its, rel = j["iterations"], j["relative_residual"]
            rows.append(("libcsr apps/cg (omp, %d thread%s)" % (threads, "s" * (threads > 1)),
                         statistics.median(times), its, rel))
        times = []
        for _ in range(a.reps):
            count = [0]

            def callback(_x):
                count[0] += 1

            t0 = time.perf_counter()
            x, info = sla.cg(A, b, rtol=a.rtol, atol=0.0, maxiter=10 * n, callback=callback)
            times.append(time.perf_counter() - t0)
            if info != 0:
                sys.exit("scipy cg did not converge (info %d)" % info)
        rel = np.linalg.norm(b - A @ x) / np.linalg.norm(b)
        rows.append(("scipy.sparse.linalg.cg %s (numpy threads as set)" % scipy.__version__,
                     statistics.median(times), count[0], rel))
    base = rows[-1][1]
    print("3D Poisson %d^3: n = %d, nnz = %d, rtol %g, b = A*ones, x0 = 0, median of %d\n"
          % (a.m, n, A.nnz, a.rtol, a.reps))
    print("| solver | solve time (s) | iterations | time/iteration (ms) | final rel. residual | "
          "scipy time / time |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, t, its, r in rows:
        print("| %s | %.4f | %d | %.3f | %.2e | %.2f |" % (name, t, its, 1e3 * t / its, r, base / t))
    if a.csv:
        out = []
        for threads, (name, t, its, r) in zip((1, 2), rows[:2]):
            out.append(dict(benchmark="cg_cpu", case="3D Poisson %d^3 (n %d, nnz %d)" % (a.m, n, A.nnz),
                            variant="omp, %d thread%s" % (threads, "s" * (threads > 1)), ours_seconds=t,
                            anchor_name="scipy %s sparse.linalg.cg" % scipy.__version__,
                            anchor_seconds=base, target_ratio=1.0 if threads == 2 else None,
                            extra="iterations=%d;ms_per_iteration=%.2f;anchor_iterations=%d;"
                                  "final_relative_residual=%.3g;rtol=%g;median_of=%d"
                                  % (its, 1e3 * t / its, rows[-1][2], r, a.rtol, a.reps),
                            device=machine_description(), date_utc=started, command=command))
        append_rows(a.csv, out)


if __name__ == "__main__":
    main()
