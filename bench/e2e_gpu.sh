#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# End to end on the GPU: apps/spmv --backend cuda on a ~400 MB .mtx and a ~1 GB .mtx.gz (random
# general real matrices in row order, made by bench/make_mtx when missing). Each stage's time
# (read on the host, upload of the triples, build of the CSR on the device, the SpMV calls) from
# spmv's JSON; the build should take at most a tenth of the read. One CSV row per file
# (bench/README.md, "Results"): ours = build, anchor = read, ratio = read / build (target 10).
#   usage: bash bench/e2e_gpu.sh [BUILD_DIR]   (default build-gpu; spmv and make_mtx built)
#   CSR_E2E_DATA: where the files go (default /tmp/libcsr-e2e); OUT: where the CSV goes.
set -euo pipefail
build=${1:-build-gpu}
data=${CSR_E2E_DATA:-/tmp/libcsr-e2e}
out=${OUT:-$PWD/gpu-out}
mkdir -p "$data" "$out"
files=("$data/random_13m.mtx" "$data/random_67m.mtx.gz")
[ -f "${files[0]}" ] || "$build/bench/make_mtx" "${files[0]}" 1000000 13000000
[ -f "${files[1]}" ] || "$build/bench/make_mtx" "${files[1]}" 4000000 67000000
csv="$out/gpu_e2e.csv"
for f in "${files[@]}"; do
  json="$out/e2e_$(basename "$f").json"
  "$build/apps/spmv" "$f" --backend cuda --json --iters 20 --copy-mib 0 >"$json"
  python3 - "$f" "$json" "$csv" "$build" <<'PY'
import json, os, subprocess, sys, time
path, json_path, csv_path, build = sys.argv[1:5]
j = json.load(open(json_path))
s = j["stages"]
size_mb = os.path.getsize(path) / 1e6
device = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                        capture_output=True, text=True).stdout.strip().splitlines()[0]
cores = os.cpu_count()
print(f"{os.path.basename(path)}: {size_mb:.0f} MB, {j['nnz']} entries | read {s['read_s']:.3f} s"
      f" | upload {s['upload_s'] * 1e3:.1f} ms | build {s['build_s'] * 1e3:.2f} ms"
      f" ({100 * s['build_s'] / s['read_s']:.2f} % of the read) | spmv median {j['median_ms']:.3f} ms"
      f" | all {sum(s[k] for k in ('read_s', 'upload_s', 'build_s', 'compute_s')):.3f} s")
new = not os.path.exists(csv_path)
with open(csv_path, "a") as f:
    if new:
        f.write("benchmark,case,variant,ours_seconds,anchor_name,anchor_seconds,ratio,target_ratio,"
                "bytes,ours_gbs,floor_gbs,fraction_of_floor,anchor_fraction_of_floor,extra,device,"
                "date_utc,command\n")
    extra = (f"file_mb={size_mb:.0f};nnz={j['nnz']};upload_s={s['upload_s']:.4f};"
             f"spmv_median_ms={j['median_ms']:.4f};kernel={j['kernel']['name']};host_cores={cores}")
    f.write(f"gpu_e2e,{os.path.basename(path)},build_on_device,{s['build_s']:.6g},host read,"
            f"{s['read_s']:.6g},{s['read_s'] / s['build_s']:.4g},10,,,,,,{extra},{device},"
            f"{time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())},bash bench/run_gpu.sh apps\n")
PY
done
