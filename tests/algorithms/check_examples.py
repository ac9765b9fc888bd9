#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the worked examples of docs/algorithms.md against the library and against independent
recomputations, reading every number from the document itself.

An example in the document is an HTML comment naming it, then a fenced block of "key: values"
lines:

    <!-- example: scan -->
    ```text
    input:     3 1 7 0 4 1 6 3
    exclusive: 0 3 4 11 11 15 16 22
    ```

For each example the keys that are inputs (INPUTS below) are given; every other key is a result
that must be computed by a check: the library, through tests/algorithms/examples.c (the program
given by --program, on the backend given by --backend), or a Python recomputation here for the
steps that are no library call (Hillis-Steele and Blelloch's intermediate arrays, the look-back's
statuses, the histogram's launch plan from cuda/tuning.cuh, the CG recurrences). A result key that
no check computes is a failure, as is a missing or unknown example. A number in the document
matches when the computed value rounds to it at the document's precision ("0.1969" matches
0.196875; "3" only 3).

An ASCII figure marked "<!-- figure: NAME -->" (a matrix drawn as rows "[ 1 . 2 . ]", '.' for 0,
and arrays "name = [0, 2, 2, 4]") must show the numbers of the example of the same name: its
rows concatenated are the example's "dense" line, each array the example's line of that name.

--mutations: after the plain check, every digit-bearing token of every result line is changed in
turn (its last digit + 1) in a copy of the example, and that copy must fail the check: no stated
number goes unchecked.

Prints one line per example and "N passed, M failed"; exit status 0 when all pass.
"""
import argparse
import re
import subprocess
import sys
from decimal import Decimal, InvalidOperation

# --- the examples: their input keys ----------------------------------------------------------

INPUTS = {
    "csr": {"rows", "cols", "dense"},
    "dense-to-csr": {"rows", "cols", "dense"},
    "coo-to-csr": {"rows", "cols", "row", "col", "value"},
    "histogram-race": {"bin before"},
    "histogram-rules": {"integer samples", "integer bins", "even samples", "even range",
                        "even bins", "log2 samples", "log2 bins"},
    "histogram-aggregation": {"samples", "bins"},
    "histogram-banks": {"bins", "copies", "bin"},
    "histogram-plan-bytes": {"SMs", "samples", "sample bytes", "bins"},
    "histogram-plan-many-bins": {"SMs", "samples", "sample bytes", "bins"},
    "scan": {"input"},
    "scan-hillis-steele": {"input"},
    "scan-blelloch": {"input"},
    "scan-lookback": {"input", "tile size", "looking tile", "flags seen (nearest first)"},
    "scan-segmented": {"input", "heads"},
    "compact": {"input", "keep if <", "tile size"},
    "radix-sort": {"keys", "values", "digit bits", "key bits"},
    "radix-onesweep": {"keys", "digit bits", "tile size"},
    "pagerank": {"pages", "from", "to", "damping", "tol"},
    "cg": {"A", "b", "x0", "rtol"},
    "tile-shapes": set(),
}
# Examples with a library side (examples.c).
LIBRARY = {"csr", "dense-to-csr", "coo-to-csr", "histogram-rules", "histogram-aggregation", "scan",
           "scan-hillis-steele", "scan-blelloch", "scan-lookback", "scan-segmented", "compact",
           "radix-sort", "pagerank", "cg"}


def ints(block, key):
    return [int(t) for t in block[key]]


def nums(block, key):
    return [float(t) for t in block[key]]


# --- Python recomputations -------------------------------------------------------------------

def py_race(b):
    """Two threads add 1 to one bin with a plain load and store: both load before either stores."""
    v = ints(b, "bin before")[0]
    seen0, seen1 = v, v
    return {"thread 0 loads": [seen0], "thread 1 loads": [seen1], "thread 0 stores": [seen0 + 1],
            "thread 1 stores": [seen1 + 1], "bin after": [seen1 + 1],
            "bin after, with atomicAdd": [v + 2]}


def py_aggregation(b):
    """A thread's run (bin, count): one atomic per change of bin (cuda/histogram.cu, count())."""
    runs = []
    for x in ints(b, "samples"):
        if runs and runs[-1][0] == x:
            runs[-1][1] += 1
        else:
            runs.append([x, 1])
    return {"runs (bin x count)": ["%dx%d" % (x, c) for x, c in runs],
            "atomics with runs": [len(runs)], "atomics without": [len(ints(b, "samples"))]}


def py_banks(b):
    """Word and bank (word mod 32) of one bin in each shared copy, pitch bins or bins + 1."""
    bins, copies, one = ints(b, "bins")[0], ints(b, "copies")[0], ints(b, "bin")[0]
    out = {}
    for name, pitch in (("unpadded", bins), ("padded", bins + 1)):
        words = [c * pitch + one for c in range(copies)]
        out[name + " word"] = words
        out[name + " bank"] = [w % 32 for w in words]
    return out


def tuning_constants(path):
    consts = {}
    for line in open(path):
        m = re.match(r"#define\s+CSRI_(\w+)\s+(.+?)\s*(/\*.*)?$", line)
        if m:
            consts[m.group(1)] = m.group(2)
    env = {}
    for k, v in consts.items():  # in file order: later ones may use earlier ones
        expr = re.sub(r"CSRI_(\w+)", lambda m: "env[%r]" % m.group(1), v)
        env[k] = int(eval(expr, {"env": env}))
    return env


def py_plan(b, tuning):
    """make_plan() of cuda/histogram.cu from the constants of cuda/tuning.cuh."""
    t = tuning_constants(tuning)
    sms, n, size, bins = (ints(b, k)[0] for k in ("SMs", "samples", "sample bytes", "bins"))
    threads = t["HIST_THREADS"]
    warps = threads // 32
    most = warps // t["HIST_WARPS_PER_COPY"]
    pitch_bytes = (bins + 1) * 4
    fit = t["HIST_SHARED_BYTES"] // pitch_bytes
    copies = 0 if fit < 1 else min(fit, most)
    blocks = sms * t["HIST_BLOCKS_PER_SM"]
    if n // (1 << 30) + 1 > blocks:
        blocks = n // (1 << 30) + 1
    if copies > 0:
        global_copies = 0
    else:
        budget = (64 << 20) // (bins * 8)
        global_copies = 1 if budget < 1 else min(budget, t["HIST_GLOBAL_COPIES"])
    words = n * size // 16
    return {"threads per block": [threads], "warps per block": [warps],
            "shared copies per block": [copies],
            "shared bytes per block": [copies * pitch_bytes],
            "most bins with a shared copy": [t["HIST_SHARED_BYTES"] // 4 - 1],
            "blocks": [blocks], "threads in the grid": [blocks * threads],
            "16-byte words per thread": [words / (blocks * threads)],
            "global copies": [global_copies]}


def py_tiles(b, tuning):
    """The tiles of scan, compact and radix sort (cuda/scan.cu, compact.cu, radix_sort.cu) from
    the constants of cuda/tuning.cuh."""
    t = tuning_constants(tuning)
    threads, scan_bytes, compact_bytes = t["SCAN_THREADS"], t["SCAN_BYTES_PER_THREAD"], \
        t["COMPACT_BYTES_PER_THREAD"]
    return {"scan threads per block": [threads], "scan bytes per thread": [scan_bytes],
            "scan 16-byte loads per thread": [scan_bytes // 16],
            "scan int32 per thread": [scan_bytes // 4],
            "scan int32 per warp segment": [32 * scan_bytes // 4],
            "scan int32 per tile": [threads * scan_bytes // 4],
            "scan int64 per tile": [threads * scan_bytes // 8],
            "compact bytes per thread": [compact_bytes],
            "compact 16-byte loads per thread": [compact_bytes // 16],
            "compact int32 per tile": [threads * compact_bytes // 4],
            "radix digit bits": [t["RADIX_BITS"]],
            "radix wide digit bits": [t["RADIX_WIDE_BITS"]],
            "radix threads per block": [t["RADIX_THREADS"]],
            "radix 32-bit keys per tile": [t["RADIX_THREADS"] * t["RADIX_ITEMS_32"]],
            "radix 32-bit keys per tile, 8-byte values":
                [t["RADIX_THREADS"] * t["RADIX_ITEMS_32_WIDE_VALUES"]],
            "radix 64-bit keys per tile": [t["RADIX_THREADS"] * t["RADIX_ITEMS_64"]],
            "histogram threads per block": [t["HIST_THREADS"]],
            "histogram blocks per SM": [t["HIST_BLOCKS_PER_SM"]]}


def py_hillis_steele(b):
    x = ints(b, "input")
    out, d = {}, 1
    while d < len(x):
        x = [x[i] + (x[i - d] if i >= d else 0) for i in range(len(x))]
        out["d=%d" % d] = x
        d *= 2
    return out


def py_blelloch(b):
    x = ints(b, "input")
    n, out, d = len(x), {}, 1
    while d < n:  # up-sweep: x[i] += x[i - d] at i = 2d - 1, 4d - 1, ...
        x = list(x)
        for i in range(2 * d - 1, n, 2 * d):
            x[i] += x[i - d]
        out["up d=%d" % d] = x
        d *= 2
    x = list(x)
    x[n - 1] = 0
    out["clear last"] = x
    d = n // 2
    while d >= 1:  # down-sweep: left child gets the parent's value, right child parent + left
        x = list(x)
        for i in range(2 * d - 1, n, 2 * d):
            x[i - d], x[i] = x[i], x[i] + x[i - d]
        out["down d=%d" % d] = x
        d //= 2
    return out


def py_lookback(b):
    x, size = ints(b, "input"), ints(b, "tile size")[0]
    tiles = [x[i:i + size] for i in range(0, len(x), size)]
    agg = [sum(t) for t in tiles]
    incl = [sum(agg[:t + 1]) for t in range(len(agg))]
    excl = [sum(agg[:t]) for t in range(len(agg))]
    t = ints(b, "looking tile")[0]
    flags = b["flags seen (nearest first)"]
    # The window: predecessors t-1, t-2, ... up to the nearest one that holds its PREFIX.
    if not flags or flags[-1] != "P" or any(f != "A" for f in flags[:-1]) or len(flags) > t:
        raise ValueError("flags seen must be A ... A P over at most the tile's predecessors")
    seen = [incl[t - 1 - k] if f == "P" else agg[t - 1 - k] for k, f in enumerate(flags)]
    return {"tile aggregates": agg, "tile inclusive prefixes": incl,
            "tile exclusive prefixes": excl, "values seen (nearest first)": seen,
            "prefix found": [sum(seen)], "published prefix": [sum(seen) + agg[t]]}


def py_compact_tiles(b):
    x, pivot, size = ints(b, "input"), ints(b, "keep if <")[0], ints(b, "tile size")[0]
    out, counts, placed = {}, [], 0
    for t in range(0, len(x), size):
        kept = [v for v in x[t:t + size] if v < pivot]
        counts.append(len(kept))
        tile = t // size
        out["tile %d gathered" % tile] = kept
        out["tile %d writes out[]" % tile] = list(range(placed, placed + len(kept)))
        placed += len(kept)
    out["tile counts"] = counts
    out["tile prefixes"] = [sum(counts[:t]) for t in range(len(counts))]
    return out


def py_radix(b):
    bits = max(int(k).bit_length() for k in b["keys"])
    width = ints(b, "key bits")[0] if "key bits" in b else bits
    return {"keys (binary)": [format(k, "0%db" % width) for k in ints(b, "keys")]}


def py_onesweep(b):
    """One onesweep pass (the first digit) over tiles: per-tile digit counts, what the per-digit
    look-back finds before each tile, and each key's place."""
    keys, bits, size = ints(b, "keys"), ints(b, "digit bits")[0], ints(b, "tile size")[0]
    radix = 1 << bits
    digit = [k & (radix - 1) for k in keys]
    totals = [digit.count(d) for d in range(radix)]
    starts = [sum(totals[:d]) for d in range(radix)]
    out = {"digits": digit, "bucket starts": starts}
    before = [0] * radix
    result = [None] * len(keys)
    for t in range(0, len(keys), size):
        tile = t // size
        ds = digit[t:t + size]
        counts = [ds.count(d) for d in range(radix)]
        out["tile %d digit counts" % tile] = counts
        out["tile %d keys of each digit before it" % tile] = list(before)
        places, seen = [], [0] * radix
        for k, d in zip(keys[t:t + size], ds):
            places.append(starts[d] + before[d] + seen[d])
            seen[d] += 1
        out["tile %d places" % tile] = places
        for k, p in zip(keys[t:t + size], places):
            result[p] = k
        before = [before[d] + counts[d] for d in range(radix)]
    out["after the pass"] = result
    return out


def py_coo(b):
    """The reference's group sort (src/ref/convert_coo.c): scatter by row in triple order, then
    each row sorted by (column, position)."""
    rows, r, c = ints(b, "rows")[0], ints(b, "row"), ints(b, "col")
    counts = [r.count(i) for i in range(rows)]
    off = [sum(counts[:i]) for i in range(rows + 1)]
    cursor = list(off[:rows])
    cols, src = [None] * len(r), [None] * len(r)
    for k in range(len(r)):
        p = cursor[r[k]]
        cursor[r[k]] += 1
        cols[p], src[p] = c[k], k
    out = {"scattered columns": list(cols), "scattered positions": list(src)}
    for i in range(rows):
        seg = sorted(zip(cols[off[i]:off[i + 1]], src[off[i]:off[i + 1]]))
        cols[off[i]:off[i + 1]] = [x for x, _ in seg]
        src[off[i]:off[i + 1]] = [y for _, y in seg]
    out["sorted columns"] = cols
    out["sorted positions"] = src
    return out


def py_pagerank(b):
    n, fr = ints(b, "pages")[0], ints(b, "from")
    return {"out-degree": [fr.count(i) for i in range(n)]}


def py_cg(b):
    """Textbook CG (Hestenes-Stiefel) on the small system, step by step."""
    a, rhs, x = nums(b, "A"), nums(b, "b"), nums(b, "x0")
    n = len(rhs)

    def mul(v):
        return [sum(a[i * n + j] * v[j] for j in range(n)) for i in range(n)]

    def dot(u, v):
        return sum(p * q for p, q in zip(u, v))

    r = [bi - ai for bi, ai in zip(rhs, mul(x))]
    p = list(r)
    out = {"r0": list(r), "p0": list(p)}
    for k in range(n):
        ap = mul(p)
        alpha = dot(r, r) / dot(p, ap)
        out["A p%d" % k], out["alpha%d" % k] = ap, [alpha]
        x = [xi + alpha * pi for xi, pi in zip(x, p)]
        rn = [ri - alpha * qi for ri, qi in zip(r, ap)]
        out["x%d" % (k + 1)] = list(x)
        if k + 1 < n:
            beta = dot(rn, rn) / dot(r, r)
            p = [ri + beta * pi for ri, pi in zip(rn, p)]
            out["r%d" % (k + 1)], out["beta%d" % (k + 1)], out["p%d" % (k + 1)] = rn, [beta], p
        r = rn
    return out


PYTHON = {
    "histogram-race": lambda b, t: py_race(b),
    "histogram-aggregation": lambda b, t: py_aggregation(b),
    "histogram-banks": lambda b, t: py_banks(b),
    "histogram-plan-bytes": py_plan,
    "histogram-plan-many-bins": py_plan,
    "scan-hillis-steele": lambda b, t: py_hillis_steele(b),
    "scan-blelloch": lambda b, t: py_blelloch(b),
    "scan-lookback": lambda b, t: py_lookback(b),
    "compact": lambda b, t: py_compact_tiles(b),
    "radix-sort": lambda b, t: py_radix(b),
    "radix-onesweep": lambda b, t: py_onesweep(b),
    "coo-to-csr": lambda b, t: py_coo(b),
    "pagerank": lambda b, t: py_pagerank(b),
    "cg": lambda b, t: py_cg(b),
    "tile-shapes": py_tiles,
}

# --- the document ----------------------------------------------------------------------------

EXAMPLE = re.compile(r"<!--\s*example:\s*([\w-]+)\s*-->\s*\n```[a-z]*\n(.*?)\n```", re.S)


def examples(text):
    """(name, body, start offset of body, line number) of every example block."""
    for m in EXAMPLE.finditer(text):
        yield m.group(1), m.group(2), m.start(2), text.count("\n", 0, m.start(2)) + 1


FIGURE = re.compile(r"<!--\s*figure:\s*([\w-]+)\s*-->\s*\n```[a-z]*\n(.*?)\n```", re.S)


def figure_values(body):
    """An ASCII figure's numbers: its matrix rows "[ 1 . 2 . ]" ('.' is 0) as "dense", and its
    arrays "name = [0, 2, 2, 4]" under their names."""
    out, dense = {}, []
    for line in body.split("\n"):
        array = r"(\w+)\s*=\s*\[([^\]]*,[^\]]*)\]"  # with commas: a matrix row has none
        for m in re.finditer(array, line):
            out[m.group(1)] = m.group(2).replace(",", " ").split()
        m = re.search(r"\[((?:\s*[-\d.]+)+)\s*\]", re.sub(array, "", line))
        if m:
            dense += ["0" if t == "." else t for t in m.group(1).split()]
    if dense:
        out["dense"] = dense
    return out


def check_figure(name, body, text):
    """A figure's numbers against the example of the same name (which the checks verify)."""
    blocks = {n: b for n, b, _, _ in examples(text)}
    if name not in blocks:
        return ["figure of no example"]
    block = parse(blocks[name])
    problems = []
    for key, tokens in figure_values(body).items():
        if key not in block:
            problems.append("figure's '%s' is in no line of the example" % key)
        elif [float(t) for t in tokens] != [float(t) for t in block[key]]:
            problems.append("figure's '%s' = %s, the example's %s" % (
                key, " ".join(tokens), " ".join(block[key])))
    return problems


def parse(body):
    block = {}
    for line in body.split("\n"):
        if not line.strip():
            continue
        if ":" not in line:
            raise ValueError("line without 'key:': %r" % line)
        key, rest = line.split(":", 1)
        key = key.strip()
        if key in block:
            raise ValueError("key %r twice" % key)
        block[key] = rest.split()
    return block


def matches(doc_token, value):
    """The document's token against a computed value (number or string)."""
    try:
        d = Decimal(doc_token)
    except InvalidOperation:
        return str(value) == doc_token
    try:
        v = Decimal(repr(float(value))) if not isinstance(value, int) else Decimal(value)
    except (ValueError, InvalidOperation):
        return False
    exponent = d.as_tuple().exponent
    tolerance = Decimal(5) * Decimal(10) ** (exponent - 1)
    return abs(d - v) <= tolerance * (1 + Decimal("1e-12"))


def run_library(program, backend, name, body):
    p = subprocess.run([program, name, backend], input=body + "\n", capture_output=True, text=True)
    if p.returncode == 77:
        raise SystemExit(77)
    if p.returncode != 0:
        raise ValueError("algorithms_examples exit %d: %s" % (p.returncode, p.stderr.strip()))
    out = {}
    for line in p.stdout.splitlines():
        key, rest = line.split(":", 1)
        out[key.strip()] = rest.split()
    return out


def check(name, body, args):
    """The list of problems of one example (empty: it holds)."""
    if name not in INPUTS:
        return ["unknown example (no check knows it)"]
    try:
        block = parse(body)
        missing = INPUTS[name] - set(block)
        if missing:
            return ["input line(s) missing: %s" % ", ".join(sorted(missing))]
        computed = []
        if name in LIBRARY:
            computed.append(("library", run_library(args.program, args.backend, name, body)))
        if name in PYTHON:
            computed.append(("python", PYTHON[name](block, args.tuning)))
    except (ValueError, KeyError, IndexError, ZeroDivisionError) as e:
        return ["cannot be checked: %s" % e]
    problems = []
    for key, tokens in block.items():
        if key in INPUTS[name]:
            continue
        sources = [(who, got[key]) for who, got in computed if key in got]
        if not sources:
            problems.append("'%s:' is computed by no check" % key)
        for who, values in sources:
            if len(values) != len(tokens) or not all(matches(t, v) for t, v in zip(tokens, values)):
                problems.append("'%s:' says %s; the %s gives %s" % (
                    key, " ".join(tokens), who, " ".join(fmt(v) for v in values)))
    return problems


def fmt(v):
    if isinstance(v, float):
        return "%.10g" % v
    try:
        f = float(v)
        return "%.10g" % f
    except ValueError:
        return str(v)


def mutations(body, inputs):
    """Copies of the block with one token of a result line changed (its last digit + 1)."""
    lines = body.split("\n")
    for i, line in enumerate(lines):
        if ":" not in line:
            continue
        key, rest = line.split(":", 1)
        if key.strip() in inputs:
            continue
        for m in re.finditer(r"\S+", rest):
            tok = m.group(0)
            digits = [j for j, ch in enumerate(tok) if ch.isdigit()]
            if digits:
                j = digits[-1]
                new = tok[:j] + str((int(tok[j]) + 1) % 10) + tok[j + 1:]
            else:
                new = "0"
            changed = rest[:m.start()] + new + rest[m.end():]
            yield "%s: %s -> %s" % (key.strip(), tok, new), \
                "\n".join(lines[:i] + [key + ":" + changed] + lines[i + 1:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--doc", required=True)
    ap.add_argument("--program", required=True, help="the algorithms_examples executable")
    ap.add_argument("--backend", default="ref", choices=("ref", "omp"))
    ap.add_argument("--tuning", required=True, help="cuda/tuning.cuh")
    ap.add_argument("--mutations", action="store_true")
    args = ap.parse_args()
    text = open(args.doc).read()
    passed = failed = 0
    seen = set()
    for name, body, _, line in examples(text):
        seen.add(name)
        problems = check(name, body, args)
        if not problems and args.mutations:
            survivors = [what for what, copy in mutations(body, INPUTS[name])
                         if not check(name, copy, args)]
            problems = ["a change goes unnoticed: %s" % s for s in survivors]
        if problems:
            failed += 1
            print("FAIL %s (%s line %d)" % (name, args.doc, line))
            for p in problems:
                print("    " + p)
        else:
            passed += 1
            print("ok   %s" % name)
    for m in FIGURE.finditer(text):
        problems = check_figure(m.group(1), m.group(2), text)
        line = text.count("\n", 0, m.start(2)) + 1
        if problems:
            failed += 1
            print("FAIL figure %s (%s line %d)" % (m.group(1), args.doc, line))
            for p in problems:
                print("    " + p)
        else:
            passed += 1
            print("ok   figure %s" % m.group(1))
    for name in sorted(set(INPUTS) - seen):
        failed += 1
        print("FAIL %s: no such example in %s" % (name, args.doc))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
