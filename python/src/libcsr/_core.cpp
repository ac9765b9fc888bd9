// SPDX-License-Identifier: BSD-3-Clause
// libcsr._core: the C library's calls for the Python package (src/libcsr/__init__.py), which
// checks and converts the arguments and builds scipy or CuPy objects from what these return.
//
// Arrays cross as raw addresses (from __array_interface__ or __cuda_array_interface__), so the
// same call serves NumPy and CuPy arrays without copying; the Python side keeps the arrays alive
// for the call. Each thread calling in gets its own csr_context (a context is not shared between
// threads that call at the same time), set per call from `Settings`. The GIL is released around
// every call into the library that does work. Results the library allocates go back to Python
// as NumPy arrays (host) or as addresses with an owner (device) whose capsule frees them.
#include <csr.h>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace nb = nanobind;
using namespace nb::literals;

namespace {

// --- errors -------------------------------------------------------------------------------

// libcsr._errors.raise_error(code, name, message), looked up once at import.
nb::object raise_error;

// Raises the Python exception for a failed call (status < 0) on ctx; returns status otherwise.
csr_status check(csr_context *ctx, csr_status status) {
  if (status >= 0)
    return status;
  std::string message = csr_context_last_message(ctx);
  std::string detail = csr_context_last_error(ctx);
  raise_error(static_cast<int>(status), csr_status_string(status), message, detail);
  throw nb::python_error(); // raise_error raised; this is not reached
}

// Runs a library call with the GIL released (other Python threads run meanwhile), returning
// its status. Only C code runs inside: no Python object may be touched there.
template <typename Call> csr_status unlocked(Call call) {
  nb::gil_scoped_release released;
  return call();
}

// --- the thread's context -------------------------------------------------------------------

struct ThreadContext {
  csr_context *ctx = nullptr;
  ~ThreadContext() { csr_context_free(&ctx); }
};

// (backend, threads, kernel, stream): what the Python side's options say for this call.
using Settings = std::tuple<int, int, int, uintptr_t>;

csr_context *context(const Settings &settings) {
  thread_local ThreadContext held;
  if (held.ctx == nullptr && csr_context_create(&held.ctx) != CSR_SUCCESS)
    throw std::bad_alloc();
  csr_context *ctx = held.ctx;
  csr_context_clear_error(ctx);
  check(ctx, csr_context_set_backend(ctx, static_cast<csr_backend>(std::get<0>(settings))));
  check(ctx, csr_context_set_threads(ctx, std::get<1>(settings)));
  check(ctx, csr_context_set_kernel(ctx, static_cast<csr_spmv_kernel>(std::get<2>(settings))));
  check(ctx, csr_context_set_stream(ctx, reinterpret_cast<void *>(std::get<3>(settings))));
  return ctx;
}

// --- operands -------------------------------------------------------------------------------

// A CSR matrix as the Python side describes it: shape, nnz, the three arrays' addresses, the
// offsets' width (32 or 64), the value type (csr_value_type), where it lives and its flags.
using MatrixSpec =
    std::tuple<int64_t, int64_t, int64_t, uintptr_t, int, uintptr_t, uintptr_t, int, int, unsigned>;

// A csr_matrix over the caller's arrays (csr_matrix_wrap), freed with this object: the Python
// class Matrix, which the Python side keeps with the arrays (and reuses while they are the same),
// so that a matrix is wrapped, its 32-bit offsets widened and its SpMV statistics computed once.
struct Wrapped {
  csr_matrix *A = nullptr;
  Wrapped(const MatrixSpec &s, const Settings &settings) {
    csr_context *ctx = context(settings);
    auto [rows, cols, nnz, offsets, width, indices, values, type, device, flags] = s;
    check(ctx, csr_matrix_wrap(
                   ctx, &A, rows, cols, nnz, reinterpret_cast<const void *>(offsets),
                   static_cast<csr_index_width>(width), reinterpret_cast<const int32_t *>(indices),
                   reinterpret_cast<const void *>(values), static_cast<csr_value_type>(type),
                   device ? CSR_DEVICE : CSR_HOST, flags));
  }
  Wrapped(const Wrapped &) = delete;
  Wrapped &operator=(const Wrapped &) = delete;
  ~Wrapped() { csr_matrix_free(&A); }
};

// A vector: address, length, value type (CSR_F64 or CSR_F32), on the device or not.
using VectorSpec = std::tuple<uintptr_t, int64_t, int, int>;

struct WrappedVector {
  csr_vector *v = nullptr;
  WrappedVector(csr_context *ctx, const VectorSpec &s) {
    auto [data, n, type, device] = s;
    check(ctx, csr_vector_wrap(ctx, &v, n, static_cast<csr_value_type>(type),
                               device ? CSR_DEVICE : CSR_HOST, reinterpret_cast<void *>(data)));
  }
  WrappedVector(const WrappedVector &) = delete;
  WrappedVector &operator=(const WrappedVector &) = delete;
  ~WrappedVector() { csr_vector_free(&v); }
};

// --- results the library allocated ----------------------------------------------------------

// A capsule that frees the matrix once nothing refers to its arrays.
nb::capsule matrix_owner(csr_matrix *M) {
  return nb::capsule(M, [](void *p) noexcept {
    csr_matrix *m = static_cast<csr_matrix *>(p);
    csr_matrix_free(&m);
  });
}

template <typename T> nb::object host_array(void *data, int64_t n, nb::handle owner) {
  size_t shape[1] = {static_cast<size_t>(n)};
  return nb::cast(nb::ndarray<nb::numpy, T, nb::ndim<1>>(data, 1, shape, owner));
}

nb::object host_values(const csr_matrix *M, nb::handle owner) {
  if (M->value_type == CSR_F64)
    return host_array<double>(M->values, M->nnz, owner);
  if (M->value_type == CSR_F32)
    return host_array<float>(M->values, M->nnz, owner);
  return nb::none();
}

// A matrix the library made, for the Python side: (rows, cols, nnz, offsets, indices, values,
// value type, flags). Host: NumPy arrays over the library's arrays (no copy), which free them
// when the last is collected. Device: the addresses and the owner, for CuPy's UnownedMemory.
nb::tuple matrix_result(csr_matrix *M) {
  nb::capsule owner = matrix_owner(M);
  if (M->location == CSR_HOST)
    return nb::make_tuple(M->rows, M->cols, M->nnz,
                          host_array<int64_t>(M->row_offsets, M->rows + 1, owner),
                          host_array<int32_t>(M->col_indices, M->nnz, owner), host_values(M, owner),
                          static_cast<int>(M->value_type), M->flags);
  return nb::make_tuple(M->rows, M->cols, M->nnz, reinterpret_cast<uintptr_t>(M->row_offsets),
                        reinterpret_cast<uintptr_t>(M->col_indices),
                        reinterpret_cast<uintptr_t>(M->values), static_cast<int>(M->value_type),
                        M->flags, owner);
}

nb::dict file_info_dict(const csr_file_info &info) {
  static const char *formats[] = {"auto", "matrix-market", "edge-list"};
  static const char *fields[] = {"real", "integer", "pattern", "complex"};
  static const char *symmetries[] = {"general", "symmetric", "skew-symmetric", "hermitian"};
  nb::dict d;
  d["format"] = formats[info.format];
  d["layout"] = info.is_array ? "array" : "coordinate";
  d["is_vector"] = bool(info.is_vector);
  d["gzip"] = bool(info.gzip);
  d["field"] = fields[info.field];
  d["symmetry"] = symmetries[info.symmetry];
  d["rows"] = info.rows;
  d["cols"] = info.cols;
  d["stored_entries"] = info.stored_entries;
  d["entries"] = info.entries;
  d["text_bytes"] = info.bytes;
  return d;
}

// --- calls ----------------------------------------------------------------------------------

// Reads a file into CSR (coo false) or COO triples: (matrix result, file info).
nb::tuple read_file(const std::string &path, bool coo, int value_type, bool keep_symmetry,
                    int format, const Settings &settings) {
  csr_context *ctx = context(settings);
  csr_read_options options;
  csr_read_options_init(&options);
  options.value_type = static_cast<csr_value_type>(value_type);
  options.keep_symmetry = keep_symmetry;
  options.format = static_cast<csr_file_format>(format);
  csr_file_info info{};
  if (!coo) {
    csr_matrix *A = nullptr;
    check(ctx, unlocked([&] { return csr_read_csr(ctx, path.c_str(), &options, &A, &info); }));
    return nb::make_tuple(matrix_result(A), file_info_dict(info));
  }
  csr_coo *T = nullptr;
  check(ctx, unlocked([&] { return csr_read_coo(ctx, path.c_str(), &options, &T, &info); }));
  nb::capsule owner(T, [](void *p) noexcept {
    csr_coo *t = static_cast<csr_coo *>(p);
    csr_coo_free(&t);
  });
  nb::object values = nb::none();
  if (T->value_type == CSR_F64)
    values = host_array<double>(T->values, T->nnz, owner);
  else if (T->value_type == CSR_F32)
    values = host_array<float>(T->values, T->nnz, owner);
  nb::tuple triples =
      nb::make_tuple(T->rows, T->cols, T->nnz, host_array<int32_t>(T->row_indices, T->nnz, owner),
                     host_array<int32_t>(T->col_indices, T->nnz, owner), values,
                     static_cast<int>(T->value_type), T->flags);
  return nb::make_tuple(triples, file_info_dict(info));
}

void write_file(const std::string &path, const Wrapped &A, bool edge_list, bool symmetric,
                bool pattern, bool integer, int gzip, int gzip_level,
                const std::optional<std::string> &comment, const Settings &settings) {
  csr_context *ctx = context(settings);
  csr_write_options options;
  csr_write_options_init(&options);
  options.symmetric = symmetric;
  options.pattern = pattern;
  options.integer = integer;
  options.gzip = gzip;
  options.gzip_level = gzip_level;
  options.comment = comment ? comment->c_str() : nullptr;
  check(ctx, unlocked([&] {
          return edge_list ? csr_write_edge_list(ctx, path.c_str(), A.A, &options)
                           : csr_write_mm(ctx, path.c_str(), A.A, &options);
        }));
}

// Whole-matrix check of the CSR invariants (csr_matrix_validate).
void validate(const Wrapped &A, const Settings &settings) {
  csr_context *ctx = context(settings);
  check(ctx, unlocked([&] { return csr_matrix_validate(ctx, A.A); }));
}

// y = alpha A x + beta y; returns the backend that ran it.
std::string spmv(const Wrapped &A, const VectorSpec &x, const VectorSpec &y, double alpha,
                 double beta, const Settings &settings) {
  csr_context *ctx = context(settings);
  WrappedVector xv(ctx, x), yv(ctx, y);
  check(ctx, unlocked([&] { return csr_spmv(ctx, alpha, A.A, xv.v, beta, yv.v); }));
  return csr_backend_name(csr_context_last_backend(ctx));
}

// A planned SpMV (csr_spmv_analyze), kept for many products. The plan points to the wrapped
// matrix, which the binding keeps alive as long as the plan (nb::keep_alive).
class SpmvPlan {
public:
  SpmvPlan(const Wrapped &A, int compress, const Settings &settings) {
    csr_context *ctx = context(settings);
    check(ctx, unlocked([&] {
            return csr_spmv_analyze(ctx, A.A, static_cast<csr_compress>(compress), &plan_);
          }));
  }
  SpmvPlan(const SpmvPlan &) = delete;
  SpmvPlan &operator=(const SpmvPlan &) = delete;
  ~SpmvPlan() { csr_spmv_plan_free(&plan_); }
  void run(const VectorSpec &x, const VectorSpec &y, double alpha, double beta,
           const Settings &settings) {
    csr_context *ctx = context(settings);
    WrappedVector xv(ctx, x), yv(ctx, y);
    check(ctx, unlocked([&] { return csr_spmv_run(ctx, plan_, alpha, xv.v, beta, yv.v); }));
  }
  nb::dict describe() const {
    csr_spmv_plan_info info;
    csr_spmv_plan_describe(plan_, &info);
    nb::dict d;
    d["packed"] = bool(info.packed);
    d["chunks"] = info.chunks;
    d["escaped_chunks"] = info.escaped_chunks;
    d["index_bytes"] = info.index_bytes;
    d["streamed_bytes"] = info.streamed_bytes;
    d["plain_bytes"] = info.plain_bytes;
    d["setup_seconds"] = info.setup_seconds;
    d["reason"] = std::string(info.reason);
    return d;
  }

private:
  csr_spmv_plan *plan_ = nullptr;
};

nb::dict stats_dict(const csr_row_stats &st) {
  nb::dict d;
  int last = CSR_HIST_BINS - 1;
  while (last > 0 && st.histogram[last] == 0)
    last--;
  std::vector<int64_t> histogram(st.histogram, st.histogram + last + 1);
  d["rows"] = st.rows;
  d["nnz"] = st.nnz;
  d["longest"] = st.longest;
  d["empty_rows"] = st.empty_rows;
  d["mean"] = st.mean;
  d["variance"] = st.variance;
  d["histogram"] = histogram;
  return d;
}

nb::dict row_stats(const Wrapped &A, const Settings &settings) {
  csr_context *ctx = context(settings);
  csr_row_stats st{};
  check(ctx, unlocked([&] { return csr_row_stats_compute(ctx, A.A, &st); }));
  return stats_dict(st);
}

nb::dict spmv_choice(const Wrapped &A, const Settings &settings) {
  csr_context *ctx = context(settings);
  csr_spmv_choice choice{};
  check(ctx, unlocked([&] { return csr_spmv_choose(ctx, A.A, &choice); }));
  nb::dict d;
  d["kernel"] = csr_spmv_kernel_name(choice.kernel);
  d["lanes"] = choice.lanes;
  d["forced"] = bool(choice.forced);
  d["analysis_seconds"] = choice.analysis_seconds;
  d["gather_lines"] = choice.gather_lines;
  d["reason"] = std::string(choice.reason);
  d["stats"] = stats_dict(choice.stats);
  return d;
}

// PageRank into `ranks`: (converged, info).
nb::tuple pagerank(const Wrapped &A, const VectorSpec &ranks, double damping, double tol,
                   int64_t max_iter, bool weighted, const std::optional<VectorSpec> &teleport,
                   int compress, int reorder, const Settings &settings) {
  csr_context *ctx = context(settings);
  WrappedVector r(ctx, ranks);
  std::optional<WrappedVector> p;
  if (teleport)
    p.emplace(ctx, *teleport);
  csr_pagerank_options options;
  csr_pagerank_options_init(&options);
  options.damping = damping;
  options.tol = tol;
  options.max_iter = max_iter;
  options.weighted = weighted;
  options.personalization = p ? p->v : nullptr;
  options.compress = static_cast<csr_compress>(compress);
  options.reorder = static_cast<csr_reorder_method>(reorder);
  csr_pagerank_info info{};
  const csr_status s =
      check(ctx, unlocked([&] { return csr_pagerank(ctx, A.A, &options, r.v, &info); }));
  nb::dict d;
  d["iterations"] = info.iterations;
  d["l1_change"] = info.l1_change;
  d["dangling"] = info.dangling;
  d["setup_seconds"] = info.setup_seconds;
  d["iterate_seconds"] = info.iterate_seconds;
  d["packed"] = bool(info.packed);
  d["reordered"] = csr_reorder_method_name(info.reordered);
  d["reorder_seconds"] = info.reorder_seconds;
  d["reorder_reason"] = std::string(info.reorder_reason);
  d["backend"] = csr_backend_name(csr_context_last_backend(ctx));
  return nb::make_tuple(s == CSR_SUCCESS, d);
}

// An incomplete factorization (csr_factor_compute), for csr_solve's CSR_PRECOND_FACTOR and for
// applying M^-1 on its own. Independent of A's arrays once made.
class Factor {
public:
  Factor(const Wrapped &A, int kind, int ordering, int reordering, double drop_tolerance,
         double fill_factor, double pivot_threshold, double shift, const Settings &settings) {
    csr_context *ctx = context(settings);
    csr_factor_options options;
    csr_factor_options_init(&options);
    options.kind = static_cast<csr_factor_kind>(kind);
    options.ordering = static_cast<csr_factor_ordering>(ordering);
    options.reordering = static_cast<csr_factor_reordering>(reordering);
    options.drop_tolerance = drop_tolerance;
    options.fill_factor = fill_factor;
    options.pivot_threshold = pivot_threshold;
    options.shift = shift;
    check(ctx, unlocked([&] { return csr_factor_compute(ctx, A.A, &options, &F_); }));
  }
  Factor(const Factor &) = delete;
  Factor &operator=(const Factor &) = delete;
  ~Factor() { csr_factor_free(&F_); }
  // z = M^-1 r.
  void apply(const VectorSpec &r, const VectorSpec &z, const Settings &settings) {
    csr_context *ctx = context(settings);
    WrappedVector rv(ctx, r), zv(ctx, z);
    check(ctx, unlocked([&] { return csr_factor_apply(ctx, F_, rv.v, zv.v); }));
  }
  nb::dict info() const {
    static const char *kinds[] = {"ilu0", "ic0", "ilut"};
    csr_factor_info info;
    csr_factor_get_info(F_, &info);
    nb::dict d;
    d["kind"] = kinds[info.kind];
    d["n"] = info.n;
    d["nnz_L"] = info.L->nnz;
    d["nnz_U"] = info.U->nnz;
    d["levels_L"] = info.levels_L;
    d["levels_U"] = info.levels_U;
    d["shift"] = info.shift;
    d["attempts"] = info.attempts;
    d["device"] = info.L->location == CSR_DEVICE;
    return d;
  }
  const csr_factor *get() const { return F_; }

private:
  csr_factor *F_ = nullptr;
};

// The solver's options as the Python side passes them.
struct SolveOptions {
  int method, preconditioner;
  double rtol, atol;
  int64_t max_iter, restart;
  int compress, reorder;
  int factor_ordering, factor_reordering;
  double drop_tolerance, fill_factor, pivot_threshold, shift;
  int64_t history_capacity;
};

// Solves A x = b into x: (status name, info, history).
nb::tuple solve(const Wrapped &A, const VectorSpec &b, const VectorSpec &x, const SolveOptions &o,
                const Factor *factor, const Settings &settings) {
  csr_context *ctx = context(settings);
  WrappedVector bv(ctx, b), xv(ctx, x);
  csr_solver_options options;
  csr_solver_options_init(&options);
  options.method = static_cast<csr_solver_method>(o.method);
  options.preconditioner = static_cast<csr_solver_preconditioner>(o.preconditioner);
  options.rtol = o.rtol;
  options.atol = o.atol;
  options.max_iter = o.max_iter;
  options.restart = o.restart;
  options.compress = static_cast<csr_compress>(o.compress);
  options.reorder = static_cast<csr_reorder_method>(o.reorder);
  options.factor_options.ordering = static_cast<csr_factor_ordering>(o.factor_ordering);
  options.factor_options.reordering = static_cast<csr_factor_reordering>(o.factor_reordering);
  options.factor_options.drop_tolerance = o.drop_tolerance;
  options.factor_options.fill_factor = o.fill_factor;
  options.factor_options.pivot_threshold = o.pivot_threshold;
  options.factor_options.shift = o.shift;
  options.factor = factor ? factor->get() : nullptr;
  std::vector<double> history(static_cast<size_t>(o.history_capacity > 0 ? o.history_capacity : 0));
  options.history = history.empty() ? nullptr : history.data();
  options.history_capacity = static_cast<int64_t>(history.size());
  csr_solver_info info{};
  const csr_status s =
      check(ctx, unlocked([&] { return csr_solve(ctx, A.A, bv.v, xv.v, &options, &info); }));
  static const char *stops[] = {"converged", "max_iter", "breakdown", "failed"};
  history.resize(static_cast<size_t>(info.history_length));
  nb::dict d;
  d["iterations"] = info.iterations;
  d["residual_norm"] = info.residual_norm;
  d["relative_residual"] = info.relative_residual;
  d["stop"] = stops[info.stop];
  d["packed"] = bool(info.packed);
  d["reordered"] = csr_reorder_method_name(info.reordered);
  d["reorder_seconds"] = info.reorder_seconds;
  d["backend"] = csr_backend_name(csr_context_last_backend(ctx));
  return nb::make_tuple(s == CSR_SUCCESS, d, history);
}

// A numbering of A's rows and columns: old_of_new, on the host (a device A's order is brought
// back: n 32-bit integers).
nb::object reorder(const Wrapped &A, int method, const Settings &settings) {
  csr_context *ctx = context(settings);
  csr_permutation *P = nullptr;
  check(ctx, unlocked([&] {
          csr_status s = csr_reorder(ctx, A.A, static_cast<csr_reorder_method>(method), &P);
          if (s >= 0 && P->location == CSR_DEVICE) {
            csr_permutation *H = nullptr;
            s = csr_permutation_copy(ctx, P, &H, CSR_HOST);
            csr_permutation_free(&P);
            P = H;
          }
          return s;
        }));
  nb::capsule owner(P, [](void *p) noexcept {
    csr_permutation *q = static_cast<csr_permutation *>(p);
    csr_permutation_free(&q);
  });
  return host_array<int32_t>(P->old_of_new, P->n, owner);
}

// B = A with rows (and columns) renumbered by old_of_new (a host array of n int32): B's arrays
// are the library's, where A is (matrix_result).
nb::tuple permute(const Wrapped &A, uintptr_t rows_order, uintptr_t cols_order,
                  const Settings &settings) {
  csr_context *ctx = context(settings);
  const csr_location at = A.A->location;
  csr_permutation *P = nullptr, *Q = nullptr;
  csr_matrix *B = nullptr;
  check(ctx, unlocked([&] {
          csr_status s = CSR_SUCCESS;
          if (rows_order)
            s = csr_permutation_create(ctx, &P, A.A->rows,
                                       reinterpret_cast<const int32_t *>(rows_order), at);
          if (s >= 0 && cols_order)
            s = csr_permutation_create(ctx, &Q, A.A->cols,
                                       reinterpret_cast<const int32_t *>(cols_order), at);
          if (s >= 0)
            s = csr_permute(ctx, A.A, P, Q, &B);
          csr_permutation_free(&P);
          csr_permutation_free(&Q);
          return s;
        }));
  return matrix_result(B);
}

// The addresses csr_matrix_wrap recorded for a matrix (offsets, indices, values): what the tests
// compare with the caller's arrays to show that nothing was copied.
nb::tuple wrapped_addresses(const Wrapped &A, const Settings &settings) {
  csr_context *ctx = context(settings);
  return nb::make_tuple(reinterpret_cast<uintptr_t>(A.A->row_offsets),
                        reinterpret_cast<uintptr_t>(A.A->col_indices),
                        reinterpret_cast<uintptr_t>(A.A->values));
}

nb::dict build_info() {
  nb::dict d;
  nb::list backends;
  for (csr_backend b : {CSR_BACKEND_REF, CSR_BACKEND_OMP, CSR_BACKEND_CUDA})
    if (csr_backend_available(b))
      backends.append(csr_backend_name(b));
  d["backends"] = backends;
  d["cuda_device"] = bool(csr_cuda_device_present());
  return d;
}

} // namespace

NB_MODULE(_core, m) {
  m.doc() = "libcsr's C calls for the libcsr package (use the functions of libcsr instead).";
  raise_error = nb::module_::import_("libcsr._errors").attr("raise_error");
  // Dropped before the interpreter finalises, so no reference outlives the module.
  nb::module_::import_("atexit").attr("register")(
      nb::cpp_function([]() { raise_error = nb::object(); }));

  nb::class_<SolveOptions>(m, "SolveOptions")
      .def(nb::init<>())
      .def_rw("method", &SolveOptions::method)
      .def_rw("preconditioner", &SolveOptions::preconditioner)
      .def_rw("rtol", &SolveOptions::rtol)
      .def_rw("atol", &SolveOptions::atol)
      .def_rw("max_iter", &SolveOptions::max_iter)
      .def_rw("restart", &SolveOptions::restart)
      .def_rw("compress", &SolveOptions::compress)
      .def_rw("reorder", &SolveOptions::reorder)
      .def_rw("factor_ordering", &SolveOptions::factor_ordering)
      .def_rw("factor_reordering", &SolveOptions::factor_reordering)
      .def_rw("drop_tolerance", &SolveOptions::drop_tolerance)
      .def_rw("fill_factor", &SolveOptions::fill_factor)
      .def_rw("pivot_threshold", &SolveOptions::pivot_threshold)
      .def_rw("shift", &SolveOptions::shift)
      .def_rw("history_capacity", &SolveOptions::history_capacity);

  nb::class_<Wrapped>(m, "Matrix")
      .def(nb::init<const MatrixSpec &, const Settings &>(), "spec"_a, "settings"_a);

  nb::class_<SpmvPlan>(m, "SpmvPlan")
      .def(nb::init<const Wrapped &, int, const Settings &>(), "matrix"_a, "compress"_a,
           "settings"_a, nb::keep_alive<1, 2>())
      .def("run", &SpmvPlan::run, "x"_a, "y"_a, "alpha"_a, "beta"_a, "settings"_a)
      .def("describe", &SpmvPlan::describe);

  nb::class_<Factor>(m, "Factor")
      .def(nb::init<const Wrapped &, int, int, int, double, double, double, double,
                    const Settings &>(),
           "matrix"_a, "kind"_a, "ordering"_a, "reordering"_a, "drop_tolerance"_a, "fill_factor"_a,
           "pivot_threshold"_a, "shift"_a, "settings"_a)
      .def("apply", &Factor::apply, "r"_a, "z"_a, "settings"_a)
      .def("info", &Factor::info);

  m.def("read", &read_file, "path"_a, "coo"_a, "value_type"_a, "keep_symmetry"_a, "format"_a,
        "settings"_a);
  m.def("write", &write_file, "path"_a, "matrix"_a, "edge_list"_a, "symmetric"_a, "pattern"_a,
        "integer"_a, "gzip"_a, "gzip_level"_a, "comment"_a.none(), "settings"_a);
  m.def("validate", &validate, "matrix"_a, "settings"_a);
  m.def("spmv", &spmv, "matrix"_a, "x"_a, "y"_a, "alpha"_a, "beta"_a, "settings"_a);
  m.def("row_stats", &row_stats, "matrix"_a, "settings"_a);
  m.def("spmv_choice", &spmv_choice, "matrix"_a, "settings"_a);
  m.def("pagerank", &pagerank, "matrix"_a, "ranks"_a, "damping"_a, "tol"_a, "max_iter"_a,
        "weighted"_a, "teleport"_a.none(), "compress"_a, "reorder"_a, "settings"_a);
  m.def("solve", &solve, "matrix"_a, "b"_a, "x"_a, "options"_a, "factor"_a.none(), "settings"_a);
  m.def("reorder", &reorder, "matrix"_a, "method"_a, "settings"_a);
  m.def("permute", &permute, "matrix"_a, "rows_order"_a, "cols_order"_a, "settings"_a);
  m.def("wrapped_addresses", &wrapped_addresses, "matrix"_a, "settings"_a);
  m.def("build_info", &build_info);
}
