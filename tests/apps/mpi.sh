#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The apps under mpiexec (spmv, pagerank and cg on libcsr_mpi), one case per ctest test (labels
# apps and mpi), each run on 2 ranks and compared with the same command on one process:
#
#   bash tests/apps/mpi.sh CASE APPS_DIR SOURCE_DIR MPIEXEC
#
# CASE: pagerank (karate.mtx: the same top pages, ranks and iterations), spmv (1138_bus.mtx: the
# checksum within 1e-12 relative, --validate passes), cg (1138_bus.mtx with pcg: converged,
# iterations within 2, the error small), errors (a malformed file, a missing one, a non-square A
# for cg, an unknown backend: the message printed once, the same exit code as on one process,
# no hang; cg's --method auto refused, block-Jacobi GMRES), text (the "ranks" table). Every case checks that the ranks' shares add up to the
# matrix's rows and nonzeros and start where the previous rank stopped.
# Exit 0 pass, 1 fail, 77 skipped (python3 missing: it parses the JSON).
set -euo pipefail

case_name=${1:?usage: mpi.sh CASE APPS_DIR SOURCE_DIR MPIEXEC}
apps=${2:?apps dir}
src=${3:?source dir}
mpiexec=${4:?mpiexec}
karate="$src/matrices/karate.mtx"
bus="$src/matrices/1138_bus.mtx"
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
exec </dev/null
need_python
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1

# on2 CMD...: CMD under mpiexec on 2 ranks (a minute at most: a hang fails).
on2() {
  timeout 60 "$mpiexec" -n 2 --oversubscribe "$@"
}

# compare ONE TWO EXPR...: each Python expression over a (the one-process JSON in ONE) and d
# (the distributed JSON in TWO) must be true; the shares of d must tile the matrix.
compare() {
  python3 - "$@" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
rows = d.get("rows", d.get("nodes", d.get("n")))
nnz = d.get("nnz", d.get("links"))
shares = d["shares"]
if d["ranks"] != 2 or len(shares) != 2 or "ranks" in a or "shares" in a or d["halo_path"] != "host":
    sys.exit("FAIL: 2 ranks expected in the distributed JSON only: %s" % json.dumps(d))
if sum(s["rows"] for s in shares) != rows or sum(s["nnz"] for s in shares) != nnz:
    sys.exit("FAIL: the shares do not add up to %d rows, %d nonzeros: %s" % (rows, nnz, shares))
first = 0
for r, s in enumerate(shares):
    if s["rank"] != r or s["first_row"] != first or not 0 <= s["interior_rows"] <= s["rows"]:
        sys.exit("FAIL: share %d does not follow the previous one: %s" % (r, shares))
    if s["comm_seconds"] < 0 or s["ghosts"] < 0 or not 0 <= s["neighbours"] <= 1:
        sys.exit("FAIL: share %d: %s" % (r, s))
    first += s["rows"]
missing = set(a) - set(d)
if missing:
    sys.exit("FAIL: keys of the one-process JSON missing under mpiexec: %s" % sorted(missing))
for expr in sys.argv[3:]:
    if not eval(expr):
        sys.exit("FAIL: %s is false (one process: %s; 2 ranks: %s)" % (expr, json.dumps(a), json.dumps(d)))
PY
}

case_pagerank() {
  run 0 "$apps/pagerank" "$karate" --top 10 --json --output "$tmp/one.txt"
  mv "$tmp/out" "$tmp/one.json"
  run 0 on2 "$apps/pagerank" "$karate" --top 10 --json --output "$tmp/two.txt"
  compare "$tmp/one.json" "$tmp/out" \
    'd["iterations"] == a["iterations"] and d["converged"]' \
    '[t["id"] for t in d["top"]] == [t["id"] for t in a["top"]]' \
    'all(abs(x["rank"] - y["rank"]) <= 1e-12 for x, y in zip(a["top"], d["top"]))' \
    'd["nodes"] == 34 and d["links"] == 156 and d["dangling"] == a["dangling"]'
  # --output from rank 0: every page, the same ids, ranks within 1e-12.
  python3 - "$tmp/one.txt" "$tmp/two.txt" <<'PY'
import sys
one = [l.split() for l in open(sys.argv[1])]
two = [l.split() for l in open(sys.argv[2])]
if len(one) != 34 or [l[0] for l in one] != [l[0] for l in two] or any(
        abs(float(x[1]) - float(y[1])) > 1e-12 for x, y in zip(one, two)):
    sys.exit("FAIL: --output differs under mpiexec")
PY
  echo "pagerank: ok"
}

case_spmv() {
  run 0 "$apps/spmv" "$bus" --iters 3 --copy-mib 1 --json
  mv "$tmp/out" "$tmp/one.json"
  run 0 on2 "$apps/spmv" "$bus" --iters 3 --copy-mib 1 --json --validate
  compare "$tmp/one.json" "$tmp/out" \
    'abs(d["checksum"]["sum"] - a["checksum"]["sum"]) <= 1e-12 * abs(a["checksum"]["sum"])' \
    'abs(d["checksum"]["nrm2"] - a["checksum"]["nrm2"]) <= 1e-12 * a["checksum"]["nrm2"]' \
    'd["validated"] and d["validation"]["bitwise_equal"] and d["iters"] == 3' \
    'd["bytes"] == a["bytes"] and d["median_ms"] > 0 and d["threads"] == 1'
  echo "spmv: ok"
}

case_cg() {
  run 0 "$apps/cg" "$bus" --method pcg --json
  mv "$tmp/out" "$tmp/one.json"
  run 0 on2 "$apps/cg" "$bus" --method pcg --json
  compare "$tmp/one.json" "$tmp/out" \
    'd["converged"] and abs(d["iterations"] - a["iterations"]) <= 2' \
    'd["relative_residual"] <= 1e-8 and d["error_inf"] < 1e-4' \
    'd["scaled_residual"] is None and d["n"] == 1138'
  echo "cg: ok"
}

# expect_error RC TEXT CMD...: CMD fails with RC on one process and under mpiexec, TEXT printed
# once under mpiexec.
expect_error() {
  local rc=$1 text=$2
  shift 2
  run "$rc" "$@"
  contains "$tmp/err" "$text"
  local got=0
  on2 "$@" >"$tmp/out" 2>"$tmp/err" || got=$?
  # mpiexec returns the exit code of the first rank that failed; all fail alike.
  [[ "$got" == "$rc" ]] || fail "exit $got under mpiexec, expected $rc: $* ($(head -5 "$tmp/err"))"
  [[ "$(grep -cF -- "$text" "$tmp/err")" == 1 ]] || fail "'$text' not printed once: $(cat "$tmp/err")"
}

case_errors() {
  printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 x 3\n' >"$tmp/bad.mtx"
  expect_error 2 "bad.mtx:4: expected a column index" "$apps/spmv" "$tmp/bad.mtx"
  expect_error 2 "cannot open" "$apps/pagerank" "$tmp/none.mtx"
  expect_error 2 "it must be square" "$apps/cg" "$src/matrices/lp_share1b.mtx"
  expect_error 2 "none.txt: cannot open" "$apps/pagerank" "$karate" --personalization "$tmp/none.txt"
  # What needs A on one process, or block Jacobi outside GMRES, is refused as a usage error
  # (exit 1), said once.
  local args got want
  for args in "--method auto" "--precond ic0"; do
    got=0
    want="${args} needs A on one process: not under mpiexec"
    [[ "$args" == "--precond ic0" ]] && want="block Jacobi preconditions --method gmres only"
    # shellcheck disable=SC2086 # split "--option value" on purpose
    on2 "$apps/cg" "$bus" $args >"$tmp/out" 2>"$tmp/err" || got=$?
    [[ "$got" == 1 ]] || fail "cg $args under mpiexec: exit $got, expected 1: $(head -5 "$tmp/err")"
    [[ "$(grep -cF -- "$want" "$tmp/err")" == 1 ]] ||
      fail "cg $args under mpiexec: the refusal not printed once: $(cat "$tmp/err")"
  done
  # Packed columns and renumbering are for one process: refused (exit 1), said once.
  local app
  for app in "spmv --reorder rcm" "pagerank --compress on" "cg --reorder degree"; do
    got=0
    # shellcheck disable=SC2086 # split "app --option value" on purpose
    on2 "$apps/"$app "$bus" >"$tmp/out" 2>"$tmp/err" || got=$?
    [[ "$got" == 1 ]] || fail "$app under mpiexec: exit $got, expected 1: $(head -5 "$tmp/err")"
    [[ "$(grep -c "is for one process, not under mpiexec" "$tmp/err")" == 1 ]] ||
      fail "$app under mpiexec: the refusal not printed once: $(cat "$tmp/err")"
  done
  # GMRES with block ILUT converges across ranks.
  on2 "$apps/cg" "$src/matrices/bcsstk16.mtx.gz" --method gmres --precond ilut --json \
    >"$tmp/out" 2>"$tmp/err" ||
    fail "cg --method gmres --precond ilut under mpiexec failed: $(head -5 "$tmp/err")"
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["converged"], j' \
    "$tmp/out" || fail "block ILUT GMRES did not converge: $(cat "$tmp/out")"
  # With --json the error object comes once, on stdout.
  on2 "$apps/cg" "$tmp/bad.mtx" --json >"$tmp/out" 2>"$tmp/err" || true
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["error"]["exit_code"] == 2' \
    "$tmp/out" || fail "no single JSON error object: $(cat "$tmp/out")"
  echo "errors: ok"
}

case_text() {
  run 0 on2 "$apps/pagerank" "$karate" --top 3
  contains "$tmp/out" "ranks      2 (processes under MPI), nonzeros max/mean"
  contains "$tmp/out" "1 thread per rank"
  [[ "$(grep -c "^top 3:" "$tmp/out")" == 1 ]] || fail "the report printed more than once"
  run 0 on2 "$apps/cg" "$bus" --method pcg
  contains "$tmp/out" "interior rows"
  contains "$tmp/out" "scaled residual    not computed"
  echo "text: ok"
}

"case_$case_name"
