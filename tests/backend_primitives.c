/* SPDX-License-Identifier: BSD-3-Clause */
/* Backend tier of the primitives: scan, segmented scan, compact, radix sort and histogram on the
 * backend of argv[1] (ref, omp, cuda; arrays placed where it runs) against naive oracles written
 * here, on seeded random and adversarial inputs (lengths 0, 1, a tile +- 1, many tiles; all keys
 * equal, sorted, reversed, top bits only; one bin taking almost everything, 100000 bins, samples
 * out of range; none kept, all kept). Integer results must match exactly. Calls alternate between
 * the context's cached workspace and the two-phase protocol (query, then the caller's buffer; a
 * buffer one byte short is refused). The GPU's own tile boundaries are gpu_primitives' cases. */
#include "csr_primitives.h"
#include "kernels/bins.h"
#include "primitive_data.h"
#include "testing.h"

#include "../cuda/tuning.cuh" /* the radix sort's tiles on the GPU */

#include <math.h>
#include <stdlib.h>
#include <string.h>

static csr_context *ctx;
static csr_backend backend;
static csr_location at; /* where the backend's arrays live */
static csrt_rng rng;
static unsigned long calls; /* alternates the workspace forms */

static const int64_t lengths[] = {0, 1, 2, 3, 4095, 4096, 4097, 65537, 1000003};
/* Under compute-sanitizer (csrt_quick) the longest input is left out. */
#define NLENGTHS ((int)(sizeof lengths / sizeof lengths[0]) - (csrt_quick() ? 1 : 0))
#define BIG 1000003

/* Workspace forms, one per call in turn: 0 the context's cache (workspace_bytes NULL); 1 the
 * query, then a buffer of exactly that size (at least one byte: a NULL buffer is a query); 2 the
 * query, a buffer one byte short (must be CSR_ERR_INVALID_VALUE when the call needs any), then
 * the right one. */
typedef struct ws_form {
  int form;
  size_t bytes;
  void *buffer;
} ws_form;

#define RUN_WITH_WORKSPACE(call_with)                                                              \
  do {                                                                                             \
    ws_form w_ = {(int)(calls++ % 3), 0, NULL};                                                    \
    if (w_.form == 0) {                                                                            \
      CHECK_OK(ctx, call_with(NULL, NULL));                                                        \
      break;                                                                                       \
    }                                                                                              \
    CHECK_OK(ctx, call_with(NULL, &w_.bytes));                                                     \
    w_.buffer = csrt_alloc_at(backend, w_.bytes ? w_.bytes : 1);                                   \
    if (w_.form == 2 && w_.bytes > 0) {                                                            \
      size_t short_ = w_.bytes - 1;                                                                \
      CHECK_STATUS(ctx, call_with(w_.buffer, &short_), CSR_ERR_INVALID_VALUE);                     \
    }                                                                                              \
    CHECK_OK(ctx, call_with(w_.buffer, &w_.bytes));                                                \
    csrt_free_at(backend, w_.buffer);                                                              \
  } while (0)

/* --- scan ------------------------------------------------------------------------------------ */

static const csr_data_type scan_types[] = {CSR_DATA_I32, CSR_DATA_I64, CSR_DATA_U32, CSR_DATA_U64};

static void scan_oracle(int wide, csr_scan_kind kind, const void *in, const uint8_t *heads,
                        void *out, int64_t n) {
  uint64_t sum = 0, mask = wide ? UINT64_MAX : UINT32_MAX;
  for (int64_t i = 0; i < n; i++) {
    uint64_t v = wide ? ((const uint64_t *)in)[i] : ((const uint32_t *)in)[i];
    if (i == 0 || (heads && heads[i]))
      sum = 0;
    uint64_t y = kind == CSR_SCAN_INCLUSIVE ? (sum + v) & mask : sum;
    sum = (sum + v) & mask;
    if (wide)
      ((uint64_t *)out)[i] = y;
    else
      ((uint32_t *)out)[i] = (uint32_t)y;
  }
}

static csr_data_type s_type;
static csr_scan_kind s_kind;
static const void *s_in;
static const uint8_t *s_heads;
static void *s_out;
static int64_t s_n;
#define SCAN_CALL(ws, bytes)                                                                       \
  (s_heads ? csr_segmented_scan(ctx, at, s_type, s_kind, s_in, s_heads, s_out, s_n, ws, bytes)     \
           : csr_scan(ctx, at, s_type, s_kind, s_in, s_out, s_n, ws, bytes))

/* heads: NULL (plain), or a head with probability 1/every (every 1: at each element). */
static void scan_case(csr_data_type type, int64_t n, int every, int in_place) {
  size_t size = csr_data_type_size(type), bytes = (size_t)n * size;
  void *in = csrt_xmalloc(bytes), *out = csrt_xmalloc(bytes), *want = csrt_xmalloc(bytes);
  uint8_t *heads = NULL;
  csrt_fill_random(&rng, in, bytes);
  if (every > 0) {
    heads = csrt_xmalloc((size_t)n);
    for (int64_t i = 0; i < n; i++)
      heads[i] = every == 1 || csrt_below(&rng, (uint64_t)every) == 0 ? (uint8_t)(1 + i % 255) : 0;
  }
  void *in_at = csrt_place_bytes(backend, in, bytes), *out_at = csrt_alloc_at(backend, bytes);
  uint8_t *heads_at = heads ? csrt_place_bytes(backend, heads, (size_t)n) : NULL;
  for (int k = 0; k < 2; k++) {
    csr_scan_kind kind = (csr_scan_kind)k;
    scan_oracle(size == 8, kind, in, heads, want, n);
    if (in_place) { /* out starts as a copy of in, and is scanned in place */
      csrt_free_at(backend, out_at);
      out_at = csrt_place_bytes(backend, in, bytes);
    }
    s_type = type, s_kind = kind, s_in = in_place ? out_at : in_at, s_heads = heads_at;
    s_out = out_at, s_n = n;
    RUN_WITH_WORKSPACE(SCAN_CALL);
    csrt_fetch_bytes(backend, out, out_at, bytes);
    CHECKF(bytes == 0 || memcmp(out, want, bytes) == 0,
           "scan type %d n %lld kind %d heads 1/%d in place %d differs", (int)type, (long long)n, k,
           every, in_place);
  }
  csrt_free_at(backend, in_at);
  csrt_free_at(backend, out_at);
  csrt_free_at(backend, heads_at);
  free(in);
  free(out);
  free(want);
  free(heads);
}

static void scans(void) {
  for (int t = 0; t < 4; t++)
    for (int l = 0; l < NLENGTHS; l++) {
      int64_t n = lengths[l];
      scan_case(scan_types[t], n, 0, 0);
      scan_case(scan_types[t], n, 0, 1);
      scan_case(scan_types[t], n, 1, 0);    /* a head at every element */
      scan_case(scan_types[t], n, 3, 1);    /* short segments, in place */
      scan_case(scan_types[t], n, 5000, 0); /* segments longer than a chunk */
      if (n == BIG)
        scan_case(scan_types[t], n, 1 << 30, 0); /* heads present, none but position 0 */
    }
}

/* --- compact --------------------------------------------------------------------------------- */

static const csr_data_type all_types[] = {CSR_DATA_I32, CSR_DATA_I64, CSR_DATA_U32, CSR_DATA_U64,
                                          CSR_DATA_U16, CSR_DATA_U8,  CSR_DATA_F32, CSR_DATA_F64};

/* x <pred> op in the element's type. */
static int keeps(csr_data_type type, const void *in, int64_t i, csr_predicate p, const void *op) {
#define CMP(T)                                                                                     \
  do {                                                                                             \
    T x = ((const T *)in)[i], o = *(const T *)op;                                                  \
    return p == CSR_KEEP_NOT_EQUAL ? x != o : p == CSR_KEEP_LESS ? x < o : x >= o;                 \
  } while (0)
  switch (type) {
  case CSR_DATA_I32: CMP(int32_t);
  case CSR_DATA_I64: CMP(int64_t);
  case CSR_DATA_U32: CMP(uint32_t);
  case CSR_DATA_U64: CMP(uint64_t);
  case CSR_DATA_U16: CMP(uint16_t);
  case CSR_DATA_U8: CMP(uint8_t);
  case CSR_DATA_F32: CMP(float);
  default: CMP(double);
  }
#undef CMP
}

static int64_t c_kept;
static csr_data_type c_type;
static const void *c_in, *c_op;
static const uint8_t *c_flags;
static csr_predicate c_pred;
static void *c_out;
static int64_t c_n;
#define COMPACT_CALL(ws, bytes)                                                                    \
  (c_flags ? csr_compact(ctx, at, c_type, c_in, c_flags, c_out, c_n, &c_kept, ws, bytes)           \
           : csr_compact_if(ctx, at, c_type, c_in, c_pred, c_op, c_out, c_n, &c_kept, ws, bytes))

/* mode: 0..2 a predicate; 3 random flags (half); 4 sparse flags; 5 all kept; 6 none kept. */
static void compact_case(csr_data_type type, int64_t n, int mode) {
  size_t size = csr_data_type_size(type);
  char *in = csrt_xmalloc((size_t)n * size), *out = csrt_xmalloc((size_t)n * size);
  char *want = csrt_xmalloc((size_t)n * size);
  uint8_t *flags = NULL;
  uint64_t op_bits = csrt_next(&rng);
  union {
    uint64_t u;
    double d;
    float f;
    char c[8];
  } op;
  op.u = op_bits;
  if (type == CSR_DATA_F64)
    op.d = (double)(int64_t)(op_bits >> 40) / 65536.0 - 64.0;
  else if (type == CSR_DATA_F32)
    op.f = (float)((double)(int64_t)(op_bits >> 40) / 65536.0 - 64.0);
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
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++)
    if (flags ? flags[i] != 0 : keeps(type, in, i, (csr_predicate)mode, op.c))
      memcpy(want + (size_t)k++ * size, in + (size_t)i * size, size);
  memset(out, 0xEE, (size_t)n * size);
  void *in_at = csrt_place_bytes(backend, in, (size_t)n * size);
  void *out_at = csrt_place_bytes(backend, out, (size_t)n * size);
  uint8_t *flags_at = flags ? csrt_place_bytes(backend, flags, (size_t)n) : NULL;
  c_type = type, c_in = in_at, c_op = op.c, c_flags = flags_at, c_pred = (csr_predicate)(mode % 3);
  c_out = out_at, c_n = n, c_kept = -1;
  RUN_WITH_WORKSPACE(COMPACT_CALL);
  csrt_fetch_bytes(backend, out, out_at, (size_t)n * size);
  csrt_free_at(backend, in_at);
  csrt_free_at(backend, out_at);
  csrt_free_at(backend, flags_at);
  CHECKF(c_kept == k && (k == 0 || memcmp(out, want, (size_t)k * size) == 0),
         "compact type %d n %lld mode %d: kept %lld, expected %lld", (int)type, (long long)n, mode,
         (long long)c_kept, (long long)k);
  if (mode == 5)
    CHECK(k == n);
  if (mode == 6)
    CHECK(k == 0);
  free(in);
  free(out);
  free(want);
  free(flags);
}

static void compacts(void) {
  for (int t = 0; t < 8; t++)
    for (int l = 0; l < NLENGTHS; l++)
      for (int mode = 0; mode < 7; mode++)
        if (lengths[l] < BIG || mode < 4 || t == 0)
          compact_case(all_types[t], lengths[l], mode);
}

/* --- radix sort ------------------------------------------------------------------------------ */

typedef enum key_shape {
  KEYS_RANDOM,
  KEYS_EQUAL,
  KEYS_SORTED,
  KEYS_REVERSED,
  KEYS_TOP_BITS, /* only the top 3 bits of the range vary */
  KEYS_FEW,      /* 5 distinct values: long runs of equal keys */
  KEY_SHAPES
} key_shape;

static csr_data_type r_ktype, r_vtype;
static void *r_keys, *r_values;
static int64_t r_n;
static int r_begin, r_end;
#define SORT_CALL(ws, bytes)                                                                       \
  csr_radix_sort(ctx, at, r_ktype, r_keys, r_vtype, r_values, r_n, r_begin, r_end, ws, bytes)

static uint64_t key_at(const void *k, size_t ks, int64_t i) {
  return ks == 4 ? ((const uint32_t *)k)[i] : ((const uint64_t *)k)[i];
}

/* Sorts with a payload that names each element's first position (vs 4: the index; vs 8: the
 * index in the low half, random bits above), then checks the result completely: a permutation
 * whose keys and payloads are the originals, ordered by (key bits in range, first position),
 * which is the one stable order. Keys-only (vs 0) must give the keys of the vs 4 run. */
static void sort_case(size_t ks, int64_t n, key_shape shape, int begin, int end) {
  uint64_t range = csrt_bit_mask(begin, end), all = ks == 4 ? UINT32_MAX : UINT64_MAX;
  char *keys0 = csrt_xmalloc((size_t)n * ks), *keys = csrt_xmalloc((size_t)n * ks);
  char *sorted4 = csrt_xmalloc((size_t)n * ks);
  uint64_t *v0 = csrt_xmalloc((size_t)n * 8), *v = csrt_xmalloc((size_t)n * 8);
  uint8_t *seen = csrt_xmalloc((size_t)n);
  uint64_t base = csrt_next(&rng), few[5];
  for (int j = 0; j < 5; j++)
    few[j] = csrt_next(&rng);
  for (int64_t i = 0; i < n; i++) {
    uint64_t r = csrt_next(&rng), k;
    switch (shape) {
    case KEYS_RANDOM: k = r; break;
    case KEYS_EQUAL: k = base; break;
    case KEYS_SORTED: k = (uint64_t)i << begin | (r & ~range); break;
    case KEYS_REVERSED: k = (uint64_t)(n - i) << begin | (r & ~range); break;
    case KEYS_TOP_BITS:
      k = (base & ~range) | ((r >> 61) << (end - 3 > begin ? end - 3 : begin));
      break;
    default: k = few[r % 5] ^ (r & ~range); break; /* equal in range, differing outside it */
    }
    k &= all;
    memcpy(keys0 + (size_t)i * ks, &k, ks);
  }
  const csr_data_type vtypes[3] = {CSR_DATA_U32, CSR_DATA_I32, CSR_DATA_F64};
  const size_t value_sizes[3] = {4, 8, 0}; /* the keys-only run last */
  for (int j = 0; j < 3; j++) {
    size_t vs = value_sizes[j];
    memcpy(keys, keys0, (size_t)n * ks);
    for (int64_t i = 0; i < n; i++) {
      v0[i] = (uint64_t)i | (csrt_next(&rng) & UINT64_C(0xFFFFFFFF00000000)); /* as F64 bits */
      if (vs == 4)
        ((uint32_t *)v)[i] = (uint32_t)i;
      else
        v[i] = v0[i];
    }
    r_ktype = ks == 4 ? CSR_DATA_U32 : CSR_DATA_U64;
    r_vtype = vtypes[vs / 4];
    void *keys_at = csrt_place_bytes(backend, keys, (size_t)n * ks);
    void *v_at = vs ? csrt_place_bytes(backend, v, (size_t)n * vs) : NULL;
    r_keys = keys_at, r_values = v_at, r_n = n, r_begin = begin, r_end = end;
    RUN_WITH_WORKSPACE(SORT_CALL);
    csrt_fetch_bytes(backend, keys, keys_at, (size_t)n * ks);
    if (vs)
      csrt_fetch_bytes(backend, v, v_at, (size_t)n * vs);
    csrt_free_at(backend, keys_at);
    csrt_free_at(backend, v_at);
    if (vs == 0) {
      CHECKF(n == 0 || memcmp(keys, sorted4, (size_t)n * ks) == 0,
             "keys-only sort (%zu-byte keys, n %lld, shape %d, bits [%d, %d)) differs from the "
             "sort with a payload",
             ks, (long long)n, (int)shape, begin, end);
      continue;
    }
    memcpy(sorted4, keys, (size_t)n * ks);
    memset(seen, 0, (size_t)n);
    int64_t bad = -1, prev = -1;
    for (int64_t i = 0; i < n && bad < 0; i++) {
      uint64_t first = vs == 4 ? ((uint32_t *)v)[i] : v[i] & UINT32_MAX;
      if (first >= (uint64_t)n || seen[first] || (vs == 8 && v[i] != v0[first]) ||
          key_at(keys, ks, i) != key_at(keys0, ks, (int64_t)first)) {
        bad = i;
        break;
      }
      seen[first] = 1;
      if (i > 0) {
        uint64_t a = key_at(keys, ks, i - 1) & range, b = key_at(keys, ks, i) & range;
        if (a > b || (a == b && prev >= (int64_t)first))
          bad = i;
      }
      prev = (int64_t)first;
    }
    CHECKF(bad < 0,
           "sort of %zu-byte keys, %zu-byte values, n %lld, shape %d, bits [%d, %d): wrong at %lld",
           ks, vs, (long long)n, (int)shape, begin, end, (long long)bad);
  }
  free(keys0);
  free(keys);
  free(sorted4);
  free(v0);
  free(v);
  free(seen);
}

/* The sort's lengths: each side of a GPU tile of 32-bit keys with 4-byte values or none (TILE32)
 * and with 8-byte values (TILE32_WIDE), as cuda/tuning.cuh sizes them; many tiles; and the long
 * input. */
#define TILE32 ((int64_t)CSRI_RADIX_THREADS * CSRI_RADIX_ITEMS_FOR(4, 4))
#define TILE32_WIDE ((int64_t)CSRI_RADIX_THREADS * CSRI_RADIX_ITEMS_FOR(4, 8))
static const int64_t sort_lengths[] = {
    0,      1,          2,     3,  TILE32_WIDE - 1, TILE32_WIDE, TILE32_WIDE + 1, TILE32 - 1,
    TILE32, TILE32 + 1, 65537, BIG};
#define NSORT_LENGTHS ((int)(sizeof sort_lengths / sizeof sort_lengths[0]) - (csrt_quick() ? 1 : 0))

/* Under compute-sanitizer (csrt_quick) every bit range still runs at TILE32 + 1 keys (one key past
 * a tile of 32-bit keys, every pass's kernel variant), but the other sides of tiles take the whole
 * width only and 65537 keys random and few-valued keys only: the whole list outlasted
 * racecheck's limit. */
static int sort_case_runs(int64_t n, int wide, key_shape s, int r) {
  if (n == BIG) /* the long input: random keys on a few ranges (65537 has every shape) */
    return s == KEYS_RANDOM && r < (wide ? 3 : 2);
  if (n == 65537)
    return r <= 2 && (!csrt_quick() || s == KEYS_RANDOM || s == KEYS_FEW);
  return !csrt_quick() || r == 0 || n < TILE32_WIDE - 1 || n == TILE32 + 1;
}

static void sorts(int wide) {
  size_t ks = wide ? 8 : 4;
  int bits = (int)ks * 8;
  const int ranges[][2] = {{0, bits}, {13, 29}, {0, wide ? 40 : 20}, {bits - 1, bits}, {5, 6},
                           {0, 8},    {3, 12}};
  for (int l = 0; l < NSORT_LENGTHS; l++)
    for (int s = 0; s < KEY_SHAPES; s++)
      for (int r = 0; r < 7; r++)
        if (sort_case_runs(sort_lengths[l], wide, (key_shape)s, r))
          sort_case(ks, sort_lengths[l], (key_shape)s, ranges[r][0], ranges[r][1]);
}
static void sorts32(void) {
  sorts(0);
}
static void sorts64(void) {
  sorts(1);
}

/* --- histogram ------------------------------------------------------------------------------- */

static int bin_of(const csri_bins *b, csr_data_type type, const void *s, int64_t i) {
  switch (type) {
  case CSR_DATA_I32: return csri_bin_of_i64(b, ((const int32_t *)s)[i]);
  case CSR_DATA_I64: return csri_bin_of_i64(b, ((const int64_t *)s)[i]);
  case CSR_DATA_U32: return csri_bin_of_u64(b, ((const uint32_t *)s)[i]);
  case CSR_DATA_U64: return csri_bin_of_u64(b, ((const uint64_t *)s)[i]);
  case CSR_DATA_U16: return csri_bin_of_u64(b, ((const uint16_t *)s)[i]);
  case CSR_DATA_U8: return csri_bin_of_u64(b, ((const uint8_t *)s)[i]);
  case CSR_DATA_F32: return csri_bin_of_f64(b, ((const float *)s)[i]);
  default: return csri_bin_of_f64(b, ((const double *)s)[i]);
  }
}

static csr_data_type h_stype, h_ctype;
static const void *h_samples;
static int64_t h_n;
static const csr_histogram_bins *h_bins;
static void *h_counts;
#define HIST_CALL(ws, bytes)                                                                       \
  csr_histogram(ctx, at, h_stype, h_samples, h_n, h_bins, h_ctype, h_counts, ws, bytes)

static void histogram_case(csr_data_type stype, csr_bin_rule rule, int nbins, int64_t n,
                           int skewed) {
  csr_histogram_bins spec = {rule, nbins, 0.0, 0.0};
  if (rule == CSR_BINS_EVEN) {
    spec.lower = floor(csrt_uniform(&rng, -100.0, 100.0));
    spec.upper = spec.lower + (stype == CSR_DATA_F32 || stype == CSR_DATA_F64
                                   ? csrt_uniform(&rng, 0.5, 300.0)
                                   : floor(csrt_uniform(&rng, 1.0, 300.0)));
    if (stype == CSR_DATA_U8 || stype == CSR_DATA_U16 || stype == CSR_DATA_U32 ||
        stype == CSR_DATA_U64)
      spec.upper -= spec.lower, spec.lower = 0.0;
    /* Half the integer cases: unit-width bins from an integer (the front end's exact integer
     * path), which must count as the double formula does. */
    if (stype != CSR_DATA_F32 && stype != CSR_DATA_F64 && csrt_below(&rng, 2) == 0)
      spec.upper = spec.lower + nbins;
  }
  csri_bins b = {spec.rule, spec.bins, spec.lower, spec.upper, 1.0, 0};
  if (rule == CSR_BINS_EVEN)
    b.scale = (double)spec.bins / (spec.upper - spec.lower);
  size_t size = csr_data_type_size(stype);
  void *samples = csrt_xmalloc((size_t)n * size);
  for (int64_t i = 0; i < n; i++)
    csrt_store_sample(stype, samples, i, csrt_sample_value(&rng, &spec, skewed), csrt_next(&rng));
  uint64_t *want = calloc((size_t)nbins, 8);
  for (int64_t i = 0; i < n; i++) {
    int k = bin_of(&b, stype, samples, i);
    if (k >= 0)
      want[k]++;
  }
  const csr_data_type ctypes[3] = {CSR_DATA_U64, CSR_DATA_U32, CSR_DATA_U16};
  void *counts = csrt_xmalloc((size_t)nbins * 8);
  void *samples_at = csrt_place_bytes(backend, samples, (size_t)n * size);
  for (int c = 0; c < 3; c++) {
    memset(counts, 0xA5, (size_t)nbins * 8);
    void *counts_at = csrt_place_bytes(backend, counts, (size_t)nbins * 8);
    h_stype = stype, h_ctype = ctypes[c], h_samples = samples_at, h_n = n, h_bins = &spec;
    h_counts = counts_at;
    RUN_WITH_WORKSPACE(HIST_CALL);
    csrt_fetch_bytes(backend, counts, counts_at, (size_t)nbins * 8);
    csrt_free_at(backend, counts_at);
    int64_t bad = -1;
    for (int64_t k = 0; k < nbins && bad < 0; k++) {
      uint64_t got = c == 0   ? ((uint64_t *)counts)[k]
                     : c == 1 ? ((uint32_t *)counts)[k]
                              : ((uint16_t *)counts)[k];
      uint64_t expect = c == 0            ? want[k]
                        : c == 1          ? (uint32_t)want[k]
                        : want[k] < 65535 ? want[k]
                                          : 65535;
      if (got != expect)
        bad = k;
    }
    CHECKF(bad < 0, "histogram of type %d, rule %d, %d bins, n %lld, count type %d: bin %lld",
           (int)stype, (int)rule, nbins, (long long)n, (int)ctypes[c], (long long)bad);
  }
  csrt_free_at(backend, samples_at);
  free(samples);
  free(want);
  free(counts);
}

static void histograms(void) {
  const int bin_counts[] = {1, 7, 256, 100000};
  for (int t = 0; t < 8; t++) {
    int floating = all_types[t] == CSR_DATA_F32 || all_types[t] == CSR_DATA_F64;
    for (int rule = 0; rule < 3; rule++) {
      if (floating && rule != CSR_BINS_EVEN)
        continue;
      for (int l = 0; l < NLENGTHS; l++)
        for (int nb = 0; nb < 4; nb++) {
          int64_t n = lengths[l];
          int nbins = rule == CSR_BINS_LOG2 && bin_counts[nb] > 70 ? 70 - nb : bin_counts[nb];
          /* The long input: 100000 bins, and 7 bins with 99% in one, for a few sample types. */
          int big_type = t == 0 || t == 3 || t == 4 || t == 6;
          if (n < BIG || (big_type && nb == 3))
            histogram_case(all_types[t], (csr_bin_rule)rule, nbins, n, 0);
          if (n >= 4096 && nb != 0 && (n < BIG || (big_type && nb == 1)))
            histogram_case(all_types[t], (csr_bin_rule)rule, nbins, n, 1); /* 99% in one bin */
        }
    }
  }
}

int main(int argc, char **argv) {
  backend = csrt_backend_from_args(argc, argv);
  at = csrt_location(backend);
  rng.state = csrt_seed("backend_primitives");
  ctx = csrt_context(backend);
  if (backend == CSR_BACKEND_OMP)
    csr_context_set_threads(ctx, 4); /* several chunks even on a 2-core machine */
  /* Parts (csrt_part): scan, compact, sort (32-bit keys), sort64, histogram. */
  void (*const parts[5])(void) = {scans, compacts, sorts32, sorts64, histograms};
  const char *names[5] = {"scan", "compact", "sort", "sort64", "histogram"};
  for (int i = 0; i < 5; i++)
    if (csrt_part(argc, argv, names[i]))
      parts[i]();
  /* OpenMP, whole runs only: uneven chunks, and more chunks than elements per chunk. */
  if (backend == CSR_BACKEND_OMP && argc < 3) {
    csr_context_set_threads(ctx, 3);
    scan_case(CSR_DATA_U32, BIG, 700, 1);
    compact_case(CSR_DATA_F32, BIG, 0);
    sort_case(8, BIG, KEYS_RANDOM, 0, 40);
    histogram_case(CSR_DATA_I32, CSR_BINS_INTEGER, 1000, BIG, 0);
    csr_context_set_threads(ctx, 1);
    scan_case(CSR_DATA_I64, 70000, 3, 0);
    sort_case(4, 70000, KEYS_RANDOM, 0, 32);
  }
  CHECK(csr_context_last_backend(ctx) == backend);
  csr_context_free(&ctx);
  return csrt_finish("backend_primitives");
}
