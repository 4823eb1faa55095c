/* fuzz_geometry.h: the geometry of single-query answers, for fuzz_queries.c (its only includer):
 * closest points and hit normals checked against the shape itself (docs/semantics.md),
 * computed here independently in double. The tolerance is derived from the float32 rounding
 * of the answer: a few ulps of the largest magnitude involved (S), tol = 2^-20 S, plus a
 * tiny absolute term for answers near 0 (subnormal inputs). Answers with a saturated
 * coordinate (+-FLT_MAX: the exact value lies beyond the float range) are not checked. */
#ifndef SLABCAST_FUZZ_GEOMETRY_H
#define SLABCAST_FUZZ_GEOMETRY_H

#include "fuzz_common.h"

#include <float.h>

static double dmax3(sc_vec3 v) { return fmax(fabs(v.x), fmax(fabs(v.y), fabs(v.z))); }
static double ddot3(sc_vec3 a, sc_vec3 b) { return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z; }
static double dlen3(double x, double y, double z) { return sqrt(x * x + y * y + z * z); }
static int saturated(sc_vec3 v) { return dmax3(v) >= FLT_MAX; }

static double shape_mag(const sc_shape *sh)
{
    switch (sh->type) {
    case SC_SHAPE_AABB: return fmax(dmax3(sh->u.aabb.min), dmax3(sh->u.aabb.max));
    case SC_SHAPE_OBB: return dmax3(sh->u.obb.center) + 2.0 * (sh->u.obb.half.x + sh->u.obb.half.y + sh->u.obb.half.z);
    case SC_SHAPE_SPHERE: return dmax3(sh->u.sphere.center) + sh->u.sphere.radius;
    default: return fabs(sh->u.plane.d) / dlen3(sh->u.plane.normal.x, sh->u.plane.normal.y, sh->u.plane.normal.z);
    }
}

static double tol_of(double S) { return ldexp(S, -20) + 1e-40; }

/* (q - c).a_i for an OBB, in double */
static double obb_coord(const sc_obb *b, sc_vec3 q, int i)
{
    return ((double)q.x - b->center.x) * b->axes[i].x + ((double)q.y - b->center.y) * b->axes[i].y +
           ((double)q.z - b->center.z) * b->axes[i].z;
}

/* How far the coordinate along a_i of a point c + sum_k l_k a_k (|l_k| <= h_k) can be from l_i:
 * the axes are orthonormal only within 1e-4, so it carries l_i (a_i.a_i - 1) + sum_{k != i}
 * l_k (a_k.a_i). */
static double obb_skew(const sc_obb *b, int i)
{
    double h[3] = {b->half.x, b->half.y, b->half.z}, skew = 0.0;
    for (int k = 0; k < 3; ++k) {
        double dot = (double)b->axes[k].x * b->axes[i].x + (double)b->axes[k].y * b->axes[i].y +
                     (double)b->axes[k].z * b->axes[i].z;
        skew += fabs(k == i ? dot - 1.0 : dot) * h[k];
    }
    return skew;
}

static void check_closest_geometry(const sc_vec3 p, const sc_shape *sh, sc_vec3 q, int inside)
{
    if (saturated(q) || inside) return;
    double S = fmax(shape_mag(sh), fmax(dmax3(p), dmax3(q)));
    if (!(S < 1e30)) return;
    double tol = tol_of(S);
    switch (sh->type) {
    case SC_SHAPE_AABB: {
        const sc_aabb *b = &sh->u.aabb;
        /* the clamp, exactly */
        FUZZ_CHECK(q.x == fminf(fmaxf(p.x, b->min.x), b->max.x) && q.y == fminf(fmaxf(p.y, b->min.y), b->max.y) &&
                   q.z == fminf(fmaxf(p.z, b->min.z), b->max.z));
        break;
    }
    case SC_SHAPE_OBB: {
        /* Optimality per axis: the coordinate of q is p's when that is within the slab,
         * the nearer face otherwise; and q is no farther than any vertex or the centre. */
        const sc_obb *b = &sh->u.obb;
        double h[3] = {b->half.x, b->half.y, b->half.z};
        for (int i = 0; i < 3; ++i) {
            double pi = obb_coord(b, p, i), qi = obb_coord(b, q, i);
            double want = pi < -h[i] ? -h[i] : (pi > h[i] ? h[i] : pi);
            /* The axes are orthonormal only within 1e-4: q = c + sum_k clamp_k a_k has the
             * coordinate clamp_i (a_i.a_i) + sum_{k != i} clamp_k (a_k.a_i) along a_i, off from
             * clamp_i by at most the skew below. */
            FUZZ_CHECK(fabs(qi - want) <= tol + obb_skew(b, i));
        }
        double dq = dlen3((double)p.x - q.x, (double)p.y - q.y, (double)p.z - q.z);
        for (int v = 0; v < 9; ++v) {
            double x = b->center.x, y = b->center.y, z = b->center.z;
            for (int i = 0; i < 3 && v < 8; ++i) {
                double sg = (v >> i) & 1 ? h[i] : -h[i];
                x += sg * b->axes[i].x;
                y += sg * b->axes[i].y;
                z += sg * b->axes[i].z;
            }
            FUZZ_CHECK(dq <= dlen3(p.x - x, p.y - y, p.z - z) + 4.0 * tol);
        }
        break;
    }
    case SC_SHAPE_SPHERE: {
        /* On the sphere, on the ray from the centre through p. */
        const sc_sphere *s = &sh->u.sphere;
        double m[3] = {(double)p.x - s->center.x, (double)p.y - s->center.y, (double)p.z - s->center.z};
        double e[3] = {(double)q.x - s->center.x, (double)q.y - s->center.y, (double)q.z - s->center.z};
        double lm = dlen3(m[0], m[1], m[2]), le = dlen3(e[0], e[1], e[2]);
        FUZZ_CHECK(fabs(le - s->radius) <= tol);
        if (s->radius > 1024.0 * tol && lm > 0.0) {
            for (int i = 0; i < 3; ++i) FUZZ_CHECK(fabs(e[i] / le - m[i] / lm) <= 1e-4);
        }
        break;
    }
    default: {
        /* On the plane, and p - q along the normal. */
        const sc_plane *pl = &sh->u.plane;
        sc_vec3 n = pl->normal;
        double ln = dlen3(n.x, n.y, n.z);
        double u[3] = {n.x / ln, n.y / ln, n.z / ln};
        double off = (u[0] * q.x + u[1] * q.y + u[2] * q.z) - pl->d / ln;
        FUZZ_CHECK(fabs(off) <= 4.0 * tol);
        double w[3] = {(double)p.x - q.x, (double)p.y - q.y, (double)p.z - q.z};
        double cx = w[1] * u[2] - w[2] * u[1], cy = w[2] * u[0] - w[0] * u[2], cz = w[0] * u[1] - w[1] * u[0];
        FUZZ_CHECK(dlen3(cx, cy, cz) <= 4.0 * tol);
        break;
    }
    }
}

/* A hit with t_enter >= 0: the point on the surface, the normal that of a face (or the
 * sphere) through the point, facing the ray. */
static void check_hit_geometry(const sc_ray *ray, const sc_shape *sh, const sc_raycast_result *r)
{
    if (!r->hit || r->t_enter < 0.0f || saturated(r->point)) return;
    /* t_enter == 0 with a zero normal: an exact t_enter below 0 that rounds to 0 (the origin
     * strictly inside, by less than float resolution); nothing to check. */
    if (r->normal.x == 0.0f && r->normal.y == 0.0f && r->normal.z == 0.0f && r->t_enter == 0.0f) return;
    sc_vec3 q = r->point, n = r->normal, d = ray->dir;
    double S = fmax(shape_mag(sh), fmax(dmax3(q), dmax3(ray->origin)));
    if (!(S < 1e30)) return;
    double tol = tol_of(S);
    double nd = ddot3(n, d) / dlen3(d.x, d.y, d.z);
    switch (sh->type) {
    case SC_SHAPE_AABB: {
        const sc_aabb *b = &sh->u.aabb;
        int k = n.x != 0.0f ? 0 : n.y != 0.0f ? 1 : 2;
        float nk = k == 0 ? n.x : k == 1 ? n.y : n.z;
        float qk = k == 0 ? q.x : k == 1 ? q.y : q.z;
        float lo = k == 0 ? b->min.x : k == 1 ? b->min.y : b->min.z;
        float hi = k == 0 ? b->max.x : k == 1 ? b->max.y : b->max.z;
        FUZZ_CHECK(fabsf(n.x) + fabsf(n.y) + fabsf(n.z) == 1.0f && (nk == 1.0f || nk == -1.0f));
        FUZZ_CHECK(nk < 0.0f ? qk == lo : qk == hi); /* exactly on that face */
        FUZZ_CHECK(nd <= 0.0);
        break;
    }
    case SC_SHAPE_OBB: {
        const sc_obb *b = &sh->u.obb;
        double h[3] = {b->half.x, b->half.y, b->half.z};
        int found = 0;
        /* on the box: c + sum_k l_k a_k with |l_k| <= h_k, whose coordinate along a_i is off l_i
         * by the skew of axes orthonormal only within 1e-4 (obb_skew) */
        for (int i = 0; i < 3; ++i) FUZZ_CHECK(fabs(obb_coord(b, q, i)) <= h[i] + 4.0 * tol + obb_skew(b, i));
        for (int k = 0; k < 3 && !found; ++k) {
            sc_vec3 a = b->axes[k];
            double la = dlen3(a.x, a.y, a.z);
            for (int sg = -1; sg <= 1; sg += 2) {
                if (fabs(n.x - sg * a.x / la) <= 1e-6 && fabs(n.y - sg * a.y / la) <= 1e-6 &&
                    fabs(n.z - sg * a.z / la) <= 1e-6 && fabs(obb_coord(b, q, k) - sg * h[k]) <= 4.0 * tol + obb_skew(b, k))
                    found = 1;
            }
        }
        FUZZ_CHECK(found);
        FUZZ_CHECK(nd <= 1e-6);
        break;
    }
    case SC_SHAPE_SPHERE: {
        const sc_sphere *s = &sh->u.sphere;
        double e[3] = {(double)q.x - s->center.x, (double)q.y - s->center.y, (double)q.z - s->center.z};
        double le = dlen3(e[0], e[1], e[2]);
        FUZZ_CHECK(fabs(le - s->radius) <= 4.0 * tol);
        if (s->radius > 1024.0 * tol) {
            FUZZ_CHECK(fabs(n.x - e[0] / le) <= 1e-4 && fabs(n.y - e[1] / le) <= 1e-4 && fabs(n.z - e[2] / le) <= 1e-4);
            FUZZ_CHECK(nd <= 1e-4);
        }
        break;
    }
    default: {
        const sc_plane *pl = &sh->u.plane;
        sc_vec3 m = pl->normal;
        double ln = dlen3(m.x, m.y, m.z);
        double u[3] = {m.x / ln, m.y / ln, m.z / ln};
        FUZZ_CHECK(fabs(u[0] * q.x + u[1] * q.y + u[2] * q.z - pl->d / ln) <= 4.0 * tol);
        int plus = fabs(n.x - u[0]) <= 1e-6 && fabs(n.y - u[1]) <= 1e-6 && fabs(n.z - u[2]) <= 1e-6;
        int minus = fabs(n.x + u[0]) <= 1e-6 && fabs(n.y + u[1]) <= 1e-6 && fabs(n.z + u[2]) <= 1e-6;
        FUZZ_CHECK(plus || minus);
        FUZZ_CHECK(nd <= 1e-6);
        break;
    }
    }
}

#endif
