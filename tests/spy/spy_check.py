# SPDX-License-Identifier: BSD-3-Clause
"""The picture tests of apps/spy: each case writes small matrices whose pattern it knows, runs spy,
decodes the PNG with pngread (standard library only) and compares the pixels with the pattern.

    python3 spy_check.py CASE SPY_BINARY SOURCE_DIR SCRATCH_DIR

Cases: decoder, exact, scaled, blocks, shades, histogram, rect, empty, pattern, symmetric, gzip,
edge_list, stdin, threads, bus, titles, titles_large. Exit 0 pass, 1 fail.
"""

import gzip
import json
import math
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngread import read_png, write_png, PngError  # noqa: E402
import glyphs  # noqa: E402

WHITE = (255, 255, 255)
DARKEST = (0x08, 0x30, 0x6B)
LIGHTEST = (0xC6, 0xDB, 0xEF)
FRAME = (0x99, 0x99, 0x99)
BAR = (0xE6, 0x55, 0x0D)
AXIS = (0, 0, 0)
TEXT = (0x33, 0x33, 0x33)
MARGIN = 16
X_TITLE, Y_TITLE = "ROW LENGTH", "ROWS"  # the histogram's axis titles

case, spy, src, tmp = sys.argv[1:5]


def fail(message):
    sys.exit("FAIL: %s: %s" % (case, message))


def check(condition, message):
    if not condition:
        fail(message)


def write_mtx(path, rows, cols, entries, field="pattern", symmetry="general", compress=False):
    """entries: 0-based (i, j) or (i, j, value) in file order."""
    lines = ["%%%%MatrixMarket matrix coordinate %s %s" % (field, symmetry),
             "%d %d %d" % (rows, cols, len(entries))]
    for e in entries:
        if field == "pattern":
            lines.append("%d %d" % (e[0] + 1, e[1] + 1))
        else:
            lines.append("%d %d %.17g" % (e[0] + 1, e[1] + 1, e[2] if len(e) > 2 else 1.0))
    text = ("\n".join(lines) + "\n").encode()
    with (gzip.open(path, "wb") if compress else open(path, "wb")) as f:
        f.write(text)
    return path


def run_spy(*args, expect=0, stdin=None):
    """Runs spy with --json; returns the JSON object."""
    p = subprocess.run([spy, *args, "--json"], capture_output=True, stdin=stdin)
    if p.returncode != expect:
        fail("spy %s: exit %d, expected %d\n%s%s" % (" ".join(args), p.returncode, expect,
                                                    p.stdout.decode(), p.stderr.decode()))
    return json.loads(p.stdout)


def draw(matrix_path, out_name, *options):
    out = os.path.join(tmp, out_name)
    j = run_spy(matrix_path, "--out", out, *options)
    check(j["out"] == out, "json out %r" % j["out"])
    img = read_png(out)
    check((img.width, img.height) == (j["width"], j["height"]),
          "PNG is %dx%d, json says %dx%d" % (img.width, img.height, j["width"], j["height"]))
    return j, img


def panel_pixels(img, rect):
    """{(x, y): rgb} of the non-white pixels inside rect, coordinates relative to it."""
    out = {}
    for y in range(rect["height"]):
        row = img.rgb[rect["y"] + y]
        for x in range(rect["width"]):
            px = row[rect["x"] + x]
            if px != WHITE:
                out[(x, y)] = px
    return out


def block_counts(rows, cols, grid_rows, grid_cols, entries):
    """{(block column, block row): entries} by the mapping of spy --help."""
    r, c = max(rows, 1), max(cols, 1)
    counts = {}
    for i, j in {(e[0], e[1]) for e in entries}:
        key = (j * grid_cols // c, i * grid_rows // r)
        counts[key] = counts.get(key, 0) + 1
    return counts


def block_cells(n, blocks):
    """Rows (or columns) in each block: the b with i * blocks // n == b."""
    sizes = [0] * blocks
    for i in range(max(n, 1)):
        sizes[i * blocks // max(n, 1)] += 1
    return sizes


def read_text(img, x0, x1, y0, fs, spaces=False):
    """The labels in the text band of rows [y0, y0 + 5 fs) between columns x0 and x1: a list of
    (left, right, text) (glyphs.read_text). Fails on ink that is not a glyph."""
    try:
        return glyphs.read_text(lambda x, y: img.rgb[y][x], x0, x1, y0, fs, TEXT, spaces)
    except glyphs.TextError as e:
        fail(str(e))


def bin_label(b):
    return "0" if b == 0 else str(2 ** (b - 1)) if b <= 14 else "2^%d" % (b - 1)


def bar_height(count, most, height):
    """spy_bar_height: log10 scale from 0.1 (the axis) to most (the top), at least 1 pixel."""
    if count <= 0 or most <= 0:
        return 0
    h = math.floor(height * (math.log10(count) + 1) / (math.log10(most) + 1) + 0.5)
    return min(max(h, 1), height)


def check_labels(img, j):
    """The caption reads ROWS x COLS; each bin label sits under its bar and names the bin's
    shortest row; each grid-line label sits on its line and names its power of 10. Returns the
    labels' boxes (left, top, right, bottom), right and bottom exclusive."""
    fs, ty, h = j["font_scale"], j["text_y"], j["histogram_panel"]
    caption = read_text(img, 0, h["x"] - 6, ty, fs, spaces=True)
    check([w[2] for w in caption] == ["%d x %d" % (j["rows"], j["cols"])],
          "caption %r" % caption)
    labels = read_text(img, h["x"] - 1, img.width, ty, fs)
    check(labels and labels[0][2] == "0", "bin labels %r: no 0" % labels)
    for left, right, text in labels:
        b = ((left + right) // 2 - h["x"]) // h["bar_step"]
        check(0 <= b < h["bins"] and text == bin_label(b), "label %r at %d..%d under bin %d"
              % (text, left, right, b))
    boxes = [(w[0], ty, w[1], ty + 5 * fs) for w in caption + labels]
    # Grid-line labels: bands of inked rows left of the axis, beside the plot.
    x0, x1, bottom = h["x"] - 7 - 11 * fs, h["x"] - 6, h["y"] + h["height"]
    rows = [y for y in range(max(h["y"] - 3 * fs, 0), bottom + 3 * fs + 1)
            if any(img.rgb[y][x] == TEXT for x in range(x0, x1))]
    bands = []
    for y in rows:
        if bands and y == bands[-1][1]:
            bands[-1][1] = y + 1
        else:
            bands.append([y, y + 1])
    most = max(j["histogram"])
    found = []
    for top, end in bands:
        check(end - top == 5 * fs, "a grid label band %d..%d" % (top, end))
        words = read_text(img, x0, x1, top, fs)
        check(len(words) == 1 and words[0][1] == h["x"] - 7, "grid label %r" % words)
        text = words[0][2]
        k = len(text) - 1 if "e" not in text else int(text[2:])
        check(text == ("1" + "0" * k if k < 3 else "1e%d" % k), "grid label %r" % text)
        y = bottom - bar_height(10 ** k, most, h["height"])
        check(abs(top + 5 * fs // 2 - y) <= 1, "grid label %r at %d, its line at %d" % (text, top,
                                                                                       y))
        found.append(k)
        boxes.append((words[0][0], top, words[0][1], end))
    check((most == 0 and not found) or (found and found[-1] == 0), "grid labels %r" % found)
    return boxes


def title_boxes(j):
    """Where the axis titles belong (docs/spy.md), as boxes (left, top, right, bottom), right and
    bottom exclusive: the vertical Y_TITLE 12 pixels right of the pattern and its caption,
    centred on the plot's height, 4 font pixels left of the grid labels' 3 characters; X_TITLE
    3 font pixels under the bin labels, centred under the bars (C's division, towards zero) but
    not left of the grid labels' room. Checks the JSON's histogram position and canvas size."""
    p, h, fs = j["pattern_panel"], j["histogram_panel"], j["font_scale"]
    left = max(glyphs.text_width("%d x %d" % (j["rows"], j["cols"]), fs), p["width"])
    up = glyphs.text_width(Y_TITLE, fs)
    yx, yy = p["x"] + left + 12, h["y"] + (h["height"] - up) // 2
    check(h["x"] == yx + 5 * fs + 4 * fs + 12 * fs + 7, "histogram at x %d, y title at %d"
          % (h["x"], yx))
    across = glyphs.text_width(X_TITLE, fs)
    xx = max(h["x"] + int((h["width"] - across) / 2), h["x"] - 7 - 12 * fs)
    xy = j["text_y"] + 8 * fs
    check(j["width"] == max(h["x"] + h["width"], xx + across) + MARGIN, "canvas width %d"
          % j["width"])
    check(j["height"] == xy + 5 * fs + MARGIN, "canvas height %d" % j["height"])
    return (xx, xy, xx + across, xy + 5 * fs), (yx, yy, yx + 5 * fs, yy + up)


def apart(a, b, gap):
    """Boxes (left, top, right, bottom; right and bottom exclusive) at least gap pixels apart."""
    return (a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1]
            or b[3] + gap <= a[1])


def check_titles(img, j, label_boxes, x_box, y_box):
    """The axis titles read X_TITLE and Y_TITLE exactly in their boxes, 2 font pixels or more
    from every other element; the other elements at least a pixel apart; the titles clear of
    the margin."""
    p, h, fs = j["pattern_panel"], j["histogram_panel"], j["font_scale"]
    words = read_text(img, 0, img.width, x_box[1], fs, spaces=True)
    check([w[:3] for w in words] == [(x_box[0], x_box[2], X_TITLE)],
          "x title %r, expected %r at %r" % (words, X_TITLE, x_box))
    # The vertical title: the one run of inked columns between the pattern and the grid labels.
    columns = [x for x in range(p["x"] + p["width"] + 1, h["x"] - 7 - 11 * fs)
               if any(img.rgb[y][x] == TEXT for y in range(h["y"], h["y"] + h["height"]))]
    check(columns == list(range(y_box[0], y_box[2])), "y title in columns %r, expected %d..%d"
          % (columns[:3] + ["..."] + columns[-3:], y_box[0], y_box[2]))
    try:
        words = glyphs.read_up(lambda x, y: img.rgb[y][x], y_box[0], y_box[1],
                               y_box[3] - y_box[1], fs, TEXT, spaces=True)
    except glyphs.TextError as e:
        fail("y title: %s" % e)
    check([w[:3] for w in words] == [(0, y_box[3] - y_box[1], Y_TITLE)], "y title %r" % words)
    frame = (p["x"] - 1, p["y"] - 1, p["x"] + p["width"] + 1, p["y"] + p["height"] + 1)
    plot = (h["x"] - 5, h["y"], h["x"] + h["width"] + 1, h["y"] + h["height"] + 5)
    others = [frame, plot] + label_boxes
    for t in (x_box, y_box):
        for o in others + [x_box if t is y_box else y_box]:
            check(apart(t, o, 2 * fs), "title box %r is within %d pixels of %r" % (t, 2 * fs, o))
    for a in range(len(others)):
        for b in range(a):
            check(apart(others[a], others[b], 1), "boxes %r and %r touch" % (others[a],
                                                                            others[b]))
    for box in (x_box, y_box):
        check(box[0] >= MARGIN and box[1] >= MARGIN and box[2] <= img.width - MARGIN
              and box[3] <= img.height - MARGIN, "title box %r in the margin" % (box,))


def check_layout(img, j):
    """Nothing is drawn outside the two panels, the pattern's frame, the histogram's axes, the
    labels and the titles; the frame is complete; the labels and titles say what they should
    and none of them touches another element."""
    p, h, fs = j["pattern_panel"], j["histogram_panel"], j["font_scale"]
    for x in range(p["x"] - 1, p["x"] + p["width"] + 1):
        for y in (p["y"] - 1, p["y"] + p["height"]):
            check(img.pixel(x, y) == FRAME, "frame pixel (%d, %d) is %r" % (x, y, img.pixel(x, y)))
    for y in range(p["y"] - 1, p["y"] + p["height"] + 1):
        for x in (p["x"] - 1, p["x"] + p["width"]):
            check(img.pixel(x, y) == FRAME, "frame pixel (%d, %d) is %r" % (x, y, img.pixel(x, y)))
    x_box, y_box = title_boxes(j)

    def inside(x, y, box):
        return box[0] <= x < box[2] and box[1] <= y < box[3]

    for y in range(img.height):
        row = img.rgb[y]
        for x in range(img.width):
            px = row[x]
            if px == WHITE:
                continue
            in_pattern = (p["x"] - 1 <= x <= p["x"] + p["width"]
                          and p["y"] - 1 <= y <= p["y"] + p["height"])
            in_hist = (h["x"] - 5 <= x <= h["x"] + h["width"]
                       and h["y"] <= y <= h["y"] + h["height"] + 4)
            in_text = px == TEXT and (j["text_y"] <= y < j["text_y"] + 5 * fs or (
                h["x"] - 7 - 12 * fs <= x < h["x"] - 6
                and h["y"] - 3 * fs <= y <= h["y"] + h["height"] + 3 * fs)
                or inside(x, y, x_box) or inside(x, y, y_box))
            check(in_pattern or in_hist or in_text, "stray pixel %r at (%d, %d)" % (px, x, y))
    check_titles(img, j, check_labels(img, j), x_box, y_box)


def check_pattern(img, j, rows, cols, entries):
    """The non-white blocks of the pattern panel are exactly the blocks holding an entry."""
    s, gr, gc = j["scale"], j["grid_rows"], j["grid_cols"]
    p = j["pattern_panel"]
    check((p["width"], p["height"]) == (gc * s, gr * s), "panel %r for grid %dx%d at scale %d"
          % (p, gr, gc, s))
    counts = block_counts(rows, cols, gr, gc, entries)
    want = {(bx * s + dx, by * s + dy) for bx, by in counts for dx in range(s) for dy in range(s)}
    got = panel_pixels(img, p)
    missing, extra = want - set(got), set(got) - want
    check(not missing and not extra, "%d pixels missing (e.g. %r), %d extra (e.g. %r)"
          % (len(missing), sorted(missing)[:5], len(extra), sorted(extra)[:5]))
    check(j["blocks_nonempty"] == len(counts), "blocks_nonempty %d, expected %d"
          % (j["blocks_nonempty"], len(counts)))
    check(j["pixels_nonempty"] == len(want), "pixels_nonempty %d, expected %d"
          % (j["pixels_nonempty"], len(want)))
    # Each block is one colour (all its scale x scale pixels alike).
    for (bx, by) in counts:
        colours = {got[(bx * s + dx, by * s + dy)] for dx in range(s) for dy in range(s)}
        check(len(colours) == 1, "block (%d, %d) has colours %r" % (bx, by, colours))
    return counts, got


def row_bins(rows, entries):
    """The log2 histogram of the row lengths: bin 0 empty rows, bin b lengths [2^(b-1), 2^b)."""
    lengths = [0] * rows
    for i, _ in {(e[0], e[1]) for e in entries}:
        lengths[i] += 1
    bins = [0] * 48
    for n in lengths:
        bins[0 if n == 0 else n.bit_length()] += 1
    last = max([b for b in range(48) if bins[b]] + [0])
    return bins[:last + 1]


def case_decoder():
    # The decoder undoes every filter type (spy writes filter 0 only), and refuses bad files.
    rnd = random.Random(5)
    w, h = 7, 11
    rgb = [[tuple(rnd.randrange(256) for _ in range(3)) for _ in range(w)] for _ in range(h)]
    for filters in ([0], [1], [2], [3], [4], [0, 1, 2, 3, 4]):
        path = os.path.join(tmp, "f%s.png" % "".join(map(str, filters)))
        write_png(path, w, h, rgb, filters)
        img = read_png(path)
        check(img.rgb == rgb, "filters %r did not round-trip" % filters)
    data = bytearray(open(path, "rb").read())
    data[40] ^= 1  # inside IDAT: its CRC no longer matches
    open(path, "wb").write(data)
    try:
        read_png(path)
        fail("a corrupt chunk was accepted")
    except PngError:
        pass


# 40 x 40: the diagonal without (7, 7) (row 7 empty), corners, a few off-diagonal entries, one
# entry given twice (summed into one) and an explicit zero (a stored entry: drawn).
EXACT = [(i, i, 1.0) for i in range(40) if i != 7] + [
    (0, 39, 2.0), (39, 0, 3.0), (5, 20, -1.0), (20, 5, 0.5), (12, 13, 1.0), (30, 2, 4.0),
    (12, 13, 1.0), (25, 26, 0.0)]


def case_exact():
    path = write_mtx(os.path.join(tmp, "exact.mtx"), 40, 40, EXACT, field="real")
    positions = {(e[0], e[1]) for e in EXACT}
    for size in (40, 45):  # 45: still scale 1 (an integer scale), the panel stays 40 x 40
        j, img = draw(path, "exact%d.png" % size, "--size", str(size))
        check(j["scale"] == 1 and j["grid_rows"] == 40 and j["grid_cols"] == 40,
              "scale %d grid %dx%d" % (j["scale"], j["grid_rows"], j["grid_cols"]))
        check(j["nnz"] == len(positions), "nnz %d, expected %d" % (j["nnz"], len(positions)))
        _, got = check_pattern(img, j, 40, 40, EXACT)
        check(set(got) == {(c, r) for r, c in positions}, "pixels are not the pattern")
        check(set(got.values()) == {DARKEST}, "one entry per one-cell block must be the darkest"
              " shade, got %r" % set(got.values()))
        check(not any((x, 7) in got for x in range(40)), "the empty row 7 is drawn")
        check(j["block_rows"] == 1 and j["block_cols"] == 1 and j["max_block_cells"] == 1,
              "blocks %r %r %r" % (j["block_rows"], j["block_cols"], j["max_block_cells"]))
        check_layout(img, j)


def case_scaled():
    # 40 x 40 at --size 200: every entry an exact 5 x 5 square.
    path = write_mtx(os.path.join(tmp, "exact.mtx"), 40, 40, EXACT, field="real")
    j, img = draw(path, "scaled.png", "--size", "200")
    check(j["scale"] == 5, "scale %d, expected 5" % j["scale"])
    check(j["pattern_panel"]["width"] == 200 and j["pattern_panel"]["height"] == 200,
          "panel %r" % j["pattern_panel"])
    check_pattern(img, j, 40, 40, EXACT)
    check(j["pixels_nonempty"] == 25 * len({(e[0], e[1]) for e in EXACT}), "pixels_nonempty")
    check_layout(img, j)


def brightness(rgb):
    return sum(rgb)


def check_monotone(img, j, rows, cols, counts):
    """The shade never gets lighter as the density grows, channel by channel; it is a function of
    the density alone; the extremes are the darkest and lightest shades."""
    s, gr, gc = j["scale"], j["grid_rows"], j["grid_cols"]
    hr, wc = block_cells(rows, gr), block_cells(cols, gc)
    p = j["pattern_panel"]
    blocks = []
    for (bx, by), n in counts.items():
        density = n / (hr[by] * wc[bx])
        blocks.append((density, img.pixel(p["x"] + bx * s, p["y"] + by * s)))
    blocks.sort()
    for (d1, c1), (d2, c2) in zip(blocks, blocks[1:]):
        check(all(a >= b for a, b in zip(c1, c2)),
              "density %g has %r, density %g has %r: not darker" % (d1, c1, d2, c2))
        if d1 == d2:
            check(c1 == c2, "equal densities %g with colours %r and %r" % (d1, c1, c2))
    check(j["max_block_cells"] == max(hr) * max(wc), "max_block_cells %d, expected %d"
          % (j["max_block_cells"], max(hr) * max(wc)))
    return blocks


def case_blocks():
    # 100 x 100 at --size 16: uneven blocks of 6 or 7 rows and columns. Block (0, 0) (rows and
    # columns 0..6) full, a single entry in a 7 x 7 block, random entries elsewhere.
    rnd = random.Random(1)
    entries = [(i, j) for i in range(7) for j in range(7)]
    entries += [(50, 50)]  # block (8, 8): 50 * 16 // 100 == 8, rows 50..56 -> 7 rows
    for _ in range(400):
        i, j = rnd.randrange(100), rnd.randrange(100)
        if i // 7 not in (0,) and not (44 <= i < 63 and 44 <= j < 63):
            entries.append((i, j))
    path = write_mtx(os.path.join(tmp, "blocks.mtx"), 100, 100, entries)
    j, img = draw(path, "blocks.png", "--size", "16")
    check(j["scale"] == 1 and j["grid_rows"] == 16 and j["grid_cols"] == 16, "grid")
    check(abs(j["block_rows"] - 6.25) < 1e-12, "block_rows %r" % j["block_rows"])
    counts, got = check_pattern(img, j, 100, 100, entries)
    blocks = check_monotone(img, j, 100, 100, counts)
    check(blocks[-1][0] == 1.0 and blocks[-1][1] == DARKEST, "the full block is %r" % (blocks[-1],))
    single = img.pixel(j["pattern_panel"]["x"] + 8, j["pattern_panel"]["y"] + 8)
    check(single == LIGHTEST, "one entry in a 49-cell block is %r, not the lightest" % (single,))
    check(len({c for _, c in blocks}) >= 4, "too few shades: %r" % {c for _, c in blocks})
    check_layout(img, j)


def case_shades():
    # 160 x 160 at --size 16: 10 x 10 blocks; block (b % 16, b // 16) holds b + 1 entries for
    # b < 100, so densities 0.01 .. 1 each once: darker as the count grows, and the log scale
    # puts a count of 10 (v = 0.5) at the middle of the ramp.
    entries = []
    for b in range(100):
        bx, by = b % 16, b // 16
        entries += [(by * 10 + k // 10, bx * 10 + k % 10) for k in range(b + 1)]
    path = write_mtx(os.path.join(tmp, "shades.mtx"), 160, 160, entries)
    j, img = draw(path, "shades.png", "--size", "16")
    check(j["max_block_cells"] == 100, "max_block_cells %d" % j["max_block_cells"])
    counts, _ = check_pattern(img, j, 160, 160, entries)
    blocks = check_monotone(img, j, 160, 160, counts)
    colour = {round(d * 100): c for d, c in blocks}
    check(colour[1] == LIGHTEST and colour[100] == DARKEST, "extremes %r %r"
          % (colour[1], colour[100]))
    b1, b10, b100 = brightness(colour[1]), brightness(colour[10]), brightness(colour[100])
    check(b1 > b10 > b100, "brightness of 1, 10, 100 entries: %d %d %d" % (b1, b10, b100))
    # Log scale: 10 entries sit half way between 1 and 100, at the ramp's middle stop 0x4292c6
    # (level 128 of 0..255), where a linear scale would put them near the lightest end.
    middle = (0x42, 0x92, 0xC6)
    check(all(abs(a - b) <= 2 for a, b in zip(colour[10], middle)),
          "10 of 100 cells is %r, expected about %r" % (colour[10], middle))


def check_histogram(img, j, want):
    h = j["histogram_panel"]
    check(j["histogram"] == want, "json histogram %r, expected %r" % (j["histogram"], want))
    check(h["bins"] == len(want) and h["width"] == h["bins"] * h["bar_step"], "bins %r" % h)
    bottom = h["y"] + h["height"]
    for x in range(h["x"] - 1, h["x"] + h["width"] + 1):
        check(img.pixel(x, bottom) == AXIS, "x axis pixel (%d, %d)" % (x, bottom))
    for y in range(h["y"], bottom + 1):
        check(img.pixel(h["x"] - 1, y) == AXIS, "y axis pixel (%d, %d)" % (h["x"] - 1, y))
    heights = []
    for b in range(h["bins"]):
        columns = []
        for x in range(h["x"] + b * h["bar_step"], h["x"] + (b + 1) * h["bar_step"]):
            ys = [y for y in range(h["y"], bottom) if img.pixel(x, y) == BAR]
            if ys:  # a solid bar standing on the axis
                check(ys == list(range(bottom - len(ys), bottom)), "bin %d column %d" % (b, x))
                columns.append(len(ys))
        check(not columns or (len(columns) == h["bar_width"] and len(set(columns)) == 1),
              "bin %d: bar columns %r, width %d" % (b, columns, h["bar_width"]))
        heights.append(columns[0] if columns else 0)
    most = max(want)
    for b, (n, height) in enumerate(zip(want, heights)):
        check((n == 0) == (height == 0), "bin %d: %d rows, bar %d pixels" % (b, n, height))
        if n:  # the log10 scale of --help: 0.1 at the axis, the largest bin at the top
            expect = h["height"] * (math.log10(n) + 1) / (math.log10(most) + 1)
            check(abs(height - max(1, expect)) <= 1, "bin %d: %d rows, bar %d, expected %.1f"
                  % (b, n, height, expect))
            check(height == bar_height(n, most, h["height"]), "bin %d: bar %d, rounded %d"
                  % (b, height, bar_height(n, most, h["height"])))
    for n1, h1 in zip(want, heights):
        for n2, h2 in zip(want, heights):
            check(n1 >= n2 or h1 <= h2, "bars not monotone: %r for %r" % (heights, want))
    check(max(heights) == h["height"], "the largest bin is %d, not %d pixels tall"
          % (max(heights), h["height"]))
    return heights


def case_histogram():
    # 300 x 300 with row lengths chosen per bin: 5 empty rows, one row of length 1, 100 of 2-3,
    # 3 of 4-7, 150 of 8-15, 41 of 16-31.
    lengths = [0] * 5 + [1] + [2, 3] * 50 + [4, 7, 5] + [8 + k % 8 for k in range(150)] + \
        [16 + k % 16 for k in range(41)]
    assert len(lengths) == 300
    rnd = random.Random(2)
    entries = []
    for i, n in enumerate(lengths):
        entries += [(i, j) for j in sorted(rnd.sample(range(300), n))]
    path = write_mtx(os.path.join(tmp, "hist.mtx"), 300, 300, entries)
    j, img = draw(path, "hist.png", "--size", "64")
    check_pattern(img, j, 300, 300, entries)
    check(row_bins(300, entries) == [5, 1, 100, 3, 150, 41], "test's own bins")
    check_histogram(img, j, [5, 1, 100, 3, 150, 41])
    check(j["histogram_scale"] == "log10", "histogram_scale %r" % j["histogram_scale"])
    check_layout(img, j)
    # Long rows: 40000 entries (bin 16, labelled 2^15), 9000 (bin 14, 8192) and an empty row,
    # at a size with the doubled font (where every other label from 1024 on is left out).
    entries = [(0, c) for c in range(40000)] + [(1, c) for c in range(0, 18000, 2)]
    path = write_mtx(os.path.join(tmp, "long.mtx"), 3, 50000, entries)
    j, img = draw(path, "long.png", "--size", "1024")
    want = [1] + [0] * 13 + [1, 0, 1]
    check(row_bins(3, entries) == want, "test's own bins %r" % row_bins(3, entries))
    check(j["font_scale"] == 2, "font_scale %r" % j["font_scale"])
    check_histogram(img, j, want)
    check_layout(img, j)
    labels = read_text(img, j["histogram_panel"]["x"] - 1, img.width, j["text_y"], 2)
    check("2^15" in [w[2] for w in labels], "no 2^15 label in %r" % labels)


def case_rect():
    rnd = random.Random(3)
    # 37 x 200 at 100: 18.5 block rows, rounded to 19 (not cut to 18).
    for rows, cols, size, grid in ((30, 200, 100, (15, 100)), (37, 200, 100, (19, 100)),
                                   (1000, 3, 64, (64, 1)),
                                   (10, 25, 100, (10, 25)), (3, 5000, 16, (1, 16))):
        entries = [(rnd.randrange(rows), rnd.randrange(cols)) for _ in range(3 * (rows + cols))]
        path = write_mtx(os.path.join(tmp, "rect.mtx"), rows, cols, entries)
        j, img = draw(path, "rect.png", "--size", str(size))
        check((j["rows"], j["cols"]) == (rows, cols), "size %r" % ((j["rows"], j["cols"]),))
        check((j["grid_rows"], j["grid_cols"]) == grid, "%dx%d at %d: grid %r, expected %r"
              % (rows, cols, size, (j["grid_rows"], j["grid_cols"]), grid))
        p = j["pattern_panel"]
        check(max(p["width"], p["height"]) <= size and min(p["width"], p["height"]) >= 1, "panel")
        if max(rows, cols) > size:
            check(max(p["width"], p["height"]) == size, "long side %r, expected %d" % (p, size))
        else:
            check(j["scale"] == size // max(rows, cols), "scale %d" % j["scale"])
        counts, _ = check_pattern(img, j, rows, cols, entries)
        check_monotone(img, j, rows, cols, counts)
        check_histogram(img, j, row_bins(rows, entries))
        check_layout(img, j)


def case_empty():
    for rows, cols, bins in ((0, 0, [0]), (5, 7, [5]), (1, 1, [1]), (0, 4, [0]), (3, 0, [3])):
        path = write_mtx(os.path.join(tmp, "empty.mtx"), rows, cols, [], field="real")
        j, img = draw(path, "empty.png", "--size", "32")
        check(j["nnz"] == 0 and j["pixels_nonempty"] == 0 and j["blocks_nonempty"] == 0,
              "%dx%d: %r" % (rows, cols, j))
        check(not panel_pixels(img, j["pattern_panel"]), "%dx%d: a pixel drawn" % (rows, cols))
        p = j["pattern_panel"]
        check(p["width"] >= 1 and p["height"] >= 1, "%dx%d: no panel %r" % (rows, cols, p))
        if any(bins):
            check_histogram(img, j, bins)
        else:  # no rows: no bar, and no grid line to label
            check(j["histogram"] == bins, "histogram %r, expected %r" % (j["histogram"], bins))
        check_layout(img, j)


def case_pattern():
    # A pattern file and a real file with the same positions draw the same picture.
    positions = [(e[0], e[1]) for e in EXACT]
    a = write_mtx(os.path.join(tmp, "p.mtx"), 40, 40, positions)
    b = write_mtx(os.path.join(tmp, "r.mtx"), 40, 40, EXACT, field="real")
    ja, ia = draw(a, "p.png", "--size", "80")
    _, ib = draw(b, "r.png", "--size", "80")
    check_pattern(ia, ja, 40, 40, positions)
    check(ia.rgb == ib.rgb, "pattern and real files drew different pictures")


def case_symmetric():
    # One triangle stored; the picture shows the expanded matrix (skew-symmetric too).
    lower = [(i, i) for i in range(0, 30, 3)] + [(9, 1), (20, 4), (29, 0), (15, 14)]
    full = set((i, j) for i, j in lower) | set((j, i) for i, j in lower)
    path = write_mtx(os.path.join(tmp, "sym.mtx"), 30, 30, [e + (1.5,) for e in lower],
                     field="real", symmetry="symmetric")
    j, img = draw(path, "sym.png", "--size", "30")
    check(j["nnz"] == len(full), "nnz %d, expected %d (expanded)" % (j["nnz"], len(full)))
    _, got = check_pattern(img, j, 30, 30, list(full))
    check((1, 9) in got and (9, 1) in got, "a mirrored entry is missing")
    offdiag = [e for e in lower if e[0] != e[1]]
    path = write_mtx(os.path.join(tmp, "skew.mtx"), 30, 30, [e + (2.0,) for e in offdiag],
                     field="real", symmetry="skew-symmetric")
    j, img = draw(path, "skew.png", "--size", "30")
    check_pattern(img, j, 30, 30, offdiag + [(b, a) for a, b in offdiag])


def case_gzip():
    plain = write_mtx(os.path.join(tmp, "g.mtx"), 40, 40, EXACT, field="real")
    packed = write_mtx(os.path.join(tmp, "g.mtx.gz"), 40, 40, EXACT, field="real", compress=True)
    draw(plain, "g1.png", "--size", "120")
    jb, ib = draw(packed, "g2.png", "--size", "120")
    check_pattern(ib, jb, 40, 40, EXACT)
    check(open(os.path.join(tmp, "g1.png"), "rb").read() ==
          open(os.path.join(tmp, "g2.png"), "rb").read(), "gzip input drew another PNG")


def case_edge_list():
    # An edge list is 0-based, N x N with N the largest id + 1.
    edges = [(0, 1), (1, 2), (2, 0), (5, 3), (3, 3)]
    path = os.path.join(tmp, "g.txt")
    with open(path, "w") as f:
        f.write("# a comment\n" + "".join("%d\t%d\n" % e for e in edges))
    j, img = draw(path, "el.png", "--size", "60")
    check((j["rows"], j["cols"], j["scale"]) == (6, 6, 10), "edge list %r" % j)
    check_pattern(img, j, 6, 6, edges)


def case_stdin():
    path = write_mtx(os.path.join(tmp, "s.mtx"), 40, 40, EXACT, field="real")
    with open(path, "rb") as f:
        j = run_spy("-", "--out", os.path.join(tmp, "stdin.png"), "--size", "40", stdin=f)
    check(j["file"] == "-", "file %r" % j["file"])
    check_pattern(read_png(os.path.join(tmp, "stdin.png")), j, 40, 40, EXACT)


def case_threads():
    # Any thread count draws the same bytes (each thread owns whole block rows).
    rnd = random.Random(4)
    entries = [(rnd.randrange(997), rnd.randrange(1009)) for _ in range(20000)]
    entries += [(i, i) for i in range(997)]
    path = write_mtx(os.path.join(tmp, "t.mtx"), 997, 1009, entries)
    pictures = []
    version = subprocess.run([spy, "--version"], capture_output=True, text=True).stdout
    omp = ", omp" in version  # "backends compiled in: ref, omp[, cuda]"
    for t in ("1", "2", "3", "8"):
        out = os.path.join(tmp, "t%s.png" % t)
        j = run_spy(path, "--out", out, "--size", "100", "--threads", t)
        check(j["threads"] == (int(t) if omp else 1), "threads %r" % j["threads"])
        pictures.append(open(out, "rb").read())
    check(all(p == pictures[0] for p in pictures), "thread counts drew different PNGs")
    img = read_png(os.path.join(tmp, "t1.png"))
    counts, _ = check_pattern(img, j, 997, 1009, entries)
    check_monotone(img, j, 997, 1009, counts)


def case_bus():
    # The bundled 1138_bus (symmetric, stored as one triangle) at the default size.
    path = os.path.join(src, "matrices", "1138_bus.mtx")
    entries = []
    with open(path) as f:
        lines = [l for l in f if not l.startswith("%")]
    for line in lines[1:]:
        i, jj = (int(v) - 1 for v in line.split()[:2])
        entries += [(i, jj), (jj, i)]
    j, img = draw(path, "bus.png")
    check(j["size"] == 512 and j["grid_rows"] == 512 and j["nnz"] == 4054, "bus %r" % j)
    counts, _ = check_pattern(img, j, 1138, 1138, entries)
    check_monotone(img, j, 1138, 1138, counts)
    check_histogram(img, j, row_bins(1138, entries))
    check_layout(img, j)


def check_titles_at(shape, sizes):
    """The whole layout (check_layout: the titles read back, nothing touching) of the matrix
    `shape` at each size."""
    for size in sizes:
        j, img = draw(shape, "titles%d.png" % size, "--size", str(size))
        check(j["font_scale"] == (2 if size >= 512 else 1), "font_scale %r at size %d"
              % (j["font_scale"], size))
        check_layout(img, j)


def title_shapes():
    """Matrices that stretch the layout: empty (one narrow bin under a wide title), wide with
    rows up to 2^16 long (17 bins, a wide histogram, a short pattern), tall and thin (a caption
    wider than the pattern, which is a column of 1 pixel)."""
    empty = write_mtx(os.path.join(tmp, "t_empty.mtx"), 0, 0, [])
    wide = write_mtx(os.path.join(tmp, "t_wide.mtx"), 3, 70000,
                     [(0, c) for c in range(0, 70000, 1)] + [(2, 5)])
    tall = write_mtx(os.path.join(tmp, "t_tall.mtx"), 60000, 3,
                     [(i, i % 3) for i in range(0, 60000, 7)])
    return empty, wide, tall


def case_titles():
    # Every font scale and the sizes where the histogram's parts change (bar width 4 below 160,
    # the font doubled from 512), on the shapes that stretch the layout.
    empty, wide, tall = title_shapes()
    check_titles_at(empty, (16, 17, 31, 100, 511, 512, 700))
    check_titles_at(wide, (16, 20, 33, 64, 129, 200, 333, 511, 512))
    check_titles_at(tall, (16, 50, 128, 255, 511, 512))


def case_titles_large():
    # The largest sizes, on shapes whose pictures stay small enough to decode in python.
    _, wide, tall = title_shapes()
    check_titles_at(wide, (1000, 2048, 4096, 8192))
    check_titles_at(tall, (1024, 2048, 4096, 8192))


cases = {name[5:]: f for name, f in globals().items() if name.startswith("case_")}
if case not in cases:
    fail("unknown case (known: %s)" % ", ".join(cases))
cases[case]()
print("%s: ok" % case)
