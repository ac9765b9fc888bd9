# SPDX-License-Identifier: BSD-3-Clause
# The configure arguments of a GPU build, for bench/run_gpu.sh and bench/compare_builds.sh to
# source (run from the repository root): gpu_configure_args (Release, sm_90, the CUDA backend) and
# zlib_args, which point CMake at the copy of zlib's headers in .gpudeps (made by `bash
# bench/run_gpu.sh prepare` on a machine that has them) with the machine's own libz.so.1 when the
# machine lacks the headers, and are empty otherwise.
# shellcheck shell=bash disable=SC2034 # the arrays are the sourcing script's to use
gpu_configure_args=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCSR_WITH_CUDA=ON)
zlib_args=()
if [ ! -f /usr/include/zlib.h ] && [ -f .gpudeps/include/zlib.h ]; then
  libz=$(ls /lib/x86_64-linux-gnu/libz.so.1 /usr/lib/x86_64-linux-gnu/libz.so.1 /usr/lib64/libz.so.1 2>/dev/null | head -1)
  zlib_args=(-DZLIB_INCLUDE_DIR="$PWD/.gpudeps/include" -DZLIB_LIBRARY="$libz")
  echo "using carried zlib headers with $libz"
fi
