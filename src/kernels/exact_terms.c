/* SPDX-License-Identifier: BSD-3-Clause */
/* The terms of the exact sums over a range of host entries (src/core/backend.h, csri_terms):
 * formed a block at a time, then summed exactly (src/kernels/exact_block.h). The reference
 * backend runs the whole range, the OpenMP backend one chunk a thread. */
#include "kernels/exact_terms.h"
#include "kernels/exact_block.h"

/* Entries [b, b + n) of v as doubles: v's own storage (F64) or a conversion into out (F32). */
static const double *as_doubles(const csr_vector *v, int64_t b, int64_t n, double *out) {
  if (v->value_type == CSR_F64)
    return (const double *)v->data + b;
  for (int64_t i = 0; i < n; i++)
    out[i] = ((const float *)v->data)[b + i];
  return out;
}

/* The five sums of CG's step (csri_cg_step_fn) from r', p', q' and d, rounded as the step
 * rounds them, a block of terms at a time. */
static void cg_sums(const csr_vector *const *v, int64_t begin, int64_t end, csri_exact_acc *acc) {
  const int f32 = v[0]->value_type == CSR_F32, jacobi = v[3] != NULL;
  double in[4][CSRI_EXACT_BLOCK], terms[CSRI_CG_SUMS][CSRI_EXACT_BLOCK];
  for (int64_t b = begin; b < end; b += CSRI_EXACT_BLOCK) {
    int len = end - b < CSRI_EXACT_BLOCK ? (int)(end - b) : CSRI_EXACT_BLOCK;
    const double *r = as_doubles(v[0], b, len, in[0]), *p = as_doubles(v[1], b, len, in[1]),
                 *q = as_doubles(v[2], b, len, in[2]);
    const double *d = jacobi ? as_doubles(v[3], b, len, in[3]) : NULL;
    for (int i = 0; i < len; i++) {
      double z = jacobi ? (f32 ? (double)(float)(d[i] * r[i]) : d[i] * r[i]) : r[i];
      terms[0][i] = r[i] * r[i];
      terms[1][i] = r[i] * z;
      terms[2][i] = p[i] * q[i];
      terms[3][i] = z * q[i];
      terms[4][i] = (jacobi ? d[i] * q[i] : q[i]) * q[i];
    }
    for (int k = 0; k < CSRI_CG_SUMS; k++)
      if (k != 1 || jacobi) /* without d, r'z' is r'r' */
        csri_exact_add_block(&acc[k], terms[k], len);
  }
}

void csri_exact_terms(csri_terms terms, const csr_vector *const *v, int64_t begin, int64_t end,
                      csri_exact_acc *acc) {
  if (terms == CSRI_TERMS_CG) {
    cg_sums(v, begin, end, acc);
    return;
  }
  double xb[CSRI_EXACT_BLOCK], yb[CSRI_EXACT_BLOCK];
  for (int64_t b = begin; b < end; b += CSRI_EXACT_BLOCK) {
    int64_t len = end - b < CSRI_EXACT_BLOCK ? end - b : CSRI_EXACT_BLOCK;
    const double *x = as_doubles(v[0], b, len, xb);
    if (terms == CSRI_TERMS_DOT)
      csri_exact_add_products(acc, x, as_doubles(v[1], b, len, yb), len);
    else if (terms == CSRI_TERMS_SQUARES)
      csri_exact_add_squares(acc, x, len);
    else
      csri_exact_add_abs(acc, x, len);
  }
}
