/* The exact arithmetic of the single queries and the overlaps, in a room of its own (after
 * Shewchuk's predicates.c): error-free transforms (two_sum, two_prod), floating-point expansions,
 * exactly summed products of floats, and (sc_exact.c) exact signs. Internal. */
#ifndef SC_EXACT_H
#define SC_EXACT_H

#include "slabcast.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float sc_xget(sc_vec3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }

/* ------------------------------------------------- exact sums of products
 *
 * The sphere, OBB and plane queries work in double. Every quantity they classify with is a
 * sum of products of two input floats: such a product is exact in double (24 + 24 bits
 * <= 53, and its exponent, between 2^-298 and 2^256, is far inside the double range, so
 * subnormal floats are as exact as any other). The sum is then taken without loss: the terms
 * are accumulated into a floating-point expansion (a list of non-overlapping doubles whose
 * exact sum is the exact total; two_sum below is an error-free transform), and only the final
 * value is rounded, once, with a relative error of a few 2^-53. That error is relative to the
 * result, not to the terms: a ray origin 1e30 away from a unit sphere cancels down to the
 * right perpendicular distance. (A plain difference o - c of two floats is exact in double only
 * while their exponents differ by at most 29; these sums never need it.)
 * Products of a double with a float (tmax * d.d) are split exactly with two_prod (Dekker's
 * product, without FMA; the operands here stay far from overflow, so the split is exact). */
static inline void sc_two_sum(double a, double b, double *s, double *e)
{
    double x = a + b;
    double bv = x - a;
    double av = x - bv;
    *s = x;
    *e = (a - av) + (b - bv);
}

static inline void sc_two_prod(double a, double b, double *p, double *e)
{
    const double split = 134217729.0; /* 2^27 + 1 */
    double x = a * b;
    double ca = split * a, cb = split * b;
    double ah = ca - (ca - a), al = a - ah;
    double bh = cb - (cb - b), bl = b - bh;
    *p = x;
    *e = ((ah * bh - x) + ah * bl + al * bh) + al * bl;
}

/* The exact fallbacks are rare: kept out of line, so that the filtered paths stay small. A
 * function with a constant flag (exact signs or not) is inlined where it is called (SC_INLINE), so
 * that the flag costs nothing. */
#if defined(__GNUC__) || defined(__clang__)
#define SC_COLD __attribute__((noinline, cold))
#define SC_INLINE __attribute__((always_inline)) inline
#else
#define SC_COLD
#define SC_INLINE inline
#endif

#define SC_XSUM_MAX 24
/* The n doubles as an expansion in e (room for n components): nonoverlapping, increasing in
 * magnitude, zero components dropped (Shewchuk's grow-expansion); returns its length. */
static inline int sc_expansion(const double *t, int n, double *e)
{
    int m = 0;
    for (int i = 0; i < n; ++i) {
        double q = t[i];
        int k = 0;
        for (int j = 0; j < m; ++j) {
            double s, err;
            sc_two_sum(q, e[j], &s, &err);
            q = s;
            if (err != 0.0) e[k++] = err;
        }
        if (q != 0.0) e[k++] = q;
        m = k;
    }
    return m;
}

/* The exact sum of n doubles (n <= SC_XSUM_MAX), rounded to double at the end: the terms go
 * into an expansion (Shewchuk's grow-expansion, zero components dropped), whose components
 * are then added from the smallest to the largest. For small dyadic inputs (exact totals) the
 * result is exact; otherwise it is within a few 2^-53 of the exact sum, relative. Each partial sum
 * is at most the next component in magnitude (the components do not overlap, and rounding is
 * monotone), so a nonzero result has the sign of the largest component, the exact sum's. Only a
 * tie (the partial sum rounded to minus the largest component, a power of two) can give 0 for a
 * nonzero sum: where a sign decides, a zero is checked again with sc_xsum_s.
 * This is the reference algorithm: sc_xsum returns the same double, through a fast path. */
static inline double sc_xsum_ref(const double *t, int n)
{
    double e[SC_XSUM_MAX];
    int m = sc_expansion(t, n, e);
    double s = 0.0;
    for (int j = 0; j < m; ++j) s += e[j];
    return s;
}

/* sc_xsum_ref whose sign is always the exact sum's: on the tie above, the smallest component with
 * the largest one's sign (the reference of sc_xsum_s). */
static inline double sc_xsum_s_ref(const double *t, int n)
{
    double e[SC_XSUM_MAX];
    int m = sc_expansion(t, n, e);
    double s = 0.0;
    for (int j = 0; j < m; ++j) s += e[j];
    if (s == 0.0 && m > 0) s = copysign(e[0], e[m - 1]);
    return s;
}

/* The fast path of sc_xsum: 1, with *x = sc_xsum_ref(t, n), when it can prove that this is the
 * value; 0 otherwise (the caller then runs the reference). Terms: 1 <= n <= SC_XSUM_MAX doubles,
 * each an integer multiple of 2^-960 below 2^960 in magnitude, so that every sum and rounding
 * error below is 0 or a normal double (the callers' terms are products of two floats, multiples
 * of 2^-298, or two_prod parts of a float times such a product, multiples of 2^-447; at most
 * 2^260). u = 2^-53, T = sum |t_i|, S the exact sum.
 * - (s, c) is Ogita, Rump and Oishi's Sum2 before its last rounding: s the rounded running sum,
 *   c the rounded sum of its exact errors (two_sum); |s + c - S| <= gamma_{n-1}^2 T, below
 *   (24 u)^2 T < 2^-96.8 T for n <= 24. X = fl(s + c), and s + c = X + rho exactly (two_sum).
 * - The reference's result is fl(e_top + P'), with P' the rounded sum of the components below
 *   the largest, e_top. It is NOT always RN(S), even far (in ulps) from a rounding midpoint: the
 *   lower components can be large next to ulp(e_top) when e_top comes out of a cancellation.
 *   {2^-60, 0.25 + 2^-45, 2^60, 256 - 2^60} expands to {2^-60, 0.25 + 2^-45, 256}; P' loses 2^-60
 *   and the tie 256.25 + 2^-45 rounds to even, 256.25, while S = 256.25 + 2^-45 + 2^-60 rounds to
 *   256.25 + 2^-44 (it is 2^-16 ulp from the midpoint). Its error is bounded relative to T
 *   instead: with round-to-even the expansion is nonadjacent (Shewchuk 1997, theorem 10), so the
 *   components below any component sum to less than half of it, |e_top| <= 2 |partial sum| and
 *   every component of the running expansion is at most 3 T in total; each running sum q of the
 *   last pass is at most 3 (1 + u)^24 T, the components below e_top are that pass's rounding
 *   errors (each at most u |q|) and sum to at most 4.5 u (1 + u)^24 T, and P' takes at most 22
 *   roundings of partial sums that size: |P' - P| < 22 * 4.5 u^2 (1 + u)^46 T < 2^-99 T.
 * - Both S and e_top + P' are then within rho +- 2^-96.6 T of X. X is accepted when that is
 *   strictly inside half the gaps to its neighbours (ulp(X) / 2, read from X's exponent bits;
 *   ulp(X) / 4 below when |X| is a power of two, whose lower neighbour is closer): then both round
 *   to X. The test takes E = 2^-94 times the rounded T (at least T (1 - 24 u)): over 5 times the
 *   bound. fl(rho + E) < hg implies rho + E < hg (rounding is monotone, hg is a double).
 * The accepted X is nonzero and S lies strictly between X's midpoints, so S has X's sign: the
 * fast path serves sc_xsum_s too. Not accepted: a sum within about 2^-94 T of a midpoint (a near
 * or exact tie, or T / |S| beyond 2^40), or an exact sum of 0; those go to a second proof,
 * sc_xsum_short_span, which settles the sums whose terms span few bits exactly. */
static inline int sc_xsum_fast(const double *t, int n, double *x);

/* The number of trailing zero bits of m (1 <= m < 2^53). */
static inline int sc_ctz53(uint64_t m)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(m);
#else
    int z = 0;
    while (!(m & 1)) m >>= 1, ++z;
    return z;
#endif
}

/* The second proof of sc_xsum_fast, for sums whose terms span few bits: q the largest power of
 * two that divides every term (the lowest set bit of any term; every sum, component and rounding
 * error below is then a multiple of q). When T < 2^100 q, the partial sums of the reference's
 * lower components (at most 4.5 u (1 + u)^24 T < 2^-50.8 T) and of Sum2's errors c (at most
 * gamma_23 T < 2^-48.4 T) are multiples of q below 2^53 q: exact doubles, so neither sum rounds;
 * then s + c = S exactly and the reference returns fl(e_top + P) = RN(S) = fl(s + c) = X, ties
 * included (to even, both). Such sums land exactly on a midpoint often (products of floats have
 * up to 48 bits, and a few of them at nearby exponents need 54), which the first proof rejects.
 * Returns whether T < 2^100 q (a the rounded T, at most T (1 + 24 u) below 2^100.01 q). */
SC_COLD static int sc_xsum_short_span(const double *t, int n, double a)
{
    int low = 4096; /* the biased exponent of q plus 1075 (the lowest term bit's place) */
    for (int i = 0; i < n; ++i) {
        uint64_t b;
        memcpy(&b, &t[i], sizeof b);
        uint64_t m = b & 0xfffffffffffffull;
        int e = (int)((b >> 52) & 0x7ff);
        if (e == 0 || e == 0x7ff) {
            if (m != 0 || e != 0) return 0; /* subnormal, infinite or NaN: outside the terms' range */
            continue;                        /* a zero term */
        }
        int l = e + sc_ctz53(m | (1ull << 52));
        low = l < low ? l : low;
    }
    if (low > 2046 - 48) return 1; /* every term is 0 */
    uint64_t tb = (uint64_t)(low + 48) << 52; /* 2^100 q = 2^(low - 1075 + 100) */
    double thr;
    memcpy(&thr, &tb, sizeof thr);
    return a < thr;
}

/* The first proof of sc_xsum_fast (above): *x = X, *a = the rounded T; whether X is accepted. */
static inline int sc_xsum_first(const double *t, int n, double *x, double *a)
{
    double s = t[0], c = 0.0, ta = fabs(t[0]);
    for (int i = 1; i < n; ++i) {
        double e;
        sc_two_sum(s, t[i], &s, &e);
        c += e;
        ta += fabs(t[i]);
    }
    double r;
    sc_two_sum(s, c, x, &r);
    *a = ta;
    uint64_t b, rb;
    memcpy(&b, x, sizeof b);
    memcpy(&rb, &r, sizeof rb);
    /* rho' = rho signed away from 0 (X's sign bit cleared from it): positive towards the upper
     * neighbour of |X|, whose half gap is ulp(X) / 2; the lower neighbour's is ulp(X) / 4 when |X|
     * is a power of two. Accept when rho' + E < ulp/2 and E - rho' < the lower half gap. */
    uint64_t ex = (b >> 52) & 0x7ff;                                          /* 0 for X = 0 */
    uint64_t hb = (ex - 53) << 52, lb = hb - (((b & 0xfffffffffffffull) == 0) ? (1ull << 52) : 0);
    uint64_t pb = rb ^ (b & 0x8000000000000000ull);
    double hg, lg, rp, E = 0x1p-94 * ta;
    memcpy(&hg, &hb, sizeof hg);
    memcpy(&lg, &lb, sizeof lg);
    memcpy(&rp, &pb, sizeof rp);
    return ex > 54 && rp + E < hg && E - rp < lg;
}

static inline int sc_xsum_fast(const double *t, int n, double *x)
{
    double a;
    if (sc_xsum_first(t, n, x, &a)) return 1;
    /* (S = 0 exactly gives X = +0, the reference's value: c starts at +0 and is never -0) */
    return sc_xsum_short_span(t, n, a);
}

/* The exact sum of n doubles (1 <= n <= SC_XSUM_MAX; terms as sc_xsum_fast requires), rounded as
 * sc_xsum_ref rounds it (bit for bit): certified by the fast path, else the reference. */
static inline double sc_xsum(const double *t, int n)
{
    double x;
    if (sc_xsum_fast(t, n, &x)) return x;
    return sc_xsum_ref(t, n);
}

/* sc_xsum whose sign is always the exact sum's (sc_xsum_s_ref, bit for bit). */
static inline double sc_xsum_s(const double *t, int n)
{
    double x;
    if (sc_xsum_fast(t, n, &x)) return x;
    return sc_xsum_s_ref(t, n);
}

/* Two sums at once, sc_xsum_first's arithmetic in two lanes of a vector of two doubles (SSE2,
 * wasm simd128): t0 (n0 terms) and t1 (n1 terms), 1 <= n0, n1 <= SC_XSUM_MAX; the shorter list is
 * padded with zeros, which leave Sum2's s, c and the rounded T exactly as they were (two_sum(s, 0)
 * = (s, +0), and c is never -0), so each lane computes the scalar first proof's X, rho and T bit
 * for bit. A lane the first proof does not settle goes alone through sc_xsum (sc_xsum_s when its
 * xs0 / xs1): *x0, *x1 are sc_xsum(t0, n0), sc_xsum(t1, n1) (or sc_xsum_s), bit for bit. */
#if defined(__GNUC__) || defined(__clang__)
typedef double sc_v2d __attribute__((vector_size(16)));
typedef long long sc_v2l __attribute__((vector_size(16)));
/* The end of the first proof in two lanes, from Sum2's running sum s, its error sum c and the
 * rounded T a of each lane: x[0], x[1] the values X; returns bit k set when lane k is settled (as
 * sc_xsum_first's test, lane by lane). */
static SC_INLINE int sc_xsum_two_accept(sc_v2d s, sc_v2d c, sc_v2d a, double *x)
{
    const sc_v2l absm = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
    const sc_v2l sgnm = {(long long)0x8000000000000000ull, (long long)0x8000000000000000ull};
    const sc_v2l expm = {0x7ff0000000000000LL, 0x7ff0000000000000LL};
    const sc_v2l h53 = {53LL << 52, 53LL << 52}, one52 = {1LL << 52, 1LL << 52};
    sc_v2d X = s + c, bv = X - s, av = X - bv, r = (s - av) + (c - bv);
    sc_v2l b = (sc_v2l)X;
    sc_v2d ax = (sc_v2d)(b & absm), xe = (sc_v2d)(b & expm);
    sc_v2l hb = (b & expm) - h53;
    sc_v2l lb = hb - ((sc_v2l)(ax == xe) & one52); /* |X| a power of two: the lower gap halves */
    sc_v2d hg = (sc_v2d)hb, lg = (sc_v2d)lb, rp = (sc_v2d)((sc_v2l)r ^ (b & sgnm)), E = 0x1p-94 * a;
    const sc_v2d tiny = {0x1p-968, 0x1p-968}; /* biased exponent above 54, as sc_xsum_first's */
    sc_v2l ok = (sc_v2l)(ax >= tiny) & (sc_v2l)(rp + E < hg) & (sc_v2l)(E - rp < lg);
    x[0] = X[0];
    x[1] = X[1];
    return (ok[0] ? 1 : 0) | (ok[1] ? 2 : 0);
}
/* The first proof in two lanes: x[0], x[1] the Sum2 values X of t0 and t1; returns bit k set when
 * lane k is settled (then x[k] = sc_xsum(tk, nk) bit for bit, and its sign is the exact sum's). */
static inline int sc_xsum_two_first(const double *t0, int n0, const double *t1, int n1, double *x)
{
    const sc_v2l absm = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
    int n = n0 > n1 ? n0 : n1;
    sc_v2d s = {t0[0], t1[0]}, c = {0.0, 0.0};
    sc_v2d a = (sc_v2d)((sc_v2l)s & absm);
    for (int i = 1; i < n; ++i) {
        sc_v2d t = {i < n0 ? t0[i] : 0.0, i < n1 ? t1[i] : 0.0};
        sc_v2d y = s + t, bv = y - s, av = y - bv;
        c += (s - av) + (t - bv);
        s = y;
        a += (sc_v2d)((sc_v2l)t & absm);
    }
    return sc_xsum_two_accept(s, c, a, x);
}
static SC_INLINE void sc_xsum_two(const double *t0, int n0, const double *t1, int n1, double *x0, double *x1, int xs0,
                                   int xs1)
{
    double x[2];
    int ok = sc_xsum_two_first(t0, n0, t1, n1, x);
    *x0 = (ok & 1) ? x[0] : (xs0 ? sc_xsum_s(t0, n0) : sc_xsum(t0, n0));
    *x1 = (ok & 2) ? x[1] : (xs1 ? sc_xsum_s(t1, n1) : sc_xsum(t1, n1));
}
/* sc_xsum_two_first on terms already interleaved: t[i] = {t0[i], t1[i]} for i < n, a lane's terms
 * past its own count +0 (the padding sc_xsum_two_first reads): the same X and lanes settled. */
static SC_INLINE int sc_xsum_two_first_v(const sc_v2d *t, int n, double *x)
{
    const sc_v2l absm = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
    sc_v2d s = t[0], c = {0.0, 0.0};
    sc_v2d a = (sc_v2d)((sc_v2l)s & absm);
    for (int i = 1; i < n; ++i) {
        sc_v2d y = s + t[i], bv = y - s, av = y - bv;
        c += (s - av) + (t[i] - bv);
        s = y;
        a += (sc_v2d)((sc_v2l)t[i] & absm);
    }
    return sc_xsum_two_accept(s, c, a, x);
}
/* A lane sc_xsum_two_first_v did not settle: sc_xsum (or sc_xsum_s) of its n terms. */
SC_COLD static double sc_xsum_lane(const sc_v2d *t, int lane, int n, int xs)
{
    double u[SC_XSUM_MAX];
    for (int i = 0; i < n; ++i) u[i] = t[i][lane];
    return xs ? sc_xsum_s(u, n) : sc_xsum(u, n);
}
/* sc_xsum_two on interleaved terms (as sc_xsum_two_first_v takes them), n0, n1 <= n: the same
 * doubles as sc_xsum_two(t0, n0, t1, n1, ...). */
static SC_INLINE void sc_xsum_two_v(const sc_v2d *t, int n0, int n1, double *x0, double *x1, int xs0, int xs1)
{
    double x[2];
    int ok = sc_xsum_two_first_v(t, n0 > n1 ? n0 : n1, x);
    *x0 = (ok & 1) ? x[0] : sc_xsum_lane(t, 0, n0, xs0);
    *x1 = (ok & 2) ? x[1] : sc_xsum_lane(t, 1, n1, xs1);
}
#else
static inline int sc_xsum_two_first(const double *t0, int n0, const double *t1, int n1, double *x)
{
    double a;
    int ok = sc_xsum_first(t0, n0, &x[0], &a);
    return ok | (sc_xsum_first(t1, n1, &x[1], &a) << 1);
}
static inline void sc_xsum_two(const double *t0, int n0, const double *t1, int n1, double *x0, double *x1, int xs0,
                               int xs1)
{
    *x0 = xs0 ? sc_xsum_s(t0, n0) : sc_xsum(t0, n0);
    *x1 = xs1 ? sc_xsum_s(t1, n1) : sc_xsum(t1, n1);
}
#endif

/* The relative error bound of the double-precision filters: a quantity computed in double from
 * exactly summed products, with at most a few dozen roundings (each 2^-53 of the terms' size),
 * is within 2^-45 of the sum of its terms' magnitudes (256 times the worst case), so its sign is
 * the exact one when |value| > SC_FILTER * terms. Otherwise the exact expansions decide. */
#define SC_FILTER 2.8421709430404007e-14 /* 2^-45 */

/* Append the exact products a[i] * b[j] (two_prod: two terms each) of two term lists, times sg
 * (+-1 or +-2: exact), to t at n; returns the new count. */
static inline int sc_prod_terms(double *t, int n, const double *a, int na, const double *b, int nb, double sg)
{
    for (int i = 0; i < na; ++i)
        for (int j = 0; j < nb; ++j, n += 2) sc_two_prod(sg * a[i], b[j], &t[n], &t[n + 1]);
    return n;
}

/* Append the products a[i]*b[i] of floats (exact in double) with sign sg to a term list. */
static inline int sc_terms_dot(double *t, int n, sc_vec3 a, sc_vec3 b, double sg)
{
    t[n++] = sg * ((double)a.x * b.x);
    t[n++] = sg * ((double)a.y * b.y);
    t[n++] = sg * ((double)a.z * b.z);
    return n;
}

/* (o - c) . a exactly summed: the offset of o from c along a, for floats o, c, a; its sign exact
 * when exact_sign (sc_xsum_s). */
static inline double sc_offset_dot_x(sc_vec3 o, sc_vec3 c, sc_vec3 a, int exact_sign)
{
    double t[6];
    int n = sc_terms_dot(t, 0, o, a, 1.0);
    n = sc_terms_dot(t, n, c, a, -1.0);
    return exact_sign ? sc_xsum_s(t, n) : sc_xsum(t, n);
}
static inline double sc_offset_dot(sc_vec3 o, sc_vec3 c, sc_vec3 a) { return sc_offset_dot_x(o, c, a, 0); }

/* |o - c|^2 - r^2, exactly summed (its sign exact): o_i - c_i = h + l exactly (two_sum), and
 * each of h^2, 2hl, l^2 is split exactly by two_prod; sc_xsum_s of those 19 terms. The reference
 * of sc_dist2_minus_r2. */
static inline double sc_dist2_minus_r2_ref(sc_vec3 o, sc_vec3 c, float r)
{
    double t[SC_XSUM_MAX];
    int n = 0;
    for (int i = 0; i < 3; ++i) {
        double h, l;
        sc_two_sum(sc_xget(o, i), -(double)sc_xget(c, i), &h, &l);
        sc_two_prod(h, h, &t[n], &t[n + 1]);
        sc_two_prod(2.0 * h, l, &t[n + 2], &t[n + 3]);
        sc_two_prod(l, l, &t[n + 4], &t[n + 5]);
        n += 6;
    }
    t[n++] = -((double)r * r);
    return sc_xsum_s(t, n);
}

/* sc_dist2_minus_r2_ref's double, from 10 products of floats (exact in double) with the same exact
 * sum: o_i^2, -2 o_i c_i, c_i^2 and -r^2 (sc_dist2_terms), given to sc_xsum_fast. Its two proofs
 * hold for the reference's 19 terms too: their magnitudes sum to T19 <= (1 + 2u) sum_i (|h| + |l|)^2 + r^2 <=
 * (1 + 7u) T10 (|h| + |l| <= (1 + u)^2 |o_i - c_i| <= (1 + u)^2 (|o_i| + |c_i|)), so the first
 * proof's margin 2^-94 T10 still covers Sum2's error on the 10 and the reference's on the 19
 * (2^-99 T19); and every one of the 19 is a multiple of the lowest bit q10 of the 10 (h, l, and so
 * their products and two_prod parts, are multiples of min(lsb o_i, lsb c_i) and its square), so
 * T19 < 2^100.02 q10 keeps the reference's lower sum exact (the second proof). Otherwise the
 * reference. */
static inline void sc_dist2_terms(sc_vec3 o, sc_vec3 c, float r, double *t)
{
    double ox = o.x, oy = o.y, oz = o.z, cx = c.x, cy = c.y, cz = c.z;
    t[0] = ox * ox, t[1] = oy * oy, t[2] = oz * oz;
    t[3] = -2.0 * ox * cx, t[4] = -2.0 * oy * cy, t[5] = -2.0 * oz * cz;
    t[6] = cx * cx, t[7] = cy * cy, t[8] = cz * cz, t[9] = -((double)r * r);
}
static inline double sc_dist2_minus_r2(sc_vec3 o, sc_vec3 c, float r)
{
    double t[10], x;
    sc_dist2_terms(o, c, r, t);
    if (sc_xsum_fast(t, 10, &x)) return x;
    return sc_dist2_minus_r2_ref(o, c, r);
}

/* w = (a - c) x (b - a), each component summed exactly from products of the floats and
 * rounded once: (a - c) x (b - a) = a x b - c x b + c x a. */
static inline void sc_cross_offset(sc_vec3 a, sc_vec3 b, sc_vec3 c, double w[3])
{
    for (int i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        double u[6] = {(double)sc_xget(a, j) * sc_xget(b, k), -((double)sc_xget(a, k) * sc_xget(b, j)),
                       -((double)sc_xget(c, j) * sc_xget(b, k)), (double)sc_xget(c, k) * sc_xget(b, j),
                       (double)sc_xget(c, j) * sc_xget(a, k), -((double)sc_xget(c, k) * sc_xget(a, j))};
        w[i] = sc_xsum(u, 6);
    }
}


/* (o - c) x d's component with the other two axes j, k (i = 3 - j - k): o_j d_k - c_j d_k - o_k d_j
 * + c_k d_j, exactly summed; O, C, D the floats as doubles. */
static inline double sc_cross_w(const double *O, const double *C, const double *D, int j, int k)
{
    double t[4] = {O[j] * D[k], -(C[j] * D[k]), -(O[k] * D[j]), C[k] * D[j]};
    return sc_xsum(t, 4);
}

/* w = (o - c) x d, each component summed exactly from products of the floats, rounded once. */
static inline void sc_cross_terms(double *w, sc_vec3 o, sc_vec3 c, sc_vec3 d)
{
    const double O[3] = {o.x, o.y, o.z}, C[3] = {c.x, c.y, c.z}, D[3] = {d.x, d.y, d.z};
    w[0] = sc_cross_w(O, C, D, 1, 2);
    w[1] = sc_cross_w(O, C, D, 2, 0);
    w[2] = sc_cross_w(O, C, D, 0, 1);
}

/* sc_exact.c: the sign of the exact sum of n <= SC_EXP_MAX doubles. */
#define SC_EXP_MAX 512
int sc__exp_sign(const double *t, int n);

#endif
