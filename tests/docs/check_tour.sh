#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs docs/example_tour.c's program twice, on its built-in 4 x 4 matrix and on
# matrices/1138_bus.mtx, and compares what it prints, line by line, with what the user guide
# (docs/index.md) says it prints. Used by the docs_example_tour test (the program built in the
# build tree) and by tests/install/run.sh (built against the installed library).
#
# usage: check_tour.sh BUS_MTX COMMAND...
#   BUS_MTX   path of matrices/1138_bus.mtx
#   COMMAND   the program, with any launcher in front (env LD_LIBRARY_PATH=... ./example_tour)
# In the expected lines below, <any> stands for any text: the version, the backend that ran
# (OpenMP when built, else the reference), the error's detail (source file and line), and
# what the device could do (the machine's GPU, and whether the library has the device SpMV).
set -euo pipefail

if (($# < 2)); then
  echo "usage: $0 BUS_MTX COMMAND..." >&2
  exit 2
fi
bus="$1"
shift

expected_builtin='example_tour: libcsr <any>
matrix: built in, 4 x 4, 10 nonzeros
spmv: ran on the <any> backend
spmv: y = A*x = [2, 4, 6, 9]
check: y equals the row-by-row sums over the CSR arrays
reductions: x.y = 64, ||y||_2 = 11.7047
backends: ref agrees with <any>
error: CSR_ERR_DIMENSION_MISMATCH (<any>)
device: <any>
example_tour: ok'

expected_bus="example_tour: libcsr <any>
matrix: $bus, 1138 x 1138, 4054 nonzeros (2596 entries stored in the file)
spmv: ran on the <any> backend
check: y equals the row-by-row sums over the CSR arrays
reductions: x.y = <any>, ||y||_2 = <any>
backends: ref agrees with <any>
error: CSR_ERR_DIMENSION_MISMATCH (<any>)
device: <any>
example_tour: ok"

# matches LINE PATTERN: LINE is PATTERN, <any> standing for any text, the rest literal.
matches() {
  local re
  re="$(printf '%s' "$2" | sed -e 's/[][\.^$?*+(){}|]/\\&/g' -e 's/<any>/.*/g')"
  [[ "$1" =~ ^${re}$ ]]
}

# check NAME EXPECTED COMMAND...: the command exits 0 and prints EXPECTED.
check() {
  local name="$1" expected="$2" out rc=0 k
  shift 2
  out="$("$@" 2>&1)" || rc=$?
  local -a got want
  mapfile -t got <<<"$out"
  mapfile -t want <<<"$expected"
  local ok=$((rc == 0 && ${#got[@]} == ${#want[@]}))
  for ((k = 0; ok && k < ${#want[@]}; k++)); do
    if ! matches "${got[k]}" "${want[k]}"; then
      echo "line $((k + 1)): '${got[k]}' is not '${want[k]}'" >&2
      ok=0
    fi
  done
  if ((!ok)); then
    echo "FAILED: $name (exit $rc) printed:" >&2
    printf '%s\n' "$out" >&2
    echo "expected (<any>: any text):" >&2
    printf '%s\n' "$expected" >&2
    exit 1
  fi
  echo "ok: $name: $(printf '%s\n' "$out" | grep '^device: ')"
}

check "example_tour (built-in matrix)" "$expected_builtin" "$@"
check "example_tour $bus" "$expected_bus" "$@" "$bus"
