#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# README's first example (docs/example_first.c): the code README shows is the file's code, the
# program prints the line README promises on matrices/1138_bus.mtx, and on a malformed file it
# prints the reader's message (the file, the line, what was expected; no library source
# location) and exits 1. Used by the docs_example_first test (the program built in the build
# tree) and by tests/install/run.sh (built with README's pkg-config line).
#
# usage: check_first.sh REPO COMMAND...
#   REPO      the repository root (README.md, docs/example_first.c, matrices/1138_bus.mtx)
#   COMMAND   the program, with any launcher in front (env LD_LIBRARY_PATH=... ./example_first)
set -euo pipefail

if (($# < 2)); then
  echo "usage: $0 REPO COMMAND..." >&2
  exit 2
fi
repo="$1"
shift
fail() {
  echo "FAILED: $*" >&2
  exit 1
}

# 1. README's first C block is the example's code: the file from its #include on.
readme_code="$(awk '/^```c$/ && !done {inside = 1; next} inside && /^```$/ {inside = 0; done = 1}
  inside' "$repo/README.md")"
file_code="$(sed -n '/^#include/,$p' "$repo/docs/example_first.c")"
if [[ "$readme_code" != "$file_code" ]]; then
  diff <(printf '%s\n' "$file_code") <(printf '%s\n' "$readme_code") >&2 || true
  fail "README.md's first C block is not docs/example_first.c (diff above: < file, > README)"
fi
promised="$(sed -n 's/^.*prints: //p' "$repo/docs/example_first.c" | head -n 1)"
[[ -n "$promised" ]] || fail "docs/example_first.c's comment does not say what it prints"
grep -F -- "$promised" "$repo/README.md" >/dev/null ||
  fail "README.md does not show the output '$promised'"

# 2. On the bundled matrix: the promised line, exit 0.
out="$("$@" "$repo/matrices/1138_bus.mtx" 2>&1)" || fail "exit $? on 1138_bus.mtx: $out"
[[ "$out" == "$promised" ]] || fail "printed '$out', README promises '$promised'"

# 3. On a malformed file: the reader's message, exit 1.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
bad="$work/bad.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n2 2\n' >"$bad"
rc=0
out="$("$@" "$bad" 2>&1)" || rc=$?
((rc == 1)) || fail "exit $rc on a malformed file (expected 1): $out"
[[ "$out" == "$bad:4: "* ]] || fail "the message '$out' does not start with '$bad:4: '"
[[ "$out" != *"src/"* ]] || fail "the message '$out' shows the library's source location"
echo "ok: example_first prints '$promised'; a malformed file gives: $out"
