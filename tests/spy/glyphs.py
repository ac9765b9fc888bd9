# SPDX-License-Identifier: BSD-3-Clause
"""The font of the apps' pictures (apps/font.c), to read text back from their pixels.

GLYPHS maps each character to its five rows, top first, "#" inked; a glyph is 1 to 3 columns
wide, every column inked, one blank column after it; a space is 3 blank columns. Lower-case
letters are drawn with the upper-case glyphs except "e" and "x" (drawn(text) says what a line
reads back as).

read_text(pixel, x0, x1, y0, fs, ink, spaces) reads the line of glyphs at scale fs whose top row
is y0, between columns x0 and x1, where pixel(x, y) is the colour at (x, y) and `ink` the text's
colour; read_up(...) reads text drawn upwards (rotated a quarter turn counter-clockwise). Both
raise TextError on ink that is not a whole, scaled glyph. text_width(text, fs) is the width the
font gives text.
"""

GLYPHS = {
    "0": "### #.# #.# #.# ###", "1": ".#. ##. .#. .#. ###", "2": "### ..# ### #.. ###",
    "3": "### ..# ### ..# ###", "4": "#.# #.# ### ..# ..#", "5": "### #.. ### ..# ###",
    "6": "### #.. ### #.# ###", "7": "### ..# ..# ..# ..#", "8": "### #.# ### #.# ###",
    "9": "### #.# ### ..# ###", "e": ".#. #.# ### #.. .##", "x": "... #.# .#. #.# ...",
    "^": ".#. #.# ... ... ...", "A": ".#. #.# ### #.# #.#", "B": "##. #.# ##. #.# ##.",
    "C": ".## #.. #.. #.. .##", "D": "##. #.# #.# #.# ##.", "E": "### #.. ##. #.. ###",
    "F": "### #.. ##. #.. #..", "G": ".## #.. #.# #.# .##", "H": "#.# #.# ### #.# #.#",
    "I": "### .#. .#. .#. ###", "J": "..# ..# ..# #.# .#.", "K": "#.# ##. #.. ##. #.#",
    "L": "#.. #.. #.. #.. ###", "M": "#.# ### ### #.# #.#", "N": "##. #.# #.# #.# #.#",
    "O": ".#. #.# #.# #.# .#.", "P": "##. #.# ##. #.. #..", "Q": ".#. #.# #.# ##. .##",
    "R": "##. #.# ##. #.# #.#", "S": ".## #.. .#. ..# ##.", "T": "### .#. .#. .#. .#.",
    "U": "#.# #.# #.# #.# ###", "V": "#.# #.# #.# #.# .#.", "W": "#.# #.# ### ### #.#",
    "X": "#.# #.# .#. #.# #.#", "Y": "#.# #.# .#. .#. .#.", "Z": "### ..# .#. #.. ###",
    "-": "... ... ### ... ...", "+": "... .#. ### .#. ...", "=": "... ### ... ### ...",
    "/": "..# ..# .#. #.. #..", "_": "... ... ... ... ###", "(": ".# #. #. #. .#",
    ")": "#. .# .# .# #.", ",": ".. .. .. .# #.", ".": ". . . . #", ":": ". # . # .",
    "|": "# # # # #",
}
SPACE = 3  # blank columns of a space
BY_BITMAP = {v: k for k, v in GLYPHS.items()}


class TextError(Exception):
    pass


def drawn(text):
    """What text drawn by apps/font.c reads back as: lower-case letters upper-case except e and
    x, characters outside the font as spaces."""
    out = ""
    for c in text:
        if c not in GLYPHS and c.upper() in GLYPHS:
            c = c.upper()
        out += c if c in GLYPHS else " "
    return out


def text_width(text, fs):
    """Pixels across text drawn at scale fs (apps/font.c's font_text_width)."""
    columns = sum((len(GLYPHS[c].split()[0]) if c in GLYPHS else SPACE) + 1 for c in drawn(text))
    return max(columns - 1, 0) * fs


def read_text(pixel, x0, x1, y0, fs, ink, spaces=False):
    """The words in the band of rows [y0, y0 + 5 fs) between columns x0 and x1: a list of
    (left, right, text), right exclusive. Glyphs 1 font pixel apart join; with `spaces`, glyphs
    1 + 4n font pixels apart join with n spaces; other gaps start a new word. Every inked run of
    columns must be one glyph, each font pixel a solid fs x fs square of ink or of no ink."""
    inked = [any(pixel(x, y) == ink for y in range(y0, y0 + 5 * fs)) for x in range(x0, x1)]
    runs, x = [], 0
    while x < len(inked):
        if inked[x]:
            start = x
            while x < len(inked) and inked[x]:
                x += 1
            runs.append((x0 + start, x0 + x))
        else:
            x += 1
    words = []
    for left, right in runs:
        width = (right - left) // fs
        if (right - left) % fs or not 1 <= width <= 3:
            raise TextError("a text run %d..%d of width %d at y %d" % (left, right, right - left,
                                                                       y0))
        rows = []
        for r in range(5):
            row = ""
            for c in range(width):
                cells = {pixel(left + c * fs + dx, y0 + r * fs + dy) == ink
                         for dx in range(fs) for dy in range(fs)}
                if len(cells) != 1:
                    raise TextError("font pixel (%d, %d) of the glyph at (%d, %d) is not solid"
                                    % (c, r, left, y0))
                row += "#" if cells.pop() else "."
            rows.append(row)
        char = BY_BITMAP.get(" ".join(rows))
        if char is None:
            raise TextError("unknown glyph %r at (%d, %d)" % (" ".join(rows), left, y0))
        gap = left - words[-1][1] if words else None
        if gap == fs:
            words[-1] = (words[-1][0], right, words[-1][2] + char)
        elif spaces and gap is not None and gap > fs and (gap - fs) % (4 * fs) == 0:
            words[-1] = (words[-1][0], right, words[-1][2] + " " * ((gap - fs) // (4 * fs)) + char)
        else:
            words.append((left, right, char))
    return words


def read_up(pixel, x, y, height, fs, ink, spaces=False):
    """The words of text drawn upwards in the box of columns [x, x + 5 fs) and rows
    [y, y + height): read_text on the box turned back a quarter turn clockwise. Positions are
    along the text, from the box's bottom row (0) upwards."""
    def turned(u, v):
        return pixel(x + v, y + height - 1 - u)
    return read_text(turned, 0, height, 0, fs, ink, spaces)
