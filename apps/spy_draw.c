/* SPDX-License-Identifier: BSD-3-Clause */
/* The picture of apps/spy (see spy_draw.h): pattern density per block and the row-length
 * histogram. */
#include "spy_draw.h"
#include "font.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static int64_t max64(int64_t a, int64_t b) {
  return a > b ? a : b;
}
static int64_t min64(int64_t a, int64_t b) {
  return a < b ? a : b;
}
static int clamp_int(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
static int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

/* Blocks along a side of n (rows or cols) when the longest side, long_side > size, gets `size`:
 * n * size / long_side rounded, at least 1 (and at most n, since size < long_side). */
static int64_t blocks_along(int64_t n, int64_t long_side, int size) {
  if (n == long_side)
    return size;
  return max64(1, (n * size + long_side / 2) / long_side);
}

/* The histogram's bins, bar sizes and plot area, right of the pattern panel and its caption
 * with the y axis' title (12 pixels from them, 4 font pixels from the labels) and room for the
 * grid lines' labels ("1e9": 3 characters, 7 pixels from the axis) in between. */
static void plan_histogram(const csr_row_stats *stats, int size, spy_picture *p) {
  p->bins = 1;
  for (int b = 0; b < CSR_HIST_BINS; b++) {
    p->histogram[b] = stats->histogram[b];
    if (stats->histogram[b] > 0)
      p->bins = b + 1;
  }
  p->bar_width = clamp_int(size / 32, 4, 24);
  p->bar_step = p->bar_width + (p->bar_width / 4 > 2 ? p->bar_width / 4 : 2);
  int fs = p->font_scale, left = font_text_width(p->caption, fs);
  left = left > p->pattern.width ? left : p->pattern.width;
  p->y_title.x = p->pattern.x + left + 12;
  p->y_title.width = FONT_HEIGHT * fs;
  p->y_title.height = font_text_width(SPY_Y_TITLE, fs);
  p->hist.x = p->y_title.x + p->y_title.width + 4 * fs + 3 * FONT_ADVANCE * fs + 7;
  p->hist.y = SPY_MARGIN;
  p->hist.width = p->bins * p->bar_step;
  p->hist.height = clamp_int(p->pattern.height, SPY_HIST_MIN, SPY_HIST_MAX);
  p->y_title.y = p->hist.y + (p->hist.height - p->y_title.height) / 2;
}

/* The x axis' title 3 font pixels under the bin labels, centred under the bars but not left of
 * the grid lines' labels; the canvas around everything. */
static void plan_x_title(spy_picture *p) {
  int fs = p->font_scale;
  p->x_title.width = font_text_width(SPY_X_TITLE, fs);
  p->x_title.height = FONT_HEIGHT * fs;
  p->x_title.y = p->text_y + (FONT_HEIGHT + 3) * fs;
  int x = p->hist.x + (p->hist.width - p->x_title.width) / 2;
  int labels_left = p->hist.x - 7 - 3 * FONT_ADVANCE * fs;
  p->x_title.x = x > labels_left ? x : labels_left;
  int right = p->hist.x + p->hist.width, title_right = p->x_title.x + p->x_title.width;
  p->width = (right > title_right ? right : title_right) + SPY_MARGIN;
  p->height = p->x_title.y + p->x_title.height + SPY_MARGIN;
}

/* The geometry of the picture (see spy_picture); 0, or -1 for a size out of range. */
static int plan(const csr_matrix *A, const csr_row_stats *stats, int size, spy_picture *p) {
  memset(p, 0, sizeof *p);
  if (size < SPY_SIZE_MIN || size > SPY_SIZE_MAX)
    return -1;
  p->rows = A->rows;
  p->cols = A->cols;
  p->nnz = A->nnz;
  /* An empty side counts as 1 so that a 0 x 0 or n x 0 matrix still gets a (blank) panel. */
  int64_t rows = max64(A->rows, 1), cols = max64(A->cols, 1), long_side = max64(rows, cols);
  if (long_side <= size) { /* small: each entry an exact scale x scale square */
    p->grid_rows = rows;
    p->grid_cols = cols;
    p->scale = (int)(size / long_side);
  } else {
    p->grid_rows = blocks_along(rows, long_side, size);
    p->grid_cols = blocks_along(cols, long_side, size);
    p->scale = 1;
  }
  p->max_block_cells = ceil_div(rows, p->grid_rows) * ceil_div(cols, p->grid_cols);
  p->pattern.x = p->pattern.y = SPY_MARGIN;
  p->pattern.width = (int)p->grid_cols * p->scale;
  p->pattern.height = (int)p->grid_rows * p->scale;
  p->font_scale = size >= 512 ? 2 : 1;
  snprintf(p->caption, sizeof p->caption, "%lld x %lld", (long long)A->rows, (long long)A->cols);
  plan_histogram(stats, size, p);
  /* Labels under the frame and the ticks (which end 4 pixels below the x axis). */
  p->text_y =
      SPY_MARGIN + (p->pattern.height > p->hist.height ? p->pattern.height : p->hist.height) + 6;
  plan_x_title(p);
  return 0;
}

static void fill_rect(png_image *img, int x, int y, int width, int height, unsigned color) {
  for (int yy = y; yy < y + height; yy++)
    for (int xx = x; xx < x + width; xx++)
      png_set(img, xx, yy, color);
}

unsigned spy_shade(int64_t count, int64_t cells, int64_t max_cells) {
  /* ColorBrewer Blues from its third class to its last, dark to light: every channel rises
   * along the list, so linear interpolation keeps each channel monotone in v. */
  static const unsigned stops[] = {0x08306b, 0x08519c, 0x2171b5, 0x4292c6,
                                   0x6baed6, 0x9ecae1, 0xc6dbef};
  const int last = (int)(sizeof stops / sizeof stops[0]) - 1;
  double v = 0.0;
  if (max_cells > 1 && count < cells)
    v = log((double)cells / (double)count) / log((double)max_cells);
  /* 256 levels, so that equal densities get one colour whatever the rounding of the logs. */
  int level = (int)lround(fmin(fmax(v, 0.0), 1.0) * 255.0);
  int seg = level * last / 255;
  if (seg == last)
    return stops[last];
  double f = (double)level * last / 255.0 - seg;
  unsigned color = 0;
  for (int shift = 16; shift >= 0; shift -= 8) {
    double a = (stops[seg] >> shift) & 0xff, b = (stops[seg + 1] >> shift) & 0xff;
    color |= (unsigned)lround(a + f * (b - a)) << shift;
  }
  return color;
}

int spy_bar_height(int64_t count, int64_t most, int height) {
  if (count <= 0 || most <= 0)
    return 0;
  double decades = log10((double)most) + 1.0; /* from 0.1 at the axis to `most` at the top */
  long h = lround(height * (log10((double)count) + 1.0) / decades);
  return (int)(h < 1 ? 1 : h > height ? height : h);
}

void spy_bin_label(int bin, char *text, size_t size) {
  if (bin == 0)
    snprintf(text, size, "0");
  else if (bin <= 14)
    snprintf(text, size, "%lld", 1LL << (bin - 1));
  else
    snprintf(text, size, "2^%d", bin - 1);
}

/* The bins' labels centred under their bars, each left out where it would come closer than 4
 * font pixels to the previous one; the caption under the pattern panel; the axis titles. */
static void draw_labels(png_image *img, const spy_picture *p) {
  int fs = p->font_scale, last_right = -1000;
  char text[16];
  for (int b = 0; b < p->bins; b++) {
    spy_bin_label(b, text, sizeof text);
    int w = font_text_width(text, fs);
    int x = p->hist.x + b * p->bar_step + (p->bar_step - w) / 2;
    if (x < last_right + 4 * fs)
      continue;
    font_text(img, x, p->text_y, text, fs, SPY_TEXT);
    last_right = x + w;
  }
  font_text(img, p->pattern.x, p->text_y, p->caption, fs, SPY_TEXT);
  font_text(img, p->x_title.x, p->x_title.y, SPY_X_TITLE, fs, SPY_TEXT);
  font_text_up(img, p->y_title.x, p->y_title.y, SPY_Y_TITLE, fs, SPY_TEXT);
}

/* Bars, grid lines at the powers of 10 with their labels (left of the axis, those closer than 2
 * font pixels to the one below left out), axes and ticks (a tick at every bin boundary). */
static void draw_histogram(png_image *img, const spy_picture *p) {
  const spy_rect *r = &p->hist;
  int bottom = r->y + r->height; /* the x axis' row; bars end just above it */
  int64_t most = 0;
  for (int b = 0; b < p->bins; b++)
    most = max64(most, p->histogram[b]);
  double power = 1.0;
  int fs = p->font_scale, last_top = bottom + 1000;
  char text[16];
  for (int k = 0; most > 0 && power <= (double)most; k++, power *= 10.0) {
    int y = bottom - spy_bar_height((int64_t)power, most, r->height);
    png_line(img, r->x, y, r->x + r->width - 1, y, SPY_GRID);
    png_line(img, r->x - 5, y, r->x - 2, y, SPY_AXIS);
    int top = y - FONT_HEIGHT * fs / 2;
    if (top + FONT_HEIGHT * fs + 2 * fs > last_top)
      continue;
    font_decade_label(k, text, sizeof text);
    font_text(img, r->x - 7 - font_text_width(text, fs), top, text, fs, SPY_TEXT);
    last_top = top;
  }
  for (int b = 0; b < p->bins; b++) {
    int h = spy_bar_height(p->histogram[b], most, r->height);
    int x = r->x + b * p->bar_step + (p->bar_step - p->bar_width) / 2;
    fill_rect(img, x, bottom - h, p->bar_width, h, SPY_BAR);
  }
  png_line(img, r->x - 1, r->y, r->x - 1, bottom, SPY_AXIS);
  png_line(img, r->x - 1, bottom, r->x + r->width, bottom, SPY_AXIS);
  for (int b = 0; b <= p->bins; b++)
    png_line(img, r->x + b * p->bar_step, bottom + 1, r->x + b * p->bar_step, bottom + 4, SPY_AXIS);
}

/* First row (column) of each block: start[b] = ceil(b * n / blocks), the smallest index whose
 * block floor(i * blocks / n) is b; start[blocks] = n. */
static int64_t *block_starts(int64_t n, int64_t blocks) {
  int64_t *start = malloc((size_t)(blocks + 1) * sizeof *start);
  if (start != NULL)
    for (int64_t b = 0; b <= blocks; b++)
      start[b] = ceil_div(b * n, blocks);
  return start;
}

/* Adds the entries k in [k0, k1) to counts[block column]. The block column floor(j * gc / cols)
 * comes from a 32.32 fixed-point multiply (mult = floor(gc * 2^32 / cols)), which is low by at
 * most 1 since j < 2^31, and one comparison with the block's first column corrects it. */
static void count_entries(const int32_t *col_indices, int64_t k0, int64_t k1,
                          const int64_t *col_start, uint64_t mult, int64_t *counts) {
  for (int64_t k = k0; k < k1; k++) {
    int64_t j = col_indices[k];
    int64_t b = (int64_t)(((uint64_t)j * mult) >> 32);
    b += j >= col_start[b + 1];
    counts[b]++;
  }
}

/* Paints block row `by` from its counts (clearing them); returns its non-empty blocks. */
static int64_t paint_blocks(png_image *img, const spy_picture *p, int64_t by, int64_t block_rows,
                            const int64_t *col_start, int64_t *counts) {
  int64_t nonempty = 0;
  int s = p->scale;
  for (int64_t bx = 0; bx < p->grid_cols; bx++) {
    if (counts[bx] == 0)
      continue;
    int64_t cells = block_rows * (col_start[bx + 1] - col_start[bx]);
    fill_rect(img, p->pattern.x + (int)bx * s, p->pattern.y + (int)by * s, s, s,
              spy_shade(counts[bx], cells, p->max_block_cells));
    counts[bx] = 0;
    nonempty++;
  }
  return nonempty;
}

/* The pattern panel: block rows shared out among the threads (each owns its pixel rows and a
 * row of counts, so nothing is shared), one pass over each block row's entries. */
static int draw_pattern(png_image *img, const csr_matrix *A, int threads, spy_picture *p) {
  int64_t gr = p->grid_rows, gc = p->grid_cols, rows = max64(A->rows, 1), cols = max64(A->cols, 1);
  int nt = 1;
#ifdef _OPENMP
  nt = threads > 0 ? threads : omp_get_max_threads();
#endif
  (void)threads;
  if (nt > gr) /* a thread works on whole block rows: more would idle (and cost counters) */
    nt = (int)gr;
  int64_t *row_start = block_starts(rows, gr), *col_start = block_starts(cols, gc);
  int64_t *counts = calloc((size_t)nt * (size_t)gc, sizeof *counts);
  int rc = -1;
  if (row_start == NULL || col_start == NULL || counts == NULL)
    goto done;
  uint64_t mult = ((uint64_t)gc << 32) / (uint64_t)cols;
  int64_t nonempty = 0;
#pragma omp parallel num_threads(nt) reduction(+ : nonempty)
  {
    int64_t *mine = counts;
#ifdef _OPENMP
    mine += (size_t)omp_get_thread_num() * (size_t)gc;
#endif
#pragma omp for schedule(dynamic, 1)
    for (int64_t by = 0; by < gr; by++) {
      int64_t r0 = min64(row_start[by], A->rows), r1 = min64(row_start[by + 1], A->rows);
      if (r0 >= r1)
        continue;
      count_entries(A->col_indices, A->row_offsets[r0], A->row_offsets[r1], col_start, mult, mine);
      nonempty += paint_blocks(img, p, by, r1 - r0, col_start, mine);
    }
  }
  p->blocks_nonempty = nonempty;
  p->pixels_nonempty = nonempty * p->scale * p->scale;
  rc = 0;
done:
  free(row_start);
  free(col_start);
  free(counts);
  return rc;
}

int spy_draw(const csr_matrix *A, const csr_row_stats *stats, int size, int threads, png_image *img,
             spy_picture *p) {
  img->rgb = NULL;
  img->width = img->height = 0;
  if (plan(A, stats, size, p) != 0 || png_image_init(img, p->width, p->height) != 0)
    return -1;
  const spy_rect *r = &p->pattern;
  png_line(img, r->x - 1, r->y - 1, r->x + r->width, r->y - 1, SPY_FRAME);
  png_line(img, r->x - 1, r->y + r->height, r->x + r->width, r->y + r->height, SPY_FRAME);
  png_line(img, r->x - 1, r->y - 1, r->x - 1, r->y + r->height, SPY_FRAME);
  png_line(img, r->x + r->width, r->y - 1, r->x + r->width, r->y + r->height, SPY_FRAME);
  draw_histogram(img, p);
  draw_labels(img, p);
  if (A->nnz > 0 && draw_pattern(img, A, threads, p) != 0)
    return -1;
  return 0;
}
