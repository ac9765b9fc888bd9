#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Configures a build directory the way the test and demo commands use it: warnings as errors, and
# the CUDA backend when nvcc is on PATH or at /usr/local/cuda/bin/nvcc, off otherwise; built for
# the GPU architecture you chose, else the GPU present, else sm_90.
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

# CUDA backend: on when nvcc is on PATH or at the toolkit's usual place, off otherwise. The GPU
# architecture: one you chose stays (-DCMAKE_CUDA_ARCHITECTURES=... among the arguments, CMake's
# CUDAARCHS variable, or a value already in the build directory's cache); else the GPU present
# ("native": CMake asks the device), else Hopper (sm_90), the H100 and H200.
cmake_args=(-S . -B "$build_dir" -DCSR_WARNINGS_AS_ERRORS=ON)
nvcc="$(command -v nvcc || true)"
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then
  nvcc=/usr/local/cuda/bin/nvcc
fi
arch_chosen=0
for arg in "$@"; do
  [[ "$arg" == -DCMAKE_CUDA_ARCHITECTURES=* ]] && arch_chosen=1
done
[[ -n "${CUDAARCHS:-}" ]] && arch_chosen=1
grep -q '^CMAKE_CUDA_ARCHITECTURES:' "$build_dir/CMakeCache.txt" 2>/dev/null && arch_chosen=1
if [[ -n "$nvcc" ]]; then
  cmake_args+=(-DCSR_WITH_CUDA=ON "-DCMAKE_CUDA_COMPILER=$nvcc")
  arch="as chosen"
  if [[ $arch_chosen == 0 ]]; then
    arch=90
    command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && arch=native
    cmake_args+=("-DCMAKE_CUDA_ARCHITECTURES=$arch")
  fi
  echo "$tag: CUDA backend on ($nvcc, GPU architecture $arch)"
else
  echo "$tag: nvcc not found, CUDA backend off"
  cmake_args+=(-DCSR_WITH_CUDA=OFF)
fi

cmake "${cmake_args[@]}" "$@"
