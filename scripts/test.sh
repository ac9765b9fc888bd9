#!/usr/bin/env bash
# The test command of the README: installs missing build dependencies, configures build/ (with the
# CUDA backend when nvcc is found), builds with all cores and runs the whole ctest suite.
#
#   bash scripts/test.sh              # everything
#   bash scripts/test.sh -L unit      # extra arguments go to ctest (here: only the unit label)
#
# Environment: CSR_BUILD_DIR (default build), CSR_SKIP_SETUP_DEPS=1 (see setup-deps.sh).
# Exits non-zero when any step or any test fails. GPU tests report "skipped" without a device.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build_dir="${CSR_BUILD_DIR:-build}"
jobs="$(nproc 2>/dev/null || echo 2)"

bash scripts/setup-deps.sh

# CUDA backend: on when nvcc is on PATH or at the toolkit's usual place, off otherwise. Hopper
# (sm_90) is the target architecture; override by configuring build/ yourself.
cmake_args=(-S . -B "$build_dir" -DCSR_WARNINGS_AS_ERRORS=ON)
nvcc="$(command -v nvcc || true)"
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then
  nvcc=/usr/local/cuda/bin/nvcc
fi
if [[ -n "$nvcc" ]]; then
  echo "test.sh: CUDA backend on ($nvcc)"
  cmake_args+=(-DCSR_WITH_CUDA=ON "-DCMAKE_CUDA_COMPILER=$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90)
else
  echo "test.sh: nvcc not found, CUDA backend off"
  cmake_args+=(-DCSR_WITH_CUDA=OFF)
fi

cmake "${cmake_args[@]}"
cmake --build "$build_dir" --parallel "$jobs"
ctest --test-dir "$build_dir" --output-on-failure --parallel "$jobs" "$@"
