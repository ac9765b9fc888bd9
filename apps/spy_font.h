/* A 3 x 5 pixel bitmap font for the labels of apps/spy's picture: the digits, 'e', 'x', '^' and
 * space. Each glyph is 3 columns wide, all three inked, with one blank column after it; a space
 * is 3 blank columns (so words are 5 blank columns apart). Scaled by an integer factor. */
#ifndef CSR_APPS_SPY_FONT_H
#define CSR_APPS_SPY_FONT_H

#include "png.h"

enum { SPY_FONT_WIDTH = 3, SPY_FONT_HEIGHT = 5, SPY_FONT_ADVANCE = 4 };

/* Width in pixels of text at `scale` (no trailing blank column); 0 for "". */
int spy_text_width(const char *text, int scale);

/* Draws text with its top-left corner at (x, y); characters outside the font are drawn as
 * spaces; pixels outside the canvas are dropped. */
void spy_text(png_image *img, int x, int y, const char *text, int scale, unsigned color);

#endif /* CSR_APPS_SPY_FONT_H */
