/* SPDX-License-Identifier: BSD-3-Clause */
/* ||x||_2 in one pass without overflow or underflow: Blue's scaled sums, as LAPACK 3.10's dnrm2.
 * Every backend accumulates with csri_nrm2_add (the CUDA one with its device twin in
 * cuda/vector_ops.cu) and finishes with csri_nrm2_finish, so their results agree. Internal. */
#ifndef CSR_KERNELS_NRM2_H
#define CSR_KERNELS_NRM2_H

#ifdef __cplusplus
extern "C" {
#endif

/* Squares of |x| above 2^486 are summed scaled by 2^-538 (big), below 2^-511 scaled by 2^537
 * (small), the rest unscaled (medium): no sum overflows or underflows before the final sqrt. */
typedef struct csri_nrm2_acc {
  double big, medium, small;
} csri_nrm2_acc;

static inline void csri_nrm2_add(csri_nrm2_acc *acc, double v) {
  double a = v < 0 ? -v : v;
  if (a > 0x1p486)
    acc->big += (a * 0x1p-538) * (a * 0x1p-538);
  else if (a < 0x1p-511)
    acc->small += (a * 0x1p537) * (a * 0x1p537);
  else
    acc->medium += a * a; /* NaN lands here and propagates */
}

/* sqrt of the accumulated sum of squares, combining the three scales (src/kernels/nrm2.c). */
double csri_nrm2_finish(csri_nrm2_acc acc);

#ifdef __cplusplus
}
#endif
#endif /* CSR_KERNELS_NRM2_H */
