/* SPDX-License-Identifier: BSD-3-Clause */
/* Backend tier of the distributed PageRank's update with exact sums (src/core/backend.h,
 * csri_pagerank_exact): the backend of argv[1] (ref, omp, cuda) against an oracle written here,
 * which forms each entry's next rank on the host and adds each term alone to the accumulator of
 * src/kernels/exact_sum.h (itself checked in test_exact_sum.c). The ranks r and the spread x must
 * be the oracle's bits (a NaN as a NaN), and both sums the same normalised words: on random pages
 * of which about a third dangle, with and without a teleport distribution, F64 and F32, x = r / w
 * and x = r, the first iteration and later ones, lengths at the edges of the CPU's blocks and
 * chunks and of the GPU's warps, tiles and blocks, and y with a NaN and infinities; and the pages
 * cut in two pieces (as ranks hold them) must give the same words, r and x as the whole. */
#include "graph/pagerank.h"
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static csr_backend backend;
static const int64_t sizes[] = {1,   2,    31,   32,   33,   255,    256,
                                257, 2049, 8191, 8192, 8193, 100003, (1 << 20) + 7};

/* One case's host inputs; y and x in the ranks' type. */
typedef struct inputs {
  int64_t n;
  csr_value_type type;
  double *r, *p, *inv_w; /* r: the old ranks */
  csr_vector *y, *x;     /* x: garbage the update must overwrite */
  double d, base, uniform;
  int scale, first;
} inputs;

static double at(const csr_vector *v, int64_t i) {
  return csrt_value(v->data, v->value_type, i);
}

/* Random pages: y about the size of a rank (and with `special`, a NaN and infinities), old ranks
 * near it, weights 1 / links or 0 for a dangling page, a teleport distribution or none. */
static void make(csr_context *ref, inputs *in, csrt_rng *rng, int personal, int special) {
  const int64_t n = in->n;
  const double size = 1.0 / (double)(3 * n + 1);
  in->r = malloc((size_t)n * sizeof *in->r);
  in->inv_w = malloc((size_t)n * sizeof *in->inv_w);
  in->p = personal ? malloc((size_t)n * sizeof *in->p) : NULL;
  in->y = csrt_random_vector(ref, n, in->type, rng);
  in->x = csrt_random_vector(ref, n, in->type, rng);
  for (int64_t i = 0; i < n; i++) {
    csrt_set_value(in->y, i, csrt_uniform(rng, 0.0, 4.0) * size);
    in->r[i] = csrt_uniform(rng, 0.0, 4.0) * size;
    in->inv_w[i] = csrt_below(rng, 3) == 0 ? 0.0 : 1.0 / (double)(1 + csrt_below(rng, 1000));
    if (in->p)
      in->p[i] = csrt_uniform(rng, 0.0, 2.0) * size;
  }
  if (special)
    for (int64_t i = 0; i < n; i += 97)
      csrt_set_value(in->y, i, i % 3 == 0 ? NAN : i % 3 == 1 ? INFINITY : -INFINITY);
  in->d = csrt_uniform(rng, 0.5, 0.95);
  in->base = csrt_uniform(rng, 0.0, 1.0) * size;
  in->uniform = size;
}

static void release(inputs *in) {
  free(in->r);
  free(in->inv_w);
  free(in->p);
  csr_vector_free(&in->y);
  csr_vector_free(&in->x);
}

/* The oracle: each entry's next rank, each term alone into its accumulator. */
static void oracle(const inputs *in, double *r, csr_vector *x, csri_exact_acc *acc) {
  for (int64_t i = 0; i < in->n; i++) {
    double next = in->uniform;
    if (!in->first) {
      double own = at(in->y, i) + in->base;
      own = in->d * own;
      double jump = 1.0 - in->d;
      jump = jump * (in->p ? in->p[i] : in->uniform);
      next = own + jump;
    }
    if (in->type == CSR_F32)
      next = (double)(float)next;
    if (!in->first) {
      double change = next - r[i];
      csri_exact_add(&acc[0], fabs(change));
    }
    if (in->inv_w[i] == 0.0)
      csri_exact_add(&acc[1], next);
    r[i] = next;
    double spread = next;
    if (in->scale)
      spread = next * in->inv_w[i];
    csrt_set_value(x, i, spread);
  }
}

static int same_value(double a, double b) {
  return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

/* The first entry where r or x differs from the oracle's, or -1. */
static int64_t first_difference(const double *r, const csr_vector *x, const double *want_r,
                                const csr_vector *want_x) {
  for (int64_t i = 0; i < x->n; i++)
    if (!same_value(r[i], want_r[i]) || !same_value(at(x, i), at(want_x, i)))
      return i;
  return -1;
}

/* The backend's update of entries [b, e) of the placed operands into acc. */
static void update(csr_context *ctx, const inputs *in, double *r, const csr_vector *y,
                   csr_vector *x, const double *p, const double *inv_w, int64_t b, int64_t e,
                   csri_exact_acc *acc) {
  csr_vector yp = csrt_vector_piece(y, b, e), xp = csrt_vector_piece(x, b, e);
  csri_pagerank_exact u = {.r = r + b,
                           .y = in->first ? NULL : &yp,
                           .x = &xp,
                           .p = p ? p + b : NULL,
                           .inv_w = inv_w + b,
                           .d = in->d,
                           .base = in->base,
                           .uniform = in->uniform,
                           .scale = in->scale};
  CHECK_OK(ctx, csri_pagerank_exact_update(ctx, &u, acc));
}

/* Runs the backend on the whole and on two pieces, each from fresh copies of the inputs, and
 * compares both with the oracle. */
static void check(csr_context *ctx, csr_context *ref, const inputs *in, const char *what) {
  const int64_t n = in->n;
  const size_t bytes = (size_t)n * sizeof(double);
  csri_exact_acc want[2], got[2];
  double *want_r = malloc(bytes), *got_r = malloc(bytes);
  memcpy(want_r, in->r, bytes);
  csr_vector *want_x = NULL;
  CHECK_OK(ref, csr_vector_create(ref, &want_x, n, in->type, CSR_HOST));
  csri_exact_init(&want[0]);
  csri_exact_init(&want[1]);
  oracle(in, want_r, want_x, want);
  double *p = in->p ? csrt_place_bytes(backend, in->p, bytes) : NULL;
  double *inv_w = csrt_place_bytes(backend, in->inv_w, bytes);
  csr_vector *y = csrt_place_vector(backend, in->y);
  for (int cut = 0; cut < 2; cut++) {
    double *r = csrt_place_bytes(backend, in->r, bytes);
    csr_vector *x = csrt_place_vector(backend, in->x);
    csri_exact_init(&got[0]);
    csri_exact_init(&got[1]);
    /* Cut where neither a warp's tile nor a CPU block would. */
    int64_t at_ = cut ? (n / 3 + 1 < n ? n / 3 + 1 : n) : n;
    update(ctx, in, r, y, x, p, inv_w, 0, at_, got);
    if (at_ < n)
      update(ctx, in, r, y, x, p, inv_w, at_, n, got);
    csrt_fetch_bytes(backend, got_r, r, bytes);
    csr_vector *got_x = csrt_host_vector(x);
    const char *how = cut ? "in two pieces" : "whole";
    int64_t i = first_difference(got_r, got_x, want_r, want_x);
    CHECKF(i < 0, "%s, n %lld, %s: r or x differs from the oracle at %lld: r %a (want %a)", what,
           (long long)n, how, (long long)i, i < 0 ? 0.0 : got_r[i], i < 0 ? 0.0 : want_r[i]);
    CHECKF(csrt_exact_same(&got[0], &want[0]),
           "%s, n %lld, %s: the L1 change differs (%g, want %g)", what, (long long)n, how,
           csri_exact_round(&got[0]), csri_exact_round(&want[0]));
    CHECKF(csrt_exact_same(&got[1], &want[1]),
           "%s, n %lld, %s: the dangling sum differs (%g, want %g)", what, (long long)n, how,
           csri_exact_round(&got[1]), csri_exact_round(&want[1]));
    csr_vector_free(&got_x);
    csr_vector_free(&x);
    csrt_free_at(backend, r);
  }
  csr_vector_free(&y);
  csrt_free_at(backend, inv_w);
  csrt_free_at(backend, p);
  csr_vector_free(&want_x);
  free(want_r);
  free(got_r);
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  csrt_rng rng = {csrt_seed("backend_pagerank_exact")};
  csr_context *ctx = csrt_context(backend), *ref = csrt_context(CSR_BACKEND_REF);
  size_t count = sizeof sizes / sizeof sizes[0] - (csrt_quick() ? 1 : 0);
  for (size_t s = 0; s < count; s++)
    for (int t = CSR_F64; t <= CSR_F32; t++)
      for (int personal = 0; personal < 2; personal++)
        for (int special = 0; special < 2; special++) {
          inputs in;
          memset(&in, 0, sizeof in);
          in.n = sizes[s];
          in.type = (csr_value_type)t;
          make(ref, &in, &rng, personal, special);
          for (in.first = 0; in.first < 2; in.first++)
            for (in.scale = 0; in.scale < 2; in.scale++) {
              char what[128];
              snprintf(what, sizeof what, "%s, %s, %s%s, %s", t == CSR_F64 ? "f64" : "f32",
                       personal ? "teleport p" : "uniform teleport",
                       in.scale ? "x = r / w" : "x = r",
                       special ? ", y with NaN and infinities" : "",
                       in.first ? "first iteration" : "later iteration");
              check(ctx, ref, &in, what);
            }
          release(&in);
        }
  CHECK(csr_context_last_backend(ctx) == backend);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_pagerank_exact");
}
