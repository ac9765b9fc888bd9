#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes sample.expected, the output example_read.c must print for sample.mtx, by an
independent path: the .mtx read by hand here (no mmio, no libcsr), each value parsed by
Python's float() (correctly rounded) and printed with "%20.19g" (Python's own formatting).

    python3 tests/mmio_example/make_expected.py  # rewrites tests/mmio_example/sample.expected
"""
import os

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "sample.mtx")) as f:
    lines = [line.split() for line in f if line.strip() and not line.lstrip().startswith("%")]
m, n, nz = (int(x) for x in lines[0])
entries = lines[1:]
assert len(entries) == nz
out = ["%d %d %d" % (m, n, nz)]
for i, j, v in entries:
    out.append("%d %d %20.19g" % (int(i), int(j), float(v)))
with open(os.path.join(here, "sample.expected"), "w") as f:
    f.write("\n".join(out) + "\n")
