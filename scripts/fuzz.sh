#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Fuzzes libcsr's readers with libFuzzer (tests/fuzz/README.md):
#   builds build-fuzz/fuzz_mm_read (clang, ASan + UBSan, CPU only; tests/fuzz/CMakeLists.txt),
#   assembles a fresh seed corpus in build-fuzz/corpus, runs the fuzzer on one core.
#
#   bash scripts/fuzz.sh          # 60 seconds
#   bash scripts/fuzz.sh 600      # 10 minutes
#
# Fixed seed (-seed=1) and a fresh corpus each run, so a run is repeatable up to timing.
# Exits non-zero on any finding (crash, leak, UBSan report, timeout > 10 s, RSS > 2 GiB);
# the reproducer lands in build-fuzz/artifacts/. Environment: CSR_FUZZ_BUILD_DIR (build-fuzz),
# CSR_SKIP_SETUP_DEPS=1 (see setup-deps.sh).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || ((seconds < 1)); then
  echo "usage: bash scripts/fuzz.sh [SECONDS]" >&2
  exit 2
fi
build="${CSR_FUZZ_BUILD_DIR:-build-fuzz}"

bash scripts/setup-deps.sh test # clang and libclang-rt-14-dev (libFuzzer, ASan, UBSan runtimes)

# 1. Build (library with -fsanitize=fuzzer-no-link,address,undefined; target with fuzzer).
cmake -S tests/fuzz -B "$build" -DCMAKE_C_COMPILER=clang >/dev/null
cmake --build "$build" --target fuzz_mm_read --parallel "$(nproc 2>/dev/null || echo 2)"

# 2. Seed corpus. Byte 0 of every input picks the read block size (fuzz_mm_read.c), so each
#    seed goes in twice: 0x01 + file (16-byte blocks) and 0xff + file (4096-byte blocks). 0x00
#    (the default 32 MiB block) comes from mutations: under ASan each such read costs ~5 ms of
#    allocation, and the target compares every read with a one-block read anyway.
corpus="$build/corpus"
artifacts="$build/artifacts"
rm -rf "$corpus" "$artifacts"
mkdir -p "$corpus" "$artifacts"
n=0
add_seed() { # add_seed NAME < bytes
  local tmp="$corpus/.tmp"
  cat >"$tmp"
  { printf '\x01'; cat "$tmp"; } >"$corpus/$1.16"
  { printf '\xff'; cat "$tmp"; } >"$corpus/$1.4096"
  rm -f "$tmp"
  n=$((n + 1))
}
seed_name() { # a flat, unique name for a path
  printf '%s' "$1" | tr -c 'A-Za-z0-9._-' '_'
}
# Every file of matrices/ and of ../shared/mmtests (the reader test inputs), whole
# (-max_len cuts what is longer), and the first 4 KiB of each shared matrix up to its last newline.
shared="$root/../shared"
for dir in "$root/matrices" "$shared/mmtests"; do
  [[ -d "$dir" ]] || continue
  while IFS= read -r -d '' f; do
    add_seed "$(seed_name "${f#"$root"/}")" <"$f"
  done < <(find "$dir" -type f -print0 | sort -z)
done
if [[ -d "$shared/matrices" ]]; then
  while IFS= read -r -d '' f; do
    if (($(stat -c %s "$f") > 4096)); then
      head -c 4096 "$f" | sed '$d' | add_seed "piece_$(seed_name "$(basename "$f")")"
    else
      add_seed "piece_$(seed_name "$(basename "$f")")" <"$f"
    fi
  done < <(find "$shared/matrices" -maxdepth 1 -type f -name '*.mtx' -print0 | sort -z)
fi
# Past findings (tests/fuzz/regressions/, control byte included), as they are.
if [[ -d tests/fuzz/regressions ]]; then
  while IFS= read -r -d '' f; do
    cp "$f" "$corpus/regression_$(basename "$f")"
    n=$((n + 1))
  done < <(find tests/fuzz/regressions -type f ! -name '*.md' -print0 | sort -z)
fi
echo "fuzz.sh: $n seed files ($(find "$corpus" -type f | wc -l) inputs) in $corpus"

# 3. Fuzz on one core. Leak checking is on (libFuzzer + ASan default); -error_exitcode makes any
#    finding a non-zero exit.
status=0
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
  UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
  "$build/fuzz_mm_read" -seed=1 -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 \
  -timeout=10 -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" "$corpus" || status=$?
found=$(find "$artifacts" -type f | wc -l)
if ((found > 0)); then
  echo "fuzz.sh: FINDINGS in $artifacts:" >&2
  ls -l "$artifacts" >&2
  exit 1
fi
if ((status != 0)); then
  echo "fuzz.sh: the fuzzer exited with status $status" >&2
  exit "$status"
fi
echo "fuzz.sh: no findings in $seconds s; corpus now $(find "$corpus" -type f | wc -l) inputs"
