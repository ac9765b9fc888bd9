#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Tests of the command-line apps (mminfo, mmconvert, spmv), one case per ctest test (label apps):
#
#   bash tests/apps/run.sh CASE APPS_DIR SOURCE_DIR
#
# CASE: help, usage, bad_input, messages, mminfo, mmconvert, mmconvert_out, spmv_validate, spmv_x,
# spmv_copy, spmv_cuda, spmv_cuda_oom.
# APPS_DIR holds the built apps, SOURCE_DIR is the repository (matrices/ and include/csr.h).
# Exit 0 pass, 1 fail, 77 skipped (python3 missing: it parses the JSON output).
set -euo pipefail

case_name=${1:?usage: run.sh CASE APPS_DIR SOURCE_DIR}
apps=${2:?apps dir}
src=${3:?source dir}
matrices="$src/matrices"
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# json FILE EXPR: evaluates the Python expression EXPR on the JSON object j read from FILE.
json() {
  python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print(json.dumps(v, sort_keys=True) if isinstance(v, (dict, list)) else v)' "$1" "$2"
}

bundled=(1138_bus.mtx west0067.mtx karate.mtx bcsstk16.mtx.gz lp_share1b.mtx plskz362.mtx
  empty_rows_11x12.mtx)

case_help() {
  local version
  version=$(sed -n 's/^#define CSR_VERSION_STRING "\(.*\)"/\1/p' "$src/include/csr.h")
  [[ -n "$version" ]] || fail "no CSR_VERSION_STRING in include/csr.h"
  for app in mminfo mmconvert spmv; do
    run 0 "$apps/$app" --help
    contains "$tmp/out" "Usage: $app"
    contains "$tmp/out" "Exit status: 0 success, 1 usage error, 2 bad input"
    contains "$tmp/out" "The model:"
    run 0 "$apps/$app" --version
    contains "$tmp/out" "$app (libcsr) $version"
  done
  run 0 "$apps/spmv" --help
  contains "$tmp/out" "|y - yref| <= 16*eps*(row length + 2)*sum_j |a_ij*x_j|"
  echo "help: ok"
}

case_usage() {
  local m="$matrices/karate.mtx"
  run 1 "$apps/mminfo"
  contains "$tmp/err" "missing FILE"
  run 1 "$apps/mminfo" "$m" "$m"
  run 1 "$apps/mminfo" --frobnicate "$m"
  contains "$tmp/err" "unknown option '--frobnicate'"
  run 1 "$apps/mmconvert"
  run 1 "$apps/mmconvert" "$m"
  run 1 "$apps/mmconvert" "$m" "$tmp/a.mtx" "$tmp/b.mtx"
  run 1 "$apps/mmconvert" "$m" "$tmp/a.el" --symmetric
  contains "$tmp/err" "--symmetric needs Matrix Market output"
  [[ ! -e "$tmp/a.el" ]] || fail "a usage error wrote a file"
  run 1 "$apps/spmv"
  run 1 "$apps/spmv" "$m" "$m"
  run 1 "$apps/spmv" "$m" --backend gpu
  run 1 "$apps/spmv" "$m" --backend cuda --kernel fastest
  run 1 "$apps/spmv" "$m" --kernel segmented # a GPU kernel needs --backend cuda
  run 1 "$apps/spmv" "$m" --precision f16
  run 1 "$apps/spmv" "$m" --iters 0
  run 1 "$apps/spmv" "$m" --iters 12x
  run 1 "$apps/spmv" "$m" --threads -2
  run 1 "$apps/spmv" "$m" --copy-mib 4096
  run 1 "$apps/spmv" "$m" --iters
  contains "$tmp/err" "option --iters needs a value"
  run 1 "$apps/spmv" "$m" --frobnicate
  echo "usage: ok"
}

case_bad_input() {
  local missing="$tmp/no such dir/missing.mtx"
  for app in mminfo spmv; do
    run 2 "$apps/$app" "$missing" --verbose
    contains "$tmp/err" "$missing"
    contains "$tmp/err" "[CSR_ERR_IO at "
  done
  run 2 "$apps/mmconvert" "$missing" "$tmp/out.mtx"
  contains "$tmp/err" "$missing"

  printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.5\n2 x 2\n' >"$tmp/bad.mtx"
  for app in mminfo spmv; do
    run 2 "$apps/$app" "$tmp/bad.mtx" --verbose
    contains "$tmp/err" "$tmp/bad.mtx:4"
    contains "$tmp/err" "[CSR_ERR_PARSE at "
  done
  run 2 "$apps/mmconvert" "$tmp/bad.mtx" "$tmp/out.mtx"
  contains "$tmp/err" "$tmp/bad.mtx:4"

  printf '%%%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 2\n' >"$tmp/complex.mtx"
  run 2 "$apps/mminfo" "$tmp/complex.mtx" --verbose
  contains "$tmp/err" "$tmp/complex.mtx"
  contains "$tmp/err" "[CSR_ERR_UNSUPPORTED at "

  printf '0 1\n1 2 3.5\n' >"$tmp/ragged.el"
  run 2 "$apps/mminfo" "$tmp/ragged.el"
  contains "$tmp/err" "$tmp/ragged.el:2"

  # Not symmetric: the library refuses, the app passes its message on.
  run 2 "$apps/mmconvert" "$matrices/west0067.mtx" "$tmp/w.mtx" --symmetric
  contains "$tmp/err" "not symmetric"
  [[ ! -e "$tmp/w.mtx" ]] || fail "a refused --symmetric left $tmp/w.mtx behind"

  # x of the wrong length.
  printf '%%%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n' >"$tmp/x3.mtx"
  run 2 "$apps/spmv" "$matrices/west0067.mtx" --x "$tmp/x3.mtx" --iters 1 --copy-mib 0
  contains "$tmp/err" "$tmp/x3.mtx"
  contains "$tmp/err" "must be 67 x 1"
  echo "bad_input: ok"
}

# How every app reports a failure: by default one line in the input's terms (the file, the line,
# what was expected) without the library's status or source location; --verbose adds both; with
# --json a JSON object on stdout as well, for failures of the library's and of the app's own.
case_messages() {
  need_python
  printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.5\n2 x 2\n' >"$tmp/bad.mtx"
  local app
  for app in mminfo spmv pagerank cg spy; do
    run 2 "$apps/$app" "$tmp/bad.mtx"
    [[ "$(cat "$tmp/err")" == "$app: $tmp/bad.mtx:4: "* ]] ||
      fail "$app: the message does not lead with the file and line: $(cat "$tmp/err")"
    [[ $(wc -l <"$tmp/err") == 1 ]] || fail "$app: more than one line: $(cat "$tmp/err")"
    if grep -E "src/|CSR_ERR_" "$tmp/err" >/dev/null; then
      fail "$app: the library's internals without --verbose: $(cat "$tmp/err")"
    fi
    run 2 "$apps/$app" "$tmp/bad.mtx" --verbose
    contains "$tmp/err" "$tmp/bad.mtx:4: "
    grep -E "\[CSR_ERR_PARSE at src/io/[a-z_]+\.c:[0-9]+\]$" "$tmp/err" >/dev/null ||
      fail "$app --verbose: no status and source location: $(cat "$tmp/err")"
  done
  run 2 "$apps/mmconvert" "$tmp/bad.mtx" "$tmp/out.mtx"
  [[ "$(cat "$tmp/err")" == "mmconvert: $tmp/bad.mtx:4: "* ]] || fail "mmconvert: $(cat "$tmp/err")"
  # Standard input is named once, as the readers name it.
  "$apps/mminfo" - <"$tmp/bad.mtx" >"$tmp/out" 2>"$tmp/err" && fail "mminfo -: exit 0 on bad input"
  [[ "$(cat "$tmp/err")" == "mminfo: <stdin>:4: "* ]] || fail "mminfo -: $(cat "$tmp/err")"
  # --json: the object on stdout, for a library failure and for the app's own (a usage error).
  for app in mminfo spmv pagerank cg spy; do
    run 2 "$apps/$app" "$tmp/bad.mtx" --json
    [[ $(json "$tmp/out" 'j["error"]["program"]') == "$app" ]] || fail "$app --json: program"
    [[ $(json "$tmp/out" 'j["error"]["exit_code"]') == 2 ]] || fail "$app --json: exit_code"
    [[ $(json "$tmp/out" 'j["error"]["status"]') == CSR_ERR_PARSE ]] || fail "$app --json: status"
    [[ $(json "$tmp/out" 'j["error"]["source"].startswith("src/io/")') == True ]] ||
      fail "$app --json: source"
    [[ $(json "$tmp/out" 'j["error"]["message"]') == "$tmp/bad.mtx:4: "* ]] ||
      fail "$app --json: message"
    run 1 "$apps/$app" "$tmp/bad.mtx" --json --no-such-option
    [[ $(json "$tmp/out" 'j["error"]["exit_code"]') == 1 ]] || fail "$app --json usage: exit_code"
    [[ $(json "$tmp/out" 'j["error"]["status"]') == None ]] || fail "$app --json usage: status"
    contains "$tmp/err" "unknown option '--no-such-option'"
  done
  # A run that succeeds prints one object, without "error".
  run 0 "$apps/mminfo" "$matrices/karate.mtx" --json
  [[ $(json "$tmp/out" '"error" in j') == False ]] || fail "a success printed an error"
  # The app's own check (x of the wrong size) with --json. (json() parses stdout as one object,
  # so any second object printed after the first fails these checks too.)
  printf '%%%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n' >"$tmp/x3.mtx"
  run 2 "$apps/spmv" "$matrices/west0067.mtx" --x "$tmp/x3.mtx" --json --copy-mib 0
  [[ $(json "$tmp/out" 'j["error"]["status"]') == None ]] || fail "spmv --x --json: status"
  [[ $(json "$tmp/out" '"must be 67 x 1" in j["error"]["message"]') == True ]] ||
    fail "spmv --x --json: message"
  # --backend cuda without a device says so before reading the file (which does not exist here).
  if ! nvidia-smi -L >/dev/null 2>&1; then
    run 3 "$apps/spmv" "$tmp/not read.mtx" --backend cuda
    contains "$tmp/err" "the CUDA backend is not available"
    if grep -F "not read.mtx" "$tmp/err" >/dev/null; then
      fail "spmv --backend cuda read the file before checking for a device"
    fi
  fi
  echo "messages: ok"
}

case_mminfo() {
  need_python
  run 0 "$apps/mminfo" "$matrices/karate.mtx" --json
  json "$tmp/out" 'j' >/dev/null || fail "mminfo --json does not parse"
  python3 -c 'import json,sys; json.load(sys.stdin)' <"$tmp/out" || fail "not JSON"
  [[ $(json "$tmp/out" 'j["rows"]') == 34 ]] || fail "karate rows"
  [[ $(json "$tmp/out" 'j["cols"]') == 34 ]] || fail "karate cols"
  [[ $(json "$tmp/out" 'j["nnz"]') == 156 ]] || fail "karate nnz"
  [[ $(json "$tmp/out" 'j["max_row"]') == 17 ]] || fail "karate max_row"
  [[ $(json "$tmp/out" 'j["stored_entries"]') == 78 ]] || fail "karate stored entries"
  [[ $(json "$tmp/out" 'j["field"]') == pattern ]] || fail "karate field"
  [[ $(json "$tmp/out" 'j["symmetry"]') == symmetric ]] || fail "karate symmetry"
  [[ $(json "$tmp/out" 'abs(j["mean_row"] - 156 / 34) < 1e-12') == True ]] || fail "mean_row"
  [[ $(json "$tmp/out" 'sum(b["rows"] for b in j["histogram"])') == 34 ]] || fail "histogram"
  [[ $(json "$tmp/out" 'j["csr_bytes"]') == $((8 * 35 + 4 * 156)) ]] || fail "csr_bytes"

  run 0 "$apps/mminfo" "$matrices/bcsstk16.mtx.gz" --json
  [[ $(json "$tmp/out" 'j["gzip"]') == True ]] || fail "bcsstk16 gzip"
  [[ $(json "$tmp/out" 'j["nnz"]') == 290378 ]] || fail "bcsstk16 nnz"
  [[ $(json "$tmp/out" 'j["csr_bytes"]') == $((8 * 4885 + 12 * 290378)) ]] || fail "csr_bytes"

  run 0 "$apps/mminfo" "$matrices/empty_rows_11x12.mtx" --json
  [[ $(json "$tmp/out" 'j["empty_rows"]') == 6 ]] || fail "empty rows"
  [[ $(json "$tmp/out" 'j["field"]') == integer ]] || fail "integer field"

  # Text: banner, sizes and one bar per non-empty bin, the longest bar 50 columns.
  run 0 "$apps/mminfo" "$matrices/1138_bus.mtx"
  contains "$tmp/out" "matrix market, coordinate, real symmetric"
  contains "$tmp/out" "1138 x 1138"
  contains "$tmp/out" "2596 stored, 4054 after symmetric expansion"
  contains "$tmp/out" "longest 18"
  [[ $(grep -c '|#' "$tmp/out") == 4 ]] || fail "expected 4 histogram bars"
  grep -qE '\|#{50}$' "$tmp/out" || fail "no 50-column bar"

  for m in "${bundled[@]}"; do
    run 0 "$apps/mminfo" "$matrices/$m" --json
    json "$tmp/out" 'j["nnz"]' >/dev/null || fail "mminfo --json $m does not parse"
  done
  echo "mminfo: ok"
}

# Fields of mminfo --json and the spmv checksum that a conversion must preserve.
fingerprint() {
  "$apps/mminfo" "$1" --json >"$tmp/fp.json"
  json "$tmp/fp.json" '[j[k] for k in ("rows", "cols", "nnz", "max_row", "mean_row",
    "variance_row", "empty_rows", "histogram")]'
  "$apps/spmv" "$1" --json --iters 1 --copy-mib 0 --backend ref >"$tmp/fp.json"
  json "$tmp/fp.json" 'j["checksum"]'
}

case_mmconvert() {
  need_python
  local m base
  for m in karate.mtx 1138_bus.mtx west0067.mtx bcsstk16.mtx.gz; do
    base="$tmp/${m%%.*}"
    run 0 "$apps/mmconvert" "$matrices/$m" "$base.a.mtx.gz"
    contains "$tmp/err" "mmconvert: $matrices/$m"
    [[ $(od -An -tx1 -N2 "$base.a.mtx.gz" | tr -d ' ') == 1f8b ]] || fail "$base.a.mtx.gz not gzip"
    run 0 "$apps/mmconvert" "$base.a.mtx.gz" "$base.b.el"
    run 0 "$apps/mmconvert" "$base.b.el" "$base.c.txt.gz"
    run 0 "$apps/mmconvert" "$base.c.txt.gz" "$base.d.mtx"
    [[ "$(fingerprint "$matrices/$m")" == "$(fingerprint "$base.d.mtx")" ]] ||
      fail "$m: mminfo/spmv fingerprint changed through mtx -> mtx.gz -> edge lists -> mtx"
    # The same writer on the original: the files must be identical.
    run 0 "$apps/mmconvert" "$matrices/$m" "$base.ref.mtx"
    cmp "$base.ref.mtx" "$base.d.mtx" || fail "$m: round trip differs from a direct conversion"
  done

  # Symmetric output: one triangle, reads back as the same matrix.
  run 0 "$apps/mmconvert" "$matrices/1138_bus.mtx" "$tmp/s.mtx.gz" --symmetric
  "$apps/mminfo" "$tmp/s.mtx.gz" --json >"$tmp/s.json"
  local got
  got=$(json "$tmp/s.json" 'j["symmetry"], j["stored_entries"], j["nnz"]')
  [[ "$got" == "('symmetric', 2596, 4054)" ]] || fail "symmetric output: $got"
  [[ "$(fingerprint "$matrices/1138_bus.mtx")" == "$(fingerprint "$tmp/s.mtx.gz")" ]] ||
    fail "--symmetric changed the matrix"

  # Pattern output: no values; the pattern of a symmetric matrix stays symmetric.
  run 0 "$apps/mmconvert" "$matrices/west0067.mtx" "$tmp/p.mtx" --pattern
  head -1 "$tmp/p.mtx" | grep -qF "coordinate pattern general" || fail "--pattern banner"
  "$apps/mminfo" "$tmp/p.mtx" --json >"$tmp/p.json"
  [[ $(json "$tmp/p.json" 'j["field"], j["nnz"]') == "('pattern', 294)" ]] || fail "--pattern"
  run 0 "$apps/mmconvert" "$matrices/1138_bus.mtx" "$tmp/ps.el" --pattern
  [[ $(awk 'NF != 2' "$tmp/ps.el" | wc -l) == 0 ]] || fail "--pattern edge list has weights"
  run 0 "$apps/mmconvert" "$matrices/1138_bus.mtx" "$tmp/ps.mtx" --pattern --symmetric
  head -1 "$tmp/ps.mtx" | grep -qF "coordinate pattern symmetric" || fail "pattern symmetric"

  # Integer files stay integer; rectangular shapes are kept in Matrix Market and warned about
  # in edge lists (which record no size).
  run 0 "$apps/mmconvert" "$matrices/empty_rows_11x12.mtx" "$tmp/i.mtx"
  head -1 "$tmp/i.mtx" | grep -qF "coordinate integer general" || fail "integer field lost"
  run 0 "$apps/mmconvert" "$matrices/lp_share1b.mtx" "$tmp/l.el"
  contains "$tmp/err" "warning: an edge list records no size"
  contains "$tmp/err" "253 x 253, not 117 x 253"
  echo "mmconvert: ok"
}

# OUT's name: the extensions mmconvert writes are accepted, each in the format it names, and any
# other name is refused as a usage error (exit 1) before IN is read, with a message naming the
# extension and the ones it writes; compressions other than gzip get their own message.
case_mmconvert_out() {
  local m="$matrices/karate.mtx" out ext
  local written=".mtx or .mm (Matrix Market), .txt, .el or .edges (edge list), each optionally"
  cd "$tmp"
  for ext in bz2 xz zst; do
    for out in "k.mtx.$ext" "k.txt.$ext" "k.$ext"; do
      run 1 "$apps/mmconvert" "$m" "$out"
      contains "$tmp/err" "mmconvert: cannot compress with "
      contains "$tmp/err" "('$out'): gzip is the only compression mmconvert writes"
      contains "$tmp/err" "instead of .$ext"
      contains "$tmp/err" "OUT must end in $written"
      [[ ! -e "$out" ]] || fail "a refused name was written: $out"
    done
  done
  run 1 "$apps/mmconvert" "$m" k.mtx.bz2
  contains "$tmp/err" "cannot compress with bzip2"
  local pair
  for pair in k.xyz:.xyz k.xyz.gz:.xyz.gz k.mtx.tmp:.tmp k.csv:.csv; do
    out=${pair%%:*}
    run 1 "$apps/mmconvert" "$m" "$out"
    contains "$tmp/err" "mmconvert: cannot write '${pair#*:}' files ('$out'): OUT must end in $written"
    [[ ! -e "$out" ]] || fail "a refused name was written: $out"
  done
  for out in k k.gz dir.d/k; do
    run 1 "$apps/mmconvert" "$m" "$out"
    contains "$tmp/err" "'$out' has no extension to name the format to write"
  done
  # Refused before IN is read: a missing IN does not change the answer.
  run 1 "$apps/mmconvert" "$tmp/missing.mtx" k.xyz
  contains "$tmp/err" "cannot write '.xyz' files"
  # Every extension it accepts, plain and gzip, in the format it names.
  for ext in mtx mm txt el edges; do
    for out in "k.$ext" "k.$ext.gz"; do
      run 0 "$apps/mmconvert" "$m" "$out"
      local first magic
      magic=$(od -An -tx1 -N2 "$out" | tr -d ' ')
      if [[ $out == *.gz ]]; then
        [[ $magic == 1f8b ]] || fail "$out is not gzip"
        # sed, not head, reads all of it: gzip killed by SIGPIPE would fail the pipeline.
        first=$(gzip -dc "$out" | sed -n 1p)
      else
        [[ $magic != 1f8b ]] || fail "$out is gzip"
        first=$(head -n 1 "$out")
      fi
      if [[ $ext == mtx || $ext == mm ]]; then
        [[ $first == "%%MatrixMarket matrix coordinate pattern general" ]] ||
          fail "$out: not Matrix Market: $first"
      else
        [[ $first =~ ^[0-9]+\ [0-9]+$ ]] || fail "$out: not an edge list: $first"
      fi
      run 0 "$apps/mminfo" "$out"
      contains "$tmp/out" "156"
    done
  done
  # "-": Matrix Market on standard output.
  run 0 "$apps/mmconvert" "$m" -
  [[ $(head -n 1 "$tmp/out") == "%%MatrixMarket matrix coordinate pattern general" ]] ||
    fail "'-' did not write Matrix Market: $(head -n 1 "$tmp/out")"
  echo "mmconvert_out: ok"
}

case_spmv_validate() {
  need_python
  local backends=(ref)
  "$apps/spmv" --version | grep -E "^backends compiled in:.*\bomp\b" >/dev/null && backends+=(omp)
  local m b p got
  for m in "${bundled[@]}"; do
    for b in "${backends[@]}"; do
      for p in f64 f32; do
        run 0 "$apps/spmv" "$matrices/$m" --backend "$b" --precision "$p" --validate --iters 3 \
          --copy-mib 0 --json
        got=$(json "$tmp/out" 'j["validated"], j["backend"], j["precision"]')
        [[ "$got" == "(True, '$b', '$p')" ]] || fail "$m $b $p: $got"
      done
    done
    # Text output states the tolerance.
    run 0 "$apps/spmv" "$matrices/$m" --validate --iters 2 --copy-mib 0
    contains "$tmp/out" "validate  passed against ref: |y - yref| <= 16*eps*(row length + 2)"
  done
  # f64 checksums are the same on every backend (rows summed in stored order in double).
  run 0 "$apps/spmv" "$matrices/bcsstk16.mtx.gz" --backend ref --iters 1 --copy-mib 0 --json
  json "$tmp/out" 'j["checksum"]' >"$tmp/c.ref"
  run 0 "$apps/spmv" "$matrices/bcsstk16.mtx.gz" --iters 1 --copy-mib 0 --json --threads 2
  json "$tmp/out" 'j["checksum"]' >"$tmp/c.auto"
  cmp "$tmp/c.ref" "$tmp/c.auto" || fail "checksums differ between ref and auto"
  # --compress: packed columns give the same checksum, and the report says what was chosen and
  # why (on the CPU, auto keeps plain CSR).
  local c
  for c in on off auto; do
    run 0 "$apps/spmv" "$matrices/bcsstk16.mtx.gz" --iters 1 --copy-mib 0 --json --compress "$c"
    json "$tmp/out" 'j["checksum"]' >"$tmp/c.$c"
    cmp "$tmp/c.ref" "$tmp/c.$c" || fail "--compress $c changed the checksum"
    got=$(json "$tmp/out" 'j["columns"]["packed"], j["columns"]["chunks"] > 0')
    case $c in
    on) [[ "$got" == "(True, True)" ]] || fail "--compress on: $got" ;;
    *) [[ "$got" == "(False, False)" ]] || fail "--compress $c: $got" ;;
    esac
  done
  run 0 "$apps/spmv" "$matrices/bcsstk16.mtx.gz" --iters 1 --copy-mib 0 --compress on
  contains "$tmp/out" "columns   packed in 16 bits: packing asked for: 0 of 2269 chunks escaped"
  run 1 "$apps/spmv" "$matrices/bcsstk16.mtx.gz" --compress yes
  contains "$tmp/err" "--compress must be auto, on or off, not 'yes'"
  # --reorder: A renumbered before the timing, y brought back: it still validates against A.
  for c in rcm appearance; do
    run 0 "$apps/spmv" "$matrices/bcsstk16.mtx.gz" --iters 1 --copy-mib 0 --json --validate \
      --reorder "$c"
    got=$(json "$tmp/out" 'j["validated"], j["order"]["method"]')
    [[ "$got" == "(True, '$c')" ]] || fail "--reorder $c: $got"
  done
  run 2 "$apps/spmv" "$matrices/lp_share1b.mtx" --reorder rcm --iters 1 --copy-mib 0
  contains "$tmp/err" "--reorder renumbers rows and columns alike: A is 117 x 253"
  run 1 "$apps/spmv" "$matrices/bcsstk16.mtx.gz" --reorder sideways
  contains "$tmp/err" "--reorder must be none, auto, rcm, degree, hub or appearance"
  echo "spmv_validate: ok (${backends[*]})"
}

case_spmv_x() {
  need_python
  local m="$matrices/west0067.mtx"
  # x of ones from an array file gives the default checksum.
  {
    echo '%%MatrixMarket matrix array real general'
    echo '67 1'
    printf '1\n%.0s' {1..67}
  } >"$tmp/ones.mtx"
  run 0 "$apps/spmv" "$m" --iters 1 --copy-mib 0 --json
  json "$tmp/out" 'j["checksum"]' >"$tmp/c1"
  run 0 "$apps/spmv" "$m" --x "$tmp/ones.mtx" --iters 1 --copy-mib 0 --json
  json "$tmp/out" 'j["checksum"]' >"$tmp/c2"
  cmp "$tmp/c1" "$tmp/c2" || fail "x of ones from a file differs from the default"
  # x = e_5 (coordinate n x 1) picks column 5: its sum is the sum of that column.
  printf '%%%%MatrixMarket matrix coordinate real general\n67 1 1\n5 1 1\n' >"$tmp/e5.mtx"
  run 0 "$apps/spmv" "$m" --x "$tmp/e5.mtx" --iters 1 --copy-mib 0 --json --validate
  local want
  want=$(awk '!/^%/ && ++n > 1 && $2 == 5 { s += $3 } END { printf "%.12g", s }' "$m")
  [[ $(json "$tmp/out" '"%.12g" % j["checksum"]["sum"]') == "$want" ]] ||
    fail "A*e5 sum $(json "$tmp/out" 'j["checksum"]["sum"]'), expected $want"
  echo "spmv_x: ok"
}

case_spmv_copy() {
  need_python
  run 0 "$apps/spmv" "$matrices/1138_bus.mtx" --iters 5 --json --threads 1
  [[ $(json "$tmp/out" 'j["copy"]["array_bytes"] == 2**28 and j["copy"]["threads"] == 1') == True ]] ||
    fail "copy: $(json "$tmp/out" 'j["copy"]')"
  [[ $(json "$tmp/out" 'j["copy_gbs"] > 0 and j["gbs"] > 0 and j["median_ms"] > 0') == True ]] ||
    fail "non-positive timings"
  [[ $(json "$tmp/out" 'abs(j["copy_fraction"] - j["gbs"] / j["copy_gbs"]) < 1e-9') == True ]] ||
    fail "copy_fraction"
  [[ $(json "$tmp/out" 'j["bytes"]') == $((12 * 4054 + 8 * 1139 + 8 * 2276)) ]] || fail "bytes"
  local host='j["stages"]["built_on"] == "host" and j["stages"]["build_s"] is None'
  [[ $(json "$tmp/out" "$host and j['stages']['read_s'] > 0 and j['stages']['compute_s'] > 0") \
    == True ]] || fail "stages: $(json "$tmp/out" 'j["stages"]')"
  run 0 "$apps/spmv" "$matrices/karate.mtx" --iters 2 --copy-mib 1 --json --precision f32
  [[ $(json "$tmp/out" 'j["bytes"]') == $((4 * 156 + 8 * 35 + 4 * 68)) ]] || fail "pattern bytes"
  echo "spmv_copy: ok"
}

case_spmv_cuda() {
  local rc=0 gpu=0
  if "$apps/spmv" --version | grep -E "^backends compiled in:.*\bcuda\b" >/dev/null &&
    command -v nvidia-smi >/dev/null 2>&1 &&
    nvidia-smi -L >/dev/null 2>&1; then
    gpu=1
  fi
  "$apps/spmv" "$matrices/karate.mtx" --backend cuda --iters 2 --copy-mib 0 --validate \
    >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [[ $gpu == 1 ]]; then # a device and a CUDA build: the GPU SpMV must run and validate
    [[ $rc == 0 ]] || fail "--backend cuda on a GPU: exit $rc: $(cat "$tmp/err")"
    contains "$tmp/out" "backend   cuda"
    contains "$tmp/out" "validate  passed"
    contains "$tmp/out" "kernel    stream: every row fits" # karate: degrees 1 to 17
    contains "$tmp/out" "(on the GPU), spmv"              # the CSR built on the device
    # Each kernel forced, in JSON: its name, and the statistics' own pick in the reason.
    for k in scalar vector segmented stream; do
      run 0 "$apps/spmv" "$matrices/web-NotreDame.txt.gz" --backend cuda --kernel "$k" --iters 2 \
        --copy-mib 0 --validate --json
      [[ $(json "$tmp/out" 'j["kernel"]["name"] + str(j["kernel"]["forced"])') == "${k}True" ]] ||
        fail "--kernel $k: $(json "$tmp/out" 'j["kernel"]')"
      [[ $(json "$tmp/out" 'j["validated"]') == True ]] || fail "--kernel $k did not validate"
    done
    run 0 "$apps/spmv" "$matrices/web-NotreDame.txt.gz" --backend cuda --iters 2 --copy-mib 0 --json
    [[ $(json "$tmp/out" 'j["kernel"]["name"] == "segmented" and j["kernel"]["analysis_ms"] > 0') \
      == True ]] || fail "web-NotreDame (58% empty rows): $(json "$tmp/out" 'j["kernel"]')"
    local device='j["stages"]["built_on"] == "device" and j["stages"]["upload_s"] > 0'
    [[ $(json "$tmp/out" "$device and j['stages']['build_s'] > 0") == True ]] ||
      fail "stages: $(json "$tmp/out" 'j["stages"]')"
  else
    [[ $rc == 3 ]] || fail "--backend cuda: exit $rc, expected 3: $(cat "$tmp/err")"
    contains "$tmp/err" "the CUDA backend is not available"
    [[ ! -s "$tmp/out" ]] || fail "--backend cuda printed results without running on the GPU"
  fi
  echo "spmv_cuda: ok (gpu=$gpu, exit $rc)"
}

# A matrix the device cannot hold: another process (python's ctypes over libcudart) takes all
# but a margin of the device's memory, then spmv --backend cuda reads web-NotreDame. Over margins
# from nothing to plenty, each run either fits (exit 0) or exits 3 naming the stage that failed,
# and for an allocation, what it needed and what the device has; never a crash. Skipped (77)
# without a device, python3 or libcudart.
case_spmv_cuda_oom() {
  if ! "$apps/spmv" --version | grep -E "^backends compiled in:.*\bcuda\b" >/dev/null ||
    ! nvidia-smi -L >/dev/null 2>&1 || ! command -v python3 >/dev/null; then
    echo "spmv_cuda_oom: skipped (no device)"
    exit 77
  fi
  python3 - "$apps/spmv" "$matrices/web-NotreDame.txt.gz" <<'PY'
import ctypes, subprocess, sys
spmv, matrix = sys.argv[1:3]
rt = None
for name in ("libcudart.so", "libcudart.so.13", "libcudart.so.12",
             "/usr/local/cuda/lib64/libcudart.so"):
    try:
        rt = ctypes.CDLL(name)
        break
    except OSError:
        pass
if rt is None:
    print("spmv_cuda_oom: skipped (no libcudart)")
    sys.exit(77)
free, total = ctypes.c_size_t(), ctypes.c_size_t()
refused = 0
for margin_mb in (16, 256, 512, 520, 528, 536, 544, 552, 560, 568, 576, 640, 1024, 2048):
    rt.cudaMemGetInfo(ctypes.byref(free), ctypes.byref(total))
    hold = ctypes.c_void_p()
    if rt.cudaMalloc(ctypes.byref(hold), ctypes.c_size_t(free.value - (margin_mb << 20))) != 0:
        print(f"margin {margin_mb} MiB: cannot hold the rest of the device")
        continue
    p = subprocess.run([spmv, matrix, "--backend", "cuda", "--iters", "2", "--copy-mib", "0"],
                       capture_output=True, text=True)
    rt.cudaFree(hold)
    message = p.stderr.strip().replace("\n", " | ")
    print(f"margin {margin_mb} MiB: exit {p.returncode}: {message[:300]}")
    if p.returncode == 0:
        continue
    if p.returncode != 3:
        sys.exit(f"FAIL: exit {p.returncode} (expected 0 or 3)")
    refused += 1
    if "allocation of" in message and "GiB free of" not in message and "GiB in all" not in message:
        sys.exit("FAIL: an allocation failure without what the device has")
    if not any(w in message for w in ("GPU", "device", "out of memory")):
        sys.exit("FAIL: the message does not say the device ran out")
if refused == 0:
    sys.exit("FAIL: no margin was too small")
print(f"spmv_cuda_oom: ok ({refused} refused)")
PY
}

"case_$case_name"
