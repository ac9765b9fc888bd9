# SPDX-License-Identifier: BSD-3-Clause
"""Shared paths and fixtures of the package's tests. ../shared (the corpus of real matrices and
other readers' test files) sits beside the repository; tests that need it skip without it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"


def shared_files(sub: str) -> list[Path]:
    root = SHARED / sub
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*") if p.is_file() and p.name not in ("README.md", "INDEX.md"))


def mminfo_app() -> str | None:
    """The C library's mminfo app (the C reader's outcome for a file), if one was built."""
    env = os.environ.get("LIBCSR_MMINFO")
    if env:
        return env
    for build in ("build", "build-cpu"):
        app = REPO / build / "apps" / "mminfo"
        if app.is_file():
            return str(app)
    return shutil.which("mminfo")


def random_csr(rows: int, cols: int, density: float, dtype=np.float64, seed: int = 1):
    """A random CSR array with values in [-1, 1) and a few empty rows."""
    rng = np.random.default_rng(seed)
    n = int(density * rows * cols)
    r = rng.integers(0, rows, n)
    r = r[r % 7 != 3] if rows > 7 else r  # some rows left empty
    c = rng.integers(0, cols, r.size)
    v = rng.uniform(-1.0, 1.0, r.size).astype(dtype)
    A = sp.coo_array((v, (r, c)), shape=(rows, cols)).tocsr()
    A.sum_duplicates()
    return A


def with_int32_indices(A: sp.csr_array) -> sp.csr_array:
    """A with int32 indices and indptr, as CuPy and most readers hold them (scipy keeps the int64
    of the triples random_csr builds from)."""
    return sp.csr_array((A.data, A.indices.astype(np.int32), A.indptr.astype(np.int32)),
                        shape=A.shape)


def poisson2d(m: int) -> sp.csr_array:
    """The 5-point Laplacian on an m x m grid: symmetric positive definite."""
    T = sp.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(m, m))
    eye = sp.eye_array(m)
    return (sp.kron(T, eye) + sp.kron(eye, T)).tocsr()


def convection_diffusion(m: int, peclet: float) -> sp.csr_array:
    """Upwind convection-diffusion on an m x m grid: non-symmetric, an M-matrix."""
    h = 1.0 / (m + 1)
    T = sp.diags_array([-1.0 - peclet * h, 2.0 + peclet * h, -1.0], offsets=[-1, 0, 1], shape=(m, m))
    eye = sp.eye_array(m)
    return (sp.kron(T, eye) + sp.kron(eye, T)).tocsr()


def cupy_or_skip():
    """CuPy with a device and a package built with CUDA, or the test skips."""
    import libcsr

    if "cuda" not in libcsr.build_info()["backends"]:
        pytest.skip("this build of libcsr has no CUDA backend")
    cupy = pytest.importorskip("cupy")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("no CUDA device")
    except Exception:  # no driver
        pytest.skip("no CUDA device")
    return cupy
