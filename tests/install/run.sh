#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# ctest "install_package": installs a built libcsr into a scratch prefix and builds
# tests/install/hello.c (and the guide's docs/example_cg.c and docs/example_tour.c, README's
# docs/example_first.c) against it the ways a user would:
#   (a) CMake:      find_package(csr) -> csr::csr (shared) and csr::csr_static
#   (b) pkg-config: cc hello.c $(pkg-config --cflags --libs csr)           (shared)
#   (c) pkg-config: cc hello.c $(pkg-config --cflags csr-static) \
#                   $(pkg-config --static --libs csr-static)          (libcsr.a; without --static too)
# then runs each program and compares its output with what csr.h documents, checks that the static
# programs load no libcsr and no shared library beyond those README names, and that the installed
# apps (bin/) run from the prefix.
#
# usage: run.sh BUILD_DIR SOURCE_DIR C_COMPILER CMAKE_COMMAND [CUDA_TOOLKIT_ROOT]
#   BUILD_DIR          the configured and built libcsr build tree
#   SOURCE_DIR         this directory (hello.c, CMakeLists.txt)
#   C_COMPILER         the compiler that built libcsr
#   CMAKE_COMMAND      the cmake that configured it
#   CUDA_TOOLKIT_ROOT  given when libcsr was built with CUDA: where the consumer finds CUDAToolkit
# Work files go to BUILD_DIR/tests/install-test (kept for inspection, wiped at the next run).
set -euo pipefail

if (($# < 4)); then
  echo "usage: $0 BUILD_DIR SOURCE_DIR C_COMPILER CMAKE_COMMAND [CUDA_TOOLKIT_ROOT]" >&2
  exit 2
fi
build_dir="$1"
source_dir="$2"
cc="$3"
cmake="$4"
cuda_root="${5:-}"

work="$build_dir/tests/install-test"
prefix="$work/prefix"
rm -rf "$work"
mkdir -p "$work"

# Runs a command with its output in a log file; prints the log only when it fails.
quiet() {
  local log="$1"
  shift
  if ! "$@" >"$log" 2>&1; then
    echo "FAILED: $*" >&2
    cat "$log" >&2
    exit 1
  fi
}

# Checks that program $2 (named $1) prints what hello.c prints on success (the version line
# aside, which comes from the installed header).
expected="context: CSR_SUCCESS
create: CSR_SUCCESS
validate: CSR_SUCCESS
spmv and nrm2: CSR_SUCCESS, 2.236068
validate bad column: CSR_ERR_INDEX_OUT_OF_BOUNDS
hello: ok"
check_run() {
  local name="$1"
  shift
  local out rc=0
  out="$("$@" 2>&1)" || rc=$?
  if ((rc != 0)) || [[ "$(printf '%s\n' "$out" | sed 1d)" != "$expected" ]]; then
    echo "FAILED: $name (exit $rc) printed:" >&2
    printf '%s\n' "$out" >&2
    echo "expected after the version line:" >&2
    printf '%s\n' "$expected" >&2
    exit 1
  fi
  echo "ok: $name"
}

# --- install ------------------------------------------------------------------------------------
echo "installing $build_dir into $prefix"
quiet "$work/install.log" "$cmake" --install "$build_dir" --prefix "$prefix"
pc_file="$(find "$prefix" -name csr.pc -path '*/pkgconfig/*' | head -n 1)"
apps=(mminfo mmconvert spmv pagerank cg spy)
if [[ -z "$pc_file" ]]; then
  echo "FAILED: no pkgconfig/csr.pc under $prefix" >&2
  exit 1
fi
libdir="$(dirname "$(dirname "$pc_file")")"
for f in "$prefix/include/csr.h" "$libdir/libcsr.so" "$libdir/libcsr.a" \
  "$libdir/cmake/csr/csrConfig.cmake" "$libdir/cmake/csr/csrConfigVersion.cmake" \
  "$libdir/pkgconfig/csr-static.pc" "${apps[@]/#/$prefix/bin/}"; do
  if [[ ! -e "$f" ]]; then
    echo "FAILED: $f was not installed; installed files:" >&2
    cat "$build_dir/install_manifest.txt" >&2 || true
    exit 1
  fi
done
echo "ok: installed files (libdir $libdir)"

# --- the apps, from the prefix --------------------------------------------------------------------
# Run with a bare environment (no LD_LIBRARY_PATH): they carry libcsr inside them.
version="$(sed -n 's/^#define CSR_VERSION_STRING "\(.*\)"/\1/p' "$prefix/include/csr.h")"
for app in "${apps[@]}"; do
  out="$(env -i PATH=/usr/bin:/bin "$prefix/bin/$app" --version 2>&1)" || {
    echo "FAILED: $prefix/bin/$app --version: $out" >&2
    exit 1
  }
  [[ "$out" == "$app (libcsr) $version"* ]] || {
    echo "FAILED: $prefix/bin/$app --version printed: $out" >&2
    exit 1
  }
done
repo_matrices="$(cd "$source_dir/../../matrices" && pwd)"
out="$(env -i PATH=/usr/bin:/bin "$prefix/bin/mminfo" "$repo_matrices/karate.mtx" --json 2>&1)" || {
  echo "FAILED: $prefix/bin/mminfo on karate.mtx: $out" >&2
  exit 1
}
[[ "$out" == *'"nnz": 156'* ]] || {
  echo "FAILED: $prefix/bin/mminfo karate.mtx: $out" >&2
  exit 1
}
echo "ok: the apps run from $prefix/bin (${apps[*]})"

# --- (a) CMake package --------------------------------------------------------------------------
cmake_args=(-S "$source_dir" -B "$work/cmake-build" "-DCMAKE_PREFIX_PATH=$prefix"
  "-DCMAKE_C_COMPILER=$cc" -DCMAKE_BUILD_TYPE=Release)
if [[ -n "$cuda_root" ]]; then
  cmake_args+=("-DCUDAToolkit_ROOT=$cuda_root")
fi
quiet "$work/cmake-configure.log" "$cmake" "${cmake_args[@]}"
quiet "$work/cmake-build.log" "$cmake" --build "$work/cmake-build"
# The package must be the one just installed, not another libcsr somewhere on the system.
if ! grep -q "^csr_DIR:PATH=$libdir/cmake/csr\$" "$work/cmake-build/CMakeCache.txt"; then
  echo "FAILED: find_package(csr) did not find $libdir/cmake/csr:" >&2
  grep '^csr_DIR' "$work/cmake-build/CMakeCache.txt" >&2 || true
  exit 1
fi
check_run "find_package(csr), csr::csr" env "LD_LIBRARY_PATH=$libdir" "$work/cmake-build/hello"
check_run "find_package(csr), csr::csr_static" "$work/cmake-build/hello_static"

# The documented solver example (docs/example_cg.c) runs and says ok.
check_example() {
  local name="$1" out
  shift
  if ! out="$("$@" 2>&1)" || [[ "$out" != *"example_cg: ok"* ]]; then
    echo "FAILED: $name printed:" >&2
    printf '%s\n' "$out" >&2
    exit 1
  fi
  echo "ok: $name: $(printf '%s\n' "$out" | head -n 1)"
}
check_example "docs/example_cg.c, find_package(csr)" env "LD_LIBRARY_PATH=$libdir" \
  "$work/cmake-build/example_cg"

# The user guide's tour (docs/example_tour.c) prints what docs/index.md says, on its built-in
# matrix and on matrices/1138_bus.mtx (tests/docs/check_tour.sh compares the lines).
repo="$(cd "$source_dir/../.." && pwd)"
check_tour() {
  bash "$repo/tests/docs/check_tour.sh" "$repo/matrices/1138_bus.mtx" "$@"
}
check_tour env "LD_LIBRARY_PATH=$libdir" "$work/cmake-build/example_tour"

# --- (b) pkg-config, shared ---------------------------------------------------------------------
export PKG_CONFIG_PATH="$libdir/pkgconfig"
cflags="$(pkg-config --cflags csr)"
libs="$(pkg-config --libs csr)"
echo "pkg-config: cflags '$cflags' libs '$libs'"
# shellcheck disable=SC2086 # pkg-config output is a list of words
quiet "$work/pc-shared.log" "$cc" -o "$work/hello_pc" "$source_dir/hello.c" $cflags $libs
check_run "pkg-config csr (shared)" env "LD_LIBRARY_PATH=$libdir" "$work/hello_pc"
# shellcheck disable=SC2086
quiet "$work/pc-example.log" "$cc" -o "$work/example_cg_pc" "$source_dir/../../docs/example_cg.c" \
  $cflags $libs
check_example "docs/example_cg.c, pkg-config csr" env "LD_LIBRARY_PATH=$libdir" \
  "$work/example_cg_pc"
# The tour's own build line: cc example_tour.c $(pkg-config --cflags --libs csr).
# shellcheck disable=SC2086
quiet "$work/pc-tour.log" "$cc" -o "$work/example_tour_pc" "$repo/docs/example_tour.c" $cflags \
  $libs
check_tour env "LD_LIBRARY_PATH=$libdir" "$work/example_tour_pc"
# README's first example, built with README's line, prints what README says.
# shellcheck disable=SC2086
quiet "$work/pc-first.log" "$cc" -o "$work/example_first_pc" "$repo/docs/example_first.c" \
  $cflags $libs
bash "$repo/tests/docs/check_first.sh" "$repo" env "LD_LIBRARY_PATH=$libdir" \
  "$work/example_first_pc"
# It must have picked up the installed libcsr.so. (grep without -q reads all of ldd's output:
# under pipefail, -q would quit early and ldd's SIGPIPE would fail the pipeline.)
if ! env "LD_LIBRARY_PATH=$libdir" ldd "$work/hello_pc" | grep "libcsr.so.* => $libdir/" >/dev/null; then
  echo "FAILED: hello_pc does not load libcsr from $libdir:" >&2
  env "LD_LIBRARY_PATH=$libdir" ldd "$work/hello_pc" >&2
  exit 1
fi

# --- (c) pkg-config, static: csr-static.pc -------------------------------------------------------
# csr.pc's -lcsr would take libcsr.so (both lie in libdir); csr-static names libcsr.a itself and
# the libraries it needs, with or without --static. The static programs may load only the shared
# libraries README's "Using the installed library" names: libc and the loader, libm, libpthread,
# zlib, the compiler's OpenMP runtime (and libgcc_s under it), the CUDA runtime (and libdl, librt).
allowed='^(libc|libm|libpthread|libz|libgomp|libomp|libgcc_s|libcudart|libdl|librt|ld-linux-x86-64|ld-linux-aarch64)\.so'
check_static() {
  local prog="$1" lib
  if readelf -d "$prog" | grep 'NEEDED.*libcsr' >/dev/null; then
    echo "FAILED: $prog still needs a shared libcsr" >&2
    exit 1
  fi
  for lib in $(readelf -d "$prog" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    if ! [[ "$lib" =~ $allowed ]]; then
      echo "FAILED: $prog needs $lib, which README does not list as staying dynamic" >&2
      exit 1
    fi
  done
}
static_cflags="$(pkg-config --cflags csr-static)"
static_libs="$(pkg-config --static --libs csr-static)"
plain_libs="$(pkg-config --libs csr-static)"
echo "pkg-config csr-static: cflags '$static_cflags' static libs '$static_libs' libs '$plain_libs'"
# shellcheck disable=SC2086 # pkg-config output is a list of words
quiet "$work/pc-static.log" "$cc" -o "$work/hello_pc_static" "$source_dir/hello.c" \
  $static_cflags $static_libs
check_static "$work/hello_pc_static"
check_run "pkg-config --static csr-static" "$work/hello_pc_static"
# shellcheck disable=SC2086
quiet "$work/pc-static-plain.log" "$cc" -o "$work/hello_pc_static_plain" "$source_dir/hello.c" \
  $static_cflags $plain_libs
check_static "$work/hello_pc_static_plain"
check_run "pkg-config csr-static (without --static)" "$work/hello_pc_static_plain"
echo "shared libraries of the static program (ldd):"
ldd "$work/hello_pc_static" | sed 's/^/  /'

echo "install_package: all ways of using the installed libcsr work"
