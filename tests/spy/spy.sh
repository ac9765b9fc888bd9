#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Tests of apps/spy, one case per ctest test (label apps):
#
#   bash tests/spy/spy.sh CASE APPS_DIR SOURCE_DIR [BENCH]
#
# CASE: help, usage, bad_input (command line and exit codes, here); bench (BENCH, the drawing
# benchmark, on generated matrices with its own recount); the picture cases of spy_check.py
# (decoder, exact, scaled, blocks, shades, histogram, rect, empty, pattern, symmetric, gzip,
# edge_list, stdin, threads, bus, titles, titles_large), which decode the PNG in python.
# Exit 0 pass, 1 fail, 77 skipped (python3 missing).
set -euo pipefail

case_name=${1:?usage: spy.sh CASE APPS_DIR SOURCE_DIR [BENCH]}
apps=${2:?apps dir}
src=${3:?source dir}
bench=${4:-}
app="$apps/spy"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bus="$src/matrices/1138_bus.mtx"
# shellcheck source=SCRIPTDIR/../apps/lib.sh
source "$here/../apps/lib.sh"
exec </dev/null # no case reads standard input

# PNG signature check without python: the first 8 bytes.
is_png() {
  [[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" == "89504e470d0a1a0a" ]]
}

case_help() {
  local version
  version=$(sed -n 's/^#define CSR_VERSION_STRING "\(.*\)"/\1/p' "$src/include/csr.h")
  run 0 "$app" --help
  for text in "Usage: spy FILE [--out PATH] [--size N]" "--threads T" "16..8192 (default 512)" \
    "log scale" "log10 scale" "log2 bin" "empty rows" "explicit zeros kept" "symmetric files" \
    "draw_seconds" "pixels_nonempty" "Exit status: 0 success, 1 usage error, 2 bad input"; do
    contains "$tmp/out" "$text"
  done
  [[ ! -s "$tmp/err" ]] || fail "--help wrote to stderr"
  run 0 "$app" --version
  contains "$tmp/out" "spy (libcsr) $version"
  run 0 "$app" "$bus" --size 3 --help # --help wins over the rest of the line
  contains "$tmp/out" "Usage: spy"
  echo "help: ok"
}

case_usage() {
  cd "$tmp"
  run 1 "$app"
  contains "$tmp/err" "missing FILE"
  contains "$tmp/err" "Try 'spy --help'"
  run 1 "$app" "$bus" "$bus"
  contains "$tmp/err" "one FILE only"
  run 1 "$app" "$bus" --frobnicate
  contains "$tmp/err" "unknown option '--frobnicate'"
  local bad
  for bad in "--size 15" "--size 8193" "--size 0" "--size -1" "--size 1e3" "--size x" \
    "--threads 0" "--threads 4097" "--threads two"; do
    # shellcheck disable=SC2086 # split "--option value" on purpose
    run 1 "$app" "$bus" $bad
    contains "$tmp/err" "${bad%% *} must be"
  done
  run 1 "$app" "$bus" --out
  contains "$tmp/err" "option --out needs a value"
  run 1 "$app" "$bus" --out=
  contains "$tmp/err" "--out must be a file name"
  [[ ! -e "$tmp/spy.png" ]] || fail "a usage error wrote spy.png"
  # Accepted spellings and bounds. Without --out the picture goes to spy.png in a new directory
  # under $TMPDIR, named on the first line (and in JSON), never into the working directory.
  mkdir "$tmp/cwd" "$tmp/tmpdir"
  cd "$tmp/cwd"
  TMPDIR="$tmp/tmpdir/" run 0 "$app" "$bus" --size=16 --threads=1
  local first made
  first=$(head -n 1 "$tmp/out")
  made=${first%%: *}
  [[ "$made" == "$tmp/tmpdir/spy-"??????"/spy.png" ]] || fail "default output: '$first'"
  is_png "$made" || fail "no PNG at $made"
  [[ -z "$(ls -A "$tmp/cwd")" ]] || fail "spy wrote into the working directory: $(ls -A "$tmp/cwd")"
  TMPDIR="$tmp/tmpdir" run 0 "$app" "$bus" --size=16 --json
  local again
  again=$(sed -n 's/^ *"out": "\(.*\)",$/\1/p' "$tmp/out")
  [[ "$again" == "$tmp/tmpdir/spy-"??????"/spy.png" && "$again" != "$made" ]] ||
    fail "a second run's JSON out: '$again' (first: '$made')"
  is_png "$again" || fail "no PNG at $again"
  [[ $(find "$tmp/tmpdir" -name spy.png | wc -l) == 2 ]] || fail "expected two pictures"
  # A TMPDIR it cannot write into: a runtime failure naming it, nothing left behind.
  TMPDIR="$tmp/no such dir" run 3 "$app" "$bus"
  contains "$tmp/err" "cannot make a directory for the picture under $tmp/no such dir"
  [[ -z "$(ls -A "$tmp/cwd")" ]] || fail "a failure wrote into the working directory"
  cd "$tmp"
  run 0 "$app" --out "$tmp/big.png" --size 8192 -- "$bus"
  is_png "$tmp/big.png" || fail "--size 8192 wrote no PNG"
  contains "$tmp/out" "each entry 7 x 7 pixels"
  echo "usage: ok"
}

case_bad_input() {
  local missing="$tmp/no such dir/missing.mtx"
  run 2 "$app" "$missing" --out "$tmp/x.png" --verbose
  contains "$tmp/err" "$missing"
  contains "$tmp/err" "[CSR_ERR_IO at "
  printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.5\n2 x 2\n' >"$tmp/bad.mtx"
  run 2 "$app" "$tmp/bad.mtx" --out "$tmp/x.png" --verbose
  contains "$tmp/err" "$tmp/bad.mtx:4"
  contains "$tmp/err" "[CSR_ERR_PARSE at "
  printf '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1\n' >"$tmp/range.mtx"
  run 2 "$app" "$tmp/range.mtx" --out "$tmp/x.png"
  contains "$tmp/err" "$tmp/range.mtx:3"
  printf '%%%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 2\n' >"$tmp/c.mtx"
  run 2 "$app" "$tmp/c.mtx" --out "$tmp/x.png" --verbose
  contains "$tmp/err" "[CSR_ERR_UNSUPPORTED at "
  printf 'not a matrix\n' | gzip >"$tmp/junk.mtx.gz"
  run 2 "$app" "$tmp/junk.mtx.gz" --out "$tmp/x.png"
  contains "$tmp/err" "$tmp/junk.mtx.gz"
  [[ ! -e "$tmp/x.png" ]] || fail "bad input wrote a picture"
  # The picture cannot be written: a runtime failure, nothing on stdout.
  run 3 "$app" "$bus" --out "$tmp/no such dir/spy.png"
  contains "$tmp/err" "$tmp/no such dir/spy.png"
  contains "$tmp/err" "No such file or directory"
  [[ ! -s "$tmp/out" ]] || fail "a failed write printed a report"
  mkdir "$tmp/dir.png"
  run 3 "$app" "$bus" --out "$tmp/dir.png" --json
  contains "$tmp/err" "writing the picture failed"
  if [[ -w /dev/full ]]; then
    run 3 "$app" "$bus" --out /dev/full
    contains "$tmp/err" "/dev/full"
  fi
  echo "bad_input: ok"
}

# The benchmark's recount at several shapes: uneven blocks; 1.5 * 2^30 columns, where the
# fixed-point block index (32.32, rounded down) is low by one for many columns near the block
# boundaries and must be corrected; 2^31 - 1 columns (the index at its limit); a small matrix
# drawn at a scale; a tall thin one.
case_bench() {
  [[ -x "$bench" ]] || fail "no benchmark executable '$bench'"
  run 0 "$bench" 2000000 30011 1610612735 512 2 1
  contains "$tmp/out" '"nnz": 2000000'
  run 0 "$bench" 40 5 1610612735 16 1 1
  run 0 "$bench" 20000 4099 2147483647 512 2 1
  run 0 "$bench" 1000000 500009 1000003 100 0 1
  run 0 "$bench" 5000 100 90 512 1 1
  run 0 "$bench" 300000 1000003 5 64 2 1
  echo "bench: ok"
}

case "$case_name" in
help | usage | bad_input | bench) "case_$case_name" ;;
*)
  need_python
  # -B: no __pycache__ left in the source tree by the import of pngread.
  python3 -B "$here/spy_check.py" "$case_name" "$app" "$src" "$tmp"
  ;;
esac
