#!/usr/bin/env bash
# Everything that needs the GPU, in one call of the lent device: build for sm_90, run the
# gpu-labelled tests, run them again under compute-sanitizer (memcheck, racecheck), then the GPU
# benchmarks that exist. Logs go to $OUT (the device tool brings them back) or to ./gpu-out.
#   usage: bash bench/run_gpu.sh [tests|sanitize|bench|all ...]   (default all; steps run in the
#   order given)
#   One device call lasts at most 10 minutes: split a long session into several calls (the build
#   directory stays on a warm machine, so later calls rebuild only what changed).
#   CSR_GPU_TESTS (a ctest -R regex) and CSR_GPU_BENCH (a name glob) narrow the tests and benches.
#   Only the GPU tests and benchmarks are built (the rest of the tree is tested without a GPU).
set -uo pipefail
if [ "${1:-}" = prepare ]; then # on the build machine: what the device needs beside the tree
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
# The device image may lack zlib's headers: use the copy carried in .gpudeps (bash
# bench/run_gpu.sh prepare, on the build machine) with the image's own libz.so.1.
zlib_args=()
if [ ! -f /usr/include/zlib.h ] && [ -f .gpudeps/include/zlib.h ]; then
  libz=$(ls /lib/x86_64-linux-gnu/libz.so.1 /usr/lib/x86_64-linux-gnu/libz.so.1 /usr/lib64/libz.so.1 2>/dev/null | head -1)
  zlib_args=(-DZLIB_INCLUDE_DIR="$PWD/.gpudeps/include" -DZLIB_LIBRARY="$libz")
  echo "using carried zlib headers with $libz"
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${zlib_args[@]}" \
  -DCSR_WITH_CUDA=ON -DCSR_WARNINGS_AS_ERRORS=ON >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
targets=()
for f in tests/gpu_*.c bench/gpu_*.cu; do targets+=("$(basename "${f%.*}")"); done
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >"$out/build.log" 2>&1 ||
  { grep -E "error" "$out/build.log" | head -30; exit 1; }
echo "built"

run_tests() {
  step "gpu tests"
  ctest --test-dir "$build" -L gpu -R "${CSR_GPU_TESTS:-.}" --output-on-failure --timeout 240 2>&1 |
    tee "$out/ctest-gpu.log" | tail -25
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}

# compute-sanitizer memcheck and racecheck on every GPU test, all at once (one GPU is plenty).
# CSR_GPU_QUICK / CSR_SKIP_LARGE: the tests skip their largest cases (instrumented kernels run
# ~100x slower).
run_sanitize() {
  step "compute-sanitizer"
  local logs=()
  for t in "$build"/tests/gpu_*; do
    [[ "$(basename "$t")" =~ ${CSR_GPU_TESTS:-.} ]] || continue
    [ -x "$t" ] || continue
    # gpu_primitives runs one section per process (racecheck of the whole test outlasted 240 s).
    sections=("")
    [ "$(basename "$t")" = gpu_primitives ] && sections=(scan compact sort histogram)
    for section in "${sections[@]}"; do
      for tool in memcheck racecheck; do
        # memcheck: leaks too. racecheck: without cuSPARSE, whose own kernel (csrmv_v3) it
        # reports as racing on shared memory, so that what it finds is ours.
        extra="" skip=""
        [ "$tool" = memcheck ] && extra="--leak-check full"
        [ "$tool" = racecheck ] && skip=1
        log="$out/sanitize-$tool-$(basename "$t")${section:+-$section}.log"
        (CSR_GPU_SKIP_CUSPARSE=$skip CSR_GPU_QUICK=1 CSR_SKIP_LARGE=1 timeout 280 compute-sanitizer --tool "$tool" $extra \
          --error-exitcode 99 "$t" $section >"$log" 2>&1; echo "rc=$?" >>"$log") &
        logs+=("$log")
      done
    done
  done
  wait
  for log in "${logs[@]}"; do
    rc=$(tail -1 "$log")
    echo "$(basename "$log" .log): $rc; $(grep -E "ERROR SUMMARY|passed|skipped" "$log" | tr '\n' ' ')"
    [ "$rc" = "rc=0" ] || status=1
  done
}

run_bench() {
  step "gpu benchmarks"
  for b in "$build"/bench/${CSR_GPU_BENCH:-gpu_*}; do
    [ -x "$b" ] || continue
    timeout 300 "$b" --csv "$out/$(basename "$b").csv" ${CSR_BENCH_ARGS:-} 2>&1 | tee "$out/$(basename "$b").log" | tail -20
  done
}

# The steps, in the order asked for.
for s in ${*:-all}; do
  case "$s" in
  tests) run_tests ;;
  sanitize) run_sanitize ;;
  bench) run_bench ;;
  all) run_tests; run_sanitize; run_bench ;;
  *) echo "unknown step $s"; status=1 ;;
  esac
done
echo; echo "run_gpu.sh: status $status"
exit $status
