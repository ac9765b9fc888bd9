#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's "run the main job" command: installs what building needs (setup-deps.sh build),
# configures build/ as the test command does (scripts/configure.sh: the CUDA backend when nvcc is
# found, built for the GPU present), builds every app, then runs libcsr's two main jobs on data
# bundled in matrices/:
#   - spmv --validate: y = A*x timed against a copy bandwidth measured in the same run, checked
#     row by row against the reference backend; on the GPU when one is present;
#   - pagerank: the most important pages of a real web graph (Notre Dame, SNAP: 325729 pages,
#     1.5 million links);
# and prints what to try next.
#
#   bash scripts/demo.sh [MATRIX [GRAPH]]   # defaults matrices/1138_bus.mtx and
#                                           # matrices/web-NotreDame.txt.gz
#
# Environment: CSR_BUILD_DIR (default build), CSR_SKIP_SETUP_DEPS=1 (see setup-deps.sh).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build_dir="${CSR_BUILD_DIR:-build}"
jobs="$(nproc 2>/dev/null || echo 2)"
matrix="${1:-matrices/1138_bus.mtx}"
graph="${2:-matrices/web-NotreDame.txt.gz}"

bash scripts/setup-deps.sh build
CSR_CONFIGURE_TAG=demo.sh bash scripts/configure.sh "$build_dir"
# Every app (and the library they link): the test suite is scripts/test.sh's business.
apps=(mminfo mmconvert spmv pagerank cg spy)
cmake --build "$build_dir" --parallel "$jobs" --target "${apps[@]}"
bin="$build_dir/apps"

# Shows a command, then runs it.
run() {
  echo
  echo "== $*"
  "$@"
}

gpu=0
if "$bin/spmv" --version | grep -E "^backends compiled in:.*\bcuda\b" >/dev/null &&
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  gpu=1
fi
rc=3
if [[ $gpu == 1 ]]; then
  rc=0
  run "$bin/spmv" "$matrix" --backend cuda --validate || rc=$?
  [[ $rc == 0 || $rc == 3 ]] || exit "$rc"
  [[ $rc == 3 ]] && echo "demo.sh: the GPU could not run it (exit 3 above); on the CPU instead"
fi
[[ $rc == 3 ]] && run "$bin/spmv" "$matrix" --validate
run "$bin/pagerank" "$graph" --top 10

echo
echo "Next, try (each app explains itself with --help):"
next() { printf '  %-58s %s\n' "$1" "$2"; }
next "$bin/mminfo matrices/bcsstk16.mtx.gz" "what a file holds, row lengths"
next "$bin/cg matrices/bcsstk16.mtx.gz --method pcg" "solve A x = b (b = A * ones)"
next "$bin/spy matrices/bcsstk16.mtx.gz" "a picture of the matrix (in a new /tmp dir)"
next "$bin/pagerank $graph --json" "the ranks as JSON"
next "$bin/mmconvert matrices/1138_bus.mtx /tmp/bus.txt" "Matrix Market to an edge list"
next "bash scripts/test.sh" "build and run every test"
