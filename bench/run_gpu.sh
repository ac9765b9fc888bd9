#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Everything that needs the GPU, in one go on a machine with one: build for sm_90, run the
# gpu-labelled tests (tests/gpu_*.c, and tests/backend_*.c on the cuda backend), run them again
# under compute-sanitizer (memcheck, racecheck), then the GPU benchmarks. Logs go to $OUT when it
# is set, else to ./gpu-out.
#   usage: bash bench/run_gpu.sh [tests|sanitize|bench|factor|reorder|apps|mpi|all ...] (default all;
#   steps run in the order given; factor: the triangular-solve and ILU/IC time-to-solution
#   benchmarks on the stencils and the real matrices of CSR_FACTOR_MATRICES (file names in
#   CSR_MATRICES, default ../shared/matrices, else shared/matrices); apps: spmv, cg and pagerank
#   with --backend cuda, and bench/e2e_gpu.sh; reorder: csr_reorder's orders against cuSPARSE;
#   mpi: the distributed tests, GPU ranks sharing the GPU, also under compute-sanitizer: needs
#   an MPI on PATH, e.g. an Open MPI wheel's bin/ with OPAL_PREFIX set to its root)
#   Split a long run into several: the build directory (build-gpu) is kept, so later runs
#   rebuild only what changed.
#   CSR_GPU_TESTS (a regex over test names) and CSR_GPU_BENCH (a name glob) narrow the tests and
#   benches; CSR_GPU_LARGE=1 adds the tests labelled large (backend_large_*: nnz and lengths past
#   2^31, ~9 GB of device memory and a minute or more each) to the tests step.
#   Only the GPU tests and benchmarks are built (the rest of the tree is tested without a GPU).
set -uo pipefail
if [ "${1:-}" = prepare ]; then # on a machine with zlib's headers: copy them for the GPU machine
  mkdir -p .gpudeps/include && cp /usr/include/zlib.h /usr/include/zconf.h .gpudeps/include/
  exit 0
fi
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
build=build-gpu
status=0

step() { echo; echo "=== $* ==="; }

step "device"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/device.txt"

step "configure and build (sm_90)"
# Release, sm_90, the CUDA backend; zlib's headers from .gpudeps where the GPU machine lacks them.
source bench/gpu_configure.sh
cmake -S . -B "$build" "${gpu_configure_args[@]}" "${zlib_args[@]}" -DCSR_WARNINGS_AS_ERRORS=ON \
  >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
targets=()
for f in tests/gpu_*.c tests/backend_*.c bench/gpu_*.cu; do targets+=("$(basename "${f%.*}")"); done
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >"$out/build.log" 2>&1 ||
  { grep -E "error" "$out/build.log" | head -30; exit 1; }
echo "built"

run_tests() {
  step "gpu tests"
  local exclude=(-LE large)
  [ "${CSR_GPU_LARGE:-}" = 1 ] && exclude=()
  ctest --test-dir "$build" -L gpu "${exclude[@]}" -R "${CSR_GPU_TESTS:-.}" --output-on-failure \
    --timeout 240 -j 4 2>&1 | tee "$out/ctest-gpu.log" | tail -30
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}

# compute-sanitizer memcheck and racecheck on every GPU test (gpu_* and backend_* on cuda),
# CSR_SANITIZE_JOBS at a time (default 6), racecheck first (its runs are the longest): all 34 at
# once starved the slowest past their limit. CSR_GPU_QUICK / CSR_SKIP_LARGE: the tests skip their
# largest cases (instrumented kernels run ~100x slower). CSR_SANITIZE_TOOLS narrows the tools.
run_sanitize() {
  step "compute-sanitizer"
  local logs=() runs=()
  # "binary arguments" per run: the backend tier on the cuda backend; the longest tests one part
  # per process (racecheck of the whole test outlasted its limit): gpu_primitives' sections, the
  # backend tests' parts (csrt_part, tests/common/testing.h).
  local -A parts=([gpu_primitives]="scan compact sort histogram"
    [backend_primitives]="scan compact sort sort64 histogram"
    [backend_convert]="coo dense transpose edges" [backend_convert_sorted]="f64 f32 pattern long")
  local t base backend
  for t in "$build"/tests/gpu_* "$build"/tests/backend_*; do
    [ -x "$t" ] || continue
    base=$(basename "$t") backend=""
    [[ "$base" = backend_large_* ]] && continue
    [[ "$base" = backend_* ]] && backend=cuda
    if [ -n "${parts[$base]:-}" ]; then
      for part in ${parts[$base]}; do runs+=("$t $backend $part"); done
    else
      runs+=("$t $backend")
    fi
  done
  local jobs=${CSR_SANITIZE_JOBS:-6}
  for tool in ${CSR_SANITIZE_TOOLS:-racecheck memcheck}; do
    for run in "${runs[@]}"; do
      read -r t arg <<<"$run"
      name="$(basename "$t")${arg:+-${arg// /-}}"
      [[ "$name" =~ ${CSR_GPU_TESTS:-.} ]] || continue
      while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
      # memcheck: leaks too. racecheck: without cuSPARSE, whose own kernel (csrmv_v3) it
      # reports as racing on shared memory, so that what it finds is ours.
      extra="" skip=""
      [ "$tool" = memcheck ] && extra="--leak-check full"
      [ "$tool" = racecheck ] && skip=1
      log="$out/sanitize-$tool-$name.log"
      (began=$SECONDS
        CSR_GPU_SKIP_CUSPARSE=$skip CSR_GPU_QUICK=1 CSR_SKIP_LARGE=1 timeout "${CSR_SANITIZE_TIMEOUT:-280}" \
          compute-sanitizer --tool "$tool" $extra --error-exitcode 99 "$t" $arg >"$log" 2>&1
        rc=$?
        echo "seconds=$((SECONDS - began))" >>"$log"
        echo "rc=$rc" >>"$log"
        # Each run's line as it ends, so that a call cut short still shows the runs that ended.
        echo "$(basename "$log" .log): rc=$rc; $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|skipped|^seconds=" "$log" | tr '\n' ' ')") &
      logs+=("$log")
    done
  done
  wait
  local failed=0
  for log in "${logs[@]}"; do
    [ "$(tail -1 "$log")" = "rc=0" ] || { failed=$((failed + 1)); status=1; }
  done
  echo "compute-sanitizer: ${#logs[@]} runs, $failed failed"
}

run_bench() {
  step "gpu benchmarks"
  for b in "$build"/bench/${CSR_GPU_BENCH:-gpu_*}; do
    [ -x "$b" ] || continue
    timeout 300 "$b" --csv "$out/$(basename "$b").csv" ${CSR_BENCH_ARGS:-} 2>&1 | tee "$out/$(basename "$b").log" | tail -20
  done
}

# The factorization benchmarks (gpu_bench_spsv: csr_spsv on ILU(0)'s L and U against
# cusparseSpSV; gpu_bench_gmres: GMRES+ILU(0) and PCG+IC(0) time to solution against the same
# solvers built from cuSPARSE and cuBLAS) on their generated stencils and a few real matrices:
# square and real, west0067 for a zero diagonal (the MATCHING order), cage11 the largest.
run_factor() {
  step "factorization benchmarks"
  local dir=${CSR_MATRICES:-../shared/matrices} files=() f b
  [ -d "$dir" ] || dir=shared/matrices
  for f in ${CSR_FACTOR_MATRICES:-cage11.mtx.gz adder_dcop_05.mtx west0067.mtx 1138_bus.mtx bcsstk13.mtx}; do
    if [ -f "$dir/$f" ]; then files+=("$dir/$f"); else echo "no $dir/$f: left out"; fi
  done
  for b in gpu_bench_spsv gpu_bench_gmres; do
    # shellcheck disable=SC2053 # CSR_GPU_BENCH is a name glob, as in the bench step
    [[ "$b" == ${CSR_GPU_BENCH:-gpu_*} ]] || continue
    # shellcheck disable=SC2086 # CSR_BENCH_ARGS is several arguments
    timeout 300 "$build/bench/$b" --csv "$out/$b.csv" ${CSR_BENCH_ARGS:-} "${files[@]}" 2>&1 |
      tee "$out/$b.log" | tail -30
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  done
}

# The reordering benchmark (gpu_bench_reorder: csr_spmv on csr_reorder's orders against cuSPARSE
# on the matrix as given, each case also randomly relabelled), fp64 then fp32, on the graphs, a
# stencil, R-MAT and the solver matrices among the real ones (CSR_REORDER_CASES: name parts).
run_reorder() {
  step "reordering benchmark"
  local cases=${CSR_REORDER_CASES:-web-NotreDame,uk-2007,cnr-2000,rmat_22,poisson3d_7pt,cage11}
  for precision in "" --fp32; do
    # shellcheck disable=SC2086 # CSR_BENCH_ARGS is several arguments
    timeout 400 "$build/bench/gpu_bench_reorder" --cases "$cases" $precision \
      --csv "$out/gpu_bench_reorder${precision:+_fp32}.csv" ${CSR_BENCH_ARGS:-} 2>&1 |
      tee "$out/gpu_bench_reorder${precision:+_fp32}.log" | tail -40
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  done
}

# The apps with --backend cuda (the CSR built on the device): their GPU test cases, then the
# end-to-end benchmark on large files (bench/e2e_gpu.sh).
run_mpi() {
  step "mpi tests (1 to 4 ranks sharing the GPU)"
  local mpi_targets=()
  for f in tests/mpi/mpi_*.c; do
    [ "$f" = tests/mpi/mpi_testing.c ] || mpi_targets+=("$(basename "${f%.*}")")
  done
  cmake --build "$build" -j "$(nproc)" --target "${mpi_targets[@]}" >>"$out/build.log" 2>&1 ||
    { grep -E "error" "$out/build.log" | head -30; status=1; return; }
  ctest --test-dir "$build" -L mpi -R '^mpi_' --output-on-failure --timeout 300 -j 4 2>&1 |
    tee "$out/ctest-mpi.log" | tail -30
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  local launch=(mpiexec -n 2 --oversubscribe)
  [ "$(id -u)" = 0 ] && launch+=(--allow-run-as-root)
  for tool in memcheck racecheck; do
    "${launch[@]}" compute-sanitizer --tool "$tool" --error-exitcode 1 "$build/tests/mpi_gpu" \
      >"$out/sanitize-$tool-mpi_gpu.log" 2>&1
    local rc=$?
    echo "sanitize-$tool-mpi_gpu (2 ranks): rc=$rc; $(grep -E 'passed|SUMMARY' \
      "$out/sanitize-$tool-mpi_gpu.log" | tr '\n' ' ')"
    [ $rc -eq 0 ] || status=1
  done
}

run_apps() {
  step "apps on the GPU"
  cmake --build "$build" -j "$(nproc)" --target spmv cg pagerank make_mtx >"$out/build-apps.log" 2>&1 ||
    { grep -E "error" "$out/build-apps.log" | head -30; status=1; return; }
  for c in spmv_cuda spmv_cuda_oom; do
    bash tests/apps/run.sh "$c" "$build/apps" "$PWD" 2>&1 | tail -8
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  done
  bash tests/apps/cg.sh cuda "$build/apps" "$PWD" 2>&1 | tail -3
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  bash tests/apps/pagerank.sh cuda "$build/apps" "$PWD" 2>&1 | tail -3
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  python3 tests/apps/pagerank_igraph.py "$build/apps" "$PWD" cuda 2>&1 | tail -3
  case "${PIPESTATUS[0]}" in 0 | 77) ;; *) status=1 ;; esac # 77: skipped (no ../shared beside)
  bash bench/e2e_gpu.sh "$build" || status=1
}

# The steps, in the order asked for.
for s in ${*:-all}; do
  case "$s" in
  tests) run_tests ;;
  sanitize) run_sanitize ;;
  bench) run_bench ;;
  factor) run_factor ;;
  reorder) run_reorder ;;
  apps) run_apps ;;
  mpi) run_mpi ;;
  all) run_tests; run_sanitize; run_bench; run_apps ;;
  *) echo "unknown step $s"; status=1 ;;
  esac
done
# The logs in one archive (one file to copy off the GPU machine); the CSVs stay as they are.
if compgen -G "$out/*.log" >/dev/null; then
  (cd "$out" && tar czf logs.tar.gz ./*.log && rm -f ./*.log)
  echo "logs: $out/logs.tar.gz"
fi
echo; echo "run_gpu.sh: status $status"
exit $status
