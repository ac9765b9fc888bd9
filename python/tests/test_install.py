# SPDX-License-Identifier: BSD-3-Clause
"""The package as a user gets it: `pip install ./python` into a fresh virtual environment (its
build requirements, numpy and scipy fetched as pip fetches them), then used from outside the
repository. Slow (a build from nothing); LIBCSR_SKIP_INSTALL_TEST=1 skips it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import REPO

SCRIPT = """
import libcsr, numpy as np, scipy.sparse as sp
A = libcsr.read({path!r})
assert isinstance(A, sp.csr_array) and A.shape == (1138, 1138)
y = libcsr.spmv(A, np.ones(1138))
assert abs(y - A @ np.ones(1138)).max() < 1e-12
x, info = libcsr.solve(A, y, method="cg", preconditioner="ic0")
assert info.converged
try:
    libcsr.read({bad!r})
except libcsr.FileFormatError as e:
    assert e.line == 2, e
print("installed package works:", libcsr.__file__)
"""


@pytest.mark.skipif(os.environ.get("LIBCSR_SKIP_INSTALL_TEST") == "1", reason="asked to skip")
def test_pip_install_in_fresh_venv(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    env = dict(os.environ)  # LIBCSR_CUDA, if set, chooses the CUDA backend as for any install
    env.pop("PYTHONPATH", None)
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
         "-C", f"build-dir={tmp_path / 'build'}", str(REPO / "python")],
        env=env, capture_output=True, text=True, timeout=1800)
    assert install.returncode == 0, install.stdout[-2000:] + install.stderr[-4000:]
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate real general\n2 2 one\n")
    script = SCRIPT.format(path=str(REPO / "matrices" / "1138_bus.mtx"), bad=str(bad))
    run = subprocess.run([str(python), "-c", script], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert str(venv) in run.stdout  # the installed copy, not the source tree
