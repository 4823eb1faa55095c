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

static sc_shape shape_sphere(sc_vec3 c, float r)
{
    sc_shape s = {0};
    s.type = SC_SHAPE_SPHERE;
    s.u.sphere = (sc_sphere){c, r};
    return s;
}

/* The example: origin (-1e-30, 0, -10), dir (0, 0, 1), the ball of centre (3, 4, 0) and
 * radius 5. The line's squared distance from the centre is (3 + x)^2 + 4^2 for the origin's x:
 * 25 + 6e-30 + 1e-60 > 25 for x = -1e-30 (a miss), 25 - 6e-30 + 1e-60 < 25 for x = 1e-30 (a hit).
 * (-1e-30f is not exactly -1e-30, but it is a negative number far below 1, which is all the
 * argument uses.) The same for the segment along that line, and for the world's paths. */
static int sphere_near_tangent(void)
{
    sc_shape ball = shape_sphere(v3(3, 4, 0), 5);
    sc_world *w = sc_world_create();
    float spheres[4] = {3, 4, 0, 5};
    ENSURE(sc_world_add_spheres(w, spheres, 1, NULL) == SC_OK && sc_world_commit(w) == SC_OK);
    for (int k = 0; k < 2; ++k) {
        float x = k == 0 ? -1e-30f : 1e-30f;
        int want = k == 1;
        sc_ray r = {v3(x, 0, -10), v3(0, 0, 1), INFINITY};
        sc_raycast_result h = sc_raycast(&r, &ball);
        ENSURE(h.status == SC_OK && h.hit == want);
        if (want) ENSURE(fabsf(h.t - 10.0f) <= 1e-5f); /* the tangent point (x, 0, 0) at t = 10 */
        sc_segment g = {v3(x, 0, -10), v3(x, 0, 10)};
        ENSURE(sc_linetest(&g, &ball).value == want);
        float t = -1;
        ENSURE(world_ray_paths(w, &r, &t) == 4 * want);
        /* tmax just before or at the tangent point: t_enter = 10 exactly on the tangent line */
        r.tmax = 9.999999f;
        ENSURE(!sc_raycast(&r, &ball).hit);
    }
    sc_world_destroy(w);
    return 0;
}

static sc_shape tilted_obb(float eps)
{
    sc_shape s = {0};
    s.type = SC_SHAPE_OBB;
    s.u.obb.center = v3(0, 0, 0);
    s.u.obb.axes[0] = v3(1, 0, eps);
    s.u.obb.axes[1] = v3(0, 1, 0);
    s.u.obb.axes[2] = v3(-eps, 0, 1);
    s.u.obb.half = v3(1, 1, 1);
    return s;
}

/* An OBB whose axes tilt by eps = 2^-60 (orthonormal within eps^2): in its frame a point p has
 * x' = p.x + eps p.z, y' = p.y, z' = p.z - eps p.x. The point (1, 0, z) is outside the x' <= 1 slab
 * by eps z for z > 0, inside for z < 0; double precision rounds 1 + 2^-61 to 1 and saw it inside.
 * The ray from (-3, 5, z) along (1, -1, 0) meets x' in [-1, 1] for t in [2 - eps z, 4 - eps z] and
 * y' in [-1, 1] for t in [4, 6]: it touches the edge for z <= 0 and misses it by eps z otherwise.
 * A ray along y through (1, 0, z) is parallel to the x' slab: inside it iff z <= 0. */
static int obb_tilted_by_2_60(void)
{
    sc_shape box = tilted_obb(0x1p-60f);
    ENSURE(sc_shape_valid(&box));
    sc_world *w = sc_world_create();
    float obbs[15] = {0, 0, 0, 1, 0, 0x1p-60f, 0, 1, 0, -0x1p-60f, 0, 1, 1, 1, 1};
    ENSURE(sc_world_add_obbs(w, obbs, 1, NULL) == SC_OK && sc_world_commit(w) == SC_OK);
    for (int k = 0; k < 2; ++k) {
        float z = k == 0 ? 0.5f : -0.5f;
        int want = k == 1;
        ENSURE(sc_contains(v3(1, 0, z), &box).value == want);
        sc_point_result cp = sc_closest_point(v3(1, 0, z), &box);
        ENSURE(want ? (cp.point.x == 1 && cp.point.z == z) : 1);
        sc_ray edge = {v3(-3, 5, z), v3(1, -1, 0), INFINITY};
        ENSURE(sc_raycast(&edge, &box).hit == want);
        sc_segment seg = {v3(-3, 5, z), v3(5, -3, z)};
        ENSURE(sc_linetest(&seg, &box).value == want);
        sc_ray par = {v3(1, -5, z), v3(0, 1, 0), INFINITY};
        sc_raycast_result h = sc_raycast(&par, &box);
        ENSURE(h.hit == want);
        if (want) ENSURE(h.t == 4.0f);
        float t = -1;
        ENSURE(world_ray_paths(w, &edge, &t) == 4 * want);
        ENSURE(world_ray_paths(w, &par, &t) == 4 * want);
    }
    sc_world_destroy(w);
    return 0;
}

/* linetest tests the exact segment (docs/semantics.md), not a + t fl(b - a): the segment from
 * (-2^-40, 0, 0) to the box's corner (1, 2, 0) ends on the box [1, 2] x [1, 2] x [-1, 1] (a hit),
 * while a + t (1, 2, 0), its float32 direction, passes the corner 2^-40 to the left. */
static int aabb_linetest_exact_segment(void)
{
    sc_shape box = {0};
    box.type = SC_SHAPE_AABB;
    box.u.aabb = (sc_aabb){v3(1, 1, -1), v3(2, 2, 1)};
    sc_segment seg = {v3(-0x1p-40f, 0, 0), v3(1, 2, 0)};
    ENSURE(sc_linetest(&seg, &box).value == 1);
    /* and a segment from the origin that ends 2^-24 short of that corner (x < 1 all along): a miss */
    sc_segment short_seg = {v3(0, 0, 0), v3(1.0f - 0x1p-24f, 2, 0)};
    ENSURE(sc_linetest(&short_seg, &box).value == 0);
    return 0;
}

/* The same two configurations swept over every power of two: the ray from (x, 0, -10) along z past
 * the ball (3, 4, 0), r = 5, with x = +-2^-k (squared distance 25 - 6x + x^2: a hit iff x > 0), for
 * k = 1..149; the OBB tilted by eps = 2^-k, k = 24..126, and the edge ray at z = +-0.5 (a hit iff
 * z < 0). Single queries, and the world's cast, brute force, any hit and all hits, all agree. */
static int sweep_powers_of_two(void)
{
    sc_shape ball = shape_sphere(v3(3, 4, 0), 5);
    sc_world *w = sc_world_create();
    float spheres[4] = {3, 4, 0, 5};
    ENSURE(sc_world_add_spheres(w, spheres, 1, NULL) == SC_OK && sc_world_commit(w) == SC_OK);
    for (int k = 1; k <= 149; ++k) {
        for (int sg = -1; sg <= 1; sg += 2) {
            float x = ldexpf((float)sg, -k), t = -1;
            int want = sg > 0;
            sc_ray r = {v3(x, 0, -10), v3(0, 0, 1), INFINITY};
            ENSURE(sc_raycast(&r, &ball).hit == want);
            sc_segment g = {v3(x, 0, -10), v3(x, 0, 10)};
            ENSURE(sc_linetest(&g, &ball).value == want);
            ENSURE(world_ray_paths(w, &r, &t) == 4 * want);
        }
    }
    sc_world_destroy(w);
    for (int k = 24; k <= 126; ++k) {
        float eps = ldexpf(1.0f, -k);
        sc_shape box = tilted_obb(eps);
        sc_world *wo = sc_world_create();
        float obbs[15] = {0, 0, 0, 1, 0, eps, 0, 1, 0, -eps, 0, 1, 1, 1, 1};
        ENSURE(sc_world_add_obbs(wo, obbs, 1, NULL) == SC_OK && sc_world_commit(wo) == SC_OK);
        for (int sg = -1; sg <= 1; sg += 2) {
            float z = 0.5f * (float)sg, t = -1;
            int want = sg < 0;
            sc_ray edge = {v3(-3, 5, z), v3(1, -1, 0), INFINITY};
            ENSURE(sc_raycast(&edge, &box).hit == want);
            ENSURE(sc_contains(v3(1, 0, z), &box).value == want);
            ENSURE(world_ray_paths(wo, &edge, &t) == 4 * want);
        }
        sc_world_destroy(wo);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int before = g_failures;
    RUN_TEST(d6_scaled_entry_past_tmax);
    RUN_TEST(sphere_near_tangent);
    RUN_TEST(obb_tilted_by_2_60);
    RUN_TEST(aabb_linetest_exact_segment);
    RUN_TEST(sweep_powers_of_two);
    int failed = g_failures - before;
    printf("%d passed, %d failed\n", g_run - failed, failed);
    return failed ? 1 : 0;
}
