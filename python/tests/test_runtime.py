# SPDX-License-Identifier: BSD-3-Clause
"""How the package runs: the GIL is released while libcsr works, threads calling at once get
their own contexts and the right answers, settings apply per thread, and `python -m libcsr`
prints what mminfo prints."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import libcsr
from conftest import REPO, poisson2d, random_csr


def test_gil_released_during_work():
    """A Python thread keeps counting while another thread's solve runs inside libcsr."""
    A = poisson2d(300)  # 90,000 unknowns: CG takes hundreds of milliseconds
    b = A @ np.ones(A.shape[0])
    done = threading.Event()
    timing = {}

    def solve():
        began = time.perf_counter()
        libcsr.solve(A, b, method="cg", rtol=1e-10, threads=1)
        timing["seconds"] = time.perf_counter() - began
        done.set()

    worker = threading.Thread(target=solve)
    counts = 0
    worker.start()
    while not done.is_set():
        counts += 1
    worker.join()
    # With the GIL held the loop would stall for the whole solve; released, it spins freely
    # (about 10^6 iterations a second even on a slow machine).
    assert timing["seconds"] > 0.05
    assert counts > 20000 * timing["seconds"], (counts, timing)


def test_threads_at_once():
    A = random_csr(20000, 20000, 0.0005, seed=12)
    xs = [np.random.default_rng(k).uniform(-1, 1, 20000) for k in range(8)]
    expected = [A @ x for x in xs]
    results = [None] * 8
    errors = []

    def work(k):
        try:
            for _ in range(20):
                results[k] = libcsr.spmv(A, xs[k], backend="omp" if k % 2 else "ref")
            with pytest.raises(libcsr.DimensionMismatchError):
                libcsr.spmv(A, xs[k][:-1])
        except Exception as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for got, want in zip(results, expected):
        assert np.abs(got - want).max() < 1e-12


def test_configure_per_thread():
    previous = libcsr.configure(threads=1, backend="ref")
    try:
        seen = {}

        def other():
            seen["defaults"] = libcsr.configure()

        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert seen["defaults"]["backend"] == "auto"  # another thread keeps the defaults
        info = libcsr.solve(poisson2d(10), np.ones(100))[1]
        assert info.backend == "ref"
        with pytest.raises(libcsr.InvalidValueError):
            libcsr.configure(threads=-1)
    finally:
        libcsr.configure(**previous)


def run_cli(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "libcsr", *args], capture_output=True,
                          text=True, timeout=120, **kwargs)


def test_cli():
    path = REPO / "matrices" / "1138_bus.mtx"
    text = run_cli(str(path))
    assert text.returncode == 0, text.stderr
    assert "1138 x 1138" in text.stdout and "symmetric" in text.stdout
    d = json.loads(run_cli(str(path), "--json").stdout)
    A = libcsr.read(path)
    assert (d["rows"], d["cols"], d["nnz"]) == (1138, 1138, A.nnz)
    assert d["stored_entries"] == 2596 and d["entries"] == A.nnz
    assert sum(d["histogram"]) == 1138 and d["gpu_kernel"] in ("scalar", "vector", "segmented", "stream")
    missing = run_cli("/nonexistent/x.mtx")
    assert missing.returncode == 1
    assert missing.stderr.startswith("python -m libcsr: /nonexistent/x.mtx: cannot open")
    assert run_cli().returncode == 2  # usage


def test_cli_stdin(tmp_path: Path):
    text = "%%MatrixMarket matrix coordinate pattern general\n2 3 2\n1 1\n2 3\n"
    run = run_cli("-", "--json", input=text)
    assert run.returncode == 0, run.stderr
    d = json.loads(run.stdout)
    assert (d["rows"], d["cols"], d["nnz"], d["field"]) == (2, 3, 2, "pattern")
