/* slabcast worlds: a moving axis-aligned box against an OBB, as the OBB is defined: its three
 * slabs |a_i . (x - c)| <= h_i with the axes as given (docs/semantics.md, "Shapes"), not the
 * parallelepiped the axes span (the two differ when the axes are orthonormal only within 1e-4).
 *
 * Both are convex polytopes given by half-spaces: the box B(t) by its slabs along the world axes,
 * the OBB S by its slabs along a_i. Two convex polytopes are disjoint exactly when some direction
 * separates their projections, and one is found among the face normals of either and the cross
 * products of an edge direction of each (the faces of their Minkowski difference). The faces of S
 * are normal to a_i; its edges run along f_i = a_j x a_k (i, j, k cyclic: where the slabs j and k
 * are both tight), which are not the a_i when the axes are skewed; the box's faces and edges are
 * the world axes. So the candidate directions are e_k, a_m and e_k x f_i (zero ones skipped: an
 * exactly parallel pair of edges makes no face).
 *
 * S = c + A^-1 l, |l_i| <= h_i (A: the axes as rows), and the columns of A^-1 are the dual vectors
 * f_i / D, D = det A = a_0 . f_0 (a_j . f_i = D delta_ij). S's projection on v therefore reaches
 * rb(v) = sum_i h_i |v . f_i| / |D| from v . c; on v = a_m that is exactly h_m, and on
 * v = e_k x f_i the term of f_i is exactly 0 (v is normal to f_i). The box reaches
 * ra(v) = sum_k e_k |v_k|. Along each direction the centres' distance s0 + t w (s0 = (o - c) . v,
 * w = d . v) is within ra + rb for t in an interval; the first contact is the latest start of those
 * intervals when it comes before the earliest end (a translation moves no face normal, so the set of
 * candidates holds for every t).
 *
 * The contact point at that t is a point common to S and B(t): the vertex of the arrangement of
 * their twelve planes (three planes of independent directions, 20 triples of the 6 directions, 8
 * sign choices each) whose largest violation of the twelve half-spaces is smallest. The intersection
 * at a contact is a vertex, an edge or a face of both, so one of those vertices lies in it (up to the
 * rounding of t and of the solve); at t = 0 with the shapes overlapping, the deepest vertex found.
 * Everything in double from the float inputs: docs/semantics.md, "Sweeps", gives the bounds. */
#include "sc_internal.h"

#include <math.h>

static double sc_so_dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void sc_so_cross(const double *a, const double *b, double *r)
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

/* The OBB in double: centre, axes (rows), halves, the edge directions f_i and |det A|. */
typedef struct sc_so_obb {
    double c[3], a[3][3], h[3], f[3][3], ad;
} sc_so_obb;

static void sc_so_read(const sc_obb *b, sc_so_obb *s)
{
    const sc_vec3 *ax = b->axes;
    s->c[0] = b->center.x; s->c[1] = b->center.y; s->c[2] = b->center.z;
    s->h[0] = b->half.x; s->h[1] = b->half.y; s->h[2] = b->half.z;
    for (int i = 0; i < 3; ++i) {
        s->a[i][0] = ax[i].x;
        s->a[i][1] = ax[i].y;
        s->a[i][2] = ax[i].z;
    }
    for (int i = 0; i < 3; ++i) sc_so_cross(s->a[(i + 1) % 3], s->a[(i + 2) % 3], s->f[i]);
    s->ad = fabs(sc_so_dot(s->a[0], s->f[0]));
}

int sc__sweep_box_obb(const double *o, const double *d, double tmax, const double *e, const sc_obb *b, double *t,
                      double *n)
{
    sc_so_obb s;
    sc_so_read(b, &s);
    double u[15][3], rb[15];
    int nu = 0;
    for (int k = 0; k < 3; ++k, ++nu) { /* the box's faces: rb = sum_i h_i |f_i[k]| / |D| */
        u[nu][0] = u[nu][1] = u[nu][2] = 0.0;
        u[nu][k] = 1.0;
        rb[nu] = (s.h[0] * fabs(s.f[0][k]) + s.h[1] * fabs(s.f[1][k]) + s.h[2] * fabs(s.f[2][k])) / s.ad;
    }
    for (int m = 0; m < 3; ++m, ++nu) { /* the OBB's faces: rb = h_m exactly */
        for (int k = 0; k < 3; ++k) u[nu][k] = s.a[m][k];
        rb[nu] = s.h[m];
    }
    for (int k = 0; k < 3; ++k) {
        for (int i = 0; i < 3; ++i) { /* e_k x f_i */
            double ek[3] = {0, 0, 0}, *v = u[nu];
            ek[k] = 1.0;
            sc_so_cross(ek, s.f[i], v);
            if (v[0] == 0.0 && v[1] == 0.0 && v[2] == 0.0) continue;
            double r = 0.0;
            for (int j = 0; j < 3; ++j)
                if (j != i) r += s.h[j] * fabs(sc_so_dot(v, s.f[j]));
            rb[nu++] = r / s.ad;
        }
    }
    double mo[3] = {o[0] - s.c[0], o[1] - s.c[1], o[2] - s.c[2]};
    double first = -INFINITY, last = INFINITY, fsign = 0.0;
    int fa = -1;
    for (int k = 0; k < nu; ++k) {
        const double *v = u[k];
        double rho = e[0] * fabs(v[0]) + e[1] * fabs(v[1]) + e[2] * fabs(v[2]) + rb[k];
        double s0 = sc_so_dot(mo, v), w = sc_so_dot(d, v);
        if (w == 0.0) {
            if (fabs(s0) > rho) return 0;
            continue;
        }
        double t1 = (-rho - s0) / w, t2 = (rho - s0) / w;
        double enter = t1 < t2 ? t1 : t2, leave = t1 < t2 ? t2 : t1;
        if (enter > first) { first = enter; fa = k; fsign = w > 0.0 ? -1.0 : 1.0; }
        if (leave < last) last = leave;
    }
    if (!(first <= last) || last < 0.0 || first > tmax) return 0;
    *t = first > 0.0 ? first : 0.0;
    n[0] = n[1] = n[2] = 0.0;
    if (first > 0.0 && fa >= 0) {
        double len = sqrt(sc_so_dot(u[fa], u[fa]));
        for (int i = 0; i < 3; ++i) n[i] = fsign * u[fa][i] / len;
    }
    return 1;
}

/* The largest violation at y (relative to the OBB's centre) of the slabs of S (inv: 1 / |a_i|) and of
 * the box [m - e, m + e], each in units of length; stops early once it reaches stop. */
static double sc_so_violation(const sc_so_obb *s, const double *inv, const double *m, const double *e, const double *y,
                              double stop)
{
    double worst = -INFINITY;
    for (int i = 0; i < 3 && worst < stop; ++i) {
        double g = fabs(y[i] - m[i]) - e[i];
        if (g > worst) worst = g;
        double v = (fabs(sc_so_dot(s->a[i], y)) - s->h[i]) * inv[i];
        if (v > worst) worst = v;
    }
    return worst;
}

/* The twelve planes at the contact: directions 0..2 the slabs of S, 3..5 those of the box, each
 * with its two bounds; the best vertex so far. */
typedef struct sc_so_arr {
    sc_so_obb s;
    double m[3], e[3], nrm[6][3], lo[6], hi[6], inv[3];
    double best, by[3];
} sc_so_arr;

/* Every vertex of three planes of independent directions, each plane on the sides side[dir]
 * allows (bit 0: lo, bit 1: hi), against the best so far. */
static void sc_so_vertices(sc_so_arr *A, const int *side)
{
    for (int i = 0; i < 6; ++i) {
        for (int j = i + 1; j < 6; ++j) {
            for (int k = j + 1; k < 6; ++k) {
                double jk[3], ki[3], ij[3], y[3];
                sc_so_cross(A->nrm[j], A->nrm[k], jk);
                sc_so_cross(A->nrm[k], A->nrm[i], ki);
                sc_so_cross(A->nrm[i], A->nrm[j], ij);
                double det = sc_so_dot(A->nrm[i], jk);
                if (det == 0.0 || !isfinite(det)) continue;
                for (int sg = 0; sg < 8; ++sg) {
                    int si = sg & 1, sj = sg >> 1 & 1, sk = sg >> 2 & 1;
                    if (!(side[i] >> si & 1) || !(side[j] >> sj & 1) || !(side[k] >> sk & 1)) continue;
                    double ri = si ? A->hi[i] : A->lo[i], rj = sj ? A->hi[j] : A->lo[j], rk = sk ? A->hi[k] : A->lo[k];
                    for (int q = 0; q < 3; ++q) y[q] = (ri * jk[q] + rj * ki[q] + rk * ij[q]) / det;
                    double v = sc_so_violation(&A->s, A->inv, A->m, A->e, y, A->best);
                    if (v < A->best) {
                        A->best = v;
                        A->by[0] = y[0]; A->by[1] = y[1]; A->by[2] = y[2];
                    }
                }
            }
        }
    }
}

void sc__sweep_box_obb_point(const double *o, const double *d, double t, const double *e, const double *n,
                             const sc_obb *b, double *p)
{
    sc_so_arr A;
    sc_so_read(b, &A.s);
    double scale = 1.0;
    for (int i = 0; i < 3; ++i) { /* directions 0..2: the slabs of S; 3..5: those of the box */
        A.m[i] = o[i] - A.s.c[i] + t * d[i];
        A.e[i] = e[i];
        for (int k = 0; k < 3; ++k) {
            A.nrm[i][k] = A.s.a[i][k];
            A.nrm[3 + i][k] = k == i ? 1.0 : 0.0;
        }
        A.lo[i] = -A.s.h[i];
        A.hi[i] = A.s.h[i];
        A.lo[3 + i] = A.m[i] - e[i];
        A.hi[3 + i] = A.m[i] + e[i];
        A.inv[i] = 1.0 / sqrt(sc_so_dot(A.s.a[i], A.s.a[i]));
        scale += fabs(A.m[i]) + e[i] + A.s.h[i];
        A.by[i] = A.m[i];
    }
    A.best = INFINITY;
    /* First the sides that face the other shape across the contact normal n (from S to the box):
     * S's support in direction n takes slab i on the side of sign(n . f_i / D), the box's support
     * in direction -n its side -sign(n_k); a direction normal to n may use both. That holds the
     * vertex of a vertex-face or edge-edge contact. Where it finds no vertex within 2^-30 of the
     * scale (faces in contact, or t = 0 with no normal), every side is tried. */
    if (n[0] != 0.0 || n[1] != 0.0 || n[2] != 0.0) {
        int side[6];
        double D = sc_so_dot(A.s.a[0], A.s.f[0]);
        for (int i = 0; i < 3; ++i) {
            double u = sc_so_dot(n, A.s.f[i]) * D;
            side[i] = u > 0.0 ? 2 : u < 0.0 ? 1 : 3;
            side[3 + i] = n[i] > 0.0 ? 1 : n[i] < 0.0 ? 2 : 3;
        }
        sc_so_vertices(&A, side);
    }
    if (!(A.best <= 9.313225746154785e-10 * scale)) {
        const int all[6] = {3, 3, 3, 3, 3, 3};
        sc_so_vertices(&A, all);
    }
    for (int q = 0; q < 3; ++q) p[q] = A.s.c[q] + A.by[q];
}
