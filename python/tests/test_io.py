# SPDX-License-Identifier: BSD-3-Clause
"""read and write: every file of ../shared/matrices and ../shared/mmtests gets the C reader's
outcome (the mminfo app's, where it was built) and, where scipy reads it too, scipy's matrix;
write -> read round trips; the arrays returned are libcsr's, not copies; errors name the file
and the line."""

from __future__ import annotations

import gzip
import json
import subprocess

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import libcsr
from conftest import mminfo_app, random_csr, shared_files

CORPUS = shared_files("matrices") + shared_files("mmtests")


def c_reader_outcome(path) -> tuple[bool, str, dict]:
    """(ok, message, json) of the C reader on path, through the mminfo app."""
    app = mminfo_app()
    if app is None:
        pytest.skip("no mminfo app built (the C reader's outcome): build the C library first")
    run = subprocess.run([app, "--json", str(path)], capture_output=True, text=True, timeout=300)
    if run.returncode == 0:
        return True, "", json.loads(run.stdout)
    message = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ""
    return False, message.removeprefix("mminfo: "), {}


def scipy_matrix(path):
    """scipy.io.mmread's matrix as a dense or CSR array, or None where scipy refuses the file."""
    if not path.name.endswith((".mtx", ".mtx.gz", ".mm")):
        return None
    try:
        M = scipy.io.mmread(str(path))
    except Exception:
        return None
    return sp.csr_array(M) if not sp.issparse(M) else M.tocsr()


@pytest.mark.skipif(not CORPUS, reason="../shared is not beside the repository")
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_corpus_file(path):
    ok, message, info = c_reader_outcome(path)
    try:
        A, finfo = libcsr.read(path, return_info=True)
    except libcsr.Error as e:
        assert not ok, f"libcsr.read refused a file the C reader reads: {e}"
        assert e.message == message, "the exception's message is not the C reader's"
        if isinstance(e, libcsr.FileFormatError):
            assert e.path == str(path) and e.line is not None and e.line >= 1
        return
    assert ok, f"libcsr.read accepted a file the C reader refuses ({message})"
    assert A.shape == (info["rows"], info["cols"])
    assert A.nnz == info["nnz"]
    assert finfo["stored_entries"] == info["stored_entries"]
    assert A.has_sorted_indices
    S = scipy_matrix(path)
    if S is None or np.iscomplexobj(S.data):
        return
    assert S.shape == A.shape
    # Both readers round every value correctly, so the sums of duplicates match; integers past
    # 2^53 are compared as the doubles libcsr holds.
    D = (A - sp.csr_array(S, dtype=np.float64)).tocsr()
    D.eliminate_zeros()
    assert D.nnz == 0, f"{D.nnz} entries differ from scipy.io.mmread's"


def test_read_returns_library_arrays(tmp_path):
    A = random_csr(300, 200, 0.05)
    path = tmp_path / "a.mtx"
    libcsr.write(path, A)
    B = libcsr.read(path)
    # Not owned by NumPy: views over the arrays libcsr parsed into (the 64-bit row offsets were
    # narrowed to scipy's 32 bits: the one copy, of rows + 1 integers).
    assert not B.indices.flags.owndata and not B.data.flags.owndata
    assert B.indices.base is not None and B.data.base is not None
    assert B.indptr.dtype == np.int32 and B.indices.dtype == np.int32
    assert (B != A).nnz == 0
    del A, B  # the capsule frees the matrix once both arrays are gone (ASan checks it in C)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_round_trip_bits(tmp_path, dtype):
    A = random_csr(500, 400, 0.02, dtype=np.dtype(dtype), seed=3)
    for name in ("a.mtx", "a.mtx.gz", "a.txt", "a.txt.gz"):
        path = tmp_path / name
        libcsr.write(path, A, comment="written by the test")
        B = libcsr.read(path, dtype=dtype)
        if name.startswith("a.txt"):
            # An edge list is N x N, N the largest id + 1.
            n = max(A.indices.max(), np.nonzero(np.diff(A.indptr))[0].max()) + 1
            assert B.shape == (n, n)
            B = B[: A.shape[0], : A.shape[1]] if n >= max(A.shape) else B
        assert B.dtype == np.dtype(dtype)
        assert np.array_equal(B.indptr[: A.shape[0] + 1], A.indptr)
        assert np.array_equal(B.indices, A.indices)
        assert np.array_equal(B.data.view(np.uint8), A.data.view(np.uint8)), name
    with gzip.open(tmp_path / "a.mtx.gz", "rt") as f:
        assert f.readline().startswith("%%MatrixMarket matrix coordinate real general")


def test_symmetric_pattern_and_coo(tmp_path):
    S = random_csr(60, 60, 0.1, seed=5)
    S = (S + S.T).tocsr()
    path = tmp_path / "s.mtx"
    libcsr.write(path, S, symmetric=True)
    assert "symmetric" in path.read_text().splitlines()[0]
    full = libcsr.read(path)
    assert (full != S).nnz == 0
    lower = libcsr.read(path, keep_symmetry=True)
    assert lower.nnz == sp.tril(S).nnz
    T = libcsr.read(path, format="coo")
    assert isinstance(T, sp.coo_array) and T.nnz == 2 * lower.nnz - S.diagonal().astype(bool).sum()
    libcsr.write(tmp_path / "p.mtx", S, pattern=True)
    P = libcsr.read(tmp_path / "p.mtx")
    assert np.all(P.data == 1.0) and (P != (S != 0)).nnz == 0
    with pytest.raises(libcsr.InvalidMatrixError, match="not symmetric"):
        libcsr.write(tmp_path / "u.mtx", random_csr(5, 5, 0.5, seed=7), symmetric=True)


def test_parse_error_names_file_and_line(tmp_path):
    path = tmp_path / "bad.mtx"
    path.write_text("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n2 x 2.0\n")
    with pytest.raises(libcsr.FileFormatError) as raised:
        libcsr.read(path)
    e = raised.value
    assert isinstance(e, ValueError)
    assert e.path == str(path) and e.line == 4
    assert str(e).startswith(f"{path}:4: expected")
    assert e.status == "CSR_ERR_PARSE"


def test_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        libcsr.read(tmp_path / "missing.mtx")
    with pytest.raises(libcsr.LibcsrIOError):
        libcsr.read(tmp_path)  # a directory
    complex_file = tmp_path / "c.mtx"
    complex_file.write_text("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 2\n")
    with pytest.raises(libcsr.UnsupportedError):
        libcsr.read(complex_file)
    with pytest.raises(libcsr.InvalidValueError, match="format"):
        libcsr.read(complex_file, format="dense")
    with pytest.raises(libcsr.InvalidValueError, match="dtype"):
        libcsr.read(complex_file, dtype="int8")
    with pytest.raises(libcsr.TypeMismatchError):
        libcsr.write(tmp_path / "x.mtx", np.eye(3))
    with pytest.raises(libcsr.LibcsrIOError):
        libcsr.write(tmp_path / "no" / "dir" / "x.mtx", sp.eye_array(3, format="csr"))
