#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The Python package's tests (python/tests): builds the package into a virtual environment under
# the build directory, which sees the python3's own modules (numpy, scipy, networkx, pytest,
# scikit-build-core and nanobind, which scripts/setup-deps.sh installs), and runs pytest there.
# ctest runs it as the test python_package; by hand:
#
#   bash scripts/test-python.sh [BUILD_DIR] [pytest arguments]     # BUILD_DIR default: build
#
# The package is built as pip builds it, with the CUDA backend when nvcc is found (LIBCSR_CUDA
# ON, OFF or AUTO chooses): without a GPU its CUDA tests skip, but the CUDA build is still
# compiled and linked. The mminfo app of BUILD_DIR gives the C reader's outcomes.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "$root" && mkdir -p "${1:-build}" && cd "${1:-build}" && pwd)"
shift || true
venv="$build/python-venv"

export LIBCSR_CUDA="${LIBCSR_CUDA:-AUTO}"

[[ -x "$venv/bin/python" ]] || python3 -m venv --system-site-packages "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation --no-deps \
  -C "build-dir=$build/python-build" "$root/python"

export LIBCSR_MMINFO="$build/apps/mminfo"
cd "$root/python"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider tests "$@"
