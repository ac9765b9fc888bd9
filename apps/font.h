/* SPDX-License-Identifier: BSD-3-Clause */
/* The bitmap font of the apps' pictures (apps/spy's labels, apps/cg's convergence plot): glyphs 5
 * pixels tall and 1 to 3 wide for the digits, the letters A-Z, 'e', 'x', space and
 * ^ - . / ( ) : , | + = _. Lower-case letters are drawn with the upper-case glyphs, except 'e'
 * and 'x', which have small glyphs of their own ("1e3", "1138 x 1138"). Every column of a glyph
 * holds ink and glyphs are one blank column apart, so each glyph is one run of inked columns; a
 * space is 3 blank columns (words 5 apart). Scaled by an integer factor; text is drawn left to
 * right, or rotated a quarter turn counter-clockwise to read bottom to top. */
#ifndef CSR_APPS_FONT_H
#define CSR_APPS_FONT_H

#include "png.h"

#include <stddef.h>

enum {
  FONT_HEIGHT = 5,  /* glyph rows */
  FONT_ADVANCE = 4, /* a digit's width (3) and the blank column after it */
};

/* Width in pixels of text at `scale` (no trailing blank column); 0 for "". Characters outside
 * the font count as spaces. */
int font_text_width(const char *text, int scale);

/* Draws text left to right with its top-left corner at (x, y); characters outside the font are
 * drawn as spaces; pixels outside the canvas are dropped. */
void font_text(png_image *img, int x, int y, const char *text, int scale, unsigned color);

/* Draws text rotated a quarter turn counter-clockwise (reading bottom to top, the glyphs' tops
 * facing left) in the box whose top-left corner is (x, y), FONT_HEIGHT * scale wide and
 * font_text_width(text, scale) tall: the first character at the box's bottom. */
void font_text_up(png_image *img, int x, int y, const char *text, int scale, unsigned color);

/* The label of a grid line at 10^k, as both pictures print it: "1", "10", "100", else "1e3",
 * "1e-8", ... */
void font_decade_label(int k, char *text, size_t size);

#endif /* CSR_APPS_FONT_H */
