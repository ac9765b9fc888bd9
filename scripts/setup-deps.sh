#!/usr/bin/env bash
# Installs the Debian packages that libcsr's build, tests and CI need -- only those missing.
#
# Idempotent and quick when everything is present (one dpkg query per package, no network).
# When something is missing: one `apt-get update`, then one `apt-get install -y
# --no-install-recommends` of the missing packages, through sudo only when not root.
#
# Not needed (so not listed): the CUDA toolkit (optional, found at /usr/local/cuda or on PATH;
# without it the build is CPU-only) and libomp-dev (gcc's OpenMP runtime, libgomp, comes with gcc).
#
# Environment: CSR_SKIP_SETUP_DEPS=1 skips everything (non-Debian machines, offline builds).
set -euo pipefail

# One line per package and why it is here; keep this list minimal.
packages=(
  cmake              # the build system (CMakeLists.txt needs >= 3.25)
  build-essential    # gcc, make, libc headers: the default toolchain
  pkg-config         # the install test checks the installed csr.pc
  zlib1g-dev         # reading gzip-compressed Matrix Market files (.mtx.gz)
  liblapacke-dev     # dense LAPACK oracle for solver tests
  clang              # sanitizer and fuzzer builds
  libclang-rt-14-dev # clang's ASan/UBSan/libFuzzer runtimes (clang 14 is Debian 12's)
  clang-format       # the code-style check of .ci/run (.clang-format is written for version 14)
  python3            # the app tests parse --json output
)

if [[ "${CSR_SKIP_SETUP_DEPS:-0}" == 1 ]]; then
  echo "setup-deps: skipped (CSR_SKIP_SETUP_DEPS=1)"
  exit 0
fi
if ! command -v dpkg >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-deps: not a Debian-like system (no dpkg/apt-get); install these yourself:" >&2
  echo "  ${packages[*]}" >&2
  exit 0
fi

# A package counts as present only when dpkg says "install ok installed" (dpkg -s also answers
# for packages removed with their config files left behind).
missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg -s "$pkg" 2>/dev/null | grep '^Status: install ok installed$' >/dev/null; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup-deps: all ${#packages[@]} packages present"
  exit 0
fi

# Root runs apt-get directly; anyone else goes through sudo (and says so when there is none).
sudo_cmd=()
if [[ "$(id -u)" != 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup-deps: missing packages and no sudo; as root run:" >&2
    echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  sudo_cmd=(sudo)
fi

echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup-deps: done"
