/* Native tests of the exact sums' fast path (src/sc_exact.h): sc_xsum and sc_xsum_s must return
 * the double that the reference algorithm (sc_xsum_ref, sc_xsum_s_ref: grow-expansion, then the
 * components summed from the smallest) returns, bit for bit, on every term list. Millions of
 * lists: products of floats at every exponent, heavy cancellation, exact and signed zeros, sums
 * built to land exactly on a rounding midpoint or within a few ulps (and far below an ulp) of one,
 * powers of two, n from 1 to SC_XSUM_MAX; and sc_xsum_two, two such sums in the lanes of a vector.
 * Usage: slabcast_xsum_tests [NAME-SUBSTRING [ROUNDS]] */
#include "sc_exact.h"
#include "sc_single.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static long g_rounds = 1; /* a multiplier of every test's list count (argv[2]) */

static uint64_t rnd64(void)
{
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return g_rng * 0x2545f4914f6cdd1dull;
}
static int rnd_int(int lo, int hi) { return lo + (int)(rnd64() % (uint64_t)(hi - lo + 1)); }
static double rnd_sign(void) { return (rnd64() & 1) ? -1.0 : 1.0; }

/* A random float with exponent in [elo, ehi] (subnormals where the exponent is below -126). */
static float rnd_float(int elo, int ehi)
{
    float m = (float)(1.0 + (double)(rnd64() >> 41) * 0x1p-23); /* 24 random bits, in [1, 2) */
    elo = elo < -149 ? -149 : (elo > 127 ? 127 : elo);
    ehi = ehi < elo ? elo : (ehi > 127 ? 127 : ehi);
    return (float)rnd_sign() * ldexpf(m, rnd_int(elo, ehi));
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static long g_lists, g_fast, g_short;

/* Both sums of t against their references, bit for bit; prints the list on a mismatch. */
static int check_list(const double *t, int n)
{
    double x, ta;
    g_lists++;
    int f1 = sc_xsum_first(t, n, &x, &ta);
    g_fast += f1;
    g_short += !f1 && sc_xsum_fast(t, n, &x);
    double a = sc_xsum(t, n), ar = sc_xsum_ref(t, n);
    double b = sc_xsum_s(t, n), br = sc_xsum_s_ref(t, n);
    /* the two-lane form, with this list in one lane and a prefix of it (or itself) in the other */
    int k = 1 + (int)(rnd64() % (uint64_t)n), xs = (int)(rnd64() & 1);
    double p0, p1, q0, q1;
    sc_xsum_two(t, n, t, k, &p0, &p1, xs, !xs);
    sc_xsum_two(t, k, t, n, &q0, &q1, xs, !xs);
    double kr = !xs ? sc_xsum_s_ref(t, k) : sc_xsum_ref(t, k), nr = xs ? br : ar;
    double kr0 = xs ? sc_xsum_s_ref(t, k) : sc_xsum_ref(t, k), nr1 = !xs ? br : ar;
    if (!same_bits(p0, nr) || !same_bits(p1, kr) || !same_bits(q0, kr0) || !same_bits(q1, nr1)) {
        fprintf(stderr, "  sc_xsum_two mismatch (xs %d, n %d, k %d): %a %a %a %a, refs %a %a\n", xs, n, k, p0, p1, q0, q1,
                nr, kr);
        return 0;
    }
    if (same_bits(a, ar) && same_bits(b, br)) return 1;
    fprintf(stderr, "  mismatch: sc_xsum %a (ref %a), sc_xsum_s %a (ref %a), n = %d:\n", a, ar, b, br, n);
    for (int i = 0; i < n; ++i) fprintf(stderr, "    %a\n", t[i]);
    return 0;
}

static void shuffle(double *t, int n)
{
    for (int i = n - 1; i > 0; --i) {
        int j = rnd_int(0, i);
        double s = t[i];
        t[i] = t[j];
        t[j] = s;
    }
}

/* The reference's known departure from the rounded exact sum (see sc_xsum_fast): the expansion of
 * {2^-60, 0.25 + 2^-45, 2^60, 256 - 2^60} is {2^-60, 0.25 + 2^-45, 256}, and the reference returns
 * 256.25 where the exact sum 256.25 + 2^-45 + 2^-60 rounds to 256.25 + 2^-44 (written out by
 * hand: the sum is above the midpoint 256.25 + 2^-45 between those two doubles). A fast path that
 * returned RN(S) whenever S is more than a tiny fraction of an ulp from a midpoint fails here. */
static int reference_is_not_rn(void)
{
    double t[4] = {0x1p-60, 0.25 + 0x1p-45, 0x1p60, 256.0 - 0x1p60};
    ENSURE(sc_xsum_ref(t, 4) == 256.25);
    ENSURE(sc_xsum(t, 4) == 256.25);
    ENSURE(sc_xsum_s(t, 4) == 256.25);
    double x;
    ENSURE(!sc_xsum_fast(t, 4, &x));
    /* The same sum without the cancelling pair: the reference rounds it correctly, and so may the
     * fast path. */
    double u[3] = {0x1p-60, 0.25 + 0x1p-45, 256.0};
    ENSURE(sc_xsum_ref(u, 3) == 256.25 + 0x1p-44 && sc_xsum(u, 3) == 256.25 + 0x1p-44);
    return 0;
}

/* Lists of signed zeros only (every sign pattern up to n = 8, then random ones up to SC_XSUM_MAX):
 * the expansion of zeros is empty and its sum is +0.0 (never -0.0), whatever the signs. */
static int signed_zeros(void)
{
    double t[SC_XSUM_MAX], pz = 0.0;
    for (int n = 1; n <= SC_XSUM_MAX; ++n)
        for (int p = 0; p < (n <= 8 ? 1 << n : 64); ++p) {
            for (int i = 0; i < n; ++i) t[i] = ((n <= 8 ? p >> i : (int)rnd64()) & 1) ? -0.0 : 0.0;
            double a = sc_xsum(t, n), b = sc_xsum_s(t, n);
            ENSURE(same_bits(a, pz) && same_bits(b, pz));
            ENSURE(check_list(t, n));
        }
    return 0;
}

/* Sums of products of two floats with exponents anywhere in [-149, 127] (subnormal floats too),
 * and of two_prod parts of a float times such a product (as the callers' tmax terms). */
static int float_products(void)
{
    double t[SC_XSUM_MAX];
    for (long it = 0; it < 600000 * g_rounds; ++it) {
        int n = rnd_int(1, SC_XSUM_MAX);
        int lo = rnd_int(-149, 127), hi = rnd_int(lo, 127); /* narrow or wide exponent ranges */
        for (int i = 0; i < n; ++i) t[i] = (double)rnd_float(lo, hi) * rnd_float(lo, hi);
        if (n >= 2 && (it & 3) == 0) sc_two_prod((double)rnd_float(lo, hi), t[0], &t[0], &t[1]);
        ENSURE(check_list(t, n));
    }
    return 0;
}

/* Heavy cancellation: terms and their negations (exact, or split with two_sum so that they cancel
 * only in total), around a small remainder; exact zeros and signed zeros mixed in. */
static int cancellation_and_zeros(void)
{
    double t[SC_XSUM_MAX];
    for (long it = 0; it < 600000 * g_rounds; ++it) {
        int n = 0, want = rnd_int(1, SC_XSUM_MAX);
        int e = rnd_int(-140, 120);
        while (n < want) {
            int kind = rnd_int(0, 5);
            double a = (double)rnd_float(e - 30, e + 30) * rnd_float(-20, 20);
            if (kind <= 1 && n + 2 <= want) { /* a and -a, apart */
                t[n++] = a;
                t[n++] = -a;
            } else if (kind == 2 && n + 3 <= want) { /* a, then -a as two parts */
                double b = (double)rnd_float(e - 60, e + 5) * rnd_float(-20, 20), h, l;
                sc_two_sum(-a, b, &h, &l);
                t[n++] = a;
                t[n++] = h;
                t[n++] = l - b; /* -a = h + l - b; l - b may round: the sum is then not 0, fine */
            } else if (kind == 3) {
                t[n++] = (rnd64() & 1) ? -0.0 : 0.0;
            } else {
                t[n++] = a;
            }
        }
        shuffle(t, n);
        ENSURE(check_list(t, n));
    }
    return 0;
}

/* Lists whose exact sum is X + ulp(X)/2 + delta (a rounding midpoint of the double X, moved by
 * delta): random terms r, the negated components of their exact expansion (so that the r cancel
 * exactly, at any scale), then X, ulp(X)/2 and delta, shuffled. delta is 0, +-2^-k ulp(X) for k
 * from 0 to 110, a few ulps, or a random tiny double; X is random or a power of two (whose
 * lower midpoint, X - ulp(X)/4, is used as well). */
static int near_midpoints(void)
{
    double t[SC_XSUM_MAX], r[SC_XSUM_MAX], e[SC_XSUM_MAX];
    for (long it = 0; it < 1200000 * g_rounds; ++it) {
        int ex = rnd_int(-400, 300);
        int pow2 = (it % 3) == 0;
        double X = rnd_sign() * ldexp(pow2 ? 1.0 : 1.0 + (double)(rnd64() >> 12) * 0x1p-52, ex);
        double ulp = ldexp(1.0, ex - 52);
        double half = (pow2 && (it & 1)) ? -0.25 * ulp * (X > 0 ? 1 : -1) : 0.5 * ulp;
        double delta;
        int kind = rnd_int(0, 4);
        if (kind == 0) delta = 0.0;
        else if (kind == 1) delta = rnd_sign() * ldexp(ulp, -rnd_int(0, 110));
        else if (kind == 2) delta = rnd_sign() * ulp * rnd_int(1, 4);
        else if (kind == 3) delta = rnd_sign() * ldexp(1.0 + (double)(rnd64() >> 12) * 0x1p-52, ex - rnd_int(53, 160));
        else delta = rnd_sign() * ldexp(ulp, -rnd_int(0, 60)) * (1.0 + 0x1p-30 * rnd_int(0, 7));
        int k = rnd_int(0, 10);
        int spread = rnd_int(0, 1) ? 10 : 200; /* r at X's scale, or far above and below it */
        for (int i = 0; i < k; ++i)
            r[i] = rnd_sign() * ldexp(1.0 + (double)(rnd64() >> 12) * 0x1p-52, ex + rnd_int(-spread, spread));
        int m = sc_expansion(r, k, e);
        int n = 0;
        if (k + m + 3 > SC_XSUM_MAX) continue;
        for (int i = 0; i < k; ++i) t[n++] = r[i];
        for (int i = 0; i < m; ++i) t[n++] = -e[i];
        t[n++] = X;
        t[n++] = half;
        if (delta != 0.0 || rnd_int(0, 1)) t[n++] = delta;
        if (it & 4) shuffle(t, n);
        ENSURE(check_list(t, n));
    }
    return 0;
}

/* Powers of two and sums of a few of them at nearby and far exponents (exact totals, ties, and
 * totals that are powers of two themselves), with n from 1 to SC_XSUM_MAX. */
static int powers_of_two(void)
{
    double t[SC_XSUM_MAX];
    for (long it = 0; it < 600000 * g_rounds; ++it) {
        int n = rnd_int(1, SC_XSUM_MAX);
        int e = rnd_int(-440, 250), spread = rnd_int(0, 3) == 0 ? 120 : 3 + rnd_int(0, 60);
        for (int i = 0; i < n; ++i) t[i] = rnd_sign() * ldexp(1.0, e + rnd_int(-spread, spread));
        ENSURE(check_list(t, n));
    }
    return 0;
}

/* sc_dist2_minus_r2 (10 products of floats through the fast path) against its reference (19
 * two_sum/two_prod terms through sc_xsum_s), bit for bit: points and centres at any exponents,
 * points near the centre (the difference cancels), radii near the distance (the sum cancels to a
 * few ulps or to 0), and small integers (exact ties and exact zeros). */
static float near_float(float x, int ulps)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    b += (uint32_t)ulps;
    memcpy(&x, &b, sizeof x);
    return isfinite(x) ? x : 0.0f;
}
static int dist2_terms(void)
{
    for (long it = 0; it < 1500000 * g_rounds; ++it) {
        int kind = (int)(it % 4), lo = rnd_int(-149, 127), hi = rnd_int(lo, 127);
        sc_vec3 o, c;
        float r;
        for (int i = 0; i < 3; ++i) {
            float oi = rnd_float(lo, hi), ci = rnd_float(lo, hi);
            if (kind == 1 || kind == 2) ci = near_float(oi, rnd_int(-3, 3) * (rnd_int(0, 1) ? 1 : 1000));
            if (kind == 3) oi = (float)rnd_int(-40, 40), ci = (float)rnd_int(-40, 40);
            v3_set(&o, i, oi);
            v3_set(&c, i, ci);
        }
        if (kind == 3) {
            r = (float)rnd_int(0, 60) * (rnd_int(0, 1) ? 1.0f : 0.5f);
        } else if (kind == 2 || (kind == 0 && (it & 4))) {
            double m2 = 0;
            for (int i = 0; i < 3; ++i) {
                double di = (double)v3_at(o, i) - v3_at(c, i);
                m2 += di * di;
            }
            r = near_float((float)sqrt(m2), rnd_int(-2, 2));
        } else {
            r = rnd_float(lo, hi) * (rnd_int(0, 1) ? 1.0f : 0.0f);
        }
        r = fabsf(r);
        double a = sc_dist2_minus_r2(o, c, r), b = sc_dist2_minus_r2_ref(o, c, r);
        if (!same_bits(a, b)) {
            fprintf(stderr, "  dist2 mismatch %a vs ref %a: o %a %a %a c %a %a %a r %a\n", a, b, o.x, o.y, o.z, c.x,
                    c.y, c.z, r);
            ENSURE(0);
        }
    }
    return 0;
}

/* sc_unit_d and sc_pow2_norm (sc_single.h) read the power of two from the exponent bits: the same
 * floats as the frexp / ldexp formulas they replace (written out here), on vectors with components
 * at every double exponent (subnormal, zero, huge, infinite and NaN ones too) and on every 61st
 * float. */
static sc_vec3 unit_d_frexp(const double *v, sc_vec3 fallback)
{
    double m = fabs(v[0]);
    if (fabs(v[1]) > m) m = fabs(v[1]);
    if (fabs(v[2]) > m) m = fabs(v[2]);
    if (!(m > 0.0) || !isfinite(m)) return fallback;
    int e = 0;
    (void)frexp(m, &e);
    double x = ldexp(v[0], -e), y = ldexp(v[1], -e), z = ldexp(v[2], -e);
    double len = sqrt(x * x + y * y + z * z);
    return (sc_vec3){(float)(x / len), (float)(y / len), (float)(z / len)};
}
static int same_vec(sc_vec3 a, sc_vec3 b) { return memcmp(&a, &b, sizeof a) == 0; }
static double rnd_double_any(void)
{
    int k = rnd_int(0, 40);
    if (k == 0) return 0.0;
    if (k == 1) return rnd_sign() * INFINITY;
    if (k == 2) return NAN;
    if (k == 3) return rnd_sign() * ldexp((double)(rnd64() >> 12), -1074); /* subnormal */
    return rnd_sign() * ldexp(1.0 + (double)(rnd64() >> 12) * 0x1p-52, rnd_int(-1022, 1023));
}
static int unit_vectors(void)
{
    sc_vec3 fb = {1, 2, 3};
    for (long it = 0; it < 1000000 * g_rounds; ++it) {
        double v[3];
        int e = rnd_int(-1100, 1100);
        for (int i = 0; i < 3; ++i)
            v[i] = (it & 1) ? rnd_double_any() : rnd_sign() * ldexp(1.0 + (double)(rnd64() >> 12) * 0x1p-52, e - rnd_int(0, 80));
        ENSURE(same_vec(sc_unit_d(v, fb), unit_d_frexp(v, fb)));
    }
    for (uint64_t u = 0; u < (1ull << 32); u += 61) {
        uint32_t b = (uint32_t)u;
        float m;
        memcpy(&m, &b, sizeof m);
        float want = ldexpf(1.0f, sc_pow2_exp(m)), got = sc_pow2_norm(m);
        ENSURE(memcmp(&want, &got, sizeof want) == 0);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 && argv[1][0] ? argv[1] : NULL;
    if (argc > 2) g_rounds = atol(argv[2]);
    RUN_TEST(reference_is_not_rn);
    RUN_TEST(signed_zeros);
    RUN_TEST(float_products);
    RUN_TEST(cancellation_and_zeros);
    RUN_TEST(near_midpoints);
    RUN_TEST(powers_of_two);
    RUN_TEST(dist2_terms);
    RUN_TEST(unit_vectors);
    printf("%ld lists: %ld by the first proof, %ld by the second; %d passed, %d failed\n", g_lists, g_fast, g_short, g_run - g_failed_tests,
           g_failed_tests);
    return g_failed_tests ? 1 : 0;
}
