/* sc_ball_kkt.h: the ball-against-polytope decision of sc_ball.c, written once for both of its
 * number types. Included twice by sc_ball.c, with
 *   NUM          the number type (sc_fd: double with an error bound; sc_bf: exact),
 *   OP(name)     its operations: OP(add)(r, a, b), OP(sub), OP(mul) (r may alias a or b), and
 *                OP(sign)(a): -1, 0, 1, or SC_BALL_UNKNOWN when the type cannot tell,
 *   OP(set)(r, x) an exact double as a number,
 *   KKT          the name of the decision, KKT_HS that of its entry from half-spaces.
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
 * Returns 1 (they meet), 0 (they do not: the ball misses, or no S qualifies, so the polytope is
 * empty), or SC_BALL_UNKNOWN when a sign the answer depends on could not be told. skip_pair:
 * half-spaces 2i and 2i + 1 are opposite (an OBB's slabs), never both active unless the slab is
 * flat, where either one alone serves. */

/* sign(x) <= 0 as a tri-state: 1 yes, 0 no, SC_BALL_UNKNOWN. */
#define SC_KKT_NONPOS(s) ((s) == SC_BALL_UNKNOWN ? SC_BALL_UNKNOWN : (s) <= 0)

static int KKT(const NUM n[][3], const NUM *beta, const NUM *rr, int m, int skip_pair)
{
    int unknown = 0;
    /* S = {}: the centre is inside every half-space */
    {
        int inside = 1;
        for (int k = 0; k < m; ++k) {
            int s = OP(sign)(&beta[k]);
            if (s == SC_BALL_UNKNOWN) inside = SC_BALL_UNKNOWN;
            else if (s < 0) { inside = 0; break; }
        }
        if (inside == 1) return 1;
        if (inside == SC_BALL_UNKNOWN) unknown = 1;
    }
    NUM g[SC_BALL_MAX][SC_BALL_MAX]; /* Gram matrix, n_i . n_j */
    for (int i = 0; i < m; ++i) {
        for (int j = i; j < m; ++j) {
            NUM p;
            OP(mul)(&g[i][j], &n[i][0], &n[j][0]);
            OP(mul)(&p, &n[i][1], &n[j][1]);
            OP(add)(&g[i][j], &g[i][j], &p);
            OP(mul)(&p, &n[i][2], &n[j][2]);
            OP(add)(&g[i][j], &g[i][j], &p);
            g[j][i] = g[i][j];
        }
    }
    NUM a, b, c, d; /* temporaries */
    /* S = {i} */
    for (int i = 0; i < m; ++i) {
        int ok = SC_KKT_NONPOS(OP(sign)(&beta[i]));
        for (int k = 0; k < m && ok != 0; ++k) {
            if (k == i) continue;
            /* beta_i (n_k.n_i) - beta_k g_ii <= 0 */
            OP(mul)(&a, &beta[i], &g[k][i]);
            OP(mul)(&b, &beta[k], &g[i][i]);
            OP(sub)(&a, &a, &b);
            int s = SC_KKT_NONPOS(OP(sign)(&a));
            if (s == 0) ok = 0;
            else if (s == SC_BALL_UNKNOWN) ok = SC_BALL_UNKNOWN;
        }
        if (ok == 0) continue;
        if (ok == SC_BALL_UNKNOWN) { unknown = 1; continue; }
        /* beta_i^2 - r^2 g_ii <= 0 */
        OP(mul)(&a, &beta[i], &beta[i]);
        OP(mul)(&b, rr, &g[i][i]);
        OP(sub)(&a, &a, &b);
        return SC_KKT_NONPOS(OP(sign)(&a));
    }
    /* S = {i, j} */
    for (int i = 0; i < m; ++i) {
        for (int j = i + 1; j < m; ++j) {
            if (skip_pair && (i ^ 1) == j) continue;
            NUM D, s, t;
            OP(mul)(&D, &g[i][i], &g[j][j]);
            OP(mul)(&a, &g[i][j], &g[i][j]);
            OP(sub)(&D, &D, &a);
            int sd = OP(sign)(&D);
            if (sd == 0) continue; /* dependent normals */
            if (sd == SC_BALL_UNKNOWN) { unknown = 1; continue; }
            OP(mul)(&s, &g[j][j], &beta[i]);
            OP(mul)(&a, &g[i][j], &beta[j]);
            OP(sub)(&s, &s, &a);
            OP(mul)(&t, &g[i][i], &beta[j]);
            OP(mul)(&a, &g[i][j], &beta[i]);
            OP(sub)(&t, &t, &a);
            int ok = SC_KKT_NONPOS(OP(sign)(&s));
            int ot = SC_KKT_NONPOS(OP(sign)(&t));
            if (ok == 0 || ot == 0) continue;
            if (ot == SC_BALL_UNKNOWN) ok = SC_BALL_UNKNOWN;
            for (int k = 0; k < m && ok != 0; ++k) {
                if (k == i || k == j) continue;
                /* s (n_k.n_i) + t (n_k.n_j) - beta_k D <= 0 */
                OP(mul)(&a, &s, &g[k][i]);
                OP(mul)(&b, &t, &g[k][j]);
                OP(add)(&a, &a, &b);
                OP(mul)(&b, &beta[k], &D);
                OP(sub)(&a, &a, &b);
                int sk = SC_KKT_NONPOS(OP(sign)(&a));
                if (sk == 0) ok = 0;
                else if (sk == SC_BALL_UNKNOWN) ok = SC_BALL_UNKNOWN;
            }
            if (ok == 0) continue;
            if (ok == SC_BALL_UNKNOWN) { unknown = 1; continue; }
            /* s beta_i + t beta_j - r^2 D <= 0 */
            OP(mul)(&a, &s, &beta[i]);
            OP(mul)(&b, &t, &beta[j]);
            OP(add)(&a, &a, &b);
            OP(mul)(&b, rr, &D);
            OP(sub)(&a, &a, &b);
            return SC_KKT_NONPOS(OP(sign)(&a));
        }
    }
    /* S = {i, j, l} */
    for (int i = 0; i < m; ++i) {
        for (int j = i + 1; j < m; ++j) {
            if (skip_pair && (i ^ 1) == j) continue;
            for (int l = j + 1; l < m; ++l) {
                if (skip_pair && ((i ^ 1) == l || (j ^ 1) == l)) continue;
                const NUM *ra = n[i], *rb = n[j], *rc = n[l];
                NUM x[3][3]; /* x[0] = b x c, x[1] = c x a, x[2] = a x b */
                const NUM *const pairs[3][2] = {{rb, rc}, {rc, ra}, {ra, rb}};
                for (int q = 0; q < 3; ++q) {
                    const NUM *u = pairs[q][0], *v = pairs[q][1];
                    for (int e = 0; e < 3; ++e) {
                        int e1 = (e + 1) % 3, e2 = (e + 2) % 3;
                        OP(mul)(&x[q][e], &u[e1], &v[e2]);
                        OP(mul)(&a, &u[e2], &v[e1]);
                        OP(sub)(&x[q][e], &x[q][e], &a);
                    }
                }
                NUM det;
                OP(mul)(&det, &ra[0], &x[0][0]);
                OP(mul)(&a, &ra[1], &x[0][1]);
                OP(add)(&det, &det, &a);
                OP(mul)(&a, &ra[2], &x[0][2]);
                OP(add)(&det, &det, &a);
                int sigma = OP(sign)(&det);
                if (sigma == 0) continue; /* dependent normals */
                if (sigma == SC_BALL_UNKNOWN) { unknown = 1; continue; }
                NUM y[3];
                const NUM *bs[3] = {&beta[i], &beta[j], &beta[l]};
                for (int e = 0; e < 3; ++e) {
                    OP(mul)(&y[e], bs[0], &x[0][e]);
                    OP(mul)(&a, bs[1], &x[1][e]);
                    OP(add)(&y[e], &y[e], &a);
                    OP(mul)(&a, bs[2], &x[2][e]);
                    OP(add)(&y[e], &y[e], &a);
                }
                int ok = 1;
                for (int q = 0; q < 3 && ok != 0; ++q) {
                    /* x[q] . y <= 0 */
                    OP(mul)(&a, &x[q][0], &y[0]);
                    OP(mul)(&b, &x[q][1], &y[1]);
                    OP(add)(&a, &a, &b);
                    OP(mul)(&b, &x[q][2], &y[2]);
                    OP(add)(&a, &a, &b);
                    int sq = SC_KKT_NONPOS(OP(sign)(&a));
                    if (sq == 0) ok = 0;
                    else if (sq == SC_BALL_UNKNOWN) ok = SC_BALL_UNKNOWN;
                }
                for (int k = 0; k < m && ok != 0; ++k) {
                    if (k == i || k == j || k == l) continue;
                    /* sigma (n_k . y - beta_k det) <= 0 */
                    OP(mul)(&a, &n[k][0], &y[0]);
                    OP(mul)(&b, &n[k][1], &y[1]);
                    OP(add)(&a, &a, &b);
                    OP(mul)(&b, &n[k][2], &y[2]);
                    OP(add)(&a, &a, &b);
                    OP(mul)(&b, &beta[k], &det);
                    if (sigma > 0) OP(sub)(&a, &a, &b);
                    else OP(sub)(&a, &b, &a);
                    int sk = SC_KKT_NONPOS(OP(sign)(&a));
                    if (sk == 0) ok = 0;
                    else if (sk == SC_BALL_UNKNOWN) ok = SC_BALL_UNKNOWN;
                }
                if (ok == 0) continue;
                if (ok == SC_BALL_UNKNOWN) { unknown = 1; continue; }
                /* y.y - r^2 det^2 <= 0 */
                OP(mul)(&c, &y[0], &y[0]);
                OP(mul)(&a, &y[1], &y[1]);
                OP(add)(&c, &c, &a);
                OP(mul)(&a, &y[2], &y[2]);
                OP(add)(&c, &c, &a);
                OP(mul)(&d, &det, &det);
                OP(mul)(&d, rr, &d);
                OP(sub)(&c, &c, &d);
                return SC_KKT_NONPOS(OP(sign)(&c));
            }
        }
    }
    return unknown ? SC_BALL_UNKNOWN : 0;
}

/* The decision for the half-spaces h[idx[q]], q < k: their normals, beta_q = b - n . centre
 * (from its exact double terms, sc_ball_terms) and r^2, made numbers of this type first. */
static int KKT_HS(const sc_xhs *h, const int *idx, int k, int skip_pair, sc_vec3 center, double rr)
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
    return KKT((const NUM(*)[3])n, beta, &r2, k, skip_pair);
}

#undef SC_KKT_NONPOS
