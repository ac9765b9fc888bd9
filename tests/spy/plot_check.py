# SPDX-License-Identifier: BSD-3-Clause
"""The tests of apps/cg's convergence plot (apps/plot.c) and of the pictures' font (apps/font.c):
each case draws known residual histories (or text) with plot_draw, decodes the PNG with pngread
and reads the labels, titles and line back from the pixels alone.

    python3 plot_check.py CASE PLOT_DRAW SCRATCH_DIR

Cases: font, decay, single, empty, flat, gaps, span, long. Exit 0 pass, 1 fail.
"""

import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngread import read_png  # noqa: E402
import glyphs  # noqa: E402

WHITE = (255, 255, 255)
LINE = (0x1F, 0x4F, 0xBF)
AXIS = (0, 0, 0)
GRID = (0xDD, 0xDD, 0xDD)
TEXT = (0x33, 0x33, 0x33)
FS = 2  # the plot's font scale
TICK = 5  # tick length outside the plot area
X_TITLE, Y_TITLE = "ITERATION", "RELATIVE RESIDUAL"

case, driver, tmp = sys.argv[1:4]


def fail(message):
    sys.exit("FAIL: %s: %s" % (case, message))


def check(condition, message):
    if not condition:
        fail(message)


def run_driver(*args):
    p = subprocess.run([driver, *args], capture_output=True, text=True)
    check(p.returncode == 0, "plot_draw %s: exit %d\n%s%s" % (" ".join(args[:1]), p.returncode,
                                                                p.stdout, p.stderr))
    return json.loads(p.stdout)


def read(pixel, x0, x1, y0, spaces=False, fs=FS):
    try:
        return glyphs.read_text(pixel, x0, x1, y0, fs, TEXT, spaces)
    except glyphs.TextError as e:
        fail(str(e))


def bands(values):
    """Runs of consecutive integers in the sorted values: [[first, end), ...]."""
    out = []
    for v in sorted(values):
        if out and v == out[-1][1]:
            out[-1][1] = v + 1
        elif not out or v > out[-1][1]:
            out.append([v, v + 1])
    return out


def apart(a, b, gap=1):
    """Boxes (left, top, right, bottom; right and bottom exclusive) at least gap pixels apart."""
    return (a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1]
            or b[3] + gap <= a[1])


def drawn(v):
    return math.isfinite(v) and v > 0


def decade(v):
    d = math.log10(v)
    return round(d) if abs(d - round(d)) < 1e-9 else d


def decade_label(k):
    return {0: "1", 1: "10", 2: "100"}.get(k, "1e%d" % k)


def expected_decades(values):
    """The y axis' ticks of plot.h, top down: whole decades around the data ([1e-1, 1] without
    any, one more below a single decade), every 1, 2, 5, 10, 20, ... decades, the smallest step
    needing at most 12, the ends rounded out to it."""
    logs = [decade(v) for v in values if drawn(v)]
    lo, hi = (math.floor(min(logs)), math.ceil(max(logs))) if logs else (0, 0)
    if lo == hi:
        lo -= 1
    for step in (1, 2, 5, 10, 20, 50, 100, 200, 500):
        low, high = math.floor(lo / step) * step, math.ceil(hi / step) * step
        if (high - low) // step <= 12:
            return list(range(high, low - 1, -step))


class Plot:
    """A decoded plot: the axes found from the pixels, the ticks, every text item, and the
    mapping of iterations and decades to pixels fitted from the labelled ticks."""

    def __init__(self, img):
        self.img = img
        w, h = img.width, img.height
        px = img.pixel
        # The axes: the column and the row with the most axis pixels, each one unbroken run.
        count_x = [sum(1 for y in range(h) if px(x, y) == AXIS) for x in range(w)]
        count_y = [sum(1 for x in range(w) if px(x, y) == AXIS) for y in range(h)]
        self.left = max(range(w), key=lambda x: count_x[x])
        self.bottom = max(range(h), key=lambda y: count_y[y])
        ys = [y for y in range(h) if px(self.left, y) == AXIS]
        xs = [x for x in range(w) if px(x, self.bottom) == AXIS]
        check(bands(ys) == [[ys[0], self.bottom + 1]], "y axis broken or not down to the x axis")
        check(bands(xs) == [[self.left, xs[-1] + 1]], "x axis broken or not from the y axis")
        self.top, self.right = ys[0], xs[-1]
        check(self.bottom - self.top > 300 and self.right - self.left > 500,
              "plot area %r is small" % ((self.left, self.top, self.right, self.bottom),))
        # Ticks: TICK pixels outside the axes.
        self.y_ticks = [y for y in range(h) if all(px(x, y) == AXIS for x in
                                                   range(self.left - TICK, self.left))]
        self.x_ticks = [x for x in range(w) if all(px(x, y) == AXIS for y in
                                                   range(self.bottom + 1, self.bottom + 1 + TICK))]
        self.check_colours()
        self.read_texts()

    def inside(self, x, y):
        """In the plot area: right of the y axis, above the x axis."""
        return self.left < x <= self.right and self.top <= y < self.bottom

    def check_colours(self):
        """Every pixel is white, line, axis, grid or text; the line and grid inside the plot
        area, the grid on tick rows and columns only; axis pixels on the axes and ticks; text
        clear of the plot area and its ticks."""
        img, ticks_y, ticks_x = self.img, set(self.y_ticks), set(self.x_ticks)
        plot_box = (self.left - TICK, self.top, self.right + 1, self.bottom + TICK + 1)
        self.line = []
        for y in range(img.height):
            row = img.rgb[y]
            for x in range(img.width):
                c = row[x]
                if c == WHITE:
                    continue
                where = "%r at (%d, %d)" % (c, x, y)
                if c == LINE:
                    check(self.inside(x, y), "line pixel outside the plot area: " + where)
                    self.line.append((x, y))
                elif c == GRID:
                    check(self.inside(x, y) and (y in ticks_y or x in ticks_x),
                          "grid pixel off the ticks: " + where)
                elif c == AXIS:
                    on_axes = (x == self.left and self.top <= y <= self.bottom) or (
                        y == self.bottom and self.left <= x <= self.right)
                    on_tick = (y in ticks_y and self.left - TICK <= x < self.left) or (
                        x in ticks_x and self.bottom < y <= self.bottom + TICK)
                    check(on_axes or on_tick, "stray axis pixel " + where)
                elif c == TEXT:
                    check(apart(plot_box, (x, y, x + 1, y + 1), 2),
                          "text pixel within 2 pixels of the plot area: " + where)
                else:
                    fail("pixel of an unknown colour " + where)
        self.line_set = set(self.line)

    def read_texts(self):
        """Every text pixel belongs to one of: the title (above the plot), the y title (the
        leftmost inked columns beside it), the y labels (bands of rows between the y title and
        the ticks), the x labels and the x title (two bands of rows under the plot)."""
        img = self.img
        ink = [(x, y) for y in range(img.height) for x in range(img.width)
               if img.rgb[y][x] == TEXT]
        pixel = img.pixel
        label_top = self.top - 5 * FS // 2 - 1  # the top tick's label may reach this high
        above = [p for p in ink if p[1] < label_top]
        under = [p for p in ink if p[1] > self.bottom + TICK]
        beside = [p for p in ink if label_top <= p[1] <= self.bottom + TICK]
        check(all(x < self.left - TICK for x, _ in beside), "text right of the y ticks")
        self.boxes = []
        # The title line.
        self.title = None
        if above:
            rows = bands(y for _, y in above)
            check(len(rows) == 1 and rows[0][1] - rows[0][0] == 5 * FS, "title rows %r" % rows)
            words = read(pixel, 0, img.width, rows[0][0], spaces=True)
            check(len(words) == 1, "title words %r" % words)
            self.title = words[0]
            self.boxes.append((words[0][0], rows[0][0], words[0][1], rows[0][1]))
        # Under the plot: the x labels, then the x title.
        rows = bands(y for _, y in under)
        check(len(rows) == 2 and all(r[1] - r[0] == 5 * FS for r in rows),
              "under the plot: bands of rows %r, expected the x labels and the x title" % rows)
        self.x_labels = read(pixel, 0, img.width, rows[0][0])
        self.boxes += [(w[0], rows[0][0], w[1], rows[0][1]) for w in self.x_labels]
        words = read(pixel, 0, img.width, rows[1][0], spaces=True)
        check([w[2] for w in words] == [X_TITLE], "x title %r" % words)
        self.x_title = words[0]
        self.boxes.append((words[0][0], rows[1][0], words[0][1], rows[1][1]))
        # Beside the plot: the y title (the leftmost columns), then the y labels.
        columns = bands(x for x, _ in beside)
        first = columns[0]
        check(first[1] - first[0] == 5 * FS, "y title columns %r" % first)
        rows = [y for x, y in beside if x < first[1]]
        y0, y1 = min(rows), max(rows) + 1
        try:
            words = glyphs.read_up(pixel, first[0], y0, y1 - y0, FS, TEXT, spaces=True)
        except glyphs.TextError as e:
            fail("y title: %s" % e)
        check([w[:3] for w in words] == [(0, y1 - y0, Y_TITLE)], "y title %r" % words)
        self.y_title = (first[0], y0, first[1], y1)
        self.boxes.append(self.y_title)
        self.y_labels = []  # (top, word)
        for top, end in bands(y for x, y in beside if x >= first[1]):
            check(end - top == 5 * FS, "a y label band %d..%d" % (top, end))
            words = read(pixel, first[1], self.left - TICK, top)
            check(len(words) == 1, "y labels %r at %d" % (words, top))
            self.y_labels.append((top, words[0]))
            self.boxes.append((words[0][0], top, words[0][1], end))
        for a in range(len(self.boxes)):
            check(self.boxes[a][0] >= 4 and self.boxes[a][1] >= 4
                  and self.boxes[a][2] <= img.width - 4 and self.boxes[a][3] <= img.height - 4,
                  "text %r at the canvas' edge" % (self.boxes[a],))
            for b in range(a):
                check(apart(self.boxes[a], self.boxes[b], FS), "texts %r and %r touch"
                      % (self.boxes[a], self.boxes[b]))

    def check_y(self, values):
        """The y labels: the expected decades top down, right-aligned beside their ticks, the
        ticks evenly spaced from the top of the plot area to its bottom; returns row(decade)."""
        want = expected_decades(values)
        got = [w[2] for _, w in self.y_labels]
        check(got == [decade_label(k) for k in want], "y labels %r, expected %r"
              % (got, [decade_label(k) for k in want]))
        check(len(self.y_ticks) == len(want), "%d y ticks for %d labels" % (len(self.y_ticks),
                                                                           len(want)))
        right = {w[1] for _, w in self.y_labels}
        check(len(right) == 1 and max(right) <= self.left - TICK - 2, "y labels end at %r" % right)
        for (top, w), y in zip(self.y_labels, self.y_ticks):
            check(top + 5 * FS // 2 == y, "y label %r at rows %d.., its tick at %d" % (w[2], top,
                                                                                       y))
        first, last = self.y_ticks[0], self.y_ticks[-1]
        check(first == self.top and self.bottom - 3 <= last < self.bottom,
              "y ticks from %d to %d, plot area %d..%d" % (first, last, self.top, self.bottom))
        slope = (last - first) / (want[-1] - want[0])
        for k, y in zip(want, self.y_ticks):
            check(abs(first + (k - want[0]) * slope - y) <= 1, "y tick of %r at %d: not linear"
                  % (decade_label(k), y))
        return lambda d: first + (d - want[0]) * slope

    def check_x(self, count):
        """The x labels: 0, s, 2s, ... with s 1, 2 or 5 x 10^k, at most 10 steps, the last
        within the iterations and the next past them, each centred on its tick, the ticks
        evenly spaced from the y axis to the right end; returns column(iteration)."""
        x_hi = max(count - 1, 1)
        values = [int(w[2]) for w in self.x_labels]
        check(all(w[2].isdigit() and str(int(w[2])) == w[2] for w in self.x_labels),
              "x labels %r" % self.x_labels)
        check(len(values) >= 2 and values[0] == 0, "x labels %r" % values)
        step = values[1]
        mantissa = step // 10 ** (len(str(step)) - 1)
        check(mantissa in (1, 2, 5) and step == mantissa * 10 ** (len(str(step)) - 1),
              "x step %d is not 1, 2 or 5 x 10^k" % step)
        check(values == [i * step for i in range(len(values))], "x labels %r" % values)
        check(values[-1] <= x_hi < values[-1] + step and len(values) <= 11,
              "x labels %r for iterations 0..%d" % (values, x_hi))
        check(len(self.x_ticks) == len(values), "%d x ticks for labels %r" % (len(self.x_ticks),
                                                                              values))
        for w, x in zip(self.x_labels, self.x_ticks):
            check(abs((w[0] + w[1] - 1) / 2 - x) <= 1, "x label %r at %d..%d, its tick at %d"
                  % (w[2], w[0], w[1], x))
        for a, b in zip(self.x_labels, self.x_labels[1:]):
            check(b[0] - a[1] >= 4 * FS, "x labels %r and %r too close" % (a, b))
        first = self.x_ticks[0]
        check(first == self.left + 1, "x tick of 0 at %d, y axis at %d" % (first, self.left))
        slope = (self.x_ticks[-1] - first) / values[-1]
        for v, x in zip(values, self.x_ticks):
            check(abs(first + v * slope - x) <= 1, "x tick of %d at %d: not linear" % (v, x))
        end = first + x_hi * slope
        check(abs(end - (self.right - 1)) <= 1, "iteration %d at column %.1f, the plot ends at %d"
              % (x_hi, end, self.right))
        return lambda k: first + k * slope

    def check_titles(self, title):
        """The x title centred under the plot, the y title beside it, centred on its height, the
        title line (drawn(title)) centred over it (or cut to fit the canvas), or none for None
        or ""."""
        mid = (self.left + self.right) / 2
        check(abs((self.x_title[0] + self.x_title[1]) / 2 - mid) <= FS + 1,
              "x title at %r, the plot's middle at %.1f" % (self.x_title, mid))
        mid_y = (self.top + self.bottom) / 2
        check(abs((self.y_title[1] + self.y_title[3]) / 2 - mid_y) <= FS + 1,
              "y title at %r, the plot's middle at %.1f" % (self.y_title, mid_y))
        if not title:
            check(self.title is None, "a title %r drawn without one" % (self.title,))
            return
        full, room = glyphs.drawn(title), self.img.width - 16
        check(self.title is not None, "no title, expected %r" % full)
        got = self.title[2]
        if got != full:  # cut to the canvas: as much as fits, at the canvas' right edge
            rest = full[len(got):]
            next_glyph = len(got) + len(rest) - len(rest.lstrip()) + 1
            check(full.startswith(got) and glyphs.text_width(full[:next_glyph], FS) > room,
                  "title %r, expected %r or as much of it as fits" % (got, full))
            check(self.title[1] == self.img.width - 8, "cut title ends at %d" % self.title[1])
            return
        check(abs((self.title[0] + self.title[1]) / 2 - mid) <= FS + 1, "title at %r, the plot's "
              "middle at %.1f" % (self.title, mid))

    def has_line_near(self, x, y, reach=2):
        return any((round(x) + dx, round(y) + dy) in self.line_set
                   for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1))


def draw(name, values, title=None):
    path = os.path.join(tmp, name + ".txt")
    with open(path, "w") as f:
        f.write("".join("%r\n" % v for v in values))
    out = os.path.join(tmp, name + ".png")
    j = run_driver("history", path, out, *([title] if title is not None else []))
    img = read_png(out)
    check((img.width, img.height) == (j["width"], j["height"]) == (800, 500),
          "plot is %dx%d" % (img.width, img.height))
    check(j["count"] == len(values), "the driver read %d values of %d" % (j["count"],
                                                                          len(values)))
    return Plot(img)


def check_plot(name, values, title=None, sample=1):
    """The whole plot of values: labels, titles, and the line through every drawn point (every
    `sample`-th one and the last), continuous between drawn neighbours, absent across gaps."""
    plot = draw(name, values, title)
    row = plot.check_y(values)
    column = plot.check_x(len(values))
    plot.check_titles(title)
    points = [k for k in range(len(values)) if drawn(values[k])]
    check(bool(plot.line) == bool(points), "%d line pixels for %d points" % (len(plot.line),
                                                                            len(points)))
    for k in points[::sample] + points[-1:]:
        x, y = column(k), row(decade(values[k]))
        check(plot.has_line_near(x, y), "no line at point %d (%g) near (%.1f, %.1f)"
              % (k, values[k], x, y))
    columns = {x for x, _ in plot.line}
    for a, b in zip(points, points[1:]):
        xa, xb = round(column(a)), round(column(b))
        if b == a + 1:  # neighbours: the line covers every column between them
            check(all(x in columns for x in range(xa, xb + 1)), "line broken between points %d"
                  " and %d" % (a, b))
        else:  # a gap: nothing between them but the ends' 2-pixel pen or dot
            stray = [x for x in range(xa + 2, xb - 1) if x in columns]
            check(not stray, "line across the gap between points %d and %d at columns %r"
                  % (a, b, stray[:5]))
    return plot


def case_font():
    # Every glyph, lower-case letters, a character outside the font and spaces, read back at
    # scales 1 to 3 across and 1 to 2 upwards, at the width font_text_width gives.
    bitmaps = [(len(v.split()[0]), v) for v in glyphs.GLYPHS.values()]
    check(len(set(bitmaps)) == len(bitmaps), "two glyphs look alike")
    for c, v in glyphs.GLYPHS.items():
        rows = v.split()
        check(len(rows) == 5 and len({len(r) for r in rows}) == 1, "glyph %r rows" % c)
        check(all(any(r[col] == "#" for r in rows) for col in range(len(rows[0]))),
              "glyph %r has a blank column" % c)
    text = "".join(glyphs.GLYPHS) + " abcdfghijklmnopqrstuvwyz e x ~  E X"
    want = glyphs.drawn(text)
    check(want.endswith("ABCDFGHIJKLMNOPQRSTUVWYZ e x    E X"), "drawn() %r" % want)
    out = os.path.join(tmp, "font.png")
    j = run_driver("text", out, text)
    img = read_png(out)
    for s in (1, 2, 3):
        words = read(img.pixel, 0, img.width, j["rows"][s - 1], spaces=True, fs=s)
        check([w[2] for w in words] == [want], "scale %d reads %r, expected %r" % (s, words, want))
        check(words[0][0] == 4 and words[0][1] - words[0][0] == j["widths"][s - 1]
              == glyphs.text_width(text, s), "scale %d: text %r, widths %r" % (s, words[0][:2],
                                                                               j["widths"]))
    for s in (1, 2):
        height = j["widths"][s - 1]
        try:
            words = glyphs.read_up(img.pixel, j["up_x"][s - 1], j["up_y"], height, s, TEXT,
                                   spaces=True)
        except glyphs.TextError as e:
            fail("upwards at scale %d: %s" % (s, e))
        check([w[:3] for w in words] == [(0, height, want)], "upwards at scale %d reads %r"
              % (s, words))
    ink = sum(1 for row in img.rgb for c in row if c == TEXT)
    check(ink == sum(sum(v.count("#") for v in (glyphs.GLYPHS[c] for c in want if c != " "))
                     * s * s for s in (1, 2, 3, 1, 2)), "ink beside the text")


def case_decay():
    # 137 iterations from 1 down to 1e-10: the decades 1 .. 1e-10 one by one, iterations 0..136.
    values = [10 ** (-10 * k / 136) for k in range(137)]
    plot = check_plot("decay", values, "CG  1138_bus.mtx")
    check([w[2] for _, w in plot.y_labels][0] == "1" and plot.y_labels[-1][1][2] == "1e-10",
          "y labels %r" % plot.y_labels)
    check(len(plot.x_labels) >= 5, "only %d x labels over 137 iterations" % len(plot.x_labels))


def case_single():
    # One point: a dot at the top left (iteration 0, 1 on the decade 1e-1 .. 1); no title.
    plot = check_plot("single", [1.0])
    check([w[2] for w in plot.x_labels] == ["0", "1"], "x labels %r" % plot.x_labels)
    check(len(plot.line) >= 4, "the point is %d pixels" % len(plot.line))


def case_empty():
    # No iteration at all: the axes, labels and titles, no line.
    plot = check_plot("empty", [], "")
    check(not plot.line and plot.title is None, "an empty history drew a line or a title")
    plot = check_plot("empty_titled", [], "EMPTY")


def case_flat():
    # Every value alike, a rounding above 1e-3 (taken as 1e-3): the decade below it and its own;
    # a flat line along the top.
    plot = check_plot("flat", [1.000000001e-3] * 50, "flat")
    check([w[2] for _, w in plot.y_labels] == ["1e-3", "1e-4"], "y labels %r" % plot.y_labels)
    check({y for _, y in plot.line} <= {plot.top, plot.top + 1}, "the flat line is not at the top")


def case_gaps():
    # NaN, 0, inf and negative values are skipped and break the line; a lone point between two
    # gaps is a dot.
    nan, inf = float("nan"), float("inf")
    values = [1, 0.3, nan, 0.05, 0.01, 0, 3e-3, 1e-3, inf, 5e-4, -1, 2e-4, nan, nan, 1e-4,
              8e-5, 0.0, -inf] + [1e-4 * 0.8 ** k for k in range(25)]
    check_plot("gaps", values, "bicgstab (gaps): x=1, y|2")
    check_plot("gaps_only", [nan, 0, inf, -1, nan], "gaps only")


def case_span():
    # From 1e3 down to 1e-300: 303 decades, labelled every 50, the ends rounded out to 1e50
    # and 1e-300; a title too long for the canvas is cut.
    values = [10 ** (3 - 303 * k / 199) for k in range(200)]
    plot = check_plot("span", values, "SPAN " * 40)
    check([w[2] for _, w in plot.y_labels] == ["1e50", "1", "1e-50", "1e-100", "1e-150",
                                               "1e-200", "1e-250", "1e-300"],
          "y labels %r" % plot.y_labels)
    check(plot.title[1] - plot.title[0] <= 800 - 16, "title %r" % (plot.title,))


def case_long():
    # A million iterations: few, readable x labels (0, 100000, ... 900000).
    n = 10 ** 6
    values = [10 ** (-8 * k / (n - 1)) for k in range(n)]
    plot = check_plot("long", values, "PCG  a long run", sample=997)
    check([w[2] for w in plot.x_labels] == [str(100000 * i) for i in range(10)],
          "x labels %r" % plot.x_labels)


cases = {name[5:]: f for name, f in globals().items() if name.startswith("case_")}
if case not in cases:
    fail("unknown case (known: %s)" % ", ".join(cases))
cases[case]()
print("%s: ok" % case)
