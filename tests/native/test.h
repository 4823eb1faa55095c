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

/* A test program's runner: RUN_TEST(fn) runs fn unless a name filter (argv[1], in a local
 * `filter`) excludes it, counts it in g_run, and counts it in g_failed_tests when it returned
 * non-zero or made a check fail; prints "ok" or "FAIL" with its name. */
typedef int (*test_fn)(void);
static int g_run, g_failed_tests;
static inline void run_test(const char *name, test_fn fn, const char *filter)
{
    if (filter && !strstr(name, filter)) return;
    ++g_run;
    int before = g_failures;
    int failed = fn() != 0 || g_failures != before;
    if (failed) ++g_failed_tests;
    printf("%s %s\n", failed ? "FAIL" : "ok  ", name);
}
#define RUN_TEST(fn) run_test(#fn, fn, filter)

#endif
