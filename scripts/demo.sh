#!/usr/bin/env bash
# The README's "run the main job" command: installs missing Debian packages, configures and
# builds build/ like scripts/test.sh (scripts/configure.sh: CUDA backend when nvcc is found), then
# runs the apps on a bundled matrix: mminfo (what the file holds) and spmv --validate (y = A*x
# timed, against a copy bandwidth measured in the same run, checked row by row against the
# reference backend). The GPU is tried when one is present; the CPU runs otherwise, or when the
# GPU SpMV is not available yet.
#
#   bash scripts/demo.sh [MATRIX]     # default matrices/1138_bus.mtx
#
# Environment: CSR_BUILD_DIR (default build), CSR_SKIP_SETUP_DEPS=1 (see setup-deps.sh).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build_dir="${CSR_BUILD_DIR:-build}"
jobs="$(nproc 2>/dev/null || echo 2)"
matrix="${1:-matrices/1138_bus.mtx}"

bash scripts/setup-deps.sh
CSR_CONFIGURE_TAG=demo.sh bash scripts/configure.sh "$build_dir"
# Only the apps (and the library they link): the test suite is scripts/test.sh's business.
cmake --build "$build_dir" --parallel "$jobs" --target mminfo mmconvert spmv
apps="$build_dir/apps"

echo
echo "== $apps/mminfo $matrix"
"$apps/mminfo" "$matrix"

gpu=0
if "$apps/spmv" --version | grep -E "^backends compiled in:.*\bcuda\b" >/dev/null &&
  command -v nvidia-smi >/dev/null 2>&1 &&
  nvidia-smi -L >/dev/null 2>&1; then
  gpu=1
fi
if [[ $gpu == 1 ]]; then
  echo
  echo "== $apps/spmv $matrix --backend cuda --validate"
  rc=0
  "$apps/spmv" "$matrix" --backend cuda --validate || rc=$?
  if [[ $rc == 0 ]]; then
    exit 0
  elif [[ $rc != 3 ]]; then
    exit "$rc"
  fi
  echo "demo.sh: no GPU SpMV to run (exit 3 above); running on the CPU instead"
fi
echo
echo "== $apps/spmv $matrix --validate"
"$apps/spmv" "$matrix" --validate
