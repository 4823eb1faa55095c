/* slabcast worlds: overlaps. Every object that shares a point with a query volume (an AABB, a
 * sphere, an OBB, a capsule or a frustum of six planes), in ascending index order; closed shapes, so
 * touching counts. docs/semantics.md, "Overlaps".
 *
 * AABB and sphere volumes against AABB and sphere objects are decided exactly (float compares;
 * exactly summed squared distances: sc__overlap_sphere_aabb, sc__overlap_sphere_sphere). Pairs
 * between two polytopes (an AABB, an OBB or a frustum as sets of half-spaces n.x <= b) are exact
 * too: they overlap when some vertex of their combined arrangement satisfies every half-space,
 * which double precision decides when the margin is clear, and an exact Farkas/Helly test
 * otherwise (sc__halfspaces_empty_exact). A sphere against an OBB (its slabs) or a frustum is
 * exact too: the polytope's point nearest the centre, from the signs of sc_ball.c. The BVH culls
 * with the volume's bounds (or, for a frustum, the nodes wholly outside one plane). Before the
 * polytope test, a conservative filter with a rigorous margin (sc_o_quick) rejects, accepts, or
 * drops the half-spaces holding the whole object; the brute force goes without it. Capsules, as
 * volumes or objects: sc_overlap_capsule.c (exact against AABBs, spheres and capsules). */
#include "sc_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Half-spaces n.x <= b in double. */
typedef struct sc_poly {
    double n[12][3], b[12];
    sc_xhs x[12]; /* the same half-spaces for the exact test: float normals, exact b terms */
    int m;
    int paired;   /* half-spaces come in opposite pairs (2i, 2i + 1: AABB and OBB slabs) */
} sc_poly;

typedef struct sc_ovol {
    int kind;            /* SC_SHAPE_AABB, SC_SHAPE_SPHERE, SC_SHAPE_OBB, SC_SHAPE_CAPSULE, or 0 for a frustum */
    sc_aabb box;         /* the AABB; for the others, bounds (unused for a frustum) */
    sc_sphere sphere;
    sc_obb obb;
    sc_capsule capsule;
    sc_poly poly;        /* OBB and frustum as half-spaces */
} sc_ovol;

static double sc_o_dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Adds n.x <= b0 + b1 + b2 + b3 (nb terms; normals are floats, the b terms exact doubles). */
static void sc_o_addx(sc_poly *p, float nx, float ny, float nz, const double *b, int nb)
{
    sc_xhs *x = &p->x[p->m];
    x->n[0] = nx;
    x->n[1] = ny;
    x->n[2] = nz;
    x->nb = nb;
    double sum = 0.0;
    for (int i = 0; i < nb; ++i) sum += (x->b[i] = b[i]);
    p->n[p->m][0] = nx;
    p->n[p->m][1] = ny;
    p->n[p->m][2] = nz;
    p->b[p->m++] = sum;
}

static void sc_o_add(sc_poly *p, float nx, float ny, float nz, double b) { sc_o_addx(p, nx, ny, nz, &b, 1); }

static void sc_o_aabb_poly(const sc_aabb *a, sc_poly *p)
{
    p->m = 0;
    p->paired = 1;
    sc_o_add(p, 1, 0, 0, a->max.x);
    sc_o_add(p, -1, 0, 0, -(double)a->min.x);
    sc_o_add(p, 0, 1, 0, a->max.y);
    sc_o_add(p, 0, -1, 0, -(double)a->min.y);
    sc_o_add(p, 0, 0, 1, a->max.z);
    sc_o_add(p, 0, 0, -1, -(double)a->min.z);
}

/* An OBB as its slabs: |a_i.(x - c)| <= h_i. */
static void sc_o_obb_poly(const sc_obb *o, sc_poly *p)
{
    p->m = 0;
    p->paired = 1;
    double h[3] = {o->half.x, o->half.y, o->half.z};
    for (int i = 0; i < 3; ++i) {
        sc_vec3 a = o->axes[i];
        /* a.(x - c) <= h and -a.(x - c) <= h: b = +-a.c + h, the products exact in double */
        double up[4] = {(double)a.x * o->center.x, (double)a.y * o->center.y, (double)a.z * o->center.z, h[i]};
        double dn[4] = {-up[0], -up[1], -up[2], h[i]};
        sc_o_addx(p, a.x, a.y, a.z, up, 4);
        sc_o_addx(p, -a.x, -a.y, -a.z, dn, 4);
    }
}

/* Whether the intersection of the half-spaces of p and q has a point. In double first: every
 * vertex of the combined arrangement (three planes with independent normals), and how far the
 * best one is inside or outside the other planes (its largest violation, relative to the terms'
 * size). A
 * well-conditioned vertex inside by more than 1e-9 is a point of both; every vertex outside by
 * more than 1e-9, with no ill-conditioned triple (|det| below 1e-4 of the normals' sizes and not
 * exactly zero), means none. Otherwise the exact test decides (sc__halfspaces_empty_exact). */
static int sc_o_poly_poly(const sc_poly *p, const sc_poly *q)
{
    sc_poly all = *p;
    for (int k = 0; k < q->m; ++k) {
        all.x[all.m] = q->x[k];
        for (int r = 0; r < 3; ++r) all.n[all.m][r] = q->n[k][r];
        all.b[all.m++] = q->b[k];
    }
    /* Normal directions: an opposite pair shares one (its determinants only change sign), so the
     * exact sign of a nearly zero determinant is computed once per triple of directions. */
    int dir[12], nd = 0;
    for (int h = 0; h < p->m; ++h) dir[h] = p->paired ? h / 2 : h;
    nd = p->paired ? p->m / 2 : p->m;
    for (int h = 0; h < q->m; ++h) dir[p->m + h] = nd + (q->paired ? h / 2 : h);
    signed char zero[12][12][12]; /* -1 unknown, 1 exactly zero, 0 not */
    memset(zero, -1, sizeof zero);
    double best = INFINITY;
    int ill = 0;
    for (int i = 0; i < all.m; ++i) {
        for (int j = i + 1; j < all.m; ++j) {
            if (dir[i] == dir[j]) continue; /* parallel: no vertex */
            const double *a = all.n[i], *b = all.n[j];
            double ab[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
            for (int k = j + 1; k < all.m; ++k) {
                if (dir[k] == dir[i] || dir[k] == dir[j]) continue;
                const double *c = all.n[k];
                double det = sc_o_dot(ab, c);
                double size = sqrt(sc_o_dot(a, a) * sc_o_dot(b, b) * sc_o_dot(c, c));
                if (!(fabs(det) > 1e-4 * size)) {
                    signed char *z = &zero[dir[i]][dir[j]][dir[k]];
                    if (*z < 0) *z = sc__det3_sign_exact(all.x[i].n, all.x[j].n, all.x[k].n) == 0;
                    if (!*z) ill = 1;
                    continue;
                }
                /* Cramer: x = (b_i (b x c) + b_j (c x a) + b_k (a x b)) / det */
                double bc[3] = {b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2], b[0] * c[1] - b[1] * c[0]};
                double ca[3] = {c[1] * a[2] - c[2] * a[1], c[2] * a[0] - c[0] * a[2], c[0] * a[1] - c[1] * a[0]};
                double x[3];
                for (int r = 0; r < 3; ++r) x[r] = (all.b[i] * bc[r] + all.b[j] * ca[r] + all.b[k] * ab[r]) / det;
                /* the vertex is on planes i, j, k by construction: the others decide */
                double worst = -INFINITY;
                for (int h = 0; h < all.m; ++h) {
                    if (h == i || h == j || h == k) continue;
                    double s = sc_o_dot(all.n[h], x) - all.b[h];
                    double scale = fabs(all.b[h]) + fabs(all.n[h][0] * x[0]) + fabs(all.n[h][1] * x[1]) + fabs(all.n[h][2] * x[2]);
                    double v = scale > 0.0 ? s / scale : s;
                    if (v > worst) worst = v;
                }
                if (worst < best) best = worst;
            }
        }
    }
    if (!ill && best < -1e-9) return 1;
    if (!ill && best > 1e-9) return 0;
    return !sc__halfspaces_empty_exact(all.x, all.m);
}

/* A sphere and a polytope (an OBB's slabs, or a frustum's planes): exactly (sc_ball.c). */
static int sc_o_sphere_poly(const sc_sphere *s, const sc_poly *p)
{
    return sc__ball_meets_halfspaces(p->x, p->m, p->paired, s->center, s->radius);
}

/* The quick filter's margin, relative to the size of the terms summed (SC_O_QUICK_EPS * scale).
 * Each signed distance below is a sum of at most 7 terms (exact b terms; products of a float
 * and a float or double, or of a float and a difference of doubles, each rounded), so its
 * rounding error is below 10 * 2^-53 * scale (< 2e-15 * scale): the margin holds it 500 times
 * over. */
#define SC_O_QUICK_EPS 1e-12

/* Whether the point x is inside every half-space of p by more than the quick margin. */
static int sc_o_point_inside(const sc_poly *p, const double *x)
{
    for (int k = 0; k < p->m; ++k) {
        double s = -p->b[k], scale = 0.0;
        for (int i = 0; i < p->x[k].nb; ++i) scale += fabs(p->x[k].b[i]);
        for (int a = 0; a < 3; ++a) {
            double t = p->n[k][a] * x[a];
            s += t;
            scale += fabs(t);
        }
        if (!(s < -SC_O_QUICK_EPS * scale)) return 0;
    }
    return 1;
}

/* 1 when a corner of the box b is inside every half-space of p by more than the quick margin
 * (the corners' coordinates are floats: each product is exact), else -1. */
static int sc_o_corner_inside(const sc_poly *p, const sc_aabb *b)
{
    for (int c = 0; c < 8; ++c) {
        double x[3] = {c & 1 ? b->max.x : b->min.x, c & 2 ? b->max.y : b->min.y, c & 4 ? b->max.z : b->min.z};
        if (sc_o_point_inside(p, x)) return 1;
    }
    return -1;
}

/* 1 when a point near a corner of the OBB o (c + sum of +-0.999 h_i a_i, checked to be inside its
 * slabs |a_i.(x - c)| <= h_i by more than the quick margin: the axes are not exactly orthonormal)
 * is inside every half-space of p by more than the margin, else -1. */
static int sc_o_obb_corner_inside(const sc_poly *p, const sc_obb *o)
{
    const double h[3] = {o->half.x, o->half.y, o->half.z};
    for (int c = 0; c < 8; ++c) {
        double x[3], d[3];
        for (int a = 0; a < 3; ++a) {
            x[a] = sc_v3_at(o->center, a);
            for (int i = 0; i < 3; ++i) x[a] += ((c >> i) & 1 ? 0.999 : -0.999) * h[i] * sc_v3_at(o->axes[i], a);
            d[a] = x[a] - sc_v3_at(o->center, a);
        }
        int in = 1;
        for (int i = 0; i < 3 && in; ++i) {
            double s = 0.0, scale = 0.0;
            for (int a = 0; a < 3; ++a) {
                double t = sc_v3_at(o->axes[i], a) * d[a];
                s += t;
                scale += fabs(t);
            }
            in = fabs(s) + SC_O_QUICK_EPS * scale < h[i];
        }
        if (in && sc_o_point_inside(p, x)) return 1;
    }
    return -1;
}

/* A conservative decision for a box-like object against a polytope volume p, before the exact
 * path: 0 when the object's bounds b lie wholly outside one half-space by more than the margin
 * (no common point), 1 when the point c (a point of the object) is inside every half-space by
 * more than the margin, or when the bounds are (a common point), -1 otherwise. Then keep gets
 * the half-spaces that do not hold the whole of b by more than the margin: the others contain the
 * object, so dropping them leaves its intersection with the volume the same set, for the exact
 * path to decide with fewer (and, for a frustum, no nearly parallel near and far) planes. When
 * the bounds are the object (solid: an AABB object), a corner of them inside every kept
 * half-space by more than the margin is a common point too (1). */
static int sc_o_quick(const sc_poly *p, const sc_aabb *b, const double *c, int solid, sc_poly *keep)
{
    int inside = 1;
    keep->m = 0;
    keep->paired = 0;
    for (int k = 0; k < p->m; ++k) {
        const double *n = p->n[k];
        double bs = 0.0; /* the exact b terms' size: p->b is their rounded sum */
        for (int i = 0; i < p->x[k].nb; ++i) bs += fabs(p->x[k].b[i]);
        /* the bounds' corners least and most along n: outside when even the least is, the
         * half-space holding the bounds when the most is inside */
        double lo = -p->b[k], hi = -p->b[k], ls = bs, hs = bs;
        for (int a = 0; a < 3; ++a) {
            double tl = n[a] * (n[a] > 0.0 ? sc_v3_at(b->min, a) : sc_v3_at(b->max, a));
            double th = n[a] * (n[a] > 0.0 ? sc_v3_at(b->max, a) : sc_v3_at(b->min, a));
            lo += tl;
            hi += th;
            ls += fabs(tl);
            hs += fabs(th);
        }
        if (lo > SC_O_QUICK_EPS * ls) return 0;
        if (!(hi < -SC_O_QUICK_EPS * hs)) {
            keep->x[keep->m] = p->x[k];
            for (int a = 0; a < 3; ++a) keep->n[keep->m][a] = n[a];
            keep->b[keep->m++] = p->b[k];
        }
        if (inside) {
            double u = -p->b[k], us = bs;
            for (int a = 0; a < 3; ++a) {
                double t = n[a] * c[a];
                u += t;
                us += fabs(t);
            }
            if (!(u < -SC_O_QUICK_EPS * us)) inside = 0;
        }
    }
    if (inside || keep->m == 0) return 1;
    return solid ? sc_o_corner_inside(keep, b) : -1;
}

/* An AABB or OBB object against a polytope volume p: the quick filter, then the exact path (on
 * the half-spaces that cut the object's bounds). */
static int sc_o_poly_object(const sc_poly *p, const sc_aabb *ob, const sc_obb *oo, int quick)
{
    sc_poly keep;
    if (quick) {
        /* a point of the object: the OBB's centre, or the box's midpoint (in the box: rounding
         * is monotone and min + min, max + max are exact) */
        double c[3];
        for (int a = 0; a < 3; ++a)
            c[a] = oo ? sc_v3_at(oo->center, a) : ((double)sc_v3_at(ob->min, a) + sc_v3_at(ob->max, a)) * 0.5;
        int r = sc_o_quick(p, ob, c, !oo, &keep);
        if (r < 0 && oo) r = sc_o_obb_corner_inside(&keep, oo);
        if (r >= 0) return r;
        p = &keep;
    }
    sc_poly op;
    if (oo) sc_o_obb_poly(oo, &op);
    else sc_o_aabb_poly(ob, &op);
    return sc_o_poly_poly(p, &op);
}

/* A capsule against object o (any kind): sc_overlap_capsule.c, and the exact segment distance. */
static int sc_o_capsule_object(const sc_world *w, const sc_capsule *c, int o)
{
    switch (w->kind[o]) {
    case SC_SHAPE_AABB: return sc__overlap_capsule_aabb(c, &w->bounds[o]);
    case SC_SHAPE_SPHERE: {
        const sc_sphere *s = &w->spheres[w->slot[o]];
        return sc__segments_within(c->a, c->b, s->center, s->center, c->radius, s->radius);
    }
    case SC_SHAPE_OBB: {
        sc_poly op;
        sc_o_obb_poly(&w->obbs[w->slot[o]], &op);
        return sc__overlap_capsule_poly(c, op.x, op.m, 1);
    }
    default: {
        const sc_capsule *k = &w->capsules[w->slot[o]];
        return sc__segments_within(c->a, c->b, k->a, k->b, c->radius, k->radius);
    }
    }
}

/* Object o against the volume (quick: the conservative filter first; the brute force goes
 * without it, the reference the filtered path is checked against). */
static int sc_o_test(const sc_world *w, const sc_ovol *v, int o, int quick)
{
    int k = w->kind[o];
    if (v->kind == SC_SHAPE_CAPSULE) return sc_o_capsule_object(w, &v->capsule, o);
    const sc_aabb *ob = &w->bounds[o];
    if (k == SC_SHAPE_CAPSULE) {
        /* a capsule object against an AABB, a ball, an OBB or a frustum volume */
        const sc_capsule *c = &w->capsules[w->slot[o]];
        if (v->kind == SC_SHAPE_AABB) return sc__overlap_capsule_aabb(c, &v->box);
        if (v->kind == SC_SHAPE_SPHERE)
            return sc__segments_within(c->a, c->b, v->sphere.center, v->sphere.center, c->radius, v->sphere.radius);
        return sc__overlap_capsule_poly(c, v->poly.x, v->poly.m, v->poly.paired);
    }
    const sc_sphere *os = k == SC_SHAPE_SPHERE ? &w->spheres[w->slot[o]] : NULL;
    const sc_obb *oo = k == SC_SHAPE_OBB ? &w->obbs[w->slot[o]] : NULL;
    sc_poly op;
    switch (v->kind) {
    case SC_SHAPE_AABB:
        if (k == SC_SHAPE_AABB)
            return !(ob->max.x < v->box.min.x || ob->min.x > v->box.max.x || ob->max.y < v->box.min.y ||
                     ob->min.y > v->box.max.y || ob->max.z < v->box.min.z || ob->min.z > v->box.max.z);
        if (os) return sc__overlap_sphere_aabb(os, &v->box);
        {
            sc_poly qp;
            sc_o_aabb_poly(&v->box, &qp);
            return sc_o_poly_object(&qp, ob, oo, quick);
        }
    case SC_SHAPE_SPHERE:
        if (k == SC_SHAPE_AABB) return sc__overlap_sphere_aabb(&v->sphere, ob);
        if (os) return sc__overlap_sphere_sphere(&v->sphere, os);
        sc_o_obb_poly(oo, &op);
        return sc_o_sphere_poly(&v->sphere, &op);
    default: /* OBB or frustum: a polytope */
        if (os) return sc_o_sphere_poly(os, &v->poly);
        return sc_o_poly_object(&v->poly, ob, oo, quick);
    }
}

/* x rounded down (lo) or up to a float: outward. */
static float sc_o_outward(double x, int lo)
{
    float f = (float)x;
    if (lo ? (double)f > x : (double)f < x) f = nextafterf(f, lo ? -INFINITY : INFINITY);
    return f;
}

/* The culling box of a volume other than a frustum (out: min x y z, max x y z): its bounds grown
 * by 2^-20 of their size plus 2^-20, rounded outward to floats. The bounds hold the volume up
 * to the rounding of their float ends (a sphere's centre -+ r, a capsule's ends -+ r; an AABB's
 * and an OBB's, sc__obb_bounds, hold it exactly), which is far below the growth: a BVH bound
 * that misses this box holds no object that meets the volume. */
static void sc_o_cull_box(const sc_ovol *v, float *out)
{
    for (int a = 0; a < 3; ++a) {
        double ql = sc_v3_at(v->box.min, a), qh = sc_v3_at(v->box.max, a);
        double g = 9.5367431640625e-07 * (fabs(ql) + fabs(qh) + 1.0);
        out[a] = sc_o_outward(ql - g, 1);
        out[3 + a] = sc_o_outward(qh + g, 0);
    }
}

/* A frustum's planes for the culling: splats of each normal's components and bound (float:
 * the planes' own numbers) and of the margin's factor. */
typedef struct sc_ofr {
    f4 n[6][3], b[6], eps, tiny;
    int neg[6][3]; /* the normal's component is not positive: the box's nearest corner is at its maximum */
    int m;         /* the planes (v->poly.m, at most 6) */
} sc_ofr;

static void sc_o_frustum_prep(const sc_ovol *v, sc_ofr *f)
{
    f->m = v->poly.m;
    for (int k = 0; k < f->m; ++k) {
        for (int a = 0; a < 3; ++a) {
            f->n[k][a] = f4_splat((float)v->poly.n[k][a]);
            f->neg[k][a] = !(v->poly.n[k][a] > 0.0);
        }
        f->b[k] = f4_splat((float)v->poly.b[k]);
    }
    f->eps = f4_splat(1e-5f);
    f->tiny = f4_splat(0x1p-120f);
}

/* A frustum: the lanes (of lanes) of width-wide SoA bounds at base that may meet it, that is those
 * not wholly outside one plane n.x <= b. The box's corner least along n, c, is outside when
 * n.c - b (summed in float, s) exceeds 1e-5 of the terms' size (|b| + sum |n_a c_a|, in float)
 * plus 2^-120: the float sum is within 3.1 2^-24 of the terms' size of the exact one (2^-148 more
 * where products underflow), so the exact n.c - b is then positive. An overflow gives an infinity
 * or a NaN, which keeps the lane. */
static unsigned sc_o_cull_frustum(const sc_ofr *f, const float *base, int width, unsigned lanes)
{
    unsigned keep = 0;
    for (int h = 0; h < width; h += 4) {
        f4 out = f4_lt(f4_splat(1.0f), f4_splat(0.0f)); /* no lane */
        for (int k = 0; k < f->m; ++k) {
            f4 t[3];
            for (int a = 0; a < 3; ++a) t[a] = f4_mul(f->n[k][a], f4_load(base + h + a * width + (f->neg[k][a] ? 3 * width : 0)));
            f4 d = f4_sub(f4_add(f4_add(t[0], t[1]), t[2]), f->b[k]);
            f4 scale = f4_add(f4_add(f4_add(f4_abs(f->b[k]), f4_abs(t[0])), f4_abs(t[1])), f4_abs(t[2]));
            out = f4_or(out, f4_gt(d, f4_add(f4_mul(f->eps, scale), f->tiny)));
        }
        keep |= (unsigned)(~f4_bits(out) & 15) << h;
    }
    return keep & lanes;
}

/* Keeps the cap smallest indices in a max-heap at out[0..kept). */
typedef struct sc_olist {
    int32_t *out;
    int cap, kept, total;
} sc_olist;

static void sc_o_keep(sc_olist *L, int32_t o)
{
    ++L->total;
    if (L->cap <= 0) return;
    int32_t *h = L->out;
    if (L->kept < L->cap) {
        int i = L->kept++;
        h[i] = o;
        while (i > 0 && h[(i - 1) / 2] < h[i]) {
            int32_t t = h[i];
            h[i] = h[(i - 1) / 2];
            h[(i - 1) / 2] = t;
            i = (i - 1) / 2;
        }
        return;
    }
    if (o >= h[0]) return;
    h[0] = o;
    for (int i = 0;;) {
        int c = 2 * i + 1, m = i;
        if (c < L->kept && h[c] > h[m]) m = c;
        if (c + 1 < L->kept && h[c + 1] > h[m]) m = c + 1;
        if (m == i) break;
        int32_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static int sc_o_cmp(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* One overlap query: the world, the volume, the filter, the indices kept. */
typedef struct sc_oq {
    const sc_world *w;
    const sc_ovol *v;
    const sc_wfilt *f;
    sc_olist L;
    int quick; /* the conservative filter on (not for the brute force) */
    sc_ofr fr; /* a frustum's culling planes */
} sc_oq;

static void sc_o_offer(void *ctx, int o)
{
    sc_oq *q = ctx;
    if (!sc__passes(q->w, o, q->f->mask, q->f->masked, q->f->exclude ? q->f->exclude[0] : -1)) return;
    if (sc_o_test(q->w, q->v, o, q->quick)) sc_o_keep(&q->L, o);
}

static unsigned sc_o_cull_frustum_walk(void *ctx, const float *base, int width, unsigned lanes)
{
    return sc_o_cull_frustum(&((sc_oq *)ctx)->fr, base, width, lanes);
}

/* A full traversal stack offers every object again: start the list over. */
static void sc_o_restart(void *ctx)
{
    sc_oq *q = ctx;
    q->L.kept = 0;
    q->L.total = 0;
}

sc_status sc__overlap(const sc_world *w, int kind, const void *shape, int32_t *out, int32_t cap, int32_t *total,
                      const sc_wfilt *f, int brute)
{
    sc_ovol v;
    memset(&v, 0, sizeof v);
    v.kind = kind;
    if (kind == SC_SHAPE_AABB) {
        v.box = *(const sc_aabb *)shape;
    } else if (kind == SC_SHAPE_SPHERE) {
        v.sphere = *(const sc_sphere *)shape;
        float r = v.sphere.radius;
        v.box.min = (sc_vec3){v.sphere.center.x - r, v.sphere.center.y - r, v.sphere.center.z - r};
        v.box.max = (sc_vec3){v.sphere.center.x + r, v.sphere.center.y + r, v.sphere.center.z + r};
    } else if (kind == SC_SHAPE_OBB) {
        v.obb = *(const sc_obb *)shape;
        v.box = sc__obb_bounds(&v.obb); /* the whole slab set */
        sc_o_obb_poly(&v.obb, &v.poly);
    } else if (kind == SC_SHAPE_CAPSULE) {
        v.capsule = *(const sc_capsule *)shape;
        const sc_capsule *c = &v.capsule;
        float r = c->radius;
        /* culling only: sc_o_cull_box grows these bounds by a relative 2^-20, far beyond their rounding */
        v.box.min = (sc_vec3){fminf(c->a.x, c->b.x) - r, fminf(c->a.y, c->b.y) - r, fminf(c->a.z, c->b.z) - r};
        v.box.max = (sc_vec3){fmaxf(c->a.x, c->b.x) + r, fmaxf(c->a.y, c->b.y) + r, fmaxf(c->a.z, c->b.z) + r};
    } else {
        /* a frustum: inside is n.x + d >= 0, that is -n.x <= d */
        const float *pl = shape;
        for (int k = 0; k < 6; ++k) sc_o_add(&v.poly, -pl[4 * k], -pl[4 * k + 1], -pl[4 * k + 2], pl[4 * k + 3]);
    }
    sc_oq q = {.w = w, .v = &v, .f = f, .L = {out, cap, 0, 0}, .quick = !brute};
    if (brute) {
        for (int o = 0; o < w->count; ++o) sc_o_offer(&q, o);
    } else {
        float box[6];
        sc_walker k = {sc_o_cull_frustum_walk, sc_o_offer, sc_o_restart, &q, NULL};
        if (kind != 0) {
            sc_o_cull_box(&v, box);
            k.box = box;
        } else {
            sc_o_frustum_prep(&v, &q.fr);
        }
        sc__walk(w, &k);
    }
    if (q.L.kept > 1) qsort(out, (size_t)q.L.kept, sizeof *out, sc_o_cmp);
    if (total) *total = q.L.total;
    return SC_OK;
}
