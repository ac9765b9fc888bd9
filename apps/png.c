/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal PNG writer and the pixels and lines drawn before it (see png.h). */
#include "png.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int png_image_init(png_image *img, int width, int height) {
  img->width = img->height = 0;
  img->rgb = NULL;
  if (width < 1 || height < 1 || width > 16384 || height > 16384)
    return -1;
  size_t bytes = (size_t)width * (size_t)height * 3;
  img->rgb = malloc(bytes);
  if (img->rgb == NULL)
    return -1;
  memset(img->rgb, 255, bytes);
  img->width = width;
  img->height = height;
  return 0;
}

void png_image_free(png_image *img) {
  free(img->rgb);
  img->rgb = NULL;
  img->width = img->height = 0;
}

void png_set(png_image *img, int x, int y, unsigned color) {
  if (x < 0 || y < 0 || x >= img->width || y >= img->height)
    return;
  unsigned char *p = img->rgb + 3 * ((size_t)y * (size_t)img->width + (size_t)x);
  p[0] = (unsigned char)(color >> 16);
  p[1] = (unsigned char)(color >> 8);
  p[2] = (unsigned char)color;
}

void png_line(png_image *img, int x0, int y0, int x1, int y1, unsigned color) {
  int dx = abs(x1 - x0), dy = -abs(y1 - y0);
  int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
  int err = dx + dy;
  for (;;) {
    png_set(img, x0, y0, color);
    if (x0 == x1 && y0 == y1)
      break;
    int e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y0 += sy;
    }
  }
}

static void put_u32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
}

/* One chunk: length, type, data, CRC32 over type and data. 0 on success. */
static int write_chunk(FILE *f, const char *type, const unsigned char *data, size_t size) {
  unsigned char head[8], tail[4];
  put_u32(head, (uint32_t)size);
  memcpy(head + 4, type, 4);
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, head + 4, 4);
  if (size > 0)
    crc = crc32(crc, data, (uInt)size);
  put_u32(tail, (uint32_t)crc);
  if (fwrite(head, 1, 8, f) != 8 || (size > 0 && fwrite(data, 1, size, f) != size) ||
      fwrite(tail, 1, 4, f) != 4)
    return -1;
  return 0;
}

int png_write(const png_image *img, const char *path) {
  static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  size_t row = 1 + 3 * (size_t)img->width; /* filter byte 0 (none), then the pixels */
  size_t raw_size = row * (size_t)img->height;
  unsigned char *raw = malloc(raw_size);
  uLongf packed_size = compressBound((uLong)raw_size);
  unsigned char *packed = malloc(packed_size);
  int rc = -1;
  FILE *f = NULL;
  if (raw == NULL || packed == NULL)
    goto done;
  for (int y = 0; y < img->height; y++) {
    raw[(size_t)y * row] = 0;
    memcpy(raw + (size_t)y * row + 1, img->rgb + (size_t)y * 3 * (size_t)img->width, row - 1);
  }
  if (compress2(packed, &packed_size, raw, (uLong)raw_size, Z_BEST_COMPRESSION) != Z_OK)
    goto done;
  unsigned char ihdr[13];
  put_u32(ihdr, (uint32_t)img->width);
  put_u32(ihdr + 4, (uint32_t)img->height);
  ihdr[8] = 8;  /* bit depth */
  ihdr[9] = 2;  /* colour type: RGB */
  ihdr[10] = 0; /* compression: deflate */
  ihdr[11] = 0; /* filter method 0 */
  ihdr[12] = 0; /* no interlace */
  if ((f = fopen(path, "wb")) == NULL)
    goto done;
  if (fwrite(signature, 1, 8, f) != 8 || write_chunk(f, "IHDR", ihdr, sizeof ihdr) != 0 ||
      write_chunk(f, "IDAT", packed, packed_size) != 0 || write_chunk(f, "IEND", NULL, 0) != 0)
    goto done;
  rc = 0;
done:
  if (f != NULL && fclose(f) != 0)
    rc = -1;
  free(raw);
  free(packed);
  return rc;
}
