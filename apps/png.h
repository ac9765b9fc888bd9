/* A minimal PNG writer for the apps: 8-bit RGB images (IHDR, one IDAT compressed with zlib's
 * compress2, IEND; CRC32 from zlib), and a line plot of y against x on a white background with
 * axes and grid lines at given positions (no text). */
#ifndef CSR_APPS_PNG_H
#define CSR_APPS_PNG_H

#include <stdint.h>

/* An RGB canvas, pixel (x, y) at rgb[3*(y*width + x)], y = 0 the top row. */
typedef struct png_image {
  int width, height;
  unsigned char *rgb;
} png_image;

/* A width x height white canvas (1..16384 each); 0 on success, -1 out of memory or bad size. */
int png_image_init(png_image *img, int width, int height);
void png_image_free(png_image *img);
/* Sets one pixel (ignored outside the canvas). */
void png_set(png_image *img, int x, int y, unsigned color);
/* A straight line from (x0, y0) to (x1, y1), both ends included (Bresenham). color: 0xRRGGBB. */
void png_line(png_image *img, int x0, int y0, int x1, int y1, unsigned color);
/* Writes img as a PNG file; 0 on success, -1 on a write or compression failure (errno may tell). */
int png_write(const png_image *img, const char *path);

/* Plots the n points (x[k], y[k]) as a polyline in the rectangle inside `margin` pixels, x and y
 * scaled linearly from [x_lo, x_hi] and [y_lo, y_hi] (y up), with axes on the left and bottom,
 * light grey grid lines at the nx values x_grid and the ny values y_grid. Non-finite points are
 * skipped (the line restarts after them). */
void png_plot(png_image *img, int margin, const double *x, const double *y, int64_t n, double x_lo,
              double x_hi, double y_lo, double y_hi, const double *x_grid, int nx,
              const double *y_grid, int ny);

#endif /* CSR_APPS_PNG_H */
