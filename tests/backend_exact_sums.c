/* SPDX-License-Identifier: BSD-3-Clause */
/* Backend tier of the exact sums (src/core/backend.h, csri_terms), which the reductions across
 * processes use: the backend of argv[1] (ref, omp, cuda) against an oracle that forms each term
 * on the host and adds it alone to the accumulator of src/kernels/exact_sum.h (itself checked
 * against an independent oracle in test_exact_sum.c). Every sum must give the same normalised
 * words: on ordinary terms, terms of every scale, cancellation, subnormals, NaN and infinities,
 * F64 and F32, lengths at the block and warp edges; and a vector cut in two pieces must give the
 * same words as the whole, as it does when processes hold the pieces. */
#include "ops/ops.h"
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static csr_backend backend;
static const int64_t sizes[] = {1, 2, 31, 255, 256, 257, 2049, 4097, 100003, (1 << 20) + 7};

/* Kinds of entries: 0 ordinary, 1 exponents over [-600, 600] (squares exact and rounded side
 * by side), 2 cancelling pairs, 3 subnormal, 4 near the overflow threshold, 5 ordinary with a
 * NaN and infinities. */
enum { KINDS = 6 };

static double entry(csrt_rng *rng, int kind, int64_t i) {
  double sign = csrt_below(rng, 2) ? -1.0 : 1.0, u = csrt_uniform(rng, 0.5, 1.0);
  switch (kind) {
  case 1: return sign * ldexp(u, (int)csrt_below(rng, 1201) - 600);
  case 2: return (i & 1 ? -1.0 : 1.0) * ldexp(1.0 + (double)(i / 2 % 97) / 64.0, (int)(i / 2 % 40));
  case 3: return sign * ldexp(u, -1074 + (int)csrt_below(rng, 60));
  case 4: return sign * ldexp(u, 1024 - (int)csrt_below(rng, 8));
  case 5:
    if (i % 1000 == 17)
      return i % 3 == 0 ? NAN : i % 3 == 1 ? INFINITY : -INFINITY;
    return sign * u;
  default: return sign * u;
  }
}

static double at(const csr_vector *v, int64_t i) {
  return csrt_value(v->data, v->value_type, i);
}

/* The oracle: term by term, each alone into the accumulator. */
static void oracle(csri_terms terms, const csr_vector *const *h, int64_t b, int64_t e,
                   csri_exact_acc *acc) {
  for (int64_t i = b; i < e; i++) {
    double x = at(h[0], i);
    if (terms == CSRI_TERMS_DOT) {
      csri_exact_add(&acc[0], x * at(h[1], i));
    } else if (terms == CSRI_TERMS_ABS) {
      csri_exact_add(&acc[0], fabs(x));
    } else if (terms == CSRI_TERMS_SQUARES) {
      if (fabs(x) >= 0x1p-480 && fabs(x) <= 0x1p480)
        csri_exact_add(&acc[0], x * x);
      else if (x != 0.0)
        csri_exact_add_square(&acc[0], x);
    } else {
      double r = x, p = at(h[1], i), q = at(h[2], i), d = h[3] ? at(h[3], i) : 1.0;
      double z = h[3] ? (h[0]->value_type == CSR_F32 ? (double)(float)(d * r) : d * r) : r;
      csri_exact_add(&acc[0], r * r);
      if (h[3])
        csri_exact_add(&acc[1], r * z);
      csri_exact_add(&acc[2], p * q);
      csri_exact_add(&acc[3], z * q);
      csri_exact_add(&acc[4], (h[3] ? d * q : q) * q);
    }
  }
}

static void init(csri_exact_acc *acc) {
  for (int k = 0; k < CSRI_TERMS_MAX_SUMS; k++)
    csri_exact_init(&acc[k]);
}

static void check(csr_context *ctx, csri_terms terms, const csr_vector *const *h,
                  const csr_vector *const *placed, const char *what, int kind) {
  const int64_t n = h[0]->n;
  csri_exact_acc got[CSRI_TERMS_MAX_SUMS], want[CSRI_TERMS_MAX_SUMS], cut[CSRI_TERMS_MAX_SUMS];
  init(got);
  init(want);
  init(cut);
  int sums = terms == CSRI_TERMS_CG ? CSRI_CG_SUMS : 1;
  if (sums == 1) { /* into an array of exactly one: a backend must touch nothing past it */
    csri_exact_acc *one = malloc(sizeof *one);
    CHECK(one != NULL);
    csri_exact_init(one);
    CHECK_OK(ctx, csri_exact_sums(ctx, terms, placed, one));
    got[0] = *one;
    free(one);
  } else {
    CHECK_OK(ctx, csri_exact_sums(ctx, terms, placed, got));
  }
  oracle(terms, h, 0, n, want);
  /* Cut where a warp's or a block's tile would not: the pieces' sums must merge to the whole. */
  int64_t at_ = n / 3 + 1 < n ? n / 3 + 1 : n;
  csr_vector a[4], b[4];
  const csr_vector *pa[4] = {NULL, NULL, NULL, NULL}, *pb[4] = {NULL, NULL, NULL, NULL};
  for (int k = 0; k < 4; k++)
    if (placed[k] != NULL) {
      a[k] = csrt_vector_piece(placed[k], 0, at_);
      b[k] = csrt_vector_piece(placed[k], at_, n);
      pa[k] = &a[k];
      pb[k] = &b[k];
    }
  CHECK_OK(ctx, csri_exact_sums(ctx, terms, pa, cut));
  CHECK_OK(ctx, csri_exact_sums(ctx, terms, pb, cut));
  for (int k = 0; k < sums; k++) {
    CHECKF(csrt_exact_same(&got[k], &want[k]),
           "%s, kind %d, n %lld, %s: sum %d differs from the oracle", what, kind, (long long)n,
           h[0]->value_type == CSR_F64 ? "f64" : "f32", k);
    CHECKF(csrt_exact_same(&cut[k], &want[k]),
           "%s, kind %d, n %lld: the two pieces' sum %d differs", what, kind, (long long)n, k);
  }
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  csrt_rng rng = {csrt_seed("backend_exact_sums")};
  csr_context *ctx = csrt_context(backend), *ref = csrt_context(CSR_BACKEND_REF);
  size_t count = sizeof sizes / sizeof sizes[0] - (csrt_quick() ? 1 : 0);
  for (size_t s = 0; s < count; s++)
    for (int t = CSR_F64; t <= CSR_F32; t++)
      for (int kind = 0; kind < KINDS; kind++) {
        if (t == CSR_F32 && (kind == 3 || kind == 4)) /* no such floats */
          continue;
        int64_t n = sizes[s];
        csr_vector *h[4], *placed[4];
        for (int k = 0; k < 4; k++) {
          h[k] = csrt_random_vector(ref, n, (csr_value_type)t, &rng);
          for (int64_t i = 0; i < n; i++)
            csrt_set_value(h[k], i,
                           k == 3 ? fabs(entry(&rng, kind == 5 ? 0 : kind, i))
                                  : entry(&rng, kind, i));
          placed[k] = csrt_place_vector(backend, h[k]);
        }
        const csr_vector *hc[4] = {h[0], h[1], h[2], h[3]};
        const csr_vector *pc[4] = {placed[0], placed[1], placed[2], placed[3]};
        check(ctx, CSRI_TERMS_DOT, hc, pc, "dot", kind);
        check(ctx, CSRI_TERMS_SQUARES, hc, pc, "squares", kind);
        check(ctx, CSRI_TERMS_ABS, hc, pc, "absolute values", kind);
        check(ctx, CSRI_TERMS_CG, hc, pc, "CG (Jacobi)", kind);
        hc[3] = pc[3] = NULL;
        check(ctx, CSRI_TERMS_CG, hc, pc, "CG", kind);
        for (int k = 0; k < 4; k++) {
          csr_vector_free(&h[k]);
          csr_vector_free(&placed[k]);
        }
      }
  CHECK(csr_context_last_backend(ctx) == backend);
  csr_context_free(&ctx);
  csr_context_free(&ref);
  return csrt_finish("backend_exact_sums");
}
