/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the apps (mminfo, mmconvert, spmv): exit codes, option parsing, reading a
 * matrix with a progress line, timing, the copy-bandwidth measurement and a small JSON printer.
 * Compiled into each app; uses only the public header. */
#ifndef CSR_APPS_COMMON_H
#define CSR_APPS_COMMON_H

#include "csr.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The ranks' shares of a distributed run (apps/dist_shares.h, built with MPI only), passed as NULL
 * by the one-process reports. */
struct dist_shares;

/* Exit codes of every app. */
enum {
  APP_OK = 0,        /* success */
  APP_USAGE = 1,     /* bad command line */
  APP_BAD_INPUT = 2, /* unreadable or malformed input, a request the input cannot satisfy */
  APP_RUNTIME = 3    /* out of memory, write failure, backend unavailable, validation failure */
};

/* How every app tells an input file's format (the library's rule, csr_file_format), for --help.
 * A printf format: "%%%%" prints "%%". */
#define APP_INPUT_HELP                                                                             \
  "Input files: one whose first line is the Matrix Market banner (%%%%MatrixMarket ...) is\n"      \
  "Matrix Market whatever its name; otherwise .txt, .el and .edges are edge lists of\n"            \
  "\"from to [weight]\" lines, a .mtx or .mm file without the banner is refused, and any\n"        \
  "other name, standard input (\"-\") included, is read as an edge list. gzip (.gz) is\n"          \
  "recognised by its first bytes.\n"

/* What changes under mpiexec, in the --help of spmv, pagerank and cg (apps/dist.c). */
#define APP_DIST_HELP                                                                              \
  "Under mpiexec -n P (P > 1, libcsr built with MPI; the launcher is told by\n"                    \
  "OMPI_COMM_WORLD_SIZE (Open MPI) or PMI_SIZE (MPICH, Intel MPI, srun --mpi=pmi2) in the\n"       \
  "environment; without them MPI is not started), the P processes share the work through\n"        \
  "libcsr_mpi: they read the file together and each holds a block of rows; --threads is per\n"     \
  "rank (default 1); --backend cuda gives each rank a GPU of its node; times are wall times\n"     \
  "between barriers (the slowest rank's); rank 0 alone prints, and a failure is printed once\n"    \
  "with the same exit code on every rank. The report adds the ranks: each one's first row,\n"      \
  "rows, nonzeros, ghost columns, neighbours, interior rows and seconds spent communicating,\n"    \
  "and the nonzeros' max/mean (--json: ranks, nnz_imbalance, shares: [{rank, first_row,\n"         \
  "rows, nnz, ghosts, neighbours, interior_rows, comm_seconds}...]).\n"

/* The --verbose line of every --help's options. */
#define APP_VERBOSE_HELP                                                                           \
  "  --verbose   on a failure, also the library's status name and source location\n"

/* The exit-code lines every --help ends with. */
#define APP_EXIT_HELP                                                                              \
  "Exit status: 0 success, 1 usage error, 2 bad input (what was wrong and where is printed),\n"    \
  "3 runtime failure. With --json a failure also prints {\"error\": {...}} on stdout.\n"

/* Prints "PROG (libcsr) VERSION" and the build's backends to stdout. */
void app_print_version(const char *prog);

/* --- Reporting failures ----------------------------------------------------------------
 * Every failure an app reports goes through the calls below. On stderr a line for people,
 * "PROG: MESSAGE", the message in the user's terms (the file, the line, what was expected and what
 * was found); the library's status name and source location are added only with --verbose. With
 * --json, also one JSON object on stdout (unless the app already printed its result there), so a
 * script reading the app's JSON always gets an object:
 *   {"error": {"program": "spmv", "message": "...", "exit_code": 2,
 *              "status": "CSR_ERR_PARSE" or null, "source": "src/io/mm_blocks.c:145" or null}}
 */

/* Reads --json and --verbose from argv (up to a "--") before anything can fail; the apps' option
 * parsers accept both. */
void app_report_init(const char *prog, int argc, char **argv);
/* 1 when --verbose was given. */
int app_verbose(void);
/* quiet 1: failures and warnings are recorded but not printed (the ranks other than 0 of a
 * distributed run, whose rank 0 speaks for them). */
void app_report_quiet(int quiet);
/* The exit code of the last failure reported (APP_OK when none) and its message. */
int app_last_failure(const char **message);

/* Reports MESSAGE; returns exit_code. */
int app_fail(int exit_code, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Reports a failed library call: the library's message (csr_context_last_message), preceded by
 * "WHAT: " unless the message already starts with WHAT (a file's errors name the file); returns
 * exit_code. WHAT says in the user's terms what was being done ("x = ones", or the file read). */
int app_fail_status(int exit_code, const char *what, const csr_context *ctx, csr_status status);

/* "PROG: warning: MESSAGE" on stderr; the run goes on. */
void app_warn(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Reports a usage error with a hint to run --help; returns APP_USAGE. */
int app_usage_error(const char *prog, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* If argv[*i] is `name` or `name=VALUE`, stores the value (the text after '=' or the next
 * argument, advancing *i) and returns 1; returns 0 for any other argument and -1 (after printing
 * a usage error) when the value is missing. */
int app_option(const char *prog, int argc, char **argv, int *i, const char *name,
               const char **value);

/* Parses a whole decimal integer in [lo, hi]; 0 on success, -1 otherwise. */
int app_parse_int(const char *text, long long lo, long long hi, long long *value);

/* The backend named auto, ref, omp or cuda (as --backend takes it); 0, or -1 for another name. */
int app_parse_backend(const char *text, csr_backend *backend);
/* --compress auto|on|off into *compress: 0, or -1 for any other text. */
int app_parse_compress(const char *text, csr_compress *compress);
/* Under mpiexec the ranks' local products read plain CSR in the given numbering: APP_OK when
 * --compress and --reorder ask for nothing else (auto, off, none), else the usage error (exit 1,
 * reported as app_fail reports). */
int app_one_process_options(csr_compress compress, csr_reorder_method reorder);

/* Exit code for a failed library call: 3 for out of memory, device and not-compiled errors,
 * 2 for the rest (the input or the request was at fault). */
int app_exit_code(csr_status status);

/* Seconds from a monotonic clock. */
double app_now(void);

/* Median of n values (sorts them in place); 0 for n == 0. */
double app_median(double *values, int n);

/* Names of the file_info enumerations, as Matrix Market writes them. */
const char *app_field_name(csr_mm_field field);
const char *app_symmetry_name(csr_mm_symmetry symmetry);
const char *app_format_name(csr_file_format format);

/* 1 if path names an edge list by the library's rule (.txt, .el, .edges, optionally .gz). */
int app_is_edge_list_path(const char *path);
/* 1 if path ends in s. */
int app_ends_with(const char *path, const char *s);

/* csr_read_csr / csr_read_coo that print "PROG: reading FILE (N MB)..." before and "PROG: read in
 * X s" after on stderr when the file is over 100 MB and stderr is a terminal. *seconds (may be
 * NULL) receives the reading time. */
csr_status app_read_csr(csr_context *ctx, const char *prog, const char *path,
                        const csr_read_options *options, csr_matrix **A, csr_file_info *info,
                        double *seconds);
csr_status app_read_coo(csr_context *ctx, const char *prog, const char *path,
                        const csr_read_options *options, csr_coo **T, csr_file_info *info,
                        double *seconds);

/* --- Putting the matrix where the run needs it -------------------------------------------- */

/* Seconds of each stage of a run. */
typedef struct app_stages {
  int on_device; /* the CSR was built on the GPU */
  double read;   /* the file read: into triples for the GPU; into CSR, assembly included, on the
                    host */
  double upload; /* the triples copied to the GPU */
  double build;  /* the CSR built from them on the GPU (csr_from_coo) */
  const char *prepare_name; /* the app's preparation before its work ("pull graph"), or NULL */
  double prepare;           /* its seconds, set by the app */
  double compute;           /* the app's own work, set by the app */
} app_stages;

/* Where app_load_csr builds the CSR: on the host, on the GPU, or on the GPU when the file holds
 * at least APP_GPU_MIN_ENTRIES entries (the triples are read on the host first either way). */
typedef enum app_build {
  APP_BUILD_HOST = 0,
  APP_BUILD_DEVICE = 1,
  APP_BUILD_DEVICE_IF_LARGE = 2
} app_build;
/* Below this many entries a GPU run does not gain: the upload, the device's set-up and a few
 * microseconds per launch outweigh what the CPU spends on the whole job. */
#define APP_GPU_MIN_ENTRIES 100000

/* Reads path as CSR where the run needs it, timing each stage. On the host: csr_read_csr. On the
 * device (ctx set to the CUDA backend or AUTO): the triples read on the host, copied to the
 * device (the host's copy freed), and the CSR built from them there (the device's triples
 * freed), so the device holds the triples and the CSR at once, never two CSRs. A failure is
 * reported in the user's terms (which stage, how much memory it needed and what the device has);
 * returns APP_OK or the exit code. */
int app_load_csr(csr_context *ctx, const char *prog, const char *path,
                 const csr_read_options *options, app_build where, csr_matrix **A,
                 csr_file_info *info, app_stages *stages);
/* The stages as one line of text, "read 1.234 s, upload 40.1 ms, build 6.2 ms (on the GPU), spmv
 * 41.0 ms" (compute named by `compute`), in buf. */
void app_stages_text(const app_stages *stages, const char *compute, char *buf, size_t size);

/* Size of a file in bytes, -1 if unknown (standard input, stat failure). */
int64_t app_file_size(const char *path);

/* STREAM-like copy b[i] = a[i] over two arrays of `array_bytes` each, on `threads` OpenMP
 * threads (1 without OpenMP): arrays first touched by the same threads, one untimed copy of
 * each variant, then `reps` rounds timing a plain loop and a memcpy per thread. gbs is
 * 2*array_bytes (read + written) / median time of the faster variant. */
typedef struct app_copy_result {
  double gbs;          /* GB/s (1e9 bytes per second) of the faster variant */
  double median_s;     /* its median seconds per copy */
  size_t array_bytes;  /* bytes of each array */
  int threads;         /* threads that copied */
  int reps;            /* timed copies of each variant */
  const char *variant; /* "loop" or "memcpy" */
} app_copy_result;
/* 0 on success; -1 when the arrays cannot be allocated. */
int app_copy_bandwidth(size_t array_bytes, int threads, int reps, app_copy_result *result);

/* Why the GPU cannot run here ("this libcsr was built without CUDA", "no CUDA device is present"),
 * or NULL when it can. */
const char *app_cuda_missing(void);

/* Threads an OpenMP region gets for a requested count (0: the OpenMP default); 1 without OpenMP. */
int app_omp_threads(int requested);

/* A JSON printer: one object, nested objects and arrays, keys in order. Non-finite numbers are
 * printed as null (JSON has no inf or nan). */
typedef struct app_json {
  FILE *out;
  int depth;
  int count[16]; /* members printed so far at each depth */
} app_json;
void app_json_begin(app_json *j, FILE *out);
void app_json_end(app_json *j);
/* key is NULL inside arrays. */
void app_json_open(app_json *j, const char *key, char bracket); /* '{' or '[' */
void app_json_close(app_json *j, char bracket);                 /* '}' or ']' */
void app_json_string(app_json *j, const char *key, const char *value);
void app_json_int(app_json *j, const char *key, long long value);
void app_json_double(app_json *j, const char *key, double value);
void app_json_bool(app_json *j, const char *key, int value);
void app_json_null(app_json *j, const char *key);
/* "stages": {"built_on": "device" or "host", "read_s", "upload_s", "build_s" (null on the host),
 * then "<prepare_name>_s" (spaces as underscores) when the app names one, "compute_s"}. */
void app_json_stages(app_json *j, const app_stages *stages);

#endif /* CSR_APPS_COMMON_H */
