#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Tests of the convergence plot of apps/cg (apps/plot.c) and the pictures' font (apps/font.c),
# one case per ctest test (label apps):
#
#   bash tests/spy/plot.sh CASE PLOT_DRAW
#
# CASE: a case of plot_check.py (font, decay, single, empty, flat, gaps, span, long), which
# draws with PLOT_DRAW (tests/spy/plot_draw.c) and decodes the PNG in python.
# Exit 0 pass, 1 fail, 77 skipped (python3 missing).
set -euo pipefail

case_name=${1:?usage: plot.sh CASE PLOT_DRAW}
driver=${2:?plot_draw executable}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=SCRIPTDIR/../apps/lib.sh
source "$here/../apps/lib.sh"
exec </dev/null

[[ -x "$driver" ]] || fail "no plot_draw executable '$driver'"
need_python
# -B: no __pycache__ left in the source tree by the imports.
python3 -B "$here/plot_check.py" "$case_name" "$driver" "$tmp"
