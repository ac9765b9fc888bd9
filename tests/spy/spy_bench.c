/* SPDX-License-Identifier: BSD-3-Clause */
/* Times apps/spy's drawing (spy_draw, the file read left out) on a random CSR generated in
 * memory, and checks the picture against a plain recount: each block's shade from its number of
 * entries (white for none), the block found by an exact 64-bit division per entry.
 *
 *   spy_bench NNZ ROWS COLS [SIZE [THREADS [REPS [OUT.mtx]]]]
 *
 * Half of the entries lie in a band along the diagonal, half anywhere (columns uniform); row
 * lengths vary from 0 to twice the mean; columns sorted in each row, duplicates possible. Prints
 * one JSON object: the sizes, the best and the median of REPS drawings (seconds), entries per
 * second. OUT.mtx: the matrix is also written there (pattern Matrix Market, .gz compresses), to
 * time apps/spy on it end to end. Exit 0, or 1 on a mismatch, a bad argument or a failed write. */
#include "common.h"
#include "spy_draw.h"

#include <stdlib.h>
#include <string.h>

/* xorshift64*: fast, and the same matrix for the same arguments. */
static uint64_t next_random(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1DULL;
}

static int compare_int32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* Row lengths (uniform in [0, 2*mean], then rescaled so that they sum to nnz), then the columns,
 * sorted in each row as the reader leaves them (duplicates may remain: flagged sorted only);
 * generated in parallel, each row from its own random stream. */
static void generate(csr_matrix *A) {
  int64_t rows = A->rows, cols = A->cols, nnz = A->nnz;
  int64_t mean = rows > 0 ? nnz / rows : 0, *off = A->row_offsets;
  uint64_t seed = 42;
  off[0] = 0;
  for (int64_t i = 0; i < rows; i++) {
    int64_t len = mean > 0 ? (int64_t)(next_random(&seed) % (uint64_t)(2 * mean + 1)) : 0;
    off[i + 1] = off[i] + len;
  }
  /* Rescale the offsets to end exactly at nnz (keeps them non-decreasing). */
  int64_t total = off[rows];
  for (int64_t i = 1; i <= rows; i++)
    off[i] = total > 0 ? (int64_t)((double)off[i] / (double)total * (double)nnz) : nnz;
  off[rows] = nnz;
#pragma omp parallel for schedule(dynamic, 4096)
  for (int64_t i = 0; i < rows; i++) {
    uint64_t s = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
    int64_t diagonal = (int64_t)((double)i / (double)rows * (double)cols);
    for (int64_t k = off[i]; k < off[i + 1]; k++) {
      uint64_t r = next_random(&s);
      int64_t j = (k & 1) ? (int64_t)(r % (uint64_t)cols)
                          : diagonal + (int64_t)(r % 1024) - 512; /* the band */
      A->col_indices[k] = (int32_t)(j < 0 ? 0 : j >= cols ? cols - 1 : j);
    }
    qsort(A->col_indices + off[i], (size_t)(off[i + 1] - off[i]), sizeof(int32_t), compare_int32);
  }
  A->flags = CSR_FLAG_SORTED;
}

/* The recount: entries per block by exact division, then every block's first pixel compared with
 * the shade of its count (white for none), so that an entry put in a neighbouring block shows. */
static int check(const csr_matrix *A, const spy_picture *p, const png_image *img) {
  int64_t gr = p->grid_rows, gc = p->grid_cols;
  int64_t *count = calloc((size_t)(gr * gc), sizeof *count);
  if (count == NULL)
    return -1;
  for (int64_t i = 0; i < A->rows; i++)
    for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; k++)
      count[(i * gr / A->rows) * gc + (int64_t)A->col_indices[k] * gc / A->cols]++;
  int64_t blocks = 0, wrong = 0;
  for (int64_t by = 0; by < gr; by++)
    for (int64_t bx = 0; bx < gc; bx++) {
      /* Block sizes from the same rule: rows i with floor(i * gr / rows) == by. */
      int64_t h = (((by + 1) * A->rows + gr - 1) / gr) - ((by * A->rows + gr - 1) / gr);
      int64_t w = (((bx + 1) * A->cols + gc - 1) / gc) - ((bx * A->cols + gc - 1) / gc);
      int64_t n = count[by * gc + bx];
      unsigned want = n ? spy_shade(n, h * w, p->max_block_cells) : SPY_WHITE;
      const unsigned char *px =
          img->rgb + 3 * ((size_t)(p->pattern.y + by * p->scale) * (size_t)img->width +
                          (size_t)(p->pattern.x + bx * p->scale));
      unsigned got = (unsigned)px[0] << 16 | (unsigned)px[1] << 8 | px[2];
      blocks += n > 0;
      if (got != want && wrong++ < 5)
        fprintf(stderr, "spy_bench: block (%lld, %lld) of %lld entries is %06x, expected %06x\n",
                (long long)by, (long long)bx, (long long)n, got, want);
    }
  free(count);
  if (blocks != p->blocks_nonempty) {
    fprintf(stderr, "spy_bench: %lld non-empty blocks drawn, %lld by the recount\n",
            (long long)p->blocks_nonempty, (long long)blocks);
    wrong++;
  }
  return wrong == 0 ? 0 : -1;
}

int main(int argc, char **argv) {
  long long nnz, rows, cols, size = SPY_SIZE_DEFAULT, threads = 0, reps = 3;
  if (argc < 4 || app_parse_int(argv[1], 0, INT64_C(4000000000), &nnz) != 0 ||
      app_parse_int(argv[2], 1, CSR_MAX_DIM, &rows) != 0 ||
      app_parse_int(argv[3], 1, CSR_MAX_DIM, &cols) != 0 ||
      (argc > 4 && app_parse_int(argv[4], SPY_SIZE_MIN, SPY_SIZE_MAX, &size) != 0) ||
      (argc > 5 && app_parse_int(argv[5], 0, 4096, &threads) != 0) ||
      (argc > 6 && app_parse_int(argv[6], 1, 100, &reps) != 0)) {
    fprintf(stderr, "usage: spy_bench NNZ ROWS COLS [SIZE [THREADS [REPS [OUT.mtx]]]]\n");
    return 1;
  }
  csr_context *ctx = NULL;
  csr_matrix *A = NULL;
  csr_row_stats st;
  if (csr_context_create(&ctx) != CSR_SUCCESS ||
      csr_matrix_create(ctx, &A, rows, cols, nnz, CSR_PATTERN, CSR_HOST) != CSR_SUCCESS) {
    fprintf(stderr, "spy_bench: cannot allocate %lld entries\n", nnz);
    return 1;
  }
  double t0 = app_now();
  generate(A);
  double generate_s = app_now() - t0;
  int rc = csr_row_stats_compute(ctx, A, &st) == CSR_SUCCESS ? 0 : 1;
  double times[100];
  png_image img = {0, 0, NULL};
  spy_picture p;
  for (int r = 0; r < reps && rc == 0; r++) {
    png_image_free(&img);
    t0 = app_now();
    rc = spy_draw(A, &st, (int)size, (int)threads, &img, &p) == 0 ? 0 : 1;
    times[r] = app_now() - t0;
  }
  if (rc == 0 && check(A, &p, &img) != 0)
    rc = 1;
  if (rc == 0) {
    double best = times[0];
    for (int r = 1; r < reps; r++)
      best = times[r] < best ? times[r] : best;
    printf("{\"nnz\": %lld, \"rows\": %lld, \"cols\": %lld, \"size\": %lld, \"threads\": %d, "
           "\"blocks_nonempty\": %lld, \"generate_seconds\": %.3f, \"draw_seconds_best\": %.4f, "
           "\"draw_seconds_median\": %.4f, \"entries_per_second\": %.4g}\n",
           nnz, rows, cols, size, app_omp_threads((int)threads), (long long)p.blocks_nonempty,
           generate_s, best, app_median(times, (int)reps), best > 0 ? (double)nnz / best : 0.0);
  }
  if (rc == 0 && argc > 7) {
    csr_write_options wo;
    csr_write_options_init(&wo);
    wo.pattern = 1;
    if (csr_write_mm(ctx, argv[7], A, &wo) != CSR_SUCCESS) {
      fprintf(stderr, "spy_bench: %s: %s\n", argv[7], csr_context_last_error(ctx));
      rc = 1;
    }
  }
  png_image_free(&img);
  csr_matrix_free(&A);
  csr_context_free(&ctx);
  return rc;
}
