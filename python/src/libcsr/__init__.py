# SPDX-License-Identifier: BSD-3-Clause
"""libcsr from Python: Matrix Market and edge-list files, SpMV, Krylov solvers with incomplete
factorizations, PageRank and reordering, on scipy.sparse arrays (CPU) and CuPy arrays (GPU).

Matrices go in as ``scipy.sparse`` CSR arrays or matrices (other formats are converted with
``tocsr()``) or ``cupyx.scipy.sparse.csr_matrix``; vectors as NumPy or CuPy arrays. Their nonzeros
are never copied: libcsr reads the caller's ``indices`` and ``data`` where they lie (and 64-bit
``indptr`` too; 32-bit ``indptr`` is widened into a copy of the row offsets alone, 4 bytes a row).
Device work runs on CuPy's current stream. Every call releases the GIL while libcsr works.

Errors raise subclasses of :class:`libcsr.Error` that are also the matching built-in exceptions:
a malformed file raises :class:`FileFormatError` (a ``ValueError``) whose message names the file,
the line and what was expected.
"""

from __future__ import annotations

from ._api import (
    FactorInfo,
    Factor,
    KernelChoice,
    NotConvergedWarning,
    PageRankInfo,
    RowStats,
    SolveInfo,
    SpMVPlan,
    build_info,
    configure,
    factor,
    forget,
    pagerank,
    permute,
    read,
    reorder,
    row_stats,
    solve,
    spmv,
    spmv_choice,
    validate,
    write,
)
from ._errors import (
    DeviceError,
    DimensionMismatchError,
    Error,
    FileFormatError,
    IndexOutOfBoundsError,
    InvalidMatrixError,
    InvalidValueError,
    LibcsrFileNotFoundError,
    LibcsrIOError,
    LibcsrMemoryError,
    LocationMismatchError,
    NotCompiledError,
    SizeOverflowError,
    TypeMismatchError,
    UnsupportedError,
)

__version__ = "0.1.0"

__all__ = [
    "DeviceError",
    "DimensionMismatchError",
    "Error",
    "Factor",
    "FactorInfo",
    "FileFormatError",
    "IndexOutOfBoundsError",
    "InvalidMatrixError",
    "InvalidValueError",
    "KernelChoice",
    "LibcsrFileNotFoundError",
    "LibcsrIOError",
    "LibcsrMemoryError",
    "LocationMismatchError",
    "NotCompiledError",
    "NotConvergedWarning",
    "PageRankInfo",
    "RowStats",
    "SizeOverflowError",
    "SolveInfo",
    "SpMVPlan",
    "TypeMismatchError",
    "UnsupportedError",
    "build_info",
    "configure",
    "factor",
    "forget",
    "pagerank",
    "permute",
    "read",
    "reorder",
    "row_stats",
    "solve",
    "spmv",
    "spmv_choice",
    "validate",
    "write",
]
