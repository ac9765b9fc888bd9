/* The 3 x 5 bitmap font of apps/spy's labels (see spy_font.h). */
#include "spy_font.h"

#include <string.h>

/* Five rows of three bits each, top row first, the high bit the left column. */
static const unsigned char *glyph(char c) {
  static const char chars[] = "0123456789ex^";
  static const unsigned char rows[][SPY_FONT_HEIGHT] = {
      {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
      {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
      {2, 5, 7, 4, 3}, {0, 5, 2, 5, 0}, {2, 5, 0, 0, 0}};
  const char *at = c != '\0' ? strchr(chars, c) : NULL;
  return at ? rows[at - chars] : NULL;
}

int spy_text_width(const char *text, int scale) {
  size_t n = strlen(text);
  return n == 0 ? 0 : (int)(n * SPY_FONT_ADVANCE - 1) * scale;
}

void spy_text(png_image *img, int x, int y, const char *text, int scale, unsigned color) {
  for (; *text; text++, x += SPY_FONT_ADVANCE * scale) {
    const unsigned char *g = glyph(*text);
    if (g == NULL)
      continue;
    for (int r = 0; r < SPY_FONT_HEIGHT * scale; r++)
      for (int c = 0; c < SPY_FONT_WIDTH * scale; c++)
        if (g[r / scale] >> (SPY_FONT_WIDTH - 1 - c / scale) & 1)
          png_set(img, x + c, y + r, color);
  }
}
