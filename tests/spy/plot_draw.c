/* SPDX-License-Identifier: BSD-3-Clause */
/* The pictures of tests/spy/plot_check.py, drawn with the apps' own code:
 *
 *   plot_draw history VALUES OUT.png [TITLE]  plot_convergence of the values in the file VALUES
 *                                             (one a line, as strtod reads them: nan, inf too)
 *   plot_draw text OUT.png TEXT               TEXT left to right at scales 1, 2 and 3, and
 *                                             upwards at scales 1 and 2
 *
 * Both print one JSON line with what the checker needs to find the drawing. Exit 0, or 1. */
#include "font.h"
#include "plot.h"
#include "png.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what) {
  fprintf(stderr, "plot_draw: %s\n", what);
  return 1;
}

/* The values of the file at path into *values (malloc'ed); their count, or -1. */
static int64_t read_values(const char *path, double **values) {
  FILE *f = fopen(path, "r");
  int64_t count = 0, capacity = 1024;
  double *v = malloc((size_t)capacity * sizeof *v);
  if (f == NULL || v == NULL) {
    free(v);
    if (f)
      fclose(f);
    return -1;
  }
  double x;
  while (fscanf(f, "%lf", &x) == 1) {
    if (count == capacity) {
      double *more = realloc(v, (size_t)(capacity *= 2) * sizeof *v);
      if (more == NULL) {
        free(v);
        fclose(f);
        return -1;
      }
      v = more;
    }
    v[count++] = x;
  }
  int bad = !feof(f);
  fclose(f);
  if (bad) {
    free(v);
    return -1;
  }
  *values = v;
  return count;
}

static int history(int argc, char **argv) {
  double *values = NULL;
  int64_t count = read_values(argv[2], &values);
  if (count < 0)
    return fail("cannot read the values");
  png_image img;
  int rc = plot_convergence(&img, values, count, argc > 4 ? argv[4] : NULL);
  if (rc == 0)
    rc = png_write(&img, argv[3]);
  if (rc == 0)
    printf("{\"count\": %lld, \"width\": %d, \"height\": %d}\n", (long long)count, img.width,
           img.height);
  png_image_free(&img);
  free(values);
  return rc == 0 ? 0 : fail("drawing or writing the plot failed");
}

static int text(char **argv) {
  const char *t = argv[3];
  enum { PAD = 4, UP_Y = 4 + 9 + 14 + 15 + 8 };
  int w[4] = {0};
  for (int s = 1; s <= 3; s++)
    w[s] = font_text_width(t, s);
  int rows[4] = {0, PAD, PAD + 5 + PAD, PAD + 5 + PAD + 10 + PAD};
  int up_x[3] = {0, PAD, PAD + 5 + PAD};
  png_image img;
  int width = w[3] + 2 * PAD > 40 ? w[3] + 2 * PAD : 40;
  if (png_image_init(&img, width, UP_Y + w[2] + PAD) != 0)
    return fail("out of memory");
  for (int s = 1; s <= 3; s++)
    font_text(&img, PAD, rows[s], t, s, PLOT_TEXT);
  for (int s = 1; s <= 2; s++)
    font_text_up(&img, up_x[s], UP_Y, t, s, PLOT_TEXT);
  int rc = png_write(&img, argv[2]);
  png_image_free(&img);
  if (rc != 0)
    return fail("writing the picture failed");
  printf("{\"widths\": [%d, %d, %d], \"rows\": [%d, %d, %d], \"up_x\": [%d, %d], \"up_y\": %d}\n",
         w[1], w[2], w[3], rows[1], rows[2], rows[3], up_x[1], up_x[2], UP_Y);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 4 && argc <= 5 && strcmp(argv[1], "history") == 0)
    return history(argc, argv);
  if (argc == 4 && strcmp(argv[1], "text") == 0)
    return text(argv);
  fprintf(stderr, "usage: plot_draw history VALUES OUT.png [TITLE] | text OUT.png TEXT\n");
  return 1;
}
