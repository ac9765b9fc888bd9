/* SPDX-License-Identifier: BSD-3-Clause */
/* fixture.h: a header written to be hard to parse, for tests/docs/check_generator.py.
 *
 * It is not part of libcsr. Every construct here appears in real C headers. Its layout is
 * deliberate, hence no clang-format.
 */
// clang-format off
#ifndef FIXTURE_H
#define FIXTURE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define FX_NODISCARD __attribute__((warn_unused_result))
#define FX_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define FX_NODISCARD
#define FX_DEPRECATED(msg)
#endif

/** Version of the fixture. */
#define FX_VERSION 3
#define FX_MAX(a, b) ((a) > (b) ? (a) : (b)) /**< the larger of a and b */
#define FX_LONG(x)                                                                                 \
  ((x) + 1)

/* -------------------------------------------------------------------------------------------
 * First section. Its prose follows the title.
 * ----------------------------------------------------------------------------------------- */

/** A declaration over several lines,
 *  with attributes before and after. */
FX_NODISCARD int fx_multi(int a,
                          const char *b, /* a plain comment between parameters */
                          double (*callback)(void *user, int k),
                          size_t n) __attribute__((nonnull(2)));

/** Deprecated: an attribute-like macro call in front. */
FX_DEPRECATED("use fx_multi")
void fx_old(void);

/** Pure, through an attribute block between the comment and the declaration. */
#if defined(__GNUC__)
__attribute__((pure))
#endif
int fx_pure(int x);

#if defined(FX_NEVER_DEFINED)
/** Hidden: in a branch a C compiler does not take. */
int fx_hidden(void);
#else
/** Visible: in the #else branch. */
int fx_visible(void);
#endif

int fx_trailing(void); /**< documented after the declaration */

int fx_undocumented(void);

/* --- a minor section --------------------------------------------------------------------- */

/** A callback type. */
typedef void (*fx_callback)(void *user, int event);

/** Opaque. */
typedef struct fx_opaque fx_opaque;

/** A struct with every kind of member. */
typedef struct fx_record {
  int a, b;          /**< two ints */
  const char *name;  /**< a name that goes on
                          over two lines */
  /** Called on each event. */
  void (*on_event)(void *user, int event);
  union {
    int i;
    double d;
  } value; /**< a nested union */
  size_t plain;
} fx_record;

/** An enum. */
typedef enum fx_kind {
  FX_A = 0,   /**< first */
  FX_B = -2,  /**< negative */
  /** documented before */
  FX_C = 1u << 3,
  FX_D        /**< last, without a comma */
} fx_kind;

/** Flags (an anonymous enum). */
enum { FX_FLAG_X = 1, FX_FLAG_Y = 2 };

/** An inline function: documented, its body not shown. */
static inline int fx_twice(int x) { return 2 * x; }

/** A global. */
extern const int fx_global;

struct fx_undocumented_struct {
  int x;
};

#ifdef __cplusplus
}
#endif
#endif /* FIXTURE_H */
// clang-format on
