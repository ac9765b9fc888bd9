#!/usr/bin/env bash
# Configures a build directory the way the test and demo commands use it: warnings as errors, and
# the CUDA backend when nvcc is on PATH or at /usr/local/cuda/bin/nvcc (sm_90), off otherwise.
#
#   bash scripts/configure.sh [BUILD_DIR] [extra cmake arguments...]
#
# BUILD_DIR defaults to $CSR_BUILD_DIR or build. Prints "<caller>: CUDA backend on (...)" or
# "... nvcc not found, CUDA backend off", the caller's name taken from CSR_CONFIGURE_TAG.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build_dir="${1:-${CSR_BUILD_DIR:-build}}"
shift || true
tag="${CSR_CONFIGURE_TAG:-configure.sh}"

# CUDA backend: on when nvcc is on PATH or at the toolkit's usual place, off otherwise. Hopper
# (sm_90) is the target architecture; override by configuring the build directory yourself.
cmake_args=(-S . -B "$build_dir" -DCSR_WARNINGS_AS_ERRORS=ON)
nvcc="$(command -v nvcc || true)"
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then
  nvcc=/usr/local/cuda/bin/nvcc
fi
if [[ -n "$nvcc" ]]; then
  echo "$tag: CUDA backend on ($nvcc)"
  cmake_args+=(-DCSR_WITH_CUDA=ON "-DCMAKE_CUDA_COMPILER=$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90)
else
  echo "$tag: nvcc not found, CUDA backend off"
  cmake_args+=(-DCSR_WITH_CUDA=OFF)
fi

cmake "${cmake_args[@]}" "$@"
