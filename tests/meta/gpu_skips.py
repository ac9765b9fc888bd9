#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""ctest "ctest_gpu_skips": the GPU tests must show as skipped, never as passed, where they cannot
run, so that ctest's summary lists them under "The following tests did not run: ... (Skipped)".

    python3 tests/meta/gpu_skips.py CTEST BUILD_DIR SOURCE_DIR

Checks, from `ctest --show-only=json-v1` of BUILD_DIR:
  - every tests/gpu_*.c is registered as a test and every tests/backend_*.c has a NAME_cuda run,
    in builds with and without the CUDA backend, each with the label "gpu";
  - every test labelled "gpu" has SKIP_RETURN_CODE 77;
  - on a machine without an NVIDIA GPU (nvidia-smi absent or listing none), each of them, run as
    ctest runs it, exits 77 and says "skipped" (a CPU-only build and a CUDA build on a machine
    without a device alike). With a GPU present they are not run here: the GPU runs them.
Exit 0 pass, 1 fail.
"""
import glob
import json
import os
import shutil
import subprocess
import sys


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def gpu_present():
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return False
    p = subprocess.run([smi, "-L"], capture_output=True, text=True)
    return p.returncode == 0 and "GPU" in p.stdout


def main():
    if len(sys.argv) != 4:
        fail("usage: gpu_skips.py CTEST BUILD_DIR SOURCE_DIR")
    ctest, build, source = sys.argv[1:]
    listing = subprocess.run([ctest, "--test-dir", build, "--show-only=json-v1"],
                             capture_output=True, text=True, check=True).stdout
    tests = {t["name"]: t for t in json.loads(listing)["tests"]}
    props = {name: {p["name"]: p["value"] for p in t.get("properties", [])}
             for name, t in tests.items()}

    tests_dir = os.path.join(source, "tests")
    expected = [os.path.basename(f)[:-2] for f in glob.glob(os.path.join(tests_dir, "gpu_*.c"))]
    expected += [os.path.basename(f)[:-2] + "_cuda"
                 for f in glob.glob(os.path.join(tests_dir, "backend_*.c"))]
    if len(expected) < 2:
        fail(f"found no gpu_*.c or backend_*.c in {tests_dir}")
    for name in sorted(expected):
        if name not in tests:
            fail(f"{name} is not registered: without it ctest's summary cannot list it as skipped")
        if "gpu" not in props[name].get("LABELS", []):
            fail(f"{name} lacks the label gpu")

    gpu_tests = sorted(n for n in tests if "gpu" in props[n].get("LABELS", []))
    for name in gpu_tests:
        if props[name].get("SKIP_RETURN_CODE") != 77:
            fail(f"{name} has SKIP_RETURN_CODE {props[name].get('SKIP_RETURN_CODE')}, not 77: "
                 "its exit 77 would count as a failure")

    if gpu_present():
        print(f"ok: {len(gpu_tests)} gpu tests registered with SKIP_RETURN_CODE 77 "
              "(a GPU is present: not run here)")
        return
    for name in gpu_tests:
        t = tests[name]
        p = subprocess.run(t["command"], capture_output=True, text=True, timeout=120,
                           cwd=props[name].get("WORKING_DIRECTORY", build))
        out = p.stdout + p.stderr
        if p.returncode != 77 or "skipped" not in out:
            fail(f"{name} without a GPU: exit {p.returncode} (expected 77, reported skipped), "
                 f"printed: {out.strip()[:400]}")
    print(f"ok: {len(gpu_tests)} gpu tests exit 77 (skipped) without a GPU: {' '.join(gpu_tests)}")


if __name__ == "__main__":
    main()
