/* SPDX-License-Identifier: BSD-3-Clause */
/* SNAP-style edge list -> entries: "from to [weight]" per line, 0-based ids, '#'/'%' comments. */
#include "io/decimal/mm_number.h"
#include "mm_blocks.h"
#include "mm_lines.h"

#include <string.h>
#include <strings.h>

static const char *read_id(const csri_line_format *f, csri_piece *pc, int64_t line, const char *p,
                           const char *end, const char *what, int32_t *id) {
  int64_t v = 0;
  int status = 0;
  const char *q = csri_parse_int64(p, end, &v, &status);
  char found[40];
  if (status == CSRI_NUM_SYNTAX || (q < end && !csri_is_blank(*q) && !csri_is_eol(*q))) {
    csri_describe_token(p, end, found, sizeof found);
    return csri_piece_fail(f, pc, CSR_ERR_PARSE, line,
                           "expected a %s node id (an integer), found %s", what, found);
  }
  if (v < 0)
    return csri_piece_fail(f, pc, CSR_ERR_PARSE, line, "%s node id %lld is negative", what,
                           (long long)v);
  if (status != 0 || v >= CSR_MAX_DIM)
    return csri_piece_fail(f, pc, CSR_ERR_OVERFLOW, line,
                           "%s node id %.*s is beyond libcsr's limit of %lld nodes", what,
                           (int)(q - p < 30 ? q - p : 30), p, (long long)CSR_MAX_DIM);
  *id = (int32_t)v;
  return csri_skip_blanks(q, end);
}

static const char *edge_line(const csri_line_format *f, csri_piece *pc, int64_t line, const char *p,
                             const char *end, int64_t k) {
  const csri_edge_head *e = f->user;
  int32_t from = 0, to = 0;
  if (!(p = read_id(f, pc, line, p, end, "source", &from)))
    return NULL;
  if (p == end || csri_is_eol(*p))
    return csri_piece_fail(f, pc, CSR_ERR_PARSE, line,
                           "expected a target node id, found the end of the line");
  if (!(p = read_id(f, pc, line, p, end, "target", &to)))
    return NULL;
  int has_weight = p < end && !csri_is_eol(*p);
  if (has_weight != (e->columns == 3))
    return csri_piece_fail(f, pc, CSR_ERR_PARSE, line,
                           "expected %d columns as on line %lld, found %d", e->columns,
                           (long long)e->first_line, has_weight ? 3 : 2);
  if (has_weight) {
    double w = 0;
    int status = 0;
    const char *q = csri_parse_double(p, end, &w, &status);
    char found[40];
    csri_describe_token(p, end, found, sizeof found);
    if (status == CSRI_NUM_SYNTAX || (q < end && !csri_is_blank(*q) && !csri_is_eol(*q)))
      return csri_piece_fail(f, pc, CSR_ERR_PARSE, line, "expected a weight, found %s", found);
    if (status == CSRI_NUM_OUT_OF_RANGE)
      return csri_piece_fail(f, pc, CSR_ERR_OVERFLOW, line, "weight %s does not fit a double",
                             found);
    if (f->out->value_type == CSR_F64)
      ((double *)f->out->values)[k] = w;
    else
      ((float *)f->out->values)[k] = (float)w;
    p = csri_skip_blanks(q, end);
    if (p < end && !csri_is_eol(*p)) {
      csri_describe_token(p, end, found, sizeof found);
      return csri_piece_fail(f, pc, CSR_ERR_PARSE, line, "expected the end of the line, found %s",
                             found);
    }
  }
  f->out->rows[k] = from;
  f->out->cols[k] = to;
  return p;
}

/* p after "word" and the blanks after it, or NULL. */
static const char *after_word(const char *p, const char *end, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(end - p) < n || strncasecmp(p, word, n) != 0)
    return NULL;
  return csri_skip_blanks(p + n, end);
}

/* A non-negative integer at p, and p past it and the blanks after it (NULL if there is none). */
static const char *count_at(const char *p, const char *end, int64_t *v) {
  int status = 0;
  const char *q = p && p < end && *p != '-' && *p != '+' ? csri_parse_int64(p, end, v, &status) : 0;
  if (q == NULL || status != 0 || (q < end && !csri_is_blank(*q) && !csri_is_eol(*q)))
    return NULL;
  return csri_skip_blanks(q, end);
}

/* The comment line at p (its first character) numbered `line`: notes a SNAP header in it. */
static void note_comment(const char *p, const char *end, int64_t line, csri_edge_head *h) {
  p = csri_skip_blanks(p + 1, end);
  const char *q;
  int64_t nodes = 0, edges = 0;
  if (after_word(p, end, "undirected graph"))
    h->snap_undirected = 1;
  else if (h->snap_line == 0 && (q = count_at(after_word(p, end, "nodes:"), end, &nodes)) &&
           count_at(after_word(q, end, "edges:"), end, &edges)) {
    h->snap_nodes = nodes;
    h->snap_edges = edges;
    h->snap_line = line;
  }
}

/* Columns of the first data line in [p, end): 0 if there is none; *lines_before counts the
 * lines before it. The comments before it, the first numbered `line`, go to note_comment. */
static int first_data_columns(const char *p, const char *end, int64_t line, int64_t *lines_before,
                              csri_edge_head *h) {
  for (*lines_before = 0; p < end; ++*lines_before) {
    p = csri_skip_blanks(p, end);
    if (p < end && (*p == '#' || *p == '%'))
      note_comment(p, csri_line_end(p, end), line + *lines_before, h);
    if (p < end && !csri_is_eol(*p) && *p != '#' && *p != '%') {
      int words = 0;
      while (p < end && !csri_is_eol(*p)) {
        words++;
        while (p < end && !csri_is_blank(*p) && !csri_is_eol(*p))
          p++;
        p = csri_skip_blanks(p, end);
      }
      return words >= 3 ? 3 : 2; /* more than 3 is reported by the line parser */
    }
    p = csri_next_line(csri_line_end(p, end), end);
  }
  return 0;
}

/* Distinct ids among the entries' rows and columns, all in [0, top]. */
static csr_status distinct_ids(csr_context *ctx, const csri_entries *out, int64_t top,
                               int64_t *distinct) {
  uint64_t *seen = NULL;
  CSRI_TRY(
      csri_array_alloc(ctx, (void **)&seen, top / 64 + 1, sizeof *seen, CSR_HOST, CSRI_ARRAY_ZERO));
  int64_t n = 0;
  for (int64_t k = 0; k < 2 * out->count; k++) {
    int32_t id = k < out->count ? out->rows[k] : out->cols[k - out->count];
    uint64_t bit = (uint64_t)1 << (id % 64);
    n += (seen[id / 64] & bit) == 0;
    seen[id / 64] |= bit;
  }
  csri_free(seen);
  *distinct = n;
  return CSR_SUCCESS;
}

csr_status csri_edge_list_check_snap(csr_context *ctx, const char *name, const csri_edge_head *h,
                                     int64_t found, int64_t top, const csri_entries *all) {
  if (h->snap_line == 0)
    return CSR_SUCCESS;
  int64_t least = h->snap_edges;
  int64_t most = h->snap_undirected
                     ? (h->snap_edges > INT64_MAX / 2 ? INT64_MAX : 2 * h->snap_edges)
                     : h->snap_edges;
  if (found < least || found > most)
    return CSRI_FAIL(ctx, CSR_ERR_PARSE, "%s:%lld: the header declares %lld edges, found %lld%s",
                     name, (long long)h->snap_line, (long long)h->snap_edges, (long long)found,
                     h->snap_undirected ? " (an undirected graph's file lists each edge once or "
                                          "both ways)"
                                        : "");
  if (top < h->snap_nodes || all == NULL)
    return CSR_SUCCESS; /* ids in [0, nodes): no more of them than nodes */
  int64_t distinct = 0;
  CSRI_TRY(distinct_ids(ctx, all, top, &distinct));
  if (distinct > h->snap_nodes)
    return CSRI_FAIL(ctx, CSR_ERR_PARSE,
                     "%s:%lld: the header declares %lld nodes, found %lld distinct node ids (the "
                     "largest %lld)",
                     name, (long long)h->snap_line, (long long)h->snap_nodes, (long long)distinct,
                     (long long)top);
  return CSR_SUCCESS;
}

csr_status csri_edge_list_head(csr_context *ctx, csri_source *src, csri_edge_head *head,
                               const char **text, size_t *size, int64_t *line) {
  memset(head, 0, sizeof *head);
  *line = 1;
  for (;;) { /* find the first data line: it fixes 2 or 3 columns */
    CSRI_TRY(csri_source_next(ctx, src, *line, text, size));
    int64_t before = 0;
    head->columns = *size > 0 ? first_data_columns(*text, *text + *size, *line, &before, head) : 2;
    if (*size == 0 || head->columns > 0) {
      head->first_line = *line + before;
      return CSR_SUCCESS;
    }
    *line += before; /* a block of comments only */
  }
}

csr_status csri_edge_list_parse(csr_context *ctx, csri_source *src, const csri_edge_head *head,
                                const char *text, size_t size, int64_t *line, csri_entries *out,
                                int64_t *max_id) {
  out->count = 0;
  if (head->columns != 3)
    out->value_type = CSR_PATTERN;
  csri_line_format f = {csri_source_name(src), "#%", out, INT64_MAX, 0, 4, NULL, edge_line, head};
  CSRI_TRY(csri_entries_reserve(ctx, out, 0, INT64_MAX));
  /* All the room at once for a plain file ("0 1\n" is the shortest edge); a gzip file's bound
   * is too loose to reserve with no count to cap it, so it grows as it goes. */
  int64_t bound = csri_source_is_gzip(src) ? -1 : csri_source_text_bound(src);
  if (bound >= 0)
    csri_entries_reserve_hint(ctx, out, (bound + 1) / f.min_line_bytes);
  CSRI_TRY(csri_parse_lines(ctx, &f, src, text, size, line));
  int64_t top = -1;
  const int32_t *r = out->rows, *c = out->cols;
  int threads = csri_host_threads(ctx);
  (void)threads; /* used by the OpenMP pragma only */
#pragma omp parallel for reduction(max : top) num_threads(threads) if (out->count > 100000)
  for (int64_t k = 0; k < out->count; k++) {
    int64_t m = r[k] > c[k] ? r[k] : c[k];
    top = m > top ? m : top;
  }
  *max_id = top;
  return CSR_SUCCESS;
}

csr_status csri_edge_list_read(csr_context *ctx, csri_source *src, csri_entries *out, int *weighted,
                               int64_t *max_id) {
  csri_edge_head head;
  const char *text = NULL;
  size_t size = 0;
  int64_t line = 1;
  out->count = 0;
  CSRI_TRY(csri_edge_list_head(ctx, src, &head, &text, &size, &line));
  *weighted = head.columns == 3;
  CSRI_TRY(csri_edge_list_parse(ctx, src, &head, text, size, &line, out, max_id));
  return csri_edge_list_check_snap(ctx, csri_source_name(src), &head, out->count, *max_id, out);
}
