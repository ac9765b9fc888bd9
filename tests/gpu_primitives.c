/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU tier of the primitives (label gpu): scan, segmented scan, compact, radix sort and histogram
 * through the public API with device arrays (CSR_DEVICE), compared bit for bit with the reference
 * backend on host copies of the same inputs: lengths either side of every tile size of
 * cuda/tuning.cuh and many tiles, adversarial keys and samples, bin counts either side of what
 * the shared-memory copies hold, every workspace form (the context's cache, the two-phase query
 * with a device buffer, a buffer one byte short, a NULL context). Then the large cases: scan and
 * compact of more than 2^31 elements (checked against oracles streamed over windows, ~17 GB of
 * device memory at most) and a radix sort of 2^24 64-bit keys with 8-byte values. Exits 77 when
 * no CUDA device is present; CSR_SKIP_LARGE or the argument "small" skips the large cases, the
 * argument "large" runs only them (main() lists the other arguments). */
#include "core/internal.h"
#include "csr_primitives.h"
#include "primitive_data.h"
#include "testing.h"

#include "../cuda/tuning.cuh" /* the radix sort's tiles */

#include <math.h>
#include <stdlib.h>
#include <string.h>

static csr_context *dev, *ref; /* the CUDA backend; the reference on the host */
static csrt_rng rng;
static unsigned long calls; /* alternates the workspace forms */

/* Tiles of cuda/tuning.cuh: scan and compact 32 KiB of input (8192 I32, 4096 I64 items, 32768
 * U8), radix sort 8192 32-bit keys (4096 with 8-byte values) or 6144 64-bit keys; each -1, 0,
 * +1, and many tiles. */
static const int64_t lengths[] = {0,     1,     2,     3,     2047,  2048,    2049,   3071,
                                  3072,  3073,  4095,  4096,  4097,  5119,    5120,   5121,
                                  6143,  6144,  6145,  8191,  8192,  8193,    16383,  16384,
                                  16385, 32769, 65537, 12289, 98305, 1000003, 4194319};
/* CSR_GPU_QUICK (set for compute-sanitizer runs, which are ~100x slower): lengths up to 98305. */
static int quick_lengths(void) {
  int n = (int)(sizeof lengths / sizeof lengths[0]);
  return getenv("CSR_GPU_QUICK") ? n - 2 : n;
}
#define NLENGTHS quick_lengths()
#define LONG_INPUT 1000003

/* A device copy of bytes at h (NULL for 0 bytes). */
static void *to_device(const void *h, size_t bytes) {
  void *d = NULL;
  CHECK_OK(dev, csri_array_alloc(dev, &d, (int64_t)bytes, 1, CSR_DEVICE, 0));
  if (d)
    CHECK_OK(dev, csri_array_copy(dev, d, CSR_DEVICE, h, CSR_HOST, bytes));
  return d;
}

static void to_host(void *h, const void *d, size_t bytes) {
  CHECK_OK(dev, csri_array_copy(dev, h, CSR_HOST, d, CSR_DEVICE, bytes));
}

static void device_free(void *d) {
  csri_array_free(d, CSR_DEVICE);
}

/* Workspace forms, one per call in turn: 0 the context's cache; 1 the query, then a device
 * buffer of that size; 2 the query, a buffer one byte short (CSR_ERR_INVALID_VALUE when the call
 * needs any), then the right one; 3 a NULL context (a workspace of its own, freed after). CALL
 * takes (context, workspace, workspace_bytes). */
#define RUN_WITH_WORKSPACE(CALL)                                                                   \
  do {                                                                                             \
    int form_ = (int)(calls++ % 4);                                                                \
    if (form_ == 0 || form_ == 3) {                                                                \
      CHECK_OK(form_ == 0 ? dev : NULL, CALL(form_ == 0 ? dev : NULL, NULL, NULL));                \
      break;                                                                                       \
    }                                                                                              \
    size_t bytes_ = 0;                                                                             \
    void *ws_ = NULL;                                                                              \
    CHECK_OK(dev, CALL(dev, NULL, &bytes_));                                                       \
    CHECK_OK(dev, csri_array_alloc(dev, &ws_, (int64_t)(bytes_ ? bytes_ : 1), 1, CSR_DEVICE, 0));  \
    if (form_ == 2 && bytes_ > 0) {                                                                \
      size_t short_ = bytes_ - 1;                                                                  \
      CHECK_STATUS(dev, CALL(dev, ws_, &short_), CSR_ERR_INVALID_VALUE);                           \
    }                                                                                              \
    CHECK_OK(dev, CALL(dev, ws_, &bytes_));                                                        \
    device_free(ws_);                                                                              \
  } while (0)

/* Index of the first element of `size` bytes where a and b differ, or -1. */
static long long first_diff(const void *a, const void *b, size_t bytes, size_t size) {
  for (size_t i = 0; i < bytes; i += size)
    if (memcmp((const char *)a + i, (const char *)b + i, size) != 0)
      return (long long)(i / size);
  return -1;
}

static const csr_data_type all_types[] = {CSR_DATA_I32, CSR_DATA_I64, CSR_DATA_U32, CSR_DATA_U64,
                                          CSR_DATA_U16, CSR_DATA_U8,  CSR_DATA_F32, CSR_DATA_F64};

/* --- scan ------------------------------------------------------------------------------------ */

static csr_data_type s_type;
static csr_scan_kind s_kind;
static const void *s_in;
static const uint8_t *s_heads;
static void *s_out;
static int64_t s_n;
#define SCAN_CALL(c, ws, bytes)                                                                    \
  (s_heads                                                                                         \
       ? csr_segmented_scan(c, CSR_DEVICE, s_type, s_kind, s_in, s_heads, s_out, s_n, ws, bytes)   \
       : csr_scan(c, CSR_DEVICE, s_type, s_kind, s_in, s_out, s_n, ws, bytes))

/* every: 0 plain; else a head with probability 1/every (1: at every element). */
static void scan_case(csr_data_type type, int64_t n, int every, int in_place) {
  size_t bytes = (size_t)n * csr_data_type_size(type);
  void *in = csrt_xmalloc(bytes), *want = csrt_xmalloc(bytes), *got = csrt_xmalloc(bytes);
  uint8_t *heads = NULL;
  csrt_fill_random(&rng, in, bytes);
  if (every > 0) {
    heads = csrt_xmalloc((size_t)n);
    for (int64_t i = 0; i < n; i++)
      heads[i] = every == 1 || csrt_below(&rng, (uint64_t)every) == 0 ? (uint8_t)(1 + i % 255) : 0;
  }
  void *d_in = to_device(in, bytes), *d_out = in_place ? NULL : to_device(in, bytes);
  uint8_t *d_heads = heads ? to_device(heads, (size_t)n) : NULL;
  for (int k = 0; k < 2; k++) {
    csr_scan_kind kind = (csr_scan_kind)k;
    if (heads)
      CHECK_OK(ref, csr_segmented_scan(ref, CSR_HOST, type, kind, in, heads, want, n, NULL, NULL));
    else
      CHECK_OK(ref, csr_scan(ref, CSR_HOST, type, kind, in, want, n, NULL, NULL));
    if (in_place && d_in)
      CHECK_OK(dev, csri_array_copy(dev, d_in, CSR_DEVICE, in, CSR_HOST, bytes));
    s_type = type, s_kind = kind, s_in = d_in, s_heads = d_heads, s_out = in_place ? d_in : d_out;
    s_n = n;
    RUN_WITH_WORKSPACE(SCAN_CALL);
    to_host(got, s_out, bytes);
    long long at = first_diff(got, want, bytes, csr_data_type_size(type));
    CHECKF(at < 0, "device scan type %d n %lld kind %d heads 1/%d in place %d: first wrong at %lld",
           (int)type, (long long)n, k, every, in_place, at);
  }
  device_free(d_in);
  device_free(d_out);
  device_free(d_heads);
  free(in);
  free(want);
  free(got);
  free(heads);
}

static void scans(void) {
  for (int t = 0; t < 4; t++)
    for (int l = 0; l < NLENGTHS; l++) {
      int64_t n = lengths[l];
      scan_case(all_types[t], n, 0, 0);
      scan_case(all_types[t], n, 0, 1);
      scan_case(all_types[t], n, 1, 0);
      scan_case(all_types[t], n, 3, 1);
      scan_case(all_types[t], n, 5000, 0);
      if (n >= LONG_INPUT)
        scan_case(all_types[t], n, 1 << 30, 0); /* a heads array without a head */
    }
}

/* --- compact --------------------------------------------------------------------------------- */

static int64_t c_kept;
static csr_data_type c_type;
static const void *c_in, *c_op;
static const uint8_t *c_flags;
static csr_predicate c_pred;
static void *c_out;
static int64_t c_n;
#define COMPACT_CALL(c, ws, bytes)                                                                 \
  (c_flags ? csr_compact(c, CSR_DEVICE, c_type, c_in, c_flags, c_out, c_n, &c_kept, ws, bytes)     \
           : csr_compact_if(c, CSR_DEVICE, c_type, c_in, c_pred, c_op, c_out, c_n, &c_kept, ws,    \
                            bytes))

/* mode: 0..2 a predicate; 3 random flags; 4 sparse flags; 5 all kept; 6 none kept. */
static void compact_case(csr_data_type type, int64_t n, int mode) {
  size_t size = csr_data_type_size(type), bytes = (size_t)n * size;
  char *in = csrt_xmalloc(bytes), *want = csrt_xmalloc(bytes), *got = csrt_xmalloc(bytes);
  uint8_t *flags = NULL;
  union {
    uint64_t u;
    double d;
    float f;
    char c[8];
  } op;
  op.u = csrt_next(&rng);
  if (type == CSR_DATA_F64)
    op.d = (double)(int64_t)(op.u >> 40) / 65536.0 - 64.0;
  else if (type == CSR_DATA_F32)
    op.f = (float)((double)(int64_t)(op.u >> 40) / 65536.0 - 64.0);
  for (int64_t i = 0; i < n; i++)
    csrt_draw_near(&rng, type, in, i, op.c);
  if (mode >= 3) {
    flags = csrt_xmalloc((size_t)n);
    for (int64_t i = 0; i < n; i++)
      flags[i] = mode == 3   ? (uint8_t)(csrt_below(&rng, 2) * (1 + i % 200))
                 : mode == 4 ? csrt_below(&rng, 1000) == 0
                 : mode == 5 ? (uint8_t)(1 + i % 255)
                             : 0;
  }
  int64_t kept_ref = -1;
  if (flags)
    CHECK_OK(ref, csr_compact(ref, CSR_HOST, type, in, flags, want, n, &kept_ref, NULL, NULL));
  else
    CHECK_OK(ref, csr_compact_if(ref, CSR_HOST, type, in, (csr_predicate)mode, op.c, want, n,
                                 &kept_ref, NULL, NULL));
  void *d_in = to_device(in, bytes), *d_out = to_device(in, bytes); /* out starts not zero */
  uint8_t *d_flags = flags ? to_device(flags, (size_t)n) : NULL;
  c_type = type, c_in = d_in, c_op = op.c, c_flags = d_flags, c_pred = (csr_predicate)(mode % 3);
  c_out = d_out, c_n = n, c_kept = -1;
  RUN_WITH_WORKSPACE(COMPACT_CALL);
  int64_t k = c_kept >= 0 && c_kept <= n ? c_kept : 0;
  to_host(got, d_out, (size_t)k * size);
  long long at = first_diff(got, want, (size_t)k * size, size);
  CHECKF(c_kept == kept_ref && at < 0,
         "device compact type %d n %lld mode %d: kept %lld, expected %lld; first wrong at %lld",
         (int)type, (long long)n, mode, (long long)c_kept, (long long)kept_ref, at);
  device_free(d_in);
  device_free(d_out);
  device_free(d_flags);
  free(in);
  free(want);
  free(got);
  free(flags);
}

static void compacts(void) {
  for (int t = 0; t < 8; t++)
    for (int l = 0; l < NLENGTHS; l++)
      for (int mode = 0; mode < 7; mode++)
        compact_case(all_types[t], lengths[l], mode);
}

/* --- radix sort ------------------------------------------------------------------------------ */

typedef enum key_shape {
  KEYS_RANDOM,
  KEYS_EQUAL,
  KEYS_SORTED,
  KEYS_REVERSED,
  KEYS_TOP_BITS, /* only the top 3 bits of the range vary */
  KEYS_FEW,      /* 5 values in range, random bits outside it: long runs of equal keys */
  KEY_SHAPES
} key_shape;

static csr_data_type r_ktype, r_vtype;
static void *r_keys, *r_values;
static int64_t r_n;
static int r_begin, r_end;
#define SORT_CALL(c, ws, bytes)                                                                    \
  csr_radix_sort(c, CSR_DEVICE, r_ktype, r_keys, r_vtype, r_values, r_n, r_begin, r_end, ws, bytes)

static void make_keys(void *keys, size_t ks, int64_t n, key_shape shape, int begin, int end) {
  uint64_t range = csrt_bit_mask(begin, end), all = ks == 4 ? UINT32_MAX : UINT64_MAX;
  uint64_t base = csrt_next(&rng), few[5];
  for (int j = 0; j < 5; j++)
    few[j] = csrt_next(&rng);
  int top = end - 3 > begin ? end - 3 : begin;
  for (int64_t i = 0; i < n; i++) {
    uint64_t r = csrt_next(&rng), k;
    switch (shape) {
    case KEYS_RANDOM: k = r; break;
    case KEYS_EQUAL: k = base; break;
    case KEYS_SORTED: k = (uint64_t)i << begin | (r & ~range); break;
    case KEYS_REVERSED: k = (uint64_t)(n - i) << begin | (r & ~range); break;
    case KEYS_TOP_BITS: k = (base & ~range) | ((r >> 61) << top); break;
    default: k = few[r % 5] ^ (r & ~range); break;
    }
    k &= all;
    memcpy((char *)keys + (size_t)i * ks, &k, ks);
  }
}

static void sort_case(size_t ks, int64_t n, key_shape shape, int begin, int end) {
  size_t kb = (size_t)n * ks;
  char *keys0 = csrt_xmalloc(kb), *want = csrt_xmalloc(kb), *got = csrt_xmalloc(kb);
  char *v0 = csrt_xmalloc((size_t)n * 8), *vwant = csrt_xmalloc((size_t)n * 8),
       *vgot = csrt_xmalloc((size_t)n * 8);
  make_keys(keys0, ks, n, shape, begin, end);
  const csr_data_type vtypes[3] = {CSR_DATA_U32, CSR_DATA_F32, CSR_DATA_I64};
  for (size_t vs = 0; vs <= 8; vs += 4) {
    size_t vb = (size_t)n * vs;
    csrt_fill_random(&rng, v0, vb);
    memcpy(want, keys0, kb);
    memcpy(vwant, v0, vb);
    csr_data_type kt = ks == 4 ? CSR_DATA_U32 : CSR_DATA_U64;
    CHECK_OK(ref, csr_radix_sort(ref, CSR_HOST, kt, want, vtypes[vs / 4], vs ? vwant : NULL, n,
                                 begin, end, NULL, NULL));
    void *d_keys = to_device(keys0, kb), *d_values = vs ? to_device(v0, vb) : NULL;
    r_ktype = kt, r_vtype = vtypes[vs / 4], r_keys = d_keys, r_values = d_values, r_n = n;
    r_begin = begin, r_end = end;
    RUN_WITH_WORKSPACE(SORT_CALL);
    to_host(got, d_keys, kb);
    to_host(vgot, d_values, vb);
    long long at = first_diff(got, want, kb, ks), vat = vs ? first_diff(vgot, vwant, vb, vs) : -1;
    CHECKF(at < 0 && vat < 0,
           "device sort of %zu-byte keys, %zu-byte values, n %lld, shape %d, bits [%d, %d): first "
           "wrong key at %lld, value at %lld",
           ks, vs, (long long)n, (int)shape, begin, end, at, vat);
    device_free(d_keys);
    device_free(d_values);
  }
  free(keys0);
  free(want);
  free(got);
  free(v0);
  free(vwant);
  free(vgot);
}

/* Under an instrumented run (CSR_GPU_QUICK): every kernel variant (32- and 64-bit keys; no,
 * 4- and 8-byte values; 8- and 9-bit digits), each side of one and two tiles and many tiles (and
 * each side of one tile of the other size where 8-byte values take other tiles), a digit range
 * that ends inside a digit, random keys, equal keys and long runs of equal keys. */
static void sorts_quick(void) {
  for (int wide = 0; wide < 2; wide++) {
    size_t ks = wide ? 8 : 4;
    int bits = (int)ks * 8;
    /* the tile of 4-byte values or none, and that of 8-byte values (cuda/tuning.cuh) */
    const int64_t tile = (int64_t)CSRI_RADIX_THREADS * CSRI_RADIX_ITEMS_FOR(ks, 4),
                  other = (int64_t)CSRI_RADIX_THREADS * CSRI_RADIX_ITEMS_FOR(ks, 8);
    const int64_t ns[] = {1,         tile - 1, tile,     tile + 1, 2 * tile + 1, 9 * tile + 7,
                          other - 1, other,    other + 1};
    const int count = other == tile ? 6 : 9;
    const key_shape shapes[] = {KEYS_RANDOM, KEYS_EQUAL, KEYS_FEW};
    const int ranges[][2] = {{0, bits}, {13, 29}, {bits - 1, bits}, {0, wide ? 44 : 26}};
    for (int l = 0; l < count; l++)
      for (int s = 0; s < 3; s++)
        for (int r = 0; r < 4; r++)
          sort_case(ks, ns[l], shapes[s], ranges[r][0], ranges[r][1]);
  }
}

static void sorts(void) {
  if (getenv("CSR_GPU_QUICK")) {
    sorts_quick();
    return;
  }
  for (int wide = 0; wide < 2; wide++) {
    size_t ks = wide ? 8 : 4;
    int bits = (int)ks * 8;
    /* 8-bit digits, then ranges that take 9-bit ones: 44 bits in 9 9 9 9 8, 26 in 9 9 8, 17 in
     * 9 8, 9 in one pass of 9 (src/kernels/radix_plan.h) */
    const int ranges[][2] = {{0, bits},
                             {13, 29},
                             {0, wide ? 40 : 20},
                             {0, wide ? 44 : 26},
                             {bits - 1, bits},
                             {5, 6},
                             {0, 8},
                             {7, 24},
                             {3, 12}};
    const int nranges = (int)(sizeof ranges / sizeof ranges[0]);
    for (int l = 0; l < NLENGTHS; l++)
      for (int s = 0; s < KEY_SHAPES; s++)
        for (int r = 0; r < nranges; r++)
          if (lengths[l] < LONG_INPUT || (s == KEYS_RANDOM && r < 4) ||
              (lengths[l] == LONG_INPUT && r == 0))
            sort_case(ks, lengths[l], (key_shape)s, ranges[r][0], ranges[r][1]);
  }
}

/* --- histogram ------------------------------------------------------------------------------- */

static csr_data_type h_stype, h_ctype;
static const void *h_samples;
static int64_t h_n;
static const csr_histogram_bins *h_bins;
static void *h_counts;
#define HIST_CALL(c, ws, bytes)                                                                    \
  csr_histogram(c, CSR_DEVICE, h_stype, h_samples, h_n, h_bins, h_ctype, h_counts, ws, bytes)

static void histogram_case(csr_data_type stype, csr_bin_rule rule, int nbins, int64_t n,
                           int skewed) {
  csr_histogram_bins spec = {rule, nbins, 0.0, 0.0};
  int unsigned_samples = stype == CSR_DATA_U8 || stype == CSR_DATA_U16 || stype == CSR_DATA_U32 ||
                         stype == CSR_DATA_U64;
  if (rule == CSR_BINS_EVEN) {
    spec.lower = unsigned_samples ? 0.0 : floor(csrt_uniform(&rng, -100.0, 100.0));
    spec.upper = spec.lower + (stype == CSR_DATA_F32 || stype == CSR_DATA_F64
                                   ? csrt_uniform(&rng, 0.5, 300.0)
                                   : floor(csrt_uniform(&rng, 1.0, 300.0)));
  }
  size_t size = csr_data_type_size(stype);
  void *samples = csrt_xmalloc((size_t)n * size);
  for (int64_t i = 0; i < n; i++)
    csrt_store_sample(stype, samples, i, csrt_sample_value(&rng, &spec, skewed), csrt_next(&rng));
  void *d_samples = to_device(samples, (size_t)n * size);
  const csr_data_type ctypes[3] = {CSR_DATA_U64, CSR_DATA_U32, CSR_DATA_U16};
  size_t cb = (size_t)nbins * 8;
  void *want = csrt_xmalloc(cb), *got = csrt_xmalloc(cb), *d_counts = NULL;
  CHECK_OK(dev, csri_array_alloc(dev, &d_counts, (int64_t)cb, 1, CSR_DEVICE, 0));
  for (int c = 0; c < 3; c++) {
    size_t bytes = (size_t)nbins * csr_data_type_size(ctypes[c]);
    CHECK_OK(ref,
             csr_histogram(ref, CSR_HOST, stype, samples, n, &spec, ctypes[c], want, NULL, NULL));
    memset(got, 0xA5, cb); /* the device counts start as garbage: they must be overwritten */
    CHECK_OK(dev, csri_array_copy(dev, d_counts, CSR_DEVICE, got, CSR_HOST, cb));
    h_stype = stype, h_ctype = ctypes[c], h_samples = d_samples, h_n = n, h_bins = &spec;
    h_counts = d_counts;
    RUN_WITH_WORKSPACE(HIST_CALL);
    to_host(got, d_counts, bytes);
    long long at = first_diff(got, want, bytes, csr_data_type_size(ctypes[c]));
    CHECKF(at < 0,
           "device histogram of type %d, rule %d, %d bins, n %lld, count type %d, skewed %d: "
           "first wrong bin %lld",
           (int)stype, (int)rule, nbins, (long long)n, (int)ctypes[c], skewed, at);
  }
  device_free(d_samples);
  device_free(d_counts);
  free(samples);
  free(want);
  free(got);
}

/* The bin counts of an instrumented run: each side of the limits of one count type at least. */
static int quick_bins(int nbins) {
  const int some[] = {7, 1536, 1537, 12288, 12289, 24577, 49153, 100000};
  for (size_t i = 0; i < sizeof some / sizeof some[0]; i++)
    if (nbins == some[i])
      return 1;
  return 0;
}

static void histograms(void) {
  /* Either side of the shared-memory limits of cuda/tuning.cuh (96 KiB: 12288 U64, 24576 U32,
   * 49152 U16 counters; 8 private copies up to a twelfth of that), 100000 bins, and the most. */
  const int bin_counts[] = {1,     7,     256,   1536,  1537,  3072,  3073,   6145,
                            12288, 12289, 24576, 24577, 49152, 49153, 100000, 1 << 24};
  const int64_t ns[] = {0, 1, 4097, 65537, LONG_INPUT, 4194319};
  /* Under an instrumented run: every sample type, rule and count type, with bin counts each side
   * of the limits of one count type at least (half of them), on 1 and 65537 samples (0 with 7
   * bins). */
  const int quick = getenv("CSR_GPU_QUICK") != NULL, n_ns = quick ? 4 : 6;
  for (int t = 0; t < 8; t++) {
    int floating = all_types[t] == CSR_DATA_F32 || all_types[t] == CSR_DATA_F64;
    for (int rule = 0; rule < 3; rule++) {
      if (floating && rule != CSR_BINS_EVEN)
        continue;
      for (int l = 0; l < n_ns; l++)
        for (int nb = 0; nb < 16; nb++) {
          int nbins = bin_counts[nb];
          int64_t n = ns[l];
          if (quick && (!quick_bins(nbins) || n == 4097 || (n == 0 && nbins != 7)))
            continue;
          if (rule == CSR_BINS_LOG2 && nbins > 70)
            continue; /* no sample reaches past bin 64 */
          if (nbins == 1 << 24 && (n != 65537 || (t != 0 && t != 7)))
            continue; /* 128 MB of counts: a few cases */
          if (n == LONG_INPUT && nb % 2 == 0)
            continue; /* the long inputs: every other bin count, */
          if (n > LONG_INPUT && nbins != 7 && nbins != 100000)
            continue; /* and the longest, 7 (skewed) and 100000 bins */
          if (n <= LONG_INPUT || nbins == 100000)
            histogram_case(all_types[t], (csr_bin_rule)rule, nbins, n, 0);
          if (n >= 4097 && nb > 0 && (n <= LONG_INPUT || nbins == 7))
            histogram_case(all_types[t], (csr_bin_rule)rule, nbins, n, 1); /* 99% in one bin */
        }
    }
  }
}

/* --- large inputs ---------------------------------------------------------------------------- */

/* A cheap hash of the index: inputs regenerated in windows instead of held on the host. */
static uint64_t mix(uint64_t x) {
  x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
  return x ^ (x >> 31);
}

#define WINDOW (INT64_C(1) << 26) /* elements per host window */

/* Allocates `bytes` on the device; on failure says so and returns NULL (the case is skipped,
 * and reported as such, on a device with less memory). */
static void *device_alloc_or_skip(size_t bytes, const char *what) {
  void *d = NULL;
  if (csri_array_alloc(dev, &d, (int64_t)bytes, 1, CSR_DEVICE, 0) != CSR_SUCCESS) {
    printf("gpu_primitives: %s: cannot allocate %zu bytes of device memory (%s): SKIPPED\n", what,
           bytes, csr_context_last_error(dev));
    return NULL;
  }
  return d;
}

/* in[i] = the low 32 bits of mix(i) (sums wrap often); heads where mix(i ^ seed) % 1000 == 0.
 * In place on the device; 2^31 + 4097 int32 (8.6 GB) plus 2.1 GB of heads. */
static void large_scan(int segmented) {
  const int64_t n = (INT64_C(1) << 31) + 4097;
  int32_t *d = device_alloc_or_skip((size_t)n * 4, "large scan");
  uint8_t *dh = NULL;
  if (d == NULL)
    return;
  if (segmented && (dh = device_alloc_or_skip((size_t)n, "large segmented scan")) == NULL) {
    device_free(d);
    return;
  }
  int32_t *w = csrt_xmalloc((size_t)WINDOW * 4);
  uint8_t *hw = csrt_xmalloc((size_t)WINDOW);
  for (int64_t b = 0; b < n; b += WINDOW) {
    int64_t e = b + WINDOW < n ? b + WINDOW : n;
    for (int64_t i = b; i < e; i++) {
      w[i - b] = (int32_t)(uint32_t)mix((uint64_t)i);
      hw[i - b] = mix((uint64_t)i ^ UINT64_C(0x5555)) % 1000 == 0;
    }
    CHECK_OK(dev, csri_array_copy(dev, d + b, CSR_DEVICE, w, CSR_HOST, (size_t)(e - b) * 4));
    if (dh)
      CHECK_OK(dev, csri_array_copy(dev, dh + b, CSR_DEVICE, hw, CSR_HOST, (size_t)(e - b)));
  }
  csr_scan_kind kind = segmented ? CSR_SCAN_EXCLUSIVE : CSR_SCAN_INCLUSIVE;
  if (segmented)
    CHECK_OK(dev, csr_segmented_scan(dev, CSR_DEVICE, CSR_DATA_I32, kind, d, dh, d, n, NULL, NULL));
  else
    CHECK_OK(dev, csr_scan(dev, CSR_DEVICE, CSR_DATA_I32, kind, d, d, n, NULL, NULL));
  uint32_t sum = 0;
  int64_t bad = -1;
  for (int64_t b = 0; b < n && bad < 0; b += WINDOW) {
    int64_t e = b + WINDOW < n ? b + WINDOW : n;
    to_host(w, d + b, (size_t)(e - b) * 4);
    for (int64_t i = b; i < e; i++) {
      uint32_t v = (uint32_t)mix((uint64_t)i);
      if (segmented && mix((uint64_t)i ^ UINT64_C(0x5555)) % 1000 == 0)
        sum = 0;
      uint32_t expect = kind == CSR_SCAN_INCLUSIVE ? sum + v : sum;
      sum += v;
      if ((uint32_t)w[i - b] != expect) {
        bad = i;
        break;
      }
    }
  }
  CHECKF(bad < 0, "large %s scan of %lld int32: first wrong at %lld",
         segmented ? "segmented" : "plain", (long long)n, (long long)bad);
  device_free(d);
  device_free(dh);
  free(w);
  free(hw);
}

/* Elements in[i] = mix(i) (low bytes), kept by flags (U8, 1023 in 1024 kept: more than 2^31
 * kept, 6.5 GB) or by in[i] != 0 (I32, one in 8 zero, 17.2 GB). Checked window by window. */
static void large_compact(int by_flags) {
  const int64_t n = (INT64_C(1) << 31) + (INT64_C(1) << 22) + 17;
  size_t size = by_flags ? 1 : 4;
  char *d_in = device_alloc_or_skip((size_t)n * size, "large compact (in)");
  char *d_out = d_in ? device_alloc_or_skip((size_t)n * size, "large compact (out)") : NULL;
  uint8_t *d_flags = by_flags && d_out ? device_alloc_or_skip((size_t)n, "large compact") : NULL;
  if (d_in == NULL || d_out == NULL || (by_flags && d_flags == NULL)) {
    device_free(d_in);
    device_free(d_out);
    return;
  }
  char *w = csrt_xmalloc((size_t)WINDOW * size);
  uint8_t *fw = csrt_xmalloc((size_t)WINDOW);
  int64_t kept_want = 0;
  for (int64_t b = 0; b < n; b += WINDOW) {
    int64_t e = b + WINDOW < n ? b + WINDOW : n;
    for (int64_t i = b; i < e; i++) {
      uint64_t r = mix((uint64_t)i);
      if (by_flags) {
        w[i - b] = (char)(uint8_t)r;
        fw[i - b] = mix((uint64_t)i ^ UINT64_C(0xABC)) % 1024 != 0;
        kept_want += fw[i - b];
      } else {
        int32_t v = r % 8 == 0 ? 0 : (int32_t)(uint32_t)(r >> 32);
        memcpy(w + (size_t)(i - b) * 4, &v, 4);
        kept_want += v != 0;
      }
    }
    CHECK_OK(dev, csri_array_copy(dev, d_in + (size_t)b * size, CSR_DEVICE, w, CSR_HOST,
                                  (size_t)(e - b) * size));
    if (by_flags)
      CHECK_OK(dev, csri_array_copy(dev, d_flags + b, CSR_DEVICE, fw, CSR_HOST, (size_t)(e - b)));
  }
  int64_t kept = -1;
  int32_t zero = 0;
  if (by_flags)
    CHECK_OK(dev,
             csr_compact(dev, CSR_DEVICE, CSR_DATA_U8, d_in, d_flags, d_out, n, &kept, NULL, NULL));
  else
    CHECK_OK(dev, csr_compact_if(dev, CSR_DEVICE, CSR_DATA_I32, d_in, CSR_KEEP_NOT_EQUAL, &zero,
                                 d_out, n, &kept, NULL, NULL));
  CHECKF(kept == kept_want, "large compact (%s): kept %lld, expected %lld",
         by_flags ? "U8 by flags" : "I32 != 0", (long long)kept, (long long)kept_want);
  if (by_flags)
    CHECK(kept > (INT64_C(1) << 31));
  /* Walk the input again; compare each kept element with the output, fetched window by window. */
  int64_t k = 0, window_start = -WINDOW, bad = -1;
  for (int64_t i = 0; i < n && bad < 0 && kept == kept_want; i++) {
    uint64_t r = mix((uint64_t)i);
    uint32_t v;
    int keep;
    if (by_flags) {
      v = (uint8_t)r;
      keep = mix((uint64_t)i ^ UINT64_C(0xABC)) % 1024 != 0;
    } else {
      v = r % 8 == 0 ? 0 : (uint32_t)(r >> 32);
      keep = v != 0;
    }
    if (!keep)
      continue;
    if (k >= window_start + WINDOW) {
      window_start = k;
      int64_t e = k + WINDOW < kept ? k + WINDOW : kept;
      to_host(w, d_out + (size_t)k * size, (size_t)(e - k) * size);
    }
    uint32_t g = 0;
    memcpy(&g, w + (size_t)(k - window_start) * size, size);
    if (g != v)
      bad = k;
    k++;
  }
  CHECKF(bad < 0, "large compact (%s): output %lld wrong", by_flags ? "U8" : "I32", (long long)bad);
  device_free(d_in);
  device_free(d_out);
  device_free(d_flags);
  free(w);
  free(fw);
}

/* 2^24 64-bit keys with 8-byte values, all bits and [0, 40), against the reference. */
static void large_sort(void) {
  const int64_t n = INT64_C(1) << 24;
  sort_case(8, n, KEYS_RANDOM, 0, 64);
  sort_case(8, n, KEYS_RANDOM, 0, 40);
  sort_case(8, n, KEYS_FEW, 17, 50);
}

/* argv[1]: "small" (no large cases), "large" (only those), "scan", "compact", "sort" or
 * "histogram" (only that primitive's small cases), or nothing (all). */
int main(int argc, char **argv) {
  const char *only = argc > 1 ? argv[1] : "";
  if (!csr_backend_available(CSR_BACKEND_CUDA) || !csr_cuda_device_present()) {
    printf("gpu_primitives: no CUDA device (or CUDA backend not built): skipped\n");
    return 77;
  }
  rng.state = csrt_seed("gpu_primitives");
  dev = csrt_context(CSR_BACKEND_CUDA);
  ref = csrt_context(CSR_BACKEND_REF);
  if (strcmp(only, "large") != 0) {
    /* Each section's failures, for a summary past the first 50 printed. */
    void (*const sections[4])(void) = {scans, compacts, sorts, histograms};
    const char *names[4] = {"scan", "compact", "sort", "histogram"};
    for (int i = 0; i < 4; i++) {
      long before = csrt_failures;
      if (*only && strcmp(only, "small") != 0 && strcmp(only, names[i]) != 0)
        continue;
      sections[i]();
      printf("gpu_primitives: %s: %ld failed\n", names[i], csrt_failures - before);
    }
    CHECK(csr_context_last_backend(dev) == CSR_BACKEND_CUDA);
    /* Host arrays with a CUDA context run on the CPU and say so. */
    int32_t in[3] = {1, 2, 3}, out[3];
    CHECK_STATUS(dev,
                 csr_scan(dev, CSR_HOST, CSR_DATA_I32, CSR_SCAN_INCLUSIVE, in, out, 3, NULL, NULL),
                 CSR_INFO_DECLINED);
    CHECK(out[2] == 6 && csr_context_last_backend(dev) != CSR_BACKEND_CUDA);
  }
  if (*only && strcmp(only, "large") != 0)
    printf("gpu_primitives: '%s': the large cases are SKIPPED\n", only);
  else if (getenv("CSR_SKIP_LARGE") == NULL) {
    large_sort();
    large_scan(0);
    large_scan(1);
    large_compact(1);
    large_compact(0);
  } else
    printf("gpu_primitives: CSR_SKIP_LARGE set: the large cases are SKIPPED\n");
  csr_context_free(&dev);
  csr_context_free(&ref);
  return csrt_finish("gpu_primitives");
}
