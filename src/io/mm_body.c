/* SPDX-License-Identifier: BSD-3-Clause */
/* Matrix Market data lines -> entries: "i j v" (coordinate), "i v" (vector), "v" (array). */
#include "io/decimal/mm_digits.h"
#include "io/decimal/mm_number.h"
#include "mm_blocks.h"

#include <string.h>

/* The error of a bad index, out of line so the hot path keeps no state for it. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static const char *
index_error(const csri_line_format *f, csri_piece *pc, int64_t line, const char *p, const char *end,
            const char *what, int64_t limit) {
  int64_t v = 0;
  int status = 0;
  const char *q = csri_parse_int64(p, end, &v, &status);
  char found[40];
  csri_describe_token(p, end, found, sizeof found);
  if (status == CSRI_NUM_SYNTAX || (q < end && !csri_is_blank(*q) && !csri_is_eol(*q)))
    return csri_piece_fail(f, pc, CSR_ERR_PARSE, line, "expected a %s index (an integer), found %s",
                           what, found);
  return csri_piece_fail(f, pc, CSR_ERR_PARSE, line, "%s index %s is outside [1, %lld]", what,
                         found, (long long)limit);
}

/* Reads an index in [1, limit] and the blanks after it; NULL (error recorded) otherwise. The
 * hot path reads at most 10 plain digits (every valid index) with one test per digit; anything
 * else (a sign, more digits, junk) goes to index_error, which says what is wrong. */
static inline const char *read_index(const csri_line_format *f, csri_piece *pc, int64_t line,
                                     const char *p, const char *end, const char *what,
                                     int64_t limit, int32_t *index) {
  const char *q = p, *stop = end - p > 10 ? p + 10 : end;
  uint64_t v = 0;
#if CSRI_SWAR
  if (end - p >= 8) { /* up to 7 digits and what follows them in one 8-byte word */
    uint64_t w, digits;
    memcpy(&w, p, 8);
    digits = w - UINT64_C(0x3030303030303030);
    /* High bit of each byte that is not '0'..'9'; the lowest such byte ends the number (bytes
     * below it are digits, so no borrow or carry reaches it from them). */
    uint64_t other =
        ((digits + UINT64_C(0x7676767676767676)) | digits) & UINT64_C(0x8080808080808080);
    int n = other ? csri_trailing_zeros(other) >> 3 : 8;
    if (n > 0 && n < 8) { /* move the n digits to the top: the zero bytes below are leading 0s */
      v = csri_eight_digits(digits << (8 * (8 - n)));
      q = p + n;
      stop = q; /* done: skip the loop */
    }
  }
#endif
  for (; q < stop; q++) {
    unsigned d = (unsigned)(unsigned char)*q - '0';
    if (d > 9)
      break;
    v = v * 10 + d;
  }
  if (q == p || v < 1 || v > (uint64_t)limit || (q < end && !csri_is_blank(*q) && !csri_is_eol(*q)))
    return index_error(f, pc, line, p, end, what, limit);
  *index = (int32_t)(v - 1);
  while (q < end && csri_is_blank(*q))
    q++;
  return q;
}

/* Reads the value of entry k as the field says and stores it; NULL (error recorded) if bad. */
static const char *read_value(const csri_line_format *f, csri_piece *pc, int64_t line,
                              const char *p, const char *end, int64_t k, double *value) {
  const csri_mm_header *h = f->user;
  int integer = h->field == CSR_MM_INTEGER, status = 0;
  const char *q;
  char found[40];
  if (p == end || csri_is_eol(*p))
    return csri_piece_fail(f, pc, CSR_ERR_PARSE, line,
                           "expected a value, found the end of the line");
  if (integer) {
    int64_t v = 0;
    q = csri_parse_int64(p, end, &v, &status);
    *value = (double)v; /* exact up to 2^53; beyond, the nearest double */
  } else
    q = csri_parse_double(p, end, value, &status);
  if (status == CSRI_NUM_SYNTAX || (q < end && !csri_is_blank(*q) && !csri_is_eol(*q))) {
    csri_describe_token(p, end, found, sizeof found);
    return csri_piece_fail(f, pc, CSR_ERR_PARSE, line, "expected %s value, found %s",
                           integer ? "an integer" : "a real", found);
  }
  if (status == CSRI_NUM_OUT_OF_RANGE) {
    csri_describe_token(p, end, found, sizeof found);
    return csri_piece_fail(f, pc, CSR_ERR_OVERFLOW, line, "value %s does not fit %s", found,
                           integer ? "a 64-bit integer" : "a double");
  }
  if (f->out->value_type == CSR_F64)
    ((double *)f->out->values)[k] = *value;
  else
    ((float *)f->out->values)[k] = (float)*value;
  return csri_skip_blanks(q, end);
}

/* Array files: the piece's first (row, col) from its first entry number. Values run column by
 * column; a symmetric file stores rows j..n-1 of column j, a skew one rows j+1..n-1. */
static void array_begin(const csri_line_format *f, csri_piece *pc) {
  const csri_mm_header *h = f->user;
  int64_t k = pc->first_entry;
  if (k >= h->entries || h->rows == 0)
    return;
  if (h->symmetry == CSR_MM_GENERAL) {
    pc->state[0] = k % h->rows;
    pc->state[1] = k / h->rows;
    return;
  }
  int64_t n = h->rows, skew = h->symmetry == CSR_MM_SKEW_SYMMETRIC, lo = 0, hi = n;
  while (hi - lo > 1) { /* last column j with j*(n - skew) - j*(j-1)/2 values before it <= k */
    int64_t mid = lo + (hi - lo) / 2;
    if (mid * (n - skew) - mid * (mid - 1) / 2 <= k)
      lo = mid;
    else
      hi = mid;
  }
  pc->state[1] = lo;
  pc->state[0] = lo + skew + (k - (lo * (n - skew) - lo * (lo - 1) / 2));
}

static const char *finish_entry(const csri_line_format *f, csri_piece *pc, int64_t line,
                                const char *p, const char *end, int64_t k, int32_t row, int32_t col,
                                double value) {
  const csri_mm_header *h = f->user;
  if (p < end && !csri_is_eol(*p)) {
    char found[40];
    csri_describe_token(p, end, found, sizeof found);
    return csri_piece_fail(f, pc, CSR_ERR_PARSE, line, "expected the end of the line, found %s",
                           found);
  }
  if (h->symmetry == CSR_MM_SKEW_SYMMETRIC && row == col && value != 0.0)
    return csri_piece_fail(f, pc, CSR_ERR_PARSE, line,
                           "a skew-symmetric matrix has a zero diagonal, found a nonzero at "
                           "(%d, %d)",
                           row + 1, col + 1);
  f->out->rows[k] = row;
  f->out->cols[k] = col;
  return p;
}

static const char *coordinate_line(const csri_line_format *f, csri_piece *pc, int64_t line,
                                   const char *p, const char *end, int64_t k) {
  const csri_mm_header *h = f->user;
  int32_t row = 0, col = 0;
  double value = 1.0;
  if (!(p = read_index(f, pc, line, p, end, "row", h->rows, &row)))
    return NULL;
  if (!h->is_vector && !(p = read_index(f, pc, line, p, end, "column", h->cols, &col)))
    return NULL;
  if (h->field != CSR_MM_PATTERN && !(p = read_value(f, pc, line, p, end, k, &value)))
    return NULL;
  return finish_entry(f, pc, line, p, end, k, row, col, value);
}

static const char *array_line(const csri_line_format *f, csri_piece *pc, int64_t line,
                              const char *p, const char *end, int64_t k) {
  const csri_mm_header *h = f->user;
  int32_t row = (int32_t)pc->state[0], col = (int32_t)pc->state[1];
  double value = 0.0;
  if (++pc->state[0] == h->rows) { /* next position: top of the next column's part */
    pc->state[1]++;
    pc->state[0] =
        h->symmetry == CSR_MM_GENERAL ? 0 : pc->state[1] + (h->symmetry == CSR_MM_SKEW_SYMMETRIC);
  }
  if (!(p = read_value(f, pc, line, p, end, k, &value)))
    return NULL;
  return finish_entry(f, pc, line, p, end, k, row, col, value);
}

csr_status csri_mm_parse_lines(csr_context *ctx, csri_source *src, const csri_mm_header *h,
                               const char *text, size_t size, int64_t *line, int64_t entries_before,
                               csri_entries *out) {
  /* The shortest data line: "v\n" (array), "i\n" or "i v\n" (vector), "i j\n" or "i j v\n". */
  int64_t words = (h->is_array ? 0 : h->is_vector ? 1 : 2) + (h->field != CSR_MM_PATTERN);
  int64_t before = entries_before < 0            ? 0
                   : entries_before < h->entries ? entries_before
                                                 : h->entries;
  csri_line_format f = {csri_source_name(src),
                        "%",
                        out,
                        h->entries - before,
                        before,
                        words > 1 ? 2 * words : 2,
                        h->is_array ? array_begin : NULL,
                        h->is_array ? array_line : coordinate_line,
                        h};
  out->count = 0;
  CSRI_TRY(csri_entries_reserve(ctx, out, 0, f.limit));
  /* All the room at once when the input's size bounds it below the declared count: no growth
   * copies later, and a header that overstates its count cannot claim more than the text holds. */
  int64_t bound = csri_source_text_bound(src);
  int64_t most = (bound + 1) / f.min_line_bytes;
  if (bound >= 0)
    csri_entries_reserve_hint(ctx, out, most < f.limit ? most : f.limit);
  return csri_parse_lines(ctx, &f, src, text, size, line);
}

csr_status csri_mm_read_body(csr_context *ctx, csri_cursor *cur, const csri_mm_header *h,
                             csri_entries *out) {
  int64_t line = cur->line + 1; /* the first line after the size line */
  CSRI_TRY(
      csri_mm_parse_lines(ctx, cur->src, h, cur->p, (size_t)(cur->end - cur->p), &line, 0, out));
  cur->p = cur->end;
  return csri_mm_check_count(ctx, csri_source_name(cur->src), h, out->count, line - 1);
}

csr_status csri_mm_check_count(csr_context *ctx, const char *path, const csri_mm_header *h,
                               int64_t count, int64_t last_line) {
  if (count != h->entries)
    return CSRI_FAIL(
        ctx, CSR_ERR_PARSE, "%s:%lld: expected %lld entries (the size line's count), found %lld",
        path, (long long)(last_line > 0 ? last_line : 1), (long long)h->entries, (long long)count);
  return CSR_SUCCESS;
}
