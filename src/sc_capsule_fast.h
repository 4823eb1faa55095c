/* sc_capsule_fast.h: the quick paths of the capsule's ray query (sc_capsule.c). Internal.
 *
 * Each helper here settles an exact decision (the hit, the miss, the origin's side) only when a
 * static error bound proves the double value's sign, and otherwise says it cannot tell, so that
 * the exact code of sc_capsule.c decides as before. The answers are therefore those of the general code, bit for bit; only the work
 * differs. tests/native/test_capsule_fast.c compares them with a copy of the general code on
 * millions of rays; building with SC_CAP_NO_MARGIN=1 (the hit's bound), 2 (the side's bound) or 3
 * (the miss's bound) drops a margin, and that test then fails. */
#ifndef SC_CAPSULE_FAST_H
#define SC_CAPSULE_FAST_H

#include "sc_single.h"
#include "sc_exact_num.h" /* SC_NUM_UNKNOWN */

#include <math.h>

#ifndef SC_CAP_NO_MARGIN
#define SC_CAP_NO_MARGIN 0
#endif

/* ------------------------------------------------------------------ the inputs in double
 * The ray and the capsule as doubles (exact), with u = b - a and m = o - a rounded once each,
 * u.u and r^2 (exact: a product of floats), shared by the certificates and the line solve. */
typedef struct sc_cap_q {
    double o[3], d[3], a[3], b[3], u[3], m[3];
    double pm[3], pu[3]; /* |o| + |a|, |b| + |a|: the magnitudes that bound m and u's errors */
    double uu, um, R2, T;
} sc_cap_q;

static inline void sc_cap_prep(sc_cap_q *q, const sc_ray *ray, const sc_capsule *c)
{
    q->o[0] = ray->origin.x, q->o[1] = ray->origin.y, q->o[2] = ray->origin.z;
    q->d[0] = ray->dir.x, q->d[1] = ray->dir.y, q->d[2] = ray->dir.z;
    q->a[0] = c->a.x, q->a[1] = c->a.y, q->a[2] = c->a.z;
    q->b[0] = c->b.x, q->b[1] = c->b.y, q->b[2] = c->b.z;
    for (int i = 0; i < 3; ++i) {
        q->u[i] = q->b[i] - q->a[i];
        q->m[i] = q->o[i] - q->a[i];
        q->pm[i] = fabs(q->o[i]) + fabs(q->a[i]);
        q->pu[i] = fabs(q->b[i]) + fabs(q->a[i]);
    }
    q->uu = q->u[0] * q->u[0] + q->u[1] * q->u[1] + q->u[2] * q->u[2];
    q->um = q->u[0] * q->m[0] + q->u[1] * q->m[1] + q->u[2] * q->m[2];
    q->R2 = (double)c->radius * c->radius;
    q->T = ray->tmax;
}

/* ------------------------------------------------------------------ the hit, certainly
 * Whether the ray (o, d, T = tmax) certainly comes within r of the segment a + s u (u = b - a):
 * 1 when it does, 0 when this cannot tell (the exact decision then runs). A witness is enough:
 * a pair t in [0, T], s in [0, 1] (any doubles) whose exact squared distance
 * |o + t d - a - s u|^2 is below r^2 (exact in double: a product of floats). The pair is the
 * two lines' nearest points in double, clamped (Ericson's segment-segment order); the distance
 * is evaluated in double with a bound:
 *   v_i = ((o_i - a_i) + t d_i) - s (b_i - a_i): each path has at most 3 roundings, so
 *   |v_i - V_i| <= gamma_3 P_i + 2 2^-1075 (two products may be subnormal), with
 *   P_i = (|o_i| + |a_i|) + t |d_i| + s (|b_i| + |a_i|); e_i = 2^-50 P_i + 2^-1073 bounds it
 *   (2^-50 = 8u covers gamma_3 = 3u / (1 - 3u) and P_i's own rounding);
 *   sum V_i^2 <= sum v_i^2 + sum e_i (2 |v_i| + e_i), and the computed D = fl(sum v_i^2) is
 *   within gamma_3 D + 3 2^-1075 of sum v_i^2.
 * So sum V_i^2 <= D + E with E = 2^-50 D + sum e_i (2 |v_i| + e_i) + 2^-1070; E and D + E are
 * computed in double and grown by (1 + 2^-40) twice, which covers their few roundings. NaN or
 * infinite values fail the comparison. */
static inline int sc_cap_hit_sure(const sc_cap_q *q)
{
    const double *d = q->d, *u = q->u, *m = q->m;
    double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], uu = q->uu, um = q->um;
    double du = d[0] * u[0] + d[1] * u[1] + d[2] * u[2];
    double dm = d[0] * m[0] + d[1] * m[1] + d[2] * m[2];
    double T = q->T, den = dd * uu - du * du;
    /* the lines' nearest points (one division: t = (du um - uu dm) / den, s = (um + t du) / uu =
     * (dd um - du dm) / den); when one is out of its range (or the lines are parallel), t clamped,
     * s for that t, and when s is clamped, t for that s */
    double t = 0.0, s = -1.0;
    if (den > 0.0) {
        double k = 1.0 / den;
        t = (du * um - uu * dm) * k;
        s = (dd * um - du * dm) * k;
    }
    if (!(t > 0.0 && t <= T && s > 0.0 && s < 1.0)) {
        if (!(t > 0.0)) t = 0.0;
        if (t > T) t = T;
        s = (um + t * du) / uu;
    }
    if (!(s > 0.0 && s < 1.0)) {
        s = s > 0.0 ? 1.0 : 0.0;
        t = (s * du - dm) / dd;
        if (!(t > 0.0)) t = 0.0;
        if (t > T) t = T;
    }
    double D = 0.0, E = 0.0;
    for (int i = 0; i < 3; ++i) {
        double v = (m[i] + t * d[i]) - s * u[i];
        double P = q->pm[i] + t * fabs(d[i]) + s * q->pu[i];
        double e = 0x1p-50 * P + 0x1p-1073;
        D += v * v;
        E += e * (2.0 * fabs(v) + e);
    }
    if (SC_CAP_NO_MARGIN == 1) return D < q->R2;
    E = (E + 0x1p-50 * D) * (1.0 + 0x1p-40) + 0x1p-1070;
    return (D + E) * (1.0 + 0x1p-40) < q->R2;
}

/* ------------------------------------------------------------------ the miss, certainly
 * 1 when the ray certainly misses: the distance between the two lines (the ray's and the axis's)
 * is more than r, so every point of the ray is farther than r from every point of the segment.
 * With n = d x u and m = o - a, that distance squared is (m.n)^2 / n.n, so the test is the sign
 * of (m.n)^2 - r^2 n.n (exactly 0 for parallel lines: then this cannot tell). That value is a
 * polynomial of degree 6 in the floats evaluated with at most 8 roundings on any path, without
 * division: it is within gamma_8 Pabs of the exact value (Pabs the same expression on the
 * magnitudes, every sign +), and no result is subnormal (every value is a multiple of 2^-894, the
 * granularity of products of six floats). Taken when it exceeds 2^-48 Pabs (32u covers gamma_8
 * and Pabs's own rounding). 0 when this cannot tell (the exact decision then runs). */
static inline int sc_cap_miss_sure(const sc_cap_q *q)
{
    const double *d = q->d, *u = q->u, *m = q->m, *pm = q->pm, *pu = q->pu;
    double n0 = d[1] * u[2] - d[2] * u[1], n1 = d[2] * u[0] - d[0] * u[2], n2 = d[0] * u[1] - d[1] * u[0];
    double a0 = fabs(d[0]), a1 = fabs(d[1]), a2 = fabs(d[2]);
    double p0 = a1 * pu[2] + a2 * pu[1], p1 = a2 * pu[0] + a0 * pu[2], p2 = a0 * pu[1] + a1 * pu[0];
    double wn = m[0] * n0 + m[1] * n1 + m[2] * n2, pwn = pm[0] * p0 + pm[1] * p1 + pm[2] * p2;
    double nn = n0 * n0 + n1 * n1 + n2 * n2, pnn = p0 * p0 + p1 * p1 + p2 * p2;
    double x = wn * wn - q->R2 * nn, px = pwn * pwn + q->R2 * pnn;
    return x > (SC_CAP_NO_MARGIN == 3 ? 0.0 : 0x1p-48) * px;
}

/* ------------------------------------------------------------------ the origin's side, certainly
 * sign(dist(o, segment a-b)^2 - r^2) as sc_cap_side gives it (-1, 0, 1), or SC_NUM_UNKNOWN
 * when the doubles cannot tell (then sc_cap_side decides exactly). With m = o - a, u = b - a,
 * s = m.u: the nearest point is a when s <= 0 (|m|^2 - r^2), b when s >= u.u (|o - b|^2 - r^2),
 * else between (u.u > 0 times the sign: |m x u|^2 - r^2 u.u, Lagrange's identity). Every value
 * is a polynomial of degree <= 4 in the floats, evaluated with at most 7 roundings on any path
 * and without division: its computed value is within gamma_7 Pabs of the exact one, Pabs the
 * same expression on the inputs' magnitudes (every sign +), and no result is subnormal (every
 * value is a multiple of 2^-596, the products of four floats' granularity 2^-149). A sign is
 * taken when |value| > 2^-48 Pabs (2^-48 = 32u covers gamma_7 and Pabs's own rounding). */
static inline int sc_cap_side_sure(const sc_cap_q *q)
{
    const double *m = q->m, *u = q->u, *pm = q->pm, *pu = q->pu;
    double mg = SC_CAP_NO_MARGIN == 2 ? 0.0 : 0x1p-48;
    double R2 = q->R2, s = q->um, ps = pm[0] * pu[0] + pm[1] * pu[1] + pm[2] * pu[2];
    double x, px;
    if (s < -mg * ps) { /* the end a */
        x = (m[0] * m[0] + m[1] * m[1] + m[2] * m[2]) - R2;
        px = (pm[0] * pm[0] + pm[1] * pm[1] + pm[2] * pm[2]) + R2;
    } else {
        double uu = q->uu, puu = pu[0] * pu[0] + pu[1] * pu[1] + pu[2] * pu[2];
        double g = s - uu, pg = ps + puu;
        if (g > mg * pg) { /* the end b: o - b, one rounding from the floats */
            double n[3], pn[3];
            for (int i = 0; i < 3; ++i) {
                n[i] = q->o[i] - q->b[i];
                pn[i] = fabs(q->o[i]) + fabs(q->b[i]);
            }
            x = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) - R2;
            px = (pn[0] * pn[0] + pn[1] * pn[1] + pn[2] * pn[2]) + R2;
        } else if (s > mg * ps && -g > mg * pg) { /* between */
            double w0 = m[1] * u[2] - m[2] * u[1], w1 = m[2] * u[0] - m[0] * u[2], w2 = m[0] * u[1] - m[1] * u[0];
            double p0 = pm[1] * pu[2] + pm[2] * pu[1], p1 = pm[2] * pu[0] + pm[0] * pu[2], p2 = pm[0] * pu[1] + pm[1] * pu[0];
            x = (w0 * w0 + w1 * w1 + w2 * w2) - R2 * uu;
            px = (p0 * p0 + p1 * p1 + p2 * p2) + R2 * puu;
        } else {
            return SC_NUM_UNKNOWN;
        }
    }
    if (x > mg * px) return 1;
    if (x < -mg * px) return -1;
    return SC_NUM_UNKNOWN;
}

#endif
