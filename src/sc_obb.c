/* Ray and segment against an OBB (its slabs), containment, and the exit normal of a ray from
 * inside. Classified in double from exactly summed products of the input floats (sc_exact.h). */
#include "sc_single.h"
#include "sc_exact.h"

/* The OBB queries in the box frame, from exactly summed quantities (m = o - c, a_i the box
 * axes): ol_i = m.a_i, dl_i = d.a_i, oe_i = (o + tmax d - c).a_i (the point at tmax; unused
 * for tmax = +inf) and w = m x d. The slab of axis i gives near_i = (-s_i h_i - ol_i) / dl_i
 * and far_i = (s_i h_i - ol_i) / dl_i (s_i the sign of dl_i). The classification never
 * compares rounded quotients:
 * - a parallel axis (dl_i = 0, an exact zero): |ol_i| <= h_i;
 * - the line meets the box iff near_i <= far_j for every pair i != j; multiplied out by
 *   |dl_i dl_j|: s_i s_j (N_i dl_j - F_j dl_i) <= 0, and the only large part of that,
 *   ol_j dl_i - ol_i dl_j, equals w.(a_j x a_i) (Binet-Cauchy), whose size is the distance of
 *   the line from the centre, not the distance of the origin: so the test keeps its accuracy
 *   at any distance;
 * - t_exit >= 0 iff h_j - s_j ol_j >= 0 for every j, and t_enter <= tmax iff
 *   s_i oe_i >= -h_i for every i (the point at tmax is past every near face).
 * For small dyadic inputs with axes a signed permutation every quantity is exact. */
typedef struct sc_obb_q {
    double ol[3], dl[3], oe[3], w[3], tmax;
    int tmax_inf;
    /* The inputs, for the exact fallbacks: the ray o + t d (seg = 0) or the segment from o to d
     * (seg = 1), and the box. */
    sc_vec3 o, d;
    float tmax_f;
    int seg;
    const sc_obb *box;
} sc_obb_q;

/* The exact terms (products of the input floats) of ol_i (which 0), dl_i (1) or oe_i (2); returns
 * their count (at most 12). */
static int sc_obb_terms(const sc_obb_q *q, int which, int i, double *t)
{
    sc_vec3 a = q->box->axes[i], c = q->box->center;
    int n;
    if (which == 0) { /* (o - c).a_i */
        n = sc_terms_dot(t, 0, q->o, a, 1.0);
        return sc_terms_dot(t, n, c, a, -1.0);
    }
    if (which == 1) { /* d.a_i, or (b - a).a_i */
        n = sc_terms_dot(t, 0, q->d, a, 1.0);
        return q->seg ? sc_terms_dot(t, n, q->o, a, -1.0) : n;
    }
    if (q->seg) { /* (b - c).a_i */
        n = sc_terms_dot(t, 0, q->d, a, 1.0);
        return sc_terms_dot(t, n, c, a, -1.0);
    }
    n = sc_terms_dot(t, 0, q->o, a, 1.0); /* (o + tmax d - c).a_i */
    n = sc_terms_dot(t, n, c, a, -1.0);
    for (int k = 0; k < 3; ++k, n += 2)
        sc_two_prod((double)q->tmax_f, (double)sc_get(q->d, k) * sc_get(a, k), &t[n], &t[n + 1]);
    return n;
}

/* The sign of g * v + x, exactly, for v = ol_i, dl_i or oe_i (which) and a float x; v is the
 * rounded value (the exact one when the rounding cannot matter). Rounding is monotone and x is a
 * double: only when g * v == -x can the rounded sign differ from the exact one. */
SC_COLD static int sc_obb_sign_exact(const sc_obb_q *q, int which, int i, double g, double x)
{
    double t[13];
    int n = sc_obb_terms(q, which, i, t);
    for (int k = 0; k < n; ++k) t[k] *= g;
    t[n++] = x;
    return sc__exp_sign(t, n);
}
static inline int sc_obb_sign(const sc_obb_q *q, int which, int i, double v, double g, double x)
{
    double r = g * v + x;
    if (r != 0.0) return r > 0.0 ? 1 : -1;
    return sc_obb_sign_exact(q, which, i, g, x);
}

/* |ol_i| <= h_i, exactly: the rounded |ol_i| decides unless it equals h_i. */
static inline int sc_obb_in_slab(const sc_obb_q *q, int i, double h)
{
    double a = fabs(q->ol[i]);
    if (a != h) return a < h;
    return sc_obb_sign(q, 0, i, q->ol[i], 1.0, -h) <= 0 && sc_obb_sign(q, 0, i, q->ol[i], 1.0, h) >= 0;
}

/* The exact sign of N_i dl_j - F_j dl_i = -s_i h_i dl_j - s_j h_j dl_i + ol_j dl_i - ol_i dl_j. */
SC_COLD static int sc_obb_pair_sign_exact(const sc_obb_q *q, int i, int j, const int *s, const double *h)
{
    double t[2 * 2 * 12 * 12 + 4 * 12], oi[12], oj[12], di[12], dj[12];
    int noi = sc_obb_terms(q, 0, i, oi), noj = sc_obb_terms(q, 0, j, oj);
    int ndi = sc_obb_terms(q, 1, i, di), ndj = sc_obb_terms(q, 1, j, dj);
    double hi = -s[i] * h[i], hj = -s[j] * h[j];
    int n = sc_prod_terms(t, 0, &hi, 1, dj, ndj, 1.0);
    n = sc_prod_terms(t, n, &hj, 1, di, ndi, 1.0);
    n = sc_prod_terms(t, n, oj, noj, di, ndi, 1.0);
    n = sc_prod_terms(t, n, oi, noi, dj, ndj, -1.0);
    return sc__exp_sign(t, n);
}

/* The quantities for the ray o + t d (signs exact when xs). The terms of each sum are those of
 * sc_cross_terms, sc_offset_dot_x and sc_terms_dot, in their order, written out. */
static SC_INLINE void sc_obb_q_ray_x(const sc_obb *b, sc_vec3 o, sc_vec3 d, float tmax, sc_obb_q *q, int xs)
{
    sc_vec3 c = b->center;
    const double O[3] = {o.x, o.y, o.z}, C[3] = {c.x, c.y, c.z}, D[3] = {d.x, d.y, d.z};
    double A[3][3], tw[3][4], to[3][6], td[3][3];
    for (int i = 0; i < 3; ++i) {
        A[i][0] = b->axes[i].x, A[i][1] = b->axes[i].y, A[i][2] = b->axes[i].z;
        for (int k = 0; k < 3; ++k) {
            to[i][k] = O[k] * A[i][k];
            to[i][3 + k] = -(C[k] * A[i][k]);
            td[i][k] = D[k] * A[i][k];
        }
        int j = (i + 1) % 3, k = (i + 2) % 3; /* sc_cross_w's terms */
        tw[i][0] = O[j] * D[k], tw[i][1] = -(C[j] * D[k]), tw[i][2] = -(O[k] * D[j]), tw[i][3] = C[k] * D[j];
    }
    /* two sums at a time (sc_xsum_two): the same doubles as sc_xsum / sc_xsum_s of each list */
#if defined(__GNUC__) || defined(__clang__)
    /* the same terms built two at a time, interleaved (sc_xsum_two_v), a lane past its count +0 */
    (void)tw, (void)to, (void)td;
    const sc_v2d O1 = {O[1], O[2]}, D1 = {D[2], D[0]}, C1 = {C[1], C[2]}, O2 = {O[2], O[0]}, D2 = {D[1], D[2]},
                 C2 = {C[2], C[0]};
    const sc_v2d tw01[4] = {O1 * D1, -(C1 * D1), -(O2 * D2), C2 * D2};
    /* (w2, ol0): w2's terms O0 D1, -C0 D1, -O1 D0, C1 D0; a product with a negated factor is the
     * negated product (exact) */
    const sc_v2d tp1[6] = {(sc_v2d){O[0], O[0]} * (sc_v2d){D[1], A[0][0]},
                           -((sc_v2d){C[0], O[1]} * (sc_v2d){D[1], -A[0][1]}),
                           -((sc_v2d){O[1], O[2]} * (sc_v2d){D[0], -A[0][2]}),
                           (sc_v2d){C[1], C[0]} * (sc_v2d){D[0], -A[0][0]},
                           (sc_v2d){0.0, -(C[1] * A[0][1])},
                           (sc_v2d){0.0, -(C[2] * A[0][2])}};
    const sc_v2d A1 = {A[1][0], A[2][0]}, A2 = {A[1][1], A[2][1]}, A3 = {A[1][2], A[2][2]};
    const sc_v2d tp2[6] = {O[0] * A1, O[1] * A2, O[2] * A3, -(C[0] * A1), -(C[1] * A2), -(C[2] * A3)};
    const sc_v2d tp3[3] = {D[0] * (sc_v2d){A[0][0], A[1][0]}, D[1] * (sc_v2d){A[0][1], A[1][1]},
                           D[2] * (sc_v2d){A[0][2], A[1][2]}};
    sc_xsum_two_v(tw01, 4, 4, &q->w[0], &q->w[1], 0, 0);
    sc_xsum_two_v(tp1, 4, 6, &q->w[2], &q->ol[0], 0, xs);
    sc_xsum_two_v(tp2, 6, 6, &q->ol[1], &q->ol[2], xs, xs);
    sc_xsum_two_v(tp3, 3, 3, &q->dl[0], &q->dl[1], xs, xs);
    /* dl_2 in both lanes (sc_xsum_two_v: the first proof's X in vector arithmetic, else
     * sc_xsum_lane: sc_xsum / sc_xsum_s of the same terms, the scalar call's double) */
    const sc_v2d tp4[3] = {D[0] * (sc_v2d){A[2][0], A[2][0]}, D[1] * (sc_v2d){A[2][1], A[2][1]},
                           D[2] * (sc_v2d){A[2][2], A[2][2]}};
    double dl2b;
    sc_xsum_two_v(tp4, 3, 3, &q->dl[2], &dl2b, xs, 0);
    (void)dl2b;
#else
    sc_xsum_two(tw[0], 4, tw[1], 4, &q->w[0], &q->w[1], 0, 0);
    sc_xsum_two(tw[2], 4, to[0], 6, &q->w[2], &q->ol[0], 0, xs);
    sc_xsum_two(to[1], 6, to[2], 6, &q->ol[1], &q->ol[2], xs, xs);
    sc_xsum_two(td[0], 3, td[1], 3, &q->dl[0], &q->dl[1], xs, xs);
    q->dl[2] = xs ? sc_xsum_s(td[2], 3) : sc_xsum(td[2], 3);
#endif
    q->tmax_inf = isinf(tmax);
    q->tmax = tmax;
    q->o = o;
    q->d = d;
    q->tmax_f = tmax;
    q->seg = 0;
    q->box = b;
    int i0 = 0;
#if defined(__GNUC__) || defined(__clang__)
    /* oe_0 and oe_1 two at a time: the terms below (sc_two_prod lane by lane, the same operations) */
    i0 = 2;
    q->oe[0] = q->oe[1] = 0.0;
    if (!q->tmax_inf) {
        const sc_v2d tv = {(double)tmax, (double)tmax}, split = {134217729.0, 134217729.0};
        sc_v2d te[12];
        for (int k = 0; k < 3; ++k) {
            sc_v2d ak = {A[0][k], A[1][k]}, bb = tp3[k]; /* bb = d_k a_ik */
            te[k] = O[k] * ak;
            te[3 + k] = -(C[k] * ak);
            sc_v2d x = tv * bb, ca = split * tv, cb = split * bb;
            sc_v2d ah = ca - (ca - tv), al = tv - ah, bh = cb - (cb - bb), bl = bb - bh;
            te[6 + 2 * k] = x;
            te[7 + 2 * k] = ((ah * bh - x) + ah * bl + al * bh) + al * bl;
        }
        sc_xsum_two_v(te, 12, 12, &q->oe[0], &q->oe[1], xs, xs);
    }
#endif
    for (int i = i0; i < 3; ++i) {
        double t[12];
        sc_vec3 a = b->axes[i];
        q->oe[i] = 0.0;
        if (!q->tmax_inf) {
            int n = sc_terms_dot(t, 0, o, a, 1.0);
            n = sc_terms_dot(t, n, b->center, a, -1.0);
            for (int k = 0; k < 3; ++k) {
                sc_two_prod((double)tmax, (double)sc_get(d, k) * sc_get(a, k), &t[n], &t[n + 1]);
                n += 2;
            }
            q->oe[i] = xs ? sc_xsum_s(t, n) : sc_xsum(t, n);
        }
    }
}

/* Whether some offset that decides a class summed to 0 (then a rounded tie may hide its sign:
 * sc_xsum). */
static inline int sc_obb_q_zero(const sc_obb_q *q)
{
    int z = (q->ol[0] == 0.0) | (q->ol[1] == 0.0) | (q->ol[2] == 0.0) | (q->dl[0] == 0.0) | (q->dl[1] == 0.0) |
            (q->dl[2] == 0.0);
    if (!q->tmax_inf) z |= (q->oe[0] == 0.0) | (q->oe[1] == 0.0) | (q->oe[2] == 0.0);
    return z;
}

SC_COLD static void sc_obb_q_ray_signs(const sc_obb *b, sc_vec3 o, sc_vec3 d, float tmax, sc_obb_q *q)
{
    sc_obb_q_ray_x(b, o, d, tmax, q, 1);
}

/* The quantities for the ray o + t d, every sign exact. Inlined into sc__raycast_obb_valid (in
 * wasm the call and q in linear memory cost about 6% of an OBB hit); sc_obb_q_ray for the rest. */
static SC_INLINE void sc_obb_q_ray_i(const sc_obb *b, sc_vec3 o, sc_vec3 d, float tmax, sc_obb_q *q)
{
    sc_obb_q_ray_x(b, o, d, tmax, q, 0);
    if (sc_obb_q_zero(q)) sc_obb_q_ray_signs(b, o, d, tmax, q);
}
static void sc_obb_q_ray(const sc_obb *b, sc_vec3 o, sc_vec3 d, float tmax, sc_obb_q *q)
{
    sc_obb_q_ray_i(b, o, d, tmax, q);
}

/* The segment a + t (b - a), 0 <= t <= 1, with b - a never rounded. */
static void sc_obb_q_segment(const sc_obb *box, sc_vec3 a, sc_vec3 b, sc_obb_q *q)
{
    sc_vec3 c = box->center;
    sc_cross_offset(a, b, c, q->w);
    q->tmax_inf = 0;
    q->tmax = 1.0;
    q->o = a;
    q->d = b;
    q->tmax_f = 1.0f;
    q->seg = 1;
    q->box = box;
    for (int i = 0; i < 3; ++i) {
        double t[6];
        sc_vec3 ax = box->axes[i];
        q->ol[i] = sc_offset_dot_x(a, c, ax, 1);
        q->oe[i] = sc_offset_dot_x(b, c, ax, 1);
        int n = sc_terms_dot(t, 0, b, ax, 1.0);
        n = sc_terms_dot(t, n, a, ax, -1.0);
        q->dl[i] = sc_xsum_s(t, n);
    }
}
/* X[i][j] = w.(a_j x a_i), each component of a_j x a_i rounded from two exact products and the dot
 * product rounded left to right: computed for i < j; X[j][i] = -X[i][j] is the same double (every
 * step is odd under negation: a_i x a_j's components are fl(B - A) = -fl(A - B)). */
static inline double sc_obb_wx1(const sc_obb *b, const double *w, int i, int j)
{
    sc_vec3 aj = b->axes[j], ai = b->axes[i];
    double cr[3] = {(double)aj.y * ai.z - (double)aj.z * ai.y, (double)aj.z * ai.x - (double)aj.x * ai.z,
                    (double)aj.x * ai.y - (double)aj.y * ai.x};
    return w[0] * cr[0] + w[1] * cr[1] + w[2] * cr[2];
}
static void sc_obb_wx(const sc_obb *b, const double *w, double X[3][3])
{
    for (int i = 0; i < 3; ++i) {
        X[i][i] = 0.0;
        for (int j = i + 1; j < 3; ++j) {
            X[i][j] = sc_obb_wx1(b, w, i, j);
            X[j][i] = -X[i][j];
        }
    }
}

/* The pair tests of sc_obb_solve (near_i <= far_j for every pair of non-parallel axes), exactly:
 * 0 when one fails. X is filled (sc_obb_wx). */
static int sc_obb_pairs(const sc_obb *b, const sc_obb_q *q, const int *s, const double *h, const double *hs,
                        double X[3][3])
{
    /* The size of the terms of x = w.(a_j x a_i) below: each component of a_j x a_i is a difference
     * of two products of axis components, each at most (1 + 1e-4)^2 in magnitude (the axes are unit
     * within 1e-4), so |x|'s terms are at most 2.001 (|w_0| + |w_1| + |w_2|). */
    double mw = 2.001 * (fabs(q->w[0]) + fabs(q->w[1]) + fabs(q->w[2]));
    sc_obb_wx(b, q->w, X);
    /* Each unordered pair once: with p_ij = s_i h_i dl_j, the pair (i, j)'s value is
     * (-p_ij - p_ji) + x and the pair (j, i)'s is (-p_ji - p_ij) - x (X[j][i] = -x), the same
     * doubles as computed one ordered pair at a time. */
    for (int i = 0; i < 3; ++i) {
        for (int j = i + 1; j < 3; ++j) {
            if (s[i] == 0 || s[j] == 0) continue;
            double pij = hs[i] * q->dl[j], pji = hs[j] * q->dl[i], x = X[i][j];
            double sm = -pij - pji, v = sm + x, u = sm - x;
            /* v's and u's error is a few 2^-53 of their terms' size m: too close to 0, the exact sign */
            double f = SC_FILTER * (mw + fabs(pij) + fabs(pji));
            int sij = s[i] * s[j];
            double ss = sij; /* beyond the filter, s_i s_j sign(v) > 0 iff ss v > 0 */
            if (fabs(v) > f ? ss * v > 0.0 : sij * sc_obb_pair_sign_exact(q, i, j, s, h) > 0) return 0;
            if (fabs(u) > f ? ss * u > 0.0 : sij * sc_obb_pair_sign_exact(q, j, i, s, h) > 0) return 0;
        }
    }
    return 1;
}

/* The relative margin of sc_obb_solve's certified pass of the pair tests (2^-40). */
#ifndef SC_OBB_CERT_MARGIN
#define SC_OBB_CERT_MARGIN 9.094947017729282e-13
#endif

/* Classification (see above); on a hit, the interval in units of d and the entry axis. Inlined
 * into sc__raycast_obb_valid, as sc_obb_q_ray_i; sc_obb_solve for sc__linetest_obb. */
static SC_INLINE int sc_obb_solve_i(const sc_obb *b, const sc_obb_q *q, double *t_enter, double *t_exit, int *axis,
                                    double X[3][3])
{
    double h[3] = {b->half.x, b->half.y, b->half.z};
    int s[3];
    /* The origin in the closed box (the same exact test as sc_contains): t = 0 is in I and
     * in [0, tmax], a hit whatever the rounded tests below would say. */
    int inside = sc_obb_in_slab(q, 0, h[0]) && sc_obb_in_slab(q, 1, h[1]) && sc_obb_in_slab(q, 2, h[2]);
    for (int i = 0; i < 3; ++i) {
        s[i] = sc_sgn(q->dl[i]); /* exact: an exactly summed value */
        if (inside) continue;
        if (s[i] == 0) {
            if (!sc_obb_in_slab(q, i, h[i])) return 0;
        } else {
            if (sc_obb_sign(q, 0, i, q->ol[i], -s[i], h[i]) < 0) return 0;                    /* far_i < 0 */
            if (!q->tmax_inf && sc_obb_sign(q, 2, i, q->oe[i], s[i], h[i]) < 0) return 0;     /* near_i > tmax */
        }
    }
    double hs[3] = {s[0] * h[0], s[1] * h[1], s[2] * h[2]}; /* s_i h_i, exact */
    double tn = -INFINITY, tf = INFINITY, lo = -INFINITY, hi = INFINITY;
    int ax = -1;
    for (int i = 0; i < 3; ++i) {
        if (s[i] == 0) continue;
#if defined(__GNUC__) || defined(__clang__)
        sc_v2d qv = ((sc_v2d){-hs[i], hs[i]} - q->ol[i]) / q->dl[i]; /* both quotients in one division */
        double nr = qv[0], fr = qv[1];
#else
        double nr = (-hs[i] - q->ol[i]) / q->dl[i];
        double fr = (hs[i] - q->ol[i]) / q->dl[i];
#endif
        if (nr > tn) { tn = nr; ax = i; }
        if (fr < tf) tf = fr;
        /* nr and fr are within 2^-45 M of near_i and far_i, M = max(|nr|, |fr|) = (|h_i| + |ol_i|) /
         * |dl_i| (rounded): ol_i and dl_i within a few 2^-53 of their exact sums (sc_xsum), one
         * rounding each for the difference and the quotient; e = 2^-40 M covers that and the
         * rounding of nr + e, fr - e. */
        double e = SC_OBB_CERT_MARGIN * (fabs(nr) > fabs(fr) ? fabs(nr) : fabs(fr));
        if (nr + e > lo) lo = nr + e;
        if (fr - e < hi) hi = fr - e;
    }
    if (!inside) {
        if (lo < hi && ax >= 0) {
            /* every near_i < far_j, certified (the exact pair tests would pass): only the entry
             * axis's X, for the point (sc__raycast_obb_valid) */
            for (int i = 0; i < 3; ++i) {
                if (i == ax) continue;
                double x = i > ax ? sc_obb_wx1(b, q->w, ax, i) : sc_obb_wx1(b, q->w, i, ax);
                X[ax][i] = i > ax ? x : -x;
            }
        } else if (!sc_obb_pairs(b, q, s, h, hs, X)) {
            return 0;
        }
    }
    /* The quotients are rounded (and ill-conditioned for a dir nearly parallel to a face):
     * keep them consistent with the classification above. The entry is kept and the exit
     * raised to it, not the other way round: the entry's point is the one reported, and it
     * must lie on the box (a lowered entry could be far from it along a grazing ray). */
    if (!q->tmax_inf && tn > q->tmax) tn = q->tmax;
    if (inside && tn > 0.0) tn = 0.0;
    if (tn > tf) tf = tn;
    if (tf < 0.0) tf = 0.0;
    *t_enter = tn;
    *t_exit = tf;
    *axis = ax;
    return 1;
}

static int sc_obb_solve(const sc_obb *b, const sc_obb_q *q, double *t_enter, double *t_exit, int *axis, double X[3][3])
{
    return sc_obb_solve_i(b, q, t_enter, t_exit, axis, X);
}

/* A double result as sc__raycast_obb_valid reports it: rounded to float within +-FLT_MAX, +0 for
 * -0 (monotone: a value between two doubles with the same such float has that float too). */
static inline float sc_obb_f32d(double a) { return sc_pz(sc_dfin(a)); }

/* The unit normal of the face of axis `axis` whose outward side is s (+-1) times the axis, as the
 * queries report it (-0 as +0): the entry face's (sc__raycast_obb_valid, sc__raycast_obb_hit) and
 * the exit face's (sc__exit_normal_obb). */
static inline sc_vec3 sc_obb_face_normal(const sc_obb *b, int axis, float s)
{
    sc_vec3 a = sc_normalize_or(b->axes[axis], b->axes[axis]);
    return sc_pz3(sc_scale(a, s));
}

sc_raycast_result sc__raycast_obb_valid(const sc_ray *ray, const sc_obb *box)
{
    sc_obb_q q;
    double tn, tf;
    int axis;
    double X[3][3];
    sc_obb_q_ray_i(box, ray->origin, ray->dir, ray->tmax, &q);
    if (!sc_obb_solve_i(box, &q, &tn, &tf, &axis, X)) return sc_miss();
    sc_raycast_result r = sc_miss();
    r.hit = 1;
    r.t_enter = sc_obb_f32d(tn);
    r.t_exit = sc_obb_f32d(tf);
    r.t = tn > 0.0 ? r.t_enter : 0.0f;
    if (r.t > ray->tmax) r.t = ray->tmax;
    if (!(tn > 0.0)) {
        r.point = sc_pz3(ray->origin);
    } else {
        /* The point from the unrounded parameter (docs/semantics.md: a t past FLT_MAX is
         * reported saturated, the point is not), in the box frame: c + sum_i a_i l_i with the
         * entry axis on its face, l_axis = -+h_axis, and for the others
         * l_i = ol_i + t dl_i = (ol_i dl_ax - ol_ax dl_i - s_ax h_ax dl_i) / dl_ax, where
         * ol_i dl_ax - ol_ax dl_i = w.(a_i x a_ax) (as in sc_obb_solve): no cancellation of
         * the origin's distance, so the point is as accurate far away as near. Clamped to the
         * box (the exact point is in it). */
        double p[3] = {box->center.x, box->center.y, box->center.z};
        double h[3] = {box->half.x, box->half.y, box->half.z};
        int sa = q.dl[axis] > 0.0 ? 1 : -1;
        double l[3], sh = sa * h[axis];
        int j1 = axis == 0 ? 1 : 0, j2 = axis == 2 ? 1 : 2; /* the other two axes */
#if defined(__GNUC__) || defined(__clang__)
        /* x = w.(a_i x a_axis), as sc_obb_solve's; both quotients in one division */
        sc_v2d lv = ((sc_v2d){X[axis][j1], X[axis][j2]} - sh * (sc_v2d){q.dl[j1], q.dl[j2]}) / q.dl[axis];
        l[j1] = lv[0], l[j2] = lv[1];
#else
        l[j1] = (X[axis][j1] - sh * q.dl[j1]) / q.dl[axis];
        l[j2] = (X[axis][j2] - sh * q.dl[j2]) / q.dl[axis];
#endif
        l[axis] = -sh;
        for (int i = 0; i < 3; ++i) {
            sc_vec3 ai = box->axes[i];
            double li = l[i];
            if (li > h[i]) li = h[i];
            if (li < -h[i]) li = -h[i];
            p[0] += li * ai.x;
            p[1] += li * ai.y;
            p[2] += li * ai.z;
        }
        r.point = sc_pz3(sc_dfin3(p));
    }
    if (tn >= 0.0 && axis >= 0) {
        r.normal = sc_obb_face_normal(box, axis, q.dl[axis] > 0.0 ? -1.0f : 1.0f);
    }
    return r;
}

/* The margin of sc__raycast_obb_hit, relative to the size of the terms (2^-46): each quantity of
 * sc__raycast_obb_valid (an exact sum rounded by sc_xsum: within about 2 2^-53 of its terms' size,
 * 4 2^-53 on a tie that rounds it to 0) and the same quantity in plain double here (a few
 * roundings, each within 2^-53 of its terms' size) differ by at most about 8 2^-53 = 2^-50 of
 * the terms' size; so does each later step's pair of roundings. 2^-46 is sixteen times that. */
#define SC_OBB_HIT_MH 1.4210854715202004e-14

/* sc__raycast_obb_hit's point: c + sum_i l_i a_i (in that order, as sc__raycast_obb_valid) with
 * l_axis = -s h_axis (exact, the core's) and, for the other two, l_j = X_j / dl_axis - h_axis dl_j /
 * |dl_axis| (the core's (X_j - s h_axis dl_j) / dl_axis) clamped to [-h_j, h_j], X_j = w.(a_j x
 * a_axis). X_j within eX (sum_k ew |cr_k| + MH sum_k |w_k cr_k|, each cr_k at most 2.0004 in size),
 * dl_j and |dl_axis| within ed, so y = X_j / dl_axis within 2 (eX + |y| ed) / |dl_axis| and z =
 * h_axis dl_j / |dl_axis| within (h_axis + 2 |z|) ed / |dl_axis| (|dl_axis| > 2 ed), the roundings
 * within MH of |y| + |z|; the clamp moves no bound apart; the sum's roundings within MH of its
 * terms. A component no l_j reaches (a_jk = 0 for both j other than the axis) is the core's own
 * double (the same operations on the same values), so its bound is 0: it may be a tie between two
 * floats, which any bound would straddle. 1 with p[0..2] set, else 0. */
static int sc_obb_hit_point(const sc_obb *b, const double *m, const sc_vec3 dir, const double *dl, int axis,
                                  double ed, double ew, float *p)
{
    const double MH = SC_OBB_HIT_MH;
    const double dx = dir.x, dy = dir.y, dz = dir.z;
    const double w[3] = {m[1] * dz - m[2] * dy, m[2] * dx - m[0] * dz, m[0] * dy - m[1] * dx};
    const double eX = ew * 6.01 + MH * 2.01 * (fabs(w[0]) + fabs(w[1]) + fabs(w[2]));
    const sc_vec3 e = b->axes[axis];
    const double h[3] = {b->half.x, b->half.y, b->half.z};
    const double dla = dl[axis], ia = 1.0 / dla, aia = fabs(ia), ha = h[axis];
    double L[3], E[3];
    for (int j = 0; j < 3; ++j) {
        if (j == axis) {
            L[j] = dla > 0.0 ? -ha : ha;
            E[j] = 0.0;
            continue;
        }
        const sc_vec3 k = b->axes[j];
        const double X = w[0] * ((double)k.y * e.z - (double)k.z * e.y) + w[1] * ((double)k.z * e.x - (double)k.x * e.z) +
                         w[2] * ((double)k.x * e.y - (double)k.y * e.x);
        const double y = X * ia, z = ha * dl[j] * aia;
        double l = y - z;
        E[j] = 2.0 * (eX + (fabs(y) + fabs(z) + ha) * ed) * aia + MH * (fabs(y) + fabs(z));
        if (l > h[j]) l = h[j];
        if (l < -h[j]) l = -h[j];
        L[j] = l;
    }
    const double c[3] = {b->center.x, b->center.y, b->center.z};
    for (int k = 0; k < 3; ++k) {
        const double a0 = sc_get(b->axes[0], k), a1 = sc_get(b->axes[1], k), a2 = sc_get(b->axes[2], k);
        const double v = ((c[k] + L[0] * a0) + L[1] * a1) + L[2] * a2;
        const double er = E[0] * fabs(a0) + E[1] * fabs(a1) + E[2] * fabs(a2);
        const double ep = er == 0.0 ? 0.0
            : er + MH * (fabs(c[k]) + (fabs(L[0]) + E[0]) * fabs(a0) + (fabs(L[1]) + E[1]) * fabs(a1) + (fabs(L[2]) + E[2]) * fabs(a2));
        const float f = sc_obb_f32d(v - ep);
        if (f != sc_obb_f32d(v + ep)) return 0;
        p[k] = f;
    }
    return 1;
}

/* A certain hit of a valid ray and OBB (sc_ray_check and sc_obb_check pass), answered without
 * the exact sums: 1 with *r = sc__raycast_obb_valid's result (the same floats), else 0 (*r unset:
 * that function decides). sc__raycast_obb_valid computes ol_i = (o - c).a_i, dl_i = d.a_i and
 * w = (o - c) x d as exactly summed doubles, then plain double arithmetic on them, and
 * rounds its results to float; here they are computed in plain double, each within MH of its
 * terms' size, and the bounds carried through every step. An answer is given only when every
 * decision of the core is certain from them and each float result is the same float at both ends
 * of its interval (rounding is monotone, so the core's value, inside it, rounds to that float):
 * - every dl_i of certain sign (|dl_i| > 2 ed): the core's s_i, and the quotients bounded;
 * - near_i = -ol_i / dl_i - h_i / |dl_i| and far_i = -ol_i / dl_i + h_i / |dl_i| (the core's
 *   (-+s_i h_i - ol_i) / dl_i) within e_i: c_i = -ol_i / dl_i within 2 (eo + |c_i| ed) / |dl_i|,
 *   r_i = h_i / |dl_i| within 2 r_i ed / |dl_i|, the roundings within MH of |c_i| + r_i;
 * - one near certainly above the other two (the core's entry axis and tn), every near certainly
 *   below every far (the line meets the box: the core's pair tests, certified or exact, pass), tn
 *   certainly in (0, tmax) (so the origin is outside, every far past 0, every near before tmax,
 *   and neither clamp of tn applies);
 * - t_enter, t_exit and the point the same float at both ends; the normal is the core's own
 *   computation (sc_obb_face_normal of the entry axis). */
int sc__raycast_obb_hit(const sc_ray *ray, const sc_obb *b, sc_raycast_result *r)
{
    const double MH = SC_OBB_HIT_MH;
    const double o[3] = {ray->origin.x, ray->origin.y, ray->origin.z}, d[3] = {ray->dir.x, ray->dir.y, ray->dir.z};
    const double c[3] = {b->center.x, b->center.y, b->center.z}, h[3] = {b->half.x, b->half.y, b->half.z};
    const double tmax = ray->tmax;
    /* the terms of ol_i: o_k a_ik, -c_k a_ik; of dl_i: d_k a_ik; of w_i: +-o_j d_k, +-c_j d_k (every
     * axis component of a valid box is at most 1.0001 in size) */
    const double oc = fabs(o[0]) + fabs(o[1]) + fabs(o[2]) + fabs(c[0]) + fabs(c[1]) + fabs(c[2]);
    const double d1 = fabs(d[0]) + fabs(d[1]) + fabs(d[2]);
    const double eo = MH * 1.0001 * oc, ed = MH * 1.0001 * d1;
    const double m[3] = {o[0] - c[0], o[1] - c[1], o[2] - c[2]};
    double dl[3], n[3], f[3], e[3];
    for (int i = 0; i < 3; ++i) {
        const sc_vec3 a = b->axes[i];
        dl[i] = d[0] * a.x + d[1] * a.y + d[2] * a.z;
        if (!(fabs(dl[i]) > 2.0 * ed)) return 0;
        const double ol = m[0] * a.x + m[1] * a.y + m[2] * a.z;
        const double inv = 1.0 / dl[i], ai = fabs(inv);
        const double ci = -ol * inv, ri = h[i] * ai, k = fabs(ci) + ri;
        n[i] = ci - ri;
        f[i] = ci + ri;
        e[i] = 2.0 * (eo + k * ed) * ai + MH * k;
    }
    int axis = -1;
    for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3, k = (i + 2) % 3;
        if (n[i] - e[i] > n[j] + e[j] && n[i] - e[i] > n[k] + e[k]) axis = i;
    }
    if (axis < 0) return 0;
    const double tn = n[axis], en = e[axis];
    const double flo = fmin(fmin(f[0] - e[0], f[1] - e[1]), f[2] - e[2]);
    const double fhi = fmin(fmin(f[0] + e[0], f[1] + e[1]), f[2] + e[2]);
    if (!(tn + en < flo && tn - en > 0.0 && tn + en < tmax)) return 0;
    const float te = sc_obb_f32d(tn - en), tx = sc_obb_f32d(flo);
    if (te != sc_obb_f32d(tn + en) || tx != sc_obb_f32d(fhi)) return 0;
    float p[3];
    if (!sc_obb_hit_point(b, m, ray->dir, dl, axis, ed, MH * oc * d1, p)) return 0;
    const sc_vec3 nrm = sc_obb_face_normal(b, axis, dl[axis] > 0.0 ? -1.0f : 1.0f);
    *r = sc_miss();
    r->hit = 1;
    r->t = te > ray->tmax ? ray->tmax : te;
    r->t_enter = te;
    r->t_exit = tx;
    r->point = (sc_vec3){p[0], p[1], p[2]};
    r->normal = nrm;
    return 1;
}

/* The segment a + t (b - a), 0 <= t <= 1 (a != b), with b - a never rounded. */
int sc__linetest_obb(sc_vec3 a, sc_vec3 b, const sc_obb *box)
{
    sc_obb_q q;
    double tn, tf;
    int axis;
    double X[3][3];
    sc_obb_q_segment(box, a, b, &q);
    return sc_obb_solve(box, &q, &tn, &tf, &axis, X);
}

/* |(p - c).a_i| <= h_i, each offset exactly summed (see sc_xsum), ties decided exactly. */
int sc__contains_obb(sc_vec3 p, const sc_obb *b)
{
    sc_obb_q q;
    q.o = p;
    q.seg = 0;
    q.box = b;
    for (int i = 0; i < 3; ++i) {
        q.ol[i] = sc_offset_dot_x(p, b->center, b->axes[i], 1);
        if (!sc_obb_in_slab(&q, i, sc_get(b->half, i))) return 0;
    }
    return 1;
}

/* In the box frame (exactly summed origin and direction, sc_obb_q_ray): the axis of the smallest
 * far-plane parameter (s h - ol) / dl, s the sign of dl. */
sc_vec3 sc__exit_normal_obb(const sc_ray *ray, const sc_obb *box)
{
    sc_obb_q q;
    sc_obb_q_ray(box, ray->origin, ray->dir, ray->tmax, &q);
    double h[3] = {box->half.x, box->half.y, box->half.z};
    int axis = -1;
    double best = INFINITY;
    for (int i = 0; i < 3; ++i) {
        if (q.dl[i] == 0.0) continue;
        double s = q.dl[i] > 0.0 ? 1.0 : -1.0;
        double t = (s * h[i] - q.ol[i]) / q.dl[i];
        if (axis < 0 || t < best) { best = t; axis = i; }
    }
    if (axis < 0) return (sc_vec3){0, 0, 0};
    return sc_obb_face_normal(box, axis, q.dl[axis] > 0.0 ? 1.0f : -1.0f);
}
