/* Ray and segment against a sphere (the closed ball), containment, the exit normal of a ray from
 * inside, and the exact overlaps of a sphere with a sphere or an AABB.
 *
 * The sphere classifies in double, from sums of products of two input floats (each exact in
 * double, subnormals included) added without loss (sc_xsum, sc_exact.h): the tests are signs and
 * squared comparisons of quantities whose error does not grow with the distance between the ray
 * and the shape (docs/semantics.md, far shapes). Reported t values are the double results rounded
 * to float and kept within +-FLT_MAX; points are computed from the unrounded parameter. */
#include "sc_single.h"
#include "sc_exact.h"

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
 * The signs of mm_r2, bd and w2 are exact (exactly summed, sc_xsum). h2 and w2^2 - h2 are
 * computed in double with a bound on their error (SC_FILTER); when they are too close to 0 to
 * tell, their sign is taken from exact expansions of the same polynomials in the input floats
 * (sc_sphere_h2_sign_exact, sc_sphere_end_sign_exact): every hit or miss is exact. */
typedef struct sc_sphere_q {
    double w[3], bd, dd, mm_r2, r2, w2, T; /* T = tmax * dd */
    int tmax_inf;
    /* The inputs, for the exact fallbacks: the ray o + t d (seg = 0) or the segment from o to
     * d (seg = 1), the ball (c, r). */
    sc_vec3 o, d, c;
    float r, tmax;
    int seg;
} sc_sphere_q;

/* The terms of w = (o - c) x d (ray) or (a - c) x (b - a) (segment), component i: exact products
 * of the floats (sc_cross_terms, sc_cross_offset). Returns their count. */
static int sc_sphere_w_terms(const sc_sphere_q *q, int i, double *t)
{
    int j = (i + 1) % 3, k = (i + 2) % 3;
    sc_vec3 a = q->o, b = q->d, c = q->c;
    t[0] = (double)sc_get(a, j) * sc_get(b, k);
    t[1] = -((double)sc_get(a, k) * sc_get(b, j));
    t[2] = -((double)sc_get(c, j) * sc_get(b, k));
    t[3] = (double)sc_get(c, k) * sc_get(b, j);
    if (!q->seg) return 4;
    t[4] = (double)sc_get(c, j) * sc_get(a, k);
    t[5] = -((double)sc_get(c, k) * sc_get(a, j));
    return 6;
}

/* The exact sign of h2 = r^2 dd - |w|^2 (the line meets the ball iff h2 >= 0). */
SC_COLD static int sc_sphere_h2_sign_exact(const sc_sphere_q *q)
{
    double t[3 * 72 + 24], w[6], dd[9];
    int n = 0, nd;
    for (int i = 0; i < 3; ++i) {
        int nw = sc_sphere_w_terms(q, i, w);
        n = sc_prod_terms(t, n, w, nw, w, nw, -1.0);
    }
    nd = sc_terms_dot(dd, 0, q->d, q->d, 1.0);
    if (q->seg) { /* |b - a|^2 = b.b - 2 a.b + a.a */
        nd = sc_terms_dot(dd, nd, q->o, q->d, -2.0);
        nd = sc_terms_dot(dd, nd, q->o, q->o, 1.0);
    }
    double r2 = q->r2;
    return sc__exp_sign(t, sc_prod_terms(t, n, &r2, 1, dd, nd, 1.0));
}

/* The exact sign of f(tmax) = |o + tmax d - c|^2 - r^2 (the ray's end outside the ball: > 0),
 * or for a segment f(1) = |b - c|^2 - r^2. */
SC_COLD static int sc_sphere_end_sign_exact(const sc_sphere_q *q)
{
    if (q->seg) {
        double f = sc_dist2_minus_r2(q->d, q->c, q->r);
        return f > 0.0 ? 1 : (f < 0.0 ? -1 : 0);
    }
    double t[3 * 32 + 1], e[4];
    int n = 0;
    for (int i = 0; i < 3; ++i) {
        e[0] = sc_get(q->o, i);
        e[1] = -(double)sc_get(q->c, i);
        sc_two_prod((double)q->tmax, sc_get(q->d, i), &e[2], &e[3]);
        n = sc_prod_terms(t, n, e, 4, e, 4, 1.0);
    }
    t[n++] = -q->r2;
    return sc__exp_sign(t, n);
}

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
    double eh = far_form ? r2dd + ww : bb + fabs(md); /* the terms' size: h2's error is below 2^-50 of it */
    if (!(q->mm_r2 <= 0.0)) {
        if (!(q->bd < 0.0)) return 0;
        if (!(fabs(h2) > SC_FILTER * eh) ? sc_sphere_h2_sign_exact(q) < 0 : h2 < 0.0) return 0;
        /* w2 > 0: tmax before the vertex of the quadratic; then t_enter <= tmax iff
         * w2^2 - h2 <= 0, and w2^2 - h2 = dd f(tmax) = T (T + 2 bd) + mm_r2 dd (T = tmax dd;
         * T + 2 bd < bd < 0 there, so that sum does not cancel). Either form is evaluated with
         * an error of a few 2^-53 of its terms: take the one whose terms are smaller (the
         * first for an origin far from a small ball, the second when the origin is close to
         * the surface compared with the ball's size or tmax is short). */
        if (!q->tmax_inf && q->w2 > 0.0) {
            double w22 = q->w2 * q->w2;
            double tt = q->T * (q->T + 2.0 * q->bd);
            double ea = w22 + eh;
            double eb = fabs(tt) + fabs(md);
            double f = ea < eb ? w22 - h2 : tt + md;
            if (!(fabs(f) > SC_FILTER * (ea < eb ? ea : eb)) ? sc_sphere_end_sign_exact(q) > 0 : f > 0.0) return 0;
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

/* The quantities of sc_sphere_solve for the ray o + t d; the signs of bd and w2 exact when xs.
 * The terms of each sum are those of sc_cross_terms, sc_offset_dot_x and sc_terms_dot, in their
 * order, written out. */
static SC_INLINE void sc_sphere_q_ray_x(sc_vec3 o, sc_vec3 d, float tmax, const sc_sphere *sp, sc_sphere_q *q, int xs)
{
    sc_vec3 c = sp->center;
    const double O[3] = {o.x, o.y, o.z}, D[3] = {d.x, d.y, d.z}, C[3] = {c.x, c.y, c.z};
    double tw[3][4], tdd[3] = {D[0] * D[0], D[1] * D[1], D[2] * D[2]};
    for (int i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, k = (i + 2) % 3; /* sc_cross_w's terms */
        tw[i][0] = O[j] * D[k], tw[i][1] = -(C[j] * D[k]), tw[i][2] = -(O[k] * D[j]), tw[i][3] = C[k] * D[j];
    }
    /* two sums at a time (sc_xsum_two): the same doubles as sc_xsum of each list */
    sc_xsum_two(tw[0], 4, tw[1], 4, &q->w[0], &q->w[1], 0, 0);
    sc_xsum_two(tw[2], 4, tdd, 3, &q->w[2], &q->dd, 0, 0);
    q->o = o;
    q->d = d;
    q->c = c;
    q->r = sp->radius;
    q->tmax = tmax;
    q->seg = 0;
    double t[12] = {O[0] * D[0], O[1] * D[1], O[2] * D[2], -(C[0] * D[0]), -(C[1] * D[1]), -(C[2] * D[2])};
    double t10[10], x[2];
    sc_dist2_terms(o, c, sp->radius, t10);
    /* bd and mm_r2 in two lanes: sc_xsum_two's first proof, then each its own way (mm_r2 through
     * sc_dist2_minus_r2, whose first proof is this one on the same 10 terms) */
    int ok = sc_xsum_two_first(t, 6, t10, 10, x);
    q->bd = (ok & 1) ? x[0] : (xs ? sc_xsum_s(t, 6) : sc_xsum(t, 6));
    q->mm_r2 = (ok & 2) ? x[1] : sc_dist2_minus_r2(o, c, sp->radius);
    q->r2 = (double)sp->radius * sp->radius;
    q->tmax_inf = isinf(tmax);
    q->w2 = 0.0;
    q->T = q->tmax_inf ? 0.0 : (double)tmax * q->dd;
    if (!q->tmax_inf) {
        int n = sc_terms_dot(t, 0, o, d, -1.0);
        n = sc_terms_dot(t, n, c, d, 1.0);
        for (int i = 0; i < 3; ++i) {
            double di = sc_get(d, i);
            sc_two_prod(-(double)tmax, di * di, &t[n], &t[n + 1]);
            n += 2;
        }
        q->w2 = xs ? sc_xsum_s(t, n) : sc_xsum(t, n);
    }
}

/* The same with every sign exact (sc_xsum_s), for the rare ray whose bd or w2 summed to 0. */
SC_COLD static void sc_sphere_q_ray_signs(sc_vec3 o, sc_vec3 d, float tmax, const sc_sphere *sp, sc_sphere_q *q)
{
    sc_sphere_q_ray_x(o, d, tmax, sp, q, 1);
}

/* The quantities of sc_sphere_solve for the ray o + t d (a zero bd or w2 is checked again: a
 * rounded tie can hide a nonzero sign, see sc_xsum; mm_r2's sign is always exact). */
static void sc_sphere_q_ray(sc_vec3 o, sc_vec3 d, float tmax, const sc_sphere *sp, sc_sphere_q *q)
{
    sc_sphere_q_ray_x(o, d, tmax, sp, q, 0);
    if (q->bd == 0.0 || (!q->tmax_inf && q->w2 == 0.0)) sc_sphere_q_ray_signs(o, d, tmax, sp, q);
}

/* The same for the segment a + t (b - a), 0 <= t <= 1, without rounding b - a: every
 * quantity expands into products of the input floats. Returns 0 for a zero-length segment. */
static int sc_sphere_q_segment(sc_vec3 a, sc_vec3 b, const sc_sphere *sp, sc_sphere_q *q)
{
    sc_vec3 c = sp->center;
    double t[12];
    q->o = a;
    q->d = b;
    q->c = c;
    q->r = sp->radius;
    q->tmax = 1.0f;
    q->seg = 1;
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
    q->bd = sc_xsum_s(t, n);
    /* w2 = -bd - 1 * dd = -(b - c).(b - a) = -b.b + b.a + c.b - c.a */
    n = sc_terms_dot(t, 0, b, b, -1.0);
    n = sc_terms_dot(t, n, b, a, 1.0);
    n = sc_terms_dot(t, n, c, b, 1.0);
    n = sc_terms_dot(t, n, c, a, -1.0);
    q->w2 = sc_xsum_s(t, n);
    q->tmax_inf = 0;
    q->T = q->dd;
    q->mm_r2 = sc_dist2_minus_r2(a, c, sp->radius);
    q->r2 = (double)sp->radius * sp->radius;
    return 1;
}

/* sc_unit_d(v, sc_unit_d(bk, dir)) without computing the fallback unless it is returned (v zero or
 * not finite: sc_unit_d's own test, written out): the same floats. */
static sc_vec3 sc_sphere_unit(const double *v, const double *bk, sc_vec3 dir)
{
    double m = fabs(v[0]);
    if (fabs(v[1]) > m) m = fabs(v[1]);
    if (fabs(v[2]) > m) m = fabs(v[2]);
    if (!(m > 0.0) || !isfinite(m)) return sc_unit_d(bk, dir);
    return sc_unit_d(v, dir); /* its fallback is not taken */
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
    double bk[3] = {-dv[0], -dv[1], -dv[2]}; /* a point sphere faces the ray: sc_unit_d(bk) */
    if (!(L.t_enter > 0.0)) {
        r.point = sc_pz3(ray->origin); /* t = 0 */
        if (L.t_enter == 0.0 && !(q.mm_r2 < 0.0)) {
            /* On the sphere and heading in (or touching): the normal at the origin. The
             * origin is within a radius of the centre, so o - c is exact in double unless
             * the radius is far below the coordinates (it is then rounded relative to |o - c|). */
            double m[3];
            for (int i = 0; i < 3; ++i) m[i] = (double)sc_get(ray->origin, i) - sc_get(sp->center, i);
            r.normal = sc_pz3(sc_sphere_unit(m, bk, ray->dir));
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
    r.normal = sc_pz3(sp->radius > 0.0f ? sc_sphere_unit(e, bk, ray->dir) : sc_unit_d(bk, ray->dir));
    return r;
}

/* The segment a + t (b - a), 0 <= t <= 1 (a != b); b - a is never rounded: see
 * sc_sphere_q_segment. */
int sc__linetest_sphere(sc_vec3 a, sc_vec3 b, const sc_sphere *sp)
{
    sc_sphere_q q;
    sc_sphere_sol L;
    if (!sc_sphere_q_segment(a, b, sp, &q)) return sc__contains_sphere(a, sp);
    return sc_sphere_solve(&q, &L);
}

/* |p - c|^2 - r^2 <= 0, exactly summed. */
int sc__contains_sphere(sc_vec3 p, const sc_sphere *sp)
{
    return sc_dist2_minus_r2(p, sp->center, sp->radius) <= 0.0;
}

/* The exit point relative to the centre, f + (h / dd) d (the entry's mirror in
 * sc__raycast_sphere_valid), normalised; a point sphere faces along the ray. */
sc_vec3 sc__exit_normal_sphere(const sc_ray *ray, const sc_sphere *sp)
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
    return sc_xsum_s(t, n) <= 0.0;
}
