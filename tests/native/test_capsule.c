/* Native tests of the capsule's single queries (docs/semantics.md, "Capsules"). Expected values are
 * worked out by hand in the comments (integer and Pythagorean configurations, one float in or out)
 * or come from the sphere's own answers (a == b must be the sphere, bit for bit); never from the
 * code under test. The random comparison with the exact oracle is tests/web/capsule.test.mjs.
 * Usage: slabcast_capsule_tests [NAME-SUBSTRING] */
#include "slabcast.h"
#include "sc_internal.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

int sc__capsule_decide_exact(int kind, const float *v); /* sc_capsule.c, for tests */

static sc_vec3 v3(float x, float y, float z) { return (sc_vec3){x, y, z}; }
static sc_shape shape_capsule(sc_vec3 a, sc_vec3 b, float r)
{
    sc_shape s;
    memset(&s, 0, sizeof s);
    s.type = SC_SHAPE_CAPSULE;
    s.u.capsule = (sc_capsule){a, b, r};
    return s;
}
static int near3(sc_vec3 a, sc_vec3 b, float tol)
{
    return fabsf(a.x - b.x) <= tol && fabsf(a.y - b.y) <= tol && fabsf(a.z - b.z) <= tol;
}
static int same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }

/* The capsule along z from 0 to 10, radius 1. The ray x = 1, z = 5 along y touches the cylinder
 * at (1, 0, 5): t = 5 both ways, normal +x. One float less radius (or one float more x) misses;
 * one float more radius enters before 5 and leaves after. */
static int tangent_one_float(void)
{
    sc_shape c = shape_capsule(v3(0, 0, 0), v3(0, 0, 10), 1);
    sc_ray r = {v3(1, -5, 5), v3(0, 1, 0), INFINITY};
    sc_raycast_result h = sc_raycast(&r, &c);
    ENSURE(h.status == SC_OK && h.hit && h.t == 5 && h.t_enter == 5 && h.t_exit == 5);
    ENSURE(near3(h.point, v3(1, 0, 5), 1e-6f) && near3(h.normal, v3(1, 0, 0), 1e-6f));
    c.u.capsule.radius = nextafterf(1, 0);
    ENSURE(!sc_raycast(&r, &c).hit);
    c.u.capsule.radius = nextafterf(1, 2);
    h = sc_raycast(&r, &c);
    ENSURE(h.hit && h.t_enter < 5 && h.t_exit > 5);
    c.u.capsule.radius = 1;
    r.origin.x = nextafterf(1, 2);
    ENSURE(!sc_raycast(&r, &c).hit);
    r.origin.x = nextafterf(1, 0);
    ENSURE(sc_raycast(&r, &c).hit);
    /* the same as segments and points */
    sc_segment g = {v3(1, -5, 5), v3(1, 5, 5)};
    ENSURE(sc_linetest(&g, &c).value);
    g.b.y = nextafterf(0, -1); /* stops just before y = 0 */
    ENSURE(!sc_linetest(&g, &c).value);
    ENSURE(sc_contains(v3(1, 0, 3), &c).value && !sc_contains(v3(nextafterf(1, 2), 0, 3), &c).value);
    ENSURE(sc_contains(v3(0, 0, 11), &c).value && !sc_contains(v3(0, 0, nextafterf(11, 12)), &c).value);
    ENSURE(sc_contains(v3(0, 0, -1), &c).value && !sc_contains(v3(0, 0, nextafterf(-1, -2)), &c).value);
    return 0;
}

/* Through the caps, along the axis: from (0, 0, 20) down, the cap's top (0, 0, 11) is at t = 9,
 * the bottom (0, 0, -1) at t = 21; tmax = 9 still hits (at t = 9), one float less misses. */
static int caps_and_tmax(void)
{
    sc_shape c = shape_capsule(v3(0, 0, 0), v3(0, 0, 10), 1);
    sc_ray r = {v3(0, 0, 20), v3(0, 0, -1), 9};
    sc_raycast_result h = sc_raycast(&r, &c);
    ENSURE(h.hit && h.t == 9 && h.t_enter == 9 && h.t_exit == 21);
    ENSURE(near3(h.point, v3(0, 0, 11), 1e-6f) && near3(h.normal, v3(0, 0, 1), 1e-6f));
    r.tmax = nextafterf(9, 0);
    ENSURE(!sc_raycast(&r, &c).hit);
    /* the tangent to the bottom cap's sphere: z = -1, along x */
    sc_ray b = {v3(-5, 0, -1), v3(1, 0, 0), INFINITY};
    h = sc_raycast(&b, &c);
    ENSURE(h.hit && h.t_enter == 5 && h.t_exit == 5 && near3(h.normal, v3(0, 0, -1), 1e-6f));
    b.origin.z = nextafterf(-1, -2);
    ENSURE(!sc_raycast(&b, &c).hit);
    /* parallel to the axis inside the radius: enters through the bottom cap at z = -sqrt(0.75) */
    sc_ray p = {v3(0.5f, 0, -5), v3(0, 0, 2), INFINITY};
    h = sc_raycast(&p, &c);
    ENSURE(h.hit && fabsf(h.t_enter - (5 - sqrtf(0.75f)) / 2) <= 1e-6f &&
           fabsf(h.t_exit - (15 + sqrtf(0.75f)) / 2) <= 1e-6f);
    ENSURE(near3(h.normal, v3(0.5f, 0, -sqrtf(0.75f)), 1e-6f));
    return 0;
}

/* The origin inside, on the surface going in, on the surface going out, and along the surface. */
static int origins(void)
{
    sc_shape c = shape_capsule(v3(0, 0, 0), v3(0, 0, 10), 1);
    sc_ray in = {v3(0.25f, 0.25f, 4), v3(1, 2, 3), INFINITY};
    sc_raycast_result h = sc_raycast(&in, &c);
    ENSURE(h.hit && h.t == 0 && h.t_enter < 0 && h.t_exit > 0 && near3(h.normal, v3(0, 0, 0), 0));
    ENSURE(near3(h.point, in.origin, 0));
    sc_ray enter = {v3(1, 0, 5), v3(-1, 0, 0), INFINITY};
    h = sc_raycast(&enter, &c);
    ENSURE(h.hit && h.t == 0 && h.t_enter == 0 && h.t_exit == 2 && near3(h.normal, v3(1, 0, 0), 1e-6f));
    /* leaving through the top cap: z = 11 + t is in the capsule for t in [-12, 0] */
    sc_ray leave = {v3(0, 0, 11), v3(0, 0, 1), INFINITY};
    h = sc_raycast(&leave, &c);
    ENSURE(h.hit && h.t == 0 && h.t_enter == -12 && h.t_exit == 0 && near3(h.normal, v3(0, 0, 0), 0));
    /* along the surface (x = 1, y = 0): the whole cylinder's line z in [0, 10], t in [-5, 5] */
    sc_ray along = {v3(1, 0, 5), v3(0, 0, 1), INFINITY};
    h = sc_raycast(&along, &c);
    ENSURE(h.hit && h.t == 0 && h.t_enter == -5 && h.t_exit == 5 && near3(h.normal, v3(0, 0, 0), 0));
    along.origin.x = nextafterf(1, 2);
    ENSURE(!sc_raycast(&along, &c).hit);
    return 0;
}

/* A rotated axis: a = 0, b = (30, 40, 0), radius 5; (-4, 3, 0) is at distance 5 from the axis
 * (perpendicular to (3, 4, 0)), so the ray through it along z touches at t = 7 (from z = -7). */
static int rotated_pythagorean(void)
{
    sc_shape c = shape_capsule(v3(0, 0, 0), v3(30, 40, 0), 5);
    sc_ray r = {v3(-4, 3, -7), v3(0, 0, 1), INFINITY};
    sc_raycast_result h = sc_raycast(&r, &c);
    ENSURE(h.hit && h.t_enter == 7 && h.t_exit == 7 && near3(h.normal, v3(-0.8f, 0.6f, 0), 1e-6f));
    c.u.capsule.radius = nextafterf(5, 0);
    ENSURE(!sc_raycast(&r, &c).hit);
    c.u.capsule.radius = 5;
    ENSURE(sc_contains(v3(-4, 3, 0), &c).value && !sc_contains(v3(nextafterf(-4, -5), 3, 0), &c).value);
    sc_segment g = {v3(-4, 3, -7), v3(-4, 3, 0)};
    ENSURE(sc_linetest(&g, &c).value);
    g.b.z = -1e-30f;
    ENSURE(!sc_linetest(&g, &c).value);
    /* closest point of (-8, 6, 0) (distance 10 from the axis at 0): (-4, 3, 0) */
    sc_point_result p = sc_closest_point(v3(-8, 6, 0), &c);
    ENSURE(p.status == SC_OK && near3(p.point, v3(-4, 3, 0), 1e-5f));
    /* beyond b = (30, 40, 0) along the axis: (36, 48, 0) is 10 from b; closest (33, 44, 0) */
    p = sc_closest_point(v3(36, 48, 0), &c);
    ENSURE(near3(p.point, v3(33, 44, 0), 1e-5f));
    return 0;
}

/* Radius 0: the segment from (-1, 0, 0) to (1, 0, 0). */
static int zero_radius(void)
{
    sc_shape c = shape_capsule(v3(-1, 0, 0), v3(1, 0, 0), 0);
    sc_ray r = {v3(0.5f, -3, 0), v3(0, 1, 0), INFINITY};
    sc_raycast_result h = sc_raycast(&r, &c);
    /* crossing the segment: t = 3, the normal faces the ray across the axis: (0, -1, 0) */
    ENSURE(h.hit && h.t == 3 && h.t_enter == 3 && h.t_exit == 3);
    ENSURE(near3(h.point, v3(0.5f, 0, 0), 1e-6f) && near3(h.normal, v3(0, -1, 0), 1e-6f));
    r.origin.z = 1.4e-45f;
    ENSURE(!sc_raycast(&r, &c).hit);
    r.origin = v3(nextafterf(1, 2), -3, 0);
    ENSURE(!sc_raycast(&r, &c).hit);
    /* along the axis: from x = -5, the segment is t in [4, 6]; the end (-1, 0, 0) faces the ray */
    sc_ray along = {v3(-5, 0, 0), v3(1, 0, 0), INFINITY};
    h = sc_raycast(&along, &c);
    ENSURE(h.hit && h.t_enter == 4 && h.t_exit == 6 && near3(h.normal, v3(-1, 0, 0), 1e-6f));
    along.tmax = nextafterf(4, 0);
    ENSURE(!sc_raycast(&along, &c).hit);
    ENSURE(sc_contains(v3(0.25f, 0, 0), &c).value && !sc_contains(v3(0.25f, 1e-45f, 0), &c).value);
    sc_segment g = {v3(0, -1, -1), v3(0, 1, 1)};
    ENSURE(sc_linetest(&g, &c).value);
    g.b.z = nextafterf(1, 2);
    ENSURE(!sc_linetest(&g, &c).value);
    return 0;
}

/* Radius 0, rays exactly along the axis (integer points on the line through a and b): the hit is
 * at an end, where the normal is -dir / |dir| (docs/semantics.md). Rounding in the double frame
 * once put the end point just inside the segment, and the normal became the unit vector of a
 * rounding residual across the axis (2 of these 100000 rays, e.g. (0, 0, -1) for a ray of
 * direction (x, y, 0.23 |dir|)). */
static int zero_radius_along_axis(void)
{
    /* the two rays that failed: a = (-8, 46, -24), b = a + 41 (3, 3, 1), from o = a + 45 (3, 3, 1)
     * along -14 (3, 3, 1): the end b at t = 4/14, a at t = 45/14, the normal (3, 3, 1) / sqrt(19)
     * (it was (0, 0, -1)); and a = (-44, 15, -16), b = a + 41 (-3, 3, 1), o = a + 48 (-3, 3, 1),
     * dir -7 (-3, 3, 1): t = 1 and 48/7, the normal (-3, 3, 1) / sqrt(19) */
    float k = 1.0f / sqrtf(19.0f);
    sc_shape c1 = shape_capsule(v3(-8, 46, -24), v3(115, 169, 17), 0);
    sc_ray r1 = {v3(127, 181, 21), v3(-42, -42, -14), INFINITY};
    sc_raycast_result h = sc_raycast(&r1, &c1);
    ENSURE(h.hit && fabsf(h.t_enter - 4.0f / 14) <= 1e-6f && fabsf(h.t_exit - 45.0f / 14) <= 1e-5f);
    ENSURE(near3(h.normal, v3(3 * k, 3 * k, k), 1e-6f));
    sc_shape c2 = shape_capsule(v3(-44, 15, -16), v3(-167, 138, 25), 0);
    sc_ray r2 = {v3(-188, 159, 32), v3(21, -21, -7), INFINITY};
    h = sc_raycast(&r2, &c2);
    ENSURE(h.hit && fabsf(h.t_enter - 1) <= 1e-6f && fabsf(h.t_exit - 48.0f / 7) <= 1e-5f);
    ENSURE(near3(h.normal, v3(-3 * k, 3 * k, k), 1e-6f));
    uint32_t s = 5;
    int hits = 0;
#define NEXT() (s = s * 1664525u + 1013904223u, (int)(s >> 8))
    for (int i = 0; i < 100000; ++i) {
        int p = NEXT() % 9 - 4, q = NEXT() % 9 - 4, w = NEXT() % 9 - 4;
        if (!p && !q && !w) continue;
        int m = 1 + NEXT() % 50, j = 1 + NEXT() % 50, o = -(NEXT() % 50) - 1, back = NEXT() % 2;
        float ax = (float)(NEXT() % 100 - 50), ay = (float)(NEXT() % 100 - 50), az = (float)(NEXT() % 100 - 50);
        sc_shape c = shape_capsule(v3(ax, ay, az), v3(ax + (float)(m * p), ay + (float)(m * q), az + (float)(m * w)), 0);
        float sg = back ? 1.0f : -1.0f;
        int st = back ? o : m - o; /* from behind a going +, or beyond b going - */
        sc_ray r = {v3(ax + (float)(st * p), ay + (float)(st * q), az + (float)(st * w)),
                    v3(sg * (float)(j * p), sg * (float)(j * q), sg * (float)(j * w)), INFINITY};
        sc_raycast_result h = sc_raycast(&r, &c);
        ENSURE(h.hit);
        ++hits;
        float dl = sqrtf(r.dir.x * r.dir.x + r.dir.y * r.dir.y + r.dir.z * r.dir.z);
        ENSURE(near3(h.normal, v3(-r.dir.x / dl, -r.dir.y / dl, -r.dir.z / dl), 1e-6f));
    }
#undef NEXT
    ENSURE(hits > 90000);
    return 0;
}

/* a == b is the sphere: every query gives sc_raycast_sphere's (etc.) answer, bit for bit. */
static int ball_bit_identical(void)
{
    uint32_t s = 12345;
    for (int i = 0; i < 4000; ++i) {
        float v[12];
        for (int k = 0; k < 12; ++k) {
            s = s * 1664525u + 1013904223u;
            v[k] = (float)((int)(s >> 8) % 2001 - 1000) / 97.0f;
        }
        sc_vec3 c0 = v3(v[0] * 0.2f, v[1] * 0.2f, v[2] * 0.2f);
        float rad = fabsf(v[3]) * 0.3f * (i % 17 == 0 ? 0.0f : 1.0f);
        sc_shape cap = shape_capsule(c0, c0, rad), sph;
        memset(&sph, 0, sizeof sph);
        sph.type = SC_SHAPE_SPHERE;
        sph.u.sphere = (sc_sphere){c0, rad};
        sc_ray r = {v3(v[4], v[5], v[6]), v3(v[7] - v[4], v[8] - v[5], v[9] - v[6]), i % 2 ? INFINITY : fabsf(v[10])};
        if (r.dir.x == 0 && r.dir.y == 0 && r.dir.z == 0) continue;
        sc_raycast_result x = sc_raycast(&r, &cap), y = sc_raycast(&r, &sph);
        ENSURE(x.status == SC_OK && x.hit == y.hit);
        if (x.hit) ENSURE(same_bits(&x.t, &y.t, sizeof(float) * 9)); /* t, t_enter, t_exit, point, normal */
        sc_capsule cc = cap.u.capsule;
        sc_raycast_result z = sc_raycast_capsule(&r, &cc);
        ENSURE(z.hit == y.hit && (!z.hit || same_bits(&z.t, &y.t, sizeof(float) * 9)));
        sc_vec3 p = v3(v[10], v[11], v[4]);
        sc_point_result pc = sc_closest_point(p, &cap), ps = sc_closest_point(p, &sph);
        ENSURE(same_bits(&pc.point, &ps.point, sizeof pc.point));
        ENSURE(sc_contains(p, &cap).value == sc_contains(p, &sph).value);
        sc_segment g = {r.origin, p};
        ENSURE(sc_linetest(&g, &cap).value == sc_linetest(&g, &sph).value);
        sc_vec3 ec = sc__exit_normal(&r, &cap), es = sc__exit_normal(&r, &sph);
        ENSURE(same_bits(&ec, &es, sizeof ec));
    }
    return 0;
}

/* A unit capsule 1e30 away: the class is exact and the normal is right (computed relative to the
 * capsule, not from origin + t dir). The entry of the line y = 0.5, z = 1 is (1e30 - sqrt(0.75),
 * 0.5, 1), normal (-sqrt(0.75), 0.5, 0). */
static int far_capsule(void)
{
    sc_shape c = shape_capsule(v3(1e30f, 0, 0), v3(1e30f, 0, 2), 1);
    sc_ray r = {v3(0, 0.5f, 1), v3(1, 0, 0), INFINITY};
    sc_raycast_result h = sc_raycast(&r, &c);
    ENSURE(h.hit && near3(h.normal, v3(-sqrtf(0.75f), 0.5f, 0), 1e-6f));
    ENSURE(fabsf(h.t_enter / 1e30f - 1) <= 1e-6f && h.point.y == 0.5f && h.point.z == 1);
    r.origin.y = 1;
    h = sc_raycast(&r, &c);
    ENSURE(h.hit && near3(h.normal, v3(0, 1, 0), 1e-6f));
    r.origin.y = nextafterf(1, 2);
    ENSURE(!sc_raycast(&r, &c).hit);
    return 0;
}

/* The exit normal (the worlds' SC_INSIDE_EXIT): from (0, 0, 5) along +x it leaves at (1, 0, 5)
 * (normal +x); along +z through the top cap at (0, 0, 11) (normal +z); a zero-radius capsule faces
 * along the ray. */
static int exit_normals(void)
{
    sc_shape c = shape_capsule(v3(0, 0, 0), v3(0, 0, 10), 1);
    sc_ray r = {v3(0, 0, 5), v3(1, 0, 0), INFINITY};
    ENSURE(near3(sc__exit_normal(&r, &c), v3(1, 0, 0), 1e-6f));
    r.dir = v3(0, 0, 1);
    ENSURE(near3(sc__exit_normal(&r, &c), v3(0, 0, 1), 1e-6f));
    r.dir = v3(0, 0, -3);
    ENSURE(near3(sc__exit_normal_capsule(&r, &c.u.capsule), v3(0, 0, -1), 1e-6f));
    sc_shape z = shape_capsule(v3(-1, 0, 0), v3(1, 0, 0), 0);
    sc_ray q = {v3(0, 0, 0), v3(0, 2, 0), INFINITY};
    ENSURE(near3(sc__exit_normal(&q, &z), v3(0, 1, 0), 1e-6f));
    return 0;
}

/* sc__segments_within, worked by hand: (0,0,0)-(2,0,0) and (1,1,-1)-(1,1,1) are 1 apart (at
 * (1,0,0) and (1,1,0)); parallel (0,0,0)-(1,0,0) and (2,1,0)-(3,1,0) are sqrt(2) apart (the ends
 * (1,0,0) and (2,1,0)): 0.41421357f is 0.41421356797..., and (1 + it)^2 = 2 + 1.6e-8 >= 2,
 * while the float below it, 0.41421353816..., gives (1 + it)^2 = 2 - 6.8e-8 < 2. */
static int segments_within(void)
{
    ENSURE(sc__segments_within(v3(0, 0, 0), v3(2, 0, 0), v3(1, 1, -1), v3(1, 1, 1), 0.5f, 0.5f));
    ENSURE(!sc__segments_within(v3(0, 0, 0), v3(2, 0, 0), v3(1, 1, -1), v3(1, 1, 1), 0.5f, nextafterf(0.5f, 0)));
    ENSURE(sc__segments_within(v3(0, 0, 0), v3(1, 0, 0), v3(2, 1, 0), v3(3, 1, 0), 1, 0.41421357f));
    ENSURE(!sc__segments_within(v3(0, 0, 0), v3(1, 0, 0), v3(2, 1, 0), v3(3, 1, 0), 1, nextafterf(0.41421357f, 0)));
    /* the radii's sum is exact, not rounded (1 + 2^-30 is 1 in float): the points 0 and
     * (1, 2^-15, 0) are sqrt(1 + 2^-30) apart, within 1 + 2^-30 (its square is 1 + 2^-29 + 2^-60);
     * (1, 2^-14, 0) is sqrt(1 + 2^-28) away, beyond it */
    ENSURE(sc__segments_within(v3(0, 0, 0), v3(0, 0, 0), v3(1, 0x1p-15f, 0), v3(1, 0x1p-15f, 0), 1, 0x1p-30f));
    ENSURE(!sc__segments_within(v3(0, 0, 0), v3(0, 0, 0), v3(1, 0x1p-14f, 0), v3(1, 0x1p-14f, 0), 1, 0x1p-30f));
    /* points: (0,0,0) and (3,4,0) are 5 apart */
    ENSURE(sc__segments_within(v3(0, 0, 0), v3(0, 0, 0), v3(3, 4, 0), v3(3, 4, 0), 2, 3));
    ENSURE(!sc__segments_within(v3(0, 0, 0), v3(0, 0, 0), v3(3, 4, 0), v3(3, 4, 0), 2, nextafterf(3, 0)));
    /* crossing segments: distance 0 even with zero radii */
    ENSURE(sc__segments_within(v3(-1, 0, 0), v3(1, 0, 0), v3(0, -1, 0), v3(0, 1, 0), 0, 0));
    ENSURE(!sc__segments_within(v3(-1, 0, 0), v3(1, 0, 0), v3(0, -1, 1e-45f), v3(0, 1, 1e-45f), 0, 0));
    return 0;
}

/* The double-precision filter against exact arithmetic alone, on random near-touching inputs:
 * the same decisions (the filter only ever answers when it is sure). */
static int filter_agrees_with_exact(void)
{
    uint32_t s = 777;
    for (int i = 0; i < 3000; ++i) {
        float v[14];
        for (int k = 0; k < 14; ++k) {
            s = s * 1664525u + 1013904223u;
            v[k] = (float)((int)(s >> 8) % 41 - 20) / 4.0f;
        }
        v[12] = fabsf(v[12]);
        v[13] = fabsf(v[13]);
        sc_vec3 p = v3(v[0], v[1], v[2]), q = v3(v[3], v[4], v[5]), a = v3(v[6], v[7], v[8]), b = v3(v[9], v[10], v[11]);
        ENSURE(sc__segments_within(p, q, a, b, v[12], v[13]) == sc__capsule_decide_exact(0, v));
        sc_capsule c = {a, b, v[13]};
        ENSURE(sc__contains_capsule(p, &c) == (sc__capsule_decide_exact(2, (float[]){v[0], v[1], v[2], 0, 0, 0, v[6], v[7], v[8], v[9], v[10], v[11], v[13], 0}) <= 0));
        if (q.x == 0 && q.y == 0 && q.z == 0) continue;
        sc_ray r = {p, q, i % 2 ? INFINITY : v[12]};
        float rv[14] = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], r.tmax, v[13]};
        sc_shape sh = shape_capsule(a, b, v[13]);
        if (a.x == b.x && a.y == b.y && a.z == b.z) continue; /* the sphere's own path */
        ENSURE(sc_raycast(&r, &sh).hit == (sc__capsule_decide_exact(1, rv) == 1));
    }
    return 0;
}

static int validation(void)
{
    sc_capsule c = {v3(0, 0, 0), v3(0, 0, 1), 1};
    ENSURE(sc_capsule_check(&c) == SC_OK && sc_capsule_valid(&c));
    ENSURE(sc_capsule_check(NULL) == SC_ERR_NULL);
    c.a.y = NAN;
    ENSURE(sc_capsule_check(&c) == SC_ERR_CAPSULE_A && !sc_capsule_valid(&c));
    c.a.y = 0;
    c.b.z = INFINITY;
    ENSURE(sc_capsule_check(&c) == SC_ERR_CAPSULE_B);
    c.b.z = 1;
    c.radius = -0.0f;
    ENSURE(sc_capsule_check(&c) == SC_OK);
    c.radius = -1e-45f;
    ENSURE(sc_capsule_check(&c) == SC_ERR_CAPSULE_RADIUS_NEGATIVE);
    c.radius = NAN;
    ENSURE(sc_capsule_check(&c) == SC_ERR_CAPSULE_RADIUS);
    sc_shape s = shape_capsule(c.a, c.b, NAN);
    sc_ray r = {v3(0, 0, 0), v3(1, 0, 0), INFINITY};
    ENSURE(sc_raycast(&r, &s).status == SC_ERR_CAPSULE_RADIUS);
    ENSURE(sc_raycast_capsule(&r, &s.u.capsule).status == SC_ERR_CAPSULE_RADIUS);
    ENSURE(sc_contains(v3(0, 0, 0), &s).status == SC_ERR_CAPSULE_RADIUS);
    ENSURE(strcmp(sc_status_message(SC_ERR_CAPSULE_RADIUS_NEGATIVE), "capsule.radius is negative") == 0);
    return 0;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int before = g_failures;
    RUN_TEST(tangent_one_float);
    RUN_TEST(caps_and_tmax);
    RUN_TEST(origins);
    RUN_TEST(rotated_pythagorean);
    RUN_TEST(zero_radius);
    RUN_TEST(zero_radius_along_axis);
    RUN_TEST(ball_bit_identical);
    RUN_TEST(far_capsule);
    RUN_TEST(exit_normals);
    RUN_TEST(segments_within);
    RUN_TEST(filter_agrees_with_exact);
    RUN_TEST(validation);
    int failed = g_failures - before;
    printf("%d passed, %d failed\n", g_run - failed, failed);
    return failed ? 1 : 0;
}
