/* SPDX-License-Identifier: BSD-3-Clause */
/* The byte-range reader (src/io/mm_range.h) against csr_read_coo: P processes are simulated in
 * one, each reading the lines that begin in its byte range, as a distributed caller would (the
 * recipe at the top of mm_range.h). For every plain coordinate file of ../shared/mmtests and
 * ../shared/matrices (under 20 MB) and for files made here (CRLF, lone CR, blank and comment
 * lines in the body, a last line without terminator, edge lists with comments, weights and SNAP
 * headers), cut into P = 1..8 equal shares, at every byte into two ranges (small files) and at
 * random bytes into 3 to 7: the ranges' entries, concatenated, are csr_read_coo's with
 * keep_symmetry = 1, bit for bit, and add up to the size line's count; and for malformed files
 * (a bad token on line 17, an index out of range, a missing value, too many or too few entries, a
 * NUL byte, a column count that changes) the outcome is csr_read_coo's status and message, line
 * number included. gzip and array files are refused as not range-readable, and ../shared is
 * skipped when absent. */
#define _DEFAULT_SOURCE 1
#include "io/mm_range.h"
#include "testing.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static csr_context *ctx;
static char tmpdir[64];
static csrt_rng rng;
static long files_compared, cuttings;

/* --- what a read gives ------------------------------------------------------------------------ */

typedef struct outcome {
  csr_status status;
  char message[600];
  int64_t count, max_id;
  int32_t *rows, *cols;
  void *values; /* NULL for pattern */
  csr_value_type value_type;
} outcome;

static void outcome_free(outcome *o) {
  free(o->rows);
  free(o->cols);
  free(o->values);
  memset(o, 0, sizeof *o);
}

static size_t value_bytes(csr_value_type t) {
  return t == CSR_F64 ? 8 : t == CSR_F32 ? 4 : 0;
}

static void fail_with(outcome *o, csr_status s) {
  o->status = s;
  snprintf(o->message, sizeof o->message, "%s", csr_context_last_error(ctx));
}

/* Appends n entries (arrays of e) to o. */
static void append(outcome *o, const csri_entries *e) {
  size_t vb = value_bytes(o->value_type), n = (size_t)(o->count + e->count);
  o->rows = realloc(o->rows, n * 4 + 4);
  o->cols = realloc(o->cols, n * 4 + 4);
  if (vb)
    o->values = realloc(o->values, n * vb + 8);
  if (!o->rows || !o->cols || (vb && !o->values))
    abort();
  memcpy(o->rows + o->count, e->rows, (size_t)e->count * 4);
  memcpy(o->cols + o->count, e->cols, (size_t)e->count * 4);
  if (vb)
    memcpy((char *)o->values + (size_t)o->count * vb, e->values, (size_t)e->count * vb);
  o->count += e->count;
}

static outcome read_whole(const char *path, csr_value_type type) {
  outcome o;
  memset(&o, 0, sizeof o);
  csr_read_options opt;
  csr_read_options_init(&opt);
  opt.keep_symmetry = 1;
  opt.value_type = type;
  csr_coo *T = NULL;
  csr_file_info info;
  csr_status s = csr_read_coo(ctx, path, &opt, &T, &info);
  if (s != CSR_SUCCESS) {
    fail_with(&o, s);
    return o;
  }
  o.value_type = T->value_type;
  o.max_id = info.format == CSR_FORMAT_EDGE_LIST ? info.rows - 1 : -1;
  csri_entries e = {T->row_indices, T->col_indices, T->values, T->value_type, T->nnz, T->nnz};
  append(&o, &e);
  csr_coo_free(&T);
  return o;
}

/* The ranges [cuts[r], cuts[r + 1]) of P, read as P processes would (mm_range.h's recipe). */
static outcome read_ranges(const char *path, const csri_prologue *pro, const int64_t *cuts,
                           int parts) {
  outcome o;
  memset(&o, 0, sizeof o);
  o.value_type = pro->value_type;
  o.max_id = -1;
  int64_t *first_line = malloc(sizeof(int64_t) * (size_t)parts);
  csri_entries *got = calloc((size_t)parts, sizeof *got);
  csr_status *status = calloc((size_t)parts, sizeof *status);
  if (!first_line || !got || !status)
    abort();
  int64_t line_ends = 0;
  for (int r = 0; r < parts; r++) { /* counts, then their exclusive scan */
    int64_t n = -1;
    CHECK_OK(ctx, csri_count_line_ends(ctx, path, cuts[r], cuts[r + 1], &n));
    first_line[r] = pro->body_first_line + line_ends;
    line_ends += n;
  }
  int64_t whole = -1;
  CHECK_OK(ctx, csri_count_line_ends(ctx, path, pro->body_begin, pro->size, &whole));
  EXPECT(whole == line_ends);
  for (int r = 0; r < parts; r++) {
    int64_t max_id = -2;
    status[r] =
        csri_read_range(ctx, path, pro, cuts[r], cuts[r + 1], first_line[r], -1, &got[r], &max_id);
    EXPECT(status[r] != CSR_SUCCESS || got[r].value_type == pro->value_type);
    if (max_id > o.max_id)
      o.max_id = max_id;
  }
  /* The first range that failed, or whose running count passes the size line's. */
  int64_t before = 0, declared = pro->header.entries;
  int mm = pro->format == CSR_FORMAT_MATRIX_MARKET, bad = -1;
  for (int r = 0; r < parts && bad < 0; r++) {
    if (status[r] != CSR_SUCCESS || (mm && before + got[r].count > declared))
      bad = r;
    else
      before += got[r].count;
  }
  if (bad >= 0) { /* the re-read that knows the entries before it gives the file's error */
    csri_entries again;
    int64_t max_id = 0;
    csr_status s = csri_read_range(ctx, path, pro, cuts[bad], cuts[bad + 1], first_line[bad],
                                   before, &again, &max_id);
    EXPECT(s != CSR_SUCCESS);
    fail_with(&o, s);
    csri_entries_free(&again);
  } else {
    for (int r = 0; r < parts; r++)
      append(&o, &got[r]);
    csri_entries all = {o.rows, o.cols, o.values, o.value_type, o.count, o.count};
    csr_status s = csri_range_check_total(ctx, path, pro, o.count, line_ends, o.max_id, &all);
    if (s != CSR_SUCCESS)
      fail_with(&o, s);
    else if (mm)
      EXPECT(o.count == declared);
  }
  for (int r = 0; r < parts; r++)
    csri_entries_free(&got[r]);
  free(first_line);
  free(got);
  free(status);
  return o;
}

/* Same outcome: the same status and message, or the same entries bit for bit. */
static int same(const outcome *a, const outcome *b) {
  if (a->status != b->status)
    return 0;
  if (a->status != CSR_SUCCESS)
    return strcmp(a->message, b->message) == 0;
  size_t vb = value_bytes(a->value_type);
  return a->value_type == b->value_type && a->count == b->count && a->max_id == b->max_id &&
         memcmp(a->rows, b->rows, (size_t)a->count * 4) == 0 &&
         memcmp(a->cols, b->cols, (size_t)a->count * 4) == 0 &&
         (vb == 0 || memcmp(a->values, b->values, (size_t)a->count * vb) == 0);
}

static void compare_cuts(const char *path, const csri_prologue *pro, const outcome *whole,
                         const int64_t *cuts, int parts) {
  outcome o = read_ranges(path, pro, cuts, parts);
  cuttings++;
  if (!same(whole, &o)) {
    char cut_text[200];
    int used = 0;
    for (int r = 1; r < parts && used < 180; r++)
      used +=
          snprintf(cut_text + used, sizeof cut_text - (size_t)used, " %lld", (long long)cuts[r]);
    cut_text[used] = '\0';
    CHECKF(0, "%s cut at%s into %d: %s [%s] %lld entries; csr_read_coo: %s [%s] %lld entries", path,
           cut_text, parts, csr_status_string(o.status), o.message, (long long)o.count,
           csr_status_string(whole->status), whole->message, (long long)whole->count);
  }
  outcome_free(&o);
}

static int compare_int64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Every way of cutting the file this test tries; every_byte: also each cut into two. */
static void check_file(const char *path, csr_value_type type, int every_byte) {
  csr_read_options opt;
  csr_read_options_init(&opt);
  opt.value_type = type;
  csri_prologue pro;
  csr_status s = csri_read_prologue(ctx, path, &opt, &pro);
  outcome whole = read_whole(path, type);
  if (s != CSR_SUCCESS) { /* a header error: csr_read_coo's, word for word */
    outcome o;
    memset(&o, 0, sizeof o);
    fail_with(&o, s);
    CHECKF(same(&whole, &o), "%s: prologue %s [%s]; csr_read_coo %s [%s]", path,
           csr_status_string(o.status), o.message, csr_status_string(whole.status), whole.message);
    outcome_free(&whole);
    return;
  }
  size_t len = strlen(path);
  int gz = len > 3 && strcmp(path + len - 3, ".gz") == 0;
  CHECKF(pro.gzip == gz && pro.range_readable == !(gz || pro.header.is_array),
         "%s: gzip %d, range-readable %d (%s)", path, pro.gzip, pro.range_readable,
         pro.not_range_readable ? pro.not_range_readable : "");
  if (pro.range_readable) {
    files_compared++;
    int64_t cuts[10];
    for (int parts = 1; parts <= 8; parts++) {
      for (int r = 0; r <= parts; r++)
        cuts[r] = csri_range_cut(pro.body_begin, pro.size, parts, r);
      compare_cuts(path, &pro, &whole, cuts, parts);
    }
    for (int trial = 0; trial < 12; trial++) {
      int parts = 3 + (int)csrt_below(&rng, 5);
      cuts[0] = pro.body_begin;
      cuts[parts] = pro.size;
      for (int r = 1; r < parts; r++)
        cuts[r] =
            pro.body_begin + (int64_t)csrt_below(&rng, (uint64_t)(pro.size - pro.body_begin) + 1);
      qsort(cuts + 1, (size_t)parts - 1, sizeof cuts[0], compare_int64);
      compare_cuts(path, &pro, &whole, cuts, parts);
    }
    for (int64_t at = pro.body_begin; every_byte && at <= pro.size; at++) {
      cuts[0] = pro.body_begin;
      cuts[1] = at;
      cuts[2] = pro.size;
      compare_cuts(path, &pro, &whole, cuts, 2);
    }
  }
  outcome_free(&whole);
}

/* --- files made here -------------------------------------------------------------------------- */

static const char *temp_file(const char *name, const char *text) {
  static char path[400];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "wb");
  size_t n = strlen(text);
  CHECKF(f && fwrite(text, 1, n, f) == n && fclose(f) == 0, "cannot write %s", path);
  return path;
}

/* lines joined by eol ("\n", "\r\n", "\r", or "mixed": each in turn), with a final one or not. */
static char *joined(const char *const *lines, int n, const char *eol, int final_eol) {
  static const char *const mixed[] = {"\n", "\r\n", "\r"};
  size_t cap = 64;
  for (int i = 0; i < n; i++)
    cap += strlen(lines[i]) + 2;
  char *text = malloc(cap), *p = text;
  if (!text)
    abort();
  for (int i = 0; i < n; i++) {
    const char *e = strcmp(eol, "mixed") == 0 ? mixed[i % 3] : eol;
    p += sprintf(p, "%s%s", lines[i], i + 1 < n || final_eol ? e : "");
  }
  return text;
}

static void check_made(const char *name, const char *const *lines, int n, const char *eol,
                       int final_eol) {
  char *text = joined(lines, n, eol, final_eol);
  const char *path = temp_file(name, text);
  snprintf(csrt_case, sizeof csrt_case, "%s (%s)", name,
           eol[0] == '\n'  ? "LF"
           : eol[0] == 'm' ? "mixed"
           : eol[1]        ? "CRLF"
                           : "CR");
  check_file(path, CSR_F64, 1);
  if (strstr(name, "valid"))
    check_file(path, CSR_F32, 0);
  CHECK(unlink(path) == 0);
  free(text);
}

/* A general real matrix of 5 x 4 and 20 entries, lines 4 to 23 the data; `bad` replaces line
 * `at` (1-based) when not NULL. Comment and blank lines in the body when `noisy`. */
static void check_general(const char *name, int at, const char *bad, int noisy, int extra) {
  const char *lines[64];
  char data[40][40];
  int n = 0;
  lines[n++] = "%%MatrixMarket matrix coordinate real general";
  lines[n++] = "% made by test_read_range";
  lines[n++] = noisy ? "  5 4 20" : "5 4 20";
  for (int k = 0; k < 20 + extra; k++) {
    if (noisy && k % 7 == 3)
      lines[n++] = k % 2 ? "% a comment in the body" : "   ";
    snprintf(data[k], sizeof data[k], "%d %d %.17g", k % 5 + 1, k % 4 + 1, 0.1 * k - 0.7);
    lines[n++] = data[k];
  }
  if (noisy)
    lines[n++] = "";
  if (at > 0 && at <= n)
    lines[at - 1] = bad;
  static const char *const eols[] = {"\n", "\r\n", "\r", "mixed"};
  for (int e = 0; e < 4; e++)
    for (int final_eol = 0; final_eol < 2; final_eol++)
      check_made(name, lines, n, eols[e], final_eol);
}

static void test_made_matrix_market(void) {
  check_general("valid.mtx", 0, NULL, 0, 0);
  check_general("valid_noisy.mtx", 0, NULL, 1, 0);
  check_general("bad_token_17.mtx", 17, "3 x 1.5", 0, 0);
  check_general("bad_token_17_noisy.mtx", 17, "3 2 1.5x", 1, 0);
  check_general("row_out_of_range.mtx", 9, "6 1 2.0", 0, 0);
  check_general("column_zero.mtx", 12, "1 0 2.0", 0, 0);
  check_general("missing_value.mtx", 20, "2 2", 0, 0);
  check_general("missing_value_last.mtx", 23, "2 2 ", 0, 0);
  check_general("trailing_word.mtx", 5, "2 2 1.0 7", 0, 0);
  check_general("too_many.mtx", 0, NULL, 0, 3);
  check_general("too_many_noisy.mtx", 0, NULL, 1, 1);
  check_general("too_many_and_bad.mtx", 25, "1 1 nan?", 0, 3);
  check_general("too_few.mtx", 10, "% a data line became a comment", 0, 0);
  check_general("too_few_last.mtx", 23, "", 0, 0);
  const char *sym[] = {
      "%%MatrixMarket matrix coordinate pattern symmetric", "3 3 4", "1 1", "2 1", "3 2", "3 3"};
  check_made("valid_symmetric_pattern.mtx", sym, 6, "\r\n", 1);
  const char *skew[] = {"%%MatrixMarket matrix coordinate real skew-symmetric", "3 3 3", "2 1 1.5",
                        "3 3 2.0", "3 1 -1"};
  check_made("skew_diagonal.mtx", skew, 5, "\n", 0);
  const char *integer[] = {"%%MatrixMarket matrix coordinate integer general",
                           "",
                           "%",
                           "2 3 3",
                           "",
                           "1 1 9007199254740993",
                           "2 3 -4",
                           "% end",
                           "1 3 0",
                           ""};
  check_made("valid_integer.mtx", integer, 10, "mixed", 1);
  const char *vector[] = {"%%MatrixMarket vector coordinate real general", "4 2", "1 0.5", "4 -2"};
  check_made("valid_vector.mtx", vector, 4, "\n", 1);
  const char *empty[] = {"%%MatrixMarket matrix coordinate real general", "3 3 0"};
  check_made("valid_empty.mtx", empty, 2, "\n", 0);
  check_made("valid_empty_eol.mtx", empty, 2, "\r", 1);
  const char *array[] = {"%%MatrixMarket matrix array real general", "2 1", "1", "2"};
  check_made("array.mtx", array, 4, "\n", 1);
  const char *header[] = {"%%MatrixMarket matrix coordinate real general", "3 x 3"};
  check_made("bad_size_line.mtx", header, 2, "\n", 1);
}

/* A NUL byte cannot pass through the string helpers: written by hand. */
static void test_nul_byte(void) {
  static const char text[] = "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1\n2 2 "
                             "2\n3 3 \0003\n1 3 4\n";
  char path[400];
  snprintf(path, sizeof path, "%s/nul.mtx", tmpdir);
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(text, 1, sizeof text - 1, f) == sizeof text - 1 && fclose(f) == 0);
  snprintf(csrt_case, sizeof csrt_case, "nul.mtx");
  check_file(path, CSR_F64, 1);
  outcome whole = read_whole(path, CSR_F64);
  CHECKF(whole.status == CSR_ERR_PARSE && strstr(whole.message, "nul.mtx:5: NUL byte"),
         "nul.mtx: %s", whole.message); /* the comparison above compared this message */
  outcome_free(&whole);
  CHECK(unlink(path) == 0);
}

static void test_made_edge_lists(void) {
  const char *plain[] = {"# a directed graph",
                         "# FromNodeId\tToNodeId",
                         "0 1",
                         "1 2",
                         "",
                         "# a comment among the edges",
                         "2 0",
                         "5 3",
                         "% also a comment",
                         "3 4"};
  check_made("valid_edges.txt", plain, 10, "\n", 1);
  check_made("valid_edges_crlf.txt", plain, 10, "\r\n", 0);
  check_made("valid_edges_mixed.el", plain, 10, "mixed", 1);
  const char *weighted[] = {"% weights", "0 1 0.5", "1 2 -1e3", "7 0 2", "2 2 0.25"};
  check_made("valid_weighted.txt", weighted, 5, "\n", 0);
  const char *columns[] = {"0 1 0.5", "1 2 1.5", "2 3", "3 4 1"};
  check_made("columns_change.txt", columns, 4, "\r\n", 1);
  const char *negative[] = {"# x", "0 1", "1 -2", "2 3"};
  check_made("negative_id.txt", negative, 4, "\n", 1);
  const char *bad[] = {"0 1", "1 2", "1 two", "2 3"};
  check_made("bad_id.edges", bad, 4, "\r", 1);
  const char *snap[] = {"# Directed graph: made here", "# Nodes: 4 Edges: 3", "0 1", "1 2", "2 3"};
  check_made("valid_snap.txt", snap, 5, "\n", 1);
  const char *snap_bad[] = {"# Nodes: 4 Edges: 4", "0 1", "1 2", "2 3"};
  check_made("snap_edges.txt", snap_bad, 4, "\n", 1);
  const char *snap_nodes[] = {"# Nodes: 2 Edges: 2", "0 1", "5 9"};
  check_made("snap_nodes.txt", snap_nodes, 3, "\n", 1);
  const char *comments[] = {"# nothing but comments", "", "# still nothing"};
  check_made("valid_no_edges.txt", comments, 3, "\n", 0);
}

/* --- the corpora ------------------------------------------------------------------------------ */

static void walk(const char *dir) {
  DIR *d = opendir(dir);
  if (d == NULL)
    return;
  struct dirent *entry;
  char path[1024];
  while ((entry = readdir(d)) != NULL) {
    if (entry->d_name[0] == '.')
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
    struct stat st;
    if (stat(path, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      walk(path);
      continue;
    }
    size_t n = strlen(path);
    if (n > 3 && strcmp(path + n - 3, ".md") == 0)
      continue;
    if (st.st_size > (20 << 20))
      continue; /* keeps the test quick */
    snprintf(csrt_case, sizeof csrt_case, "%.190s", path);
    check_file(path, CSR_F64, st.st_size <= 3000);
  }
  closedir(d);
}

static void test_corpora(void) {
  struct stat st;
  if (stat("../shared/mmtests", &st) != 0 || stat("../shared/matrices", &st) != 0) {
    printf("../shared is absent: the corpora are skipped\n");
    return;
  }
  long before = files_compared;
  walk("../shared/mmtests");
  walk("../shared/matrices");
  CHECKF(files_compared - before >= 40, "only %ld corpus files were range-readable",
         files_compared - before);
}

/* --- the arithmetic and the refusals ---------------------------------------------------------- */

static void test_cuts_and_refusals(void) {
  const int64_t sizes[][2] = {{0, 0}, {5, 5}, {10, 11}, {3, 1000003}, {7, INT64_MAX}};
  for (int i = 0; i < 5; i++)
    for (int parts = 1; parts <= 9; parts++) {
      int64_t b = sizes[i][0], e = sizes[i][1], length = e - b;
      CHECK(csri_range_cut(b, e, parts, 0) == b && csri_range_cut(b, e, parts, parts) == e);
      for (int r = 0; r < parts; r++) {
        int64_t share = csri_range_cut(b, e, parts, r + 1) - csri_range_cut(b, e, parts, r);
        CHECK(share == length / parts || share == length / parts + 1);
      }
    }
  const char *lines[] = {"%%MatrixMarket matrix coordinate real general", "2 2 1", "1 1 1"};
  char *text = joined(lines, 3, "\n", 1);
  const char *path = temp_file("refusals.mtx", text);
  csri_prologue pro;
  CHECK_OK(ctx, csri_read_prologue(ctx, path, NULL, &pro));
  CHECK(pro.range_readable && pro.body_begin == (int64_t)strlen(text) - 6 &&
        pro.body_first_line == 3 && pro.size == (int64_t)strlen(text));
  csri_entries e;
  int64_t max_id = 0, n = 0;
  CHECK_STATUS(ctx, csri_read_range(ctx, path, &pro, 0, pro.size, 3, -1, &e, &max_id),
               CSR_ERR_INVALID_VALUE); /* begins in the header */
  CHECK_STATUS(ctx,
               csri_read_range(ctx, path, &pro, pro.body_begin, pro.size + 1, 3, -1, &e, &max_id),
               CSR_ERR_INVALID_VALUE);
  CHECK_STATUS(ctx, csri_count_line_ends(ctx, path, 2, 1, &n), CSR_ERR_INVALID_VALUE);
  CHECK(unlink(path) == 0);
  CHECK_STATUS(ctx, csri_read_range(ctx, path, &pro, pro.body_begin, pro.size, 3, -1, &e, &max_id),
               CSR_ERR_IO); /* gone */
  path = /* another file by that name, of another size: refused, not misread */ temp_file(
      "refusals.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n");
  CHECK_STATUS(ctx, csri_read_range(ctx, path, &pro, pro.body_begin, pro.size, 3, -1, &e, &max_id),
               CSR_ERR_IO);
  CHECK(unlink(path) == 0);
  free(text);
  CHECK_OK(ctx, csri_read_prologue(ctx, "-", NULL, &pro));
  CHECK(!pro.range_readable && pro.not_range_readable != NULL);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/csr_read_range_XXXXXX");
  if (mkdtemp(tmpdir) == NULL) {
    fprintf(stderr, "cannot create a directory under /tmp\n");
    return 1;
  }
  rng.state = csrt_seed("test_read_range");
  ctx = csrt_context(CSR_BACKEND_AUTO);
  test_cuts_and_refusals();
  test_made_matrix_market();
  test_nul_byte();
  test_made_edge_lists();
  test_corpora();
  printf("%ld files range-read, %ld ways of cutting them compared\n", files_compared, cuttings);
  csr_context_free(&ctx);
  CHECKF(rmdir(tmpdir) == 0, "cannot remove %s (a file left in it?)", tmpdir);
  return csrt_finish("test_read_range");
}
