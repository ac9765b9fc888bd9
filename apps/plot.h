/* SPDX-License-Identifier: BSD-3-Clause */
/* The convergence plot of apps/cg --history: the relative residual ||r_k|| / ||b|| on a log10
 * scale against the iteration k, with tick labels on both axes, axis titles and an optional
 * title line, in the font of font.h. */
#ifndef CSR_APPS_PLOT_H
#define CSR_APPS_PLOT_H

#include "png.h"

#include <stdint.h>

enum { PLOT_CANVAS_WIDTH = 800, PLOT_CANVAS_HEIGHT = 500 };

/* Colours (0xRRGGBB) of the plot's parts. */
#define PLOT_LINE 0x1f4fbfu /* the residual's polyline */
#define PLOT_AXIS 0x000000u /* axes and ticks */
#define PLOT_GRID 0xddddddu /* grid lines at the ticks */
#define PLOT_TEXT 0x333333u /* labels and titles */

/* Initialises img (PLOT_CANVAS_WIDTH x PLOT_CANVAS_HEIGHT) and draws the convergence plot of
 * relative_residual[0..count): point k at iteration k; non-finite or <= 0 values are skipped
 * and the line restarts after them (a point with no drawn neighbour is a small square). The y
 * axis spans whole decades, labelled "1e-8" ... "1", "10", "100", "1e3" every 1, 2, 5, 10, 20,
 * 50, ... decades (at most 12 steps); the x axis spans iterations 0 .. max(count - 1, 1),
 * labelled at multiples of 1, 2 or 5 x 10^k (at most 10 steps, the labels apart). title, drawn
 * above the plot (cut to the canvas' width), may be NULL. 0, or -1 out of memory (img is then
 * empty; png_image_free is safe either way). */
int plot_convergence(png_image *img, const double *relative_residual, int64_t count,
                     const char *title);

#endif /* CSR_APPS_PLOT_H */
