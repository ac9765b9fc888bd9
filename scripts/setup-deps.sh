#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs what libcsr needs and is missing, in two sets:
#
#   bash scripts/setup-deps.sh build   # what building the library and the apps needs (the demo)
#   bash scripts/setup-deps.sh test    # that, plus what the tests and CI need (the test command)
#
# Idempotent and quick when everything is present (one dpkg query per package, one python3
# import, no network). When something is missing: one `apt-get update` and one `apt-get install -y
# --no-install-recommends` of the missing Debian packages (through sudo when not root), and for
# the test set one `python3 -m pip install` of the missing Python modules (Debian's python3-*
# packages instead when pip refuses to touch the system Python).
#
# Not needed (so not listed): the CUDA toolkit (optional, found at /usr/local/cuda or on PATH;
# without it the build is CPU-only) and libomp-dev (gcc's OpenMP runtime, libgomp, comes with gcc).
#
# Environment: CSR_SKIP_SETUP_DEPS=1 skips everything (non-Debian machines, offline builds).
set -euo pipefail

set_name="${1:-test}"
if [[ "$set_name" != build && "$set_name" != test ]]; then
  echo "usage: $0 [build|test]" >&2
  exit 2
fi

# One line per package and why it is here; keep these lists minimal.
build_packages=(
  cmake           # the build system (CMakeLists.txt needs >= 3.25)
  build-essential # gcc, make, libc headers: the default toolchain
  pkg-config      # csr.pc, and the install test that checks it
  zlib1g-dev      # reading and writing gzip-compressed files (.mtx.gz)
)
test_packages=(
  liblapacke-dev     # dense LAPACK oracle of the solver tests
  clang              # the sanitizer and fuzzer builds of CI
  libclang-rt-14-dev # clang's ASan/UBSan/libFuzzer runtimes (clang 14 is Debian 12's)
  clang-format       # the code-style check of CI (.clang-format is written for version 14)
  python3            # the app and docs tests parse --json output, PNGs and the docs
  libopenmpi-dev     # the distributed layer (libcsr_mpi) and its tests: mpicc, mpi.h
  openmpi-bin        # mpiexec, which runs the tests labelled mpi on 1 to 4 ranks
)
# Python modules of the tests: the PageRank tests compare with networkx (numpy and scipy under
# it) and igraph; the Python package builds with scikit-build-core and nanobind and is tested
# with pytest; its reader benchmark compares with fast_matrix_market.
python_modules=(numpy scipy networkx igraph pytest scikit_build_core nanobind fast_matrix_market)

if [[ "${CSR_SKIP_SETUP_DEPS:-0}" == 1 ]]; then
  echo "setup-deps: skipped (CSR_SKIP_SETUP_DEPS=1)"
  exit 0
fi

packages=("${build_packages[@]}")
[[ "$set_name" == test ]] && packages+=("${test_packages[@]}")

# Root runs apt-get directly; anyone else goes through sudo.
sudo_cmd=()
if [[ "$(id -u)" != 0 ]] && command -v sudo >/dev/null 2>&1; then
  sudo_cmd=(sudo)
fi
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$@"
}

if ! command -v dpkg >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-deps: not a Debian-like system (no dpkg/apt-get); install these yourself:" >&2
  echo "  ${packages[*]}" >&2
else
  # A package counts as present only when dpkg says "install ok installed" (dpkg -s also answers
  # for packages removed with their config files left behind).
  missing=()
  for pkg in "${packages[@]}"; do
    if ! dpkg -s "$pkg" 2>/dev/null | grep '^Status: install ok installed$' >/dev/null; then
      missing+=("$pkg")
    fi
  done
  if ((${#missing[@]} == 0)); then
    echo "setup-deps ($set_name): all ${#packages[@]} Debian packages present"
  elif [[ "$(id -u)" != 0 && ${#sudo_cmd[@]} == 0 ]]; then
    echo "setup-deps: missing packages and no sudo; as root run:" >&2
    echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  else
    echo "setup-deps ($set_name): installing ${missing[*]}"
    apt_install "${missing[@]}"
  fi
fi

[[ "$set_name" == test ]] || exit 0

# The tests' Python modules, into the python3 on PATH (the one the tests run).
missing_py=()
for mod in "${python_modules[@]}"; do
  python3 -c "import $mod" >/dev/null 2>&1 || missing_py+=("$mod")
done
if ((${#missing_py[@]} == 0)); then
  echo "setup-deps (test): Python modules ${python_modules[*]} present"
  exit 0
fi
echo "setup-deps (test): installing the Python modules ${missing_py[*]}"
if python3 -m pip install --quiet --disable-pip-version-check "${missing_py[@]}"; then
  exit 0
fi
# A system Python that pip may not change (PEP 668): Debian's packages of the same modules.
if [[ "$(command -v python3)" == /usr/bin/python3 ]] && command -v apt-get >/dev/null 2>&1; then
  apt_install "${missing_py[@]/#/python3-}" && exit 0
fi
echo "setup-deps: could not install ${missing_py[*]} for $(command -v python3); the tests that" \
  "compare with networkx will report themselves skipped" >&2
exit 0
