/* SPDX-License-Identifier: BSD-3-Clause */
/* The picture of apps/spy: a sparse matrix's pattern as density per pixel block (log scale) and
 * its row-length histogram as a bar chart, drawn onto a png_image. Separate from spy.c so that a
 * benchmark can time the drawing of a matrix generated in memory. */
#ifndef CSR_APPS_SPY_DRAW_H
#define CSR_APPS_SPY_DRAW_H

#include "csr.h"
#include "png.h"

#include <stddef.h>
#include <stdint.h>

enum {
  SPY_SIZE_MIN = 16,   /* --size bounds: the pattern panel's longest side in pixels */
  SPY_SIZE_MAX = 8192, /* (the canvas, png.c's limit 16384, holds both panels) */
  SPY_SIZE_DEFAULT = 512,
  SPY_MARGIN = 16,    /* white border around the picture, pixels */
  SPY_HIST_MIN = 128, /* the histogram's plot height: the pattern panel's, within these */
  SPY_HIST_MAX = 1024
};

/* Colours (0xRRGGBB). The density shades run from SPY_LIGHTEST (one entry in the largest block)
 * to SPY_DARKEST (a full block) through the ColorBrewer "Blues" ramp. */
#define SPY_WHITE 0xffffffu
#define SPY_LIGHTEST 0xc6dbefu
#define SPY_DARKEST 0x08306bu
#define SPY_FRAME 0x999999u /* a 1-pixel frame just outside the pattern panel */
#define SPY_BAR 0xe6550du   /* histogram bars */
#define SPY_AXIS 0x000000u  /* axes and ticks */
#define SPY_GRID 0xe0e0e0u  /* histogram grid lines at 1, 10, 100, ... rows */
#define SPY_TEXT 0x333333u  /* labels and axis titles (font.h) */

/* The histogram's axis titles: under the bin labels, and left of the grid lines' labels (reading
 * bottom to top). */
#define SPY_X_TITLE "ROW LENGTH"
#define SPY_Y_TITLE "ROWS"

/* A rectangle of the canvas: top-left pixel and size. */
typedef struct spy_rect {
  int x, y, width, height;
} spy_rect;

/* Geometry and figures of one picture. The pattern panel is a grid of grid_rows x grid_cols
 * blocks, each `scale` x `scale` pixels. Row i lies in block row floor(i * grid_rows / rows),
 * column j in block column floor(j * grid_cols / cols) (rows, cols taken as at least 1), so
 * blocks hold floor or ceil of rows / grid_rows rows. */
typedef struct spy_picture {
  int64_t rows, cols, nnz;
  int64_t grid_rows, grid_cols;     /* blocks down and across */
  int scale;                        /* pixels per block side: > 1 only when the matrix is smaller */
  int64_t max_block_cells;          /* cells (rows x cols) of the largest block */
  int64_t blocks_nonempty;          /* blocks with at least one stored entry */
  int64_t pixels_nonempty;          /* = blocks_nonempty * scale^2 */
  spy_rect pattern;                 /* the pattern panel (the frame lies just outside) */
  spy_rect hist;                    /* the histogram's plot area: bars stand on its bottom edge */
  int bins;                         /* histogram bins drawn: 0 up to the last non-empty one */
  int bar_width, bar_step;          /* bin b spans x in [hist.x + b*bar_step, + bar_step) */
  int64_t histogram[CSR_HIST_BINS]; /* rows per bin: 0 empty, b >= 1 length in [2^(b-1), 2^b) */
  int width, height;                /* the canvas */
  int font_scale;                   /* labels' pixels per font pixel: 2 from size 512 */
  int text_y;                       /* top row of the caption and the bin labels */
  spy_rect x_title;                 /* SPY_X_TITLE's box, 3 font pixels under the bin labels */
  spy_rect y_title;                 /* SPY_Y_TITLE's box (vertical), centred on the plot's height */
  char caption[48];                 /* "ROWS x COLS", under the pattern panel */
} spy_picture;

/* Draws A (host CSR, any value type) onto img, which it initialises (free it with
 * png_image_free, also after a failure): the pattern panel, whose longest side is `size` pixels
 * (SPY_SIZE_MIN..SPY_SIZE_MAX), in one O(nnz) pass over A on `threads` OpenMP threads (0:
 * OpenMP's default), and the histogram of `stats` (the row statistics of A). A matrix at most
 * `size` on both sides is drawn at an integer scale (each entry an exact square), a larger one
 * in blocks; the aspect ratio is kept and the short side is at least 1 pixel. Fills p.
 * 0, or -1 (size out of range, out of memory). */
int spy_draw(const csr_matrix *A, const csr_row_stats *stats, int size, int threads, png_image *img,
             spy_picture *p);

/* The colour of a non-empty block of `count` entries in `cells` cells when the largest block has
 * `max_cells`: v = log(cells / count) / log(max_cells) in [0, 1] (0 when max_cells is 1) picks
 * a shade from SPY_DARKEST (v = 0, density 1) to SPY_LIGHTEST (v = 1, density 1 / max_cells);
 * each channel is non-increasing in the density. */
unsigned spy_shade(int64_t count, int64_t cells, int64_t max_cells);

/* The label of histogram bin b: its shortest row length, "0", "1", "2", "4", ... up to "8192",
 * then "2^14", "2^15", ... */
void spy_bin_label(int bin, char *text, size_t size);

/* Height in pixels of the bar of `count` rows when the largest bin holds `most` and the plot is
 * `height` tall: log10 scale from 0.1 rows (the x axis) to `most` (the top), at least 1 pixel
 * for a non-empty bin, 0 for an empty one. */
int spy_bar_height(int64_t count, int64_t most, int height);

#endif /* CSR_APPS_SPY_DRAW_H */
