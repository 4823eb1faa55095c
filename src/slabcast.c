/* slabcast core: every query of docs/semantics.md, in float32.
 *
 * Exactness notes (the reason for most choices below):
 * - Slab parameters are computed as (bound - origin) / dir with one true division, never
 *   with a precomputed reciprocal: rounding is then monotone in the exact quotient, so the
 *   comparisons t_enter <= t_exit, t_exit >= 0 and t_enter <= tmax keep the exact order for
 *   small dyadic inputs (distinct quotients there are several ulps apart).
 * - An axis with dir == 0 (or -0) is never divided by: the ray is parallel to that slab and
 *   is in it for every t iff lo <= origin <= hi (closed). No 0*inf, no NaN.
 * - Sphere and plane tests classify with sign tests and squared comparisons of quantities
 *   that are exact for small dyadic inputs, not with rounded square roots or quotients.
 * - Huge inputs are rescaled by powers of two (exact) before anything can overflow.
 * Build with -ffp-contract=off: native and wasm then give bit-identical results.
 */
#include "slabcast.h"
#include "sc_internal.h"

#include <float.h>
#include <math.h>

/* ---------------------------------------------------------------- helpers */

static int sc_finite3(sc_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }
static int sc_zero3(sc_vec3 v) { return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f; }
static float sc_absf(float a) { return a < 0.0f ? -a : (a == 0.0f ? 0.0f : a); }
static float sc_maxf(float a, float b) { return a > b ? a : b; }
static float sc_minf(float a, float b) { return a < b ? a : b; }
static float sc_max3abs(sc_vec3 v) { return sc_maxf(sc_absf(v.x), sc_maxf(sc_absf(v.y), sc_absf(v.z))); }
static float sc_dot(sc_vec3 a, sc_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static sc_vec3 sc_sub(sc_vec3 a, sc_vec3 b) { return (sc_vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static sc_vec3 sc_scale(sc_vec3 a, float s) { return (sc_vec3){a.x * s, a.y * s, a.z * s}; }
static float sc_get(sc_vec3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }
static void sc_set(sc_vec3 *v, int i, float f)
{
    if (i == 0) v->x = f; else if (i == 1) v->y = f; else v->z = f;
}
/* A result parameter kept in the float range: the exact value of t_enter, t_exit can lie past
 * FLT_MAX (a tiny dir, tmax = inf); such a value is reported as +-FLT_MAX, never as an
 * infinity (t must be finite). Applied after the classification, which uses the rounded values. */
static float sc_fin(float a) { return a > FLT_MAX ? FLT_MAX : (a < -FLT_MAX ? -FLT_MAX : a); }
/* The same for a hit point: origin + t*dir can pass FLT_MAX when t does (or nearly does). */
static sc_vec3 sc_fin3(sc_vec3 v) { return (sc_vec3){sc_fin(v.x), sc_fin(v.y), sc_fin(v.z)}; }
/* -0 -> +0, so that results never carry a negative zero. */
static float sc_pz(float a) { return a + 0.0f; }
static sc_vec3 sc_pz3(sc_vec3 v) { return (sc_vec3){sc_pz(v.x), sc_pz(v.y), sc_pz(v.z)}; }

/* ------------------------------------------------------- double precision
 * OBBs, spheres and planes are computed in double. Every float32 input is exact there, the
 * product of two floats is exact (24 + 24 bits < 53), squares and products of any two floats
 * stay inside the double range (2^-298 .. 2^256), and subnormal floats are normal doubles. So
 * nothing underflows or overflows, no power-of-two rescaling is needed, and the rounding error
 * of a difference such as origin - center is relative to double precision (2^-53) instead of
 * float's (2^-24): a shape 1e9 times its size away is still classified to a relative 1e-7 of
 * its size. Results are rounded to float32 once, at the end. */
typedef struct sc_dvec { double x, y, z; } sc_dvec;
static sc_dvec sc_d(sc_vec3 v) { return (sc_dvec){v.x, v.y, v.z}; }
static sc_dvec sc_dsub(sc_dvec a, sc_dvec b) { return (sc_dvec){a.x - b.x, a.y - b.y, a.z - b.z}; }
static sc_dvec sc_dadd(sc_dvec a, sc_dvec b) { return (sc_dvec){a.x + b.x, a.y + b.y, a.z + b.z}; }
static sc_dvec sc_dscale(sc_dvec a, double s) { return (sc_dvec){a.x * s, a.y * s, a.z * s}; }
static double sc_ddot(sc_dvec a, sc_dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double sc_dget(sc_dvec v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }
/* A double result rounded to float32; beyond the float range: +-FLT_MAX (never an infinity). */
static float sc_tof(double a)
{
    if (a >= (double)FLT_MAX) return FLT_MAX;
    if (a <= -(double)FLT_MAX) return -FLT_MAX;
    return (float)a + 0.0f; /* -0 -> +0 */
}
static sc_vec3 sc_tof3(sc_dvec v) { return (sc_vec3){sc_tof(v.x), sc_tof(v.y), sc_tof(v.z)}; }
/* v / |v| rounded to float, or fallback when v is zero. Scaled by a power of two first, so that
 * the squares neither underflow nor overflow even for v built from huge or tiny doubles. */
static sc_vec3 sc_dunit_or(sc_dvec v, sc_vec3 fallback)
{
    double m = fabs(v.x);
    if (fabs(v.y) > m) m = fabs(v.y);
    if (fabs(v.z) > m) m = fabs(v.z);
    if (!(m > 0.0) || !isfinite(m)) return fallback;
    int e = 0;
    (void)frexp(m, &e);
    sc_dvec w = {ldexp(v.x, -e), ldexp(v.y, -e), ldexp(v.z, -e)};
    double len = sqrt(sc_ddot(w, w));
    return sc_tof3(sc_dscale(w, 1.0 / len));
}

/* Positions at or above this magnitude could overflow in a difference: they are scaled first. */
#define SC_HUGE 8.5070592e37f /* 2^126 */
#define SC_HUGE_SCALE 0.0625f /* 2^-4 */

static sc_raycast_result sc_miss(void)
{
    sc_raycast_result r = {0};
    r.status = SC_OK;
    r.hit = 0;
    return r;
}

static sc_raycast_result sc_fail(sc_status s)
{
    sc_raycast_result r = {0};
    r.status = (int)s;
    return r;
}

/* ------------------------------------------------------------- validation */

const char *sc_status_message(sc_status status)
{
    switch (status) {
    case SC_OK: return "ok";
    case SC_ERR_NULL: return "a required argument is null";
    case SC_ERR_RAY_ORIGIN: return "ray.origin is not finite";
    case SC_ERR_RAY_DIR: return "ray.dir is not finite";
    case SC_ERR_RAY_DIR_ZERO: return "ray.dir is zero";
    case SC_ERR_RAY_TMAX: return "ray.tmax is NaN or negative";
    case SC_ERR_SEGMENT_A: return "segment.a is not finite";
    case SC_ERR_SEGMENT_B: return "segment.b is not finite";
    case SC_ERR_POINT: return "point is not finite";
    case SC_ERR_SHAPE_TYPE: return "shape.type is unknown";
    case SC_ERR_AABB_NOT_FINITE: return "shape.min or shape.max is not finite";
    case SC_ERR_AABB_MIN_GT_MAX: return "shape.min is greater than shape.max";
    case SC_ERR_OBB_CENTER: return "shape.center is not finite";
    case SC_ERR_OBB_AXES: return "shape.axes is not finite";
    case SC_ERR_OBB_AXES_NOT_ORTHONORMAL: return "shape.axes are not orthonormal (tolerance 1e-4)";
    case SC_ERR_OBB_HALF: return "shape.half is not finite";
    case SC_ERR_OBB_HALF_NEGATIVE: return "shape.half is negative";
    case SC_ERR_SPHERE_CENTER: return "shape.center is not finite";
    case SC_ERR_SPHERE_RADIUS: return "shape.radius is not finite";
    case SC_ERR_SPHERE_RADIUS_NEGATIVE: return "shape.radius is negative";
    case SC_ERR_PLANE_NORMAL: return "shape.normal is not finite";
    case SC_ERR_PLANE_NORMAL_ZERO: return "shape.normal is zero";
    case SC_ERR_PLANE_D: return "shape.d is not finite";
    case SC_ERR_UNSUPPORTED: return "contains is not defined for a plane";
    case SC_ERR_COUNT: return "count is negative or too large";
    case SC_ERR_RANGE: return "index range is outside the world";
    case SC_ERR_KIND: return "the objects in the range are of another kind";
    case SC_ERR_NO_MEMORY: return "out of memory";
    case SC_STATUS_COUNT: break;
    }
    return "unknown status";
}

sc_status sc_ray_check(const sc_ray *ray)
{
    if (!ray) return SC_ERR_NULL;
    if (!sc_finite3(ray->origin)) return SC_ERR_RAY_ORIGIN;
    if (!sc_finite3(ray->dir)) return SC_ERR_RAY_DIR;
    if (sc_zero3(ray->dir)) return SC_ERR_RAY_DIR_ZERO;
    if (!(ray->tmax >= 0.0f)) return SC_ERR_RAY_TMAX; /* NaN fails this too; +inf passes */
    return SC_OK;
}

sc_status sc_segment_check(const sc_segment *segment)
{
    if (!segment) return SC_ERR_NULL;
    if (!sc_finite3(segment->a)) return SC_ERR_SEGMENT_A;
    if (!sc_finite3(segment->b)) return SC_ERR_SEGMENT_B;
    return SC_OK;
}

sc_status sc_point_check(sc_vec3 point) { return sc_finite3(point) ? SC_OK : SC_ERR_POINT; }

sc_status sc_aabb_check(const sc_aabb *box)
{
    if (!box) return SC_ERR_NULL;
    if (!sc_finite3(box->min) || !sc_finite3(box->max)) return SC_ERR_AABB_NOT_FINITE;
    if (box->min.x > box->max.x || box->min.y > box->max.y || box->min.z > box->max.z)
        return SC_ERR_AABB_MIN_GT_MAX;
    return SC_OK;
}

sc_status sc_obb_check(const sc_obb *box)
{
    if (!box) return SC_ERR_NULL;
    if (!sc_finite3(box->center)) return SC_ERR_OBB_CENTER;
    for (int i = 0; i < 3; ++i)
        if (!sc_finite3(box->axes[i])) return SC_ERR_OBB_AXES;
    if (!sc_finite3(box->half)) return SC_ERR_OBB_HALF;
    if (box->half.x < 0.0f || box->half.y < 0.0f || box->half.z < 0.0f) return SC_ERR_OBB_HALF_NEGATIVE;
    for (int i = 0; i < 3; ++i) {
        for (int j = i; j < 3; ++j) {
            float want = (i == j) ? 1.0f : 0.0f;
            float dev = sc_absf(sc_dot(box->axes[i], box->axes[j]) - want);
            if (!(dev <= 1e-4f)) return SC_ERR_OBB_AXES_NOT_ORTHONORMAL;
        }
    }
    return SC_OK;
}

sc_status sc_sphere_check(const sc_sphere *sphere)
{
    if (!sphere) return SC_ERR_NULL;
    if (!sc_finite3(sphere->center)) return SC_ERR_SPHERE_CENTER;
    if (!isfinite(sphere->radius)) return SC_ERR_SPHERE_RADIUS;
    if (sphere->radius < 0.0f) return SC_ERR_SPHERE_RADIUS_NEGATIVE;
    return SC_OK;
}

sc_status sc_plane_check(const sc_plane *plane)
{
    if (!plane) return SC_ERR_NULL;
    if (!sc_finite3(plane->normal)) return SC_ERR_PLANE_NORMAL;
    if (sc_zero3(plane->normal)) return SC_ERR_PLANE_NORMAL_ZERO;
    if (!isfinite(plane->d)) return SC_ERR_PLANE_D;
    return SC_OK;
}

sc_status sc_shape_check(const sc_shape *shape)
{
    if (!shape) return SC_ERR_NULL;
    switch (shape->type) {
    case SC_SHAPE_AABB: return sc_aabb_check(&shape->u.aabb);
    case SC_SHAPE_OBB: return sc_obb_check(&shape->u.obb);
    case SC_SHAPE_SPHERE: return sc_sphere_check(&shape->u.sphere);
    case SC_SHAPE_PLANE: return sc_plane_check(&shape->u.plane);
    default: return SC_ERR_SHAPE_TYPE;
    }
}

bool sc_ray_valid(const sc_ray *ray) { return sc_ray_check(ray) == SC_OK; }
bool sc_segment_valid(const sc_segment *segment) { return sc_segment_check(segment) == SC_OK; }
bool sc_aabb_valid(const sc_aabb *box) { return sc_aabb_check(box) == SC_OK; }
bool sc_obb_valid(const sc_obb *box) { return sc_obb_check(box) == SC_OK; }
bool sc_sphere_valid(const sc_sphere *sphere) { return sc_sphere_check(sphere) == SC_OK; }
bool sc_plane_valid(const sc_plane *plane) { return sc_plane_check(plane) == SC_OK; }
bool sc_shape_valid(const sc_shape *shape) { return sc_shape_check(shape) == SC_OK; }

/* ------------------------------------------------------------------ slabs */

/* The slab interval of the line o + t*d against the closed box [lo, hi] (in whatever frame
 * o, d, lo, hi are given). Returns 0 when the line misses the box. On success *t_enter and
 * *t_exit bound the closed interval and *axis is the axis whose slab gave t_enter (-1 when
 * every axis is parallel, which a valid ray cannot be). */
static int sc_slab_core(sc_vec3 o, sc_vec3 d, sc_vec3 lo, sc_vec3 hi, float *t_enter, float *t_exit, int *axis)
{
    float tn = -INFINITY, tf = INFINITY;
    int ax = -1;
    for (int i = 0; i < 3; ++i) {
        float oi = sc_get(o, i), di = sc_get(d, i), loi = sc_get(lo, i), hii = sc_get(hi, i);
        if (di == 0.0f) {
            /* Parallel to this slab (dir 0 or -0): inside it for all t, or for none. */
            if (oi < loi || oi > hii) return 0;
            continue;
        }
        /* One correctly rounded division each: monotone in the exact value. */
        float n1 = loi - oi, n2 = hii - oi;
        float t1 = n1 / di;
        float t2 = n2 / di;
        /* A quotient below FLT_MIN from a non-zero numerator has lost precision, or its sign
         * (-2^-150 rounds to -0, and -0 >= 0): the caller decides in double (2: undecided). A
         * difference of floats is zero only when they are equal, so n != 0 is exact. */
        if ((sc_absf(t1) < FLT_MIN && n1 != 0.0f) || (sc_absf(t2) < FLT_MIN && n2 != 0.0f)) return 2;
        float near = di > 0.0f ? t1 : t2;
        float far = di > 0.0f ? t2 : t1;
        if (near > tn) { tn = near; ax = i; }
        if (far < tf) tf = far;
    }
    if (tn > tf) return 0;
    *t_enter = tn;
    *t_exit = tf;
    *axis = ax;
    return 1;
}

static int sc_slab_interval(sc_vec3 o, sc_vec3 d, sc_vec3 lo, sc_vec3 hi,
                            float *t_enter, float *t_exit, int *axis)
{
    int k = sc_slab_core(o, d, lo, hi, t_enter, t_exit, axis);
    if (k != 1) return k;
    if (*t_enter == INFINITY) {
        /* t_enter = t_exit = +inf: both ends overflowed (a small dir), and +inf <= +inf says
         * nothing about their order. Decide it again with dir scaled by the power of two that
         * brings max|d_i| into [2, 4): exact, as every component gets larger (t_exit = +inf
         * means |bound - o| / |d_i| > FLT_MAX on every axis that is not parallel, and
         * |bound - o| < 2^128, so max|d_i| < 1 here). The t of the largest component are then
         * below 2^127, finite, so t_enter > t_exit shows as such. Both ends stay +inf (past
         * FLT_MAX) on a hit. */
        int e = 0;
        (void)frexpf(sc_max3abs(d), &e);
        sc_vec3 ds = {ldexpf(d.x, 2 - e), ldexpf(d.y, 2 - e), ldexpf(d.z, 2 - e)};
        float tn, tf;
        return sc_slab_core(o, ds, lo, hi, &tn, &tf, axis);
    }
    return 1;
}

/* Scale factor for positions: 1, or 2^-4 when some magnitude could overflow a difference. */
static float sc_position_scale(const sc_vec3 *v, int n)
{
    for (int i = 0; i < n; ++i)
        if (sc_max3abs(v[i]) >= SC_HUGE) return SC_HUGE_SCALE;
    return 1.0f;
}

/* Ray vs AABB in double, for the inputs whose float slab quotients underflow (sc_slab_core
 * returns 2). In double no quotient of floats underflows (|q| >= 2^-277), so the signs and the
 * order of the slab bounds are those of the exact values. */
static sc_raycast_result sc_raycast_aabb_d(const sc_ray *ray, const sc_aabb *box)
{
    sc_dvec o = sc_d(ray->origin), d = sc_d(ray->dir);
    double tn = -INFINITY, tf = INFINITY;
    int ax = -1;
    for (int i = 0; i < 3; ++i) {
        double oi = sc_dget(o, i), di = sc_dget(d, i);
        double lo = sc_get(box->min, i), hi = sc_get(box->max, i);
        if (di == 0.0) {
            if (oi < lo || oi > hi) return sc_miss();
            continue;
        }
        double t1 = (lo - oi) / di, t2 = (hi - oi) / di;
        double near = di > 0.0 ? t1 : t2, far = di > 0.0 ? t2 : t1;
        if (near > tn) { tn = near; ax = i; }
        if (far < tf) tf = far;
    }
    if (!(tn <= tf && tf >= 0.0 && tn <= ray->tmax)) return sc_miss();
    sc_raycast_result r = sc_miss();
    r.hit = 1;
    double t = tn > 0.0 ? tn : 0.0;
    r.t_enter = sc_tof(tn);
    r.t_exit = sc_tof(tf);
    r.t = sc_tof(t);
    r.point = sc_tof3(sc_dadd(o, sc_dscale(d, t)));
    if (tn >= 0.0 && ax >= 0) {
        float di = sc_get(ray->dir, ax);
        sc_set(&r.point, ax, di > 0.0f ? sc_get(box->min, ax) : sc_get(box->max, ax));
        sc_set(&r.normal, ax, di > 0.0f ? -1.0f : 1.0f);
    }
    for (int i = 0; i < 3; ++i)
        sc_set(&r.point, i, sc_minf(sc_maxf(sc_get(r.point, i), sc_get(box->min, i)), sc_get(box->max, i)));
    r.point = sc_pz3(r.point);
    r.normal = sc_pz3(r.normal);
    return r;
}

/* Ray vs AABB, inputs valid. The world kernels reproduce this bit for bit. */
sc_raycast_result sc__raycast_aabb_valid(const sc_ray *ray, const sc_aabb *box)
{
    sc_vec3 pos[3] = {ray->origin, box->min, box->max};
    float s = sc_position_scale(pos, 3);
    float tn, tf;
    int axis;
    int k = sc_slab_interval(sc_scale(ray->origin, s), ray->dir, sc_scale(box->min, s), sc_scale(box->max, s),
                             &tn, &tf, &axis);
    if (k == 2) return sc_raycast_aabb_d(ray, box);
    if (!k) return sc_miss();
    if (s != 1.0f) { tn /= s; tf /= s; }
    /* I = [tn, tf] meets [0, tmax]. */
    if (!(tf >= 0.0f && tn <= ray->tmax)) return sc_miss();
    tn = sc_fin(tn);
    tf = sc_fin(tf);

    sc_raycast_result r = sc_miss();
    r.hit = 1;
    r.t_enter = sc_pz(tn);
    r.t_exit = sc_pz(tf);
    r.t = tn > 0.0f ? tn : 0.0f;
    /* The point from the entry parameter in double, not from the float t (which is FLT_MAX when
     * the exact entry lies past the float range): the entry face's coordinate exactly, the others
     * o + t*d with t = (face - o) / d on the entry axis. */
    r.point = ray->origin;
    if (tn > 0.0f && axis >= 0) {
        double di = sc_get(ray->dir, axis);
        double face = di > 0.0 ? sc_get(box->min, axis) : sc_get(box->max, axis);
        double td = (face - (double)sc_get(ray->origin, axis)) / di;
        r.point = sc_tof3(sc_dadd(sc_d(ray->origin), sc_dscale(sc_d(ray->dir), td)));
    }
    if (tn >= 0.0f && axis >= 0) {
        float di = sc_get(ray->dir, axis);
        /* Entered through the min face when moving up the axis, the max face otherwise:
         * the point lies exactly on that face. */
        sc_set(&r.point, axis, di > 0.0f ? sc_get(box->min, axis) : sc_get(box->max, axis));
        sc_set(&r.normal, axis, di > 0.0f ? -1.0f : 1.0f);
    }
    /* The exact point is in the closed box; clamping the rounded one only brings it closer. */
    for (int i = 0; i < 3; ++i)
        sc_set(&r.point, i, sc_minf(sc_maxf(sc_get(r.point, i), sc_get(box->min, i)), sc_get(box->max, i)));
    r.point = sc_pz3(r.point);
    r.normal = sc_pz3(r.normal);
    return r;
}

/* ------------------------------------------------------------- re-origin
 * A shape far from the ray origin compared with its size (more than 2^30 sizes) is tested from
 * a new origin next to it: o' = o + t0*d, with t0 the double nearest the line's closest approach
 * to the centre, and t = t0 + t'. The offset o' - center is computed without rounding error
 * (o, center and d are floats, so every term below is an exact double) and rounded once, so it
 * is accurate to its own magnitude, not to the distance. Rounding t0 only moves o' along the
 * line, which changes t' and leaves the classification alone. Without this, double precision
 * loses the shape beyond about 1e15 sizes; with it, distance does not matter. */
#define SC_FAR_SIZES 1073741824.0 /* 2^30 */

/* a + b = s + err exactly (round to nearest, no overflow). */
static double sc_two_sum(double a, double b, double *err)
{
    double s = a + b;
    double bb = s - a;
    *err = (a - (s - bb)) + (b - bb);
    return s;
}

/* a = hi + lo exactly, each with at most 26 significant bits (Veltkamp's split). */
static void sc_split(double a, double *hi, double *lo)
{
    double c = 134217729.0 * a; /* 2^27 + 1 */
    *hi = c - (c - a);
    *lo = a - *hi;
}

/* x[0] + ... + x[3], computed exactly as a nonoverlapping expansion, then rounded (to within an
 * ulp of the exact sum). */
static double sc_sum4(const double x[4])
{
    double e[4];
    int m = 0;
    for (int i = 0; i < 4; ++i) {
        double q = x[i];
        int k = 0;
        for (int j = 0; j < m; ++j) {
            double err;
            q = sc_two_sum(q, e[j], &err);
            if (err != 0.0) e[k++] = err;
        }
        e[k++] = q;
        m = k;
    }
    double s = 0.0;
    for (int j = 0; j < m; ++j) s += e[j];
    return s;
}

/* Whether the shape of this size around center lies so far from the ray origin that the ray is
 * re-originated; then *t0 and *m (o + t0*d - center, accurate to its own size) are set.
 * Otherwise *t0 = 0 and *m = o - center (rounded in double). */
static int sc_reorigin(sc_dvec o, sc_dvec d, sc_dvec center, double size, double *t0, sc_dvec *m)
{
    *t0 = 0.0;
    *m = sc_dsub(o, center);
    double far = fabs(m->x);
    if (fabs(m->y) > far) far = fabs(m->y);
    if (fabs(m->z) > far) far = fabs(m->z);
    if (!(size > 0.0) || !(far > SC_FAR_SIZES * size)) return 0;
    double t = -sc_ddot(*m, d) / sc_ddot(d, d);
    double hi, lo;
    sc_split(t, &hi, &lo);
    /* hi*d_i and lo*d_i are exact: 26 + 24 and 27 + 24 bits */
    double x[4] = {o.x, -center.x, hi * d.x, lo * d.x};
    double y[4] = {o.y, -center.y, hi * d.y, lo * d.y};
    double z[4] = {o.z, -center.z, hi * d.z, lo * d.z};
    *m = (sc_dvec){sc_sum4(x), sc_sum4(y), sc_sum4(z)};
    *t0 = t;
    return 1;
}

/* The OBB frame, in double: p relative to the centre, along the box axes. */
static sc_dvec sc_obb_local_d(const sc_obb *box, sc_dvec p)
{
    sc_dvec m = sc_dsub(p, sc_d(box->center));
    return (sc_dvec){sc_ddot(m, sc_d(box->axes[0])), sc_ddot(m, sc_d(box->axes[1])), sc_ddot(m, sc_d(box->axes[2]))};
}

static sc_dvec sc_obb_local_dir_d(const sc_obb *box, sc_dvec d)
{
    return (sc_dvec){sc_ddot(d, sc_d(box->axes[0])), sc_ddot(d, sc_d(box->axes[1])), sc_ddot(d, sc_d(box->axes[2]))};
}

static sc_vec3 sc_normalize_or(sc_vec3 v, sc_vec3 fallback) { return sc_dunit_or(sc_d(v), fallback); }

/* A ray in double: origin o, direction d (not zero), 0 <= t <= tmax (tmax may be +inf). */
typedef struct sc_dray { sc_dvec o, d; double tmax; } sc_dray;
static sc_dray sc_dray_of(const sc_ray *ray) { return (sc_dray){sc_d(ray->origin), sc_d(ray->dir), ray->tmax}; }

/* The line o + t*d against the box |q_i| <= h_i, all in the box's frame (double). Returns 0 when
 * the line misses; else the interval and the entry axis (-1: every axis parallel, impossible for
 * a valid ray). An axis with d_i == 0 is never divided by: closed slab test. One correctly
 * rounded division per bound, so the order of distinct exact quotients is kept. */
static int sc_obb_line(sc_dvec o, sc_dvec d, sc_dvec h, double *t_enter, double *t_exit, int *axis)
{
    double tn = -INFINITY, tf = INFINITY;
    int ax = -1;
    for (int i = 0; i < 3; ++i) {
        double oi = sc_dget(o, i), di = sc_dget(d, i), hi = sc_dget(h, i);
        if (di == 0.0) {
            if (oi < -hi || oi > hi) return 0;
            continue;
        }
        double t1 = (-hi - oi) / di, t2 = (hi - oi) / di;
        double near = di > 0.0 ? t1 : t2, far = di > 0.0 ? t2 : t1;
        if (near > tn) { tn = near; ax = i; }
        if (far < tf) tf = far;
    }
    if (!(tn <= tf)) return 0;
    *t_enter = tn;
    *t_exit = tf;
    *axis = ax;
    return 1;
}

static sc_raycast_result sc_raycast_obb_d(const sc_dray *ray, const sc_obb *box)
{
    double size = box->half.x, t0;
    if (box->half.y > size) size = box->half.y;
    if (box->half.z > size) size = box->half.z;
    sc_dvec m;
    int far = sc_reorigin(ray->o, ray->d, sc_d(box->center), size, &t0, &m);
    sc_dvec o = {sc_ddot(m, sc_d(box->axes[0])), sc_ddot(m, sc_d(box->axes[1])), sc_ddot(m, sc_d(box->axes[2]))};
    sc_dvec d = sc_obb_local_dir_d(box, ray->d);
    double tn, tf;
    int axis;
    if (!sc_obb_line(o, d, sc_d(box->half), &tn, &tf, &axis)) return sc_miss();
    if (far) { /* the interval from o', back to the ray's own parameter */
        tn += t0;
        tf += t0;
    }
    /* I = [tn, tf] meets [0, tmax] */
    if (!(tf >= 0.0 && tn <= ray->tmax)) return sc_miss();
    sc_raycast_result r = sc_miss();
    r.hit = 1;
    double t = tn > 0.0 ? tn : 0.0;
    r.t_enter = sc_tof(tn);
    r.t_exit = sc_tof(tf);
    r.t = sc_tof(t);
    /* The point from the double parameter, not from the float t (which may be FLT_MAX). */
    r.point = sc_tof3(sc_dadd(ray->o, sc_dscale(ray->d, t)));
    if (tn >= 0.0 && axis >= 0) {
        sc_vec3 a = sc_normalize_or(box->axes[axis], box->axes[axis]);
        r.normal = sc_pz3(sc_scale(a, sc_dget(d, axis) > 0.0 ? -1.0f : 1.0f));
    }
    return r;
}

sc_raycast_result sc__raycast_obb_valid(const sc_ray *ray, const sc_obb *box)
{
    sc_dray dr = sc_dray_of(ray);
    return sc_raycast_obb_d(&dr, box);
}

/* ----------------------------------------------------------------- sphere */

/* The line o + t*d against the closed ball, in double (see "double precision" above).
 * With the unit direction u = d/|d| (exact for axis-parallel d), b = m.u and the perpendicular
 * offset f = m - b*u of the centre, the line meets the ball iff h2 = r^2 - f.f >= 0; the
 * boundary tests compare squares, never rounded square roots. For small dyadic inputs with an
 * axis-parallel direction every one of these quantities is exact. */
static sc_raycast_result sc_raycast_sphere_d(const sc_dray *ray, const sc_sphere *sp)
{
    double r = sp->radius, t0;
    sc_dvec m;
    int far = sc_reorigin(ray->o, ray->d, sc_d(sp->center), r, &t0, &m);
    double lens = sqrt(sc_ddot(ray->d, ray->d)); /* |d|: no underflow or overflow in double */
    /* u = d/|d|, by division: exact for an axis-parallel d */
    sc_dvec u = {ray->d.x / lens, ray->d.y / lens, ray->d.z / lens};
    double b = sc_ddot(m, u);
    sc_dvec f = sc_dsub(m, sc_dscale(u, b));
    double r2 = r * r;
    double h2 = r2 - sc_ddot(f, f);
    double mm = sc_ddot(m, m);
    int inside = 0;
    if (far) {
        /* The origin is far outside (more than 2^30 radii): the line's interval from o', back
         * to the ray's own parameter, must meet [0, tmax]. */
        if (h2 < 0.0) return sc_miss();
        double h = sqrt(h2);
        if (!(t0 + (-b + h) / lens >= 0.0 && t0 + (-b - h) / lens <= ray->tmax)) return sc_miss();
    } else if (!(mm <= r2)) {
        /* The origin in the closed ball: t = 0 is in I and in [0, tmax]. From outside, a hit
         * needs the line to meet the ball (h2 >= 0), to head towards it (b < 0), and to enter
         * by tmax: -b - h <= U <=> h >= -(U + b), compared as squares. */
        if (h2 < 0.0 || !(b < 0.0)) return sc_miss();
        double U = ray->tmax * lens; /* tmax*|d|: +inf stays +inf */
        double w = U + b;
        if (!(w >= 0.0 || w * w <= h2)) return sc_miss();
    } else {
        inside = mm < r2;
    }
    if (h2 < 0.0) h2 = 0.0; /* inside, and rounding put the line just off the ball */
    double h = sqrt(h2);
    double ue = -b - h, ux = -b + h; /* along u, from m */
    double tn = t0 + ue / lens, tf = t0 + ux / lens;
    if (inside && tn >= 0.0) tn = -0.0; /* strictly inside (exact test): t_enter < 0 */
    if (!far && mm == r2) {
        /* origin on the sphere: one end of I is exactly 0, the entry when heading in */
        if (b <= 0.0) tn = 0.0;
        else tf = 0.0;
    }
    if (tf < 0.0) tf = 0.0; /* the hit test above says exit >= 0 */
    double t = tn > 0.0 ? tn : 0.0;
    if (t > ray->tmax) t = ray->tmax; /* classification was exact; keep t in [0, tmax] */
    sc_raycast_result res = sc_miss();
    res.hit = 1;
    res.t_enter = sc_tof(tn);
    res.t_exit = sc_tof(tf);
    res.t = sc_tof(t);
    res.point = sc_tof3(sc_dadd(ray->o, sc_dscale(ray->d, t)));
    if (!inside && tn >= 0.0) {
        sc_vec3 back = sc_tof3(sc_dscale(u, -1.0)); /* a point sphere: face the ray */
        res.normal = sc_pz3(sc_dunit_or(sc_dadd(m, sc_dscale(u, ue)), back));
    }
    return res;
}

sc_raycast_result sc__raycast_sphere_valid(const sc_ray *ray, const sc_sphere *sp)
{
    sc_dray dr = sc_dray_of(ray);
    return sc_raycast_sphere_d(&dr, sp);
}

/* ------------------------------------------------------------------ plane */

/* Planes are computed in double (see "double precision" above): n.x is three exact products
 * and two roundings, so a plane with subnormal normal components, or a ray with a subnormal
 * direction, is as exact as any other; nothing overflows. */
static double sc_plane_side(const sc_plane *p, sc_dvec x) { return sc_ddot(sc_d(p->normal), x) - (double)p->d; }

static sc_raycast_result sc_raycast_plane_d(const sc_dray *ray, const sc_plane *plane)
{
    sc_dvec n = sc_d(plane->normal);
    double denom = sc_ddot(n, ray->d);
    double num = (double)plane->d - sc_ddot(n, ray->o);
    double t;
    if (denom == 0.0) {
        /* Parallel: the whole line is in the plane, or none of it. */
        if (num != 0.0) return sc_miss();
        t = 0.0;
    } else {
        /* t0 = num/denom in [0, tmax], decided by signs and one product (no rounded quotient). */
        int ge0 = (num == 0.0) || ((num > 0.0) == (denom > 0.0));
        double lim = ray->tmax * denom;
        int le_tmax = denom > 0.0 ? (num <= lim) : (num >= lim);
        if (!(ge0 && le_tmax)) return sc_miss();
        t = num / denom;
        if (!(t >= 0.0)) t = 0.0;
        if (t > ray->tmax) t = ray->tmax;
    }
    sc_raycast_result r = sc_miss();
    r.hit = 1;
    r.t = r.t_enter = r.t_exit = sc_tof(t);
    r.point = sc_tof3(sc_dadd(ray->o, sc_dscale(ray->d, t)));
    sc_vec3 u = sc_dunit_or(n, plane->normal);
    if (denom > 0.0) u = sc_scale(u, -1.0f); /* face the ray: n.dir <= 0 */
    r.normal = sc_pz3(u);
    return r;
}

static sc_raycast_result sc_raycast_plane_valid(const sc_ray *ray, const sc_plane *plane)
{
    sc_dray dr = sc_dray_of(ray);
    return sc_raycast_plane_d(&dr, plane);
}

/* ------------------------------------------------------------ public rays */

sc_raycast_result sc_raycast_aabb(const sc_ray *ray, const sc_aabb *box)
{
    sc_status s = sc_ray_check(ray);
    if (s == SC_OK) s = sc_aabb_check(box);
    return s == SC_OK ? sc__raycast_aabb_valid(ray, box) : sc_fail(s);
}

sc_raycast_result sc_raycast_obb(const sc_ray *ray, const sc_obb *box)
{
    sc_status s = sc_ray_check(ray);
    if (s == SC_OK) s = sc_obb_check(box);
    return s == SC_OK ? sc__raycast_obb_valid(ray, box) : sc_fail(s);
}

sc_raycast_result sc_raycast_sphere(const sc_ray *ray, const sc_sphere *sphere)
{
    sc_status s = sc_ray_check(ray);
    if (s == SC_OK) s = sc_sphere_check(sphere);
    return s == SC_OK ? sc__raycast_sphere_valid(ray, sphere) : sc_fail(s);
}

sc_raycast_result sc_raycast_plane(const sc_ray *ray, const sc_plane *plane)
{
    sc_status s = sc_ray_check(ray);
    if (s == SC_OK) s = sc_plane_check(plane);
    return s == SC_OK ? sc_raycast_plane_valid(ray, plane) : sc_fail(s);
}

sc_raycast_result sc_raycast(const sc_ray *ray, const sc_shape *shape)
{
    sc_status s = sc_ray_check(ray);
    if (s == SC_OK) s = sc_shape_check(shape);
    if (s != SC_OK) return sc_fail(s);
    switch (shape->type) {
    case SC_SHAPE_AABB: return sc__raycast_aabb_valid(ray, &shape->u.aabb);
    case SC_SHAPE_OBB: return sc__raycast_obb_valid(ray, &shape->u.obb);
    case SC_SHAPE_SPHERE: return sc__raycast_sphere_valid(ray, &shape->u.sphere);
    default: return sc_raycast_plane_valid(ray, &shape->u.plane);
    }
}

/* ------------------------------------------------------- contains, closest */

static int sc_contains_valid(sc_vec3 p, const sc_shape *shape)
{
    switch (shape->type) {
    case SC_SHAPE_AABB: {
        const sc_aabb *b = &shape->u.aabb;
        return p.x >= b->min.x && p.x <= b->max.x && p.y >= b->min.y && p.y <= b->max.y &&
               p.z >= b->min.z && p.z <= b->max.z;
    }
    case SC_SHAPE_OBB: {
        const sc_obb *b = &shape->u.obb;
        sc_dvec q = sc_obb_local_d(b, sc_d(p));
        return fabs(q.x) <= b->half.x && fabs(q.y) <= b->half.y && fabs(q.z) <= b->half.z;
    }
    default: { /* sphere, in double: |p - c|^2 <= r^2 (exact for small dyadic inputs) */
        const sc_sphere *sp = &shape->u.sphere;
        sc_dvec m = sc_dsub(sc_d(p), sc_d(sp->center));
        double r = sp->radius;
        return sc_ddot(m, m) <= r * r;
    }
    }
}

sc_test_result sc_contains(sc_vec3 p, const sc_shape *shape)
{
    sc_test_result r = {SC_OK, 0};
    sc_status s = sc_point_check(p);
    if (s == SC_OK) s = sc_shape_check(shape);
    if (s == SC_OK && shape->type == SC_SHAPE_PLANE) s = SC_ERR_UNSUPPORTED;
    if (s != SC_OK) { r.status = (int)s; return r; }
    r.value = sc_contains_valid(p, shape);
    return r;
}

static float sc_clampf(float v, float lo, float hi) { return sc_minf(sc_maxf(v, lo), hi); }

sc_point_result sc_closest_point(sc_vec3 p, const sc_shape *shape)
{
    sc_point_result r = {SC_OK, {0, 0, 0}};
    sc_status s = sc_point_check(p);
    if (s == SC_OK) s = sc_shape_check(shape);
    if (s != SC_OK) { r.status = (int)s; return r; }
    /* A point in a solid is its own closest point, exactly. */
    if (shape->type != SC_SHAPE_PLANE && sc_contains_valid(p, shape)) {
        r.point = sc_pz3(p);
        return r;
    }
    switch (shape->type) {
    case SC_SHAPE_AABB: {
        const sc_aabb *b = &shape->u.aabb;
        r.point = (sc_vec3){sc_clampf(p.x, b->min.x, b->max.x), sc_clampf(p.y, b->min.y, b->max.y),
                            sc_clampf(p.z, b->min.z, b->max.z)};
        break;
    }
    case SC_SHAPE_OBB: {
        const sc_obb *b = &shape->u.obb;
        sc_dvec q = sc_obb_local_d(b, sc_d(p));
        sc_dvec c = sc_d(b->center);
        c = sc_dadd(c, sc_dscale(sc_d(b->axes[0]), fmin(fmax(q.x, -(double)b->half.x), b->half.x)));
        c = sc_dadd(c, sc_dscale(sc_d(b->axes[1]), fmin(fmax(q.y, -(double)b->half.y), b->half.y)));
        c = sc_dadd(c, sc_dscale(sc_d(b->axes[2]), fmin(fmax(q.z, -(double)b->half.z), b->half.z)));
        r.point = sc_tof3(c);
        break;
    }
    case SC_SHAPE_SPHERE: {
        const sc_sphere *sp = &shape->u.sphere;
        sc_dvec m = sc_dsub(sc_d(p), sc_d(sp->center));
        double mm = sqrt(sc_ddot(m, m));
        r.point = sc_tof3(sc_dadd(sc_d(sp->center), sc_dscale(m, sp->radius / mm)));
        break;
    }
    default: {
        /* p - ((n.p - d) / (n.n)) n, in double: no overflow, no underflow, no 0 * inf */
        const sc_plane *pl = &shape->u.plane;
        sc_dvec n = sc_d(pl->normal);
        double k = sc_plane_side(pl, sc_d(p)) / sc_ddot(n, n);
        r.point = sc_tof3(sc_dsub(sc_d(p), sc_dscale(n, k)));
        break;
    }
    }
    /* Coordinates past the float range (the exact point of a huge sphere, OBB or a far plane)
     * are reported as +-FLT_MAX, as in the raycasts. */
    r.point = sc_pz3(sc_fin3(r.point));
    return r;
}

/* --------------------------------------------------------------- linetest */

sc_test_result sc_linetest(const sc_segment *segment, const sc_shape *shape)
{
    sc_test_result r = {SC_OK, 0};
    sc_status s = sc_segment_check(segment);
    if (s == SC_OK) s = sc_shape_check(shape);
    if (s != SC_OK) { r.status = (int)s; return r; }
    sc_vec3 a = segment->a, b = segment->b;

    if (shape->type == SC_SHAPE_PLANE) {
        /* Two-sided: the end points' signed distances have opposite signs or one is 0. */
        double sa = sc_plane_side(&shape->u.plane, sc_d(a));
        double sb = sc_plane_side(&shape->u.plane, sc_d(b));
        r.value = (sa <= 0.0 && sb >= 0.0) || (sa >= 0.0 && sb <= 0.0);
        return r;
    }
    if (a.x == b.x && a.y == b.y && a.z == b.z) {
        /* A zero-length segment is a point test. */
        r.value = sc_contains_valid(a, shape);
        return r;
    }
    /* The segment as the ray a + t*(b - a), 0 <= t <= 1, with b - a rounded to float, exactly
     * the ray the world casts for it (sc_world_cast_segments). If b - a could overflow, scale
     * the whole scene by 2^-4 (exact): the answer does not change. */
    sc_shape sh = *shape;
    sc_vec3 pos[2] = {a, b};
    float k = sc_position_scale(pos, 2);
    if (k != 1.0f) {
        a = sc_scale(a, k);
        b = sc_scale(b, k);
        switch (sh.type) {
        case SC_SHAPE_AABB: sh.u.aabb.min = sc_scale(sh.u.aabb.min, k); sh.u.aabb.max = sc_scale(sh.u.aabb.max, k); break;
        case SC_SHAPE_OBB: sh.u.obb.center = sc_scale(sh.u.obb.center, k); sh.u.obb.half = sc_scale(sh.u.obb.half, k); break;
        default: sh.u.sphere.center = sc_scale(sh.u.sphere.center, k); sh.u.sphere.radius *= k; break;
        }
    }
    sc_ray ray = {a, sc_sub(b, a), 1.0f};
    if (sc_zero3(ray.dir)) { /* distinct end points that became equal under the scaling */
        r.value = sc_contains_valid(a, &sh);
        return r;
    }
    sc_raycast_result h;
    switch (sh.type) {
    case SC_SHAPE_AABB: h = sc__raycast_aabb_valid(&ray, &sh.u.aabb); break;
    case SC_SHAPE_OBB: h = sc__raycast_obb_valid(&ray, &sh.u.obb); break;
    default: h = sc__raycast_sphere_valid(&ray, &sh.u.sphere); break;
    }
    r.value = h.hit;
    return r;
}
