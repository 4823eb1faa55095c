/* Tiny test macros shared by the native test programs (Box2D style). */
#ifndef SC_TEST_H
#define SC_TEST_H

#include <stdio.h>

/* Counts failed checks; a failing ENSURE returns 1 from the test function. */
static int g_failures;

#define ENSURE(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            ++g_failures;                                                             \
            fprintf(stderr, "  %s:%d: ENSURE(%s) failed\n", __FILE__, __LINE__, #cond); \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

#endif
