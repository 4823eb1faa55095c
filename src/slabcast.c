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
static sc_vec3 sc_add(sc_vec3 a, sc_vec3 b) { return (sc_vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
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
        float t1 = (loi - oi) / di;
        float t2 = (hii - oi) / di;
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
    if (!sc_slab_core(o, d, lo, hi, t_enter, t_exit, axis)) return 0;
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
        if (!sc_slab_core(o, ds, lo, hi, &tn, &tf, axis)) return 0;
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

/* Ray vs AABB, inputs valid. The world kernels reproduce this bit for bit. */
sc_raycast_result sc__raycast_aabb_valid(const sc_ray *ray, const sc_aabb *box)
{
    sc_vec3 pos[3] = {ray->origin, box->min, box->max};
    float s = sc_position_scale(pos, 3);
    float tn, tf;
    int axis;
    if (!sc_slab_interval(sc_scale(ray->origin, s), ray->dir, sc_scale(box->min, s), sc_scale(box->max, s),
                          &tn, &tf, &axis))
        return sc_miss();
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
    r.point = sc_add(ray->origin, sc_scale(ray->dir, r.t));
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

/* The OBB frame: o and d expressed along the box axes, positions relative to the centre. */
static void sc_obb_local(const sc_obb *box, sc_vec3 p, float s, sc_vec3 *local)
{
    sc_vec3 m = sc_sub(sc_scale(p, s), sc_scale(box->center, s));
    *local = (sc_vec3){sc_dot(m, box->axes[0]), sc_dot(m, box->axes[1]), sc_dot(m, box->axes[2])};
}

static sc_vec3 sc_obb_local_dir(const sc_obb *box, sc_vec3 d)
{
    return (sc_vec3){sc_dot(d, box->axes[0]), sc_dot(d, box->axes[1]), sc_dot(d, box->axes[2])};
}

static sc_vec3 sc_normalize_or(sc_vec3 v, sc_vec3 fallback)
{
    float k = sc_pow2_norm(sc_max3abs(v));
    sc_vec3 w = sc_scale(v, k);
    float len = sqrtf(sc_dot(w, w));
    if (!(len > 0.0f) || !isfinite(len)) return fallback;
    return sc_scale(w, 1.0f / len);
}

sc_raycast_result sc__raycast_obb_valid(const sc_ray *ray, const sc_obb *box)
{
    sc_vec3 pos[3] = {ray->origin, box->center, box->half};
    float s = sc_position_scale(pos, 3);
    sc_vec3 o, d = sc_obb_local_dir(box, ray->dir);
    sc_vec3 h = sc_scale(box->half, s);
    sc_obb_local(box, ray->origin, s, &o);
    float tn, tf;
    int axis;
    if (!sc_slab_interval(o, d, sc_scale(h, -1.0f), h, &tn, &tf, &axis)) return sc_miss();
    if (s != 1.0f) { tn /= s; tf /= s; }
    if (!(tf >= 0.0f && tn <= ray->tmax)) return sc_miss();
    tn = sc_fin(tn);
    tf = sc_fin(tf);

    sc_raycast_result r = sc_miss();
    r.hit = 1;
    r.t_enter = sc_pz(tn);
    r.t_exit = sc_pz(tf);
    r.t = tn > 0.0f ? tn : 0.0f;
    r.point = sc_pz3(sc_fin3(sc_add(ray->origin, sc_scale(ray->dir, r.t))));
    if (tn >= 0.0f && axis >= 0) {
        sc_vec3 a = sc_normalize_or(box->axes[axis], box->axes[axis]);
        r.normal = sc_pz3(sc_scale(a, sc_get(d, axis) > 0.0f ? -1.0f : 1.0f));
    }
    return r;
}

/* ----------------------------------------------------------------- sphere */

/* The line o + t*d against the closed ball, in a normalized frame.
 * Fills the classification of I = [t_enter, t_exit] against [0, tmax] (returns 1 on a hit)
 * and the interval. Exact for small dyadic inputs with an axis-parallel direction:
 * with a unit direction u (exact there), b = m.u, f = m - b*u, h2 = r^2 - f.f are exact,
 * and the boundary tests compare squares instead of rounded square roots. */
typedef struct sc_sphere_line {
    float t_enter, t_exit; /* in units of d */
    int origin_inside;     /* |o - c| < r strictly */
    sc_vec3 unit_dir;
    sc_vec3 m_enter;       /* (point at t_enter) - c, scaled; direction of the normal */
} sc_sphere_line;

static int sc_sphere_line_test(sc_vec3 o, sc_vec3 d, float tmax, const sc_sphere *sp, sc_sphere_line *out)
{
    sc_vec3 pos[2] = {o, sp->center};
    float s0 = sc_position_scale(pos, 2);
    sc_vec3 m = sc_sub(sc_scale(o, s0), sc_scale(sp->center, s0));
    float r = sp->radius * s0;
    /* Unit direction u = d/|d|, computed from a power-of-two normalized copy of d. */
    int ed = sc_pow2_exp(sc_max3abs(d));
    sc_vec3 ds = sc_scale(d, ldexpf(1.0f, ed));
    float lens = sqrtf(sc_dot(ds, ds));
    sc_vec3 u = {ds.x / lens, ds.y / lens, ds.z / lens}; /* exact for axis directions */
    /* h2 = r^2 - f.f with f = m - (m.u)u, the perpendicular offset of the centre. f is taken
     * before m is normalized (a tiny component of m next to a huge one would be flushed to 0
     * there), and h2 is computed as (r*kf)^2 - (f*kf).(f*kf) = h2 * 2^(2 ek), with the power of
     * two kf = 2^ek that brings max(|f|, r) to unit magnitude (a tiny ball far from the origin
     * would have both squares underflow to 0: a tangent line where the line misses). In the
     * normal range these are the same bits as the plain formula in the normalized frame. */
    sc_vec3 f = sc_sub(m, sc_scale(u, sc_dot(m, u)));
    /* (m and r are brought to unit magnitude below, by 2^em) */
    int em = sc_pow2_exp(sc_maxf(sc_max3abs(m), r));
    float fr = sc_maxf(sc_max3abs(f), r);
    /* f = 0 and r = 0: h2 = 0 in any frame; take m's, where w below is not tiny (its square
     * must not underflow to 0 <= h2: a hit past tmax) */
    int ek = fr > 0.0f ? sc_pow2_exp(fr) : em;
    float kf = ldexpf(1.0f, ek);
    sc_vec3 fk = sc_scale(f, kf);
    float rk = r * kf;
    float h2 = rk * rk - sc_dot(fk, fk);
    /* Bring m and r to unit magnitude (a power of two: exact). */
    float sm = ldexpf(1.0f, em);
    m = sc_scale(m, sm);
    r *= sm;
    /* One unit of t is lens * 2^E in the normalized frame (|d| = lens * 2^-ed). The power of
     * two is applied by itself, with ldexpf: a product such as s0 * sm * |d| could overflow or
     * underflow (a tiny d and a huge sphere give 0, and then 0 / 0). */
    int E = (s0 == 1.0f ? 0 : -4) + em - ed;

    float r2 = r * r;
    float mm = sc_dot(m, m);
    float b = sc_dot(m, u);
    /* The origin in the closed ball: t = 0 is in I and in [0, tmax], a hit whatever rounding
     * says about the interval. From outside the ball a hit needs the line to meet it
     * (h2 >= 0), to head towards it (b < 0: otherwise |m + t*d| grows for t >= 0), and to
     * enter by tmax: -b - h <= U  <=>  h >= -(U + b), compared as squares (in h2's frame). */
    if (!(mm <= r2)) {
        if (h2 < 0.0f || !(b < 0.0f)) return 0;
        float U = ldexpf(tmax, E) * lens; /* tmax*|d| in the scaled frame */
        float w = U + b;
        float wk = ldexpf(w, ek - em);
        if (!((w >= 0.0f) || (wk * wk <= h2))) return 0;
    }
    if (h2 < 0.0f) h2 = 0.0f; /* inside, and rounding put the line just off the ball */

    float h = ldexpf(sqrtf(h2), em - ek); /* back to the normalized frame */
    float ue = -b - h, ux = -b + h;
    out->t_enter = ldexpf(ue / lens, -E); /* past the float range: +-inf, clamped by the caller */
    out->t_exit = ldexpf(ux / lens, -E);
    out->origin_inside = mm < r2;
    /* Strictly inside (exact test) means t_enter < 0; keep rounding from saying otherwise. */
    if (out->origin_inside && out->t_enter >= 0.0f) out->t_enter = -0.0f;
    if (mm == r2) {
        /* Origin on the sphere: one end of I is exactly 0, the entry when heading in. */
        if (b <= 0.0f) out->t_enter = 0.0f;
        else out->t_exit = 0.0f;
    }
    if (out->t_exit < 0.0f) out->t_exit = 0.0f; /* the hit test above says exit >= 0 */
    out->unit_dir = u;
    out->m_enter = sc_add(m, sc_scale(u, ue));
    return 1;
}

sc_raycast_result sc__raycast_sphere_valid(const sc_ray *ray, const sc_sphere *sp)
{
    sc_sphere_line L;
    if (!sc_sphere_line_test(ray->origin, ray->dir, ray->tmax, sp, &L)) return sc_miss();
    L.t_enter = sc_fin(L.t_enter);
    L.t_exit = sc_fin(L.t_exit);
    sc_raycast_result r = sc_miss();
    r.hit = 1;
    r.t_enter = sc_pz(L.t_enter);
    r.t_exit = sc_pz(L.t_exit);
    r.t = L.t_enter > 0.0f ? L.t_enter : 0.0f;
    if (r.t > ray->tmax) r.t = ray->tmax; /* classification was exact; keep t within [0, tmax] */
    r.point = sc_pz3(sc_fin3(sc_add(ray->origin, sc_scale(ray->dir, r.t))));
    if (!L.origin_inside && L.t_enter >= 0.0f) {
        sc_vec3 back = sc_scale(L.unit_dir, -1.0f); /* a point sphere: face the ray */
        r.normal = sc_pz3(sc_normalize_or(L.m_enter, back));
    }
    return r;
}

/* ------------------------------------------------------------------ plane */

/* The plane with its normal and d scaled by the power of two that brings max|n_i| into
 * [1/32, 1/16): the same plane, exactly (for inputs that are not subnormal). Then n.x cannot
 * overflow for any finite x (|n.x| <= 3/16 FLT_MAX), so neither can d - n.x for a plane that
 * meets the float range (|d| <= 3/16 FLT_MAX there); d itself becomes infinite only for a plane
 * wholly past the float range, and then every such difference is an infinity of the right sign,
 * never inf - inf. */
static sc_plane sc_plane_normalized(const sc_plane *p)
{
    float k = sc_pow2_norm(sc_max3abs(p->normal)) * 0.0625f;
    sc_plane q = {sc_scale(p->normal, k), p->d * k};
    return q;
}

static sc_raycast_result sc_raycast_plane_valid(const sc_ray *ray, const sc_plane *plane)
{
    sc_plane p = sc_plane_normalized(plane);
    float denom = sc_dot(p.normal, ray->dir);
    float num = p.d - sc_dot(p.normal, ray->origin);
    float t;
    if (denom == 0.0f) {
        /* Parallel: the whole line is in the plane, or none of it. */
        if (num != 0.0f) return sc_miss();
        t = 0.0f;
    } else {
        /* t0 = num/denom in [0, tmax], decided by signs and one product (no rounded quotient). */
        int ge0 = (num == 0.0f) || ((num > 0.0f) == (denom > 0.0f));
        float lim = ray->tmax * denom;
        int le_tmax = denom > 0.0f ? (num <= lim) : (num >= lim);
        if (!(ge0 && le_tmax)) return sc_miss();
        t = sc_fin(num / denom);
        if (!(t >= 0.0f)) t = 0.0f;
        if (t > ray->tmax) t = ray->tmax;
    }
    sc_raycast_result r = sc_miss();
    r.hit = 1;
    r.t = r.t_enter = r.t_exit = sc_pz(t);
    r.point = sc_pz3(sc_fin3(sc_add(ray->origin, sc_scale(ray->dir, r.t))));
    sc_vec3 n = sc_normalize_or(p.normal, p.normal);
    if (denom > 0.0f) n = sc_scale(n, -1.0f); /* face the ray: n.dir <= 0 */
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
        const sc_obb *b = &shape->u.obb;
        sc_vec3 pos[3] = {p, b->center, b->half};
        float s = sc_position_scale(pos, 3);
        sc_vec3 q;
        sc_obb_local(b, p, s, &q);
        sc_vec3 h = sc_scale(b->half, s);
        return sc_absf(q.x) <= h.x && sc_absf(q.y) <= h.y && sc_absf(q.z) <= h.z;
    }
    default: { /* sphere */
        const sc_sphere *sp = &shape->u.sphere;
        sc_vec3 pos[2] = {p, sp->center};
        float s = sc_position_scale(pos, 2);
        sc_vec3 m = sc_sub(sc_scale(p, s), sc_scale(sp->center, s));
        float r = sp->radius * s;
        float k = sc_pow2_norm(sc_maxf(sc_max3abs(m), r));
        m = sc_scale(m, k);
        r *= k;
        return sc_dot(m, m) <= r * r;
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
        sc_vec3 pos[3] = {p, b->center, b->half};
        float sc = sc_position_scale(pos, 3);
        sc_vec3 q;
        sc_obb_local(b, p, sc, &q);
        sc_vec3 h = sc_scale(b->half, sc);
        sc_vec3 c = sc_scale(b->center, sc);
        c = sc_add(c, sc_scale(b->axes[0], sc_clampf(q.x, -h.x, h.x)));
        c = sc_add(c, sc_scale(b->axes[1], sc_clampf(q.y, -h.y, h.y)));
        c = sc_add(c, sc_scale(b->axes[2], sc_clampf(q.z, -h.z, h.z)));
        r.point = sc_scale(c, 1.0f / sc);
        break;
    }
    case SC_SHAPE_SPHERE: {
        const sc_sphere *sp = &shape->u.sphere;
        sc_vec3 pos[2] = {p, sp->center};
        float sc = sc_position_scale(pos, 2);
        sc_vec3 m = sc_sub(sc_scale(p, sc), sc_scale(sp->center, sc));
        float k = sc_pow2_norm(sc_max3abs(m));
        sc_vec3 dir = sc_normalize_or(sc_scale(m, k), (sc_vec3){0, 0, 0});
        r.point = sc_add(sp->center, sc_scale(dir, sp->radius));
        break;
    }
    default: {
        sc_plane pl = sc_plane_normalized(&shape->u.plane);
        float dist = (sc_dot(pl.normal, p) - pl.d) / sc_dot(pl.normal, pl.normal);
        /* A plane far past the float range (d / |normal| > FLT_MAX: pl.d and dist are infinite)
         * moves only the coordinates along which the normal has a component; 0 * inf would
         * make the others NaN. */
        float step[3] = {pl.normal.x * dist, pl.normal.y * dist, pl.normal.z * dist};
        for (int i = 0; i < 3; ++i)
            if (sc_get(pl.normal, i) == 0.0f) step[i] = 0.0f;
        r.point = (sc_vec3){p.x - step[0], p.y - step[1], p.z - step[2]};
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
        sc_plane p = sc_plane_normalized(&shape->u.plane);
        float sa = sc_dot(p.normal, a) - p.d;
        float sb = sc_dot(p.normal, b) - p.d;
        r.value = (sa <= 0.0f && sb >= 0.0f) || (sa >= 0.0f && sb <= 0.0f);
        return r;
    }
    if (a.x == b.x && a.y == b.y && a.z == b.z) {
        /* A zero-length segment is a point test. */
        r.value = sc_contains_valid(a, shape);
        return r;
    }
    /* The segment as the ray a + t*(b - a), 0 <= t <= 1. If b - a could overflow, scale the
     * whole scene by 2^-4 (exact): the answer does not change. */
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
