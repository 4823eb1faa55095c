/* Exact signs (sc_exact.h): the sign of an expansion, det3, and the half-space certificates
 * of the exact polytope overlap test (sc_overlap.c). */
#include "sc_internal.h"
#include "sc_exact.h"

#include <math.h>

/* ------------------------------------------------------------------ exact polytope overlap
 * Two convex polytopes given as half-spaces n.x <= b (float normals, b an exact sum of up to four
 * doubles) are disjoint exactly when their combined system is infeasible. By Farkas and Helly it
 * then has a minimal infeasible subsystem of 2, 3 or 4 half-spaces whose normals have a
 * one-dimensional null space: a multiplier vector lam, all of one sign s, with sum lam_i n_i = 0
 * and s (sum lam_i b_i) < 0. lam comes from cofactors (4 half-spaces, rank 3), from cross products
 * (3 coplanar normals) or from the components (2 opposite normals); every quantity is an exact sum
 * of exact products, and only its sign is used (sc_exp_sign), so the answer is exact for any
 * float inputs. Used only when the double-precision test cannot tell (sc_overlap.c). */

/* The sign of the exact sum of n doubles (n <= SC_EXP_MAX): the expansion's last component is the
 * largest, and its sign is the sum's. */
int sc__exp_sign(const double *t, int n)
{
    double e[SC_EXP_MAX];
    int m = sc_expansion(t, n, e);
    return m == 0 ? 0 : (e[m - 1] > 0.0 ? 1 : -1);
}

/* The 12 exact terms of sg * det(a, b, c) for float rows: each a_i b_j c_k as two_prod(a_i b_j, c_k). */
static int sc_det3_terms(const float *a, const float *b, const float *c, double sg, double *t)
{
    static const int P[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    static const double S[6] = {1, -1, -1, 1, 1, -1};
    for (int q = 0; q < 6; ++q) {
        double p = (double)a[P[q][0]] * b[P[q][1]];
        sc_two_prod(S[q] * sg * p, c[P[q][2]], &t[2 * q], &t[2 * q + 1]);
    }
    return 12;
}

/* With multipliers lam[i] (exact sums of nl[i] doubles) for half-spaces idx[0..k): whether they
 * certify infeasibility: all nonzero and of one sign s, and s (sum lam_i b_i) < 0. */
static int sc_x_certify(const sc_xhs *h, const int *idx, int k, double lam[][12], const int *nl)
{
    int s = 0;
    for (int i = 0; i < k; ++i) {
        int si = sc__exp_sign(lam[i], nl[i]);
        if (si == 0 || (s != 0 && si != s)) return 0;
        s = si;
    }
    double t[4 * 12 * 4 * 2];
    int n = 0;
    for (int i = 0; i < k; ++i)
        for (int a = 0; a < nl[i]; ++a)
            for (int b = 0; b < h[idx[i]].nb; ++b, n += 2) sc_two_prod(lam[i][a], h[idx[i]].b[b], &t[n], &t[n + 1]);
    return s * sc__exp_sign(t, n) < 0;
}

/* Two opposite normals (n_j = -mu n_i, mu > 0): lam = (|n_j[c]|, |n_i[c]|). */
static int sc_x_pair(const sc_xhs *h, int i, int j)
{
    const float *a = h[i].n, *b = h[j].n;
    for (int u = 0; u < 3; ++u) {
        int v = (u + 1) % 3;
        if ((double)a[u] * b[v] != (double)a[v] * b[u]) return 0; /* not parallel */
    }
    double d[3] = {(double)a[0] * b[0], (double)a[1] * b[1], (double)a[2] * b[2]};
    if (sc__exp_sign(d, 3) >= 0) return 0;
    int c = a[0] != 0.0f ? 0 : (a[1] != 0.0f ? 1 : 2);
    double lam[2][12] = {{fabs((double)b[c])}, {fabs((double)a[c])}};
    int nl[2] = {1, 1}, idx[2] = {i, j};
    return sc_x_certify(h, idx, 2, lam, nl);
}

/* Three coplanar normals (det 0) of rank 2: lam = the c components of (n_j x n_k, n_k x n_i,
 * n_i x n_j), by (e_c . (b x c)) a + (e_c . (c x a)) b + (e_c . (a x b)) c = det(a, b, c) e_c = 0. */
static int sc_x_triple(const sc_xhs *h, int i, int j, int k)
{
    double t[12];
    if (sc__exp_sign(t, sc_det3_terms(h[i].n, h[j].n, h[k].n, 1.0, t)) != 0) return 0;
    int idx[3] = {i, j, k};
    for (int c = 0; c < 3; ++c) {
        int c1 = (c + 1) % 3, c2 = (c + 2) % 3;
        double lam[3][12];
        int nl[3] = {2, 2, 2}, zero = 1;
        for (int r = 0; r < 3; ++r) {
            const float *p = h[idx[(r + 1) % 3]].n, *q = h[idx[(r + 2) % 3]].n;
            lam[r][0] = (double)p[c1] * q[c2];
            lam[r][1] = -((double)p[c2] * q[c1]);
            if (lam[r][0] + lam[r][1] != 0.0 || lam[r][0] != -lam[r][1]) zero = 0;
        }
        if (!zero) return sc_x_certify(h, idx, 3, lam, nl);
    }
    return 0;
}

/* Four normals of rank 3: lam_r = (-1)^r det(the other three). */
static int sc_x_quad(const sc_xhs *h, int i, int j, int k, int l)
{
    int idx[4] = {i, j, k, l}, nl[4];
    double lam[4][12];
    for (int r = 0; r < 4; ++r) {
        int o[3], m = 0;
        for (int s = 0; s < 4; ++s)
            if (s != r) o[m++] = idx[s];
        nl[r] = sc_det3_terms(h[o[0]].n, h[o[1]].n, h[o[2]].n, (r & 1) ? -1.0 : 1.0, lam[r]);
    }
    return sc_x_certify(h, idx, 4, lam, nl);
}

int sc__halfspaces_empty_exact(const sc_xhs *h, int m)
{
    for (int i = 0; i < m; ++i)
        for (int j = i + 1; j < m; ++j) {
            if (sc_x_pair(h, i, j)) return 1;
            for (int k = j + 1; k < m; ++k) {
                if (sc_x_triple(h, i, j, k)) return 1;
                for (int l = k + 1; l < m; ++l)
                    if (sc_x_quad(h, i, j, k, l)) return 1;
            }
        }
    return 0;
}

int sc__det3_sign_exact(const float *a, const float *b, const float *c)
{
    double t[12];
    return sc__exp_sign(t, sc_det3_terms(a, b, c, 1.0, t));
}
