/* Numbers -> decimal text for the writers. Internal. */
#ifndef CSR_MM_PRINT_H
#define CSR_MM_PRINT_H

#include <stdint.h>

/* Longest text any of these writes, without a terminating NUL (none is written). */
#define CSRI_PRINT_MAX 32

/* The shortest decimal that reads back (correctly rounded) to exactly v; ties between equally
 * short candidates go to the one closest to v. Scientific notation ("1.5e-07") when shorter than
 * the plain form; "inf", "-inf", "nan" for non-finite values. Returns the length. */
int csri_print_double(double v, char *out);
/* The same for a float: the shortest decimal that reads back to v as a float. */
int csri_print_float(float v, char *out);
/* Decimal integer. */
int csri_print_int64(int64_t v, char *out);

#endif
