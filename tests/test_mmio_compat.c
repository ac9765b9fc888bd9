/* SPDX-License-Identifier: BSD-3-Clause */
/* The NIST mmio interface (include/csr_mmio.h): typecode macros and names, the banner and size
 * lines on streams, and every file of ../shared/mmtests (plus a few of ../shared/matrices) read
 * through mm_read_mtx_crd, the stream functions and mm_read_unsymmetric_sparse, compared with
 * csr_read_coo(keep_symmetry = 1) made 1-based; mm_write_mtx_crd read back. Exits 77 (skipped)
 * when ../shared is missing, after the checks that need no file. Temporary files live in a
 * mkdtemp directory under /tmp, removed at the end. */
#define _POSIX_C_SOURCE 200809L /* opendir, mkdtemp */
#include "csr_mmio.h"
#include "testing.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[64];

/* A stream holding text, positioned at its start. */
static FILE *stream(const char *text) {
  FILE *f = tmpfile();
  if (f == NULL) {
    perror("tmpfile");
    exit(1);
  }
  fputs(text, f);
  rewind(f);
  return f;
}

static int banner_of(const char *text, MM_typecode *code) {
  FILE *f = stream(text);
  int r = mm_read_banner(f, code);
  fclose(f);
  return r;
}

/* Sets format a (coordinate, array), field b (real, integer, pattern, complex) and symmetry c
 * (general, symmetric, skew, hermitian) through the setter macros. */
static void set_typecode(MM_typecode *t, int a, int b, int c) {
  if (a)
    mm_set_array(t);
  else
    mm_set_coordinate(t);
  switch (b) {
  case 0: mm_set_real(t); break;
  case 1: mm_set_integer(t); break;
  case 2: mm_set_pattern(t); break;
  default: mm_set_complex(t); break;
  }
  switch (c) {
  case 0: mm_set_general(t); break;
  case 1: mm_set_symmetric(t); break;
  case 2: mm_set_skew(t); break;
  default: mm_set_hermitian(t); break;
  }
  if (a == 0) { /* the synonyms set the same letters */
    MM_typecode u;
    memcpy(u, *t, 4);
    mm_set_sparse(&u);
    CHECK(memcmp(u, *t, 4) == 0);
  } else {
    MM_typecode u;
    memcpy(u, *t, 4);
    mm_set_dense(&u);
    CHECK(memcmp(u, *t, 4) == 0);
  }
}

static void test_typecodes(void) {
  static const char formats[] = "CA", fields[] = "RIPC", symmetries[] = "GSKH";
  MM_typecode t;
  mm_initialize_typecode(&t);
  CHECK(memcmp(t, "   G", 4) == 0 && mm_is_general(t) && !mm_is_matrix(t));
  CHECK(mm_typecode_to_str(t) == NULL && !mm_is_valid(t));
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 4; b++)
      for (int c = 0; c < 4; c++) {
        mm_clear_typecode(&t);
        mm_set_matrix(&t);
        set_typecode(&t, a, b, c);
        CHECK(t[0] == 'M' && t[1] == formats[a] && t[2] == fields[b] && t[3] == symmetries[c]);
        CHECK(mm_is_matrix(t) && mm_is_sparse(t) == !a && mm_is_coordinate(t) == !a);
        CHECK(mm_is_dense(t) == a && mm_is_array(t) == a);
        CHECK(mm_is_real(t) == (b == 0) && mm_is_integer(t) == (b == 1));
        CHECK(mm_is_pattern(t) == (b == 2) && mm_is_complex(t) == (b == 3));
        CHECK(mm_is_general(t) == (c == 0) && mm_is_symmetric(t) == (c == 1));
        CHECK(mm_is_skew(t) == (c == 2) && mm_is_hermitian(t) == (c == 3));
        int nist_valid = !(a && b == 2) && !(b == 0 && c == 3) && !(b == 2 && c >= 2);
        CHECK(mm_is_valid(t) == nist_valid);
        /* name, banner written, banner read back: the same typecode (or the same refusal) */
        char *name = mm_typecode_to_str(t);
        CHECK(name != NULL);
        FILE *f = tmpfile();
        CHECK(f && mm_write_banner(f, t) == 0);
        rewind(f);
        char line[128] = "";
        CHECK(fgets(line, sizeof line, f) != NULL);
        char want[128];
        snprintf(want, sizeof want, "%%%%MatrixMarket %s\n", name ? name : "");
        CHECK(strcmp(line, want) == 0);
        rewind(f);
        MM_typecode back;
        int pattern_bad = b == 2 && (a || c >= 2); /* libcsr refuses these combinations */
        CHECK(mm_read_banner(f, &back) == (pattern_bad ? MM_UNSUPPORTED_TYPE : 0));
        CHECK(memcmp(back, t, 4) == 0);
        fclose(f);
        free(name);
      }
  memcpy(t, "MCRG", 4);
  char *s = mm_typecode_to_str(t);
  CHECK(s && strcmp(s, "matrix coordinate real general") == 0);
  free(s);
  memcpy(t, "MAIK", 4);
  s = mm_typecode_to_str(t);
  CHECK(s && strcmp(s, "matrix array integer skew-symmetric") == 0);
  free(s);
  memcpy(t, "MCXG", 4);
  CHECK(mm_typecode_to_str(t) == NULL && csr_mmio_last_error()[0] != '\0');
  CHECK(strcmp(MatrixMarketBanner, "%%MatrixMarket") == 0 && MM_PREMATURE_EOF == 12);
  CHECK(strcmp(MM_SKEW_STR, "skew-symmetric") == 0 && MM_COULD_NOT_WRITE_FILE == 17);
}

static void test_banners(void) {
  MM_typecode t;
  CHECK(banner_of("%%matrixmarket MATRIX Coordinate Double Symmetric\n", &t) == 0);
  CHECK(memcmp(t, "MCRS", 4) == 0);
  CHECK(banner_of("\n  \n  %MatrixMarket matrix array integer general\r\n", &t) == 0);
  CHECK(memcmp(t, "MAIG", 4) == 0);
  CHECK(banner_of("%%MatrixMarket\tmatrix coordinate complex hermitian", &t) == 0);
  CHECK(memcmp(t, "MCCH", 4) == 0);
  CHECK(banner_of("", &t) == MM_PREMATURE_EOF);
  CHECK(banner_of("%%MatrixMarket matrix coordinate real\n", &t) == MM_PREMATURE_EOF);
  CHECK(banner_of("%%MatrixMarket matrix coordinate real general x\n", &t) == MM_UNSUPPORTED_TYPE);
  CHECK(banner_of("%%MatrixMarket vector coordinate real general\n", &t) == MM_UNSUPPORTED_TYPE);
  CHECK(!mm_is_matrix(t));
  CHECK(banner_of("%%MatrixMarket matrix coordinate real unsymmetric\n", &t) ==
        MM_UNSUPPORTED_TYPE);
  CHECK(banner_of("%%MatrixMarket matrix array pattern general\n", &t) == MM_UNSUPPORTED_TYPE);
  CHECK(banner_of("%%MatrixMarketX matrix coordinate real general\n", &t) == MM_NO_HEADER);
  CHECK(banner_of("1 2 3\n", &t) == MM_NO_HEADER && csr_mmio_last_error()[0] != '\0');
  char long_line[2100];
  memset(long_line, ' ', sizeof long_line);
  memcpy(long_line, "%%MatrixMarket matrix coordinate real general", 45);
  long_line[sizeof long_line - 1] = '\0';
  CHECK(banner_of(long_line, &t) == MM_LINE_TOO_LONG);
}

/* Banner, size and entries read in turn, the caller's fscanf between: the stream must sit where
 * NIST's functions leave it. */
static void test_stream_interleave(void) {
  const char *text = "%%MatrixMarket matrix coordinate real general\n% a comment\n\n"
                     "  3 4 3 \r\n1 1 0.5\n% between\n2 4 -1e-300\n3 2 7\n";
  MM_typecode t;
  int M = 0, N = 0, nz = 0, I[3], J[3];
  double v[3];
  FILE *f = stream(text);
  CHECK(mm_read_banner(f, &t) == 0 && mm_read_mtx_crd_size(f, &M, &N, &nz) == 0);
  CHECK(M == 3 && N == 4 && nz == 3);
  CHECK(fscanf(f, "%d %d %lg", &I[0], &J[0], &v[0]) == 3 && I[0] == 1 && J[0] == 1 && v[0] == 0.5);
  CHECK(mm_read_mtx_crd_entry(f, &I[1], &J[1], &v[1], NULL, t) == 0); /* rest of line 1 */
  CHECK(I[1] == 2 && J[1] == 4 && v[1] == -1e-300);
  CHECK(mm_read_mtx_crd_entry(f, &I[2], &J[2], &v[2], NULL, t) == 0 && I[2] == 3 && v[2] == 7);
  CHECK(mm_read_mtx_crd_entry(f, &I[2], &J[2], &v[2], NULL, t) == MM_PREMATURE_EOF);
  fclose(f);
  f = stream(text); /* the same with mm_read_mtx_crd_data */
  CHECK(mm_read_banner(f, &t) == 0 && mm_read_mtx_crd_size(f, &M, &N, &nz) == 0);
  CHECK(mm_read_mtx_crd_data(f, M, N, nz, I, J, v, t) == 0);
  CHECK(I[0] == 1 && J[1] == 4 && v[1] == -1e-300 && I[2] == 3 && J[2] == 2 && v[2] == 7);
  fclose(f);
  f = stream("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n");
  CHECK(mm_read_banner(f, &t) == 0 && mm_read_mtx_crd_size(f, &M, &N, &nz) == 0);
  CHECK(mm_read_mtx_crd_data(f, M, N, nz, I, J, v, t) == MM_PREMATURE_EOF); /* 1 of 2 */
  CHECK(strstr(csr_mmio_last_error(), "expected 2 entries") != NULL);
  fclose(f);
  f = stream("%%MatrixMarket matrix array real general\n%\n 2 3\n1\n");
  CHECK(mm_read_banner(f, &t) == 0 && mm_read_mtx_array_size(f, &M, &N) == 0);
  CHECK(M == 2 && N == 3 && fscanf(f, "%lg", &v[0]) == 1 && v[0] == 1);
  CHECK(mm_read_mtx_crd_data(f, M, N, 0, I, J, v, t) == MM_UNSUPPORTED_TYPE);
  fclose(f);
  static const char *const bad_sizes[] = {"",         "% only\n", "1 2\n",   "1 2 3 4\n",
                                          "1 -2 3\n", "1 2 x\n",  "1 2 3x\n"};
  for (size_t k = 0; k < sizeof bad_sizes / sizeof *bad_sizes; k++) {
    f = stream(bad_sizes[k]);
    CHECK(mm_read_mtx_crd_size(f, &M, &N, &nz) == MM_PREMATURE_EOF && M == 0 && nz == 0);
    fclose(f);
  }
  f = stream("1 2 2147483648\n");
  CHECK(mm_read_mtx_crd_size(f, &M, &N, &nz) == MM_UNSUPPORTED_TYPE);
  fclose(f);
  memcpy(t, "MCCG", 4); /* complex: unsupported */
  f = stream("1 1 1 0\n");
  CHECK(mm_read_mtx_crd_entry(f, &I[0], &J[0], &v[0], &v[1], t) == MM_UNSUPPORTED_TYPE);
  CHECK(mm_read_mtx_crd_data(f, 1, 1, 1, I, J, v, t) == MM_UNSUPPORTED_TYPE);
  fclose(f);
  /* size lines written */
  f = tmpfile();
  CHECK(mm_write_mtx_crd_size(f, 3, 4, 5) == 0 && mm_write_mtx_array_size(f, 6, 7) == 0);
  rewind(f);
  char buf[64] = "";
  CHECK(fread(buf, 1, sizeof buf - 1, f) == 10 && strcmp(buf, "3 4 5\n6 7\n") == 0);
  fclose(f);
}

/* The triples of T (0-based) equal I, J (base-based) and val (NULL for pattern), bit for bit. */
static int same_entries(const csr_coo *T, int base, int M, int N, int nz, const int *I,
                        const int *J, const double *val) {
  if (T->rows != M || T->cols != N || T->nnz != nz || (T->value_type == CSR_PATTERN) != !val)
    return 0;
  for (int k = 0; k < nz; k++)
    if (T->row_indices[k] + base != I[k] || T->col_indices[k] + base != J[k] ||
        (val && memcmp(&((const double *)T->values)[k], &val[k], sizeof(double)) != 0))
      return 0;
  return 1;
}

static csr_status read_ref(const char *path, csr_coo **T, csr_file_info *info) {
  csr_read_options o;
  csr_read_options_init(&o);
  o.format = CSR_FORMAT_MATRIX_MARKET;
  o.keep_symmetry = 1;
  return csr_read_coo(NULL, path, &o, T, info);
}

/* Writes with mm_write_mtx_crd, reads back with mm_read_mtx_crd and csr_read_coo. */
static void write_read(const char *name, const char *code, int M, int N, int nz, int *I, int *J,
                       double *val) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  MM_typecode t, back;
  memcpy(t, code, 4);
  CHECK(mm_write_mtx_crd(path, M, N, nz, I, J, val, t) == 0);
  int M2 = -1, N2 = -1, nz2 = -1, *I2 = NULL, *J2 = NULL;
  double *val2 = NULL;
  int r = mm_read_mtx_crd(path, &M2, &N2, &nz2, &I2, &J2, &val2, &back);
  int nist_valid = !(code[2] == 'R' && code[3] == 'H');
  CHECK(r == (nist_valid ? 0 : MM_UNSUPPORTED_TYPE));
  csr_coo *T = NULL;
  csr_file_info info;
  CHECK_OK(NULL, read_ref(path, &T, &info));
  if (T) {
    CHECK(same_entries(T, 1, M, N, nz, I, J, mm_is_pattern(t) ? NULL : val));
    CHECK(info.field == (code[2] == 'R'   ? CSR_MM_REAL
                         : code[2] == 'I' ? CSR_MM_INTEGER
                                          : CSR_MM_PATTERN));
  }
  if (r == 0) {
    CHECK(memcmp(back, t, 4) == 0 && M2 == M && N2 == N && nz2 == nz && I2 && J2);
    CHECK(T && same_entries(T, 1, M2, N2, nz2, I2, J2, val2));
  }
  free(I2), free(J2), free(val2);
  csr_coo_free(&T);
  unlink(path);
}

static void test_write(void) {
  int I[] = {1, 3, 2, 3, 2}, J[] = {1, 1, 2, 3, 1};
  double val[] = {0.1, 1.0 / 3, -1e-300, 5e-324, 1.7976931348623157e308};
  write_read("general.mtx", "MCRG", 3, 4, 5, I, J, val);
  write_read("general.mtx.gz", "MCRG", 3, 4, 5, I, J, val);
  write_read("symmetric.mtx", "MCRS", 3, 3, 5, I, J, val);
  write_read("hermitian.mtx", "MCRH", 3, 3, 5, I, J, val); /* NIST: invalid; libcsr reads it */
  write_read("pattern.mtx", "MCPS", 3, 3, 5, I, J, NULL);
  double none[1] = {0};
  write_read("empty.mtx", "MCRG", 0, 0, 0, NULL, NULL, none);
  double ints[] = {1, -2, 3e15, 0, 7};
  write_read("integer.mtx", "MCIG", 3, 3, 5, I, J, ints);
  int SI[] = {2, 3, 3}, SJ[] = {1, 1, 2};
  write_read("skew.mtx", "MCRK", 3, 3, 3, SI, SJ, val);
  /* refusals */
  char path[128];
  snprintf(path, sizeof path, "%s/refused.mtx", tmpdir);
  MM_typecode t;
  memcpy(t, "MCCG", 4);
  CHECK(mm_write_mtx_crd(path, 3, 4, 5, I, J, val, t) == MM_UNSUPPORTED_TYPE);
  memcpy(t, "MARG", 4);
  CHECK(mm_write_mtx_crd(path, 3, 4, 5, I, J, val, t) == MM_UNSUPPORTED_TYPE);
  memcpy(t, "MCRG", 4);
  CHECK(mm_write_mtx_crd(path, 2, 4, 5, I, J, val, t) == MM_UNSUPPORTED_TYPE); /* I = 3 > M */
  CHECK(strstr(csr_mmio_last_error(), "outside") != NULL);
  memcpy(t, "MCRS", 4);
  CHECK(mm_write_mtx_crd(path, 3, 4, 5, I, J, val, t) == MM_UNSUPPORTED_TYPE); /* not square */
  memcpy(t, "MCRK", 4);
  CHECK(mm_write_mtx_crd(path, 3, 3, 5, I, J, val, t) == MM_UNSUPPORTED_TYPE); /* a_11 = 0.1 */
  memcpy(t, "MCIG", 4);
  CHECK(mm_write_mtx_crd(path, 3, 3, 5, I, J, val, t) == MM_UNSUPPORTED_TYPE); /* 0.1 */
  memcpy(t, "MCRG", 4);
  char missing[160];
  snprintf(missing, sizeof missing, "%s/no/such/dir.mtx", tmpdir);
  CHECK(mm_write_mtx_crd(missing, 3, 4, 5, I, J, val, t) == MM_COULD_NOT_WRITE_FILE);
  struct stat st;
  CHECK(stat(path, &st) != 0); /* nothing written by a refusal */
  /* mm_read_unsymmetric_sparse: 0-based; real only */
  snprintf(path, sizeof path, "%s/unsym.mtx", tmpdir);
  CHECK(mm_write_mtx_crd(path, 3, 4, 5, I, J, val, t) == 0);
  int M = 0, N = 0, nz = 0, *I0 = NULL, *J0 = NULL;
  double *v0 = NULL;
  CHECK(mm_read_unsymmetric_sparse(path, &M, &N, &nz, &v0, &I0, &J0) == 0);
  CHECK(M == 3 && N == 4 && nz == 5 && I0 && J0 && v0);
  for (int k = 0; I0 && J0 && v0 && k < 5; k++)
    CHECK(I0[k] == I[k] - 1 && J0[k] == J[k] - 1 && v0[k] == val[k]);
  free(I0), free(J0), free(v0);
  memcpy(t, "MCPG", 4);
  CHECK(mm_write_mtx_crd(path, 3, 4, 5, I, J, NULL, t) == 0);
  CHECK(mm_read_unsymmetric_sparse(path, &M, &N, &nz, &v0, &I0, &J0) == -1);
  unlink(path);
  CHECK(mm_read_unsymmetric_sparse(path, &M, &N, &nz, &v0, &I0, &J0) == -1); /* missing */
  int *Ix, *Jx;
  double *vx;
  CHECK(mm_read_mtx_crd(path, &M, &N, &nz, &Ix, &Jx, &vx, &t) == MM_COULD_NOT_READ_FILE);
}

/* Reads path with mm_read_banner / mm_read_mtx_crd_size / mm_read_mtx_crd_data (and, when that
 * works, again with mm_read_mtx_crd_entry); 1 if it worked and matched T. */
static int read_stream(const char *path, const csr_coo *T) {
  FILE *f = fopen(path, "rb");
  MM_typecode t;
  int M = 0, N = 0, nz = 0, ok = 0;
  if (f == NULL || mm_read_banner(f, &t) != 0 || !mm_is_sparse(t) || mm_is_complex(t) ||
      mm_read_mtx_crd_size(f, &M, &N, &nz) != 0 || nz > (1 << 24)) {
    if (f)
      fclose(f);
    return 0;
  }
  int *I = malloc(((size_t)nz + 1) * sizeof(int)), *J = malloc(((size_t)nz + 1) * sizeof(int));
  double *val = malloc(((size_t)nz + 1) * sizeof(double));
  if (I && J && val &&
      mm_read_mtx_crd_data(f, M, N, nz, I, J, mm_is_pattern(t) ? NULL : val, t) == 0) {
    CHECK(T && same_entries(T, 1, M, N, nz, I, J, mm_is_pattern(t) ? NULL : val));
    ok = 1;
    rewind(f); /* entry by entry */
    CHECK(mm_read_banner(f, &t) == 0 && mm_read_mtx_crd_size(f, &M, &N, &nz) == 0);
    for (int k = 0; k < nz; k++) {
      int i = 0, j = 0;
      double v = 0;
      CHECK(mm_read_mtx_crd_entry(f, &i, &j, &v, NULL, t) == 0 && i == I[k] && j == J[k]);
      CHECK(mm_is_pattern(t) || memcmp(&v, &val[k], sizeof v) == 0);
    }
    int i, j;
    double v;
    CHECK(mm_read_mtx_crd_entry(f, &i, &j, &v, NULL, t) == MM_PREMATURE_EOF);
  }
  free(I), free(J), free(val);
  fclose(f);
  return ok;
}

static long files_read, files_refused;

/* One file through every reading path of the interface, against csr_read_coo. */
static void check_file(const char *path) {
  csr_coo *T = NULL;
  csr_file_info info;
  csr_status s = read_ref(path, &T, &info);
  int M = -1, N = -1, nz = -1, *I = NULL, *J = NULL;
  double *val = NULL;
  MM_typecode t;
  int r = mm_read_mtx_crd((char *)path, &M, &N, &nz, &I, &J, &val, &t);
  int coordinate = s == CSR_SUCCESS && !info.is_array && !info.is_vector;
  int expect = coordinate && !(mm_is_real(t) && mm_is_hermitian(t)); /* NIST: invalid */
  char what[400];
  snprintf(what, sizeof what, "%s: csr_read_coo %s, mm_read_mtx_crd %d (%s)", path,
           csr_status_string(s), r, csr_mmio_last_error());
  if ((r == 0) != expect || (r != 0 && s == CSR_SUCCESS && r != MM_UNSUPPORTED_TYPE) ||
      (r != 0 && mm_is_complex(t) && r != MM_UNSUPPORTED_TYPE))
    csrt_fail(__FILE__, __LINE__, what);
  csrt_checks++;
  if (r == 0) {
    CHECK(same_entries(T, 1, M, N, nz, I, J, val));
    CHECK(mm_is_matrix(t) && mm_is_sparse(t) && mm_is_real(t) == (info.field == CSR_MM_REAL));
    free(I), free(J), free(val);
    files_read++;
  } else
    files_refused++;
  FILE *f = fopen(path, "rb");
  int gzip = f && getc(f) == 0x1f && getc(f) == 0x8b;
  if (f)
    fclose(f);
  if (!gzip && read_stream(path, T) != coordinate) {
    snprintf(what, sizeof what, "%s: csr_read_coo %s, stream functions disagree (%s)", path,
             csr_status_string(s), csr_mmio_last_error());
    csrt_fail(__FILE__, __LINE__, what);
  }
  r = mm_read_unsymmetric_sparse(path, &M, &N, &nz, &val, &I, &J);
  CHECK((r == 0) == (expect && info.field == CSR_MM_REAL));
  if (r == 0) {
    CHECK(same_entries(T, 0, M, N, nz, I, J, val));
    free(I), free(J), free(val);
  }
  csr_coo_free(&T);
}

static void walk(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char path[1024];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
      walk(path);
    else if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
      check_file(path);
  }
  if (d)
    closedir(d);
}

/* 1 if ../shared/mmtests was there. */
static int test_files(void) {
  struct stat st;
  if (stat("../shared/mmtests", &st) != 0)
    return 0;
  walk("../shared/mmtests");
  static const char *const matrices[] = {
      "1138_bus.mtx",   "karate.mtx",      "west0067.mtx", "plskz362.mtx",   "empty_rows_11x12.mtx",
      "lp_share1b.mtx", "c_hermitian.mtx", "young1c.mtx",  "bcsstk16.mtx.gz"};
  for (size_t k = 0; k < sizeof matrices / sizeof *matrices; k++) {
    char path[256];
    snprintf(path, sizeof path, "../shared/matrices/%s", matrices[k]);
    if (stat(path, &st) == 0)
      check_file(path);
  }
  printf("test_mmio_compat: %ld files read, %ld refused as csr_read_coo and NIST's rules say\n",
         files_read, files_refused);
  return 1;
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/csr_mmio_XXXXXX");
  if (mkdtemp(tmpdir) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  test_typecodes();
  test_banners();
  test_stream_interleave();
  test_write();
  int have_files = test_files();
  rmdir(tmpdir);
  int rc = csrt_finish("test_mmio_compat");
  if (rc == 0 && !have_files) {
    printf("test_mmio_compat: ../shared/mmtests not found: file checks skipped\n");
    return 77;
  }
  return rc;
}
