/* Capsules: the closed set of points within radius of the segment a-b (docs/semantics.md,
 * "Capsules"). Ray, segment and point queries, the exit normal of a ray from inside, and the
 * exact segment-distance predicate that the capsule overlaps share (sc__segments_within).
 *
 * Classification (hit, inside, within) is exact: every decision is the sign of a polynomial in
 * the float inputs (sc_capsule_pred.h), taken from doubles with an error bound when the value is
 * clear of zero, and from exact binary numbers otherwise (sc_exact_num.h). Reported numbers
 * (t_enter, t_exit, t, point, normal, closest points) are computed in double and rounded to float,
 * kept within +-FLT_MAX, as for spheres. A capsule with a == b is a ball: every query then gives
 * the sphere's answer, bit for bit (it is answered by sc_sphere.c). The ray query first tries the
 * quick paths of sc_capsule_fast.h (a certain hit, miss or side from doubles with a static bound),
 * which give the same answers with less work. */
#include "sc_single.h"
#include "sc_exact.h"
#include "sc_exact_num.h"
#include "sc_capsule_fast.h"

/* The inputs of one decision: the piece P (kind 0: the segment p0-p1; 1: the ray p0 + t dir,
 * 0 <= t <= tmax (finite); 2: the half-line p0 + t dir, t >= 0), the segment q0-q1, and R = r0 + r1
 * (taken exactly). */
typedef struct sc_cap_in {
    sc_vec3 p0, p1, dir, q0, q1;
    float tmax, r0, r1;
    int kind;
} sc_cap_in;

/* The predicates of sc_capsule_pred.h for one number type, from sc_cap_in: side = 0 asks whether
 * P comes within R of Q (1, 0 or unknown); side = 1 the sign of dist(p0, Q)^2 - R^2. */
#define SC_CAP_RUN_BODY                                                                         \
    NUM P0[3], D1[3], Q0[3], D2[3], R, R2, t;                                                   \
    for (int i = 0; i < 3; ++i) {                                                               \
        OP(set)(&P0[i], sc_xget(in->p0, i));                                                    \
        OP(set)(&Q0[i], sc_xget(in->q0, i));                                                    \
        OP(set)(&t, sc_xget(in->q1, i));                                                        \
        OP(sub)(&D2[i], &t, &Q0[i]);                                                            \
        if (in->kind == 0) {                                                                    \
            OP(set)(&t, sc_xget(in->p1, i));                                                    \
            OP(sub)(&D1[i], &t, &P0[i]);                                                        \
        } else {                                                                                \
            /* tmax * dir_i: a product of two floats, exact in double */                        \
            OP(set)(&D1[i], in->kind == 1 ? (double)in->tmax * sc_xget(in->dir, i) : sc_xget(in->dir, i)); \
        }                                                                                       \
    }                                                                                           \
    OP(set)(&R, in->r0);                                                                        \
    OP(set)(&t, in->r1);                                                                        \
    OP(add)(&R, &R, &t);                                                                        \
    OP(mul)(&R2, &R, &R);                                                                       \
    if (side) return CAP_FN(point_side)(P0, Q0, D2, &R2);                                       \
    return CAP_FN(within)(P0, D1, in->kind == 2, Q0, D2, &R2);

#define NUM sc_fd
#define OP(name) sc_fd_##name
#define CAP_FN(name) sc_cap_##name##_fd
#include "sc_capsule_pred.h"
static int sc_cap_run_fd(const sc_cap_in *in, int side) { SC_CAP_RUN_BODY }
#undef NUM
#undef OP
#undef CAP_FN

#define NUM sc_bf
#define OP(name) sc_bf_##name
#define CAP_FN(name) sc_cap_##name##_bf
#include "sc_capsule_pred.h"
SC_COLD static int sc_cap_run_bf(const sc_cap_in *in, int side) { SC_CAP_RUN_BODY }
#undef NUM
#undef OP
#undef CAP_FN

/* The decision: filtered (doubles with a bound first), or exact only (filtered = 0, for tests).
 * sc_bf cannot run out of limbs on float inputs (degree 8 at most, about 2,230 bits); were it to,
 * the nearer answer of touching counts. */
static int sc_cap_decide(const sc_cap_in *in, int side, int filtered)
{
    if (filtered) {
        int r = sc_cap_run_fd(in, side);
        if (r != SC_NUM_UNKNOWN) return r;
    }
    int r = sc_cap_run_bf(in, side);
    if (r == SC_NUM_UNKNOWN) return side ? 0 : 1;
    return r;
}

static int sc_cap_same(sc_vec3 a, sc_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
static sc_sphere sc_cap_ball(const sc_capsule *c, int end) { return (sc_sphere){end ? c->b : c->a, c->radius}; }

/* ------------------------------------------------------------------ exact predicates */

int sc__segments_within(sc_vec3 a0, sc_vec3 b0, sc_vec3 a1, sc_vec3 b1, float r0, float r1)
{
    sc_cap_in in = {a0, b0, {0, 0, 0}, a1, b1, 0.0f, r0, r1, 0};
    return sc_cap_decide(&in, 0, 1);
}

/* The sign of dist(p, segment)^2 - radius^2, exactly: -1 strictly inside, 0 on the surface. */
static int sc_cap_side(sc_vec3 p, const sc_capsule *c)
{
    sc_cap_in in = {p, p, {0, 0, 0}, c->a, c->b, 0.0f, c->radius, 0.0f, 0};
    return sc_cap_decide(&in, 1, 1);
}

int sc__contains_capsule(sc_vec3 p, const sc_capsule *c)
{
    if (sc_cap_same(c->a, c->b)) return sc__contains_sphere(p, &(sc_sphere){c->a, c->radius});
    return sc_cap_side(p, c) <= 0;
}

int sc__linetest_capsule(sc_vec3 a, sc_vec3 b, const sc_capsule *c)
{
    if (sc_cap_same(c->a, c->b)) {
        sc_sphere s = sc_cap_ball(c, 0);
        return sc_cap_same(a, b) ? sc__contains_sphere(a, &s) : sc__linetest_sphere(a, b, &s);
    }
    return sc__segments_within(a, b, c->a, c->b, 0.0f, c->radius);
}

/* Whether the ray's points for t in [0, tmax] come within the radius of the axis, exactly. */
static int sc_cap_ray_hits(const sc_ray *ray, const sc_capsule *c, int filtered)
{
    sc_cap_in in = {ray->origin, ray->origin, ray->dir, c->a, c->b, ray->tmax, c->radius, 0.0f,
                    isinf(ray->tmax) ? 2 : 1};
    return sc_cap_decide(&in, 0, filtered);
}

/* For tests of the filter: the decisions in exact arithmetic only. kind: 0 segments_within,
 * 1 ray hit, 2 point side. */
int sc__capsule_decide_exact(int kind, const float *v)
{
    sc_vec3 p = {v[0], v[1], v[2]}, q = {v[3], v[4], v[5]}, a = {v[6], v[7], v[8]}, b = {v[9], v[10], v[11]};
    if (kind == 1) {
        sc_ray ray = {p, q, v[12]};
        sc_capsule c = {a, b, v[13]};
        return sc_cap_ray_hits(&ray, &c, 0);
    }
    sc_cap_in in = {p, kind == 2 ? p : q, {0, 0, 0}, a, b, 0.0f, v[12], kind == 2 ? 0.0f : v[13], 0};
    return sc_cap_decide(&in, kind == 2, 0);
}

/* ------------------------------------------------------------------ reported numbers
 * The line o + t d against the capsule, in double, in a frame where every quantity has the size of
 * the capsule however far the origin is (as sc_sphere.c does for balls): the line is rewritten as
 * a + f + tau d, t = ta + tau, where f = m + ta d (m = o - a) is the foot of the perpendicular from
 * a, built from the exactly summed w = m x d as f = (d x w) / dd, and ta = -(m.d) / dd. The line's
 * interval is then the hull of the end balls' intervals and of the lateral surface's roots that
 * lie between the end planes; points and normals come from f + tau d, relative to a. */

typedef struct sc_cap_line {
    double f[3], d[3], u[3]; /* the frame: the line f + tau d, the axis from 0 to u */
    double ta, dd, uu, r2;
    double tau_enter, tau_exit;
    int n;                      /* candidates found */
    double best_margin, best_tau; /* the nearest approach, when no candidate was found */
} sc_cap_line;

static SC_INLINE void sc_cap_take(sc_cap_line *L, double t0, double t1)
{
    if (L->n == 0 || t0 < L->tau_enter) L->tau_enter = t0;
    if (L->n == 0 || t1 > L->tau_exit) L->tau_exit = t1;
    L->n++;
}

static SC_INLINE void sc_cap_near(sc_cap_line *L, double margin, double tau)
{
    if (!(margin <= L->best_margin)) {
        L->best_margin = margin;
        L->best_tau = tau;
    }
}

static SC_INLINE double sc_cap_dot(const double *x, const double *y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; }
static SC_INLINE void sc_cap_cross(double *r, const double *x, const double *y)
{
    for (int i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        r[i] = x[j] * y[k] - x[k] * y[j];
    }
}

/* The quadratic qa tau^2 + 2 qb tau + qc <= 0 (qa > 0), given h = sqrt(qb^2 - qa qc) (computed
 * by the caller in its accurate form): its roots, the one without cancellation first. */
static SC_INLINE void sc_cap_roots(double qa, double qb, double qc, double h, double *t0, double *t1)
{
    if (qb <= 0.0) {
        double s = -qb + h;
        *t1 = s / qa;
        *t0 = s > 0.0 ? qc / s : *t1;
    } else {
        double s = -qb - h;
        *t0 = s / qa;
        *t1 = qc / s;
    }
    if (*t0 > *t1) *t0 = *t1;
}

/* The ball of centre c (0 or u in the frame). */
static SC_INLINE void sc_cap_ball_line(sc_cap_line *L, const double *c)
{
    double g[3] = {L->f[0] - c[0], L->f[1] - c[1], L->f[2] - c[2]}, x[3];
    sc_cap_cross(x, g, L->d);
    double bd = sc_cap_dot(g, L->d), cc = sc_cap_dot(g, g) - L->r2;
    double h2 = L->r2 * L->dd - sc_cap_dot(x, x); /* bd^2 - dd cc by Lagrange's identity */
    if (h2 < 0.0) {
        sc_cap_near(L, h2 / L->dd, -bd / L->dd);
        return;
    }
    double t0, t1;
    sc_cap_roots(L->dd, bd, cc, sqrt(h2), &t0, &t1);
    sc_cap_take(L, t0, t1);
}

/* The lateral surface: the distance from the axis line is r at the roots of
 * AA tau^2 + 2 AB tau + (BB - r^2 uu) (A = d x u, B = f x u); the discriminant is
 * uu (r^2 AA - (d.B)^2). A root counts when its point lies between the end planes. */
static SC_INLINE void sc_cap_side_line(sc_cap_line *L)
{
    double A[3], B[3];
    sc_cap_cross(A, L->d, L->u);
    sc_cap_cross(B, L->f, L->u);
    double AA = sc_cap_dot(A, A);
    if (!(AA > 0.0) || !(L->uu > 0.0)) return; /* parallel to the axis: the balls give the ends */
    double AB = sc_cap_dot(A, B), BB = sc_cap_dot(B, B), det = sc_cap_dot(L->d, B);
    double fu = sc_cap_dot(L->f, L->u), du = sc_cap_dot(L->d, L->u);
    double g = L->r2 * AA - det * det;
    if (g < 0.0) {
        double tv = -AB / AA, Lv = fu + tv * du;
        if (Lv >= 0.0 && Lv <= L->uu) sc_cap_near(L, g / AA, tv);
        return;
    }
    double t0, t1;
    sc_cap_roots(AA, AB, BB - L->r2 * L->uu, sqrt(g) * sqrt(L->uu), &t0, &t1); /* g uu may overflow */
    double L0 = fu + t0 * du, L1 = fu + t1 * du;
    if (L0 >= 0.0 && L0 <= L->uu) sc_cap_take(L, t0, t0);
    if (L1 >= 0.0 && L1 <= L->uu) sc_cap_take(L, t1, t1);
}

/* One component of w = (o - a) x d: sc_cross_terms's four products in its order, summed. */
static inline double sc_cap_wterm(double oj, double ok, double aj, double ak, double dj, double dk)
{
    double t[4] = {oj * dk, -(aj * dk), -(ok * dj), ak * dj};
    return sc_xsum(t, 4);
}

static SC_INLINE void sc_cap_line_solve(sc_cap_line *L, const sc_cap_q *q)
{
    const double *o = q->o, *a = q->a, *d = q->d;
    double w[3], t[6];
    /* w = (o - a) x d, dd = d.d and (o - a).d, exactly summed: sc_cross_terms, sc_terms_dot and
     * sc_offset_dot's terms in their order, summed by sc_xsum */
    w[0] = sc_cap_wterm(o[1], o[2], a[1], a[2], d[1], d[2]);
    w[1] = sc_cap_wterm(o[2], o[0], a[2], a[0], d[2], d[0]);
    w[2] = sc_cap_wterm(o[0], o[1], a[0], a[1], d[0], d[1]);
    for (int i = 0; i < 3; ++i) t[i] = d[i] * d[i];
    L->dd = sc_xsum(t, 3);
    for (int i = 0; i < 3; ++i) {
        t[i] = o[i] * d[i];
        t[3 + i] = -(a[i] * d[i]);
    }
    L->ta = -sc_xsum(t, 6) / L->dd;
    for (int i = 0; i < 3; ++i) {
        L->d[i] = d[i];
        L->u[i] = q->u[i];
    }
    sc_cap_cross(L->f, L->d, w);
    for (int i = 0; i < 3; ++i) L->f[i] /= L->dd;
    L->uu = q->uu;
    L->r2 = q->R2;
    L->n = 0;
    L->tau_enter = L->tau_exit = 0.0;
    L->best_margin = -INFINITY;
    L->best_tau = 0.0;
    double zero[3] = {0, 0, 0};
    sc_cap_ball_line(L, zero);
    sc_cap_ball_line(L, L->u);
    sc_cap_side_line(L);
    if (L->n == 0) L->tau_enter = L->tau_exit = L->best_tau; /* exactly a hit; rounding said no */
}

/* The outward unit normal at the point e (relative to a) of the surface: from the nearest point of
 * the axis (a or b on the caps). A zero-radius capsule (the segment): the unit vector facing the
 * ray (sgn = -1) or along it (sgn = 1) without its component along the axis, or +-dir at an end
 * or for a ray along the axis. */
static SC_INLINE sc_vec3 sc_cap_normal_at(const sc_cap_line *L, const double *e0, sc_vec3 dir, double sgn)
{
    double e[3] = {e0[0], e0[1], e0[2]}, dv[3] = {sgn * L->d[0], sgn * L->d[1], sgn * L->d[2]};
    double eu = sc_cap_dot(e, L->u);
    if (!(L->r2 > 0.0)) {
        sc_vec3 facing = sc_unit_d(dv, dir);
        if (L->uu > 0.0 && eu > 0.0 && eu < L->uu) {
            double k = sc_cap_dot(dv, L->u) / L->uu;
            for (int i = 0; i < 3; ++i) e[i] = dv[i] - k * L->u[i];
            /* a ray along the axis leaves only rounding across it: then -dir, as at an end */
            if (sc_cap_dot(e, e) > 0x1p-40 * L->dd) return sc_unit_d(e, facing);
        }
        return facing;
    }
    if (eu >= L->uu) {
        for (int i = 0; i < 3; ++i) e[i] -= L->u[i];
    } else if (eu > 0.0) {
        for (int i = 0; i < 3; ++i) e[i] -= (eu / L->uu) * L->u[i];
    }
    /* the facing direction is the fallback only for a zero or non-finite e: computed then only */
    double m = fabs(e[0]); /* the largest magnitude as sc_unit_d finds it (a NaN counts in e[0] only) */
    if (fabs(e[1]) > m) m = fabs(e[1]);
    if (fabs(e[2]) > m) m = fabs(e[2]);
    if (!(m > 0.0) || !isfinite(m)) return sc_unit_d(dv, dir);
    return sc_unit_d(e, dir);
}

/* The largest magnitude among the origin, the end points and the radius. */
static double sc_cap_scale(sc_vec3 o, const sc_capsule *c)
{
    double m = c->radius;
    float v[3] = {sc_max3abs(o), sc_max3abs(c->a), sc_max3abs(c->b)};
    for (int i = 0; i < 3; ++i) m = v[i] > m ? v[i] : m;
    return m;
}

sc_raycast_result sc__raycast_capsule_valid(const sc_ray *ray, const sc_capsule *c)
{
    if (sc_cap_same(c->a, c->b)) {
        sc_sphere s = sc_cap_ball(c, 0);
        return sc__raycast_sphere_valid(ray, &s);
    }
    sc_cap_q q;
    sc_cap_prep(&q, ray, c);
    /* a certain hit from a witness in double, a certain miss from the lines' distance, else the
     * exact decision */
    if (!sc_cap_hit_sure(&q) && (sc_cap_miss_sure(&q) || !sc_cap_ray_hits(ray, c, 1))) return sc_miss();
    sc_vec3 o = ray->origin, d = ray->dir;
    sc_cap_line L;
    sc_cap_line_solve(&L, &q);
    double t_enter = L.ta + L.tau_enter, t_exit = L.ta + L.tau_exit, tau = L.tau_enter;
    int side = sc_cap_side_sure(&q); /* the origin's side from doubles, else exactly */
    if (side == SC_NUM_UNKNOWN) side = sc_cap_side(o, c);
    if (side < 0 && !(t_enter < 0.0)) t_enter = -0.0; /* strictly inside */
    if (side > 0 && t_enter < 0.0) t_enter = 0.0;    /* outside: rounding put the entry behind */
    if (side == 0) {
        /* On the surface: exactly, an end of the interval is 0 unless the line runs along the
         * surface (a ray along the cylinder); the computed end nearer 0 is set to 0 when it is
         * within rounding of it (2^-24 of the inputs' scale, as a distance along the ray). */
        double near = fabs(t_enter) <= fabs(t_exit) ? t_enter : t_exit;
        if (fabs(near) * sc_max3abs(d) <= 0x1p-24 * sc_cap_scale(o, c)) {
            if (near == t_enter) t_enter = 0.0;
            else t_exit = 0.0;
        }
    }
    /* The exact test says the interval meets [0, tmax]: keep the rounded ends consistent with it. */
    if (t_exit < 0.0) t_exit = 0.0;
    if (t_enter > (double)ray->tmax) t_enter = ray->tmax;
    if (t_enter > t_exit) t_enter = t_exit;
    sc_raycast_result r = sc_miss();
    r.hit = 1;
    r.t_enter = sc_pz(sc_dfin(t_enter));
    r.t_exit = sc_pz(sc_dfin(t_exit));
    r.t = t_enter > 0.0 ? r.t_enter : 0.0f;
    if (r.t > ray->tmax) r.t = ray->tmax;
    double e[3], x[3];
    if (!(t_enter > 0.0)) {
        r.point = sc_pz3(o);
        if (t_enter == 0.0 && side == 0) {
            tau = -L.ta; /* the origin */
            for (int i = 0; i < 3; ++i) e[i] = (double)sc_get(o, i) - sc_get(c->a, i);
            r.normal = sc_pz3(sc_cap_normal_at(&L, e, d, -1.0));
        }
        return r;
    }
    for (int i = 0; i < 3; ++i) {
        e[i] = L.f[i] + tau * L.d[i];
        x[i] = (double)sc_get(c->a, i) + e[i];
    }
    r.point = sc_pz3(sc_dfin3(x));
    r.normal = sc_pz3(sc_cap_normal_at(&L, e, d, -1.0));
    return r;
}

/* The outward normal where the ray's line leaves the capsule (t_exit); a zero-radius capsule faces
 * along the ray. */
sc_vec3 sc__exit_normal_capsule(const sc_ray *ray, const sc_capsule *c)
{
    if (sc_cap_same(c->a, c->b)) {
        sc_sphere s = sc_cap_ball(c, 0);
        return sc__exit_normal_sphere(ray, &s);
    }
    sc_cap_q q;
    sc_cap_prep(&q, ray, c);
    sc_cap_line L;
    sc_cap_line_solve(&L, &q);
    double e[3];
    for (int i = 0; i < 3; ++i) e[i] = L.f[i] + L.tau_exit * L.d[i];
    return sc_pz3(sc_cap_normal_at(&L, e, ray->dir, 1.0));
}

/* ------------------------------------------------------------------ closest point */

/* p outside the capsule: the nearest point of the axis f (a, b, or the foot between them), then
 * f + r (p - f) / |p - f|. On a cap this is sc_closest_point's sphere formula, bit for bit. */
sc_vec3 sc__closest_point_capsule(sc_vec3 p, const sc_capsule *c)
{
    sc_vec3 a = c->a, b = c->b;
    double t[12], f[3], m[3], q[3];
    int n = sc_terms_dot(t, 0, p, b, 1.0); /* s = (p - a).(b - a) */
    n = sc_terms_dot(t, n, p, a, -1.0);
    n = sc_terms_dot(t, n, a, b, -1.0);
    n = sc_terms_dot(t, n, a, a, 1.0);
    double s = sc_xsum_s(t, n);
    n = sc_terms_dot(t, 0, p, b, 1.0); /* s - uu = (p - b).(b - a) */
    n = sc_terms_dot(t, n, p, a, -1.0);
    n = sc_terms_dot(t, n, b, b, -1.0);
    n = sc_terms_dot(t, n, b, a, 1.0);
    double s_uu = sc_xsum_s(t, n);
    if (s <= 0.0 || s_uu >= 0.0) {
        sc_vec3 e = s <= 0.0 ? a : b;
        for (int i = 0; i < 3; ++i) m[i] = (double)sc_get(p, i) - sc_get(e, i);
        sc_vec3 u = sc_unit_d(m, (sc_vec3){0, 0, 0});
        for (int i = 0; i < 3; ++i) q[i] = (double)sc_get(e, i) + (double)c->radius * sc_get(u, i);
        return sc_dfin3(q);
    }
    double k = s / (s - s_uu); /* in (0, 1): s / uu */
    for (int i = 0; i < 3; ++i) {
        double ai = sc_get(a, i), ui = (double)sc_get(b, i) - ai;
        f[i] = ai + k * ui;
        m[i] = (double)sc_get(p, i) - f[i];
    }
    sc_vec3 u = sc_unit_d(m, (sc_vec3){0, 0, 0});
    for (int i = 0; i < 3; ++i) q[i] = f[i] + (double)c->radius * sc_get(u, i);
    return sc_dfin3(q);
}
