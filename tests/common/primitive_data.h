/* SPDX-License-Identifier: BSD-3-Clause */
/* Inputs for the primitives' tests (tests/backend_primitives.c, tests/gpu_primitives.c): the
 * same random and adversarial data for the CPU and the GPU tiers. Tests only. */
#ifndef CSR_PRIMITIVE_DATA_H
#define CSR_PRIMITIVE_DATA_H

#include "csr_primitives.h"
#include "testing.h"

/* malloc that exits on failure (size 0 gives a freeable pointer). */
void *csrt_xmalloc(size_t bytes);
/* bytes of random data. */
void csrt_fill_random(csrt_rng *rng, void *p, size_t bytes);
/* Element i of a `type` array: often *op itself, its neighbours, 0, all ones, NaN and -0.0 for
 * floats, else random: the values either side of a compact predicate's operand. */
void csrt_draw_near(csrt_rng *rng, csr_data_type type, void *p, int64_t i, const void *op);
/* A histogram sample: in one bin with probability 99/100 when `skewed`, else over about twice
 * the binned range (below and above it too); log2 bins get exponents up to ~bins + 8. */
double csrt_sample_value(csrt_rng *rng, const csr_histogram_bins *b, int skewed);
/* Stores v as element i of a `type` array (clamped to the type; negative v in an unsigned type
 * stores r instead; floats get NaN and infinities now and then, from r). */
void csrt_store_sample(csr_data_type type, void *p, int64_t i, double v, uint64_t r);
/* The bits [begin, end) of a 64-bit word. */
uint64_t csrt_bit_mask(int begin, int end);

#endif
