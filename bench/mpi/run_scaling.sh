#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The distributed scaling benchmark: libcsr (mpi_scaling) and PETSc (petsc_scaling, MatMult and
# KSPCG on an MPIAIJ matrix) on the same matrices, the same ranks and the same row split, in one
# run, with the copy bandwidth at each rank count. CSV on standard output (the columns of
# mpi_scaling.c) and into $OUT/scaling.csv when OUT is set.
#
#   PETSC_DIR=... bash bench/mpi/run_scaling.sh [BUILD_DIR]
#
# MPI: the mpicc and mpiexec on PATH (an Open MPI wheel's bin/ works: set OPAL_PREFIX to its
# root). PETSC_DIR: an installed PETSc built with that MPI (without it, libcsr's side alone).
# CSR_SCALING_RANKS (default "1 2 4 8 16"), CSR_SCALING_STENCIL (side of the strong-scaling
# grid, default 128), CSR_SCALING_WEAK (side per rank, default 64), CSR_SCALING_FILE and
# CSR_SCALING_COPIES (a real matrix replicated down the diagonal; none by default),
# CSR_SCALING_CASES (which of strong, weak, file to run; default all three, file when given), and
# CSR_SCALING_HEADER=0 (no header line: for a run split into several).
set -euo pipefail
build="${1:-build-scaling}"
ranks="${CSR_SCALING_RANKS:-1 2 4 8 16}"
out="${OUT:-}"
cmake -S . -B "$build" -DCSR_WITH_CUDA=OFF -DCSR_BUILD_TESTS=OFF -DCSR_BUILD_APPS=OFF \
  -DCSR_WITH_MPI=ON -DMPI_C_COMPILER="$(command -v mpicc)" >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target mpi_scaling >/dev/null
runs=("$build/bench/mpi_scaling")
if [ -n "${PETSC_DIR:-}" ]; then
  mpicc -O3 bench/mpi/petsc_scaling.c -I"$PETSC_DIR/include" -L"$PETSC_DIR/lib" -lpetsc \
    -Wl,-rpath,"$PETSC_DIR/lib" -lm -o "$build/petsc_scaling"
  runs+=("$build/petsc_scaling")
fi
launch=(mpiexec --bind-to core --map-by core)
[ "$(id -u)" = 0 ] && launch+=(--allow-run-as-root)
wanted="${CSR_SCALING_CASES:-strong weak file}"
cases=()
[[ " $wanted " == *" strong "* ]] && cases+=("--stencil ${CSR_SCALING_STENCIL:-128}")
[[ " $wanted " == *" weak "* ]] && cases+=("--stencil ${CSR_SCALING_WEAK:-64} --weak")
[[ " $wanted " == *" file "* ]] && [ -n "${CSR_SCALING_FILE:-}" ] &&
  cases+=("--file $CSR_SCALING_FILE --copies ${CSR_SCALING_COPIES:-16}")
if [ "${CSR_SCALING_HEADER:-1}" != 0 ]; then
  echo "library,case,ranks,rows,nnz,spmv_seconds,spmv_gbs,cg_iteration_seconds,copy_gbs" |
    tee ${out:+"$out/scaling.csv"}
fi
for c in "${cases[@]}"; do
  for p in $ranks; do
    for exe in "${runs[@]}"; do
      # shellcheck disable=SC2086 # a case is several arguments
      OMP_NUM_THREADS=1 "${launch[@]}" -n "$p" "$exe" $c --reps 12 --iters 10 |
        tee ${out:+-a "$out/scaling.csv"}
    done
  done
done
