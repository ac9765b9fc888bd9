#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""apps/cg (csr_solve with an incomplete factorization) against scipy on the CPU: time to solution.

GMRES(restart) + ILUT: `cg FILE --method gmres --precond ilut --restart M --tol T --json` on the
ref backend and on omp (each --threads count) against scipy.sparse.linalg.gmres(restart=M,
rtol=T, atol=0) with M = spilu(A) (SuperLU's ILUTP, drop_tol 1e-4, fill_factor 10: scipy's
defaults, which are also libcsr's ILUT defaults). Problems: upwind convection-diffusion on an
m^3 7-point and an m^2 5-point grid (wind 0.5, non-symmetric; the matrices of
bench/gpu_bench_factor_cases.cuh), and every Matrix Market file given.
PCG + IC(0): `cg FILE --method cg --precond ic0` on the SPD 3D Laplacian against scipy's cg
without a preconditioner, said so in the rows' extra: scipy has no incomplete Cholesky, and
spilu as M is not symmetric (SuperLU permutes and pivots), which CG needs: with it scipy's cg
did not converge (20^3 and 40^3 Laplacians, 2000 iterations, relative residual 1e-2 to 1e-1,
whether SuperLU's symmetric mode was set or not).

Both sides: b = A * ones, x0 = 0, converged when ||b - A x||_2 <= rtol ||b||_2. Times: ours the
csr_solve call as apps/cg --json reports it ("seconds": the factorization is made inside
csr_solve, so it is counted); scipy's spilu + gmres calls (cg: the cg call). Median of --reps runs.
Iterations: ours as csr_solve counts them (GMRES: Arnoldi steps over all cycles), scipy's the
inner iterations (callback_type="pr_norm"). scipy's gmres preconditions on the left (its inner
test is on the preconditioned residual, the true one decides at each restart), libcsr's on the
right, and SuperLU permutes columns (COLAMD) and pivots: the iteration counts differ.
Prints a markdown table; --csv FILE appends rows in the format of bench/plot_results.py
(benchmark solve_cpu; ratio = scipy seconds / ours, > 1: libcsr faster).

  python3 bench/solve_cpu.py [--app build/apps/cg] [--m3d 40] [--m2d 300] [--laplace 40]
      [--rtol 1e-8] [--restart 30] [--max-iter 10000] [--threads 2] [--reps 3] [--csv FILE]
      [FILE.mtx ...]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

import numpy as np
import scipy
import scipy.io
import scipy.sparse as sp
import scipy.sparse.linalg as sla

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_results import append_rows, command_line, machine_description, now_utc  # noqa: E402

DROP_TOL, FILL_FACTOR = 1e-4, 10  # spilu's defaults, written out because the rows name them


def stencil(dims, m, wind):
    """The 5-point (dims 2) or 7-point (dims 3) stencil with upwind convection of strength wind:
    a_ii = 2 dims + dims wind, lower neighbours -1 - wind, upper -1 (wind 0: the Laplacian)."""
    one = sp.identity(m, format="csr")
    low = sp.diags([-(1.0 + wind) * np.ones(m - 1)], [-1], format="csr")
    up = sp.diags([-np.ones(m - 1)], [1], format="csr")
    t = low + up  # one axis's off-diagonal part
    n = m ** dims
    A = sp.diags([(2.0 * dims + dims * wind) * np.ones(n)], [0], format="csr")
    for axis in range(dims):
        factors = [one] * dims
        factors[dims - 1 - axis] = t  # kron's last factor varies fastest: axis 0 is x
        term = factors[0]
        for f in factors[1:]:
            term = sp.kron(term, f, format="csr")
        A = A + term
    return A.tocsr()


def run_app(app, path, method, precond, a, backend, threads):
    """apps/cg on path: (median seconds, iterations, converged, relative residual, note)."""
    cmd = [app, path, "--method", method, "--precond", precond, "--tol", repr(a.rtol),
           "--max-iter", str(a.max_iter), "--backend", backend, "--json"]
    if method == "gmres":
        cmd += ["--restart", str(a.restart)]
    if threads:
        cmd += ["--threads", str(threads)]
    times, j = [], None
    for _ in range(a.reps):
        p = subprocess.run(cmd, capture_output=True, text=True)
        try:
            j = json.loads(p.stdout)
        except ValueError:
            j = {}
        if "seconds" not in j:  # apps/cg refused or failed: its message is the note
            why = j.get("error", {}).get("message") or p.stderr.strip()[:200] or p.returncode
            return None, None, False, None, "apps/cg failed: %s" % why
        times.append(j["seconds"])
    return statistics.median(times), j["iterations"], bool(j["converged"]), j["relative_residual"], ""


def run_scipy(A, b, a, method):
    """spilu + gmres (or cg alone) from x0 = 0: (median seconds, inner iterations, converged,
    rel. residual, note)."""
    times, its, info, x = [], 0, -1, None
    for _ in range(a.reps):
        count = [0]

        def callback(_r):
            count[0] += 1

        t0 = time.perf_counter()
        if method == "gmres":
            try:
                ilu = sla.spilu(A.tocsc(), drop_tol=DROP_TOL, fill_factor=FILL_FACTOR)
            except RuntimeError as e:  # a singular factor
                return None, None, False, None, "spilu failed: %s" % e
            M = sla.LinearOperator(A.shape, ilu.solve)
            cycles = -(-a.max_iter // a.restart)  # scipy's maxiter counts restart cycles
            x, info = sla.gmres(A, b, rtol=a.rtol, atol=0.0, restart=a.restart, maxiter=cycles,
                                M=M, callback=callback, callback_type="pr_norm")
        else:
            x, info = sla.cg(A, b, rtol=a.rtol, atol=0.0, maxiter=a.max_iter, callback=callback)
        times.append(time.perf_counter() - t0)
        its = count[0]
    rel = np.linalg.norm(b - A @ x) / np.linalg.norm(b)
    return statistics.median(times), its, info == 0, rel, ""


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("files", nargs="*", help="Matrix Market files (square, real) for GMRES+ILUT")
    p.add_argument("--app", default=os.path.join(here, "..", "build", "apps", "cg"))
    p.add_argument("--m3d", type=int, default=40, help="3D convection-diffusion grid side")
    p.add_argument("--m2d", type=int, default=300, help="2D convection-diffusion grid side")
    p.add_argument("--laplace", type=int, default=40, help="3D Laplacian (PCG+IC0) grid side")
    p.add_argument("--rtol", type=float, default=1e-8)
    p.add_argument("--restart", type=int, default=30)
    p.add_argument("--max-iter", type=int, default=10000)
    p.add_argument("--threads", default=str(os.cpu_count()),
                   help="comma-separated thread counts of the omp runs")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--csv", metavar="FILE", help="append the results to this CSV (bench/README.md)")
    a = p.parse_args()
    started, command, device = now_utc(), command_line(), machine_description()
    configs = [("ref", None)] + [("omp", int(t)) for t in a.threads.split(",")]
    table, rows = [], []
    with tempfile.TemporaryDirectory() as tmp:
        problems = []  # (name, path, A, method, precond, note on the scipy side)
        for name, dims, m, wind, method in (
                ("convdiff3d_%d" % a.m3d, 3, a.m3d, 0.5, "gmres"),
                ("convdiff2d_%d" % a.m2d, 2, a.m2d, 0.5, "gmres"),
                ("laplace3d_%d" % a.laplace, 3, a.laplace, 0.0, "cg")):
            A = stencil(dims, m, wind)
            path = os.path.join(tmp, name + ".mtx")
            scipy.io.mmwrite(path, A, symmetry="symmetric" if wind == 0 else "general")
            problems.append((name, path, A, method))
        for path in a.files:
            A = scipy.io.mmread(path).tocsr()
            if A.shape[0] != A.shape[1] or not np.isrealobj(A.data):
                print("skipped %s: not a square real matrix" % path, file=sys.stderr)
                continue
            name = os.path.basename(path).split(".")[0]
            problems.append((name, os.path.abspath(path), A.astype(np.float64), "gmres"))
        for name, path, A, method in problems:
            precond = "ilut" if method == "gmres" else "ic0"
            stand_in = "" if method == "gmres" else (
                "anchor_preconditioner=none: scipy has no incomplete Cholesky and CG with spilu "
                "(not symmetric) does not converge")
            b = A @ np.ones(A.shape[0])
            st, sits, sconv, srel, snote = run_scipy(A, b, a, method)
            anchor = "scipy %s %s" % (scipy.__version__, "gmres+spilu" if method == "gmres" else "cg")
            table.append((name, anchor, st, sits, sconv, srel, snote))
            for backend, threads in configs:
                t, its, conv, rel, note = run_app(a.app, path, method, precond, a, backend, threads)
                variant = "%s+%s, %s%s" % (method, precond, backend,
                                           ", %d thread%s" % (threads, "s" * (threads > 1))
                                           if threads else "")
                table.append((name, "libcsr " + variant, t, its, conv, rel, note))
                extra = ";".join(x for x in (
                    "n=%d;nnz=%d;iterations=%s;anchor_iterations=%s;converged=%d;"
                    "anchor_converged=%d;relative_residual=%s;anchor_relative_residual=%s;rtol=%g;"
                    "median_of=%d" % (A.shape[0], A.nnz, "" if its is None else its,
                                      "" if sits is None else sits, conv, sconv,
                                      "%.3g" % rel if rel is not None else "",
                                      "%.3g" % srel if srel is not None else "", a.rtol, a.reps)
                    + (";restart=%d" % a.restart if method == "gmres" else ""),
                    stand_in, note and "notes=" + note.replace(",", " ").replace(";", " "),
                    snote and "anchor_notes=" + snote.replace(",", " ").replace(";", " ")) if x)
                rows.append(dict(benchmark="solve_cpu", case="%s (n %d)" % (name, A.shape[0]),
                                 variant=variant, ours_seconds=t, anchor_name=anchor,
                                 anchor_seconds=st, extra=extra, device=device,
                                 date_utc=started, command=command))
    print("time to solution, b = A*ones, x0 = 0, rtol %g, GMRES restart %d, median of %d\n"
          % (a.rtol, a.restart, a.reps))
    print("| case | solver | seconds | iterations | converged | final rel. residual | note |")
    print("|---|---|---:|---:|---|---:|---|")
    for name, solver, t, its, conv, rel, note in table:
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            name, solver, "%.4f" % t if t is not None else "-", its if its is not None else "-",
            "yes" if conv else "no", "%.2e" % rel if rel is not None else "-", note))
    if a.csv:
        append_rows(a.csv, rows)


if __name__ == "__main__":
    main()
