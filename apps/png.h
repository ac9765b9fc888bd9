/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal PNG writer for the apps: 8-bit RGB images (IHDR, one IDAT compressed with zlib's
 * compress2, IEND; CRC32 from zlib), with pixels and straight lines to draw on them (plot.h and
 * spy_draw.h draw the pictures). */
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

#endif /* CSR_APPS_PNG_H */
