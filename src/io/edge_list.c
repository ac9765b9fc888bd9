/* SPDX-License-Identifier: BSD-3-Clause */
/* SNAP-style edge list -> entries: "from to [weight]" per line, 0-based ids, '#'/'%' comments. */
#include "io/decimal/mm_number.h"
#include "mm_blocks.h"
#include "mm_lines.h"

#include <string.h>
#include <strings.h>

typedef struct edge_format {
  int columns;        /* 2 or 3, fixed by the first data line */
  int64_t first_line; /* that line, for messages */
} edge_format;

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
  const edge_format *e = f->user;
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

/* What a SNAP header says, "# Nodes: 325729 Edges: 1497134" (line 0 when there is none), and
 * whether a comment before the data calls the graph undirected ("# Undirected graph: ..."). */
typedef struct snap_header {
  int64_t nodes, edges, line;
  int undirected;
} snap_header;

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
static void note_comment(const char *p, const char *end, int64_t line, snap_header *h) {
  p = csri_skip_blanks(p + 1, end);
  const char *q;
  int64_t nodes = 0, edges = 0;
  if (after_word(p, end, "undirected graph"))
    h->undirected = 1;
  else if (h->line == 0 && (q = count_at(after_word(p, end, "nodes:"), end, &nodes)) &&
           count_at(after_word(q, end, "edges:"), end, &edges)) {
    h->nodes = nodes;
    h->edges = edges;
    h->line = line;
  }
}

/* Columns of the first data line in [p, end): 0 if there is none; *lines_before counts the
 * lines before it. The comments before it, the first numbered `line`, go to note_comment. */
static int first_data_columns(const char *p, const char *end, int64_t line, int64_t *lines_before,
                              snap_header *h) {
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

/* The entries against the SNAP header: as many edges as it declares (for an undirected graph,
 * whose files list each edge once or both ways, between that and twice that), and no more
 * distinct node ids than its nodes. SNAP's ids are labels, not always 0 .. nodes - 1 (web-Google
 * has ids up to 916427 for 875713 nodes), so only their number is checked. */
static csr_status check_snap(csr_context *ctx, const char *name, const snap_header *h,
                             const csri_entries *out, int64_t top) {
  int64_t found = out->count, least = h->edges;
  int64_t most = h->undirected ? (h->edges > INT64_MAX / 2 ? INT64_MAX : 2 * h->edges) : h->edges;
  if (found < least || found > most)
    return CSRI_FAIL(ctx, CSR_ERR_PARSE, "%s:%lld: the header declares %lld edges, found %lld%s",
                     name, (long long)h->line, (long long)h->edges, (long long)found,
                     h->undirected ? " (an undirected graph's file lists each edge once or both "
                                     "ways)"
                                   : "");
  if (top < h->nodes)
    return CSR_SUCCESS; /* ids in [0, nodes): no more of them than nodes */
  int64_t distinct = 0;
  CSRI_TRY(distinct_ids(ctx, out, top, &distinct));
  if (distinct > h->nodes)
    return CSRI_FAIL(ctx, CSR_ERR_PARSE,
                     "%s:%lld: the header declares %lld nodes, found %lld distinct node ids (the "
                     "largest %lld)",
                     name, (long long)h->line, (long long)h->nodes, (long long)distinct,
                     (long long)top);
  return CSR_SUCCESS;
}

csr_status csri_edge_list_read(csr_context *ctx, csri_source *src, csri_entries *out, int *weighted,
                               int64_t *max_id) {
  snap_header snap = {0, 0, 0, 0};
  edge_format e = {2, 1};
  const char *text = NULL;
  size_t size = 0;
  int64_t line = 1;
  out->count = 0;
  for (;;) { /* find the first data line: it fixes 2 or 3 columns */
    CSRI_TRY(csri_source_next(ctx, src, line, &text, &size));
    int64_t before = 0;
    e.columns = size > 0 ? first_data_columns(text, text + size, line, &before, &snap) : 2;
    if (size == 0 || e.columns > 0) {
      e.first_line = line + before;
      break;
    }
    line += before; /* a block of comments only */
  }
  *weighted = e.columns == 3;
  out->value_type = *weighted ? out->value_type : CSR_PATTERN;
  csri_line_format f = {csri_source_name(src), "#%", out, INT64_MAX, 4, NULL, edge_line, &e};
  CSRI_TRY(csri_entries_reserve(ctx, out, 0, INT64_MAX));
  /* All the room at once for a plain file ("0 1\n" is the shortest edge); a gzip file's bound
   * is too loose to reserve with no count to cap it, so it grows as it goes. */
  int64_t bound = csri_source_is_gzip(src) ? -1 : csri_source_text_bound(src);
  if (bound >= 0)
    csri_entries_reserve_hint(ctx, out, (bound + 1) / f.min_line_bytes);
  CSRI_TRY(csri_parse_lines(ctx, &f, src, text, size, &line));
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
  return snap.line > 0 ? check_snap(ctx, csri_source_name(src), &snap, out, top) : CSR_SUCCESS;
}
