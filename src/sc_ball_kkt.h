/* sc_ball_kkt.h: the ball-against-polytope decision of sc_ball.c, written once for both of its
 * number types. Included twice by sc_ball.c, with
 *   NUM          the number type (sc_fd: double with an error bound; sc_bf: exact),
 *   OP(name)     its operations: OP(add)(r, a, b), OP(sub), OP(mul) (r may alias a or b), and
 *                OP(sign)(a): -1, 0, 1, or SC_BALL_UNKNOWN when the type cannot tell,
 *   OP(set)(r, x) an exact double as a number,
 *   KKT_FN(name) the name of each function here for this type (its decision from half-spaces
 *                is KKT_FN(halfspaces)).
 *
 * Each stage below is one function: the centre (S = {}), one active half-space, a pair, a triple;
 * KKT_FN(decide) runs them in order. The order of the operations and of their operands is part
 * of the behaviour: sc_fd's error bounds depend on it (a change could turn a near tie that the
 * doubles decide today into one left to the exact numbers, or the reverse).
 *
 * The question: does the closed ball |y| <= r (y = x - centre) meet the polytope n_k . y <= beta_k
 * (k < m; beta_k = b_k - n_k . centre)? Its point nearest the centre, y*, is unique when the
 * polytope is not empty, and satisfies the Karush-Kuhn-Tucker conditions with some set S of
 * active half-spaces whose normals are linearly independent (|S| <= 3): y* = -1/2 sum_{k in S}
 * lambda_k n_k with every lambda_k >= 0, n_k . y* = beta_k on S, and y* inside every other
 * half-space. Conversely any S satisfying them gives y*. So each candidate S is tried, in
 * order of size, and the first one whose conditions certainly hold decides: the ball meets the
 * polytope when |y*|^2 <= r^2. Every condition is the sign of a polynomial in the inputs
 * (Cramer's rule, no division):
 *
 *   S = {}:        y* = 0; all beta_k >= 0 (the centre is inside).
 *   S = {i}:       g = n_i.n_i; y* = beta_i n_i / g.
 *                  lambda >= 0: beta_i <= 0; other k: beta_i (n_k.n_i) <= beta_k g;
 *                  |y*|^2 <= r^2: beta_i^2 <= r^2 g.
 *   S = {i, j}:    G = Gram(n_i, n_j), D = det G > 0 (else dependent: not a candidate);
 *                  s = g_jj beta_i - g_ij beta_j, t = g_ii beta_j - g_ij beta_i; y* = (s n_i + t n_j) / D.
 *                  lambda >= 0: s <= 0 and t <= 0; other k: s (n_k.n_i) + t (n_k.n_j) <= beta_k D;
 *                  |y*|^2 = (s beta_i + t beta_j) / D <= r^2: s beta_i + t beta_j <= r^2 D.
 *   S = {i, j, l}: rows a, b, c; det = a.(b x c) != 0 (else dependent), sigma its sign;
 *                  y = beta_i (b x c) + beta_j (c x a) + beta_l (a x b); y* = y / det.
 *                  lambda >= 0: (b x c).y <= 0, (c x a).y <= 0, (a x b).y <= 0;
 *                  other k: sigma (n_k.y - beta_k det) <= 0; |y*|^2 <= r^2: y.y <= r^2 det^2.
 *
 * KKT_FN(decide) returns 1 (they meet), 0 (they do not: the ball misses, or no S qualifies, so the polytope is
 * empty), or SC_BALL_UNKNOWN when a sign the answer depends on could not be told. skip_pair:
 * half-spaces 2i and 2i + 1 are opposite (an OBB's slabs), never both active unless the slab is
 * flat, where either one alone serves. */

/* sign(x) <= 0 as a tri-state: 1 yes, 0 no, SC_BALL_UNKNOWN. */
#define SC_KKT_NONPOS(s) ((s) == SC_BALL_UNKNOWN ? SC_BALL_UNKNOWN : (s) <= 0)

#ifndef SC_KKT_ONCE
#define SC_KKT_ONCE
/* A stage's answer when no candidate S of its size qualified: the next size is tried. */
#define SC_KKT_NONE (-1)

/* A candidate's running tri-state ok (1 or SC_BALL_UNKNOWN) after one more condition s
 * (1, 0, SC_BALL_UNKNOWN): 0 when s fails, unknown when s cannot be told, else ok. */
static int sc_kkt_and(int ok, int s)
{
    if (s == 0) return 0;
    return s == SC_BALL_UNKNOWN ? SC_BALL_UNKNOWN : ok;
}
#endif

/* r = u . v, summed in the order u0 v0 + u1 v1 + u2 v2; t is a temporary. */
static inline void KKT_FN(dot)(NUM *r, const NUM *u, const NUM *v, NUM *t)
{
    OP(mul)(r, &u[0], &v[0]);
    OP(mul)(t, &u[1], &v[1]);
    OP(add)(r, r, t);
    OP(mul)(t, &u[2], &v[2]);
    OP(add)(r, r, t);
}

/* S = {}: 1 when the centre is certainly inside every half-space (all beta_k >= 0), else NONE
 * (*unknown set when some sign could not be told). */
static int KKT_FN(centre)(const NUM *beta, int m, int *unknown)
{
    int inside = 1;
    for (int k = 0; k < m; ++k) {
        int s = OP(sign)(&beta[k]);
        if (s == SC_BALL_UNKNOWN) inside = SC_BALL_UNKNOWN;
        else if (s < 0) { inside = 0; break; }
    }
    if (inside == 1) return 1;
    if (inside == SC_BALL_UNKNOWN) *unknown = 1;
    return SC_KKT_NONE;
}

/* The Gram matrix g[i][j] = n_i . n_j. */
static void KKT_FN(gram)(const NUM n[][3], int m, NUM g[][SC_BALL_MAX])
{
    for (int i = 0; i < m; ++i) {
        for (int j = i; j < m; ++j) {
            NUM p;
            KKT_FN(dot)(&g[i][j], n[i], n[j], &p);
            g[j][i] = g[i][j];
        }
    }
}

/* S = {i}, for each i in turn: the first that qualifies decides by beta_i^2 <= r^2 g_ii. */
static int KKT_FN(one)(const NUM *beta, const NUM *rr, NUM g[][SC_BALL_MAX], int m, int *unknown)
{
    NUM a, b;
    for (int i = 0; i < m; ++i) {
        int ok = SC_KKT_NONPOS(OP(sign)(&beta[i]));
        for (int k = 0; k < m && ok != 0; ++k) {
            if (k == i) continue;
            /* beta_i (n_k.n_i) - beta_k g_ii <= 0 */
            OP(mul)(&a, &beta[i], &g[k][i]);
            OP(mul)(&b, &beta[k], &g[i][i]);
            OP(sub)(&a, &a, &b);
            ok = sc_kkt_and(ok, SC_KKT_NONPOS(OP(sign)(&a)));
        }
        if (ok == 0) continue;
        if (ok == SC_BALL_UNKNOWN) { *unknown = 1; continue; }
        /* beta_i^2 - r^2 g_ii <= 0 */
        OP(mul)(&a, &beta[i], &beta[i]);
        OP(mul)(&b, rr, &g[i][i]);
        OP(sub)(&a, &a, &b);
        return SC_KKT_NONPOS(OP(sign)(&a));
    }
    return SC_KKT_NONE;
}

/* S = {i, j} for one pair: the answer when it qualifies (by s beta_i + t beta_j <= r^2 D), NONE
 * when it does not or cannot be told (*unknown set). */
static int KKT_FN(pair)(const NUM *beta, const NUM *rr, NUM g[][SC_BALL_MAX], int m, int i, int j, int *unknown)
{
    NUM D, s, t, a, b;
    OP(mul)(&D, &g[i][i], &g[j][j]);
    OP(mul)(&a, &g[i][j], &g[i][j]);
    OP(sub)(&D, &D, &a);
    int sd = OP(sign)(&D);
    if (sd == 0) return SC_KKT_NONE; /* dependent normals */
    if (sd == SC_BALL_UNKNOWN) { *unknown = 1; return SC_KKT_NONE; }
    OP(mul)(&s, &g[j][j], &beta[i]);
    OP(mul)(&a, &g[i][j], &beta[j]);
    OP(sub)(&s, &s, &a);
    OP(mul)(&t, &g[i][i], &beta[j]);
    OP(mul)(&a, &g[i][j], &beta[i]);
    OP(sub)(&t, &t, &a);
    int ok = SC_KKT_NONPOS(OP(sign)(&s));
    int ot = SC_KKT_NONPOS(OP(sign)(&t));
    if (ok == 0 || ot == 0) return SC_KKT_NONE;
    if (ot == SC_BALL_UNKNOWN) ok = SC_BALL_UNKNOWN;
    for (int k = 0; k < m && ok != 0; ++k) {
        if (k == i || k == j) continue;
        /* s (n_k.n_i) + t (n_k.n_j) - beta_k D <= 0 */
        OP(mul)(&a, &s, &g[k][i]);
        OP(mul)(&b, &t, &g[k][j]);
        OP(add)(&a, &a, &b);
        OP(mul)(&b, &beta[k], &D);
        OP(sub)(&a, &a, &b);
        ok = sc_kkt_and(ok, SC_KKT_NONPOS(OP(sign)(&a)));
    }
    if (ok == 0) return SC_KKT_NONE;
    if (ok == SC_BALL_UNKNOWN) { *unknown = 1; return SC_KKT_NONE; }
    /* s beta_i + t beta_j - r^2 D <= 0 */
    OP(mul)(&a, &s, &beta[i]);
    OP(mul)(&b, &t, &beta[j]);
    OP(add)(&a, &a, &b);
    OP(mul)(&b, rr, &D);
    OP(sub)(&a, &a, &b);
    return SC_KKT_NONPOS(OP(sign)(&a));
}

/* Rows a = n_i, b = n_j, c = n_l: x[0] = b x c, x[1] = c x a, x[2] = a x b and det = a . (b x c). */
static void KKT_FN(cramer)(const NUM n[][3], int i, int j, int l, NUM x[3][3], NUM *det)
{
    const NUM *ra = n[i], *rb = n[j], *rc = n[l];
    const NUM *const pairs[3][2] = {{rb, rc}, {rc, ra}, {ra, rb}};
    NUM a;
    for (int q = 0; q < 3; ++q) {
        const NUM *u = pairs[q][0], *v = pairs[q][1];
        for (int e = 0; e < 3; ++e) {
            int e1 = (e + 1) % 3, e2 = (e + 2) % 3;
            OP(mul)(&x[q][e], &u[e1], &v[e2]);
            OP(mul)(&a, &u[e2], &v[e1]);
            OP(sub)(&x[q][e], &x[q][e], &a);
        }
    }
    KKT_FN(dot)(det, ra, x[0], &a);
}

/* Whether S = {i, j, l} qualifies (tri-state): every lambda >= 0 ((x[q] . y <= 0) and every
 * other half-space holds at y* (sigma (n_k . y - beta_k det) <= 0). */
static int KKT_FN(triple_ok)(const NUM n[][3], const NUM *beta, int m, int i, int j, int l, NUM x[3][3],
                             const NUM *det, int sigma, const NUM y[3])
{
    NUM a, b;
    int ok = 1;
    for (int q = 0; q < 3 && ok != 0; ++q) {
        KKT_FN(dot)(&a, x[q], y, &b); /* x[q] . y <= 0 */
        ok = sc_kkt_and(ok, SC_KKT_NONPOS(OP(sign)(&a)));
    }
    for (int k = 0; k < m && ok != 0; ++k) {
        if (k == i || k == j || k == l) continue;
        /* sigma (n_k . y - beta_k det) <= 0 */
        KKT_FN(dot)(&a, n[k], y, &b);
        OP(mul)(&b, &beta[k], det);
        if (sigma > 0) OP(sub)(&a, &a, &b);
        else OP(sub)(&a, &b, &a);
        ok = sc_kkt_and(ok, SC_KKT_NONPOS(OP(sign)(&a)));
    }
    return ok;
}

/* S = {i, j, l} for one triple: the answer when it qualifies (by y.y <= r^2 det^2), NONE when it
 * does not or cannot be told (*unknown set). */
static int KKT_FN(triple)(const NUM n[][3], const NUM *beta, const NUM *rr, int m, int i, int j, int l,
                          int *unknown)
{
    NUM x[3][3], det, y[3], a, c, d;
    KKT_FN(cramer)(n, i, j, l, x, &det);
    int sigma = OP(sign)(&det);
    if (sigma == 0) return SC_KKT_NONE; /* dependent normals */
    if (sigma == SC_BALL_UNKNOWN) { *unknown = 1; return SC_KKT_NONE; }
    /* y = beta_i x[0] + beta_j x[1] + beta_l x[2]; y* = y / det */
    const NUM *bs[3] = {&beta[i], &beta[j], &beta[l]};
    for (int e = 0; e < 3; ++e) {
        OP(mul)(&y[e], bs[0], &x[0][e]);
        OP(mul)(&a, bs[1], &x[1][e]);
        OP(add)(&y[e], &y[e], &a);
        OP(mul)(&a, bs[2], &x[2][e]);
        OP(add)(&y[e], &y[e], &a);
    }
    int ok = KKT_FN(triple_ok)(n, beta, m, i, j, l, x, &det, sigma, y);
    if (ok == 0) return SC_KKT_NONE;
    if (ok == SC_BALL_UNKNOWN) { *unknown = 1; return SC_KKT_NONE; }
    /* y.y - r^2 det^2 <= 0 */
    KKT_FN(dot)(&c, y, y, &a);
    OP(mul)(&d, &det, &det);
    OP(mul)(&d, rr, &d);
    OP(sub)(&c, &c, &d);
    return SC_KKT_NONPOS(OP(sign)(&c));
}

/* The decision: S = {}, then every S = {i}, {i, j}, {i, j, l} in order; the first that
 * qualifies decides. */
static int KKT_FN(decide)(const NUM n[][3], const NUM *beta, const NUM *rr, int m, int skip_pair)
{
    int unknown = 0;
    int r = KKT_FN(centre)(beta, m, &unknown);
    if (r != SC_KKT_NONE) return r;
    NUM g[SC_BALL_MAX][SC_BALL_MAX];
    KKT_FN(gram)(n, m, g);
    r = KKT_FN(one)(beta, rr, g, m, &unknown);
    if (r != SC_KKT_NONE) return r;
    for (int i = 0; i < m; ++i) {
        for (int j = i + 1; j < m; ++j) {
            if (skip_pair && (i ^ 1) == j) continue;
            r = KKT_FN(pair)(beta, rr, g, m, i, j, &unknown);
            if (r != SC_KKT_NONE) return r;
        }
    }
    for (int i = 0; i < m; ++i) {
        for (int j = i + 1; j < m; ++j) {
            if (skip_pair && (i ^ 1) == j) continue;
            for (int l = j + 1; l < m; ++l) {
                if (skip_pair && ((i ^ 1) == l || (j ^ 1) == l)) continue;
                r = KKT_FN(triple)(n, beta, rr, m, i, j, l, &unknown);
                if (r != SC_KKT_NONE) return r;
            }
        }
    }
    return unknown ? SC_BALL_UNKNOWN : 0;
}

/* The decision for the half-spaces h[idx[q]], q < k: their normals, beta_q = b - n . centre
 * (from its exact double terms, sc_ball_terms) and r^2, made numbers of this type first. */
static int KKT_FN(halfspaces)(const sc_xhs *h, const int *idx, int k, int skip_pair, sc_vec3 center, double rr)
{
    NUM n[SC_BALL_MAX][3], beta[SC_BALL_MAX], r2, tj;
    OP(set)(&r2, rr);
    for (int q = 0; q < k; ++q) {
        const sc_xhs *x = &h[idx[q]];
        double t[8];
        int nt = sc_ball_terms(x, center, t);
        OP(set)(&beta[q], t[0]);
        for (int j = 1; j < nt; ++j) {
            OP(set)(&tj, t[j]);
            OP(add)(&beta[q], &beta[q], &tj);
        }
        for (int e = 0; e < 3; ++e) OP(set)(&n[q][e], x->n[e]);
    }
    return KKT_FN(decide)((const NUM(*)[3])n, beta, &r2, k, skip_pair);
}

#undef SC_KKT_NONPOS
