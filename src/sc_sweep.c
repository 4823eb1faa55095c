/* slabcast worlds: sweeps ("fat rays"). A sphere or an axis-aligned box moving along a ray,
 * against every object a filter allows: the first t in [0, tmax] at which the moving shape
 * touches the object (closed shapes: touching counts), the object (ties to the lowest index),
 * the contact normal (the object's outward unit normal at the contact, pointing at the moving
 * shape) and the contact point (on the object). A moving shape that already overlaps an object
 * at t = 0 hits it at t = 0 with a zero normal (SC_INSIDE_SOLID) or ignores it
 * (SC_INSIDE_SKIP). Computed in double from the float inputs; docs/semantics.md, "Sweeps".
 *
 * Every contact is the first contact of a moving point with a Minkowski sum:
 *   - sphere (radius r) against an AABB [lo, hi]: the point against the box rounded by r;
 *   - sphere against a sphere (C, R): the point against the ball (C, R + r);
 *   - sphere against an OBB: the same rounded box in the OBB's frame (coordinates along its axes);
 *   - box (half extents e) against an AABB: the point against [lo - e, hi + e];
 *   - box against a sphere: the point against the box [C - e, C + e] rounded by R;
 *   - box against an OBB (its slabs): the separating axis test swept along t (sc_sweep_obb.c).
 * The BVH is walked with each node's bounds grown by the moving shape's extent: by sc_sweep_walk.c
 * (four lanes in float, nearest first), which keeps every node sc_s_cull below keeps; sweeps from
 * 2^80 or beyond by the generic sc__walk with sc_s_cull. The brute force offers every object. */
#include "sc_sweep.h"

#include <float.h>
#include <math.h>
#include <string.h>

static double sc_s_dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* First t >= 0 at which o + t d enters the ball (c, rad), when o is outside it; -1 for never. */
double sc__sw_ray_ball(const double *o, const double *d, const double *c, double rad)
{
    double m[3] = {o[0] - c[0], o[1] - c[1], o[2] - c[2]};
    double b = sc_s_dot(m, d), cc = sc_s_dot(m, m) - rad * rad, dd = sc_s_dot(d, d);
    if (cc <= 0.0) return 0.0;
    if (b >= 0.0) return -1.0;
    double disc = b * b - dd * cc;
    if (disc < 0.0) return -1.0;
    /* (-b - sqrt(disc)) / dd, in the form without cancellation: cc / (-b + sqrt(disc)) */
    return cc / (-b + sqrt(disc));
}

/* First t >= 0 at which o + t d enters the capsule of segment [a, b] and radius rad (o outside). */
double sc__sw_ray_capsule(const double *o, const double *d, const double *a, const double *b, double rad)
{
    double best = -1.0;
    double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, ao[3] = {o[0] - a[0], o[1] - a[1], o[2] - a[2]};
    double abab = sc_s_dot(ab, ab);
    if (abab > 0.0) {
        /* the cylinder: the components of ao + t d across the axis, |m + t v|^2 = rad^2 */
        double kd = sc_s_dot(d, ab) / abab, ko = sc_s_dot(ao, ab) / abab;
        double v[3] = {d[0] - kd * ab[0], d[1] - kd * ab[1], d[2] - kd * ab[2]};
        double m[3] = {ao[0] - ko * ab[0], ao[1] - ko * ab[1], ao[2] - ko * ab[2]};
        double A = sc_s_dot(v, v), B = sc_s_dot(m, v), C = sc_s_dot(m, m) - rad * rad;
        if (A > 0.0 && B < 0.0 && B * B - A * C >= 0.0) {
            double t = C <= 0.0 ? 0.0 : C / (-B + sqrt(B * B - A * C));
            double s = ko + t * kd; /* where along the segment */
            if (s >= 0.0 && s <= 1.0) best = t;
        }
    }
    double ta = sc__sw_ray_ball(o, d, a, rad), tb = sc__sw_ray_ball(o, d, b, rad);
    if (ta >= 0.0 && (best < 0.0 || ta < best)) best = ta;
    if (tb >= 0.0 && (best < 0.0 || tb < best)) best = tb;
    return best;
}

/* The squared distance from point x to the box [lo, hi], and the closest point q. */
double sc__sw_box_dist2(const double *x, const double *lo, const double *hi, double *q)
{
    double s = 0.0;
    for (int i = 0; i < 3; ++i) {
        q[i] = x[i] < lo[i] ? lo[i] : (x[i] > hi[i] ? hi[i] : x[i]);
        s += (x[i] - q[i]) * (x[i] - q[i]);
    }
    return s;
}

/* The slab interval of o + t d against [lo, hi] in double: 0 when the line misses. */
int sc__sw_slab(const double *o, const double *d, const double *lo, const double *hi, double *tn, double *tf,
                     int *axis)
{
    *tn = -INFINITY;
    *tf = INFINITY;
    *axis = -1;
    for (int i = 0; i < 3; ++i) {
        if (d[i] == 0.0) {
            if (o[i] < lo[i] || o[i] > hi[i]) return 0;
            continue;
        }
        double t1 = (lo[i] - o[i]) / d[i], t2 = (hi[i] - o[i]) / d[i];
        double a = d[i] > 0.0 ? t1 : t2, b = d[i] > 0.0 ? t2 : t1;
        if (a > *tn) { *tn = a; *axis = i; }
        if (b < *tf) *tf = b;
    }
    return *tn <= *tf;
}

/* The first contact of o + t d (t in [0, tmax]) with the box [lo, hi] rounded by rad: t, the
 * closest point q of the box and the unit normal n there (zero when already touching at 0).
 * Returns 0 for no contact. The point enters the grown box [lo - rad, hi + rad] first; where it
 * enters beside an edge or a corner of the box, the contact is with that edge's capsule. */
int sc__sw_rounded_box(const double *o, const double *d, double tmax, const double *lo, const double *hi,
                            double rad, double *t, double *q, double *n)
{
    n[0] = n[1] = n[2] = 0.0;
    if (sc__sw_box_dist2(o, lo, hi, q) <= rad * rad) {
        *t = 0.0;
        return 1;
    }
    double glo[3], ghi[3], tn, tf;
    int axis;
    for (int i = 0; i < 3; ++i) { glo[i] = lo[i] - rad; ghi[i] = hi[i] + rad; }
    if (!sc__sw_slab(o, d, glo, ghi, &tn, &tf, &axis) || tf < 0.0 || tn > tmax) return 0;
    double te = tn > 0.0 ? tn : 0.0, p[3];
    int out = 0; /* axes other than the entry one where the point is beside the box */
    for (int i = 0; i < 3; ++i) {
        p[i] = o[i] + te * d[i];
        if (i != axis && (p[i] < lo[i] || p[i] > hi[i])) ++out;
    }
    if (out == 0 || rad == 0.0) {
        /* a face: the entry face of the grown box */
        *t = te;
        for (int i = 0; i < 3; ++i) p[i] = o[i] + te * d[i];
        (void)sc__sw_box_dist2(p, lo, hi, q);
        n[axis] = d[axis] > 0.0 ? -1.0 : 1.0;
        return 1;
    }
    /* an edge or corner region: the capsules of the box edges at that side */
    int side[3];
    for (int i = 0; i < 3; ++i) side[i] = p[i] < lo[i] ? 0 : (p[i] > hi[i] ? 1 : (d[i] > 0.0 ? 0 : 1));
    side[axis] = d[axis] > 0.0 ? 0 : 1;
    double best = -1.0;
    for (int k = 0; k < 3; ++k) {
        /* the edge along axis k through the corner (side[i] of the other axes) */
        double a[3], b[3];
        for (int i = 0; i < 3; ++i) a[i] = b[i] = side[i] ? hi[i] : lo[i];
        a[k] = lo[k];
        b[k] = hi[k];
        double tc = sc__sw_ray_capsule(o, d, a, b, rad);
        if (tc >= 0.0 && (best < 0.0 || tc < best)) best = tc;
    }
    if (best < 0.0 || best > tmax) return 0;
    *t = best;
    for (int i = 0; i < 3; ++i) p[i] = o[i] + best * d[i];
    (void)sc__sw_box_dist2(p, lo, hi, q);
    double v[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]}, len = sqrt(sc_s_dot(v, v));
    if (len > 0.0)
        for (int i = 0; i < 3; ++i) n[i] = v[i] / len;
    return 1;
}

static void sc_s_f3(double *out, sc_vec3 v) { out[0] = v.x; out[1] = v.y; out[2] = v.z; }

/* The moving shape against an AABB object. */
static int sc_s_vs_aabb(const sc_mover *m, const sc_aabb *b, sc_shit *h)
{
    double lo[3], hi[3];
    sc_s_f3(lo, b->min);
    sc_s_f3(hi, b->max);
    if (!m->box) return sc__sw_rounded_box(m->o, m->d, m->tmax, lo, hi, m->r, &h->t, h->p, h->n);
    double glo[3], ghi[3], q[3];
    for (int i = 0; i < 3; ++i) { glo[i] = lo[i] - m->e[i]; ghi[i] = hi[i] + m->e[i]; }
    if (!sc__sw_rounded_box(m->o, m->d, m->tmax, glo, ghi, 0.0, &h->t, q, h->n)) return 0;
    double c[3];
    for (int i = 0; i < 3; ++i) c[i] = m->o[i] + h->t * m->d[i];
    (void)sc__sw_box_dist2(c, lo, hi, h->p); /* the object's point nearest the box's centre */
    return 1;
}

/* The moving shape against a sphere object (C, R). */
static int sc_s_vs_sphere(const sc_mover *m, const sc_sphere *s, sc_shit *h)
{
    double c[3], R = s->radius, v[3], q[3], len;
    sc_s_f3(c, s->center);
    if (!m->box) {
        double t = sc__sw_ray_ball(m->o, m->d, c, R + m->r);
        if (t < 0.0 || t > m->tmax) return 0;
        h->t = t;
        for (int i = 0; i < 3; ++i) v[i] = m->o[i] + t * m->d[i] - c[i];
    } else {
        double lo[3], hi[3];
        for (int i = 0; i < 3; ++i) { lo[i] = c[i] - m->e[i]; hi[i] = c[i] + m->e[i]; }
        if (!sc__sw_rounded_box(m->o, m->d, m->tmax, lo, hi, R, &h->t, q, h->n)) return 0;
        for (int i = 0; i < 3; ++i) v[i] = m->o[i] + h->t * m->d[i] - q[i];
    }
    len = sqrt(sc_s_dot(v, v));
    for (int i = 0; i < 3; ++i) {
        h->n[i] = h->t > 0.0 && len > 0.0 ? v[i] / len : 0.0;
        h->p[i] = len > 0.0 ? c[i] + R * v[i] / len : c[i];
    }
    if (h->t == 0.0) {
        /* already touching: a point of both. A sphere: its own centre when that is in the object,
         * else the object's point nearest it; a box: its point nearest the object's centre. */
        for (int i = 0; i < 3; ++i) {
            if (!m->box && len <= R) h->p[i] = m->o[i];
            if (m->box) h->p[i] = c[i] < m->o[i] - m->e[i] ? m->o[i] - m->e[i] : (c[i] > m->o[i] + m->e[i] ? m->o[i] + m->e[i] : c[i]);
        }
    }
    return 1;
}

/* A sphere moving against an OBB: the rounded box in the OBB's frame (coordinates along its axes: the
 * slab set for r = 0; docs/semantics.md, "Sweeps"). */
static int sc_s_sphere_vs_obb(const sc_mover *m, const sc_obb *b, sc_shit *h)
{
    double c[3], ax[3][3], ol[3], dl[3], lo[3], hi[3], ql[3], nl[3];
    sc_s_f3(c, b->center);
    for (int k = 0; k < 3; ++k) sc_s_f3(ax[k], b->axes[k]);
    double half[3] = {b->half.x, b->half.y, b->half.z};
    for (int k = 0; k < 3; ++k) {
        double mo[3] = {m->o[0] - c[0], m->o[1] - c[1], m->o[2] - c[2]};
        ol[k] = sc_s_dot(mo, ax[k]);
        dl[k] = sc_s_dot(m->d, ax[k]);
        lo[k] = -half[k];
        hi[k] = half[k];
    }
    if (!sc__sw_rounded_box(ol, dl, m->tmax, lo, hi, m->r, &h->t, ql, nl)) return 0;
    sc__sw_obb_back(b, ql, nl, h->p, h->n);
    return 1;
}

/* The point of the slab set whose frame coordinates are ql: c + A^-1 ql, the columns of A^-1 being
 * f_i / D with f_i = a_j x a_k (i, j, k cyclic) and D = det A (a_j . f_i = D delta_ij), so that
 * a_j . (p - c) = ql_j (mapping back with the axes themselves, A^T, would leave the slabs by up to
 * the skew times the halves). The normal nl maps back with the axes (a face's is a_i), unit. */
void sc__sw_obb_back(const sc_obb *b, const double *ql, const double *nl, double *p, double *n)
{
    double c[3], ax[3][3], f[3][3];
    sc_s_f3(c, b->center);
    for (int k = 0; k < 3; ++k) sc_s_f3(ax[k], b->axes[k]);
    for (int i = 0; i < 3; ++i) {
        const double *a1 = ax[(i + 1) % 3], *a2 = ax[(i + 2) % 3];
        f[i][0] = a1[1] * a2[2] - a1[2] * a2[1];
        f[i][1] = a1[2] * a2[0] - a1[0] * a2[2];
        f[i][2] = a1[0] * a2[1] - a1[1] * a2[0];
    }
    double D = sc_s_dot(ax[0], f[0]), nw[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        p[i] = c[i] + (ql[0] * f[0][i] + ql[1] * f[1][i] + ql[2] * f[2][i]) / D;
        nw[i] = nl[0] * ax[0][i] + nl[1] * ax[1][i] + nl[2] * ax[2][i];
    }
    double len = sqrt(sc_s_dot(nw, nw));
    for (int i = 0; i < 3; ++i) n[i] = len > 0.0 ? nw[i] / len : 0.0;
}

/* Object o against the moving shape (cut: see sc__sw_capsule_object). */
static int sc_s_object(const sc_world *w, const sc_mover *m, int o, sc_shit *h, double cut)
{
    if (m->kind == SC_MOVER_CAPSULE) return sc__sw_capsule_object(w, m, o, h, cut);
    switch (w->kind[o]) {
    case SC_SHAPE_CAPSULE: return sc__sw_vs_capsule(m, &w->capsules[w->slot[o]], h, cut);
    case SC_SHAPE_AABB: return sc_s_vs_aabb(m, &w->bounds[o], h);
    case SC_SHAPE_SPHERE: return sc_s_vs_sphere(m, &w->spheres[w->slot[o]], h);
    default:
        /* a box: its contact point is found only for the best contact (sc__sweep_batch) */
        return m->box ? sc__sweep_box_obb(m->o, m->d, m->tmax, m->e, &w->obbs[w->slot[o]], &h->t, h->n)
                      : sc_s_sphere_vs_obb(m, &w->obbs[w->slot[o]], h);
    }
}

/* Whether the moving shape may touch a box of bounds b before t = limit: the centre's path
 * against b grown by the shape's extent (and a margin of 2^-20 relative, so that rounding here
 * never loses a contact the exact tests find). A sphere touches an OBB when its centre is within r
 * of the box in the OBB's frame, that is within r ||A^-1|| <= r (1 + 1.6e-4) of the slab set in the
 * world (A: the axes as rows, sigma_min(A)^2 >= 1 - ||A A^T - I|| >= 1 - 3.01e-4 for valid axes),
 * so a sphere's extent is grown by 2^-12 of r for that. */
static int sc_s_cull(const sc_mover *m, const float *lo, const float *hi, int stride, int l, double limit)
{
    double glo[3], ghi[3], tn, tf;
    int axis;
    for (int i = 0; i < 3; ++i) {
        double a = lo[i * stride + l], b = hi[i * stride + l];
        double g = m->ext[i] + 9.5367431640625e-07 * (fabs(a) + fabs(b) + m->ext[i] + 1.0);
        glo[i] = a - g;
        ghi[i] = b + g;
    }
    if (!sc__sw_slab(m->o, m->d, glo, ghi, &tn, &tf, &axis)) return 0;
    return tf >= 0.0 && tn <= limit;
}

void sc__sw_offer(sc_sq *q, int o)
{
    if (!sc__passes(q->w, o, q->f->mask, q->f->filtered, q->f->exclude)) return;
    sc_shit h;
    /* the BVH path: contacts later than the best so far (or tmax) lose, ties do not */
    double cut = !q->cull ? -1.0 : (q->best.index >= 0 && q->best.t < q->m->tmax ? q->best.t : q->m->tmax);
    if (!sc_s_object(q->w, q->m, o, &h, cut)) return;
    if (h.t == 0.0 && q->f->inside == SC_INSIDE_SKIP && h.n[0] == 0.0 && h.n[1] == 0.0 && h.n[2] == 0.0) return;
    if (q->best.index < 0 || h.t < q->best.t || (h.t == q->best.t && o < q->best.index)) {
        h.index = o;
        q->best = h;
    }
}

static void sc_s_offer(void *ctx, int o) { sc__sw_offer(ctx, o); }

/* Bounds that the shape can reach before the best contact so far (or tmax). */
static unsigned sc_s_cull_walk(void *ctx, const float *base, int width, unsigned lanes)
{
    const sc_sq *q = ctx;
    double limit = q->best.index >= 0 ? q->best.t : q->m->tmax;
    unsigned keep = 0;
    for (int l = 0; l < width; ++l)
        if (lanes >> l & 1u) keep |= (unsigned)sc_s_cull(q->m, base, base + 3 * width, width, l, limit) << l;
    return keep;
}

/* Sweep p (its kind's floats) as a moving shape. */
static void sc_s_mover(const float *p, int kind, sc_mover *m)
{
    memset(m, 0, sizeof *m);
    m->kind = kind;
    m->box = kind == SC_MOVER_BOX;
    if (kind == SC_MOVER_CAPSULE) {
        /* a xyz, b xyz, dir xyz, tmax, radius: the centre is the midpoint (exact in double), the
         * reach half the segment's extent plus the radius (grown as a sphere's, see sc_s_cull) */
        m->r = p[10];
        m->tmax = p[9];
        for (int k = 0; k < 3; ++k) {
            m->a[k] = p[k];
            m->b[k] = p[3 + k];
            m->d[k] = p[6 + k];
            m->o[k] = (m->a[k] + m->b[k]) * 0.5;
            m->ext[k] = fabs(m->b[k] - m->a[k]) * 0.5 + (double)p[10] * (1.0 + 2.44140625e-4);
        }
        return;
    }
    for (int k = 0; k < 3; ++k) { m->o[k] = p[k]; m->d[k] = p[3 + k]; }
    m->tmax = p[6];
    if (m->box) {
        for (int k = 0; k < 3; ++k) m->e[k] = m->ext[k] = p[7 + k];
    } else {
        m->r = p[7];
        m->ext[0] = m->ext[1] = m->ext[2] = (double)p[7] * (1.0 + 2.44140625e-4); /* 2^-12: see sc_s_cull */
    }
}

/* Numbers at 2^40 or beyond. There the pieces' double results may lie farther from the exact
 * contact than the BVH's culling margins allow for, so that culling could change which object
 * wins: such sweeps, and every sweep of a world holding such numbers, test every object as the
 * brute force does (the same bits; docs/semantics.md, "Sweeps"). */
#define SC_SWEEP_BIG 1099511627776.0 /* 2^40 */
static int sc_s_big2(double lo, double hi) { return !(fabs(lo) < SC_SWEEP_BIG && fabs(hi) < SC_SWEEP_BIG); }

/* Whether the world's BVH bounds or far objects reach 2^40. */
static int sc_s_big_world(const sc_world *w)
{
    if (w->nfar > 0) return 1;
    if (w->root == SC_NO_CHILD) return 0;
    if (w->root < 0) {
        const sc_group *g = &w->groups[~w->root];
        for (int l = 0; l < 4; ++l)
            for (int a = 0; a < 3; ++a)
                if (g->idx[l] >= 0 && sc_s_big2(g->lo[a][l], g->hi[a][l])) return 1;
        return 0;
    }
    const sc_node *nd = &w->nodes[w->root];
    for (int l = 0; l < SC_NODE_W; ++l)
        for (int a = 0; a < 3; ++a)
            if ((nd->valid >> l & 1) && sc_s_big2(nd->bmin[a][l], nd->bmax[a][l])) return 1;
    return 0;
}

/* Whether the sweep's position, reach, direction or path (when tmax is finite) reaches 2^40. */
static int sc_s_big_mover(const sc_mover *m)
{
    for (int k = 0; k < 3; ++k) {
        if (sc_s_big2(m->o[k], m->ext[k]) || !(fabs(m->d[k]) < SC_SWEEP_BIG)) return 1;
        if (m->tmax < INFINITY && !(fabs(m->d[k]) * m->tmax < SC_SWEEP_BIG)) return 1;
    }
    return 0;
}

sc_status sc__sweep_batch(const sc_world *w, const float *sweeps, int32_t n, int kind, float *t, int32_t *index,
                          float *normal, float *point, const sc_wfilt *filter, int brute)
{
    int per = kind == SC_MOVER_BOX ? SC_BOX_SWEEP_FLOATS : kind == SC_MOVER_CAPSULE ? SC_CAPSULE_SWEEP_FLOATS : SC_SPHERE_SWEEP_FLOATS;
    int box = kind == SC_MOVER_BOX;
    int big_world = !brute && sc_s_big_world(w);
    for (int i = 0; i < n; ++i) {
        const float *p = sweeps + (size_t)i * (size_t)per;
        sc_mover m;
        sc_s_mover(p, kind, &m);
        sc_wray f;
        memset(&f, 0, sizeof f);
        f.mask = filter->mask;
        f.exclude = filter->exclude ? filter->exclude[i] : -1;
        f.inside = filter->inside;
        f.filtered = filter->masked || f.exclude >= 0;
        int every = brute || big_world || sc_s_big_mover(&m);
        sc_sq qy = {w, &m, &f, {0.0, -1, {0, 0, 0}, {0, 0, 0}}, !every};
        if (every) {
            for (int o = 0; o < w->count; ++o) sc__sw_offer(&qy, o);
        } else if (!sc__sw_walk(&qy)) {
            sc_walker k = {sc_s_cull_walk, sc_s_offer, NULL, &qy, NULL};
            sc__walk(w, &k);
        }
        if (box && qy.best.index >= 0 && w->kind[qy.best.index] == SC_SHAPE_OBB) /* the point, for the best only */
            sc__sweep_box_obb_point(m.o, m.d, qy.best.t, m.e, qy.best.n, &w->obbs[w->slot[qy.best.index]], qy.best.p);
        const sc_shit h = qy.best;
        t[i] = h.index >= 0 ? (float)(h.t < FLT_MAX ? h.t : FLT_MAX) : 0.0f;
        index[i] = h.index;
        for (int k = 0; k < 3; ++k) {
            if (normal) normal[3 * i + k] = h.index >= 0 ? (float)h.n[k] + 0.0f : 0.0f;
            if (point) point[3 * i + k] = h.index >= 0 ? (float)h.p[k] + 0.0f : 0.0f;
        }
    }
    return SC_OK;
}
