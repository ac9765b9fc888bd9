/* SPDX-License-Identifier: BSD-3-Clause */
/* Exact sums of many doubles at a time, for the reductions across processes: a block of n terms
 * is summed exactly in floating point by error-free extraction (Rump, Ogita and Oishi's
 * ExtractVector), and only the few partial sums that come out are added to the fixed-point
 * accumulator of exact_sum.h:
 *   sigma = 2^k >= 2 n max|t_i|;  q_i = (sigma + t_i) - sigma;  r_i = t_i - q_i
 * Each q_i is t_i rounded to a multiple of ulp(sigma)/2 and r_i its exact rest; every partial
 * sum of the q_i is a multiple of that unit below sigma, so sum q_i is exact in any order, and
 * t_i = q_i + r_i exactly. The rests are smaller by about 2^(52 - log2 n), and the next level
 * extracts them the same way, until they are all zero (a few levels for terms of similar size;
 * after 8 the rests go to the accumulator one by one). The result is the same exact sum as adding
 * every term to the accumulator, at a few floating-point operations per term and level instead
 * of the accumulator's ten integer operations and five memory updates per term.
 * The products and squares are rounded to double first (deterministically), then summed
 * exactly; a block whose terms are not finite, or so large that 2 n max|t| overflows, is added
 * term by term exactly (exact_sum.h), and so is the square of an entry outside [2^-480, 2^480].
 * Each term's rule is its own, so the sum does not depend on where the blocks begin. Internal. */
#ifndef CSR_KERNELS_EXACT_BLOCK_H
#define CSR_KERNELS_EXACT_BLOCK_H

#include "kernels/exact_sum.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Terms per block: short enough to stay in the L1 cache, long enough that the levels' few
 * accumulator additions cost nothing. */
#define CSRI_EXACT_BLOCK 256

/* acc += sum of t[0, n) exactly (n <= CSRI_EXACT_BLOCK); t is overwritten (its rests). */
void csri_exact_add_block(csri_exact_acc *acc, double *t, int n);

/* acc += the sums of fl(x_i y_i), of fl(x_i^2), of |x_i| for i < n, exactly (any n; x and y
 * doubles). The square of an entry outside [2^-480, 2^480] is added exactly, without rounding,
 * so that a norm neither overflows nor loses tiny entries. */
void csri_exact_add_products(csri_exact_acc *acc, const double *x, const double *y, int64_t n);
void csri_exact_add_squares(csri_exact_acc *acc, const double *x, int64_t n);
void csri_exact_add_abs(csri_exact_acc *acc, const double *x, int64_t n);

#ifdef __cplusplus
}
#endif
#endif /* CSR_KERNELS_EXACT_BLOCK_H */
