#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The test command of the README: installs missing build dependencies, configures build/ (with the
# CUDA backend when nvcc is found), builds with all cores and runs the whole ctest suite.
#
#   bash scripts/test.sh              # everything
#   bash scripts/test.sh -L unit      # extra arguments go to ctest (here: only the unit label)
#
# Environment: CSR_BUILD_DIR (default build), CSR_SKIP_SETUP_DEPS=1 (see setup-deps.sh).
# Exits non-zero when any step or any test fails. GPU tests report "skipped" without a device.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build_dir="${CSR_BUILD_DIR:-build}"
jobs="$(nproc 2>/dev/null || echo 2)"

bash scripts/setup-deps.sh test

# Configure: warnings as errors, the CUDA backend when nvcc is found (scripts/configure.sh).
CSR_CONFIGURE_TAG=test.sh bash scripts/configure.sh "$build_dir"
cmake --build "$build_dir" --parallel "$jobs"
ctest --test-dir "$build_dir" --output-on-failure --parallel "$jobs" "$@"
