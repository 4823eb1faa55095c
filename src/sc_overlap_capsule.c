/* slabcast worlds: overlaps of capsules (docs/semantics.md, "Overlaps").
 *
 * A capsule (segment [a, b], radius r) and a closed convex set K overlap when the segment comes within
 * r of K. Take a closest pair (p on the segment, x in K): x inside K (the segment meets K), or p an end
 * point (a ball at a or b meets K), or x on an edge or at a vertex of K (with p inside the segment), or
 * x inside a face and the segment parallel to it, when sliding along the segment reaches one of the
 * cases before. So:
 *   - against an AABB, exactly: the exact linetest, the exact ball test at each end point, and the
 *     exact segment distance to each of the twelve edges (their end points are floats);
 *   - against a sphere or a capsule, exactly: the exact segment distance (sc__segments_within);
 *   - against a polytope of half-spaces (an OBB's slabs, a frustum's planes): the end point balls
 *     exactly (sc_ball.c); the segment clipped by the half-spaces, the edges (lines of two planes) and
 *     the vertices (three planes) in double, each edge or vertex point counted when it satisfies the
 *     other half-spaces within 2^-40 of the terms' size; docs/semantics.md states the bound. */
#include "sc_internal.h"

#include <math.h>

int sc__overlap_capsule_aabb(const sc_capsule *c, const sc_aabb *b)
{
    sc_sphere ea = {c->a, c->radius}, eb = {c->b, c->radius};
    if (sc__overlap_sphere_aabb(&ea, b) || sc__overlap_sphere_aabb(&eb, b)) return 1;
    sc_segment seg = {c->a, c->b};
    sc_shape sh;
    sh.type = SC_SHAPE_AABB;
    sh.u.aabb = *b;
    if (sc_linetest(&seg, &sh).value) return 1;
    const float lo[3] = {b->min.x, b->min.y, b->min.z}, hi[3] = {b->max.x, b->max.y, b->max.z};
    for (int e = 0; e < 12; ++e) {
        int k = e / 4, i = (k + 1) % 3, j = (k + 2) % 3;
        float p[3], q[3];
        p[k] = lo[k];
        q[k] = hi[k];
        p[i] = q[i] = e & 1 ? hi[i] : lo[i];
        p[j] = q[j] = e & 2 ? hi[j] : lo[j];
        if (sc__segments_within(c->a, c->b, (sc_vec3){p[0], p[1], p[2]}, (sc_vec3){q[0], q[1], q[2]}, c->radius, 0.0f))
            return 1;
    }
    return 0;
}

static double sc_oc_dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void sc_oc_cross(const double *a, const double *b, double *r)
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

/* The half-spaces n.x <= b in double. */
typedef struct sc_ocp {
    double n[12][3], b[12];
    int m;
    double a[3], v[3], r2; /* the segment a + s v, s in [0, 1], and r^2 */
} sc_ocp;

/* Whether x satisfies every half-space but skip1, skip2, skip3 within 2^-40 of the terms' size. */
static int sc_oc_feasible(const sc_ocp *P, const double *x, int s1, int s2, int s3)
{
    for (int k = 0; k < P->m; ++k) {
        if (k == s1 || k == s2 || k == s3) continue;
        double s = -P->b[k], scale = fabs(P->b[k]);
        for (int i = 0; i < 3; ++i) {
            double t = P->n[k][i] * x[i];
            s += t;
            scale += fabs(t);
        }
        if (s > 9.094947017729282e-13 * scale) return 0;
    }
    return 1;
}

/* Whether x is within r of the segment. */
static int sc_oc_near(const sc_ocp *P, const double *x)
{
    double w[3] = {x[0] - P->a[0], x[1] - P->a[1], x[2] - P->a[2]}, vv = sc_oc_dot(P->v, P->v);
    double s = vv > 0.0 ? sc_oc_dot(w, P->v) / vv : 0.0;
    s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
    double e[3] = {w[0] - s * P->v[0], w[1] - s * P->v[1], w[2] - s * P->v[2]};
    return sc_oc_dot(e, e) <= P->r2;
}

/* Whether the segment meets every half-space (clipped in double). */
static int sc_oc_clip(const sc_ocp *P)
{
    double lo = 0.0, hi = 1.0;
    for (int k = 0; k < P->m; ++k) {
        double f0 = sc_oc_dot(P->n[k], P->a) - P->b[k], fv = sc_oc_dot(P->n[k], P->v);
        if (fv == 0.0) {
            if (f0 > 0.0) return 0;
            continue;
        }
        double s = -f0 / fv;
        if (fv > 0.0) { if (s < hi) hi = s; }
        else if (s > lo) lo = s;
        if (lo > hi) return 0;
    }
    return 1;
}

/* The line of planes i and j against the segment: their closest points, when the line's lies in the
 * other half-spaces, within r of each other. */
static int sc_oc_edge(const sc_ocp *P, int i, int j)
{
    const double *ni = P->n[i], *nj = P->n[j];
    double u[3], ju[3], ui[3], x0[3];
    sc_oc_cross(ni, nj, u);
    double uu = sc_oc_dot(u, u);
    if (!(uu > 0.0)) return 0;
    sc_oc_cross(nj, u, ju);
    sc_oc_cross(u, ni, ui);
    for (int k = 0; k < 3; ++k) x0[k] = (P->b[i] * ju[k] + P->b[j] * ui[k]) / uu;
    /* closest points of x0 + l u and a + s v, s clamped to [0, 1] */
    double r[3] = {P->a[0] - x0[0], P->a[1] - x0[1], P->a[2] - x0[2]};
    double vv = sc_oc_dot(P->v, P->v), uv = sc_oc_dot(u, P->v), ru = sc_oc_dot(r, u), rv = sc_oc_dot(r, P->v);
    double den = uu * vv - uv * uv, s = 0.0;
    if (den > 0.0) s = (uv * ru - uu * rv) / den;
    s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
    double p[3], x[3];
    for (int k = 0; k < 3; ++k) p[k] = P->a[k] + s * P->v[k];
    double pr[3] = {p[0] - x0[0], p[1] - x0[1], p[2] - x0[2]}, l = sc_oc_dot(pr, u) / uu;
    for (int k = 0; k < 3; ++k) x[k] = x0[k] + l * u[k];
    return sc_oc_feasible(P, x, i, j, -1) && sc_oc_near(P, x);
}

/* The vertex of planes i, j, k, when it lies in the other half-spaces, within r of the segment. */
static int sc_oc_vertex(const sc_ocp *P, int i, int j, int k)
{
    double jk[3], ki[3], ij[3], x[3];
    sc_oc_cross(P->n[j], P->n[k], jk);
    sc_oc_cross(P->n[k], P->n[i], ki);
    sc_oc_cross(P->n[i], P->n[j], ij);
    double det = sc_oc_dot(P->n[i], jk);
    if (det == 0.0 || !isfinite(det)) return 0;
    for (int q = 0; q < 3; ++q) x[q] = (P->b[i] * jk[q] + P->b[j] * ki[q] + P->b[k] * ij[q]) / det;
    return sc_oc_feasible(P, x, i, j, k) && sc_oc_near(P, x);
}

int sc__overlap_capsule_poly(const sc_capsule *c, const sc_xhs *h, int m, int paired)
{
    if (sc__ball_meets_halfspaces(h, m, paired, c->a, c->radius) ||
        sc__ball_meets_halfspaces(h, m, paired, c->b, c->radius))
        return 1;
    sc_ocp P;
    P.m = m;
    for (int k = 0; k < m; ++k) {
        double sum = 0.0;
        for (int i = 0; i < h[k].nb; ++i) sum += h[k].b[i];
        for (int i = 0; i < 3; ++i) P.n[k][i] = h[k].n[i];
        P.b[k] = sum;
    }
    P.a[0] = c->a.x; P.a[1] = c->a.y; P.a[2] = c->a.z;
    P.v[0] = (double)c->b.x - c->a.x; P.v[1] = (double)c->b.y - c->a.y; P.v[2] = (double)c->b.z - c->a.z;
    P.r2 = (double)c->radius * c->radius;
    if (sc_oc_clip(&P)) return 1;
    for (int i = 0; i < m; ++i) {
        for (int j = i + 1; j < m; ++j) {
            if (paired && j == (i ^ 1)) continue; /* opposite slab sides: parallel */
            if (sc_oc_edge(&P, i, j)) return 1;
            for (int k = j + 1; k < m; ++k) {
                if (paired && (k == (i ^ 1) || k == (j ^ 1))) continue;
                if (sc_oc_vertex(&P, i, j, k)) return 1;
            }
        }
    }
    return 0;
}
