/* SPDX-License-Identifier: BSD-3-Clause */
/* The bitmap font of the apps' pictures (see font.h). */
#include "font.h"

#include <stdio.h>
#include <string.h>

/* Each glyph: its five rows, top first, '#' inked, separated by spaces; all rows as wide as the
 * glyph. tests/spy/glyphs.py holds the same table to read the pictures back. */
static const struct {
  char c;
  const char *rows;
} glyphs[] = {
    {'0', "### #.# #.# #.# ###"}, {'1', ".#. ##. .#. .#. ###"}, {'2', "### ..# ### #.. ###"},
    {'3', "### ..# ### ..# ###"}, {'4', "#.# #.# ### ..# ..#"}, {'5', "### #.. ### ..# ###"},
    {'6', "### #.. ### #.# ###"}, {'7', "### ..# ..# ..# ..#"}, {'8', "### #.# ### #.# ###"},
    {'9', "### #.# ### ..# ###"}, {'e', ".#. #.# ### #.. .##"}, {'x', "... #.# .#. #.# ..."},
    {'^', ".#. #.# ... ... ..."}, {'A', ".#. #.# ### #.# #.#"}, {'B', "##. #.# ##. #.# ##."},
    {'C', ".## #.. #.. #.. .##"}, {'D', "##. #.# #.# #.# ##."}, {'E', "### #.. ##. #.. ###"},
    {'F', "### #.. ##. #.. #.."}, {'G', ".## #.. #.# #.# .##"}, {'H', "#.# #.# ### #.# #.#"},
    {'I', "### .#. .#. .#. ###"}, {'J', "..# ..# ..# #.# .#."}, {'K', "#.# ##. #.. ##. #.#"},
    {'L', "#.. #.. #.. #.. ###"}, {'M', "#.# ### ### #.# #.#"}, {'N', "##. #.# #.# #.# #.#"},
    {'O', ".#. #.# #.# #.# .#."}, {'P', "##. #.# ##. #.. #.."}, {'Q', ".#. #.# #.# ##. .##"},
    {'R', "##. #.# ##. #.# #.#"}, {'S', ".## #.. .#. ..# ##."}, {'T', "### .#. .#. .#. .#."},
    {'U', "#.# #.# #.# #.# ###"}, {'V', "#.# #.# #.# #.# .#."}, {'W', "#.# #.# ### ### #.#"},
    {'X', "#.# #.# .#. #.# #.#"}, {'Y', "#.# #.# .#. .#. .#."}, {'Z', "### ..# .#. #.. ###"},
    {'-', "... ... ### ... ..."}, {'+', "... .#. ### .#. ..."}, {'=', "... ### ... ### ..."},
    {'/', "..# ..# .#. #.. #.."}, {'_', "... ... ... ... ###"}, {'(', ".# #. #. #. .#"},
    {')', "#. .# .# .# #."},      {',', ".. .. .. .# #."},      {'.', ". . . . #"},
    {':', ". # . # ."},           {'|', "# # # # #"},
};

enum { SPACE_WIDTH = 3 };

/* The rows of c's glyph, or NULL (a space): c itself first, so that 'e' and 'x' find their
 * own glyphs, then the upper-case letter of a lower-case one. */
static const char *glyph(char c) {
  for (int pass = 0; pass < 2; pass++) {
    for (size_t k = 0; k < sizeof glyphs / sizeof glyphs[0]; k++)
      if (glyphs[k].c == c)
        return glyphs[k].rows;
    if (c < 'a' || c > 'z')
      break;
    c = (char)(c - 'a' + 'A');
  }
  return NULL;
}

/* Columns of a glyph (its first row's length), SPACE_WIDTH for none. */
static int glyph_width(const char *rows) {
  return rows ? (int)strcspn(rows, " ") : SPACE_WIDTH;
}

int font_text_width(const char *text, int scale) {
  int columns = 0;
  for (const char *t = text; *t; t++)
    columns += glyph_width(glyph(*t)) + 1;
  return columns == 0 ? 0 : (columns - 1) * scale;
}

/* Draws text; font pixel (u, v) of the line (u across, v down, scaled) lands at (x + u, y + v),
 * or rotated, at (x + v, y + height - 1 - u) with height the text's width. */
static void draw(png_image *img, int x, int y, const char *text, int scale, unsigned color,
                 int rotated) {
  int height = font_text_width(text, scale);
  for (int u0 = 0; *text; text++) {
    const char *rows = glyph(*text);
    int width = glyph_width(rows);
    for (int r = 0; rows && r < FONT_HEIGHT; r++)
      for (int c = 0; c < width; c++) {
        if (rows[r * (width + 1) + c] != '#')
          continue;
        for (int dv = 0; dv < scale; dv++)
          for (int du = 0; du < scale; du++) {
            int u = u0 + c * scale + du, v = r * scale + dv;
            if (rotated)
              png_set(img, x + v, y + height - 1 - u, color);
            else
              png_set(img, x + u, y + v, color);
          }
      }
    u0 += (width + 1) * scale;
  }
}

void font_text(png_image *img, int x, int y, const char *text, int scale, unsigned color) {
  draw(img, x, y, text, scale, color, 0);
}

void font_text_up(png_image *img, int x, int y, const char *text, int scale, unsigned color) {
  draw(img, x, y, text, scale, color, 1);
}

void font_decade_label(int k, char *text, size_t size) {
  if (k >= 0 && k < 3)
    snprintf(text, size, "%s", k == 0 ? "1" : k == 1 ? "10" : "100");
  else
    snprintf(text, size, "1e%d", k);
}
