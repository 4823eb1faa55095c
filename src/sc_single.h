/* Internal helpers of the single queries (sc_validate.c, sc_aabb.c, sc_sphere.c, sc_obb.c,
 * sc_plane.c, slabcast.c): float vector helpers, results, and each shape file's entry points.
 * Not part of the public API. The exact arithmetic they use is in sc_exact.h. */
#ifndef SC_SINGLE_H
#define SC_SINGLE_H

#include "slabcast.h"
#include "sc_internal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static inline int sc_finite3(sc_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }
static inline int sc_zero3(sc_vec3 v) { return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f; }
static inline float sc_absf(float a) { return a < 0.0f ? -a : (a == 0.0f ? 0.0f : a); }
static inline float sc_maxf(float a, float b) { return a > b ? a : b; }
static inline float sc_minf(float a, float b) { return a < b ? a : b; }
static inline float sc_max3abs(sc_vec3 v) { return sc_maxf(sc_absf(v.x), sc_maxf(sc_absf(v.y), sc_absf(v.z))); }
static inline float sc_dot(sc_vec3 a, sc_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
/* sc_obb_check's orthonormality test: |axes[i] . axes[j] - (i == j)| <= 1e-4 for every pair, in
 * float (a NaN fails). */
static inline int sc_obb_axes_ok(const sc_vec3 axes[3])
{
    for (int i = 0; i < 3; ++i) {
        for (int j = i; j < 3; ++j) {
            float want = (i == j) ? 1.0f : 0.0f;
            if (!(sc_absf(sc_dot(axes[i], axes[j]) - want) <= 1e-4f)) return 0;
        }
    }
    return 1;
}
static inline sc_vec3 sc_sub(sc_vec3 a, sc_vec3 b) { return (sc_vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline sc_vec3 sc_scale(sc_vec3 a, float s) { return (sc_vec3){a.x * s, a.y * s, a.z * s}; }
static inline float sc_get(sc_vec3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }
static inline void sc_set(sc_vec3 *v, int i, float f)
{
    if (i == 0) v->x = f; else if (i == 1) v->y = f; else v->z = f;
}
/* A result parameter kept in the float range: the exact value of t_enter, t_exit can lie past
 * FLT_MAX (a tiny dir, tmax = inf); such a value is reported as +-FLT_MAX, never as an
 * infinity (t must be finite). Applied after the classification, which uses the rounded values. */
static inline float sc_fin(float a) { return a > FLT_MAX ? FLT_MAX : (a < -FLT_MAX ? -FLT_MAX : a); }
/* -0 -> +0, so that results never carry a negative zero. */
static inline float sc_pz(float a) { return a + 0.0f; }
static inline sc_vec3 sc_pz3(sc_vec3 v) { return (sc_vec3){sc_pz(v.x), sc_pz(v.y), sc_pz(v.z)}; }

/* The power of two 2^-e that brings m (> 0, finite) into [0.5, 1); 1 for m == 0. For m below
 * 2^-126 (subnormal) the factor stops at 2^126, which brings m to at least 2^-23: 2^-e itself
 * would be up to 2^149, past the float range (an infinite factor turns zeros into NaN). */
static inline int sc_pow2_exp(float m)
{
    int e = 0;
    if (!(m > 0.0f) || !isfinite(m)) return 0;
    (void)frexpf(m, &e);
    if (e < -126) e = -126;
    return -e;
}
/* 2^sc_pow2_exp(m), read from m's exponent bits when m is a normal float below 2^125 (frexp's
 * exponent is E - 126 for the biased exponent E: the factor 2^(126 - E) a normal float), else
 * through frexpf and ldexpf: the same float either way. */
static inline float sc_pow2_norm(float m)
{
    uint32_t b;
    memcpy(&b, &m, sizeof b);
    uint32_t E = (b >> 23) & 0xff;
    if (!(m > 0.0f) || E == 0 || E > 252) return ldexpf(1.0f, sc_pow2_exp(m));
    uint32_t kb = (253 - E) << 23;
    float k;
    memcpy(&k, &kb, sizeof k);
    return k;
}

/* Positions at or above this magnitude could overflow in a difference: they are scaled first. */
#define SC_HUGE 8.5070592e37f /* 2^126 */
#define SC_HUGE_SCALE 0.0625f /* 2^-4 */

static inline sc_raycast_result sc_miss(void)
{
    sc_raycast_result r = {0};
    r.status = SC_OK;
    r.hit = 0;
    return r;
}

static inline sc_raycast_result sc_fail(sc_status s)
{
    sc_raycast_result r = {0};
    r.status = (int)s;
    return r;
}

/* A double value reported as a float: rounded, and kept within +-FLT_MAX. */
static inline float sc_dfin(double a)
{
    if (a > FLT_MAX) return FLT_MAX;
    if (a < -FLT_MAX) return -FLT_MAX;
    return (float)a;
}
static inline sc_vec3 sc_dfin3(const double *v) { return (sc_vec3){sc_dfin(v[0]), sc_dfin(v[1]), sc_dfin(v[2])}; }

static inline sc_vec3 sc_normalize_or(sc_vec3 v, sc_vec3 fallback)
{
    float k = sc_pow2_norm(sc_max3abs(v));
    sc_vec3 w = sc_scale(v, k);
    float len = sqrtf(sc_dot(w, w));
    if (!(len > 0.0f) || !isfinite(len)) return fallback;
    return sc_scale(w, 1.0f / len);
}

/* A double vector scaled to unit length (NaN-free for any non-zero finite input: the scale
 * by a power of two keeps the squares in range); fallback for the zero vector. */
static inline sc_vec3 sc_unit_d(const double *v, sc_vec3 fallback)
{
    double m = fabs(v[0]);
    if (fabs(v[1]) > m) m = fabs(v[1]);
    if (fabs(v[2]) > m) m = fabs(v[2]);
    if (!(m > 0.0) || !isfinite(m)) return fallback;
    /* x 2^-e, e = frexp's exponent of m: for m normal and below 2^1022 (biased exponent E in
     * [1, 2044]), e = E - 1022 and 2^-e is a normal double, so the product is the exactly scaled
     * value rounded once (only into the subnormal range), which is ldexp's result; else ldexp. */
    uint64_t mb;
    memcpy(&mb, &m, sizeof mb);
    uint64_t E = mb >> 52;
    double x, y, z;
    if (E >= 1 && E <= 2044) {
        uint64_t kb = (2045 - E) << 52;
        double k;
        memcpy(&k, &kb, sizeof k);
        x = v[0] * k, y = v[1] * k, z = v[2] * k;
    } else {
        int e = 0;
        (void)frexp(m, &e);
        x = ldexp(v[0], -e), y = ldexp(v[1], -e), z = ldexp(v[2], -e);
    }
    double len = sqrt(x * x + y * y + z * z);
    return (sc_vec3){(float)(x / len), (float)(y / len), (float)(z / len)};
}

static inline int sc_sgn(double x) { return x > 0.0 ? 1 : (x < 0.0 ? -1 : 0); }

/* sc_aabb.c: the segment a + t (b - a), 0 <= t <= 1, against the closed box (a != b); the outward
 * normal where a ray from inside leaves the box (see slabcast.c, exit normals). */
int sc__linetest_aabb(sc_vec3 a, sc_vec3 b, const sc_aabb *box);
sc_vec3 sc__exit_normal_aabb(const sc_ray *ray, const sc_aabb *box);
/* sc_sphere.c: the same for the closed ball, and whether it contains p. */
int sc__linetest_sphere(sc_vec3 a, sc_vec3 b, const sc_sphere *sp);
sc_vec3 sc__exit_normal_sphere(const sc_ray *ray, const sc_sphere *sp);
int sc__contains_sphere(sc_vec3 p, const sc_sphere *sp);
/* sc_obb.c: the same for the OBB (its slabs). */
int sc__linetest_obb(sc_vec3 a, sc_vec3 b, const sc_obb *box);
sc_vec3 sc__exit_normal_obb(const sc_ray *ray, const sc_obb *box);
int sc__contains_obb(sc_vec3 p, const sc_obb *box);
/* sc_capsule.c: a decision in exact arithmetic only, without the double-precision filter (for
 * tests of the filter). kind 0: segments_within(v[0..2], v[3..5], v[6..8], v[9..11], v[12], v[13]);
 * 1: the ray (origin v[0..2], dir v[3..5], tmax v[12]) hits the capsule (v[6..8], v[9..11], v[13]);
 * 2: the sign of dist(v[0..2], segment v[6..8]-v[9..11])^2 - v[12]^2. */
int sc__capsule_decide_exact(int kind, const float *v);
/* sc_plane.c: ray and segment (two-sided) against the plane; n.x - d, exactly summed. */
sc_raycast_result sc__raycast_plane_valid(const sc_ray *ray, const sc_plane *plane);
int sc__linetest_plane(sc_vec3 a, sc_vec3 b, const sc_plane *plane);
double sc__plane_side(const sc_plane *p, sc_vec3 x);

#endif
