#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Tests of apps/cg, one case per ctest test (label apps):
#
#   bash tests/apps/cg.sh CASE APPS_DIR SOURCE_DIR
#
# CASE: help, usage, bad_input, spd (cg and pcg on matrices/1138_bus.mtx, the iteration limit, the
# ill-conditioning warning on bcsstk16), progress (the line on a terminal), bicgstab (a generated
# unsymmetric convection-diffusion matrix), gmres (the same with gmres and gmres-jacobi, the
# restart in the text and the JSON), rhs (b from array and coordinate files), history (CSV
# rows and the PNG's signature, IHDR and IDAT size), breakdown (indefinite and unsymmetric
# matrices with cg: the residual reached and the method suggested), bad_values (NaN and infinity
# in A or b, named), singular (a zero row or column, A p = 0), cuda (--backend cuda: A built on
# the device and solved there; exit 3 without a device), precond (GMRES with ILU(0) on the
# convection-diffusion matrix and CG with IC(0) on 1138_bus: converged in a fraction of the
# unpreconditioned iterations), auto (--method auto's reason and its convergence on symmetric,
# unsymmetric, indefinite and pattern matrices, and its fallback to CG with Jacobi when IC(0)
# fails), ilut (ILUT, and --method auto on west0067, whose diagonal is mostly zero: its rows
# matched).
# Exit 0 pass, 1 fail, 77 skipped (python3 missing: it parses the JSON and the PNG).
set -euo pipefail

case_name=${1:?usage: cg.sh CASE APPS_DIR SOURCE_DIR}
apps=${2:?apps dir}
src=${3:?source dir}
app="$apps/cg"
bus="$src/matrices/1138_bus.mtx"
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
exec </dev/null # no case reads standard input

# check_json EXPR...: each Python expression over j (the JSON in $tmp/out) must be true.
check_json() {
  python3 - "$tmp/out" "$@" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for expr in sys.argv[2:]:
    if not eval(expr):
        sys.exit("FAIL: %s is false for %s" % (expr, json.dumps(j)))
PY
}

# The unsymmetric 2D convection-diffusion matrix (5-point, upwind convection) on an m x m grid.
write_convection_diffusion() {
  python3 - "$1" "$2" <<'PY'
import sys
path, m = sys.argv[1], int(sys.argv[2])
h = 1.0 / (m + 1)
c = 20.0 * h  # convection times h: cell Peclet number 10 with the diffusion 1 scaled by h^2
entries = []
for i in range(m):
    for j in range(m):
        k = i * m + j
        entries.append((k, k, 4.0 + 2.0 * c))
        if i > 0: entries.append((k, k - m, -1.0 - c))
        if i < m - 1: entries.append((k, k + m, -1.0))
        if j > 0: entries.append((k, k - 1, -1.0 - c))
        if j < m - 1: entries.append((k, k + 1, -1.0))
with open(path, "w") as f:
    f.write("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n" % (m * m, m * m, len(entries)))
    for r, col, v in entries:
        f.write("%d %d %.17g\n" % (r + 1, col + 1, v))
PY
}

case_help() {
  local version
  version=$(sed -n 's/^#define CSR_VERSION_STRING "\(.*\)"/\1/p' "$src/include/csr.h")
  run 0 "$app" --help
  for text in "Usage: cg A.mtx [b.mtx]" "--method cg|pcg|bicgstab" "--history FILE" \
    "iteration,residual_norm" "numbers and titles" "scaled residual" "||x - 1||_inf" \
    "--max-iter N" "--maxit is the same" "--verbose" "gmres|gmres-jacobi|auto" "--restart M" \
    "--precond none|jacobi|ilu0|ilut|ic0" "--drop-tol T" "--fill-factor F" "auto_reason" \
    "Exit status: 0 success, 1 usage error, 2 bad input"; do
    contains "$tmp/out" "$text"
  done
  [[ ! -s "$tmp/err" ]] || fail "--help wrote to stderr"
  run 0 "$app" --version
  contains "$tmp/out" "cg (libcsr) $version"
  run 0 "$app" "$bus" --method nope --help # --help wins over the rest of the line
  contains "$tmp/out" "Usage: cg"
  echo "help: ok"
}

case_usage() {
  run 1 "$app"
  contains "$tmp/err" "missing A.mtx"
  contains "$tmp/err" "Try 'cg --help'"
  run 1 "$app" "$bus" "$bus" "$bus"
  contains "$tmp/err" "a third file"
  run 1 "$app" "$bus" --frobnicate
  contains "$tmp/err" "unknown option '--frobnicate'"
  local bad
  for bad in "--method gmres3" "--method CG" "--restart 0" "--restart x" "--tol 0" "--tol -1e-6" "--tol inf" "--tol x" \
    "--maxit 0" "--maxit 1.5" "--maxit -3" "--threads 0" "--threads 5000" "--backend gpu" \
    "--precond ilu" "--precond ILU0" "--drop-tol -1e-3" "--drop-tol x" "--fill-factor 0.5" \
    "--fill-factor nan"; do
    # shellcheck disable=SC2086 # split "--option value" on purpose
    run 1 "$app" "$bus" $bad
    contains "$tmp/err" "${bad%% *}"
    contains "$tmp/err" "must be"
  done
  run 1 "$app" "$bus" --method pcg --restart 5
  contains "$tmp/err" "--restart applies to --method gmres, gmres-jacobi or auto, not pcg"
  # Preconditioners a method does not take, and ILUT's options without ILUT.
  run 1 "$app" "$bus" --method bicgstab --precond ilu0
  contains "$tmp/err" "--precond ilu0 does not apply to --method bicgstab: BiCGSTAB takes no preconditioner"
  run 1 "$app" "$bus" --precond jacobi --method bicgstab
  contains "$tmp/err" "--precond jacobi does not apply to --method bicgstab"
  run 1 "$app" "$bus" --method auto --precond ic0
  contains "$tmp/err" "--precond does not apply to --method auto"
  run 1 "$app" "$bus" --method pcg --precond ic0
  contains "$tmp/err" "--method pcg is CG with Jacobi: for --precond ic0 use --method cg"
  run 1 "$app" "$bus" --method gmres-jacobi --precond ilu0
  contains "$tmp/err" "--method gmres-jacobi is GMRES with Jacobi: for --precond ilu0 use --method gmres"
  run 1 "$app" "$bus" --method gmres --precond ilu0 --drop-tol 1e-3
  contains "$tmp/err" "--drop-tol and --fill-factor apply to --precond ilut"
  run 1 "$app" "$bus" --fill-factor 5
  contains "$tmp/err" "--drop-tol and --fill-factor apply to --precond ilut"
  # BiCGSTAB with no preconditioner said is fine.
  run 0 "$app" "$bus" --method bicgstab --precond none --maxit 1
  contains "$tmp/out" "preconditioner     none"
  run 1 "$app" "$bus" --history
  contains "$tmp/err" "option --history needs a value"
  # Accepted spellings and bounds; the iteration limit is not an error (exit 0, "not converged").
  run 0 "$app" "$bus" --method=pcg --tol=1e-3 --maxit=1 --threads=1 --backend=ref
  contains "$tmp/out" "not converged"
  # --backend cuda without a usable device (no CUDA built in, or none present): exit 3, said why.
  if ! nvidia-smi -L >/dev/null 2>&1; then
    run 3 "$app" "$bus" --backend cuda
    contains "$tmp/err" "the CUDA backend is not available ("
  fi
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
  run 2 "$app" "$src/matrices/lp_share1b.mtx"
  contains "$tmp/err" "must be square"
  # b of the wrong size, or not a vector.
  printf '%%%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n' >"$tmp/b3.mtx"
  run 2 "$app" "$bus" "$tmp/b3.mtx"
  contains "$tmp/err" "b is 3 x 1; it must be a vector of 1138 entries"
  printf '%%%%MatrixMarket matrix array real general\n1138 2\n' >"$tmp/b2.mtx"
  for _ in $(seq 2276); do echo 1; done >>"$tmp/b2.mtx"
  run 2 "$app" "$bus" "$tmp/b2.mtx"
  contains "$tmp/err" "b is 1138 x 2"
  run 2 "$app" "$bus" "$tmp/missing_b.mtx" --verbose
  contains "$tmp/err" "$tmp/missing_b.mtx"
  contains "$tmp/err" "[CSR_ERR_IO at "
  # PCG on a matrix with a missing diagonal entry: the library's message.
  run 2 "$app" "$src/matrices/west0067.mtx" --method pcg --verbose
  contains "$tmp/err" "[CSR_ERR_INVALID_MATRIX at "
  contains "$tmp/err" "no diagonal entry"
  # A history file that cannot be written: a runtime failure.
  run 3 "$app" "$bus" --tol 1e-2 --history "$tmp/no such dir/h.csv"
  contains "$tmp/err" "$tmp/no such dir/h.csv"
  echo "bad_input: ok"
}

case_spd() {
  need_python
  local m
  for m in cg pcg; do
    for backend in ref omp; do
      run 0 "$app" "$bus" --method $m --tol 1e-10 --maxit 20000 --backend $backend --json
      check_json "j['converged'] and j['stop'] == 'converged'" "j['method'] == '$m'" \
        "j['relative_residual'] <= 1e-10" "j['scaled_residual'] <= 1e-10" \
        "j['error_inf'] is not None and j['error_inf'] < 1e-5" "0 < j['iterations'] < 20000" \
        "j['n'] == 1138 and j['nnz'] == 4054" "j['seconds'] > 0"
    done
  done
  # Text output says the same.
  run 0 "$app" "$bus" --method pcg --tol 1e-10
  contains "$tmp/out" "converged after"
  contains "$tmp/out" "error "
  # The limit: exit 0, "not converged"; --max-iter and its old spelling --maxit.
  run 0 "$app" "$bus" --max-iter 5 --json
  check_json "not j['converged']" "j['stop'] == 'not converged'" "j['iterations'] == 5" \
    "j['max_iter'] == 5"
  run 0 "$app" "$bus" --maxit=7 --json
  check_json "j['iterations'] == 7" "j['max_iter'] == 7"
  # A small residual with a large error: bcsstk16 stops at 1e-8 with ||x - 1|| near 1 under CG,
  # which the warning names, suggesting PCG; PCG's error is small and it says nothing.
  local b16="$src/matrices/bcsstk16.mtx.gz"
  run 0 "$app" "$b16" --json
  check_json "j['converged']" "j['error_inf'] > 1e-3" "j['error_inf'] > 100 * j['relative_residual']"
  contains "$tmp/err" "warning: the relative residual is"
  contains "$tmp/err" "ill-conditioned or singular; try --method pcg"
  run 0 "$app" "$b16" --method pcg --json
  check_json "j['converged']" "j['error_inf'] < 1e-5"
  [[ ! -s "$tmp/err" ]] || fail "PCG on bcsstk16 warned: $(cat "$tmp/err")"
  # Renumbered (--reorder) and packed (--compress on): the same solve in A's numbering.
  run 0 "$app" "$bus" --method pcg --tol 1e-10 --reorder rcm --compress on --json
  check_json "j['converged']" "j['reordered'] == 'rcm'" "j['packed']" "j['reorder_seconds'] >= 0" \
    "j['error_inf'] < 1e-5" "j['relative_residual'] <= 1e-10"
  run 0 "$app" "$bus" --method pcg --tol 1e-10 --json
  check_json "j['reordered'] == 'none'" "not j['packed']"
  run 1 "$app" "$bus" --reorder backwards
  contains "$tmp/err" "--reorder must be auto, none, rcm, degree, hub or appearance"
  echo "spd: ok"
}

# On a terminal (script(1) gives one) a progress line follows the iterations: the first one, then
# at most ten a second, and the last; without a terminal nothing is printed.
case_progress() {
  if ! command -v script >/dev/null 2>&1; then
    echo "SKIP: script(1) not found (it runs cg on a terminal)"
    exit 77
  fi
  script -qec "'$app' '$bus' --method pcg --tol 1e-10" /dev/null >"$tmp/tty" 2>&1 ||
    fail "cg on a terminal: exit $?: $(cat "$tmp/tty")"
  tr '\r' '\n' <"$tmp/tty" >"$tmp/lines"
  contains "$tmp/lines" "cg: solving with pcg: n = 1138, 4054 stored entries..."
  contains "$tmp/lines" "cg: iteration 1, relative residual "
  local last
  last=$(sed -n 's/^stopped *converged after \([0-9]*\) iterations.*/\1/p' "$tmp/lines")
  [[ -n "$last" ]] || fail "no report: $(cat "$tmp/lines")"
  contains "$tmp/lines" "cg: iteration $last, relative residual "
  run 0 "$app" "$bus" --method pcg --tol 1e-10
  [[ ! -s "$tmp/err" ]] || fail "progress without a terminal: $(cat "$tmp/err")"
  echo "progress: ok"
}

case_bicgstab() {
  need_python
  write_convection_diffusion "$tmp/cd.mtx" 30
  run 0 "$app" "$tmp/cd.mtx" --method bicgstab --tol 1e-10 --json
  check_json "j['converged']" "j['n'] == 900" "j['relative_residual'] <= 1e-10" \
    "j['scaled_residual'] <= 1e-10" "j['error_inf'] < 1e-6" "j['iterations'] < 900"
  run 0 "$app" "$tmp/cd.mtx" --method bicgstab --tol 1e-10 --backend ref --threads 1 --json
  check_json "j['converged']" "j['backend'] == 'ref'" "j['threads'] == 1"
  echo "bicgstab: ok"
}

case_gmres() {
  need_python
  write_convection_diffusion "$tmp/cd.mtx" 30
  local m
  for m in gmres gmres-jacobi; do
    run 0 "$app" "$tmp/cd.mtx" --method $m --tol 1e-10 --json
    check_json "j['converged']" "j['method'] == '$m'" "j['restart'] == 30" \
      "j['relative_residual'] <= 1e-10" "j['error_inf'] < 1e-6" "j['iterations'] > 0"
    run 0 "$app" "$tmp/cd.mtx" --method $m --restart 5 --tol 1e-10 --json
    check_json "j['converged']" "j['restart'] == 5" "j['relative_residual'] <= 1e-10"
  done
  run 0 "$app" "$tmp/cd.mtx" --method gmres --restart 5000 --tol 1e-10
  contains "$tmp/out" "method             gmres (restart 900), tol 1e-10"
  contains "$tmp/out" "converged after"
  run 0 "$app" "$bus" --method pcg --json
  check_json "j['restart'] is None"
  # The iteration limit: not converged, exit 0, the last iterate's true residual reported.
  run 0 "$app" "$tmp/cd.mtx" --method gmres --restart 2 --maxit 7 --json
  check_json "not j['converged']" "j['iterations'] == 7" "0 < j['relative_residual'] < 1"
  # A zero diagonal entry: gmres-jacobi refuses it, naming the row; gmres solves the system.
  printf '%%%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 2\n1 2 1\n2 1 1\n' >"$tmp/z.mtx"
  run 2 "$app" "$tmp/z.mtx" --method gmres-jacobi
  contains "$tmp/err" "row 1 (0-based; 2 in a Matrix Market file) has no diagonal entry"
  run 0 "$app" "$tmp/z.mtx" --method gmres --tol 1e-12
  contains "$tmp/out" "converged after 2 iterations"
  echo "gmres: ok"
}

case_rhs() {
  need_python
  # b = A * (1, 2, 3) for the SPD tridiagonal [2 -1; -1 2 -1; -1 2], as an array and as a
  # coordinate vector (a zero entry left out); no error is reported (the solution is not known).
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 2\n2 1 -1\n2 2 2\n3 2 -1\n3 3 2\n' >"$tmp/t.mtx"
  printf '%%%%MatrixMarket matrix array real general\n3 1\n0\n0\n4\n' >"$tmp/b_array.mtx"
  printf '%%%%MatrixMarket matrix coordinate real general\n3 1 1\n3 1 4\n' >"$tmp/b_coord.mtx"
  local b
  for b in b_array b_coord; do
    run 0 "$app" "$tmp/t.mtx" "$tmp/$b.mtx" --tol 1e-12 --json
    check_json "j['converged']" "j['rhs'].endswith('$b.mtx')" "j['error_inf'] is None" \
      "j['relative_residual'] <= 1e-12" "j['iterations'] <= 3"
  done
  run 0 "$app" "$tmp/t.mtx" "$tmp/b_coord.mtx"
  if grep -q "^error" "$tmp/out"; then fail "an error line without a known solution"; fi
  echo "rhs: ok"
}

case_history() {
  need_python
  local m
  for m in cg bicgstab; do
    run 0 "$app" "$bus" --method $m --tol 1e-6 --maxit 5000 --history "$tmp/h_$m.csv" --json
    python3 - "$tmp/out" "$tmp/h_$m.csv" "$tmp/h_$m.png" <<'PY'
import csv, json, struct, sys, zlib
j = json.load(open(sys.argv[1]))
rows = list(csv.reader(open(sys.argv[2])))
assert rows[0] == ["iteration", "residual_norm", "relative_residual"], rows[0]
assert len(rows) - 1 == j["iterations"] + 1, (len(rows), j["iterations"])
assert [int(r[0]) for r in rows[1:]] == list(range(j["iterations"] + 1))
last = float(rows[-1][2])
assert last <= 1e-6 * 1.0001 and float(rows[1][2]) == 1.0, (rows[1], rows[-1])
assert j["plot"] == sys.argv[3], j["plot"]
data = open(sys.argv[3], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
pos, chunks = 8, []
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
    assert crc == zlib.crc32(kind + body), kind
    chunks.append((kind, body))
    pos += 12 + length
kinds = [k for k, _ in chunks]
assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND" and b"IDAT" in kinds, kinds
w, h, depth, color = struct.unpack(">IIBB", chunks[0][1][:10])
assert (w, h) == (j["plot_width"], j["plot_height"]), (w, h)
assert depth == 8 and color in (0, 2), (depth, color)
raw = zlib.decompress(b"".join(b for k, b in chunks if k == b"IDAT"))
channels = 3 if color == 2 else 1
assert len(raw) == h * (1 + channels * w), len(raw)
# Something was drawn: not all white, and the curve's colour (not grey) appears.
pixels = [raw[r * (1 + channels * w) + 1:(r + 1) * (1 + channels * w)] for r in range(h)]
assert any(any(b != 255 for b in row) for row in pixels)
PY
  done
  # FILE without .csv: the plot is FILE.png; the text output names both.
  run 0 "$app" "$bus" --tol 1e-3 --history "$tmp/hist"
  [[ -s "$tmp/hist" && -s "$tmp/hist.png" ]] || fail "--history $tmp/hist wrote no hist.png"
  contains "$tmp/out" "plot $tmp/hist.png (800x500)"
  echo "history: ok"
}

case_breakdown() {
  # diag(1, -1, 2, 3): symmetric and indefinite; b = A * ones gives p'Ap <= 0 early. The report
  # gives the iterations and the relative residual reached, and the advice names the negative
  # diagonal entry and the method that fits.
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n4 4 5\n1 1 1\n2 2 -1\n3 3 2\n4 4 3\n2 1 0.5\n' >"$tmp/indef.mtx"
  run 2 "$app" "$tmp/indef.mtx" --method cg --verbose
  contains "$tmp/err" "breakdown"
  contains "$tmp/err" "[CSR_ERR_INVALID_MATRIX at "
  contains "$tmp/err" "not symmetric positive definite"
  grep -qE "cg broke down after [0-9]+ iterations \(relative residual [0-9.]+e[-+][0-9]+\)" \
    "$tmp/err" || fail "no residual reached: $(cat "$tmp/err")"
  contains "$tmp/err" "cg: A is symmetric but not positive definite (A(1,1) = -1 <= 0, 0-based)"
  contains "$tmp/err" "try --method bicgstab"
  [[ ! -s "$tmp/out" ]] || fail "a breakdown printed a report"
  # Symmetric, positive diagonal, indefinite: [1 2; 2 1] with b = (1, -1) gives p'Ap = -2 at once.
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 1\n2 1 2\n2 2 1\n' >"$tmp/si.mtx"
  printf '%%%%MatrixMarket matrix array real general\n2 1\n1\n-1\n' >"$tmp/b_pm.mtx"
  for m in cg pcg; do
    run 2 "$app" "$tmp/si.mtx" "$tmp/b_pm.mtx" --method $m
    contains "$tmp/err" "$m broke down after 0 iterations (relative residual 1.000e+00)"
    contains "$tmp/err" "p'Ap = -2 <= 0"
    contains "$tmp/err" "A is symmetric but not positive definite (p'Ap <= 0 for a search direction"
  done
  # Unsymmetric: [1 -4; 0 1] with b = (1, 1) gives p'Ap = -2; the first unequal pair is named and
  # BiCGSTAB, suggested, solves it.
  printf '%%%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n1 2 -4\n2 2 1\n' >"$tmp/ns.mtx"
  printf '%%%%MatrixMarket matrix array real general\n2 1\n1\n1\n' >"$tmp/b_11.mtx"
  run 2 "$app" "$tmp/ns.mtx" "$tmp/b_11.mtx"
  contains "$tmp/err" "cg broke down after 0 iterations (relative residual 1.000e+00)"
  contains "$tmp/err" "cg: A is not symmetric (A(0,1) = -4 but A(1,0) = 0, 0-based): CG and PCG need a symmetric positive definite A; try --method bicgstab"
  run 0 "$app" "$tmp/ns.mtx" "$tmp/b_11.mtx" --method bicgstab --tol 1e-12
  contains "$tmp/out" "converged after"
  [[ ! -s "$tmp/err" ]] || fail "BiCGSTAB on an unsymmetric A warned: $(cat "$tmp/err")"
  # CG at the iteration limit on an unsymmetric A (no breakdown): exit 0 and the same advice as a
  # warning. A symmetric A at the limit gets none (1138_bus).
  printf '%%%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 2\n2 1 -1\n3 3 2\n1 2 1\n' >"$tmp/ns3.mtx"
  run 0 "$app" "$tmp/ns3.mtx" --max-iter 50
  contains "$tmp/out" "not converged"
  contains "$tmp/err" "cg: warning: A is not symmetric (A(0,1) = 1 but A(1,0) = -1, 0-based)"
  run 0 "$app" "$bus" --max-iter 5
  [[ ! -s "$tmp/err" ]] || fail "CG at the limit on 1138_bus warned: $(cat "$tmp/err")"
  # The history up to the breakdown is still written.
  run 2 "$app" "$tmp/indef.mtx" --method cg --history "$tmp/b.csv"
  [[ -s "$tmp/b.csv" && -s "$tmp/b.png" ]] || fail "no history after a breakdown"
  # BiCGSTAB solves it (nonsingular).
  run 0 "$app" "$tmp/indef.mtx" --method bicgstab --tol 1e-12
  contains "$tmp/out" "converged after"
  echo "breakdown: ok"
}

# A NaN or an infinity: refused before any iteration, the first entry named, in A (not b, which
# b = A * ones makes non-finite too) or in b.
case_bad_values() {
  need_python
  printf '%%%%MatrixMarket matrix coordinate real general\n3 3 6\n1 1 2\n1 2 -1\n2 2 2\n2 3 nan\n3 3 2\n3 1 inf\n' >"$tmp/nan.mtx"
  local m
  for m in cg pcg bicgstab gmres gmres-jacobi; do
    run 2 "$app" "$tmp/nan.mtx" --method $m --verbose
    contains "$tmp/err" "A holds a non-finite value: A(1,2) = nan (0-based; row 2, column 3 in a Matrix Market file)"
    contains "$tmp/err" "[CSR_ERR_INVALID_VALUE at "
    if grep -qF "b holds" "$tmp/err"; then fail "b blamed for A's NaN: $(cat "$tmp/err")"; fi
    [[ ! -s "$tmp/out" ]] || fail "a refused A printed a report"
  done
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 2\n2 1 -1\n2 2 2\n3 2 -1\n3 3 2\n' >"$tmp/t.mtx"
  printf '%%%%MatrixMarket matrix array real general\n3 1\n1\n-inf\nnan\n' >"$tmp/b_inf.mtx"
  run 2 "$app" "$tmp/t.mtx" "$tmp/b_inf.mtx" --json
  contains "$tmp/err" "b holds a non-finite value: b(1) = -inf (0-based; 2 in a Matrix Market file)"
  if grep -qF "A holds" "$tmp/err"; then fail "A blamed for b's infinity: $(cat "$tmp/err")"; fi
  check_json "j['error']['exit_code'] == 2" "j['error']['status'] == 'CSR_ERR_INVALID_VALUE'" \
    "'b(1) = -inf' in j['error']['message']"
  echo "bad_values: ok"
}

# A provably singular A is bad input (exit 2, no report), whatever the method: an empty row, a row
# or column of stored zeros (b = A * ones would let the methods "converge" with x_i arbitrary),
# and A p = 0 on the way.
case_singular() {
  printf '%%%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 2\n1 2 -1\n3 2 -1\n3 3 2\n' >"$tmp/row.mtx"
  printf '%%%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 2\n2 1 -1\n2 2 0\n3 3 2\n3 2 0\n' >"$tmp/col.mtx"
  local m
  for m in cg pcg bicgstab gmres gmres-jacobi; do
    run 2 "$app" "$tmp/row.mtx" --method $m --verbose
    contains "$tmp/err" "A is singular: row 1 (0-based; 2 in a Matrix Market file) has no nonzero entry"
    contains "$tmp/err" "[CSR_ERR_INVALID_MATRIX at "
    [[ ! -s "$tmp/out" ]] || fail "a singular A printed a report"
    run 2 "$app" "$tmp/col.mtx" --method $m
    contains "$tmp/err" "A is singular: column 1 (0-based; 2 in a Matrix Market file) has no nonzero entry"
    if grep -qF "warning" "$tmp/err"; then fail "a singular A got a warning: $(cat "$tmp/err")"; fi
  done
  # [1 -1; -1 1] with b = (1, 1): A p = 0 for the first direction; no method is suggested.
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 1\n2 1 -1\n2 2 1\n' >"$tmp/s.mtx"
  printf '%%%%MatrixMarket matrix array real general\n2 1\n1\n1\n' >"$tmp/b_11.mtx"
  for m in cg bicgstab; do
    run 2 "$app" "$tmp/s.mtx" "$tmp/b_11.mtx" --method $m
    contains "$tmp/err" "$m broke down after 0 iterations (relative residual 1.000e+00)"
    contains "$tmp/err" "A p = 0 for a direction p != 0: A is singular"
    if grep -qF "try --method" "$tmp/err"; then fail "a method suggested for a singular A"; fi
  done
  # GMRES: A b = 0 stops the Krylov space at its first step.
  run 2 "$app" "$tmp/s.mtx" "$tmp/b_11.mtx" --method gmres
  contains "$tmp/err" "gmres broke down after 1 iterations (relative residual 1.000e+00)"
  contains "$tmp/err" "A is singular"
  if grep -qF "try --method" "$tmp/err"; then fail "a method suggested for a singular A"; fi
  echo "singular: ok"
}

case_cuda() {
  if "$app" --version | grep -E "^backends compiled in:.*\bcuda\b" >/dev/null &&
    nvidia-smi -L >/dev/null 2>&1; then
    run 0 "$app" "$bus" --method pcg --backend cuda --json
    check_json 'j["converged"]' 'j["backend"] == "cuda"' 'j["error_inf"] < 1e-4' \
      'j["stages"]["built_on"] == "device"' 'j["stages"]["upload_s"] > 0' \
      'j["stages"]["build_s"] > 0' 'j["stages"]["compute_s"] == j["seconds"]'
    run 0 "$app" "$bus" --method pcg --backend cuda
    contains "$tmp/out" "(on the GPU), solve"
  else
    run 3 "$app" "$bus" --backend cuda
    contains "$tmp/err" "the CUDA backend is not available ("
  fi
  run 0 "$app" "$bus" --method pcg --json
  check_json 'j["stages"]["built_on"] == "host"' 'j["stages"]["upload_s"] is None' \
    'j["stages"]["read_s"] > 0'
  echo "cuda: ok"
}

# --precond: each factorization cuts the iterations to a fraction of the method's without it, and
# the reports name it.
case_precond() {
  need_python
  write_convection_diffusion "$tmp/cd.mtx" 30
  run 0 "$app" "$tmp/cd.mtx" --method gmres --tol 1e-10 --json
  check_json "j['converged']" "j['preconditioner'] == 'none'"
  local plain
  plain=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["iterations"])' "$tmp/out")
  run 0 "$app" "$tmp/cd.mtx" --method gmres --precond ilu0 --tol 1e-10 --json
  check_json "j['converged']" "j['method'] == 'gmres'" "j['preconditioner'] == 'ilu0'" \
    "j['restart'] == 30" "j['relative_residual'] <= 1e-10" "j['error_inf'] < 1e-6" \
    "0 < j['iterations'] < $plain / 3" "j['drop_tol'] is None" "j['auto_reason'] is None"
  run 0 "$app" "$tmp/cd.mtx" --precond ilu0 --method gmres --restart 10 --tol 1e-10
  contains "$tmp/out" "method             gmres (restart 10), tol 1e-10"
  contains "$tmp/out" "preconditioner     ilu0 (factored in the solve, its time included)"
  contains "$tmp/out" "converged after"
  grep -qE "^relative residual  [0-9.]+e-(1[0-9]|[2-9][0-9])  " "$tmp/out" ||
    fail "relative residual above 1e-10: $(cat "$tmp/out")"
  # GMRES with Jacobi through --precond: the same as --method gmres-jacobi.
  run 0 "$app" "$tmp/cd.mtx" --method gmres --precond jacobi --tol 1e-10 --json
  check_json "j['converged']" "j['method'] == 'gmres-jacobi'" "j['preconditioner'] == 'jacobi'"
  # CG with IC(0) on 1138_bus, against CG with Jacobi (--method pcg, and --precond jacobi).
  run 0 "$app" "$bus" --method pcg --tol 1e-10 --json
  check_json "j['converged']" "j['method'] == 'pcg'" "j['preconditioner'] == 'jacobi'"
  local jacobi
  jacobi=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["iterations"])' "$tmp/out")
  run 0 "$app" "$bus" --method cg --precond jacobi --tol 1e-10 --json
  check_json "j['converged']" "j['method'] == 'cg'" "j['preconditioner'] == 'jacobi'" \
    "j['iterations'] == $jacobi"
  run 0 "$app" "$bus" --method cg --precond ic0 --tol 1e-10 --json
  check_json "j['converged']" "j['method'] == 'cg'" "j['preconditioner'] == 'ic0'" \
    "j['restart'] is None" "j['relative_residual'] <= 1e-10" "j['error_inf'] < 1e-6" \
    "0 < j['iterations'] < $jacobi / 3"
  run 0 "$app" "$bus" --precond ic0
  contains "$tmp/out" "preconditioner     ic0 (factored in the solve, its time included)"
  contains "$tmp/out" "converged after"
  [[ ! -s "$tmp/err" ]] || fail "CG with IC(0) on 1138_bus warned: $(cat "$tmp/err")"
  echo "precond: ok"
}

# --method auto: the reason on stdout (text) or as auto_reason (JSON), and a converged solve.
case_auto() {
  need_python
  run 0 "$app" "$bus" --method auto
  contains "$tmp/out" "auto: A is symmetric with a positive diagonal: CG with IC(0)"
  contains "$tmp/out" "preconditioner     ic0"
  contains "$tmp/out" "converged after"
  run 0 "$app" "$bus" --method auto --tol 1e-10 --json
  check_json "j['converged']" "j['method'] == 'cg'" "j['preconditioner'] == 'ic0'" \
    "j['auto_reason'] == 'A is symmetric with a positive diagonal: CG with IC(0)'" \
    "j['relative_residual'] <= 1e-10" "j['error_inf'] < 1e-6"
  write_convection_diffusion "$tmp/cd.mtx" 30
  run 0 "$app" "$tmp/cd.mtx" --method auto --tol 1e-10
  contains "$tmp/out" "auto: A is not symmetric: GMRES(30) with ILU(0)"
  contains "$tmp/out" "converged after"
  run 0 "$app" "$tmp/cd.mtx" --method auto --restart 12 --tol 1e-10 --json
  check_json "j['converged']" "j['method'] == 'gmres'" "j['preconditioner'] == 'ilu0'" \
    "j['restart'] == 12" "j['auto_reason'] == 'A is not symmetric: GMRES(12) with ILU(0)'" \
    "j['relative_residual'] <= 1e-10" "j['error_inf'] < 1e-6"
  # Symmetric with a negative diagonal entry: not CG; GMRES(n) for n < 30.
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n4 4 5\n1 1 1\n2 2 -1\n3 3 2\n4 4 3\n2 1 0.5\n' >"$tmp/indef.mtx"
  run 0 "$app" "$tmp/indef.mtx" --method auto --tol 1e-12
  contains "$tmp/out" "auto: A is symmetric but A(1,1) = -1 < 0 (0-based): GMRES(4) with ILU(0)"
  contains "$tmp/out" "converged after"
  # A pattern: nothing to factor.
  run 0 "$app" "$src/matrices/karate.mtx" --method auto --json
  check_json "j['converged']" "j['preconditioner'] == 'none'" "j['method'] == 'gmres'" \
    "j['auto_reason'] == 'A is symmetric and 34 of its 34 diagonal entries are zero or missing: GMRES(30) without a preconditioner (A is a pattern: no values to factor)'"
  # IC(0) fails on this symmetric, positive-diagonal, indefinite star whatever the shift: CG with
  # Jacobi is tried instead, and breaks down (A is not positive definite); both are said.
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n4 4 7\n1 1 1\n2 2 1\n3 3 1\n4 4 1\n4 1 10\n4 2 10\n4 3 10\n' >"$tmp/star.mtx"
  run 2 "$app" "$tmp/star.mtx" --precond ic0
  contains "$tmp/err" "IC(0) failed at row 3"
  run 2 "$app" "$tmp/star.mtx" --method auto
  contains "$tmp/err" "cg broke down after"
  contains "$tmp/err" "cg: auto: A is symmetric with a positive diagonal: CG with IC(0); IC(0) failed ("
  contains "$tmp/err" "), so CG with Jacobi instead"
  [[ ! -s "$tmp/out" ]] || fail "a breakdown printed a report"
  echo "auto: ok"
}

# ILUT (fill, entries dropped by size) and the matched rows of a diagonal with zeros.
case_ilut() {
  need_python
  write_convection_diffusion "$tmp/cd.mtx" 30
  run 0 "$app" "$tmp/cd.mtx" --method gmres --precond ilut --tol 1e-10 --json
  check_json "j['converged']" "j['preconditioner'] == 'ilut'" "j['drop_tol'] == 1e-4" \
    "j['fill_factor'] == 10" "j['relative_residual'] <= 1e-10" "j['error_inf'] < 1e-6"
  run 0 "$app" "$tmp/cd.mtx" --method gmres --precond ilut --drop-tol 1e-2 --fill-factor 2 --tol 1e-10
  contains "$tmp/out" "preconditioner     ilut (drop tolerance 0.01, fill factor 2; factored in the solve, its time included)"
  contains "$tmp/out" "converged after"
  # west0067: 65 of its 67 diagonal entries are zero, so ILU(0) cannot start and auto matches rows.
  local west="$src/matrices/west0067.mtx"
  run 0 "$app" "$west" --method auto
  contains "$tmp/out" "auto: A is not symmetric and 65 of its 67 diagonal entries are zero or missing: GMRES(30) with ILUT (rows matched)"
  contains "$tmp/out" "converged after"
  run 0 "$app" "$west" --method auto --json
  check_json "j['converged']" "j['method'] == 'gmres'" "j['preconditioner'] == 'ilut'" \
    "j['relative_residual'] <= 1e-8" "j['auto_reason'].endswith('GMRES(30) with ILUT (rows matched)')"
  echo "ilut: ok"
}

case "$case_name" in
help | usage | bad_input | spd | progress | bicgstab | gmres | rhs | history | breakdown | bad_values | singular | cuda | precond | auto | ilut)
  "case_$case_name"
  ;;
*) fail "unknown case '$case_name'" ;;
esac
