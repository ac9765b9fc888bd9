# SPDX-License-Identifier: BSD-3-Clause
"""The operations on CuPy operands (skipped without CuPy, a CUDA build or a device): answers
against cupyx (cuSPARSE) and the host path, the caller's device arrays used in place, work on
CuPy's current stream."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import libcsr
from libcsr import _api, _core
from conftest import convection_diffusion, cupy_or_skip, poisson2d, random_csr, with_int32_indices


@pytest.fixture
def cp():
    return cupy_or_skip()


def to_device(cp, A):
    import cupyx.scipy.sparse as csp

    return csp.csr_matrix(A)


def rel_err(cp, a, b) -> float:
    return float(cp.linalg.norm(a - b) / cp.linalg.norm(b))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_spmv(cp, dtype):
    H = random_csr(5000, 4000, 0.002, dtype=dtype, seed=21)
    A = to_device(cp, H)
    x = cp.random.default_rng(1).uniform(-1, 1, 4000).astype(dtype)
    y = libcsr.spmv(A, x)
    assert isinstance(y, cp.ndarray) and y.dtype == dtype
    tol = 1e-13 if dtype == np.float64 else 1e-5
    assert rel_err(cp, y, A @ x) < tol
    assert np.abs(y.get() - libcsr.spmv(H, x.get())).max() < tol * 10
    again = libcsr.spmv(A, x)
    assert cp.array_equal(y, again)  # the same bits every run
    y0 = cp.ones(5000, dtype=dtype)
    libcsr.spmv(A, x, y0, alpha=2.0, beta=-1.0)
    assert rel_err(cp, y0, 2.0 * (A @ x) - 1.0) < tol


def test_device_arrays_used_in_place(cp):
    A = to_device(cp, with_int32_indices(random_csr(1000, 1000, 0.01, seed=22)))
    assert A.indices.dtype == np.int32
    M = _api._Matrix(A)
    offsets, indices, values = _core.wrapped_addresses(M.handle, _api._settings(None, None, True))
    assert indices == A.indices.data.ptr
    assert values == A.data.data.ptr
    assert A.indptr.dtype == np.int32 and offsets != A.indptr.data.ptr  # widened on the device
    plan = libcsr.SpMVPlan(A, compress="on")
    assert plan.info["packed"], plan.info
    x = cp.ones(1000)
    assert cp.array_equal(plan(x), libcsr.spmv(A, x))


def test_stream(cp):
    A = to_device(cp, random_csr(20000, 20000, 0.0005, seed=23))
    x = cp.random.default_rng(2).uniform(-1, 1, 20000)
    expected = A @ x
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        y = libcsr.spmv(A, x)
        stream.synchronize()
    assert rel_err(cp, y, expected) < 1e-13
    y2 = libcsr.spmv(A, x, stream=stream)
    stream.synchronize()
    assert cp.array_equal(y, y2)


def test_pagerank(cp):
    nx = pytest.importorskip("networkx")
    G = nx.gnp_random_graph(3000, 0.002, seed=5, directed=True)
    H = nx.to_scipy_sparse_array(G, nodelist=range(3000), format="csr", dtype=np.float64)
    ranks, info = libcsr.pagerank(to_device(cp, H), tol=1e-12, return_info=True)
    assert isinstance(ranks, cp.ndarray) and info.backend == "cuda" and info.converged
    host = libcsr.pagerank(H, tol=1e-12)
    assert np.abs(ranks.get() - host).max() < 1e-12


@pytest.mark.parametrize("method,preconditioner", [("cg", None), ("pcg", None), ("cg", "ic0"),
                                                   ("gmres", "ilu0"), ("bicgstab", None)])
def test_solve(cp, method, preconditioner):
    H = poisson2d(40) if method != "gmres" else convection_diffusion(40, 100.0)
    A = to_device(cp, H)
    b = A @ cp.ones(H.shape[0])
    x, info = libcsr.solve(A, b, method=method, preconditioner=preconditioner, rtol=1e-10)
    assert info.converged and info.backend == "cuda" and isinstance(x, cp.ndarray)
    assert float(cp.abs(x - 1.0).max()) < 1e-6


def test_reorder_permute(cp):
    S = poisson2d(30)
    p = np.random.default_rng(4).permutation(S.shape[0])
    H = S[p][:, p].tocsr()
    A = to_device(cp, H)
    for method in ("rcm", "degree"):
        perm = libcsr.reorder(A, method)
        assert np.array_equal(perm, libcsr.reorder(H, method))
        B = libcsr.permute(A, perm)
        assert abs(B.get() - H[perm][:, perm]).max() == 0


def test_other_gpu_arrays(cp):
    """A PyTorch tensor (any __cuda_array_interface__ array) is read and written in place."""
    torch = pytest.importorskip("torch")
    H = random_csr(3000, 2000, 0.003, seed=25)
    A = to_device(cp, H)
    x = torch.rand(2000, dtype=torch.float64, device="cuda")
    y = torch.zeros(3000, dtype=torch.float64, device="cuda")
    out = libcsr.spmv(A, x, y)
    cp.cuda.Device().synchronize()
    assert out is y
    expected = A @ cp.asarray(x)
    assert rel_err(cp, cp.asarray(y), expected) < 1e-13


def test_errors(cp):
    H = random_csr(100, 80, 0.05, seed=24)
    with pytest.raises(libcsr.LocationMismatchError):
        libcsr.spmv(H, cp.ones(80))
    with pytest.raises(libcsr.LocationMismatchError):
        libcsr.spmv(to_device(cp, H), np.ones(80))
    with pytest.raises(libcsr.DimensionMismatchError):
        libcsr.spmv(to_device(cp, H), cp.ones(81))
    with pytest.raises(libcsr.UnsupportedError):
        libcsr.write("/tmp/x.mtx", to_device(cp, H))


def test_spmv_choice_on_device_matches_host(cp):
    # The row statistics and the gather sample run on the GPU for a CuPy matrix; the choice and
    # its figures are those of the same matrix on the host.
    for H in (poisson2d(300), random_csr(40000, 40000, 6 / 40000, seed=23)):
        host, device = libcsr.spmv_choice(H), libcsr.spmv_choice(to_device(cp, H))
        assert (device.kernel, device.lanes) == (host.kernel, host.lanes)
        assert device.gather_lines == host.gather_lines
        h, d = host.stats, device.stats
        assert (d.rows, d.nnz, d.longest, d.histogram) == (h.rows, h.nnz, h.longest, h.histogram)
