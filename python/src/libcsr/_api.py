# SPDX-License-Identifier: BSD-3-Clause
"""The functions of the libcsr package: arguments checked and described to the extension module
(libcsr._core), results built as scipy.sparse / NumPy objects (host) or CuPy objects (device)."""

from __future__ import annotations

import contextvars
import os
import warnings
import weakref
from dataclasses import dataclass, field
from typing import Any, Literal, Optional, Sequence, Tuple, Union

import numpy as np
import scipy.sparse as sp

from . import _core
from ._errors import (
    DimensionMismatchError,
    InvalidValueError,
    LocationMismatchError,
    TypeMismatchError,
    UnsupportedError,
)

# --- the C library's enumerations, by name -----------------------------------------------------

_BACKENDS = {"auto": 0, "ref": 1, "omp": 2, "cuda": 3}
_KERNELS = {"auto": 0, "scalar": 1, "vector": 2, "segmented": 3, "stream": 4}
_VALUE_TYPES = {None: 1, "float64": 1, "float32": 2}
_FILE_FORMATS = {"auto": 0, "mm": 1, "matrix-market": 1, "edges": 2, "edge-list": 2}
_COMPRESS = {"auto": 0, "off": 1, "on": 2, False: 1, True: 2}
_REORDER = {None: 0, "none": 0, "auto": 1, "rcm": 2, "degree": 3, "hub": 4, "appearance": 5}
_METHODS = {"cg": 0, "pcg": 1, "bicgstab": 2, "gmres": 3}
_PRECONDITIONERS = {None: 0, "none": 0, "jacobi": 1, "ilu0": 2, "ilut": 3, "ic0": 4}
_FACTOR_KINDS = {"ilu0": 0, "ic0": 1, "ilut": 2}
_FACTOR_ORDERINGS = {"auto": 0, "natural": 1, "matching": 2}
_FACTOR_REORDERINGS = {"auto": 0, "none": 1, "rcm": 2}
_F64, _F32 = 1, 2

Backend = Literal["auto", "ref", "omp", "cuda"]


def _code(table: dict, name: Any, what: str) -> int:
    key = name.lower() if isinstance(name, str) else name
    if key not in table:
        names = ", ".join(repr(k) for k in table if isinstance(k, str))
        raise InvalidValueError(f"{what} {name!r}: expected one of {names}")
    return table[key]


class NotConvergedWarning(UserWarning):
    """An iteration stopped at its limit before it met its tolerance."""


# --- settings ------------------------------------------------------------------------------------

_defaults: contextvars.ContextVar[dict] = contextvars.ContextVar(
    "libcsr_defaults", default={"backend": "auto", "threads": 0, "kernel": "auto"}
)


def configure(
    backend: Optional[Backend] = None, threads: Optional[int] = None, kernel: Optional[str] = None
) -> dict:
    """Sets the defaults of the calls made from this thread (or asyncio task) and returns the
    previous ones: ``backend`` ("auto": CUDA for CuPy operands, OpenMP for host ones; "ref",
    "omp", "cuda"), ``threads`` (OpenMP threads; 0: OpenMP's default, which OMP_NUM_THREADS
    sets) and ``kernel`` (the GPU SpMV kernel: "auto", "scalar", "vector", "segmented",
    "stream"). Each function also takes ``backend=`` and ``threads=`` for one call."""
    previous = _defaults.get()
    new = dict(previous)
    if backend is not None:
        _code(_BACKENDS, backend, "backend")
        new["backend"] = backend
    if threads is not None:
        if int(threads) < 0:
            raise InvalidValueError(f"threads {threads}: expected 0 (OpenMP's default) or more")
        new["threads"] = int(threads)
    if kernel is not None:
        _code(_KERNELS, kernel, "kernel")
        new["kernel"] = kernel
    _defaults.set(new)
    return previous


def _settings(backend, threads, device: bool, stream=None) -> tuple:
    d = _defaults.get()
    b = _code(_BACKENDS, backend if backend is not None else d["backend"], "backend")
    t = int(threads) if threads is not None else d["threads"]
    if t < 0:
        raise InvalidValueError(f"threads {t}: expected 0 (OpenMP's default) or more")
    k = _code(_KERNELS, d["kernel"], "kernel")
    s = 0
    if device:
        if stream is None:
            import cupy

            s = cupy.cuda.get_current_stream().ptr
        else:
            s = int(getattr(stream, "ptr", stream))
    return (b, t, k, s)


def build_info() -> dict:
    """What this package was built with: ``backends`` (of "ref", "omp", "cuda") and whether a
    CUDA device can be used now (``cuda_device``)."""
    return _core.build_info()


# --- operands ------------------------------------------------------------------------------------


def _is_cupy(obj) -> bool:
    return type(obj).__module__.split(".")[0] in ("cupy", "cupyx")


def _on_device(obj) -> bool:
    """A CuPy array or matrix, or another GPU array CuPy can view without a copy (a PyTorch
    tensor, a Numba array: anything with __cuda_array_interface__)."""
    return _is_cupy(obj) or hasattr(obj, "__cuda_array_interface__")


def _address(a) -> int:
    if _is_cupy(a):
        return a.data.ptr
    return a.__array_interface__["data"][0]


class _Matrix:
    """A CSR matrix described for the extension: the spec tuple, and the arrays it points into
    (kept alive as long as this object)."""

    def __init__(self, A):
        device = _is_cupy(A)
        if device:
            import cupyx.scipy.sparse as csp

            if not csp.isspmatrix_csr(A):
                A = A.tocsr()
            xp = __import__("cupy")
        else:
            if not sp.issparse(A):
                raise TypeMismatchError(
                    f"expected a scipy.sparse array or a cupyx.scipy.sparse matrix, "
                    f"got {type(A).__name__}"
                )
            if A.format != "csr":
                A = A.tocsr()  # a conversion: the one copy of the nonzeros libcsr makes
            xp = np
        if A.ndim != 2:
            raise DimensionMismatchError(f"expected a 2-D matrix, got shape {A.shape}")
        rows, cols = (int(n) for n in A.shape)
        data = A.data
        if np.iscomplexobj(data):
            raise UnsupportedError("complex matrices are not supported by libcsr")
        if data.dtype not in (np.float64, np.float32):
            data = data.astype(np.float64)  # integers and booleans: their values as doubles
        indices = A.indices
        if indices.dtype != np.int32:
            if indices.size and int(indices.max()) > np.iinfo(np.int32).max:
                raise UnsupportedError("column indices past 2^31 - 1 (libcsr's are 32-bit)")
            indices = indices.astype(np.int32)
        indptr = A.indptr
        if indptr.dtype not in (np.int32, np.int64):
            indptr = indptr.astype(np.int64)
        data, indices, indptr = (xp.ascontiguousarray(a) for a in (data, indices, indptr))
        # Reusable while A keeps these very arrays: nothing was converted (a converted copy would
        # not see later changes to A's values).
        self.in_place = all(
            _address(mine) == _address(theirs) and mine.dtype == theirs.dtype
            for mine, theirs in ((indptr, A.indptr), (indices, A.indices), (data, A.data))
        )

        self.device = device
        self.arrays = (indptr, indices, data)
        self.dtype = data.dtype
        self.shape = (rows, cols)
        self.spec = (
            rows,
            cols,
            int(A.nnz) if device else int(indptr[-1]),  # a device nnz costs no synchronisation
            _address(indptr),
            32 if indptr.dtype == np.int32 else 64,
            _address(indices),
            _address(data),
            _F64 if data.dtype == np.float64 else _F32,
            int(device),
            0,
        )
        self.handle = _core.Matrix(self.spec, _settings("auto", None, device))


def _fingerprint(A) -> tuple:
    """What must not change for a wrapped matrix to stand for A: its shape, its entry count and
    the identity and place of its three arrays."""
    arrays = (A.indptr, A.indices, A.data)
    return (A.shape, int(A.nnz)) + tuple((id(a), _address(a), a.dtype.str, a.size) for a in arrays)


# The wrapped matrix of each scipy or CuPy matrix met, kept while the matrix lives and its arrays
# stay the same (a product with a matrix used before then costs no wrap, no widening of 32-bit
# offsets and, on the GPU, no new row statistics). Keyed by id: sparse matrices are not
# hashable; a weak reference drops the entry when the matrix goes. Changing A.indptr in place,
# keeping the array, is the one change this does not see: libcsr.forget(A) drops what is kept.
_wrapped: dict = {}


def _drop(key: int, ref) -> None:
    entry = _wrapped.get(key)
    if entry is not None and entry[0] is ref:
        del _wrapped[key]


def _matrix(A) -> _Matrix:
    """A's _Matrix: the one kept for it when its arrays are unchanged, else a new one (kept when
    it uses A's arrays in place)."""
    if getattr(A, "format", None) != "csr":
        return _Matrix(A)  # converted to CSR on each call: nothing to keep
    fingerprint = _fingerprint(A)
    entry = _wrapped.get(id(A))
    if entry is not None and entry[0]() is A and entry[1] == fingerprint:
        return entry[2]
    M = _Matrix(A)
    if M.in_place:
        try:
            ref = weakref.ref(A, lambda r, key=id(A): _drop(key, r))
        except TypeError:  # not weak-referenceable: no reuse
            return M
        _wrapped[id(A)] = (ref, fingerprint, M)
    return M


def forget(A) -> None:
    """Drops what libcsr keeps for the matrix A (its wrapped arrays and, through them, the GPU
    kernel's statistics): needed only after changing A.indptr in place."""
    entry = _wrapped.get(id(A))
    if entry is not None and entry[0]() is A:
        del _wrapped[id(A)]


def _vector_spec(v, n: int, dtype, device: bool, what: str, out: bool = False):
    """(spec, array): v as a contiguous 1-D array of `dtype` where the matrix is (a device array
    that is not CuPy's viewed through CuPy, without a copy). An output (`out`) must be such an
    array already: it is written in place, never converted."""
    if device != _on_device(v):
        where = "a GPU array (CuPy's or another with __cuda_array_interface__)" if device else "a host array"
        raise LocationMismatchError(f"{what}: expected {where}, where the matrix is")
    xp = __import__("cupy") if device else np
    if out and not device and not isinstance(v, np.ndarray):
        raise TypeMismatchError(f"{what} must be a NumPy array: it is written in place")
    a = xp.asarray(v)  # a view of the same memory (through CuPy for a tensor)
    if out:
        if a.dtype != dtype or not a.flags.c_contiguous:
            raise TypeMismatchError(f"{what} must be a contiguous {np.dtype(dtype)} array, as A's values")
    else:
        a = xp.ascontiguousarray(a, dtype=dtype)
    if a.ndim != 1 or a.shape[0] != n:
        raise DimensionMismatchError(f"{what} has shape {tuple(a.shape)}: expected ({n},)")
    return (_address(a), n, _F64 if a.dtype == np.float64 else _F32, int(device)), a


def _empty(n: int, dtype, device: bool):
    xp = __import__("cupy") if device else np
    return xp.empty(n, dtype=dtype)


def _matrix_from(result, device: bool):
    """A scipy csr_array (host) or a cupyx csr_matrix (device) over the library's arrays."""
    if not device:
        rows, cols, nnz, indptr, indices, data, value_type, flags = result
        if data is None:
            data = np.ones(nnz)
        if nnz <= np.iinfo(np.int32).max:
            # scipy gives indptr and indices one dtype: int32 offsets (a copy of rows + 1
            # integers) keep the 32-bit indices as they are.
            indptr = indptr.astype(np.int32)
        M = sp.csr_array((data, indices, indptr), shape=(rows, cols))
        M.has_sorted_indices = bool(flags & 1)
        return M
    import cupy
    import cupyx.scipy.sparse as csp

    rows, cols, nnz, p_off, p_idx, p_val, value_type, flags, owner = result

    def device_array(ptr, n, dtype):
        if n == 0:
            return cupy.zeros(0, dtype=dtype)
        mem = cupy.cuda.UnownedMemory(ptr, n * np.dtype(dtype).itemsize, owner)
        return cupy.ndarray((n,), dtype=dtype, memptr=cupy.cuda.MemoryPointer(mem, 0))

    vdtype = np.float64 if value_type in (0, _F64) else np.float32
    data = device_array(p_val, nnz, vdtype) if value_type != 0 else cupy.ones(nnz, vdtype)
    indptr = device_array(p_off, rows + 1, np.int64)
    indices = device_array(p_idx, nnz, np.int32)
    return csp.csr_matrix((data, indices, indptr.astype(np.int32)), shape=(rows, cols))


# --- files ---------------------------------------------------------------------------------------


def read(
    path: Union[str, os.PathLike],
    *,
    format: Literal["csr", "coo"] = "csr",
    dtype: Optional[str] = None,
    keep_symmetry: bool = False,
    file_format: Literal["auto", "mm", "edges"] = "auto",
    threads: Optional[int] = None,
    return_info: bool = False,
):
    """Reads a Matrix Market file or an edge list (gzip-compressed or not; "-" is standard
    input) into a ``scipy.sparse.csr_array`` (duplicates summed, columns sorted) or, with
    ``format="coo"``, a ``coo_array`` of the entries in file order. ``dtype``: "float64"
    (default) or "float32" for the values; pattern files get values of 1.0. Symmetric files are
    expanded unless ``keep_symmetry``. Edge lists ("from to [weight]", 0-based, ``#``
    comments) are N x N with N the largest id + 1. ``file_format``: "auto" (by content, then
    by name, as the C reader), "mm" or "edges". The arrays are the ones libcsr parsed into (no
    copy but the 32-bit row offsets scipy wants). With ``return_info``, returns ``(A, info)``
    where info is a dict of what the file holds (format, field, symmetry, sizes, gzip).

    Raises :class:`FileFormatError` (path, line and what was expected), :class:`LibcsrIOError`
    (cannot open or read), :class:`UnsupportedError` (complex field), :class:`SizeOverflowError`.
    """
    if format not in ("csr", "coo"):
        raise InvalidValueError(f"format {format!r}: expected 'csr' or 'coo'")
    settings = _settings("auto", threads, False)
    result, info = _core.read(
        os.fspath(path),
        format == "coo",
        _code(_VALUE_TYPES, dtype, "dtype"),
        bool(keep_symmetry),
        _code(_FILE_FORMATS, file_format, "file_format"),
        settings,
    )
    if format == "csr":
        A = _matrix_from(result, False)
    else:
        rows, cols, nnz, r, c, data, value_type, flags = result
        if data is None:
            data = np.ones(nnz)
        A = sp.coo_array((data, (r, c)), shape=(rows, cols))
    return (A, info) if return_info else A


def write(
    path: Union[str, os.PathLike],
    A,
    *,
    file_format: Literal["auto", "mm", "edges"] = "auto",
    symmetric: bool = False,
    pattern: bool = False,
    integer: bool = False,
    gzip: Optional[bool] = None,
    gzip_level: int = 6,
    comment: Optional[str] = None,
    threads: Optional[int] = None,
) -> None:
    """Writes the host matrix A as Matrix Market coordinate text (values in the shortest form
    that reads back to the same bits) or, with ``file_format="edges"`` (or "auto" and a .txt,
    .el or .edges name), as an edge list. ``symmetric`` writes the lower triangle (A must be
    symmetric), ``pattern`` no values, ``integer`` integral values; ``gzip`` None: by the
    ".gz" ending."""
    M = _matrix(A)
    if M.device:
        raise UnsupportedError("write takes a host matrix: bring it over with .get() first")
    name = os.fspath(path)
    fmt = _code(_FILE_FORMATS, file_format, "file_format")
    stem = name[:-3] if name.endswith(".gz") else name
    edge_list = fmt == 2 or (fmt == 0 and stem.endswith((".txt", ".el", ".edges")))
    _core.write(
        name,
        M.handle,
        edge_list,
        bool(symmetric),
        bool(pattern),
        bool(integer),
        -1 if gzip is None else int(bool(gzip)),
        int(gzip_level),
        comment,
        _settings("auto", threads, False),
    )


def validate(A, *, threads: Optional[int] = None) -> None:
    """Checks A's CSR invariants (offsets from 0 to nnz, non-decreasing; columns in range) and
    raises :class:`InvalidMatrixError` or :class:`IndexOutOfBoundsError` naming the first
    violation. Operations trust them, as scipy's do: check a matrix built by hand first."""
    M = _matrix(A)
    _core.validate(M.handle, _settings("auto", threads, M.device))


# --- products ------------------------------------------------------------------------------------


def spmv(
    A,
    x,
    y=None,
    *,
    alpha: float = 1.0,
    beta: float = 0.0,
    backend: Optional[Backend] = None,
    threads: Optional[int] = None,
    stream=None,
):
    """Returns ``y = alpha * A @ x + beta * y`` (y new when not given; beta then must be 0).
    Each row is summed in double (float32 rows on the OpenMP backend: in float), in an order
    fixed by the matrix: the same bits every run.
    A, x, y on the host (NumPy) or all on the device (CuPy, on the current stream or
    ``stream``). x and y take A's value type (float64 or float32; others are converted)."""
    M = _matrix(A)
    xs, xa, ys, y = _spmv_operands(M, x, y, beta)
    _core.spmv(M.handle, xs, ys, float(alpha), float(beta), _settings(backend, threads, M.device, stream))
    return y


def _spmv_operands(M: _Matrix, x, y, beta: float):
    """x's spec and array (converted where it must be), y's spec and y (new when None)."""
    rows, cols = M.shape
    xs, xa = _vector_spec(x, cols, M.dtype, M.device, "x")
    if y is None:
        if beta != 0.0:
            raise InvalidValueError("beta != 0 needs y")
        y = _empty(rows, M.dtype, M.device)
    ys, _ = _vector_spec(y, rows, M.dtype, M.device, "y", out=True)
    return xs, xa, ys, y


class SpMVPlan:
    """Repeated products with one matrix (inspector-executor): the analysis (row statistics,
    the GPU kernel's choice, and with ``compress`` the 16-bit packed column index) is made once.
    A's arrays must not change shape while the plan lives (values may change: they are read in
    place); the plan keeps A alive.

    >>> plan = libcsr.SpMVPlan(A)
    >>> y = plan(x)            # or plan.run(x, y, alpha=..., beta=...)
    >>> plan.info["reason"]
    """

    def __init__(
        self,
        A,
        *,
        compress: Union[str, bool] = "auto",
        backend: Optional[Backend] = None,
        threads: Optional[int] = None,
        stream=None,
    ):
        self._M = _matrix(A)
        self._backend, self._threads = backend, threads
        self._plan = _core.SpmvPlan(
            self._M.handle,
            _code(_COMPRESS, compress, "compress"),
            _settings(backend, threads, self._M.device, stream),
        )

    @property
    def shape(self) -> Tuple[int, int]:
        return self._M.shape

    @property
    def info(self) -> dict:
        """Whether the column indices are packed, the bytes a product streams, and why."""
        return self._plan.describe()

    def run(self, x, y=None, *, alpha: float = 1.0, beta: float = 0.0, stream=None):
        """``y = alpha * A @ x + beta * y``, as :func:`spmv` computes it (the same bits)."""
        M = self._M
        xs, xa, ys, y = _spmv_operands(M, x, y, beta)
        self._plan.run(
            xs, ys, float(alpha), float(beta), _settings(self._backend, self._threads, M.device, stream)
        )
        return y

    __call__ = run


# --- statistics ----------------------------------------------------------------------------------


@dataclass
class RowStats:
    """Row-length statistics: ``histogram[b]`` counts rows of length in [2^(b-1), 2^b) (bin 0:
    empty rows)."""

    rows: int
    nnz: int
    longest: int
    empty_rows: int
    mean: float
    variance: float
    histogram: list = field(default_factory=list)


@dataclass
class KernelChoice:
    """The SpMV kernel libcsr's GPU backend runs for a matrix, and why."""

    kernel: str
    lanes: int
    forced: bool
    reason: str
    analysis_seconds: float
    stats: RowStats
    #: for short regular rows, the lines of x a step of the scalar kernel's warps touches per
    #: lane (sampled; above 0.25 the scalar kernel is not chosen); -1 when not needed
    gather_lines: float


def row_stats(A, *, threads: Optional[int] = None) -> RowStats:
    """Row-length statistics of A (on the GPU for a CuPy matrix)."""
    M = _matrix(A)
    return RowStats(**_core.row_stats(M.handle, _settings("auto", threads, M.device)))


def spmv_choice(A, *, kernel: Optional[str] = None) -> KernelChoice:
    """The kernel the GPU SpMV runs for A (``kernel`` forces one) and the figures that decided;
    for a host matrix, the choice the GPU would make."""
    M = _matrix(A)
    settings = list(_settings("auto", None, M.device))
    if kernel is not None:
        settings[2] = _code(_KERNELS, kernel, "kernel")
    d = _core.spmv_choice(M.handle, tuple(settings))
    d["stats"] = RowStats(**d["stats"])
    return KernelChoice(**d)


# --- graphs --------------------------------------------------------------------------------------


@dataclass
class PageRankInfo:
    converged: bool
    iterations: int
    l1_change: float
    dangling: int
    setup_seconds: float
    iterate_seconds: float
    packed: bool
    reordered: str
    reorder_seconds: float
    reorder_reason: str
    backend: str


def pagerank(
    A,
    *,
    damping: float = 0.85,
    tol: float = 1e-6,
    max_iter: int = 1000,
    weighted: bool = False,
    personalization=None,
    dtype=None,
    compress: Union[str, bool] = "auto",
    reorder: Optional[str] = "auto",
    backend: Optional[Backend] = None,
    threads: Optional[int] = None,
    stream=None,
    return_info: bool = False,
):
    """PageRank of the graph whose adjacency matrix is A (A[i, j] != 0: a link i -> j): the
    ranks (summing to 1) as a NumPy array, or a CuPy array for a CuPy A. Dangling pages spread
    their rank uniformly, as networkx and igraph do; the iteration stops when the L1 change is
    below ``tol``. ``weighted``: rank flows in proportion to the link values. ``personalization``:
    the teleport distribution (n nonnegative entries). ``dtype``: the iteration's precision
    (float64 default, or float32). With ``return_info``, returns ``(ranks, PageRankInfo)``;
    otherwise a run that does not converge warns (:class:`NotConvergedWarning`)."""
    M = _matrix(A)
    n = M.shape[0]
    rdtype = np.dtype(dtype) if dtype is not None else np.dtype(np.float64)
    if rdtype not in (np.float64, np.float32):
        raise InvalidValueError(f"dtype {dtype}: expected float64 or float32")
    ranks = _empty(n, rdtype, M.device)
    rs, _ = _vector_spec(ranks, n, rdtype, M.device, "ranks", out=True)
    teleport = None
    keep = None
    if personalization is not None:
        teleport, keep = _vector_spec(personalization, n, rdtype, M.device, "personalization")
    converged, info = _core.pagerank(
        M.handle,
        rs,
        float(damping),
        float(tol),
        int(max_iter),
        bool(weighted),
        teleport,
        _code(_COMPRESS, compress, "compress"),
        _code(_REORDER, reorder, "reorder"),
        _settings(backend, threads, M.device, stream),
    )
    del keep
    info = PageRankInfo(converged=converged, **info)
    if return_info:
        return ranks, info
    if not converged:
        warnings.warn(
            f"PageRank stopped after {info.iterations} iterations with an L1 change of "
            f"{info.l1_change:.3g}, above tol {tol:g}",
            NotConvergedWarning,
            stacklevel=2,
        )
    return ranks


# --- solvers -------------------------------------------------------------------------------------


@dataclass
class FactorInfo:
    kind: str
    n: int
    nnz_L: int
    nnz_U: int
    levels_L: int
    levels_U: int
    shift: float
    attempts: int
    device: bool


class Factor:
    """An incomplete factorization M ~ A (ILU(0), IC(0) or ILUT), made once and reused: as the
    preconditioner of :func:`solve` (``preconditioner=F``), or applied as ``F.solve(r)`` =
    M^-1 r."""

    def __init__(self, A, kind: str = "ilu0", **options):
        M = _matrix(A)
        self._device = M.device
        self._dtype = M.dtype
        self._n = M.shape[0]
        self._backend = options.pop("backend", None)
        self._threads = options.pop("threads", None)
        known = {"ordering", "reordering", "drop_tolerance", "fill_factor", "pivot_threshold", "shift"}
        unknown = set(options) - known
        if unknown:
            raise InvalidValueError(f"unknown factor options: {', '.join(sorted(unknown))}")
        self._factor = _core.Factor(
            M.handle,
            _code(_FACTOR_KINDS, kind, "kind"),
            _code(_FACTOR_ORDERINGS, options.get("ordering", "auto"), "ordering"),
            _code(_FACTOR_REORDERINGS, options.get("reordering", "auto"), "reordering"),
            float(options.get("drop_tolerance", 1e-4)),
            float(options.get("fill_factor", 10.0)),
            float(options.get("pivot_threshold", 0.1)),
            float(options.get("shift", -1.0)),
            _settings(self._backend, self._threads, M.device),
        )

    @property
    def info(self) -> FactorInfo:
        return FactorInfo(**self._factor.info())

    def solve(self, r, *, stream=None):
        """z = M^-1 r."""
        rs, ra = _vector_spec(r, self._n, self._dtype, self._device, "r")
        z = _empty(self._n, self._dtype, self._device)
        zs, _ = _vector_spec(z, self._n, self._dtype, self._device, "z", out=True)
        self._factor.apply(rs, zs, _settings(self._backend, self._threads, self._device, stream))
        return z


def factor(A, kind: str = "ilu0", **options) -> Factor:
    """:class:`Factor` of A: ``kind`` "ilu0", "ic0" or "ilut"; options ``ordering`` ("auto",
    "natural", "matching"), ``reordering`` ("auto", "none", "rcm"), ``drop_tolerance``,
    ``fill_factor``, ``pivot_threshold`` (ILUT) and ``shift`` (-1: automatic)."""
    return Factor(A, kind, **options)


@dataclass
class SolveInfo:
    converged: bool
    iterations: int
    residual_norm: float
    relative_residual: float
    stop: str
    packed: bool
    reordered: str
    reorder_seconds: float
    backend: str
    history: list = field(default_factory=list)


def solve(
    A,
    b,
    x0=None,
    *,
    method: Literal["cg", "pcg", "bicgstab", "gmres"] = "cg",
    preconditioner: Union[None, str, Factor] = None,
    rtol: float = 1e-8,
    atol: float = 0.0,
    max_iter: int = 0,
    restart: int = 30,
    compress: Union[str, bool] = "auto",
    reorder: Optional[str] = None,
    factor_options: Optional[dict] = None,
    history: int = 0,
    backend: Optional[Backend] = None,
    threads: Optional[int] = None,
    stream=None,
):
    """Solves A x = b; returns ``(x, SolveInfo)``. ``method``: "cg" (A symmetric positive
    definite), "pcg" (CG with Jacobi), "bicgstab", "gmres" (restarted every ``restart`` steps).
    ``preconditioner``: None, "jacobi", "ilu0", "ilut", "ic0" (made before the first iteration
    with ``factor_options``, see :func:`factor`), or a :class:`Factor` made earlier. Stops when
    ||b - A x|| <= max(rtol ||b||, atol); ``max_iter`` 0: max(10 n, 1000). ``reorder``: solve in
    a renumbered system ("rcm", ...; x comes back in A's numbering). ``history``: keep the first
    that many residual norms in ``info.history``. A solve that stops at ``max_iter`` returns with
    ``info.converged`` False (no exception); a breakdown or a singular A raises
    :class:`InvalidMatrixError`."""
    M = _matrix(A)
    n = M.shape[0]
    bs, ba = _vector_spec(b, n, M.dtype, M.device, "b")
    xp = __import__("cupy") if M.device else np
    x = xp.zeros(n, dtype=M.dtype) if x0 is None else xp.array(x0, dtype=M.dtype, copy=True)
    xs, _ = _vector_spec(x, n, M.dtype, M.device, "x0", out=True)
    o = _core.SolveOptions()
    o.method = _code(_METHODS, method, "method")
    prepared = None
    if isinstance(preconditioner, Factor):
        prepared = preconditioner._factor
        o.preconditioner = 5
    else:
        o.preconditioner = _code(_PRECONDITIONERS, preconditioner, "preconditioner")
    o.rtol, o.atol = float(rtol), float(atol)
    o.max_iter, o.restart = int(max_iter), int(restart)
    o.compress = _code(_COMPRESS, compress, "compress")
    o.reorder = _code(_REORDER, reorder, "reorder")
    fo = dict(factor_options or {})
    o.factor_ordering = _code(_FACTOR_ORDERINGS, fo.pop("ordering", "auto"), "ordering")
    o.factor_reordering = _code(_FACTOR_REORDERINGS, fo.pop("reordering", "auto"), "reordering")
    o.drop_tolerance = float(fo.pop("drop_tolerance", 1e-4))
    o.fill_factor = float(fo.pop("fill_factor", 10.0))
    o.pivot_threshold = float(fo.pop("pivot_threshold", 0.1))
    o.shift = float(fo.pop("shift", -1.0))
    if fo:
        raise InvalidValueError(f"unknown factor_options: {', '.join(sorted(fo))}")
    o.history_capacity = int(history)
    converged, info, hist = _core.solve(
        M.handle, bs, xs, o, prepared, _settings(backend, threads, M.device, stream)
    )
    return x, SolveInfo(converged=converged, history=hist, **info)


# --- reordering ----------------------------------------------------------------------------------


def reorder(
    A, method: str = "rcm", *, backend: Optional[Backend] = None, threads: Optional[int] = None
) -> np.ndarray:
    """A numbering of the square A's rows and columns that brings the entries a product reads
    together: ``perm`` (int32, NumPy) with ``perm[k]`` the old index of new position k, as
    ``scipy.sparse.csgraph.reverse_cuthill_mckee`` returns. ``method``: "rcm", "degree", "hub",
    "appearance", "auto", "none". ``permute(A, perm)`` applies it."""
    M = _matrix(A)
    return _core.reorder(M.handle, _code(_REORDER, method, "method"), _settings(backend, threads, M.device))


def permute(
    A,
    perm: Optional[Sequence[int]],
    cols: Union[str, None, Sequence[int]] = "same",
    *,
    backend: Optional[Backend] = None,
    threads: Optional[int] = None,
):
    """B = A[perm][:, cols] (``cols="same"``: the symmetric renumbering P A P'; None: columns
    kept), as a new matrix where A is. With columns permuted, B's rows are sorted."""
    M = _matrix(A)
    rows_order = None if perm is None else np.ascontiguousarray(_host(perm), dtype=np.int32)
    if isinstance(cols, str):
        if cols != "same":
            raise InvalidValueError(f"cols {cols!r}: expected 'same', None or a permutation")
        cols_order = rows_order
    else:
        cols_order = None if cols is None else np.ascontiguousarray(_host(cols), dtype=np.int32)
    result = _core.permute(
        M.handle,
        0 if rows_order is None else _address(rows_order),
        0 if cols_order is None else _address(cols_order),
        _settings(backend, threads, M.device),
    )
    return _matrix_from(result, M.device)


def _host(a):
    """A host copy of a device array (n integers: a permutation), or a as a NumPy array."""
    if _on_device(a):
        return __import__("cupy").asarray(a).get()
    return np.asarray(a)
