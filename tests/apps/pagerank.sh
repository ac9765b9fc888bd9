#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Tests of apps/pagerank, one case per ctest test (label apps):
#
#   bash tests/apps/pagerank.sh CASE APPS_DIR SOURCE_DIR
#
# CASE: help, usage, bad_input, cuda (here), or nx_karate, nx_dangling, nx_weighted,
# nx_personalization, nx_web (tests/apps/pagerank_check.py: ranks against networkx and the model).
# Exit 0 pass, 1 fail, 77 skipped (python3 or networkx missing; ../shared absent for nx_web).
set -euo pipefail

case_name=${1:?usage: pagerank.sh CASE APPS_DIR SOURCE_DIR}
apps=${2:?apps dir}
src=${3:?source dir}
app="$apps/pagerank"
karate="$src/matrices/karate.mtx"
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
exec </dev/null # no case reads standard input

case_help() {
  local version
  version=$(sed -n 's/^#define CSR_VERSION_STRING "\(.*\)"/\1/p' "$src/include/csr.h")
  run 0 "$app" --help
  for text in "Usage: pagerank GRAPH" "The model:" "Exit status: 0 success, 1 usage error, 2 bad input" \
    "r_i <- d * (sum_{j -> i} r_j a_ji / w_j + (sum of r_j over w_j = 0) / N)" "+ (1 - d) * p_i" \
    "spreads its rank" "the ranks sum to 1" "L1 change sum_i |r_i - r_i(previous)| < tol" \
    "max-iter iterations" "(4 + a)*links + 3*v*N" "--personalization F" "--weighted"; do
    contains "$tmp/out" "$text"
  done
  [[ ! -s "$tmp/err" ]] || fail "--help wrote to stderr"
  run 0 "$app" --version
  contains "$tmp/out" "pagerank (libcsr) $version"
  run 0 "$app" "$karate" --help # --help wins over the rest of the line
  contains "$tmp/out" "Usage: pagerank"
  echo "help: ok"
}

case_usage() {
  run 1 "$app"
  contains "$tmp/err" "missing GRAPH"
  contains "$tmp/err" "Try 'pagerank --help'"
  run 1 "$app" "$karate" "$karate"
  contains "$tmp/err" "one GRAPH only"
  # --max-iter, and --maxit as cg's old spelling.
  run 0 "$app" "$karate" --max-iter 3
  contains "$tmp/out" "max-iter 3,"
  contains "$tmp/out" "NOT converged after 3 iterations"
  run 0 "$app" "$karate" --maxit 4
  contains "$tmp/out" "NOT converged after 4 iterations"
  run 1 "$app" "$karate" --maxit 0
  run 1 "$app" "$karate" --frobnicate
  contains "$tmp/err" "unknown option '--frobnicate'"
  local bad
  for bad in "--damping 1" "--damping -0.1" "--damping x" "--damping 0.5x" "--damping nan" \
    "--tol 0" "--tol -1e-6" "--tol inf" "--max-iter 0" "--max-iter 1.5" "--top -1" \
    "--threads 0" "--threads 5000" "--backend gpu" "--precision f16" "--precision F64" \
    "--reorder sideways" "--compress yes"; do
    # shellcheck disable=SC2086 # split "--option value" on purpose
    run 1 "$app" "$karate" $bad
    contains "$tmp/err" "${bad%% *}"
    contains "$tmp/err" "must be"
  done
  run 1 "$app" "$karate" --output
  contains "$tmp/err" "option --output needs a value"
  run 1 "$app" "$karate" --personalization
  contains "$tmp/err" "option --personalization needs a value"
  # Accepted spellings: --name=value, and the bounds.
  run 0 "$app" "$karate" --damping=0 --tol=1 --max-iter=1 --top=0 --precision=f32
  run 0 "$app" "$karate" --top 1000 --threads 1
  [[ $(grep -c '^ *[0-9]\+ \+[0-9]\+ 0\.' "$tmp/out") == 34 ]] || fail "--top 1000 lists 34 pages"
  # Renumbered pages and packed columns: the ranks by the graph's own ids, within rounding of the
  # plain run's (the top ten in the same order), and the report says what ran and why.
  run 0 "$app" "$karate" --tol 1e-12 --reorder none --compress off
  grep '^ *[0-9]\+ \+[0-9]\+ 0\.' "$tmp/out" | awk '{print $2}' >"$tmp/plain.ids"
  local m
  for m in rcm degree hub appearance; do
    run 0 "$app" "$karate" --tol 1e-12 --reorder "$m" --compress on
    contains "$tmp/out" "order      $m: $m, as asked"
    contains "$tmp/out" "columns    packed in 16 bits"
    grep '^ *[0-9]\+ \+[0-9]\+ 0\.' "$tmp/out" | awk '{print $2}' >"$tmp/renumbered.ids"
    cmp -s "$tmp/plain.ids" "$tmp/renumbered.ids" || fail "--reorder $m changed the top ten"
  done
  run 0 "$app" "$karate"
  contains "$tmp/out" "order      none: "
  echo "usage: ok"
}

case_bad_input() {
  local missing="$tmp/no such dir/missing.mtx"
  run 2 "$app" "$missing" --verbose
  contains "$tmp/err" "$missing"
  contains "$tmp/err" "[CSR_ERR_IO at "
  printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.5\n2 x 2\n' >"$tmp/bad.mtx"
  run 2 "$app" "$tmp/bad.mtx" --verbose
  contains "$tmp/err" "$tmp/bad.mtx:4"
  contains "$tmp/err" "[CSR_ERR_PARSE at "
  # The library's refusals, passed on: not square, --weighted without values, negative weight.
  run 2 "$app" "$src/matrices/lp_share1b.mtx" --verbose
  contains "$tmp/err" "[CSR_ERR_DIMENSION_MISMATCH at "
  contains "$tmp/err" "square"
  run 2 "$app" "$karate" --weighted --verbose
  contains "$tmp/err" "[CSR_ERR_INVALID_VALUE at "
  printf '0 1 2.0\n1 2 -1.0\n2 0 1.0\n' >"$tmp/negative.el"
  run 2 "$app" "$tmp/negative.el" --weighted --verbose
  contains "$tmp/err" "[CSR_ERR_INVALID_VALUE at "
  run 0 "$app" "$tmp/negative.el" # unweighted: values ignored
  # --personalization: missing file, not a number (with its line), wrong count, negative, zero.
  run 2 "$app" "$karate" --personalization "$tmp/none.txt"
  contains "$tmp/err" "$tmp/none.txt"
  printf '# p\n1\n\n2\nx3\n' >"$tmp/p_text.txt"
  run 2 "$app" "$tmp/negative.el" --personalization "$tmp/p_text.txt"
  contains "$tmp/err" "$tmp/p_text.txt:5: expected a number, found 'x3'"
  printf '1\n2\n' >"$tmp/p_short.txt"
  run 2 "$app" "$tmp/negative.el" --personalization "$tmp/p_short.txt"
  contains "$tmp/err" "2 values; the graph has 3 pages"
  printf '1\n2\n3\n4\n' >"$tmp/p_long.txt"
  run 2 "$app" "$tmp/negative.el" --personalization "$tmp/p_long.txt"
  contains "$tmp/err" "4 values; the graph has 3 pages"
  printf '1\n-2\n3\n' >"$tmp/p_negative.txt"
  run 2 "$app" "$tmp/negative.el" --personalization "$tmp/p_negative.txt" --verbose
  contains "$tmp/err" "[CSR_ERR_INVALID_VALUE at "
  printf '0\n0\n0\n' >"$tmp/p_zero.txt"
  run 2 "$app" "$tmp/negative.el" --personalization "$tmp/p_zero.txt" --verbose
  contains "$tmp/err" "[CSR_ERR_INVALID_VALUE at "
  printf '%% comment\n0\n\n1\r\n  0  \n' >"$tmp/p_ok.txt" # comments, blank lines, CRLF, blanks
  run 0 "$app" "$tmp/negative.el" --personalization "$tmp/p_ok.txt" --output "$tmp/r.txt"
  [[ $(wc -l <"$tmp/r.txt") == 3 ]] || fail "--output wrote $(wc -l <"$tmp/r.txt") lines for 3 pages"
  # An --output that cannot be written is a runtime failure.
  run 3 "$app" "$karate" --output "$tmp/no such dir/r.txt"
  contains "$tmp/err" "$tmp/no such dir/r.txt"
  echo "bad_input: ok"
}

# --backend cuda: on a machine with a device and a CUDA build, the graph built and ranked on the
# GPU with each stage's time, the same top pages as the CPU, and auto choosing the GPU for a
# large graph only; elsewhere a runtime failure (3) that says why.
case_cuda() {
  local rc=0 gpu=0 web="$src/../shared/matrices/web-NotreDame.txt.gz"
  if "$app" --version | grep -E "^backends compiled in:.*\bcuda\b" >/dev/null &&
    command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    gpu=1
  fi
  "$app" "$karate" --backend cuda --top 10 >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [[ $gpu == 0 ]]; then
    [[ $rc == 3 ]] || fail "--backend cuda without a GPU: exit $rc, expected 3"
    contains "$tmp/err" "--backend cuda: "
    [[ ! -s "$tmp/out" ]] || fail "--backend cuda printed results without running on the GPU"
    echo "cuda: ok (no GPU: exit 3)"
    return
  fi
  [[ $rc == 0 ]] || fail "--backend cuda on a GPU: exit $rc: $(cat "$tmp/err")"
  contains "$tmp/out" "backend    cuda, GPU, f64"
  contains "$tmp/out" "(on the GPU), pull graph "
  grep -A10 '^top 10' "$tmp/out" >"$tmp/gpu_top"
  run 0 "$app" "$karate" --backend omp --top 10 # karate's 78 links: auto stays on the CPU too
  grep -A10 '^top 10' "$tmp/out" >"$tmp/cpu_top"
  diff -q <(awk '{print $2}' "$tmp/gpu_top") <(awk '{print $2}' "$tmp/cpu_top") >/dev/null ||
    fail "the GPU's top 10 of karate differs from the CPU's"
  run 0 "$app" "$karate" --json --top 0
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); sys.exit(j["backend"] == "cuda")' \
    "$tmp/out" || fail "auto ran karate (78 links) on the GPU"
  if [[ -f "$web" ]]; then # 1.5M links: auto takes the GPU; every stage timed
    run 0 "$app" "$web" --json --top 3 --precision f32
    python3 -c 'import json, sys
j = json.load(open(sys.argv[1])); s = j["stages"]
ok = (j["backend"] == "cuda" and j["threads"] is None and s["built_on"] == "device" and
      min(s["read_s"], s["upload_s"], s["build_s"], s["pull_graph_s"], s["compute_s"]) > 0 and
      j["converged"] and len(j["top"]) == 3)
sys.exit(0 if ok else "auto on web-NotreDame: %s" % json.dumps(j))' "$tmp/out" || fail "$(cat "$tmp/out")"
  fi
  echo "cuda: ok (gpu)"
}

case "$case_name" in
help | usage | bad_input | cuda) "case_$case_name" ;;
nx_*)
  if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 not found (it runs networkx)"
    exit 77
  fi
  exec python3 "$src/tests/apps/pagerank_check.py" "$case_name" "$apps" "$src"
  ;;
*) fail "unknown case '$case_name'" ;;
esac
