/* slabcast worlds: capsule sweeps. A capsule (segment [a, b], radius r) moving as a + t d, b + t d
 * against every object kind, and spheres and boxes moving against capsule objects; in double
 * from the float inputs, as the other sweeps (docs/semantics.md, "Sweeps").
 *
 * Every case is a first contact of a segment (or a point) with a convex set, split into pieces
 * whose union is the set of displacements at which the two touch; the first entry into the union
 * is the smallest first entry into a piece:
 *   - segment [a, b] (moving) within R of a segment [p, q] (a capsule object, R the sum of both
 *     radii; an edge of a box, R = r): the displacements t d in M + B(R), M the parallelogram of
 *     the differences p - a + u (q - p) - w (b - a), u, w in [0, 1]. Its pieces: the four capsules
 *     of M's edges (an end point of one segment against the other segment's capsule: a ray against
 *     a capsule) and the slab of M's interior (the two segments' closest points both inside them,
 *     at distance R along their common normal): a slab test on three linear coordinates;
 *   - segment within r of a box [lo, hi]: at the first contact the closest pair of the segment and
 *     the box is an end point against the box (a sphere sweep: sc__sw_rounded_box), or the segment
 *     against an edge of the box (the segment sweep above, twelve edges), or the segment is parallel
 *     to a face and one of those holds too; at t = 0 the segment may also cross the box;
 *   - a capsule against an OBB: the box case in the OBB's frame (coordinates a_i . (x - c)), as a
 *     sphere against an OBB (the segment maps to a segment, the radius is measured in the frame);
 *   - a capsule against a sphere (C, R): the point C moving along -d against the capsule (a, b, r + R);
 *   - a sphere against a capsule object: its centre against the capsule grown by r;
 *   - a box (half extents e, centre o) against a capsule object (p, q, R): the capsule (p - o,
 *     q - o) moving along -d against the box [-e, e].
 * The normal and point come from the closest pair of the two cores at the contact. */
#include "sc_sweep.h"

#include <math.h>
#include <string.h>

static double sc_c_dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void sc_c_cross(const double *a, const double *b, double *r)
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

static double sc_c_clamp01(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }

/* The point of the segment [a, b] nearest x (its parameter clamped to [0, 1]). */
static void sc_c_seg_point(const double *a, const double *b, const double *x, double *s)
{
    double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, ax[3] = {x[0] - a[0], x[1] - a[1], x[2] - a[2]};
    double l = sc_c_dot(ab, ab), u = l > 0.0 ? sc_c_clamp01(sc_c_dot(ax, ab) / l) : 0.0;
    for (int i = 0; i < 3; ++i) s[i] = a[i] + u * ab[i];
}

/* The closest points s of [p0, p1] and q of [q0, q1] (Ericson, Real-Time Collision Detection 5.1.9). */
static void sc_c_seg_seg_points(const double *p0, const double *p1, const double *q0, const double *q1, double *s,
                                double *q)
{
    double d1[3], d2[3], r[3];
    for (int i = 0; i < 3; ++i) { d1[i] = p1[i] - p0[i]; d2[i] = q1[i] - q0[i]; r[i] = p0[i] - q0[i]; }
    double a = sc_c_dot(d1, d1), e = sc_c_dot(d2, d2), f = sc_c_dot(d2, r), u = 0.0, v = 0.0;
    if (a > 0.0 && e > 0.0) {
        double c = sc_c_dot(d1, r), b = sc_c_dot(d1, d2), den = a * e - b * b;
        u = den > 0.0 ? sc_c_clamp01((b * f - c * e) / den) : 0.0;
        v = (b * u + f) / e;
        if (v < 0.0) { v = 0.0; u = sc_c_clamp01(-c / a); }
        else if (v > 1.0) { v = 1.0; u = sc_c_clamp01((b - c) / a); }
    } else if (e > 0.0) {
        v = sc_c_clamp01(f / e);
    } else if (a > 0.0) {
        u = sc_c_clamp01(-sc_c_dot(d1, r) / a);
    }
    for (int i = 0; i < 3; ++i) { s[i] = p0[i] + u * d1[i]; q[i] = q0[i] + v * d2[i]; }
}

/* First t >= 0 at which o + t d is within rad of the segment [a, b] (0 when it already is); -1 never. */
static double sc_c_ray_capsule(const double *o, const double *d, const double *a, const double *b, double rad)
{
    double s[3];
    sc_c_seg_point(a, b, o, s);
    double v[3] = {o[0] - s[0], o[1] - s[1], o[2] - s[2]};
    if (sc_c_dot(v, v) <= rad * rad) return 0.0;
    return sc__sw_ray_capsule(o, d, a, b, rad);
}

/* Narrows [*lo, *hi] to the t where lo_b <= v0 + t vd <= hi_b. */
static void sc_c_constrain(double v0, double vd, double lo_b, double hi_b, double *lo, double *hi)
{
    if (vd == 0.0) {
        if (v0 < lo_b || v0 > hi_b) *lo = INFINITY;
        return;
    }
    double t1 = (lo_b - v0) / vd, t2 = (hi_b - v0) / vd;
    if (t1 > t2) { double x = t1; t1 = t2; t2 = x; }
    if (t1 > *lo) *lo = t1;
    if (t2 < *hi) *hi = t2;
}

/* Whether the point x + t v can be within R of the segment [a, b] for some t in [0, lim]: its path
 * against the segment's bounds grown by R + mg (mg: sc_c_edge_ivs's margin). */
static int sc_c_point_may(const double *x, const double *v, const double *a, const double *b, double R, double mg,
                          double lim)
{
    double t0 = 0.0, t1 = lim;
    for (int i = 0; i < 3; ++i) {
        double lo = (a[i] < b[i] ? a[i] : b[i]) - R - mg, hi = (a[i] < b[i] ? b[i] : a[i]) + R + mg;
        if (v[i] == 0.0) {
            if (x[i] < lo || x[i] > hi) return 0;
            continue;
        }
        double u1 = (lo - x[i]) / v[i], u2 = (hi - x[i]) / v[i];
        if (v[i] < 0.0) { double w = u1; u1 = u2; u2 = w; }
        if (u1 > t0) t0 = u1;
        if (u2 < t1) t1 = u2;
        if (t0 > t1) return 0;
    }
    return 1;
}

/* First t >= 0 at which the segment [a, b] moving along t d comes within R of the segment [p, q]; -1
 * for never. The slab of the parallelogram's interior is skipped when the segments are parallel
 * within 2^-30: the end point pieces then miss the contact by at most 2^-30 of the segments' length.
 * lim >= 0 (sc_c_box_pieces): an end point piece whose point cannot come within R + mg of the other segment's
 * bounds by t = lim is skipped (it could only give a contact after lim; the caller keeps only
 * contacts before it, and the smallest piece is unchanged whenever it is at most lim). */
static double sc_c_seg_seg_t(const double *a, const double *b, const double *d, const double *p, const double *q,
                             double R, double lim, double mg)
{
    double nd[3] = {-d[0], -d[1], -d[2]}, best = -1.0, c[5];
    int all = lim < 0.0;
    c[0] = all || sc_c_point_may(p, nd, a, b, R, mg, lim) ? sc_c_ray_capsule(p, nd, a, b, R) : -1.0;
    c[1] = all || sc_c_point_may(q, nd, a, b, R, mg, lim) ? sc_c_ray_capsule(q, nd, a, b, R) : -1.0;
    c[2] = all || sc_c_point_may(a, d, p, q, R, mg, lim) ? sc_c_ray_capsule(a, d, p, q, R) : -1.0;
    c[3] = all || sc_c_point_may(b, d, p, q, R, mg, lim) ? sc_c_ray_capsule(b, d, p, q, R) : -1.0;
    c[4] = -1.0;
    double es[3], em[3], N[3], x0[3];
    for (int i = 0; i < 3; ++i) { es[i] = q[i] - p[i]; em[i] = b[i] - a[i]; x0[i] = a[i] - p[i]; }
    sc_c_cross(es, em, N);
    double nn = sc_c_dot(N, N);
    if (nn > 8.673617379884035e-19 * sc_c_dot(es, es) * sc_c_dot(em, em)) { /* 2^-60 */
        /* x(t) = a - p + t d = u es - w em + h N / |N|: u = x . (em x N) / |N|^2, w = x . (es x N) / |N|^2 */
        double ku[3], kw[3], lo = 0.0, hi = INFINITY, len = sqrt(nn);
        sc_c_cross(em, N, ku);
        sc_c_cross(es, N, kw);
        sc_c_constrain(sc_c_dot(x0, ku), sc_c_dot(d, ku), 0.0, nn, &lo, &hi);
        sc_c_constrain(sc_c_dot(x0, kw), sc_c_dot(d, kw), 0.0, nn, &lo, &hi);
        sc_c_constrain(sc_c_dot(x0, N), sc_c_dot(d, N), -R * len, R * len, &lo, &hi);
        if (lo <= hi) c[4] = lo;
    }
    for (int k = 0; k < 5; ++k)
        if (c[k] >= 0.0 && (best < 0.0 || c[k] < best)) best = c[k];
    return best;
}

/* A unit normal for a contact of two cores at distance |v| (v from the object's core to the moving
 * one): v itself when it is clear (|v| at least half the radii R; R > 0), else the direction normal
 * to both cores' directions u1, u2 facing the approach (against d), else -d. */
static void sc_c_normal(const double *v, double R, const double *u1, const double *u2, const double *d, double *n)
{
    double l = sqrt(sc_c_dot(v, v));
    if (R > 0.0 && l >= 0.5 * R) {
        for (int i = 0; i < 3; ++i) n[i] = v[i] / l;
        return;
    }
    double c[3];
    sc_c_cross(u1, u2, c);
    double cl = sqrt(sc_c_dot(c, c));
    if (!(cl > 0.0) || !isfinite(cl)) {
        /* parallel cores (or a point): the part of -d normal to u1, or -d */
        double uu = sc_c_dot(u1, u1), k = uu > 0.0 ? sc_c_dot(d, u1) / uu : 0.0;
        for (int i = 0; i < 3; ++i) c[i] = k * u1[i] - d[i];
        cl = sqrt(sc_c_dot(c, c));
        if (!(cl > 0.0)) {
            for (int i = 0; i < 3; ++i) c[i] = -d[i];
            cl = sqrt(sc_c_dot(c, c));
        }
    } else if (sc_c_dot(c, d) > 0.0) {
        cl = -cl;
    }
    for (int i = 0; i < 3; ++i) n[i] = c[i] / cl;
}

/* Whether the segment [a, b] meets the box [lo, hi] (double clip); p gets a common point. */
static int sc_c_seg_box(const double *a, const double *b, const double *lo, const double *hi, double *p)
{
    double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, tn, tf;
    int axis;
    if (!sc__sw_slab(a, d, lo, hi, &tn, &tf, &axis)) return 0;
    if (tn < 0.0) tn = 0.0;
    if (tf > 1.0) tf = 1.0;
    if (tn > tf) return 0;
    for (int i = 0; i < 3; ++i) {
        double x = a[i] + tn * d[i];
        p[i] = x < lo[i] ? lo[i] : (x > hi[i] ? hi[i] : x);
    }
    return 1;
}

/* Whether the box [lo, hi] may come within r of the segment [a, b] moving along t d for t in
 * [0, tlim]: the box against the bounds of the swept segment grown by r and by a margin of 2^-20
 * relative, far beyond the rounding of the pieces' contacts (culling only: a piece whose contact
 * comes before tlim lies within r of the swept segment, so it is never culled). */
static int sc_c_reach(const double *a, const double *b, const double *d, double tlim, const double *lo,
                      const double *hi, double r)
{
    for (int i = 0; i < 3; ++i) {
        double m0 = a[i] < b[i] ? a[i] : b[i], m1 = a[i] < b[i] ? b[i] : a[i];
        double e = d[i] == 0.0 ? 0.0 : d[i] * tlim; /* tlim may be infinite */
        double s0 = m0 + (e < 0.0 ? e : 0.0), s1 = m1 + (e > 0.0 ? e : 0.0);
        double g = r + 9.5367431640625e-07 * (fabs(s0) + fabs(s1) + fabs(lo[i]) + fabs(hi[i]) + r);
        if (s1 < lo[i] - g || s0 > hi[i] + g) return 0;
    }
    return 1;
}

/* The t interval in which a moving box (centre c + t d on one axis, its reach g grown by a margin)
 * meets [lo, hi] on that axis: empty (t0 > t1) when it never does. */
typedef struct sc_civ { double t0, t1; } sc_civ;
static sc_civ sc_c_iv(double c, double d, double g, double lo, double hi)
{
    sc_civ v = {-INFINITY, INFINITY};
    if (d == 0.0) {
        if (c < lo - g || c > hi + g) v.t0 = INFINITY;
        return v;
    }
    double t1 = (lo - g - c) / d, t2 = (hi + g - c) / d;
    v.t0 = d > 0.0 ? t1 : t2;
    v.t1 = d > 0.0 ? t2 : t1;
    return v;
}

/* The box's edges' culling intervals (sc_c_box_pieces): per axis i, iv[i][0] the t in which the moving
 * segment's bounds (grown by r) meet the slab [lo_i, hi_i], iv[i][1] the plane lo_i, iv[i][2] the
 * plane hi_i, each grown by a margin of 2^-18 of the largest magnitude of any axis (the leaf tests
 * mix the axes in their dot products: their rounding, below 2^-26 of those magnitudes even at the
 * square roots of near tangencies, moves a contact by less) plus 2^-18 of the reach, plus 2^-18:
 * a contact the tests find with an edge then lies in its three intervals. Edges along an axis the
 * segment is nearly parallel to (sin^2 below 2^-30, but not 0) are not culled (ok[k] = 0): the
 * parallelogram piece of sc_c_seg_seg_t divides by that sine there. */
static double sc_c_edge_ivs(const double *a, const double *b, const double *d, const double *lo, const double *hi,
                            double r, sc_civ iv[3][3], int *ok)
{
    double big = 0.0, reach = 0.0, h[3], em[3];
    for (int i = 0; i < 3; ++i) {
        double x = fabs(lo[i]) + fabs(hi[i]) + fabs(a[i]) + fabs(b[i]);
        em[i] = b[i] - a[i];
        h[i] = fabs(em[i]) * 0.5 + r;
        if (x > big) big = x;
        if (h[i] > reach) reach = h[i];
    }
    double mg = 0x1p-18 * (big + reach + 1.0), ee = em[0] * em[0] + em[1] * em[1] + em[2] * em[2];
    for (int k = 0; k < 3; ++k) {
        double c = (a[k] + b[k]) * 0.5, g = h[k] + mg, ea = em[(k + 1) % 3], eb = em[(k + 2) % 3];
        double across = ea * ea + eb * eb; /* |em|^2 sin^2 of its angle to axis k */
        ok[k] = across == 0.0 || across >= 0x1p-30 * ee;
        iv[k][0] = sc_c_iv(c, d[k], g, lo[k], hi[k]);
        iv[k][1] = sc_c_iv(c, d[k], g, lo[k], lo[k]);
        iv[k][2] = sc_c_iv(c, d[k], g, hi[k], hi[k]);
    }
    return mg;
}

/* Whether edge e (along axis k = e / 4, at the sides e & 1 and e & 2 of the next two axes) can be
 * touched at some t in [0, lim]. */
static int sc_c_edge_may(sc_civ iv[3][3], const int *ok, int e, double lim)
{
    int k = e / 4, i = (k + 1) % 3, j = (k + 2) % 3;
    if (!ok[k]) return 1;
    const sc_civ *x = &iv[k][0], *y = &iv[i][e & 1 ? 2 : 1], *z = &iv[j][e & 2 ? 2 : 1];
    double t0 = x->t0 > y->t0 ? x->t0 : y->t0, t1 = x->t1 < y->t1 ? x->t1 : y->t1;
    if (z->t0 > t0) t0 = z->t0;
    if (z->t1 < t1) t1 = z->t1;
    return t0 <= t1 && t1 >= 0.0 && t0 <= lim;
}

/* The segment [a, b] moving along t d (0 <= t <= tmax) with radius r against the box [lo, hi], by
 * its pieces (the end points' balls, the twelve edges): the first contact t, the point q on the box,
 * and n, the box's outward unit normal there (zero at t = 0). 0 for none. cut >= 0
 * (sc__sw_capsule_object): edges whose contacts all come after min(cut, tmax, the best piece so far)
 * are skipped; a skipped edge could only have given a later contact (ties are tested), so the
 * answer is the same whenever it is at most cut. */
static int sc_c_box_pieces(const double *a, const double *b, const double *d, double tmax, const double *lo,
                    const double *hi, double r, double *t, double *q, double *n, double cut)
{
    n[0] = n[1] = n[2] = 0.0;
    if (!sc_c_reach(a, b, d, tmax, lo, hi, r)) return 0;
    if (sc_c_seg_box(a, b, lo, hi, q)) {
        *t = 0.0;
        return 1;
    }
    double best = INFINITY, bq[3] = {0, 0, 0}, bn[3] = {0, 0, 0};
    int edge = -1;
    const double *ends[2] = {a, b};
    for (int k = 0; k < 2; ++k) {
        double tt, qq[3], nn[3];
        if (sc__sw_rounded_box(ends[k], d, tmax, lo, hi, r, &tt, qq, nn) && tt < best) {
            best = tt;
            memcpy(bq, qq, sizeof bq);
            memcpy(bn, nn, sizeof bn);
        }
    }
    double e0[3], e1[3], lim = best < tmax ? best : tmax;
    sc_civ iv[3][3];
    int ok[3];
    double mg = 0.0;
    if (cut >= 0.0) {
        if (cut < lim) lim = cut;
        mg = sc_c_edge_ivs(a, b, d, lo, hi, r, iv, ok);
    }
    for (int e = 0; e < 12; ++e) {
        if (cut >= 0.0 && !sc_c_edge_may(iv, ok, e, best < lim ? best : lim)) continue;
        /* edge e along axis k = e / 4, the other two axes at the sides of e % 4's bits */
        int k = e / 4, i = (k + 1) % 3, j = (k + 2) % 3;
        e0[k] = lo[k];
        e1[k] = hi[k];
        e0[i] = e1[i] = e & 1 ? hi[i] : lo[i];
        e0[j] = e1[j] = e & 2 ? hi[j] : lo[j];
        if (!sc_c_reach(a, b, d, best < tmax ? best : tmax, e0, e1, r)) continue; /* cannot come first */
        double tt = sc_c_seg_seg_t(a, b, d, e0, e1, r, cut >= 0.0 ? (best < lim ? best : lim) : -1.0, mg);
        if (tt >= 0.0 && tt < best) {
            best = tt;
            edge = e;
        }
    }
    if (best == INFINITY || !(best <= tmax)) return 0; /* no piece met (tmax may be infinite) */
    *t = best;
    if (edge < 0) {
        /* an end point's ball: sc__sw_rounded_box's point and normal */
        memcpy(q, bq, sizeof bq);
        if (best > 0.0) memcpy(n, bn, sizeof bn);
        return 1;
    }
    int k = edge / 4, i = (k + 1) % 3, j = (k + 2) % 3;
    e0[k] = lo[k];
    e1[k] = hi[k];
    e0[i] = e1[i] = edge & 1 ? hi[i] : lo[i];
    e0[j] = e1[j] = edge & 2 ? hi[j] : lo[j];
    double at[3], bt[3], s[3], v[3], u1[3], u2[3];
    for (int m = 0; m < 3; ++m) {
        at[m] = a[m] + best * d[m];
        bt[m] = b[m] + best * d[m];
        u1[m] = e1[m] - e0[m];
        u2[m] = b[m] - a[m];
    }
    sc_c_seg_seg_points(at, bt, e0, e1, s, q);
    if (best > 0.0) {
        for (int m = 0; m < 3; ++m) v[m] = s[m] - q[m];
        sc_c_normal(v, r, u1, u2, d, n);
    }
    return 1;
}

/* The same when b - a has at most one nonzero component k (an upright capsule, or a point): the
 * capsule is the ball (a, r) plus the segment [0, b - a] along axis k, so it touches the box when a
 * is within r of the box stretched by -(b_k - a_k) on axis k, [lo_k - max(L, 0), hi_k - min(L, 0)]
 * with L = b_k - a_k: a sphere sweep of centre a against that box (sc__sw_rounded_box), whose normal
 * is the box's own at the contact. The point: the box's point nearest a at t (on the other two axes
 * the stretched box's point; on axis k the box's point nearest the segment's range at t, a point of
 * their overlap when they overlap). */
static int sc_c_box_axis(const double *a, const double *b, const double *d, double tmax, const double *lo,
                         const double *hi, double r, double *t, double *q, double *n)
{
    double slo[3], shi[3], sq[3];
    for (int i = 0; i < 3; ++i) {
        double L = b[i] - a[i];
        slo[i] = L > 0.0 ? lo[i] - L : lo[i];
        shi[i] = L < 0.0 ? hi[i] - L : hi[i];
    }
    if (!sc__sw_rounded_box(a, d, tmax, slo, shi, r, t, sq, n)) return 0;
    for (int i = 0; i < 3; ++i) {
        double x = *t > 0.0 ? a[i] + *t * d[i] : a[i]; /* as sc__sw_rounded_box's point (a zero's sign kept) */
        q[i] = x < lo[i] ? lo[i] : (x > hi[i] ? hi[i] : x);
    }
    return 1;
}

/* The moving capsule against the box: sc_c_box_axis when its segment lies along an axis (or is a
 * point), else by its pieces. */
static int sc_c_box(const double *a, const double *b, const double *d, double tmax, const double *lo,
                    const double *hi, double r, double *t, double *q, double *n, double cut)
{
    int along = (b[0] != a[0]) + (b[1] != a[1]) + (b[2] != a[2]);
    if (along <= 1) return sc_c_box_axis(a, b, d, tmax, lo, hi, r, t, q, n);
    return sc_c_box_pieces(a, b, d, tmax, lo, hi, r, t, q, n, cut);
}

int sc__sw_capsule_box(const double *a, const double *b, const double *d, double tmax, const double *lo,
                       const double *hi, double r, double *t, double *q, double *n, int pieces)
{
    if (pieces) return sc_c_box_pieces(a, b, d, tmax, lo, hi, r, t, q, n, -1.0);
    return sc_c_box(a, b, d, tmax, lo, hi, r, t, q, n, -1.0);
}

/* The moving capsule against an AABB object, or against an OBB in its frame. */
static int sc_c_vs_obb(const sc_mover *m, const sc_obb *o, sc_shit *h, double cut)
{
    double c[3] = {o->center.x, o->center.y, o->center.z}, ax[3][3], al[3], bl[3], dl[3], lo[3], hi[3], ql[3], nl[3];
    const double half[3] = {o->half.x, o->half.y, o->half.z};
    for (int k = 0; k < 3; ++k) {
        ax[k][0] = o->axes[k].x;
        ax[k][1] = o->axes[k].y;
        ax[k][2] = o->axes[k].z;
    }
    for (int k = 0; k < 3; ++k) {
        double ma[3] = {m->a[0] - c[0], m->a[1] - c[1], m->a[2] - c[2]};
        double mb[3] = {m->b[0] - c[0], m->b[1] - c[1], m->b[2] - c[2]};
        al[k] = sc_c_dot(ma, ax[k]);
        bl[k] = sc_c_dot(mb, ax[k]);
        dl[k] = sc_c_dot(m->d, ax[k]);
        lo[k] = -half[k];
        hi[k] = half[k];
    }
    if (!sc_c_box(al, bl, dl, m->tmax, lo, hi, m->r, &h->t, ql, nl, cut)) return 0;
    sc__sw_obb_back(o, ql, nl, h->p, h->n);
    return 1;
}

/* The moving capsule against the segment [p, q] of radius R (a capsule object; R = 0 with p = q a
 * point, R > 0 with p = q a sphere). */
static int sc_c_vs_segment(const sc_mover *m, const double *p, const double *q, double R, sc_shit *h)
{
    double t = sc_c_seg_seg_t(m->a, m->b, m->d, p, q, m->r + R, -1.0, 0.0);
    if (t < 0.0 || t > m->tmax) return 0;
    double at[3], bt[3], s[3], c[3], v[3], u1[3], u2[3];
    for (int i = 0; i < 3; ++i) {
        at[i] = m->a[i] + t * m->d[i];
        bt[i] = m->b[i] + t * m->d[i];
        u1[i] = q[i] - p[i];
        u2[i] = m->b[i] - m->a[i];
    }
    sc_c_seg_seg_points(at, bt, p, q, s, c);
    for (int i = 0; i < 3; ++i) v[i] = s[i] - c[i];
    h->t = t;
    double l = sqrt(sc_c_dot(v, v));
    if (t == 0.0) {
        /* touching at 0: the point of [c, s] at distance min(R, |v|) from c is in both */
        double k = l > R ? R / l : 1.0;
        for (int i = 0; i < 3; ++i) { h->n[i] = 0.0; h->p[i] = c[i] + k * v[i]; }
        return 1;
    }
    sc_c_normal(v, m->r + R, u1, u2, m->d, h->n);
    for (int i = 0; i < 3; ++i) h->p[i] = c[i] + R * h->n[i];
    return 1;
}

int sc__sw_capsule_object(const sc_world *w, const sc_mover *m, int o, sc_shit *h, double cut)
{
    switch (w->kind[o]) {
    case SC_SHAPE_AABB: {
        const sc_aabb *b = &w->bounds[o];
        double lo[3] = {b->min.x, b->min.y, b->min.z}, hi[3] = {b->max.x, b->max.y, b->max.z};
        return sc_c_box(m->a, m->b, m->d, m->tmax, lo, hi, m->r, &h->t, h->p, h->n, cut);
    }
    case SC_SHAPE_OBB: return sc_c_vs_obb(m, &w->obbs[w->slot[o]], h, cut);
    case SC_SHAPE_SPHERE: {
        const sc_sphere *s = &w->spheres[w->slot[o]];
        double c[3] = {s->center.x, s->center.y, s->center.z};
        return sc_c_vs_segment(m, c, c, s->radius, h);
    }
    default: {
        const sc_capsule *k = &w->capsules[w->slot[o]];
        double p[3] = {k->a.x, k->a.y, k->a.z}, q[3] = {k->b.x, k->b.y, k->b.z};
        return sc_c_vs_segment(m, p, q, k->radius, h);
    }
    }
}

/* A moving sphere against a capsule object: its centre (a point of radius m->r) as a capsule of zero
 * length; a moving box: the capsule object moving the other way against the box, the roles (and
 * the normal) swapped back. */
int sc__sw_vs_capsule(const sc_mover *m, const sc_capsule *k, sc_shit *h, double cut)
{
    double p[3] = {k->a.x, k->a.y, k->a.z}, q[3] = {k->b.x, k->b.y, k->b.z}, R = k->radius;
    if (!m->box) {
        sc_mover c = *m;
        memcpy(c.a, m->o, sizeof c.a);
        memcpy(c.b, m->o, sizeof c.b);
        return sc_c_vs_segment(&c, p, q, R, h);
    }
    double pa[3], qa[3], nd[3], lo[3], hi[3], bq[3], bn[3];
    for (int i = 0; i < 3; ++i) {
        pa[i] = p[i] - m->o[i];
        qa[i] = q[i] - m->o[i];
        nd[i] = -m->d[i];
        lo[i] = -m->e[i];
        hi[i] = m->e[i];
    }
    if (!sc_c_box(pa, qa, nd, m->tmax, lo, hi, R, &h->t, bq, bn, cut)) return 0;
    double t = h->t, x[3], s[3];
    for (int i = 0; i < 3; ++i) x[i] = bq[i] + m->o[i] + t * m->d[i]; /* the box's point, in the world */
    if (t == 0.0) {
        /* touching at 0: the box's point, within R of the capsule's segment (or on it) */
        for (int i = 0; i < 3; ++i) { h->n[i] = 0.0; h->p[i] = x[i]; }
        return 1;
    }
    /* the capsule's outward normal is the box's, reversed; the point lies on the capsule's surface */
    sc_c_seg_point(p, q, x, s);
    for (int i = 0; i < 3; ++i) {
        h->n[i] = -bn[i];
        h->p[i] = s[i] + R * h->n[i];
    }
    return 1;
}
