/* sc_capsule_pred.h: the exact distance predicates of sc_capsule.c, written once for both of its
 * number types (sc_exact_num.h). Included twice by sc_capsule.c, with
 *   NUM          the number type (sc_fd: double with an error bound; sc_bf: exact),
 *   OP(name)     its operations: OP(add)(r, a, b), OP(sub), OP(mul) (r may alias a or b),
 *                OP(set)(r, x) an exact double, OP(sign)(a): -1, 0, 1 or SC_NUM_UNKNOWN,
 *   CAP_FN(name) the name of each function here for this type.
 *
 * The question: is the distance between the point set P = {P0 + s D1} (s in [0, 1], or s >= 0 for
 * a half-line, D1 may be 0: a point) and the segment Q = {Q0 + t D2} (t in [0, 1], D2 may be 0)
 * at most R, given R2 = R^2? The squared distance is a convex quadratic in (s, t); its minimum
 * over the domain lies where the gradient vanishes (the lines' common perpendicular, when it
 * meets both pieces) or on the domain's boundary: an end point of one against the other piece.
 * Each of these candidates is a real distance between a point of P and a point of Q, so the
 * answer is the OR of them:
 *
 *   point X against the piece S0 + t D (t in [0, 1], or t >= 0), with e = X - S0, s = e.D,
 *   dd = D.D:   |e|^2 <= R2   (the end S0)
 *            or |e - D|^2 <= R2   (the end S0 + D; a finite piece)
 *            or dd > 0, 0 <= s (<= dd for a finite piece), |e|^2 dd - s^2 <= R2 dd   (between);
 *   the common perpendicular: n = D1 x D2, nn = n.n > 0, w = P0 - Q0,
 *            sN = (D1.D2)(D2.w) - (D2.D2)(D1.w), tN = (D1.D1)(D2.w) - (D1.D2)(D1.w)
 *            (s = sN / nn, t = tN / nn), 0 <= sN (<= nn for a finite P), 0 <= tN <= nn,
 *            (w.n)^2 <= R2 nn.
 *
 * Every condition is the sign of a polynomial in the inputs; the highest degree is 8 (a ray of
 * finite tmax: D1 = tmax * dir, products of two floats), within what sc_bf holds. The answer is
 * a tri-state: 1 when some candidate certainly holds, 0 when every one certainly fails, else
 * SC_NUM_UNKNOWN (the caller then asks the exact type). */

#ifndef SC_CAP_ONCE
#define SC_CAP_ONCE
/* Tri-state AND / OR of 1, 0 and SC_NUM_UNKNOWN. */
static inline int sc_cap_and(int a, int b)
{
    if (a == 0 || b == 0) return 0;
    return (a == SC_NUM_UNKNOWN || b == SC_NUM_UNKNOWN) ? SC_NUM_UNKNOWN : 1;
}
static inline int sc_cap_or(int a, int b)
{
    if (a == 1 || b == 1) return 1;
    return (a == SC_NUM_UNKNOWN || b == SC_NUM_UNKNOWN) ? SC_NUM_UNKNOWN : 0;
}
/* sign(x) <= 0, sign(x) >= 0, sign(x) > 0 as tri-states. */
static inline int sc_cap_le0(int s) { return s == SC_NUM_UNKNOWN ? SC_NUM_UNKNOWN : s <= 0; }
static inline int sc_cap_ge0(int s) { return s == SC_NUM_UNKNOWN ? SC_NUM_UNKNOWN : s >= 0; }
static inline int sc_cap_gt0(int s) { return s == SC_NUM_UNKNOWN ? SC_NUM_UNKNOWN : s > 0; }
#endif

/* r = u . v (in the order u0 v0 + u1 v1 + u2 v2). */
static inline void CAP_FN(dot)(NUM *r, const NUM *u, const NUM *v)
{
    NUM t;
    OP(mul)(r, &u[0], &v[0]);
    OP(mul)(&t, &u[1], &v[1]);
    OP(add)(r, r, &t);
    OP(mul)(&t, &u[2], &v[2]);
    OP(add)(r, r, &t);
}

/* r = u x v. */
static inline void CAP_FN(cross)(NUM *r, const NUM *u, const NUM *v)
{
    NUM t;
    for (int i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        OP(mul)(&r[i], &u[j], &v[k]);
        OP(mul)(&t, &u[k], &v[j]);
        OP(sub)(&r[i], &r[i], &t);
    }
}

/* sign(|a|^2 - R2). */
static inline int CAP_FN(norm2_cmp)(const NUM *a, const NUM *R2)
{
    NUM x;
    CAP_FN(dot)(&x, a, a);
    OP(sub)(&x, &x, R2);
    return OP(sign)(&x);
}

/* Whether the point X is within R of the piece S0 + t D (t in [0, 1]; t >= 0 when half). */
static int CAP_FN(point_piece)(const NUM *X, const NUM *S0, const NUM *D, int half, const NUM *R2)
{
    NUM e[3], f[3], s, dd, ee, x, y;
    for (int i = 0; i < 3; ++i) OP(sub)(&e[i], &X[i], &S0[i]);
    int r = sc_cap_le0(CAP_FN(norm2_cmp)(e, R2));
    if (r == 1) return 1;
    if (!half) {
        for (int i = 0; i < 3; ++i) OP(sub)(&f[i], &e[i], &D[i]);
        r = sc_cap_or(r, sc_cap_le0(CAP_FN(norm2_cmp)(f, R2)));
        if (r == 1) return 1;
    }
    CAP_FN(dot)(&dd, D, D);
    CAP_FN(dot)(&s, e, D);
    int c = sc_cap_and(sc_cap_gt0(OP(sign)(&dd)), sc_cap_ge0(OP(sign)(&s)));
    if (!half && c != 0) {
        OP(sub)(&x, &dd, &s);
        c = sc_cap_and(c, sc_cap_ge0(OP(sign)(&x)));
    }
    if (c != 0) {
        CAP_FN(dot)(&ee, e, e);
        OP(mul)(&x, &ee, &dd);
        OP(mul)(&y, &s, &s);
        OP(sub)(&x, &x, &y);
        OP(mul)(&y, R2, &dd);
        OP(sub)(&x, &x, &y);
        c = sc_cap_and(c, sc_cap_le0(OP(sign)(&x)));
    }
    return sc_cap_or(r, c);
}

/* The common perpendicular candidate of the predicate (see the top of this file). */
static int CAP_FN(perpendicular)(const NUM *P0, const NUM *D1, int half, const NUM *Q0, const NUM *D2,
                                 const NUM *R2)
{
    NUM n[3], w[3], nn, a, b, c, d, e, x, y;
    CAP_FN(cross)(n, D1, D2);
    CAP_FN(dot)(&nn, n, n);
    int ok = sc_cap_gt0(OP(sign)(&nn));
    if (ok == 0) return 0;
    for (int i = 0; i < 3; ++i) OP(sub)(&w[i], &P0[i], &Q0[i]);
    CAP_FN(dot)(&a, D1, D1);
    CAP_FN(dot)(&b, D1, D2);
    CAP_FN(dot)(&c, D2, D2);
    CAP_FN(dot)(&d, D1, w);
    CAP_FN(dot)(&e, D2, w);
    /* sN = b e - c d: 0 <= sN (<= nn) */
    OP(mul)(&x, &b, &e);
    OP(mul)(&y, &c, &d);
    OP(sub)(&x, &x, &y);
    ok = sc_cap_and(ok, sc_cap_ge0(OP(sign)(&x)));
    if (ok == 0) return 0;
    if (!half) {
        OP(sub)(&y, &nn, &x);
        ok = sc_cap_and(ok, sc_cap_ge0(OP(sign)(&y)));
        if (ok == 0) return 0;
    }
    /* tN = a e - b d: 0 <= tN <= nn */
    OP(mul)(&x, &a, &e);
    OP(mul)(&y, &b, &d);
    OP(sub)(&x, &x, &y);
    ok = sc_cap_and(ok, sc_cap_ge0(OP(sign)(&x)));
    if (ok == 0) return 0;
    OP(sub)(&y, &nn, &x);
    ok = sc_cap_and(ok, sc_cap_ge0(OP(sign)(&y)));
    if (ok == 0) return 0;
    /* (w.n)^2 <= R2 nn */
    CAP_FN(dot)(&x, w, n);
    OP(mul)(&x, &x, &x);
    OP(mul)(&y, R2, &nn);
    OP(sub)(&x, &x, &y);
    return sc_cap_and(ok, sc_cap_le0(OP(sign)(&x)));
}

/* Whether P (P0 + s D1, s in [0, 1], or s >= 0 when half) comes within R of Q0 + t D2, t in [0, 1]. */
static int CAP_FN(within)(const NUM *P0, const NUM *D1, int half, const NUM *Q0, const NUM *D2, const NUM *R2)
{
    NUM X[3];
    int r = CAP_FN(point_piece)(P0, Q0, D2, 0, R2);
    if (r == 1) return 1;
    r = sc_cap_or(r, CAP_FN(point_piece)(Q0, P0, D1, half, R2));
    if (r == 1) return 1;
    for (int i = 0; i < 3; ++i) OP(add)(&X[i], &Q0[i], &D2[i]);
    r = sc_cap_or(r, CAP_FN(point_piece)(X, P0, D1, half, R2));
    if (r == 1) return 1;
    if (!half) {
        for (int i = 0; i < 3; ++i) OP(add)(&X[i], &P0[i], &D1[i]);
        r = sc_cap_or(r, CAP_FN(point_piece)(X, Q0, D2, 0, R2));
        if (r == 1) return 1;
    }
    return sc_cap_or(r, CAP_FN(perpendicular)(P0, D1, half, Q0, D2, R2));
}

/* sign(dist(X, segment S0 + t D)^2 - R2): -1 strictly within, 0 at distance R, 1 farther (or
 * SC_NUM_UNKNOWN). The region of the nearest point (the end S0, the end S0 + D, between) is
 * decided first. */
static int CAP_FN(point_side)(const NUM *X, const NUM *S0, const NUM *D, const NUM *R2)
{
    NUM e[3], s, dd, x, y;
    for (int i = 0; i < 3; ++i) OP(sub)(&e[i], &X[i], &S0[i]);
    CAP_FN(dot)(&s, e, D);
    int ss = OP(sign)(&s);
    if (ss == SC_NUM_UNKNOWN) return SC_NUM_UNKNOWN;
    if (ss <= 0) return CAP_FN(norm2_cmp)(e, R2); /* also D = 0 */
    CAP_FN(dot)(&dd, D, D);
    OP(sub)(&x, &s, &dd);
    int sd = OP(sign)(&x);
    if (sd == SC_NUM_UNKNOWN) return SC_NUM_UNKNOWN;
    if (sd >= 0) {
        for (int i = 0; i < 3; ++i) OP(sub)(&e[i], &e[i], &D[i]);
        return CAP_FN(norm2_cmp)(e, R2);
    }
    /* 0 < s < dd: sign(|e|^2 dd - s^2 - R2 dd), dd > 0 */
    CAP_FN(dot)(&x, e, e);
    OP(mul)(&x, &x, &dd);
    OP(mul)(&y, &s, &s);
    OP(sub)(&x, &x, &y);
    OP(mul)(&y, R2, &dd);
    OP(sub)(&x, &x, &y);
    return OP(sign)(&x);
}
