/* Native tests of exact classification (issue 22): every hit or miss, inside or outside, and
 * overlap decided exactly, by the single queries and by the world's paths alike. Expected classes
 * come from the exact rational oracle (tests/oracle/exact.mjs) or from integer arithmetic written
 * out in the comments, never from the code under test.
 * Usage: slabcast_exact_tests [NAME-SUBSTRING] */
#include "slabcast.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

static sc_vec3 v3(float x, float y, float z) { return (sc_vec3){x, y, z}; }

/* The world answers for one ray against one object: cast, brute force, any hit, all hits. Returns
 * the number of paths that hit (4: all hit, 0: all miss) and the t of the cast. */
static int world_ray_paths(sc_world *w, const sc_ray *r, float *t_out)
{
    float ray[7] = {r->origin.x, r->origin.y, r->origin.z, r->dir.x, r->dir.y, r->dir.z, r->tmax};
    float t = -1, t2 = -1, ta[4];
    int32_t idx = -2, idx2 = -2, ia[4], total = -1;
    bool any = false;
    int hits = 0;
    if (sc_world_cast_rays(w, ray, 1, &t, &idx, NULL, NULL, NULL) != SC_OK) return -1;
    if (sc_world_cast_rays_bruteforce(w, ray, 1, &t2, &idx2, NULL, NULL, NULL) != SC_OK) return -1;
    if (sc_world_any_hit(w, ray, 1, &any, NULL, NULL) != SC_OK) return -1;
    if (sc_world_cast_ray_all(w, ray, 4, ta, ia, NULL, &total, NULL) != SC_OK) return -1;
    hits = (idx >= 0) + (idx2 >= 0) + (any ? 1 : 0) + (total > 0);
    *t_out = t;
    return hits;
}

/* Issue 22 D6, found by fuzz_queries: coordinates past 2^126 make the slab test scale the
 * positions by 2^-4; the x slab's entry and exit are too close to tell in float, and the exact
 * test then compared the scaled parameters with the unscaled tmax. The oracle (BigInt rationals)
 * puts the entry at 6.7191062e21 > tmax = 5.57784289e20: a miss (slabcast said hit, t = tmax).
 * With tmax = 1e30 the same ray hits at that entry. The world's paths give the same answers. */
static int d6_scaled_entry_past_tmax(void)
{
    sc_ray r = {{4.49768975e+13f, 8.85064594e-39f, 9.23028292e-40f},
                {-6.69388101e-09f, -6.70836231e-09f, -6.70836231e-09f}, 5.57784289e+20f};
    sc_aabb b = {{0, -1.42116197e+38f, -4.25352959e+37f}, {0.00163143373f, 0, -2.93892973e+13f}};
    sc_raycast_result h = sc_raycast_aabb(&r, &b);
    ENSURE(h.status == SC_OK && !h.hit);
    sc_world *w = sc_world_create();
    float boxes[6] = {b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z};
    ENSURE(sc_world_add_aabbs(w, boxes, 1, NULL) == SC_OK && sc_world_commit(w) == SC_OK);
    float t = -1;
    ENSURE(world_ray_paths(w, &r, &t) == 0);
    r.tmax = 1e30f;
    h = sc_raycast_aabb(&r, &b);
    ENSURE(h.hit && fabsf(h.t_enter / 6.71910622e21f - 1.0f) <= 1e-6f && h.normal.x == 1.0f);
    ENSURE(world_ray_paths(w, &r, &t) == 4 && t == h.t);
    sc_world_destroy(w);
    return 0;
}

typedef int (*test_fn)(void);
#define RUN_TEST(fn) run_test(#fn, fn, filter)

static int g_run;
static void run_test(const char *name, test_fn fn, const char *filter)
{
    if (filter && !strstr(name, filter)) return;
    ++g_run;
    int failed = fn();
    printf("%s %s\n", failed ? "FAIL" : "ok  ", name);
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int before = g_failures;
    RUN_TEST(d6_scaled_entry_past_tmax);
    int failed = g_failures - before;
    printf("%d passed, %d failed\n", g_run - failed, failed);
    return failed ? 1 : 0;
}
