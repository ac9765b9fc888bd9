#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# docs/example_mpi.c on 1 and on 3 ranks prints the same PCG line, digit for digit.
#   check_mpi.sh MPIEXEC EXAMPLE MATRIX
set -euo pipefail
mpiexec=$1 example=$2 matrix=$3
one=$("$mpiexec" --oversubscribe -n 1 "$example" "$matrix" | tail -1)
three=$("$mpiexec" --oversubscribe -n 3 "$example" "$matrix" | tail -1)
echo "1 rank:  $one"
echo "3 ranks: $three"
[[ "$one" == PCG:* && "$one" == "$three" ]]
