/* Native unit tests of the C API. Expected values are derived by hand from the spec.
 * Usage: slabcast_tests [NAME-SUBSTRING]  (runs the tests whose name contains it) */
#include "slabcast.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

#define ENSURE_NEAR(a, b, tol) ENSURE(fabsf((float)(a) - (float)(b)) <= (tol))
#define ENSURE_VEC(v, X, Y, Z) ENSURE((v).x == (X) && (v).y == (Y) && (v).z == (Z))

static sc_vec3 v3(float x, float y, float z) { return (sc_vec3){x, y, z}; }
static sc_ray ray(sc_vec3 o, sc_vec3 d) { return (sc_ray){o, d, INFINITY}; }
static sc_shape aabb(sc_vec3 lo, sc_vec3 hi)
{
    sc_shape s = {0};
    s.type = SC_SHAPE_AABB;
    s.u.aabb = (sc_aabb){lo, hi};
    return s;
}
static sc_shape sphere(sc_vec3 c, float r)
{
    sc_shape s = {0};
    s.type = SC_SHAPE_SPHERE;
    s.u.sphere = (sc_sphere){c, r};
    return s;
}
static sc_shape plane(sc_vec3 n, float d)
{
    sc_shape s = {0};
    s.type = SC_SHAPE_PLANE;
    s.u.plane = (sc_plane){n, d};
    return s;
}
static sc_shape obb(sc_vec3 c, sc_vec3 a0, sc_vec3 a1, sc_vec3 a2, sc_vec3 h)
{
    sc_shape s = {0};
    s.type = SC_SHAPE_OBB;
    s.u.obb.center = c;
    s.u.obb.axes[0] = a0;
    s.u.obb.axes[1] = a1;
    s.u.obb.axes[2] = a2;
    s.u.obb.half = h;
    return s;
}

/* The tutorial's unit test (seed 000): box (0.5..2)^3. */
static int tutorial_rays(void)
{
    sc_shape b = aabb(v3(0.5f, 0.5f, 0.5f), v3(2, 2, 2));
    sc_ray r0 = ray(v3(-2, -2, -2), v3(2, 2, 2));
    sc_raycast_result h = sc_raycast(&r0, &b);
    /* x: (0.5+2)/2 = 1.25 .. (2+2)/2 = 2, the same on every axis. */
    ENSURE(h.status == SC_OK && h.hit);
    ENSURE(h.t == 1.25f && h.t_enter == 1.25f && h.t_exit == 2.0f);
    ENSURE_VEC(h.point, 0.5f, 0.5f, 0.5f);
    ENSURE(fabsf(h.normal.x) + fabsf(h.normal.y) + fabsf(h.normal.z) == 1.0f); /* a corner: any face */

    sc_ray r1 = ray(v3(0, 0, 0), v3(0, 1, 0)); /* x = 0 is outside [0.5, 2], parallel */
    ENSURE(!sc_raycast(&r1, &b).hit);
    sc_ray r2 = ray(v3(0, 0, 0), v3(-1, 0, 0));
    ENSURE(!sc_raycast(&r2, &b).hit);
    sc_ray r3 = ray(v3(1, 1, 1), v3(1, 1, 0)); /* origin inside */
    h = sc_raycast(&r3, &b);
    ENSURE(h.hit && h.t == 0.0f && h.t_enter == -0.5f && h.t_exit == 1.0f);
    ENSURE_VEC(h.normal, 0, 0, 0);
    ENSURE_VEC(h.point, 1, 1, 1);
    sc_ray r4 = ray(v3(0.4f, 1, 1), v3(-1, 0, 0)); /* moving away */
    ENSURE(!sc_raycast(&r4, &b).hit);
    return 0;
}

/* Direction components 0 and -0 with the origin exactly on a face plane: no NaN. */
static int axis_parallel_on_face(void)
{
    sc_shape b = aabb(v3(0, 0, 0), v3(1, 1, 1));
    float zeros[2] = {0.0f, -0.0f};
    for (int i = 0; i < 2; ++i) {
        sc_ray r = ray(v3(-1, 0, 1), v3(1, zeros[i], zeros[i])); /* slides along the edge y=0, z=1 */
        sc_raycast_result h = sc_raycast(&r, &b);
        ENSURE(h.hit && h.t == 1.0f && h.t_enter == 1.0f && h.t_exit == 2.0f);
        ENSURE_VEC(h.normal, -1, 0, 0);
        ENSURE_VEC(h.point, 0, 0, 1);
        sc_ray above = ray(v3(-1, zeros[i], 1.5f), v3(1, zeros[i], 0)); /* z = 1.5 > max */
        ENSURE(!sc_raycast(&above, &b).hit);
    }
    /* -0 in the origin and the box behave like 0. */
    sc_shape nb = aabb(v3(-0.0f, -0.0f, -0.0f), v3(1, 1, 1));
    sc_ray r = ray(v3(-0.0f, 0.5f, 0.5f), v3(-0.0f, 1, 0));
    sc_raycast_result h = sc_raycast(&r, &nb);
    ENSURE(h.hit && h.t == 0.0f && h.t_enter == -0.5f && h.t_exit == 0.5f);
    ENSURE(signbit(h.t) == 0);
    return 0;
}

static int grazing_and_tmax(void)
{
    sc_shape b = aabb(v3(1, 1, -1), v3(2, 2, 1));
    /* Enters through the edge x=1,y=1 and crosses the interior: [1, 2]. (The spec's sample
     * results line shows t_exit 1 here; x and y both leave at t = 2.) */
    sc_ray diag = ray(v3(0, 0, 0), v3(1, 1, 0));
    sc_raycast_result h = sc_raycast(&diag, &b);
    ENSURE(h.hit && h.t == 1.0f && h.t_enter == 1.0f && h.t_exit == 2.0f);
    ENSURE_VEC(h.point, 1, 1, 0);
    /* Grazes the edge x=1,y=2 only: x in slab for t in [1,2], y = 1+t for t in [0,1]. */
    sc_ray corner = ray(v3(0, 1, 0), v3(1, 1, 0));
    h = sc_raycast(&corner, &b);
    ENSURE(h.hit && h.t == 1.0f && h.t_enter == 1.0f && h.t_exit == 1.0f);
    ENSURE_VEC(h.point, 1, 2, 0);
    corner.tmax = 1.0f; /* tmax exactly at the entry: closed */
    ENSURE(sc_raycast(&corner, &b).hit);
    corner.tmax = 0.5f;
    ENSURE(!sc_raycast(&corner, &b).hit);
    /* A box of zero thickness on every axis: a point. */
    sc_shape pt = aabb(v3(3, 3, 0), v3(3, 3, 0));
    sc_ray r = ray(v3(0, 0, 0), v3(1, 1, 0));
    h = sc_raycast(&r, &pt);
    ENSURE(h.hit && h.t == 3.0f && h.t_exit == 3.0f);
    sc_ray r2 = ray(v3(0, 0, 0), v3(1, 2, 0));
    ENSURE(!sc_raycast(&r2, &pt).hit);
    return 0;
}

static int obb_degenerate_and_rotated(void)
{
    /* 0 A.D. note: half 0 on u; the ray crosses the flat box at t = e/f. */
    sc_shape flat = obb(v3(4, 0, 0), v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1), v3(0, 2, 2));
    sc_ray r = ray(v3(0, 1, 0), v3(2, 0, 0));
    sc_raycast_result h = sc_raycast(&r, &flat);
    ENSURE(h.hit && h.t == 2.0f && h.t_enter == 2.0f && h.t_exit == 2.0f);
    ENSURE_VEC(h.normal, -1, 0, 0);
    /* Axes a signed permutation: u = +y, v = -x, w = z; half (1, 2, 3), centre (0,0,0):
     * world extent x in [-2,2], y in [-1,1], z in [-3,3]. */
    sc_shape rot = obb(v3(0, 0, 0), v3(0, 1, 0), v3(-1, 0, 0), v3(0, 0, 1), v3(1, 2, 3));
    sc_ray r2 = ray(v3(-8, 0, 0), v3(2, 0, 0));
    h = sc_raycast(&r2, &rot);
    ENSURE(h.hit && h.t == 3.0f && h.t_exit == 5.0f); /* x = -2 at t = 3, x = 2 at t = 5 */
    ENSURE_VEC(h.normal, -1, 0, 0);
    return 0;
}

static int sphere_exact(void)
{
    sc_shape s = sphere(v3(0, 0, 0), 2);
    sc_ray tangent = ray(v3(-5, 2, 0), v3(1, 0, 0)); /* touches (0,2,0) */
    sc_raycast_result h = sc_raycast(&tangent, &s);
    ENSURE(h.hit && h.t == 5.0f && h.t_enter == 5.0f && h.t_exit == 5.0f);
    ENSURE_VEC(h.normal, 0, 1, 0);
    sc_ray off = ray(v3(-5, 2.5f, 0), v3(1, 0, 0));
    ENSURE(!sc_raycast(&off, &s).hit);
    sc_ray behind = ray(v3(5, 0, 0), v3(1, 0, 0)); /* the cookbook reports this at negative t */
    ENSURE(!sc_raycast(&behind, &s).hit);
    sc_ray inside = ray(v3(1, 0, 0), v3(0, -4, 0));
    h = sc_raycast(&inside, &s);
    /* y^2 <= 3 at x = 1: t in [-sqrt3/4, sqrt3/4] */
    ENSURE(h.hit && h.t == 0.0f && h.t_enter < 0.0f);
    ENSURE_NEAR(h.t_exit, 0.4330127f, 1e-6f);
    ENSURE_VEC(h.normal, 0, 0, 0);
    sc_shape point = sphere(v3(3, 0, 0), 0);
    sc_ray through = ray(v3(0, 0, 0), v3(0.5f, 0, 0));
    h = sc_raycast(&through, &point);
    ENSURE(h.hit && h.t == 6.0f && h.t_exit == 6.0f);
    ENSURE_VEC(h.normal, -1, 0, 0);
    through.tmax = 6.0f;
    ENSURE(sc_raycast(&through, &point).hit);
    through.tmax = 5.5f;
    ENSURE(!sc_raycast(&through, &point).hit);
    return 0;
}

static int plane_two_sided(void)
{
    sc_shape p = plane(v3(0, 2, 0), 4); /* y = 2 */
    sc_ray down = ray(v3(0, 5, 0), v3(0, -1, 0));
    sc_raycast_result h = sc_raycast(&down, &p);
    ENSURE(h.hit && h.t == 3.0f);
    ENSURE_VEC(h.normal, 0, 1, 0);
    sc_ray up = ray(v3(0, -1, 0), v3(0, 2, 0));
    h = sc_raycast(&up, &p);
    ENSURE(h.hit && h.t == 1.5f);
    ENSURE_VEC(h.normal, 0, -1, 0); /* faces the ray */
    sc_ray in_plane = ray(v3(1, 2, 1), v3(1, 0, 0));
    h = sc_raycast(&in_plane, &p);
    ENSURE(h.hit && h.t == 0.0f);
    sc_ray parallel = ray(v3(1, 3, 1), v3(1, 0, 0));
    ENSURE(!sc_raycast(&parallel, &p).hit);
    down.tmax = 3.0f;
    ENSURE(sc_raycast(&down, &p).hit);
    down.tmax = 2.5f;
    ENSURE(!sc_raycast(&down, &p).hit);
    return 0;
}

static int linetest_cases(void)
{
    sc_shape b = aabb(v3(0, 0, 0), v3(4, 4, 4));
    sc_segment inside = {v3(1, 1, 1), v3(2, 2, 2)}; /* the cookbook calls this a miss */
    ENSURE(sc_linetest(&inside, &b).value == 1);
    sc_segment touching = {v3(-2, 1, 1), v3(0, 1, 1)};
    ENSURE(sc_linetest(&touching, &b).value == 1);
    sc_segment short_of = {v3(-2, 1, 1), v3(-0.5f, 1, 1)};
    ENSURE(sc_linetest(&short_of, &b).value == 0);
    sc_segment point_on_face = {v3(4, 2, 2), v3(4, 2, 2)};
    ENSURE(sc_linetest(&point_on_face, &b).value == 1);
    sc_shape p = plane(v3(1, 0, 0), 3);
    sc_segment ends_on = {v3(0, 0, 0), v3(3, 5, 5)};
    ENSURE(sc_linetest(&ends_on, &p).value == 1);
    sc_segment before = {v3(0, 0, 0), v3(2.5f, 0, 0)};
    ENSURE(sc_linetest(&before, &p).value == 0);
    sc_shape s = sphere(v3(0, 0, 0), 1);
    sc_segment chord_inside = {v3(-0.5f, 0, 0), v3(0.5f, 0, 0)};
    ENSURE(sc_linetest(&chord_inside, &s).value == 1);
    return 0;
}

static int closest_and_contains(void)
{
    /* Seed 003: centre (2,4,0), half extents (1,2,3). */
    sc_shape b = aabb(v3(1, 2, -3), v3(3, 6, 3));
    sc_point_result c = sc_closest_point(v3(2, 3.4f, 1), &b);
    ENSURE(c.status == SC_OK);
    ENSURE_VEC(c.point, 2, 3.4f, 1);
    sc_shape u = aabb(v3(-0.5f, -0.5f, -0.5f), v3(0.5f, 0.5f, 0.5f));
    c = sc_closest_point(v3(-1, 3, 1.5f), &u);
    ENSURE_VEC(c.point, -0.5f, 0.5f, 0.5f);
    ENSURE(sc_contains(v3(0.5f, -0.5f, 0), &u).value == 1); /* on a face: closed */
    ENSURE(sc_contains(v3(0.5f, -0.75f, 0), &u).value == 0);
    sc_shape p = plane(v3(0, 0, 2), 2); /* z = 1 */
    c = sc_closest_point(v3(3, 4, 5), &p);
    ENSURE_VEC(c.point, 3, 4, 1);
    ENSURE(sc_contains(v3(0, 0, 1), &p).status == SC_ERR_UNSUPPORTED);
    sc_shape s = sphere(v3(1, 0, 0), 2);
    c = sc_closest_point(v3(1, 0, 8), &s);
    ENSURE_VEC(c.point, 1, 0, 2);
    ENSURE(sc_contains(v3(1, 2, 0), &s).value == 1);
    return 0;
}

static int invalid_inputs(void)
{
    sc_shape b = aabb(v3(0, 0, 0), v3(1, 1, 1));
    sc_ray zero = ray(v3(0, 0, 0), v3(0, -0.0f, 0));
    ENSURE(sc_raycast(&zero, &b).status == SC_ERR_RAY_DIR_ZERO);
    ENSURE(strstr(sc_status_message(SC_ERR_RAY_DIR_ZERO), "ray.dir") != NULL);
    sc_ray nanr = ray(v3(NAN, 0, 0), v3(1, 0, 0));
    ENSURE(sc_raycast(&nanr, &b).status == SC_ERR_RAY_ORIGIN);
    sc_ray neg = {v3(0, 0, 0), v3(1, 0, 0), -1.0f};
    ENSURE(sc_raycast(&neg, &b).status == SC_ERR_RAY_TMAX);
    sc_ray nant = {v3(0, 0, 0), v3(1, 0, 0), NAN};
    ENSURE(!sc_ray_valid(&nant));
    sc_ray ok = ray(v3(0, 0, 0), v3(1, 0, 0));
    ENSURE(sc_ray_valid(&ok));
    sc_shape bad = aabb(v3(0, 2, 0), v3(1, 1, 1));
    sc_raycast_result h = sc_raycast(&ok, &bad);
    ENSURE(h.status == SC_ERR_AABB_MIN_GT_MAX && h.hit == 0);
    sc_shape skew = obb(v3(0, 0, 0), v3(1, 0, 0), v3(0.1f, 1, 0), v3(0, 0, 1), v3(1, 1, 1));
    ENSURE(sc_raycast(&ok, &skew).status == SC_ERR_OBB_AXES_NOT_ORTHONORMAL);
    sc_shape negr = sphere(v3(0, 0, 0), -1);
    ENSURE(sc_raycast(&ok, &negr).status == SC_ERR_SPHERE_RADIUS_NEGATIVE);
    sc_shape zp = plane(v3(0, 0, 0), 1);
    ENSURE(sc_raycast(&ok, &zp).status == SC_ERR_PLANE_NORMAL_ZERO);
    sc_shape unknown = b;
    unknown.type = 42;
    ENSURE(sc_raycast(&ok, &unknown).status == SC_ERR_SHAPE_TYPE);
    ENSURE(sc_raycast(NULL, &b).status == SC_ERR_NULL);
    ENSURE(sc_raycast(&ok, NULL).status == SC_ERR_NULL);
    ENSURE(sc_linetest(NULL, &b).status == SC_ERR_NULL);
    ENSURE(sc_closest_point(v3(INFINITY, 0, 0), &b).status == SC_ERR_POINT);
    for (int s = 0; s < SC_STATUS_COUNT; ++s) ENSURE(strlen(sc_status_message((sc_status)s)) > 0);
    return 0;
}

/* Huge coordinates: differences would overflow without rescaling. */
static int huge_values(void)
{
    sc_shape b = aabb(v3(-3e38f, -1, -1), v3(-2.5e38f, 1, 1));
    sc_ray r = ray(v3(3e38f, 0, 0), v3(-1e38f, 0, 0));
    sc_raycast_result h = sc_raycast(&r, &b);
    /* x = 3e38 - t*1e38 reaches -2.5e38 at t = 5.5 and -3e38 at t = 6 */
    ENSURE(h.hit);
    ENSURE_NEAR(h.t, 5.5f, 1e-5f);
    ENSURE_NEAR(h.t_exit, 6.0f, 1e-5f);
    sc_shape s = sphere(v3(0, 0, 0), 3e38f);
    sc_ray r2 = ray(v3(0, 2e38f, 0), v3(0, 1, 0));
    h = sc_raycast(&r2, &s);
    ENSURE(h.hit && h.t == 0.0f);
    return 0;
}

/* Found by the fuzzers (tools/fuzz, docs/fuzzing.md); each was a wrong answer, a NaN or an
 * infinity before its fix. */
static int fuzz_regressions(void)
{
    const float tiny = 0x1p-146f; /* a subnormal */
    /* A subnormal dir (max component below 2^-127): its power-of-two normalization factor was
     * infinite, and 0 * inf made the sphere's t_enter NaN. Origin at the centre of a point ball. */
    sc_shape pt = sphere(v3(0, 0, 0), 0);
    sc_ray r = ray(v3(0, 0, 0), v3(0x1.1cp-143f, 0, 0));
    r.tmax = 0;
    sc_raycast_result h = sc_raycast(&r, &pt);
    ENSURE(h.hit && h.t == 0 && !isnan(h.t_enter) && !isnan(h.t_exit) && h.t_enter <= h.t_exit);
    /* t past FLT_MAX (a tiny dir, tmax = inf) was +inf, and the sphere's point NaN (inf * 0):
     * now FLT_MAX, and the point finite. */
    sc_ray far = ray(v3(-41.5f, 0, 0), v3(0x1.cp-146f, 0, 0));
    sc_shape box = aabb(v3(0, 0, 0), v3(0, 0, 0));
    h = sc_raycast(&far, &box);
    ENSURE(h.hit && h.t == FLT_MAX && h.t_enter == FLT_MAX && h.t_exit == FLT_MAX);
    ENSURE_VEC(h.point, 0, 0, 0);
    h = sc_raycast(&far, &pt);
    ENSURE(h.hit && h.t == FLT_MAX && isfinite(h.point.x) && isfinite(h.point.y) && isfinite(h.point.z));
    far.tmax = FLT_MAX; /* the exact entry is past FLT_MAX, so past tmax: a miss */
    ENSURE(!sc_raycast(&far, &box).hit);
    /* A plane hit at t past FLT_MAX, whose point is past the float range too. */
    sc_shape pl = plane(v3(2.00390601f, 0, -36.5f), 0);
    sc_ray glancing = ray(v3(-50, 0, 0x1.68p-137f), v3(0x1.68p-137f, 1111.25012f, 0));
    h = sc_raycast(&glancing, &pl);
    ENSURE(h.hit && h.t == FLT_MAX && isfinite(h.point.x) && isfinite(h.point.y) && isfinite(h.point.z));
    /* The closest point of a plane far past the float range (d / |normal| ~ 1e52): pl.d * k
     * overflowed and inf - inf or 0 * inf made it NaN. */
    sc_shape farplane = plane(v3(0, 9.111663e-41f, 1.431147e-16f), -9.38291903e+36f);
    sc_point_result c = sc_closest_point(v3(0, 0, 0), &farplane);
    ENSURE(c.status == SC_OK && c.point.x == 0 && isfinite(c.point.y) && c.point.z == -FLT_MAX);
    sc_shape farplane2 = plane(v3(0x1.fefefep-121f, 0x1.060606p-121f, 0x1.24545ep-124f), 0x1.ecececp+109f);
    c = sc_closest_point(v3(0x1.fefefep+127f, 0x1.fefefep+127f, 0x1.fefefep+127f), &farplane2);
    ENSURE(c.status == SC_OK && isfinite(c.point.x) && isfinite(c.point.y) && isfinite(c.point.z));
    /* Slabs: t_enter and t_exit both overflowed to +inf (tiny dir components), and inf <= inf
     * made a hit of a ray that misses: it passes the box at x = 0 long after leaving its y range. */
    sc_shape thin = aabb(v3(0, 0, -1), v3(1, 1, 1));
    sc_ray slow = ray(v3(-100, -50, 0), v3(tiny, 0x1p-140f, 0));
    h = sc_raycast(&slow, &thin);
    ENSURE(h.status == SC_OK && !h.hit);
    slow.origin.y = -100.5f; /* x in the slab for t in [100, 101] * 2^146, y for [100.5, 101.5] * 2^146 */
    slow.dir.y = tiny;
    h = sc_raycast(&slow, &thin);
    ENSURE(h.hit && h.t == FLT_MAX);
    /* A tiny ball far along the line: r^2 and |f|^2 both underflowed to 0 in the normalized
     * frame, a tangent where the line passes 1e-11 from a ball of radius 5e-18. */
    sc_shape speck = sphere(v3(0, 0x1.158p-138f, 0x1.fap-134f), 0x1.58cp-58f);
    sc_segment s1 = {v3(-0x1p+63f, 0x1.0000f6p-95f, -0x1.0206p-59f), v3(0x1p-130f, 0x1.5cf4p-37f, 0)};
    ENSURE(sc_linetest(&s1, &speck).status == SC_OK && !sc_linetest(&s1, &speck).value);
    /* A point ball 3.4e-39 off a line 2.25e15 long: normalizing m first flushed the offset. */
    sc_shape dot = sphere(v3(0x1.28p-128f, 0x1.758p-138f, 0), 0);
    sc_segment s2 = {v3(0, 0, -0x1p+51f), v3(0, 0, 0)};
    ENSURE(!sc_linetest(&s2, &dot).value);
    /* A point ball at the origin, a line through it (in float), tmax far short of it: the
     * squared distance left to travel underflowed to 0 <= h2 = 0. */
    sc_ray shortr = ray(v3(0, 0, 0x1.ffp-125f), v3(0x1.0053p-126f, -0.0f, -0x1.0002fep+1f));
    shortr.tmax = tiny;
    ENSURE(!sc_raycast(&shortr, &pt).hit);
    return 0;
}

/* docs/semantics.md, "Extreme inputs". Every expectation is derived by hand in its comment. */
static int extreme_inputs(void)
{
    const float tiny = 0x1p-130f;
    /* A box behind the origin in x: min.x = 2^-144 > 0 and x = -64 t <= 0 for t >= 0, a miss.
     * The float slab quotient (2^-144 - 0) / -64 = -2^-150 rounded to -0, and -0 >= 0 made it a
     * hit at t = 0 (found by fuzz_world). */
    sc_shape behind = aabb(v3(0x1p-144f, 0x1p-144f, 0x1p-144f), v3(0x1p-144f, 2.0f, 0x1p-141f));
    sc_ray diag = ray(v3(0, 0, 0), v3(-64, -64, -64));
    diag.tmax = 64;
    ENSURE(sc_raycast(&diag, &behind).status == SC_OK && !sc_raycast(&diag, &behind).hit);
    /* A ball at distance 9..11 along z, dir 2^-130: t_enter = 9 * 2^130 > FLT_MAX. A hit with
     * tmax = inf, reported t = t_enter = FLT_MAX, and the point is the exact entry (0, 0, 9),
     * not origin + FLT_MAX * dir (about 0.25). With tmax = FLT_MAX: t_enter > tmax, a miss. */
    sc_ray slow = ray(v3(0, 0, 0), v3(0, 0, tiny));
    sc_raycast_result h = sc_raycast(&slow, &(sc_shape){.type = SC_SHAPE_SPHERE, .u.sphere = {{0, 0, 10}, 1}});
    ENSURE(h.hit && h.t == FLT_MAX && h.t_enter == FLT_MAX && h.t_exit == FLT_MAX);
    ENSURE(h.point.x == 0 && h.point.y == 0 && h.point.z == 9 && h.normal.z == -1);
    slow.tmax = FLT_MAX;
    ENSURE(!sc_raycast(&slow, &(sc_shape){.type = SC_SHAPE_SPHERE, .u.sphere = {{0, 0, 10}, 1}}).hit);
    slow.tmax = INFINITY;
    /* The same for an OBB (the unit cube about (0, 0, 10)) and a plane z = 9. */
    sc_shape cube = {.type = SC_SHAPE_OBB, .u.obb = {{0, 0, 10}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {1, 1, 1}}};
    h = sc_raycast(&slow, &cube);
    ENSURE(h.hit && h.t == FLT_MAX && h.point.x == 0 && h.point.y == 0 && h.point.z == 9);
    sc_shape z9 = {.type = SC_SHAPE_PLANE, .u.plane = {{0, 0, 1}, 9}};
    h = sc_raycast(&slow, &z9);
    ENSURE(h.hit && h.t == FLT_MAX && h.point.x == 0 && h.point.y == 0 && h.point.z == 9);
    /* An AABB [-1, 1] x [-1, 1] x [8, 10] and dir (2^-134, 0, 2^-130): t_enter = 8 * 2^130, where
     * x = 8 * 2^130 * 2^-134 = 0.5: the point (0.5, 0, 8). */
    sc_ray slant = ray(v3(0, 0, 0), v3(0x1p-134f, 0, tiny));
    h = sc_raycast(&slant, &(sc_shape){.type = SC_SHAPE_AABB, .u.aabb = {{-1, -1, 8}, {1, 1, 10}}});
    ENSURE(h.hit && h.t == FLT_MAX && h.point.x == 0.5f && h.point.y == 0 && h.point.z == 8 && h.normal.z == -1);
    /* Subnormals: the plane x = 2^-141 and dir (2^-147, 1, 0) from the origin: normal . dir =
     * 2^-147 is not 0, so the ray is not parallel; t = 2^-141 / 2^-147 = 64, the point
     * (2^-141, 64, 0). The rescaled float normal times dir underflowed to 0: a false miss. */
    sc_ray sub = ray(v3(0, 0, 0), v3(0x1p-147f, 1, 0));
    sc_shape px = {.type = SC_SHAPE_PLANE, .u.plane = {{1, 0, 0}, 0x1p-141f}};
    h = sc_raycast(&sub, &px);
    ENSURE(h.hit && h.t == 64 && h.point.x == 0x1p-141f && h.point.y == 64 && h.point.z == 0 && h.normal.x == -1);
    /* Far shapes: a unit ball at the origin and rays from x = -2^100 with dir (2^100, y, 0):
     * the line passes the centre at distance |y| * 2^100 / |dir| (within 2^-200 of |y|), so
     * y = 0.999 hits and y = 1.001 misses, at 2^100 radii. */
    sc_shape ball = {.type = SC_SHAPE_SPHERE, .u.sphere = {{0, 0, 0}, 1}};
    sc_ray farr = ray(v3(-0x1p100f, 0.999f, 0), v3(0x1p100f, -0.999f, 0));
    h = sc_raycast(&farr, &ball); /* aimed through the centre: a hit, t near 1 */
    ENSURE(h.hit && fabsf(h.t - 1.0f) < 1e-6f);
    farr = ray(v3(-0x1p100f, 0, 0), v3(0x1p100f, 0.999f, 0));
    ENSURE(sc_raycast(&farr, &ball).hit);
    farr.dir.y = 1.001f;
    ENSURE(!sc_raycast(&farr, &ball).hit);
    sc_shape fcube = {.type = SC_SHAPE_OBB, .u.obb = {{0, 0, 0}, {{0.6f, 0.8f, 0}, {-0.8f, 0.6f, 0}, {0, 0, 1}}, {1, 1, 1}}};
    /* the cube rotated about z: its extent along y is 0.8 + 0.6 = 1.4 at x = 0.2 and its corner
     * (0.6 - 0.8, 0.8 + 0.6) = (-0.2, 1.4); a line y = 1.39 at x near 0 passes inside, 1.41 above */
    farr = ray(v3(-0x1p100f, 1.39f, 0), v3(0x1p100f, 0, 0));
    ENSURE(sc_raycast(&farr, &fcube).hit);
    farr.origin.y = 1.41f;
    ENSURE(!sc_raycast(&farr, &fcube).hit);
    return 0;
}

/* docs/semantics.md, subnormals: ordinary numbers, as exact as any other. 2^-149 is the
 * smallest positive float. Expected values by hand. */
static int subnormal_inputs(void)
{
    const float s = 0x1p-149f;
    /* Plane x = 1, ray along x with a subnormal dir: exact t = 2^149, past FLT_MAX. The old
     * float products underflowed to 0 (a parallel ray off the plane: a false miss). */
    sc_shape px = plane(v3(1, 0, 0), 1);
    sc_ray r = ray(v3(0, 0, 0), v3(s, 0, 0));
    sc_raycast_result h = sc_raycast(&r, &px);
    ENSURE(h.status == SC_OK && h.hit && h.t == FLT_MAX && h.t_enter == FLT_MAX && h.t_exit == FLT_MAX);
    ENSURE_VEC(h.point, 1, 0, 0);
    ENSURE_VEC(h.normal, -1, 0, 0);
    r.dir = v3(s, s, 0); /* exact t = 2^149 again; point (1, 1, 0) */
    h = sc_raycast(&r, &px);
    ENSURE(h.hit && h.t == FLT_MAX);
    ENSURE_VEC(h.point, 1, 1, 0);
    /* The same plane with a subnormal normal and d: 3x + y = 3 scaled by 2^-149. */
    sc_shape ps = plane(v3(3 * s, s, 0), 3 * s);
    sc_ray rx = ray(v3(0, 0, 0), v3(1, 0, 0));
    h = sc_raycast(&rx, &ps);
    ENSURE(h.hit && h.t == 1.0f);
    ENSURE_VEC(h.point, 1, 0, 0);
    ENSURE(fabsf(h.normal.x + 0.9486833f) <= 1e-6f && fabsf(h.normal.y + 0.31622777f) <= 1e-6f); /* -(3,1)/sqrt(10) */
    sc_point_result c = sc_closest_point(v3(0, 0, 5), &ps); /* (0,0,5) + (3,1,0) * 3/10 */
    ENSURE(c.status == SC_OK && fabsf(c.point.x - 0.9f) <= 1e-6f && fabsf(c.point.y - 0.3f) <= 1e-6f && c.point.z == 5);
    /* A rotated OBB and a subnormal dir: the answer is that of the same ray with dir (1,0,1)
     * (a positive scale of dir changes nothing). Box frame: m = o - c = (-5, 0, -10),
     * ol = (-11, 0, -2), dl ~ (1.4, 0, -0.2): axis 0 gives t in [5.71, 10], axis 2 t <= 5: a
     * miss. The float path had the products underflow and reported a hit. */
    sc_shape rot = obb(v3(5, 0, 10), v3(0.6f, 0, 0.8f), v3(0, 1, 0), v3(-0.8f, 0, 0.6f), v3(3, 1, 3));
    sc_ray rs = ray(v3(0, 0, 0), v3(s, 0, s));
    sc_ray rn = ray(v3(0, 0, 0), v3(1, 0, 1));
    ENSURE(!sc_raycast(&rn, &rot).hit);
    ENSURE(sc_raycast(&rs, &rot).status == SC_OK && !sc_raycast(&rs, &rot).hit);
    /* Sphere: centre (0,0,10), radius 1, dir (0,0,2^-149): entry at z = 9, t = 9 * 2^149. */
    sc_shape sp = sphere(v3(0, 0, 10), 1);
    sc_ray rz = ray(v3(0, 0, 0), v3(0, 0, s));
    h = sc_raycast(&rz, &sp);
    ENSURE(h.hit && h.t == FLT_MAX && h.t_exit == FLT_MAX);
    ENSURE_VEC(h.point, 0, 0, 9);
    ENSURE_VEC(h.normal, 0, 0, -1);
    /* A ball of radius 2^-149 at (0,0,1): an axis ray at offset 2^-149 is tangent (a hit),
     * at 2 * 2^-149 it misses. */
    sc_shape speck = sphere(v3(0, 0, 1), s);
    sc_ray t1 = ray(v3(0, s, 0), v3(0, 0, 1));
    sc_ray t2 = ray(v3(0, 2 * s, 0), v3(0, 0, 1));
    h = sc_raycast(&t1, &speck);
    ENSURE(h.hit && h.t == 1.0f);
    ENSURE(!sc_raycast(&t2, &speck).hit);
    return 0;
}

/* docs/semantics.md, beyond FLT_MAX and far shapes. Expected values by hand. */
static int far_and_huge(void)
{
    /* A unit sphere at the origin and a ray from 2^40 away with a diagonal dir: the line
     * o + t(-1,0,-1), o = (2^40, y, 2^40), passes (0, y, 0) at t = 2^40 perpendicular to the
     * y axis: tangent for y = 1 (hit, t = 2^40, point (0,1,0)), a hair inside for the float
     * below 1 (hit), outside for the float above 1 (miss). float32 o - c and a rounded unit
     * dir got these wrong (error ~ 2^-24 * 2^40). */
    sc_shape unit = sphere(v3(0, 0, 0), 1);
    sc_ray r = ray(v3(0x1p40f, 1, 0x1p40f), v3(-1, 0, -1));
    sc_raycast_result h = sc_raycast(&r, &unit);
    ENSURE(h.hit && h.t == 0x1p40f && h.t_enter == 0x1p40f && h.t_exit == 0x1p40f);
    ENSURE(fabsf(h.point.x) <= 1e-6f && h.point.y == 1 && fabsf(h.point.z) <= 1e-6f);
    ENSURE(fabsf(h.normal.y - 1) <= 1e-6f);
    r.origin.y = nextafterf(1, 0);
    ENSURE(sc_raycast(&r, &unit).hit);
    r.origin.y = nextafterf(1, 2);
    ENSURE(!sc_raycast(&r, &unit).hit);
    sc_segment seg = {v3(0x1p40f, 1, 0x1p40f), v3(-0x1p40f, 1, -0x1p40f)};
    ENSURE(sc_linetest(&seg, &unit).value);
    seg.a.y = seg.b.y = nextafterf(1, 2);
    ENSURE(!sc_linetest(&seg, &unit).value);
    /* The same with a unit cube (OBB, axes the world's): the line through (0, y, 0) grazes
     * the face y = 1. */
    sc_shape cube = obb(v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1), v3(1, 1, 1));
    r.origin.y = 1;
    h = sc_raycast(&r, &cube);
    ENSURE(h.hit && h.t == 0x1p40f - 1 && h.point.x == 1 && h.point.y == 1 && h.point.z == 1);
    r.origin.y = nextafterf(1, 2);
    ENSURE(!sc_raycast(&r, &cube).hit);
    /* A huge OBB entered at t = 5e38 / 1e-30 (past FLT_MAX): t is FLT_MAX, the point is on the
     * entry face x = 3e38 - 1e38 (not origin + FLT_MAX * dir). */
    sc_shape huge = obb(v3(3e38f, 0, 0), v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1), v3(1e38f, 1, 1));
    sc_ray hr = ray(v3(-3e38f, 0, 0), v3(1e-30f, 0, 0));
    h = sc_raycast(&hr, &huge);
    ENSURE(h.hit && h.t == FLT_MAX);
    ENSURE(h.point.x == (float)((double)3e38f - (double)1e38f) && h.point.y == 0 && h.point.z == 0);
    /* An AABB entered through z = 9 at t = 9 * 2^149: the point's x is 9 (dir (1, 0, 1)). */
    sc_shape box = aabb(v3(-1, -1, 9), v3(100, 1, 10));
    sc_ray ar = ray(v3(0, 0, 0), v3(0x1p-149f, 0, 0x1p-149f));
    h = sc_raycast(&ar, &box);
    ENSURE(h.hit && h.t == FLT_MAX);
    ENSURE_VEC(h.point, 9, 0, 9);
    /* Found by fuzz_queries on the double-precision core: a ball of radius 7.7e31 whose
     * surface passes 5.9e14 from the origin (|o - c|^2 - r^2 ~ (3e23)^2 > 0: outside), and a
     * ray that can travel only tmax * |d| ~ 2.4e-76: a miss. The tmax test w2^2 <= h2 lost the
     * difference in rounding (w2^2 and h2 ~ 8.5e-13 there, differing by 3.9e-29). */
    sc_shape big = sphere(v3(0, -0x1.ffp+77f, 0x1.e8e8e8p+105f), 0x1.e8e8e8p+105f);
    sc_ray near = ray(v3(0x1p-126f, 0x1p-126f, 0x1.fffef4p-124f), v3(0x1.0401fp-126f, 0x1.04p-126f, 0x1.04p-126f));
    near.tmax = 0x1.04p-126f;
    ENSURE(!sc_contains(near.origin, &big).value);
    ENSURE(!sc_raycast(&near, &big).hit);
    /* Also found by fuzz_queries: the ball spans x in [0, 6e38]; the origin at x = -41.5 is
     * outside, and tmax = 0: a miss (w2^2 and h2 agreed to 1e-16 of their size, and the
     * difference dd f(0) = (|o - c|^2 - r^2) dd ~ 1e-47 decides). */
    sc_shape wide = sphere(v3(0x1.c363ccp+127f, 0x1.4484cp-100f, 0), 0x1.c363ccp+127f);
    sc_ray stop = ray(v3(-41.5f, 0x1.8p-148f, 0), v3(0x1.cp-146f, 0, 0));
    stop.tmax = 0;
    ENSURE(!sc_raycast(&stop, &wide).hit);
    /* Contains and closest point of a sphere far from the world origin: centre (2^30, 0, 0),
     * radius 1; the point 2^30 + 1 is on it, the next float above 2^30 + 1 (+ 128) is not. */
    sc_shape fs = sphere(v3(0x1p30f, 0, 0), 1);
    ENSURE(!sc_contains(v3(0x1p30f + 128, 0, 0), &fs).value);
    ENSURE(sc_contains(v3(0x1p30f, 1, 0), &fs).value);
    sc_point_result c = sc_closest_point(v3(0x1p30f, 0, 0x1p20f), &fs);
    ENSURE(c.point.x == 0x1p30f && c.point.y == 0 && c.point.z == 1);
    return 0;
}

/* The library reports the header's version; the macros spell the same version. (The npm and
 * CMake versions are compared with these by tests/web/version.test.mjs.) */
static int version(void)
{
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", SC_VERSION_MAJOR, SC_VERSION_MINOR, SC_VERSION_PATCH);
    ENSURE(strcmp(SC_VERSION_STRING, want) == 0);
    ENSURE(strcmp(sc_version(), SC_VERSION_STRING) == 0);
    return 0;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int before = g_failures;
    RUN_TEST(tutorial_rays);
    RUN_TEST(axis_parallel_on_face);
    RUN_TEST(grazing_and_tmax);
    RUN_TEST(obb_degenerate_and_rotated);
    RUN_TEST(sphere_exact);
    RUN_TEST(plane_two_sided);
    RUN_TEST(linetest_cases);
    RUN_TEST(closest_and_contains);
    RUN_TEST(invalid_inputs);
    RUN_TEST(huge_values);
    RUN_TEST(fuzz_regressions);
    RUN_TEST(extreme_inputs);
    RUN_TEST(subnormal_inputs);
    RUN_TEST(far_and_huge);
    RUN_TEST(version);
    int failed = g_failures - before;
    printf("%d passed, %d failed\n", g_run - failed, failed);
    return failed ? 1 : 0;
}
