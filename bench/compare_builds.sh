#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One benchmark run on several builds of libcsr, round after round in one go, so that a change of
# a few per cent can be told from the spread between runs and between builds: the working tree,
# any number of other trees (another revision, exported with `export`), and, with --twice, the
# working tree built a second time, whose difference from the first build is that spread alone.
#
#   bash bench/compare_builds.sh export REV [DIR]
#       REV's tree (git archive) into DIR, by default .compare/REV (run where the git history is)
#   bash bench/compare_builds.sh run [--tree NAME=DIR]... [--twice] [--rounds N] [--cmake "ARGS"]
#                                    [--out DIR] -- BENCH [ARGS...]
#       configures each tree into build-compare/NAME (Release; the working tree is "this") and
#       builds only BENCH's target, the builds side by side; then runs, in each round, every build
#       in turn (the order rotated from round to round):
#         build-compare/NAME/bench/BENCH ARGS --csv OUT/NAME-ROUND.csv > OUT/NAME-ROUND.log
#       and prints, per row of the CSVs, each build's times over the rounds and its median against
#       the working tree's. --cmake: configure arguments, by default the GPU build's
#       (bench/gpu_configure.sh, as bench/run_gpu.sh configures) where nvcc is found, else none;
#       zlib's headers carried in .gpudeps are used the same way. --out: by default $OUT, else
#       ./compare-out.
set -euo pipefail

if [ "${1:-}" = export ]; then
  rev=${2:?usage: compare_builds.sh export REV [DIR]}
  dir=${3:-.compare/$rev}
  rm -rf "$dir" && mkdir -p "$dir"
  git archive "$rev" | tar -x -C "$dir"
  echo "$rev -> $dir"
  exit 0
fi
[ "${1:-}" = run ] || { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift

source bench/gpu_configure.sh # gpu_configure_args, zlib_args
names=(this) dirs=(.) twice=0 rounds=2 out=${OUT:-$PWD/compare-out} cmake_args=
if command -v nvcc >/dev/null 2>&1; then
  cmake_args="${gpu_configure_args[*]}"
fi
while [ $# -gt 0 ]; do
  case "$1" in
  --tree) names+=("${2%%=*}") dirs+=("$(cd "${2#*=}" && pwd)"); shift 2 ;;
  --twice) twice=1; shift ;;
  --rounds) rounds=$2; shift 2 ;;
  --cmake) cmake_args=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --) shift; break ;;
  *) echo "compare_builds.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
bench=${1:?compare_builds.sh run: no benchmark named after --}
shift
if [ "$twice" = 1 ]; then names+=(this-again) dirs+=(.); fi
mkdir -p "$out"

# The builds side by side, the cores shared between them.
jobs=$(($(nproc) / ${#names[@]}))
[ "$jobs" -ge 1 ] || jobs=1
pids=()
for i in "${!names[@]}"; do
  b=$PWD/build-compare/${names[$i]}
  # shellcheck disable=SC2086 # cmake_args is a list of arguments
  (cmake -S "${dirs[$i]}" -B "$b" -DCMAKE_BUILD_TYPE=Release $cmake_args "${zlib_args[@]}" \
    >"$out/${names[$i]}-configure.txt" 2>&1 &&
    cmake --build "$b" -j "$jobs" --target "$bench" >"$out/${names[$i]}-build.txt" 2>&1) &
  pids+=($!)
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { echo "build of ${names[$i]} failed: $out/${names[$i]}-*.txt" >&2; exit 1; }
done
echo "built: ${names[*]}"

n=${#names[@]}
for ((r = 1; r <= rounds; r++)); do
  for ((k = 0; k < n; k++)); do
    name=${names[$(((k + r - 1) % n))]}
    build-compare/"$name"/bench/"$bench" "$@" --csv "$out/$name-$r.csv" >"$out/$name-$r.log" 2>&1 ||
      { echo "$name, round $r: $bench failed ($out/$name-$r.log)" >&2; exit 1; }
  done
  echo "round $r done"
done

python3 - "$out" "$rounds" "${names[@]}" <<'EOF'
# Per CSV row (its columns before the first time column name it), each build's times over the
# rounds and the median's ratio to the working tree's: > 1 is slower than the working tree.
import csv, statistics, sys
out, rounds, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
TIME = {"ours_seconds": 1e3, "ours_ms": 1.0, "median_ms": 1.0}  # column -> to milliseconds
times, order = {}, []
for name in names:
    for r in range(1, rounds + 1):
        with open(f"{out}/{name}-{r}.csv") as f:
            for row in csv.DictReader(f):
                col = next((c for c in row if c in TIME), None)
                if col is None or not row[col]:
                    continue
                key = ", ".join(row[c] for c in list(row)[: list(row).index(col)] if row[c])
                if key not in times:
                    times[key] = {}
                    order.append(key)
                times[key].setdefault(name, []).append(float(row[col]) * TIME[col])
for key in order:
    base = statistics.median(times[key].get(names[0], [float("nan")]))
    print(key)
    for name in names:
        t = times[key].get(name, [])
        if t:
            m = statistics.median(t)
            print(f"  {name:>12}: {' '.join(f'{x:.4g}' for x in t)} ms, median {m:.4g} ({m / base:.3f}x)")
EOF
