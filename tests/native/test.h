/* Tiny test macros shared by the native test programs (Box2D style). */
#ifndef SC_TEST_H
#define SC_TEST_H

#include <stdio.h>
#include <string.h>

#include "slabcast.h"

/* Component k (0, 1, 2) of a vector, read or written by name (indexing past .x is undefined). */
static inline float v3_at(sc_vec3 v, int k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }
static inline void v3_set(sc_vec3 *v, int k, float x)
{
    if (k == 0) v->x = x;
    else if (k == 1) v->y = x;
    else v->z = x;
}

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

/* A test program's runner: run_test runs fn unless a name filter (argv[1]) excludes it, counts
 * it in g_run and prints "ok" or "FAIL" with its name (programs that use it define
 * RUN_TEST(fn) as run_test(#fn, fn, filter)). */
typedef int (*test_fn)(void);
static int g_run;
static inline void run_test(const char *name, test_fn fn, const char *filter)
{
    if (filter && !strstr(name, filter)) return;
    ++g_run;
    int failed = fn();
    printf("%s %s\n", failed ? "FAIL" : "ok  ", name);
}

#endif
