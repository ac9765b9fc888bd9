# SPDX-License-Identifier: BSD-3-Clause
"""The operations on host (scipy / NumPy) operands against scipy, networkx and igraph: SpMV and
its plan, PageRank, every solver method and preconditioner, reordering, row statistics; the
caller's arrays used in place; errors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import libcsr
from libcsr import _api, _core
from conftest import convection_diffusion, poisson2d, random_csr, with_int32_indices


def rel_err(a, b) -> float:
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300))


# --- SpMV ------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("backend", ["ref", "omp"])
def test_spmv_against_scipy(dtype, backend):
    A = random_csr(2000, 1500, 0.01, dtype=dtype, seed=11)
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, 1500).astype(dtype)
    y0 = rng.uniform(-1, 1, 2000).astype(dtype)
    y = libcsr.spmv(A, x, backend=backend)
    tol = 1e-13 if dtype == np.float64 else 1e-5
    assert y.dtype == dtype and rel_err(y, A @ x) < tol
    y1 = y0.copy()
    out = libcsr.spmv(A, x, y1, alpha=1.5, beta=-0.5, backend=backend)
    assert out is y1
    assert rel_err(y1, 1.5 * (A @ x) - 0.5 * y0) < tol
    # The same bits every run; in float64 the same on both CPU backends too (rows summed in
    # double, in stored order; OpenMP sums float32 rows in float).
    assert np.array_equal(libcsr.spmv(A, x, backend=backend), y)
    if dtype == np.float64:
        assert np.array_equal(libcsr.spmv(A, x, backend="ref"), libcsr.spmv(A, x, backend="omp"))


def test_spmv_inputs_converted():
    A = random_csr(50, 40, 0.2, seed=3)
    x = np.arange(40, dtype=np.float64)
    expected = A @ x
    for B in (A.tocoo(), A.tocsc(), sp.csr_matrix(A)):
        assert rel_err(libcsr.spmv(B, x), expected) < 1e-14
    wide = sp.csr_array((A.data, A.indices.astype(np.int64), A.indptr.astype(np.int64)), shape=A.shape)
    assert np.array_equal(libcsr.spmv(wide, x), libcsr.spmv(A, x))
    ints = sp.csr_array((np.arange(A.nnz) % 5, A.indices, A.indptr), shape=A.shape)
    assert np.array_equal(libcsr.spmv(ints, x), ints.astype(np.float64) @ x)
    assert libcsr.spmv(A, list(range(40))).shape == (50,)  # any array-like x
    empty = sp.csr_array((0, 7))
    assert libcsr.spmv(empty, np.ones(7)).shape == (0,)


def test_nothing_copied():
    """csr_matrix_wrap records the caller's arrays themselves (64-bit offsets too; 32-bit ones
    are widened: the one copy, of the offsets)."""
    A = with_int32_indices(random_csr(100, 100, 0.05, seed=4))
    assert A.indices.dtype == np.int32
    M = _api._Matrix(A)
    settings = _api._settings(None, None, False)
    offsets, indices, values = _core.wrapped_addresses(M.handle, settings)
    assert indices == A.indices.__array_interface__["data"][0]
    assert values == A.data.__array_interface__["data"][0]
    assert offsets != A.indptr.__array_interface__["data"][0]  # int32 indptr: widened
    A64 = sp.csr_array((A.data, A.indices, A.indptr.astype(np.int64)), shape=A.shape)
    assert A64.indptr.dtype == np.int64 and A64.indices.dtype == np.int64
    A64.indices = A.indices  # scipy keeps one index dtype; set the 32-bit columns by hand
    M64 = _api._Matrix(A64)
    offsets, indices, values = _core.wrapped_addresses(M64.handle, settings)
    assert offsets == A64.indptr.__array_interface__["data"][0]
    assert indices == A.indices.__array_interface__["data"][0]
    plan = libcsr.SpMVPlan(A)
    assert plan._M.arrays[1] is A.indices and plan._M.arrays[2] is A.data


def test_wrapped_matrix_kept():
    """A matrix used again with the same arrays is not wrapped again; new arrays, a changed
    nnz, or forget() give a new wrap; converted inputs are never kept."""
    A = with_int32_indices(random_csr(200, 200, 0.05, seed=13))
    x = np.ones(200)
    M = _api._matrix(A)
    assert _api._matrix(A) is M
    A.data *= 3.0  # values change in place: still the same wrap, read live
    assert _api._matrix(A) is M and np.array_equal(libcsr.spmv(A, x), A @ x)
    A.data = A.data.copy()  # a new array: a new wrap
    assert _api._matrix(A) is not M
    M2 = _api._matrix(A)
    libcsr.forget(A)
    assert _api._matrix(A) is not M2
    A.indptr[:] = np.minimum(A.indptr, 100)  # in place: unseen until forget()
    A.indptr[-1] = A.nnz
    libcsr.forget(A)
    M3 = _api._matrix(A)
    assert M3.spec[2] == A.nnz
    wide = random_csr(50, 50, 0.1, seed=14)  # int64 indices: converted, so never kept
    assert wide.indices.dtype == np.int64
    assert _api._matrix(wide) is not _api._matrix(wide)
    assert _api._matrix(wide.tocoo()) is not _api._matrix(wide.tocoo())


def test_plan():
    A = random_csr(3000, 3000, 0.003, seed=6)
    x = np.random.default_rng(0).uniform(-1, 1, 3000)
    for compress in ("auto", "on", "off"):
        plan = libcsr.SpMVPlan(A, compress=compress)
        assert np.array_equal(plan(x), libcsr.spmv(A, x))
        info = plan.info
        assert info["packed"] == (compress == "on") and info["reason"]
    plan = libcsr.SpMVPlan(A)
    A.data *= 2.0  # values are read in place
    assert np.array_equal(plan(x), libcsr.spmv(A, x))
    y = np.ones(3000)
    plan.run(x, y, alpha=2.0, beta=3.0)
    assert rel_err(y, 2.0 * (A @ x) + 3.0) < 1e-13


def test_spmv_errors():
    A = random_csr(30, 20, 0.2, seed=8)
    with pytest.raises(libcsr.DimensionMismatchError, match=r"\(20,\)"):
        libcsr.spmv(A, np.ones(21))
    with pytest.raises(libcsr.InvalidValueError, match="beta"):
        libcsr.spmv(A, np.ones(20), beta=1.0)
    with pytest.raises(libcsr.TypeMismatchError):
        libcsr.spmv(A, np.ones(20), np.ones(30, dtype=np.float32))
    with pytest.raises(libcsr.TypeMismatchError):
        libcsr.spmv(np.ones((3, 3)), np.ones(3))
    with pytest.raises(libcsr.TypeMismatchError, match="in place"):
        libcsr.spmv(A, np.ones(20), [0.0] * 30)
    with pytest.raises(libcsr.UnsupportedError, match="complex"):
        libcsr.spmv(A.astype(np.complex128), np.ones(20))
    with pytest.raises(libcsr.InvalidValueError, match="backend"):
        libcsr.spmv(A, np.ones(20), backend="gpu")
    if "cuda" not in libcsr.build_info()["backends"]:
        with pytest.raises(libcsr.NotCompiledError):
            libcsr.spmv(A, np.ones(20), backend="cuda")
    bad = sp.csr_array((A.data, A.indices.copy(), A.indptr), shape=A.shape)
    bad.indices[3] = 99
    with pytest.raises(libcsr.IndexOutOfBoundsError, match="99"):
        libcsr.validate(bad)
    libcsr.validate(A)


# --- statistics --------------------------------------------------------------------------------


def test_row_stats_and_choice():
    A = random_csr(1000, 800, 0.01, seed=9)
    s = libcsr.row_stats(A)
    lengths = np.diff(A.indptr)
    assert s.rows == 1000 and s.nnz == A.nnz and s.longest == lengths.max()
    assert s.empty_rows == int((lengths == 0).sum())
    assert s.mean == pytest.approx(lengths.mean()) and s.variance == pytest.approx(lengths.var())
    bins = [int((lengths == 0).sum())] + [
        int(((lengths >= 2 ** (b - 1)) & (lengths < 2**b)).sum()) for b in range(1, len(s.histogram))
    ]
    assert s.histogram == bins
    choice = libcsr.spmv_choice(A)
    assert choice.kernel in ("scalar", "vector", "segmented", "stream") and choice.reason
    assert libcsr.spmv_choice(A, kernel="stream").forced


def test_spmv_choice_samples_short_rows():
    """Short regular rows: the scalar kernel for a stencil, whose neighbouring rows gather
    neighbouring entries of x; not for random columns, where each lane reads its own line."""
    stencil = libcsr.spmv_choice(poisson2d(100))
    assert stencil.kernel == "scalar" and 0.0 < stencil.gather_lines < 0.15
    rng = np.random.default_rng(3)
    n = 50_000
    cols = rng.integers(0, n, 6 * n)
    A = sp.csr_array((np.ones(6 * n), cols, np.arange(0, 6 * n + 1, 6)), shape=(n, n))
    scattered = libcsr.spmv_choice(A)
    assert scattered.kernel == "stream" and scattered.gather_lines > 0.9
    assert "scatter" in scattered.reason
    assert libcsr.spmv_choice(random_csr(300, 300, 0.2)).gather_lines == -1.0  # 60 a row


# --- PageRank ----------------------------------------------------------------------------------


def test_pagerank_against_networkx_and_igraph():
    nx = pytest.importorskip("networkx")
    G = nx.gnp_random_graph(400, 0.02, seed=4, directed=True)
    G.add_nodes_from(range(400, 410))  # dangling pages
    A = nx.to_scipy_sparse_array(G, nodelist=range(410), format="csr")
    ranks, info = libcsr.pagerank(A, tol=1e-12, return_info=True)
    assert info.converged and info.dangling >= 10
    expected = nx.pagerank(G, alpha=0.85, tol=1e-14, max_iter=1000)
    assert np.abs(ranks - np.array([expected[i] for i in range(410)])).max() < 1e-10
    assert ranks.sum() == pytest.approx(1.0)
    try:
        import igraph
    except ImportError:
        return
    g = igraph.Graph.Adjacency((A != 0).toarray().astype(int).tolist(), mode="directed")
    assert np.abs(ranks - np.array(g.pagerank(damping=0.85))).max() < 1e-8


def test_pagerank_options():
    nx = pytest.importorskip("networkx")
    G = nx.gnp_random_graph(200, 0.05, seed=8, directed=True)
    for u, v in G.edges:
        G[u][v]["weight"] = 1.0 + (u * 7 + v) % 5
    A = nx.to_scipy_sparse_array(G, nodelist=range(200), format="csr")
    p = np.linspace(1.0, 2.0, 200)
    ranks = libcsr.pagerank(A, weighted=True, personalization=p, tol=1e-12)
    pers = {i: p[i] for i in range(200)}
    expected = nx.pagerank(G, personalization=pers, dangling=None, tol=1e-14, weight="weight")
    assert np.abs(ranks - np.array([expected[i] for i in range(200)])).max() < 1e-10
    r32 = libcsr.pagerank(A, dtype="float32", tol=1e-6)
    assert r32.dtype == np.float32
    with pytest.warns(libcsr.NotConvergedWarning):
        libcsr.pagerank(A, max_iter=2, tol=1e-12)
    with pytest.raises(libcsr.InvalidValueError):
        libcsr.pagerank(A, damping=1.5)
    with pytest.raises(libcsr.DimensionMismatchError):
        libcsr.pagerank(A[:, :100])


# --- solvers -----------------------------------------------------------------------------------

SPD_CASES = [
    ("cg", None),
    ("pcg", None),
    ("cg", "jacobi"),
    ("cg", "ic0"),
    ("cg", "ilu0"),
    ("bicgstab", None),
    ("gmres", None),
    ("gmres", "jacobi"),
    ("gmres", "ilu0"),
    ("gmres", "ilut"),
    ("gmres", "ic0"),
]


@pytest.mark.parametrize("method,preconditioner", SPD_CASES)
def test_solve_spd(method, preconditioner):
    A = poisson2d(30)
    x_true = np.random.default_rng(1).uniform(-1, 1, A.shape[0])
    b = A @ x_true
    x, info = libcsr.solve(A, b, method=method, preconditioner=preconditioner, rtol=1e-10, history=5)
    assert info.converged and info.stop == "converged"
    assert np.linalg.norm(b - A @ x) <= 1.01e-10 * np.linalg.norm(b)
    assert rel_err(x, spla.spsolve(A.tocsc(), b)) < 1e-6
    assert len(info.history) == min(5, info.iterations + 1) and info.history[0] > 0


@pytest.mark.parametrize("method,preconditioner", [("gmres", "ilu0"), ("gmres", "ilut"), ("bicgstab", None)])
def test_solve_nonsymmetric(method, preconditioner):
    A = convection_diffusion(40, 200.0)
    b = A @ np.ones(A.shape[0])
    x, info = libcsr.solve(A, b, method=method, preconditioner=preconditioner, rtol=1e-9)
    assert info.converged
    assert rel_err(x, np.ones(A.shape[0])) < 1e-6


def test_solve_factor_reorder_and_limits():
    A = convection_diffusion(30, 50.0)
    b = A @ np.ones(A.shape[0])
    F = libcsr.factor(A, "ilut", drop_tolerance=1e-3)
    assert F.info.kind == "ilut" and F.info.nnz_L > 0
    z = F.solve(b)
    assert z.shape == b.shape and np.isfinite(z).all()
    x, info = libcsr.solve(A, b, method="gmres", preconditioner=F)
    assert info.converged and rel_err(x, np.ones(A.shape[0])) < 1e-6
    S = poisson2d(25)
    p = np.random.default_rng(3).permutation(S.shape[0])
    S = S[p][:, p].tocsr()
    x, info = libcsr.solve(S, S @ np.ones(S.shape[0]), method="pcg", reorder="rcm")
    assert info.converged and info.reordered == "rcm"
    x, info = libcsr.solve(S, S @ np.ones(S.shape[0]), max_iter=3)
    assert not info.converged and info.stop == "max_iter" and info.iterations == 3
    x0 = np.ones(S.shape[0])
    x, info = libcsr.solve(S, S @ x0, x0=x0)
    assert info.iterations == 0 and x is not x0
    with pytest.raises(libcsr.InvalidMatrixError):
        libcsr.solve(-poisson2d(10), np.ones(100), method="cg")  # negative definite: p'Ap < 0
    singular = sp.csr_array(np.array([[1.0, 0.0], [0.0, 0.0]]))
    with pytest.raises(libcsr.InvalidMatrixError, match="singular"):
        libcsr.solve(singular, np.ones(2), method="gmres")
    with pytest.raises(libcsr.InvalidValueError, match="method"):
        libcsr.solve(S, np.ones(S.shape[0]), method="lu")
    with pytest.raises(libcsr.InvalidValueError, match="factor_options"):
        libcsr.solve(S, np.ones(S.shape[0]), factor_options={"dropp": 1})


# --- reordering --------------------------------------------------------------------------------


def bandwidth(A) -> int:
    C = A.tocoo()
    return int(np.abs(C.row - C.col).max())


def test_reorder_and_permute():
    S = poisson2d(40)
    p = np.random.default_rng(5).permutation(S.shape[0])
    shuffled = S[p][:, p].tocsr()
    for method in ("rcm", "degree", "hub", "appearance", "auto", "none"):
        perm = libcsr.reorder(shuffled, method)
        assert perm.dtype == np.int32 and np.array_equal(np.sort(perm), np.arange(S.shape[0]))
        B = libcsr.permute(shuffled, perm)
        assert (B != shuffled[perm][:, perm]).nnz == 0 and B.has_sorted_indices
    rcm = libcsr.reorder(shuffled, "rcm")
    assert bandwidth(libcsr.permute(shuffled, rcm)) <= 2 * bandwidth(S)
    assert bandwidth(shuffled) > 10 * bandwidth(S)
    rows_only = libcsr.permute(shuffled, rcm, None)
    assert (rows_only != shuffled[rcm]).nnz == 0
    with pytest.raises(libcsr.InvalidValueError, match="not a permutation"):
        libcsr.permute(shuffled, np.zeros(S.shape[0], dtype=np.int32))
    with pytest.raises(libcsr.DimensionMismatchError):
        libcsr.reorder(random_csr(5, 6, 0.5))
