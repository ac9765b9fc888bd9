/* SPDX-License-Identifier: BSD-3-Clause */
/* counts[b] = #{i : bin(samples[i]) = b}: checks, the workspace protocol, dispatch to ref / omp /
 * cuda. The bin rule is src/kernels/bins.h, shared by all three. */
#include "ops/ops.h"

#include <math.h>

static csr_status check_bins(csr_context *ctx, const csr_histogram_bins *spec,
                             csr_data_type sample_type, csri_bins *b) {
  CSRI_CHECK_NULL(ctx, spec);
  if (spec->rule != CSR_BINS_INTEGER && spec->rule != CSR_BINS_EVEN && spec->rule != CSR_BINS_LOG2)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "bin rule %d: a csr_bin_rule expected",
                     (int)spec->rule);
  if (spec->bins < 1 || spec->bins > CSRI_MAX_BINS)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "%d bins: 1 to %d expected", spec->bins,
                     CSRI_MAX_BINS);
  int floating = sample_type == CSR_DATA_F32 || sample_type == CSR_DATA_F64;
  if (csr_data_type_size(sample_type) == 0)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE, "samples of type %d: a csr_data_type expected",
                     (int)sample_type);
  if (floating && spec->rule != CSR_BINS_EVEN)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "floating samples need CSR_BINS_EVEN (integer and log2 bins take integers)");
  b->rule = spec->rule;
  b->bins = spec->bins;
  b->lower = spec->lower;
  b->upper = spec->upper;
  b->scale = 1.0;
  b->offset = 0;
  if (spec->rule == CSR_BINS_EVEN) {
    if (!isfinite(spec->lower) || !isfinite(spec->upper) || !(spec->lower < spec->upper) ||
        !isfinite(spec->upper - spec->lower))
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                       "even bins over [%g, %g): finite lower < upper expected", spec->lower,
                       spec->upper);
    b->scale = (double)spec->bins / (spec->upper - spec->lower);
    if (!isfinite(b->scale)) /* a range so narrow that bins / width overflows */
      return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                       "even bins over [%g, %g): %d bins over so narrow a range overflow",
                       spec->lower, spec->upper, spec->bins);
    /* Unit-width bins starting at an integer, over integer samples (256 bins over [0, 256) of
     * bytes): b = x - lower exactly, with no conversion to double per sample. The same bins as
     * the double formula: within +-2^53 every sample in range converts exactly. */
    const double exact = 9007199254740992.0; /* 2^53 */
    if (!floating && b->scale == 1.0 && spec->lower + spec->bins == spec->upper &&
        floor(spec->lower) == spec->lower && spec->lower >= -exact && spec->upper <= exact) {
      b->rule = CSR_BINS_INTEGER;
      b->offset = (int64_t)spec->lower;
    }
  }
  return CSR_SUCCESS;
}

csr_status csr_histogram(csr_context *ctx, csr_location location, csr_data_type sample_type,
                         const void *samples, int64_t n, const csr_histogram_bins *bins,
                         csr_data_type count_type, void *counts, void *workspace,
                         size_t *workspace_bytes) {
  csri_bins rule;
  CSRI_TRY(check_bins(ctx, bins, sample_type, &rule));
  if (count_type != CSR_DATA_U32 && count_type != CSR_DATA_U64 && count_type != CSR_DATA_U16)
    return CSRI_FAIL(ctx, CSR_ERR_INVALID_VALUE,
                     "counts of type %d: CSR_DATA_U32, U64 or U16 expected", (int)count_type);
  CSRI_TRY(csri_check_array(ctx, samples, n, "samples"));
  if (!(workspace_bytes != NULL && workspace == NULL)) /* a size query needs no counts */
    CSRI_CHECK_NULL(ctx, counts);
  const csri_backend *b;
  csr_status status = CSRI_DISPATCH(ctx, location, primitive.histogram, "histogram", &b);
  CSRI_TRY(status);
  size_t need = b->primitive.histogram_bytes(ctx, &rule, count_type, n);
  int run;
  void *use;
  CSRI_TRY(csri_primitive_workspace(ctx, location, need, workspace, workspace_bytes, &run, &use));
  if (!run)
    return CSR_SUCCESS;
  csr_status s =
      b->primitive.histogram(ctx, sample_type, samples, n, &rule, count_type, counts, use);
  csri_primitive_workspace_done(ctx, location, use, workspace, workspace_bytes);
  return csri_ran(ctx, b, status, s);
}
