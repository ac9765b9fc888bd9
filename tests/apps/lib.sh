# SPDX-License-Identifier: BSD-3-Clause
# Shared by the app test scripts (run.sh, pagerank.sh, cg.sh), sourced after `set -euo pipefail`:
# a scratch directory $tmp removed on exit, and the checks fail / run / contains / need_python.

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# run EXPECTED_RC CMD...: runs CMD with stdout in $tmp/out and stderr in $tmp/err, checks the rc.
run() {
  local expected=$1
  shift
  local rc=0
  "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [[ "$rc" != "$expected" ]]; then
    echo "--- stdout:" >&2
    head -40 "$tmp/out" >&2
    echo "--- stderr:" >&2
    head -40 "$tmp/err" >&2
    fail "exit $rc, expected $expected: $*"
  fi
}

# contains FILE TEXT: FILE holds TEXT (fixed string).
contains() {
  grep -qF -- "$2" "$1" || {
    cat "$1" >&2
    fail "$1 lacks '$2'"
  }
}

# Exits 77 (ctest: skipped) without python3, which parses JSON output and files.
need_python() {
  if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 not found (it parses the output)"
    exit 77
  fi
}
