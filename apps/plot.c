/* SPDX-License-Identifier: BSD-3-Clause */
/* The convergence plot of apps/cg (see plot.h): the axes' ranges and tick steps, then the grid,
 * the polyline, the axes, the labels and the titles. */
#include "plot.h"
#include "font.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The layout, in pixels: the y axis is column AXIS_X, the x axis row AXIS_Y; the plot area
 * lies right of the one and above the other, up to column RIGHT and row `top` (lower with a
 * title line). Text is the font at scale FS (glyphs 6 x 10). */
enum {
  FS = 2,                                  /* font scale */
  TEXT_HEIGHT = FONT_HEIGHT * FS,          /* a line of text */
  EDGE = 8,                                /* nothing is drawn closer to the canvas' edge */
  TITLE_Y = 12,                            /* the title line's top row */
  TOP_WITH_TITLE = 40,                     /* the plot area's top row under a title line */
  TOP_WITHOUT = 24,                        /* and without one */
  AXIS_X = 90,                             /* room for "1e-300" and the y axis' title */
  RIGHT = PLOT_CANVAS_WIDTH - 32,          /* room for half the last x label */
  AXIS_Y = PLOT_CANVAS_HEIGHT - 54,        /* room for the x labels and the x axis' title */
  TICK = 5,                                /* tick length, outside the plot area */
  Y_LABEL_RIGHT = AXIS_X - TICK - 3,       /* y labels end left of this column */
  X_LABEL_Y = AXIS_Y + TICK + 4,           /* the x labels' top row */
  X_TITLE_Y = X_LABEL_Y + 2 * TEXT_HEIGHT, /* the x axis title's top row */
  Y_TITLE_X = 14,                          /* the vertical y axis title's left column */
  MAX_X_STEPS = 10,                        /* at most this many steps between x ticks */
  MAX_Y_STEPS = 12,                        /* and between y ticks */
  LABEL_GAP = 16                           /* the least room between two x labels */
};

/* Where the data goes: iterations [0, x_hi] onto columns [AXIS_X + 1, RIGHT - 1] and decades
 * [lo, hi] onto rows [top, AXIS_Y - 2], leaving one pixel for the line's second stroke. */
typedef struct axes {
  double x_hi, x_step; /* iterations, ticks every x_step */
  int lo, hi, y_step;  /* log10 range, whole decades, ticks every y_step decades */
  int top;
} axes;

static int column_of(const axes *a, double iteration) {
  return AXIS_X + 1 + (int)lround(iteration * (RIGHT - AXIS_X - 2) / a->x_hi);
}

static int row_of(const axes *a, double decade) {
  return a->top + (int)lround((a->hi - decade) * (AXIS_Y - 2 - a->top) / (a->hi - a->lo));
}

static int drawn(double v) {
  return isfinite(v) && v > 0.0;
}

/* log10(v), snapped to the integer when within rounding of it, so that 1e-10 lies on its
 * decade rather than just below it. */
static double decade_of(double v) {
  double d = log10(v), n = nearbyint(d);
  return fabs(d - n) < 1e-9 ? n : d;
}

static double floor_to(double v, double step) {
  return floor(v / step) * step;
}

/* The decades: whole ones around the data ([1e-1, 1] without any; one below a single one),
 * then the smallest step of 1, 2, 5, 10, 20, 50, ... decades that needs at most MAX_Y_STEPS,
 * with the ends rounded out to it. */
static void plan_y(const double *r, int64_t count, axes *a) {
  double lo = INFINITY, hi = -INFINITY;
  for (int64_t k = 0; k < count; k++)
    if (drawn(r[k])) {
      double d = decade_of(r[k]);
      lo = fmin(lo, d);
      hi = fmax(hi, d);
    }
  if (lo > hi)
    lo = hi = 0.0;
  lo = floor(lo);
  hi = ceil(hi);
  if (hi == lo)
    lo -= 1.0;
  for (double unit = 1.0;; unit *= 10.0) {
    static const double multiples[] = {1.0, 2.0, 5.0};
    for (int m = 0; m < 3; m++) {
      double step = unit * multiples[m];
      double l = floor_to(lo, step), h = -floor_to(-hi, step);
      if ((h - l) / step <= MAX_Y_STEPS) {
        a->lo = (int)l;
        a->hi = (int)h;
        a->y_step = (int)step;
        return;
      }
    }
  }
}

/* The iterations: 0 to count - 1 (at least 1), ticks at the smallest step of 1, 2, 5, 10, 20,
 * ... that needs at most MAX_X_STEPS and leaves LABEL_GAP between the widest labels. */
static void plan_x(int64_t count, axes *a) {
  char text[32];
  a->x_hi = count > 1 ? (double)(count - 1) : 1.0;
  snprintf(text, sizeof text, "%.0f", a->x_hi);
  double widest = font_text_width(text, FS) + LABEL_GAP;
  double pixels_per_iteration = (RIGHT - AXIS_X - 2) / a->x_hi;
  for (double unit = 1.0;; unit *= 10.0) {
    static const double multiples[] = {1.0, 2.0, 5.0};
    for (int m = 0; m < 3; m++) {
      double step = unit * multiples[m];
      if (a->x_hi / step <= MAX_X_STEPS && step * pixels_per_iteration >= widest) {
        a->x_step = step;
        return;
      }
    }
  }
}

/* Grid lines, ticks and their labels. */
static void draw_ticks(png_image *img, const axes *a) {
  char text[32];
  for (int k = a->lo; k <= a->hi; k += a->y_step) {
    int y = row_of(a, k);
    png_line(img, AXIS_X + 1, y, RIGHT, y, PLOT_GRID);
    png_line(img, AXIS_X - TICK, y, AXIS_X - 1, y, PLOT_AXIS);
    font_decade_label(k, text, sizeof text);
    font_text(img, Y_LABEL_RIGHT - font_text_width(text, FS), y - TEXT_HEIGHT / 2, text, FS,
              PLOT_TEXT);
  }
  for (int64_t i = 0; (double)i * a->x_step <= a->x_hi; i++) {
    double v = (double)i * a->x_step;
    int x = column_of(a, v);
    png_line(img, x, a->top, x, AXIS_Y - 1, PLOT_GRID);
    png_line(img, x, AXIS_Y + 1, x, AXIS_Y + TICK, PLOT_AXIS);
    snprintf(text, sizeof text, "%.0f", v);
    int width = font_text_width(text, FS), left = x - width / 2;
    if (left + width <= PLOT_CANVAS_WIDTH - EDGE)
      font_text(img, left, X_LABEL_Y, text, FS, PLOT_TEXT);
  }
}

/* A segment two pixels thick: the second stroke one pixel below a flat segment, one to the
 * right of a steep one (the plot area leaves room for it). */
static void stroke(png_image *img, int x0, int y0, int x1, int y1) {
  png_line(img, x0, y0, x1, y1, PLOT_LINE);
  if (abs(x1 - x0) >= abs(y1 - y0))
    png_line(img, x0, y0 + 1, x1, y1 + 1, PLOT_LINE);
  else
    png_line(img, x0 + 1, y0, x1 + 1, y1, PLOT_LINE);
}

/* A point without a drawn neighbour: a 3 x 3 square, cut to the plot area. */
static void dot(png_image *img, const axes *a, int x, int y) {
  for (int yy = y - 1; yy <= y + 1; yy++)
    for (int xx = x - 1; xx <= x + 1; xx++)
      if (xx > AXIS_X && xx <= RIGHT && yy >= a->top && yy < AXIS_Y)
        png_set(img, xx, yy, PLOT_LINE);
}

static void draw_line(png_image *img, const axes *a, const double *r, int64_t count) {
  int x0 = 0, y0 = 0;
  int64_t run = 0; /* drawn points in a row up to the previous one */
  for (int64_t k = 0; k <= count; k++) {
    if (k == count || !drawn(r[k])) {
      if (run == 1)
        dot(img, a, x0, y0);
      run = 0;
      continue;
    }
    int x = column_of(a, (double)k), y = row_of(a, decade_of(r[k]));
    if (run > 0)
      stroke(img, x0, y0, x, y);
    x0 = x;
    y0 = y;
    run++;
  }
}

/* The title line centred over the plot area, cut from its end to fit the canvas. */
static void draw_title(png_image *img, const char *title) {
  char line[256];
  snprintf(line, sizeof line, "%s", title);
  size_t n = strlen(line);
  while (n > 0 && font_text_width(line, FS) > PLOT_CANVAS_WIDTH - 2 * EDGE)
    line[--n] = '\0';
  int width = font_text_width(line, FS), left = (AXIS_X + RIGHT - width) / 2;
  if (left < EDGE)
    left = EDGE;
  if (left + width > PLOT_CANVAS_WIDTH - EDGE)
    left = PLOT_CANVAS_WIDTH - EDGE - width;
  font_text(img, left, TITLE_Y, line, FS, PLOT_TEXT);
}

int plot_convergence(png_image *img, const double *relative_residual, int64_t count,
                     const char *title) {
  if (png_image_init(img, PLOT_CANVAS_WIDTH, PLOT_CANVAS_HEIGHT) != 0)
    return -1;
  int titled = title != NULL && title[0] != '\0';
  axes a = {.top = titled ? TOP_WITH_TITLE : TOP_WITHOUT};
  if (count < 0)
    count = 0;
  plan_y(relative_residual, count, &a);
  plan_x(count, &a);
  draw_ticks(img, &a);
  draw_line(img, &a, relative_residual, count);
  png_line(img, AXIS_X, a.top, AXIS_X, AXIS_Y, PLOT_AXIS);
  png_line(img, AXIS_X, AXIS_Y, RIGHT, AXIS_Y, PLOT_AXIS);
  static const char x_title[] = "ITERATION", y_title[] = "RELATIVE RESIDUAL";
  font_text(img, (AXIS_X + RIGHT - font_text_width(x_title, FS)) / 2, X_TITLE_Y, x_title, FS,
            PLOT_TEXT);
  font_text_up(img, Y_TITLE_X, (a.top + AXIS_Y - font_text_width(y_title, FS)) / 2, y_title, FS,
               PLOT_TEXT);
  if (titled)
    draw_title(img, title);
  return 0;
}
