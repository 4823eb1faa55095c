/* slabcast core: every query of docs/semantics.md, on float32 inputs.
 *
 * Exactness notes (the reason for most choices below):
 * - AABB slab parameters are computed as (bound - origin) / dir with one true division in
 *   float, never with a precomputed reciprocal: rounding is then monotone in the exact
 *   quotient, so the comparisons t_enter <= t_exit, t_exit >= 0 and t_enter <= tmax keep the
 *   exact order for small dyadic inputs. The world's SIMD kernel reproduces this bit for bit.
 * - An axis with dir == 0 (or -0) is never divided by: the ray is parallel to that slab and
 *   is in it for every t iff lo <= origin <= hi (closed). No 0*inf, no NaN.
 * - Spheres, OBBs and planes classify in double, from sums of products of two input floats
 *   (each exact in double, subnormals included) added without loss (sc_xsum): the tests
 *   are signs and squared comparisons of quantities whose error does not grow with the
 *   distance between the ray and the shape (docs/semantics.md, far shapes), and that are
 *   exact for small dyadic inputs.
 * - Reported t values are the double results rounded to float and kept within +-FLT_MAX;
 *   points are computed from the unrounded parameter (docs/semantics.md, beyond FLT_MAX).
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
/* -0 -> +0, so that results never carry a negative zero. */
static float sc_pz(float a) { return a + 0.0f; }
static sc_vec3 sc_pz3(sc_vec3 v) { return (sc_vec3){sc_pz(v.x), sc_pz(v.y), sc_pz(v.z)}; }

/* The power of two 2^-e that brings m (> 0, finite) into [0.5, 1); 1 for m == 0. For m below
 * 2^-126 (subnormal) the factor stops at 2^126, which brings m to at least 2^-23: 2^-e itself
 * would be up to 2^149, past the float range (an infinite factor turns zeros into NaN). */
static int sc_pow2_exp(float m)
{
    int e = 0;
    if (!(m > 0.0f) || !isfinite(m)) return 0;
    (void)frexpf(m, &e);
    if (e < -126) e = -126;
    return -e;
}
static float sc_pow2_norm(float m) { return ldexpf(1.0f, sc_pow2_exp(m)); }

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
    case SC_ERR_STALE: return "the world changed since its last commit: call sc_world_commit";
    case SC_ERR_REMOVED: return "the object has been removed from the world";
    case SC_ERR_INSIDE: return "filter.inside is not SC_INSIDE_SOLID, SC_INSIDE_SKIP or SC_INSIDE_EXIT";
    case SC_ERR_MAX_DISTANCE: return "max_distance is negative or NaN";
    case SC_STATUS_COUNT: break;
    }
    return "unknown status";
}

const char *sc_version(void) { return SC_VERSION_STRING; }

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

/* ------------------------------------------------- exact sums of products
 *
 * The sphere, OBB and plane queries work in double. Every quantity they classify with is a
 * sum of products of two input floats: such a product is exact in double (24 + 24 bits
 * <= 53, and its exponent, between 2^-298 and 2^256, is far inside the double range, so
 * subnormal floats are as exact as any other). The sum is then taken without loss: the terms
 * are accumulated into a floating-point expansion (a list of non-overlapping doubles whose
 * exact sum is the exact total; two_sum below is an error-free transform), and only the final
 * value is rounded, once, with a relative error of a few 2^-53. That error is relative to the
 * result, not to the terms: a ray origin 1e30 away from a unit sphere cancels down to the
 * right perpendicular distance. (A plain difference o - c of two floats is exact in double only
 * while their exponents differ by at most 29; these sums never need it.)
 * Products of a double with a float (tmax * d.d) are split exactly with two_prod (Dekker's
 * product, without FMA; the operands here stay far from overflow, so the split is exact). */
static void sc_two_sum(double a, double b, double *s, double *e)
{
    double x = a + b;
    double bv = x - a;
    double av = x - bv;
    *s = x;
    *e = (a - av) + (b - bv);
}

static void sc_two_prod(double a, double b, double *p, double *e)
{
    const double split = 134217729.0; /* 2^27 + 1 */
    double x = a * b;
    double ca = split * a, cb = split * b;
    double ah = ca - (ca - a), al = a - ah;
    double bh = cb - (cb - b), bl = b - bh;
    *p = x;
    *e = ((ah * bh - x) + ah * bl + al * bh) + al * bl;
}

#define SC_XSUM_MAX 24
/* The n doubles as an expansion in e (room for n components): nonoverlapping, increasing in
 * magnitude, zero components dropped (Shewchuk's grow-expansion); returns its length. */
static int sc_expansion(const double *t, int n, double *e)
{
    int m = 0;
    for (int i = 0; i < n; ++i) {
        double q = t[i];
        int k = 0;
        for (int j = 0; j < m; ++j) {
            double s, err;
            sc_two_sum(q, e[j], &s, &err);
            q = s;
            if (err != 0.0) e[k++] = err;
        }
        if (q != 0.0) e[k++] = q;
        m = k;
    }
    return m;
}

/* The exact sum of n doubles (n <= SC_XSUM_MAX), rounded to double at the end: the terms go
 * into an expansion (Shewchuk's grow-expansion, zero components dropped), whose components
 * are then added from the smallest to the largest. The sign of the result is the sign of the
 * exact sum; for small dyadic inputs (exact totals) the result is exact. */
static double sc_xsum(const double *t, int n)
{
    double e[SC_XSUM_MAX];
    int m = sc_expansion(t, n, e);
    double s = 0.0;
    for (int j = 0; j < m; ++j) s += e[j];
    return s;
}

/* Append the products a[i]*b[i] of floats (exact in double) with sign sg to a term list. */
static int sc_terms_dot(double *t, int n, sc_vec3 a, sc_vec3 b, double sg)
{
    t[n++] = sg * ((double)a.x * b.x);
    t[n++] = sg * ((double)a.y * b.y);
    t[n++] = sg * ((double)a.z * b.z);
    return n;
}

/* (o - c) . a exactly summed: the offset of o from c along a, for floats o, c, a. */
static double sc_offset_dot(sc_vec3 o, sc_vec3 c, sc_vec3 a)
{
    double t[6];
    int n = sc_terms_dot(t, 0, o, a, 1.0);
    n = sc_terms_dot(t, n, c, a, -1.0);
    return sc_xsum(t, n);
}

/* |o - c|^2 - r^2, exactly summed: o_i - c_i = h + l exactly (two_sum), and each of h^2,
 * 2hl, l^2 is split exactly by two_prod. */
static double sc_dist2_minus_r2(sc_vec3 o, sc_vec3 c, float r)
{
    double t[SC_XSUM_MAX];
    int n = 0;
    for (int i = 0; i < 3; ++i) {
        double h, l;
        sc_two_sum(sc_get(o, i), -(double)sc_get(c, i), &h, &l);
        sc_two_prod(h, h, &t[n], &t[n + 1]);
        sc_two_prod(2.0 * h, l, &t[n + 2], &t[n + 3]);
        sc_two_prod(l, l, &t[n + 4], &t[n + 5]);
        n += 6;
    }
    t[n++] = -((double)r * r);
    return sc_xsum(t, n);
}

/* A double value reported as a float: rounded, and kept within +-FLT_MAX. */
static float sc_dfin(double a)
{
    if (a > FLT_MAX) return FLT_MAX;
    if (a < -FLT_MAX) return -FLT_MAX;
    return (float)a;
}
static sc_vec3 sc_dfin3(const double *v) { return (sc_vec3){sc_dfin(v[0]), sc_dfin(v[1]), sc_dfin(v[2])}; }

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
         * (-2^-150 rounds to -0, and -0 >= 0 made a box behind the origin a hit at t = 0): the
         * caller decides in double (2: undecided). A difference of floats is zero only when
         * they are equal, so n != 0 is exact. The world's SIMD kernel hands such lanes to the
         * scalar test (sc_w_leaf_aabb4). */
        if ((sc_absf(t1) < FLT_MIN && n1 != 0.0f) || (sc_absf(t2) < FLT_MIN && n2 != 0.0f)) return 2;
        float near = di > 0.0f ? t1 : t2;
        float far = di > 0.0f ? t2 : t1;
        if (near > tn) { tn = near; ax = i; }
        if (far < tf) tf = far;
    }
    /* The rounded parameters, on a miss too: the caller checks whether they were too close to
     * tell (sc_slab_close). */
    *t_enter = tn;
    *t_exit = tf;
    *axis = ax;
    return tn > tf ? 0 : 1;
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

/* Whether two slab parameters rounded to float32 are too close for their order to be trusted:
 * each is within 2^-23 of its exact value relative to itself (a correctly rounded quotient of a
 * rounded difference), so values further apart than 2^-21 of the larger are ordered as the
 * exact ones. Infinities and NaN are never close (their cases are decided elsewhere). */
static int sc_slab_close(float a, float b)
{
    if (!isfinite(a) || !isfinite(b)) return 0;
    float m = sc_maxf(sc_absf(a), sc_absf(b));
    return sc_absf(a - b) <= m * 4.76837158e-7f; /* 2^-21 */
}

/* The exact classification of the slab test: whether the interval of o + t*d in the closed
 * box [lo, hi] meets [0, tmax], from the exact parameters (bound - o) / d of every slab, never
 * from rounded ones. Each numerator is an exact two-term sum (two_sum of floats) and each
 * comparison of two quotients is the sign of an exactly summed cross product, so this is exact
 * for any float inputs (products of a double and a float are split exactly by two_prod). Used
 * when the rounded parameters are too close to decide (sc_slab_close): a line that passes a
 * box's edge or corner by less than the rounding of t. */
static int sc_slab_hit_exact(sc_vec3 o, sc_vec3 d, sc_vec3 lo, sc_vec3 hi, float tmax)
{
    double nh[3][2], nl[3][2]; /* [axis][0: near, 1: far] numerators, hi + lo */
    int live[3];
    for (int i = 0; i < 3; ++i) {
        float oi = sc_get(o, i), di = sc_get(d, i), loi = sc_get(lo, i), hii = sc_get(hi, i);
        live[i] = di != 0.0f;
        if (!live[i]) {
            if (oi < loi || oi > hii) return 0;
            continue;
        }
        sc_two_sum(di > 0.0f ? loi : hii, -(double)oi, &nh[i][0], &nl[i][0]);
        sc_two_sum(di > 0.0f ? hii : loi, -(double)oi, &nh[i][1], &nl[i][1]);
    }
    for (int i = 0; i < 3; ++i) {
        if (!live[i]) continue;
        double di = sc_get(d, i), sd = di > 0.0 ? 1.0 : -1.0;
        /* far >= 0: the numerator's sign (its hi part's, or lo's when hi is 0) times d's */
        double fs = nh[i][1] != 0.0 ? nh[i][1] : nl[i][1];
        if (fs * sd < 0.0) return 0;
        /* near <= tmax  <=>  (num - tmax d) sd <= 0 */
        if (isfinite(tmax)) {
            double t[4];
            t[0] = nh[i][0];
            t[1] = nl[i][0];
            sc_two_prod(-(double)tmax, di, &t[2], &t[3]);
            if (sc_xsum(t, 4) * sd > 0.0) return 0;
        }
        /* near_i <= far_j for every other axis j:  (num_i d_j - num_j d_i) sign(d_i d_j) <= 0 */
        for (int j = 0; j < 3; ++j) {
            if (j == i || !live[j]) continue;
            double dj = sc_get(d, j), t[8];
            sc_two_prod(nh[i][0], dj, &t[0], &t[1]);
            sc_two_prod(nl[i][0], dj, &t[2], &t[3]);
            sc_two_prod(-nh[j][1], di, &t[4], &t[5]);
            sc_two_prod(-nl[j][1], di, &t[6], &t[7]);
            if (sc_xsum(t, 8) * sd * (dj > 0.0 ? 1.0 : -1.0) > 0.0) return 0;
        }
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

/* A hit of the AABB: the result from the line's interval [tn, tf] (floats, within the float
 * range), its entry axis, and whether the exact entry is at t >= 0 (then the point lies on the
 * entry face and the normal is that face's). */
static sc_raycast_result sc_aabb_hit(const sc_ray *ray, const sc_aabb *box, float tn, float tf, int axis, int entering)
{
    sc_raycast_result r = sc_miss();
    r.hit = 1;
    r.t_enter = sc_pz(tn);
    r.t_exit = sc_pz(tf);
    r.t = tn > 0.0f ? tn : 0.0f;
    r.point = ray->origin;
    if (entering && axis >= 0) {
        /* The point from the unrounded parameter (docs/semantics.md: t saturates at FLT_MAX,
         * the point does not): t = (face - o_axis) / d_axis again, in double, where the
         * difference of two floats does not overflow and a subnormal d_axis gives a finite t.
         * The entry axis itself is set exactly: entered through the min face when moving up
         * the axis, the max face otherwise. The others are clamped to the box below. */
        double da = sc_get(ray->dir, axis);
        double face = da > 0.0 ? sc_get(box->min, axis) : sc_get(box->max, axis);
        double td = (face - (double)sc_get(ray->origin, axis)) / da;
        double pd[3];
        for (int i = 0; i < 3; ++i) pd[i] = (double)sc_get(ray->origin, i) + td * sc_get(ray->dir, i);
        r.point = sc_dfin3(pd);
        sc_set(&r.point, axis, (float)face);
        sc_set(&r.normal, axis, da > 0.0 ? -1.0f : 1.0f);
    }
    /* The exact point is in the closed box; clamping the rounded one only brings it closer. */
    for (int i = 0; i < 3; ++i)
        sc_set(&r.point, i, sc_minf(sc_maxf(sc_get(r.point, i), sc_get(box->min, i)), sc_get(box->max, i)));
    r.point = sc_pz3(r.point);
    r.normal = sc_pz3(r.normal);
    return r;
}

/* Ray vs AABB in double, for the inputs whose float slab quotients underflow (sc_slab_core
 * returns 2). In double no quotient of floats underflows (|q| >= 2^-277), so the signs and the
 * order of the slab bounds are those of the exact values. */
static sc_raycast_result sc_raycast_aabb_d(const sc_ray *ray, const sc_aabb *box)
{
    double tn = -INFINITY, tf = INFINITY;
    int ax = -1;
    for (int i = 0; i < 3; ++i) {
        double oi = sc_get(ray->origin, i), di = sc_get(ray->dir, i);
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
    return sc_aabb_hit(ray, box, sc_dfin(tn), sc_dfin(tf), ax, tn >= 0.0);
}

/* Ray vs AABB, inputs valid. The world kernels reproduce this bit for bit. */
sc_raycast_result sc__raycast_aabb_valid(const sc_ray *ray, const sc_aabb *box)
{
    sc_vec3 pos[3] = {ray->origin, box->min, box->max};
    float s = sc_position_scale(pos, 3);
    float tn = 0.0f, tf = 0.0f;
    int axis = -1;
    int k = sc_slab_interval(sc_scale(ray->origin, s), ray->dir, sc_scale(box->min, s), sc_scale(box->max, s),
                             &tn, &tf, &axis);
    if (k == 2) return sc_raycast_aabb_d(ray, box);
    if (!k && !(axis >= 0 && sc_slab_close(tn, tf))) return sc_miss();
    if (s != 1.0f) { tn /= s; tf /= s; }
    /* I = [tn, tf] meets [0, tmax]; when the rounded parameters are too close to say, the exact
     * ones decide (scaling by a power of two changes no parameter). */
    int hit = k && tf >= 0.0f && tn <= ray->tmax;
    if ((axis >= 0 && sc_slab_close(tn, tf)) || sc_slab_close(tn, ray->tmax)) {
        hit = sc_slab_hit_exact(sc_scale(ray->origin, s), ray->dir, sc_scale(box->min, s), sc_scale(box->max, s), ray->tmax);
    }
    if (!hit) return sc_miss();
    /* An exact hit whose rounded parameters crossed: the exit is raised to the entry, and t
     * kept within tmax (the entry's point is the one reported). */
    if (tf < tn) tf = tn;
    sc_raycast_result r = sc_aabb_hit(ray, box, sc_fin(tn), sc_fin(tf), axis, tn >= 0.0f);
    if (r.t > ray->tmax) r.t = ray->tmax;
    return r;
}

static sc_vec3 sc_normalize_or(sc_vec3 v, sc_vec3 fallback)
{
    float k = sc_pow2_norm(sc_max3abs(v));
    sc_vec3 w = sc_scale(v, k);
    float len = sqrtf(sc_dot(w, w));
    if (!(len > 0.0f) || !isfinite(len)) return fallback;
    return sc_scale(w, 1.0f / len);
}

/* ----------------------------------------------------------------- sphere */

/* The line o + t*d against the closed ball |x - c| <= r, from exactly summed quantities
 * (m = o - c): w = m x d, bd = m.d, dd = d.d, mm_r2 = m.m - r^2, and w2 = -bd - tmax*dd
 * (unused when tmax = +inf). With h2 = r^2 dd - w.w (dd times r^2 minus the squared
 * distance of the centre from the line), the line meets the ball iff h2 >= 0, and
 * I = [(-bd - sqrt(h2)) / dd, (-bd + sqrt(h2)) / dd].
 * The classification compares signs and squares, never a rounded root or quotient:
 * - origin in the closed ball (mm_r2 <= 0): t = 0 is in I and in [0, tmax], a hit;
 * - otherwise a hit needs h2 >= 0, bd < 0 (heading towards the ball: |m + t d| grows for
 *   t >= 0 otherwise), and t_enter <= tmax  <=>  w2 <= sqrt(h2)  <=>  w2 <= 0 or w2^2 <= h2.
 * Every input of these tests is accurate to a few 2^-53 relative to itself, whatever the
 * distance between the origin and the ball (see the exact sums above); for small dyadic
 * inputs with an axis-parallel direction they are all exact. */
typedef struct sc_sphere_q {
    double w[3], bd, dd, mm_r2, r2, w2, T; /* T = tmax * dd */
    int tmax_inf;
} sc_sphere_q;

typedef struct sc_sphere_sol {
    double t_enter, t_exit;
    double h; /* sqrt(h2) */
} sc_sphere_sol;

static int sc_sphere_solve(const sc_sphere_q *q, sc_sphere_sol *out)
{
    /* h2 has two forms, equal by Lagrange's identity (bd^2 + w.w = m.m dd): r^2 dd - w.w and
     * bd^2 - mm_r2 dd. Each rounds with an error of a few 2^-53 of its terms: the first is
     * the accurate one when the origin is far from the ball (m.m >> r^2), the second when the
     * origin is close to the surface of a ball much larger than dd's scale (a huge ball, a
     * tiny dir). Take the one whose terms are smaller. */
    double ww = q->w[0] * q->w[0] + q->w[1] * q->w[1] + q->w[2] * q->w[2];
    double r2dd = q->r2 * q->dd;
    double bb = q->bd * q->bd, md = q->mm_r2 * q->dd;
    int far_form = r2dd + ww <= bb + fabs(md);
    double h2 = far_form ? r2dd - ww : bb - md;
    if (!(q->mm_r2 <= 0.0)) {
        if (h2 < 0.0 || !(q->bd < 0.0)) return 0;
        /* w2 > 0: tmax before the vertex of the quadratic; then t_enter <= tmax iff
         * w2^2 - h2 <= 0, and w2^2 - h2 = dd f(tmax) = T (T + 2 bd) + mm_r2 dd (T = tmax dd;
         * T + 2 bd < bd < 0 there, so that sum does not cancel). Either form is evaluated with
         * an error of a few 2^-53 of its terms: take the one whose terms are smaller (the
         * first for an origin far from a small ball, the second when the origin is close to
         * the surface compared with the ball's size or tmax is short). */
        if (!q->tmax_inf && q->w2 > 0.0) {
            double w22 = q->w2 * q->w2;
            double tt = q->T * (q->T + 2.0 * q->bd);
            double ea = w22 + (far_form ? r2dd + ww : bb + fabs(md));
            double eb = fabs(tt) + fabs(md);
            if (ea < eb ? w22 - h2 > 0.0 : tt + md > 0.0) return 0;
        }
    }
    if (h2 < 0.0) h2 = 0.0; /* inside, and rounding put the line just off the ball */
    double h = sqrt(h2);
    /* The root without cancellation first; the other from the product of the roots,
     * t_enter * t_exit = mm_r2 / dd (so an origin on the sphere gives exactly 0). */
    if (q->bd <= 0.0) {
        double s = -q->bd + h;
        out->t_exit = s / q->dd;
        out->t_enter = s > 0.0 ? q->mm_r2 / s : out->t_exit;
    } else {
        double s = -q->bd - h;
        out->t_enter = s / q->dd;
        out->t_exit = q->mm_r2 / s;
    }
    if (out->t_enter > out->t_exit) out->t_enter = out->t_exit; /* rounding; I is not empty */
    if (q->mm_r2 < 0.0 && !(out->t_enter < 0.0)) out->t_enter = -0.0; /* strictly inside */
    if (out->t_exit < 0.0) out->t_exit = 0.0; /* the hit test above says exit >= 0 */
    out->h = h;
    return 1;
}

/* The quantities of sc_sphere_solve for the ray o + t d. */
static void sc_sphere_q_ray(sc_vec3 o, sc_vec3 d, float tmax, const sc_sphere *sp, sc_sphere_q *q)
{
    sc_vec3 c = sp->center;
    for (int i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        /* (m x d)_i = m_j d_k - m_k d_j = o_j d_k - c_j d_k - o_k d_j + c_k d_j */
        double t[4] = {(double)sc_get(o, j) * sc_get(d, k), -((double)sc_get(c, j) * sc_get(d, k)),
                       -((double)sc_get(o, k) * sc_get(d, j)), (double)sc_get(c, k) * sc_get(d, j)};
        q->w[i] = sc_xsum(t, 4);
    }
    q->bd = sc_offset_dot(o, c, d);
    double t[12];
    int n = sc_terms_dot(t, 0, d, d, 1.0);
    q->dd = sc_xsum(t, n);
    q->mm_r2 = sc_dist2_minus_r2(o, c, sp->radius);
    q->r2 = (double)sp->radius * sp->radius;
    q->tmax_inf = isinf(tmax);
    q->w2 = 0.0;
    q->T = q->tmax_inf ? 0.0 : (double)tmax * q->dd;
    if (!q->tmax_inf) {
        n = sc_terms_dot(t, 0, o, d, -1.0);
        n = sc_terms_dot(t, n, c, d, 1.0);
        for (int i = 0; i < 3; ++i) {
            double di = sc_get(d, i);
            sc_two_prod(-(double)tmax, di * di, &t[n], &t[n + 1]);
            n += 2;
        }
        q->w2 = sc_xsum(t, n);
    }
}

/* w = (a - c) x (b - a), each component summed exactly from products of the floats and
 * rounded once: (a - c) x (b - a) = a x b - c x b + c x a. */
static void sc_cross_offset(sc_vec3 a, sc_vec3 b, sc_vec3 c, double w[3])
{
    for (int i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        double u[6] = {(double)sc_get(a, j) * sc_get(b, k), -((double)sc_get(a, k) * sc_get(b, j)),
                       -((double)sc_get(c, j) * sc_get(b, k)), (double)sc_get(c, k) * sc_get(b, j),
                       (double)sc_get(c, j) * sc_get(a, k), -((double)sc_get(c, k) * sc_get(a, j))};
        w[i] = sc_xsum(u, 6);
    }
}

/* The same for the segment a + t (b - a), 0 <= t <= 1, without rounding b - a: every
 * quantity expands into products of the input floats. Returns 0 for a zero-length segment. */
static int sc_sphere_q_segment(sc_vec3 a, sc_vec3 b, const sc_sphere *sp, sc_sphere_q *q)
{
    sc_vec3 c = sp->center;
    double t[12];
    sc_cross_offset(a, b, c, q->w);
    /* dd = b.b - 2 a.b + a.a */
    int n = sc_terms_dot(t, 0, b, b, 1.0);
    n = sc_terms_dot(t, n, a, b, -2.0);
    n = sc_terms_dot(t, n, a, a, 1.0);
    q->dd = sc_xsum(t, n);
    if (q->dd == 0.0) return 0;
    /* bd = (a - c).(b - a) = a.b - a.a - c.b + c.a */
    n = sc_terms_dot(t, 0, a, b, 1.0);
    n = sc_terms_dot(t, n, a, a, -1.0);
    n = sc_terms_dot(t, n, c, b, -1.0);
    n = sc_terms_dot(t, n, c, a, 1.0);
    q->bd = sc_xsum(t, n);
    /* w2 = -bd - 1 * dd = -(b - c).(b - a) = -b.b + b.a + c.b - c.a */
    n = sc_terms_dot(t, 0, b, b, -1.0);
    n = sc_terms_dot(t, n, b, a, 1.0);
    n = sc_terms_dot(t, n, c, b, 1.0);
    n = sc_terms_dot(t, n, c, a, -1.0);
    q->w2 = sc_xsum(t, n);
    q->tmax_inf = 0;
    q->T = q->dd;
    q->mm_r2 = sc_dist2_minus_r2(a, c, sp->radius);
    q->r2 = (double)sp->radius * sp->radius;
    return 1;
}

/* A double vector scaled to unit length (NaN-free for any non-zero finite input: the scale
 * by a power of two keeps the squares in range); fallback for the zero vector. */
static sc_vec3 sc_unit_d(const double *v, sc_vec3 fallback)
{
    double m = fabs(v[0]);
    if (fabs(v[1]) > m) m = fabs(v[1]);
    if (fabs(v[2]) > m) m = fabs(v[2]);
    if (!(m > 0.0) || !isfinite(m)) return fallback;
    int e = 0;
    (void)frexp(m, &e);
    double x = ldexp(v[0], -e), y = ldexp(v[1], -e), z = ldexp(v[2], -e);
    double len = sqrt(x * x + y * y + z * z);
    return (sc_vec3){(float)(x / len), (float)(y / len), (float)(z / len)};
}

sc_raycast_result sc__raycast_sphere_valid(const sc_ray *ray, const sc_sphere *sp)
{
    sc_sphere_q q;
    sc_sphere_sol L;
    sc_sphere_q_ray(ray->origin, ray->dir, ray->tmax, sp, &q);
    if (!sc_sphere_solve(&q, &L)) return sc_miss();
    sc_raycast_result r = sc_miss();
    r.hit = 1;
    r.t_enter = sc_pz(sc_dfin(L.t_enter));
    r.t_exit = sc_pz(sc_dfin(L.t_exit));
    r.t = L.t_enter > 0.0 ? r.t_enter : 0.0f;
    if (r.t > ray->tmax) r.t = ray->tmax; /* classification was exact; keep t within [0, tmax] */
    double dv[3] = {ray->dir.x, ray->dir.y, ray->dir.z}, e[3], p[3];
    double bk[3] = {-dv[0], -dv[1], -dv[2]};
    sc_vec3 back = sc_unit_d(bk, ray->dir); /* a point sphere: face the ray */
    if (!(L.t_enter > 0.0)) {
        r.point = sc_pz3(ray->origin); /* t = 0 */
        if (L.t_enter == 0.0 && !(q.mm_r2 < 0.0)) {
            /* On the sphere and heading in (or touching): the normal at the origin. The
             * origin is within a radius of the centre, so o - c is exact in double unless
             * the radius is far below the coordinates (it is then rounded relative to |o - c|). */
            double m[3];
            for (int i = 0; i < 3; ++i) m[i] = (double)sc_get(ray->origin, i) - sc_get(sp->center, i);
            r.normal = sc_pz3(sc_unit_d(m, back));
        }
        return r;
    }
    /* The entry point relative to the centre, e = f - (h / dd) d, with f = (d x w) / dd the
     * foot of the perpendicular from the centre (w = m x d): built from the accurate w rather
     * than from o + t d, so that it stays on the sphere (to rounding of the sphere's own size)
     * however far the origin is. */
    for (int i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        double f = (dv[j] * q.w[k] - dv[k] * q.w[j]) / q.dd;
        e[i] = f - (L.h / q.dd) * dv[i];
        p[i] = (double)sc_get(sp->center, i) + e[i];
    }
    r.point = sc_pz3(sc_dfin3(p));
    r.normal = sc_pz3(sp->radius > 0.0f ? sc_unit_d(e, back) : back);
    return r;
}

/* The OBB queries in the box frame, from exactly summed quantities (m = o - c, a_i the box
 * axes): ol_i = m.a_i, dl_i = d.a_i, oe_i = (o + tmax d - c).a_i (the point at tmax; unused
 * for tmax = +inf) and w = m x d. The slab of axis i gives near_i = (-s_i h_i - ol_i) / dl_i
 * and far_i = (s_i h_i - ol_i) / dl_i (s_i the sign of dl_i). The classification never
 * compares rounded quotients:
 * - a parallel axis (dl_i = 0, an exact zero): |ol_i| <= h_i;
 * - the line meets the box iff near_i <= far_j for every pair i != j; multiplied out by
 *   |dl_i dl_j|: s_i s_j (N_i dl_j - F_j dl_i) <= 0, and the only large part of that,
 *   ol_j dl_i - ol_i dl_j, equals w.(a_j x a_i) (Binet-Cauchy), whose size is the distance of
 *   the line from the centre, not the distance of the origin: so the test keeps its accuracy
 *   at any distance;
 * - t_exit >= 0 iff h_j - s_j ol_j >= 0 for every j, and t_enter <= tmax iff
 *   s_i oe_i >= -h_i for every i (the point at tmax is past every near face).
 * For small dyadic inputs with axes a signed permutation every quantity is exact. */
typedef struct sc_obb_q {
    double ol[3], dl[3], oe[3], w[3], tmax;
    int tmax_inf;
} sc_obb_q;

static void sc_cross_terms(double *w, sc_vec3 o, sc_vec3 c, sc_vec3 d)
{
    for (int i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        double t[4] = {(double)sc_get(o, j) * sc_get(d, k), -((double)sc_get(c, j) * sc_get(d, k)),
                       -((double)sc_get(o, k) * sc_get(d, j)), (double)sc_get(c, k) * sc_get(d, j)};
        w[i] = sc_xsum(t, 4);
    }
}

static void sc_obb_q_ray(const sc_obb *b, sc_vec3 o, sc_vec3 d, float tmax, sc_obb_q *q)
{
    sc_cross_terms(q->w, o, b->center, d);
    q->tmax_inf = isinf(tmax);
    q->tmax = tmax;
    for (int i = 0; i < 3; ++i) {
        double t[12];
        sc_vec3 a = b->axes[i];
        q->ol[i] = sc_offset_dot(o, b->center, a);
        int n = sc_terms_dot(t, 0, d, a, 1.0);
        q->dl[i] = sc_xsum(t, n);
        q->oe[i] = 0.0;
        if (!q->tmax_inf) {
            n = sc_terms_dot(t, 0, o, a, 1.0);
            n = sc_terms_dot(t, n, b->center, a, -1.0);
            for (int k = 0; k < 3; ++k) {
                sc_two_prod((double)tmax, (double)sc_get(d, k) * sc_get(a, k), &t[n], &t[n + 1]);
                n += 2;
            }
            q->oe[i] = sc_xsum(t, n);
        }
    }
}

/* The segment a + t (b - a), 0 <= t <= 1, with b - a never rounded. */
static void sc_obb_q_segment(const sc_obb *box, sc_vec3 a, sc_vec3 b, sc_obb_q *q)
{
    sc_vec3 c = box->center;
    sc_cross_offset(a, b, c, q->w);
    q->tmax_inf = 0;
    q->tmax = 1.0;
    for (int i = 0; i < 3; ++i) {
        double t[6];
        sc_vec3 ax = box->axes[i];
        q->ol[i] = sc_offset_dot(a, c, ax);
        q->oe[i] = sc_offset_dot(b, c, ax);
        int n = sc_terms_dot(t, 0, b, ax, 1.0);
        n = sc_terms_dot(t, n, a, ax, -1.0);
        q->dl[i] = sc_xsum(t, n);
    }
}

static int sc_sgn(double x) { return x > 0.0 ? 1 : (x < 0.0 ? -1 : 0); }

/* Classification (see above); on a hit, the interval in units of d and the entry axis. */
static int sc_obb_solve(const sc_obb *b, const sc_obb_q *q, double *t_enter, double *t_exit, int *axis)
{
    double h[3] = {b->half.x, b->half.y, b->half.z};
    int s[3];
    /* The origin in the closed box (the same exact test as sc_contains): t = 0 is in I and
     * in [0, tmax], a hit whatever the rounded tests below would say. */
    int inside = fabs(q->ol[0]) <= h[0] && fabs(q->ol[1]) <= h[1] && fabs(q->ol[2]) <= h[2];
    for (int i = 0; i < 3; ++i) {
        s[i] = sc_sgn(q->dl[i]);
        if (inside) continue;
        if (s[i] == 0) {
            if (fabs(q->ol[i]) > h[i]) return 0;
        } else {
            if (h[i] - s[i] * q->ol[i] < 0.0) return 0;                  /* far_i < 0 */
            if (!q->tmax_inf && s[i] * q->oe[i] < -h[i]) return 0;       /* near_i > tmax */
        }
    }
    for (int i = 0; i < 3 && !inside; ++i) {
        for (int j = 0; j < 3; ++j) {
            if (i == j || s[i] == 0 || s[j] == 0) continue;
            /* N_i dl_j - F_j dl_i = -s_i h_i dl_j - s_j h_j dl_i + w.(a_j x a_i) */
            sc_vec3 aj = b->axes[j], ai = b->axes[i];
            double cr[3];
            for (int k = 0; k < 3; ++k) {
                int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
                cr[k] = (double)sc_get(aj, k1) * sc_get(ai, k2) - (double)sc_get(aj, k2) * sc_get(ai, k1);
            }
            double x = q->w[0] * cr[0] + q->w[1] * cr[1] + q->w[2] * cr[2];
            double v = (-s[i] * h[i]) * q->dl[j] - (s[j] * h[j]) * q->dl[i] + x;
            if (s[i] * s[j] * v > 0.0) return 0;
        }
    }
    double tn = -INFINITY, tf = INFINITY;
    int ax = -1;
    for (int i = 0; i < 3; ++i) {
        if (s[i] == 0) continue;
        double nr = (-s[i] * h[i] - q->ol[i]) / q->dl[i];
        double fr = (s[i] * h[i] - q->ol[i]) / q->dl[i];
        if (nr > tn) { tn = nr; ax = i; }
        if (fr < tf) tf = fr;
    }
    /* The quotients are rounded (and ill-conditioned for a dir nearly parallel to a face):
     * keep them consistent with the classification above. The entry is kept and the exit
     * raised to it, not the other way round: the entry's point is the one reported, and it
     * must lie on the box (a lowered entry could be far from it along a grazing ray). */
    if (!q->tmax_inf && tn > q->tmax) tn = q->tmax;
    if (inside && tn > 0.0) tn = 0.0;
    if (tn > tf) tf = tn;
    if (tf < 0.0) tf = 0.0;
    *t_enter = tn;
    *t_exit = tf;
    *axis = ax;
    return 1;
}

sc_raycast_result sc__raycast_obb_valid(const sc_ray *ray, const sc_obb *box)
{
    sc_obb_q q;
    double tn, tf;
    int axis;
    sc_obb_q_ray(box, ray->origin, ray->dir, ray->tmax, &q);
    if (!sc_obb_solve(box, &q, &tn, &tf, &axis)) return sc_miss();
    sc_raycast_result r = sc_miss();
    r.hit = 1;
    r.t_enter = sc_pz(sc_dfin(tn));
    r.t_exit = sc_pz(sc_dfin(tf));
    r.t = tn > 0.0 ? r.t_enter : 0.0f;
    if (r.t > ray->tmax) r.t = ray->tmax;
    if (!(tn > 0.0)) {
        r.point = sc_pz3(ray->origin);
    } else {
        /* The point from the unrounded parameter (docs/semantics.md: a t past FLT_MAX is
         * reported saturated, the point is not), in the box frame: c + sum_i a_i l_i with the
         * entry axis on its face, l_axis = -+h_axis, and for the others
         * l_i = ol_i + t dl_i = (ol_i dl_ax - ol_ax dl_i - s_ax h_ax dl_i) / dl_ax, where
         * ol_i dl_ax - ol_ax dl_i = w.(a_i x a_ax) (as in sc_obb_solve): no cancellation of
         * the origin's distance, so the point is as accurate far away as near. Clamped to the
         * box (the exact point is in it). */
        double p[3] = {box->center.x, box->center.y, box->center.z};
        double h[3] = {box->half.x, box->half.y, box->half.z};
        int sa = q.dl[axis] > 0.0 ? 1 : -1;
        sc_vec3 aa = box->axes[axis];
        for (int i = 0; i < 3; ++i) {
            sc_vec3 ai = box->axes[i];
            double li;
            if (i == axis) {
                li = -sa * h[i];
            } else {
                double cr[3];
                for (int k = 0; k < 3; ++k) {
                    int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
                    cr[k] = (double)sc_get(ai, k1) * sc_get(aa, k2) - (double)sc_get(ai, k2) * sc_get(aa, k1);
                }
                double x = q.w[0] * cr[0] + q.w[1] * cr[1] + q.w[2] * cr[2];
                li = (x - sa * h[axis] * q.dl[i]) / q.dl[axis];
            }
            if (li > h[i]) li = h[i];
            if (li < -h[i]) li = -h[i];
            p[0] += li * ai.x;
            p[1] += li * ai.y;
            p[2] += li * ai.z;
        }
        r.point = sc_pz3(sc_dfin3(p));
    }
    if (tn >= 0.0 && axis >= 0) {
        sc_vec3 a = sc_normalize_or(box->axes[axis], box->axes[axis]);
        r.normal = sc_pz3(sc_scale(a, q.dl[axis] > 0.0 ? -1.0f : 1.0f));
    }
    return r;
}

/* ------------------------------------------------------------------ plane */

/* n.x - d for the plane and a float point x, exactly summed (sign exact; no rescaling: the
 * products of floats are all in the double range, subnormal normals included). */
static double sc_plane_side(const sc_plane *p, sc_vec3 x)
{
    double t[4];
    int n = sc_terms_dot(t, 0, p->normal, x, 1.0);
    t[n++] = -(double)p->d;
    return sc_xsum(t, n);
}

static sc_raycast_result sc_raycast_plane_valid(const sc_ray *ray, const sc_plane *plane)
{
    double t3[3];
    double denom = sc_xsum(t3, sc_terms_dot(t3, 0, plane->normal, ray->dir, 1.0));
    double num = -sc_plane_side(plane, ray->origin); /* d - n.o */
    double t;
    if (denom == 0.0) {
        /* Parallel: the whole line is in the plane, or none of it. */
        if (num != 0.0) return sc_miss();
        t = 0.0;
    } else {
        /* t0 = num/denom in [0, tmax], decided by signs (exact) and, for a finite tmax, the
         * sign of num - tmax*denom, exactly summed (no rounded quotient). */
        int ge0 = (num == 0.0) || ((num > 0.0) == (denom > 0.0));
        if (!ge0) return sc_miss();
        if (!isinf(ray->tmax)) {
            double tt[16];
            int n = sc_terms_dot(tt, 0, plane->normal, ray->origin, -1.0);
            tt[n++] = plane->d;
            for (int i = 0; i < 3; ++i) {
                double ni = sc_get(plane->normal, i), di = sc_get(ray->dir, i);
                sc_two_prod(-(double)ray->tmax, ni * di, &tt[n], &tt[n + 1]);
                n += 2;
            }
            double diff = sc_xsum(tt, n); /* num - tmax*denom */
            if (denom > 0.0 ? diff > 0.0 : diff < 0.0) return sc_miss();
        }
        t = num / denom;
        if (!(t >= 0.0)) t = 0.0;
    }
    sc_raycast_result r = sc_miss();
    r.hit = 1;
    float tf = sc_dfin(t);
    if (tf > ray->tmax) tf = ray->tmax;
    r.t = r.t_enter = r.t_exit = sc_pz(tf);
    /* The point from the unrounded t (docs/semantics.md: only t saturates). */
    double p[3];
    for (int i = 0; i < 3; ++i) p[i] = (double)sc_get(ray->origin, i) + t * sc_get(ray->dir, i);
    r.point = sc_pz3(sc_dfin3(p));
    double nv[3] = {plane->normal.x, plane->normal.y, plane->normal.z};
    sc_vec3 n = sc_unit_d(nv, plane->normal);
    if (denom > 0.0) n = sc_scale(n, -1.0f); /* face the ray: n.dir <= 0 */
    r.normal = sc_pz3(n);
    return r;
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
        /* |(p - c).a_i| <= h_i, each offset exactly summed (see sc_xsum). */
        const sc_obb *b = &shape->u.obb;
        for (int i = 0; i < 3; ++i)
            if (!(fabs(sc_offset_dot(p, b->center, b->axes[i])) <= sc_get(b->half, i))) return 0;
        return 1;
    }
    default: /* sphere: |p - c|^2 - r^2 <= 0, exactly summed */
        return sc_dist2_minus_r2(p, shape->u.sphere.center, shape->u.sphere.radius) <= 0.0;
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
    double q[3];
    switch (shape->type) {
    case SC_SHAPE_AABB: {
        const sc_aabb *b = &shape->u.aabb;
        r.point = sc_pz3((sc_vec3){sc_clampf(p.x, b->min.x, b->max.x), sc_clampf(p.y, b->min.y, b->max.y),
                                   sc_clampf(p.z, b->min.z, b->max.z)});
        return r;
    }
    case SC_SHAPE_OBB: {
        /* c + sum_i a_i clamp((p - c).a_i, -h_i, h_i), in double. */
        const sc_obb *b = &shape->u.obb;
        q[0] = b->center.x; q[1] = b->center.y; q[2] = b->center.z;
        for (int i = 0; i < 3; ++i) {
            double h = sc_get(b->half, i);
            double l = sc_offset_dot(p, b->center, b->axes[i]);
            l = l < -h ? -h : (l > h ? h : l);
            q[0] += l * b->axes[i].x;
            q[1] += l * b->axes[i].y;
            q[2] += l * b->axes[i].z;
        }
        break;
    }
    case SC_SHAPE_SPHERE: {
        /* c + r (p - c)/|p - c|. p is outside, so p - c is not zero; in double it is exact
         * unless the coordinates' exponents differ by more than 29, and then rounded relative
         * to its own length: the direction is right to a few 2^-53. */
        const sc_sphere *sp = &shape->u.sphere;
        double m[3];
        for (int i = 0; i < 3; ++i) m[i] = (double)sc_get(p, i) - sc_get(sp->center, i);
        sc_vec3 u = sc_unit_d(m, (sc_vec3){0, 0, 0});
        for (int i = 0; i < 3; ++i) q[i] = (double)sc_get(sp->center, i) + (double)sp->radius * sc_get(u, i);
        break;
    }
    default: {
        /* p - n (n.p - d)/(n.n): both sums exact up to their final rounding; a normal
         * component that is 0 moves nothing. */
        const sc_plane *pl = &shape->u.plane;
        double t3[3];
        double nn = sc_xsum(t3, sc_terms_dot(t3, 0, pl->normal, pl->normal, 1.0));
        double dist = sc_plane_side(pl, p) / nn;
        for (int i = 0; i < 3; ++i) q[i] = (double)sc_get(p, i) - (double)sc_get(pl->normal, i) * dist;
        break;
    }
    }
    /* Coordinates past the float range (the exact point of a huge sphere, OBB or a far plane)
     * are reported as +-FLT_MAX, as in the raycasts. */
    r.point = sc_pz3(sc_dfin3(q));
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
        double sa = sc_plane_side(&shape->u.plane, a);
        double sb = sc_plane_side(&shape->u.plane, b);
        r.value = (sa <= 0.0 && sb >= 0.0) || (sa >= 0.0 && sb <= 0.0);
        return r;
    }
    if (a.x == b.x && a.y == b.y && a.z == b.z) {
        /* A zero-length segment is a point test. */
        r.value = sc_contains_valid(a, shape);
        return r;
    }
    if (shape->type == SC_SHAPE_SPHERE) {
        /* b - a is never rounded: see sc_sphere_q_segment. */
        sc_sphere_q q;
        sc_sphere_sol L;
        if (!sc_sphere_q_segment(a, b, &shape->u.sphere, &q)) r.value = sc_contains_valid(a, shape);
        else r.value = sc_sphere_solve(&q, &L);
        return r;
    }
    if (shape->type == SC_SHAPE_OBB) {
        sc_obb_q q;
        double tn, tf;
        int axis;
        sc_obb_q_segment(&shape->u.obb, a, b, &q);
        r.value = sc_obb_solve(&shape->u.obb, &q, &tn, &tf, &axis);
        return r;
    }
    /* AABB: the segment as the ray a + t*(b - a), 0 <= t <= 1. If b - a could overflow, scale
     * the whole scene by 2^-4 (exact): the answer does not change. */
    sc_aabb box = shape->u.aabb;
    sc_vec3 pos[2] = {a, b};
    float k = sc_position_scale(pos, 2);
    if (k != 1.0f) {
        a = sc_scale(a, k);
        b = sc_scale(b, k);
        box.min = sc_scale(box.min, k);
        box.max = sc_scale(box.max, k);
    }
    sc_ray ray = {a, sc_sub(b, a), 1.0f};
    if (sc_zero3(ray.dir)) { /* distinct end points that became equal under the scaling */
        sc_shape sh = *shape;
        sh.u.aabb = box;
        r.value = sc_contains_valid(a, &sh);
        return r;
    }
    r.value = sc__raycast_aabb_valid(&ray, &box).hit;
    return r;
}

/* ------------------------------------------------------------------ exit normals
 * The outward unit normal where a ray whose origin is inside a solid leaves it (the worlds'
 * SC_INSIDE_EXIT rule): the face the line crosses last, t_exit's face. On an edge or a corner any
 * face containing the exit point is correct, as for entry normals (docs/semantics.md). */

/* The box face of the smallest far-plane parameter: (face - o) / d in double (the difference of
 * two floats is exact there unless their exponents are 29 or more apart). */
static sc_vec3 sc_exit_normal_aabb(const sc_ray *ray, const sc_aabb *box)
{
    sc_vec3 n = {0, 0, 0};
    int axis = -1;
    double best = INFINITY;
    for (int i = 0; i < 3; ++i) {
        double d = sc_get(ray->dir, i);
        if (d == 0.0) continue;
        double face = d > 0.0 ? sc_get(box->max, i) : sc_get(box->min, i);
        double t = (face - (double)sc_get(ray->origin, i)) / d;
        if (axis < 0 || t < best) { best = t; axis = i; }
    }
    if (axis >= 0) sc_set(&n, axis, sc_get(ray->dir, axis) > 0.0f ? 1.0f : -1.0f);
    return n;
}

/* In the box frame (exactly summed origin and direction, sc_obb_q_ray): the axis of the smallest
 * far-plane parameter (s h - ol) / dl, s the sign of dl. */
static sc_vec3 sc_exit_normal_obb(const sc_ray *ray, const sc_obb *box)
{
    sc_obb_q q;
    sc_obb_q_ray(box, ray->origin, ray->dir, ray->tmax, &q);
    double h[3] = {box->half.x, box->half.y, box->half.z};
    int axis = -1;
    double best = INFINITY;
    for (int i = 0; i < 3; ++i) {
        if (q.dl[i] == 0.0) continue;
        double s = q.dl[i] > 0.0 ? 1.0 : -1.0;
        double t = (s * h[i] - q.ol[i]) / q.dl[i];
        if (axis < 0 || t < best) { best = t; axis = i; }
    }
    if (axis < 0) return (sc_vec3){0, 0, 0};
    sc_vec3 a = sc_normalize_or(box->axes[axis], box->axes[axis]);
    return sc_pz3(sc_scale(a, q.dl[axis] > 0.0 ? 1.0f : -1.0f));
}

/* The exit point relative to the centre, f + (h / dd) d (the entry's mirror in
 * sc__raycast_sphere_valid), normalised; a point sphere faces along the ray. */
static sc_vec3 sc_exit_normal_sphere(const sc_ray *ray, const sc_sphere *sp)
{
    sc_sphere_q q;
    sc_sphere_sol L;
    double dv[3] = {ray->dir.x, ray->dir.y, ray->dir.z}, e[3];
    sc_vec3 along = sc_unit_d(dv, ray->dir);
    sc_sphere_q_ray(ray->origin, ray->dir, ray->tmax, sp, &q);
    if (!(sp->radius > 0.0f) || !sc_sphere_solve(&q, &L)) return sc_pz3(along);
    for (int i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        double f = (dv[j] * q.w[k] - dv[k] * q.w[j]) / q.dd;
        e[i] = f + (L.h / q.dd) * dv[i];
    }
    return sc_pz3(sc_unit_d(e, along));
}

sc_vec3 sc__exit_normal(const sc_ray *ray, const sc_shape *shape)
{
    switch (shape->type) {
    case SC_SHAPE_AABB: return sc_exit_normal_aabb(ray, &shape->u.aabb);
    case SC_SHAPE_OBB: return sc_exit_normal_obb(ray, &shape->u.obb);
    case SC_SHAPE_SPHERE: return sc_exit_normal_sphere(ray, &shape->u.sphere);
    default: return (sc_vec3){0, 0, 0};
    }
}

/* ------------------------------------------------------------------ exact overlaps
 * Closed shapes: touching counts. Exact for any float inputs. */

/* The sphere and the box share a point: the box's point nearest the centre (each coordinate
 * clamped: a float, exactly) is within the radius (sc_dist2_minus_r2: exactly summed). */
int sc__overlap_sphere_aabb(const sc_sphere *s, const sc_aabb *b)
{
    sc_vec3 q;
    for (int i = 0; i < 3; ++i) {
        float c = sc_get(s->center, i), lo = sc_get(b->min, i), hi = sc_get(b->max, i);
        sc_set(&q, i, c < lo ? lo : (c > hi ? hi : c));
    }
    return sc_dist2_minus_r2(q, s->center, s->radius) <= 0.0;
}

/* |c1 - c2|^2 <= (r1 + r2)^2, exactly: each c1_i - c2_i = h + l (two_sum), h^2, 2hl, l^2 split
 * by two_prod, and r1^2, 2 r1 r2, r2^2 (products of floats, exact in double). */
int sc__overlap_sphere_sphere(const sc_sphere *a, const sc_sphere *b)
{
    double t[SC_XSUM_MAX];
    int n = 0;
    for (int i = 0; i < 3; ++i) {
        double h, l;
        sc_two_sum(sc_get(a->center, i), -(double)sc_get(b->center, i), &h, &l);
        sc_two_prod(h, h, &t[n], &t[n + 1]);
        sc_two_prod(2.0 * h, l, &t[n + 2], &t[n + 3]);
        sc_two_prod(l, l, &t[n + 4], &t[n + 5]);
        n += 6;
    }
    double r1 = a->radius, r2 = b->radius;
    t[n++] = -(r1 * r1);
    t[n++] = -(2.0 * r1 * r2);
    t[n++] = -(r2 * r2);
    return sc_xsum(t, n) <= 0.0;
}

/* ------------------------------------------------------------------ exact polytope overlap
 * Two convex polytopes given as half-spaces n.x <= b (float normals, b an exact sum of up to four
 * doubles) are disjoint exactly when their combined system is infeasible. By Farkas and Helly it
 * then has a minimal infeasible subsystem of 2, 3 or 4 half-spaces whose normals have a
 * one-dimensional null space: a multiplier vector lam, all of one sign s, with sum lam_i n_i = 0
 * and s (sum lam_i b_i) < 0. lam comes from cofactors (4 half-spaces, rank 3), from cross products
 * (3 coplanar normals) or from the components (2 opposite normals); every quantity is an exact sum
 * of exact products, and only its sign is used (sc_exp_sign), so the answer is exact for any
 * float inputs. Used only when the double-precision test cannot tell (sc_overlap.c). */

#define SC_EXP_MAX 512

/* The sign of the exact sum of n doubles (n <= SC_EXP_MAX): the expansion's last component is the
 * largest, and its sign is the sum's. */
static int sc_exp_sign(const double *t, int n)
{
    double e[SC_EXP_MAX];
    int m = sc_expansion(t, n, e);
    return m == 0 ? 0 : (e[m - 1] > 0.0 ? 1 : -1);
}

/* The 12 exact terms of sg * det(a, b, c) for float rows: each a_i b_j c_k as two_prod(a_i b_j, c_k). */
static int sc_det3_terms(const float *a, const float *b, const float *c, double sg, double *t)
{
    static const int P[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    static const double S[6] = {1, -1, -1, 1, 1, -1};
    for (int q = 0; q < 6; ++q) {
        double p = (double)a[P[q][0]] * b[P[q][1]];
        sc_two_prod(S[q] * sg * p, c[P[q][2]], &t[2 * q], &t[2 * q + 1]);
    }
    return 12;
}

/* With multipliers lam[i] (exact sums of nl[i] doubles) for half-spaces idx[0..k): whether they
 * certify infeasibility: all nonzero and of one sign s, and s (sum lam_i b_i) < 0. */
static int sc_x_certify(const sc_xhs *h, const int *idx, int k, double lam[][12], const int *nl)
{
    int s = 0;
    for (int i = 0; i < k; ++i) {
        int si = sc_exp_sign(lam[i], nl[i]);
        if (si == 0 || (s != 0 && si != s)) return 0;
        s = si;
    }
    double t[4 * 12 * 4 * 2];
    int n = 0;
    for (int i = 0; i < k; ++i)
        for (int a = 0; a < nl[i]; ++a)
            for (int b = 0; b < h[idx[i]].nb; ++b, n += 2) sc_two_prod(lam[i][a], h[idx[i]].b[b], &t[n], &t[n + 1]);
    return s * sc_exp_sign(t, n) < 0;
}

/* Two opposite normals (n_j = -mu n_i, mu > 0): lam = (|n_j[c]|, |n_i[c]|). */
static int sc_x_pair(const sc_xhs *h, int i, int j)
{
    const float *a = h[i].n, *b = h[j].n;
    for (int u = 0; u < 3; ++u) {
        int v = (u + 1) % 3;
        if ((double)a[u] * b[v] != (double)a[v] * b[u]) return 0; /* not parallel */
    }
    double d[3] = {(double)a[0] * b[0], (double)a[1] * b[1], (double)a[2] * b[2]};
    if (sc_exp_sign(d, 3) >= 0) return 0;
    int c = a[0] != 0.0f ? 0 : (a[1] != 0.0f ? 1 : 2);
    double lam[2][12] = {{fabs((double)b[c])}, {fabs((double)a[c])}};
    int nl[2] = {1, 1}, idx[2] = {i, j};
    return sc_x_certify(h, idx, 2, lam, nl);
}

/* Three coplanar normals (det 0) of rank 2: lam = the c components of (n_j x n_k, n_k x n_i,
 * n_i x n_j), by (e_c . (b x c)) a + (e_c . (c x a)) b + (e_c . (a x b)) c = det(a, b, c) e_c = 0. */
static int sc_x_triple(const sc_xhs *h, int i, int j, int k)
{
    double t[12];
    if (sc_exp_sign(t, sc_det3_terms(h[i].n, h[j].n, h[k].n, 1.0, t)) != 0) return 0;
    int idx[3] = {i, j, k};
    for (int c = 0; c < 3; ++c) {
        int c1 = (c + 1) % 3, c2 = (c + 2) % 3;
        double lam[3][12];
        int nl[3] = {2, 2, 2}, zero = 1;
        for (int r = 0; r < 3; ++r) {
            const float *p = h[idx[(r + 1) % 3]].n, *q = h[idx[(r + 2) % 3]].n;
            lam[r][0] = (double)p[c1] * q[c2];
            lam[r][1] = -((double)p[c2] * q[c1]);
            if (lam[r][0] + lam[r][1] != 0.0 || lam[r][0] != -lam[r][1]) zero = 0;
        }
        if (!zero) return sc_x_certify(h, idx, 3, lam, nl);
    }
    return 0;
}

/* Four normals of rank 3: lam_r = (-1)^r det(the other three). */
static int sc_x_quad(const sc_xhs *h, int i, int j, int k, int l)
{
    int idx[4] = {i, j, k, l}, nl[4];
    double lam[4][12];
    for (int r = 0; r < 4; ++r) {
        int o[3], m = 0;
        for (int s = 0; s < 4; ++s)
            if (s != r) o[m++] = idx[s];
        nl[r] = sc_det3_terms(h[o[0]].n, h[o[1]].n, h[o[2]].n, (r & 1) ? -1.0 : 1.0, lam[r]);
    }
    return sc_x_certify(h, idx, 4, lam, nl);
}

int sc__halfspaces_empty_exact(const sc_xhs *h, int m)
{
    for (int i = 0; i < m; ++i)
        for (int j = i + 1; j < m; ++j) {
            if (sc_x_pair(h, i, j)) return 1;
            for (int k = j + 1; k < m; ++k) {
                if (sc_x_triple(h, i, j, k)) return 1;
                for (int l = k + 1; l < m; ++l)
                    if (sc_x_quad(h, i, j, k, l)) return 1;
            }
        }
    return 0;
}

int sc__det3_sign_exact(const float *a, const float *b, const float *c)
{
    double t[12];
    return sc_exp_sign(t, sc_det3_terms(a, b, c, 1.0, t));
}
