/* Numbers for exact predicates in the exact room (with sc_exact.h): doubles that carry a bound on
 * their error (sc_fd), and exact binary numbers (sc_bf: a sign, an exponent and an integer of up
 * to SC_BF_LIMBS 32-bit limbs). A predicate is written once for both (a header included twice,
 * NUM / OP(name): sc_ball_kkt.h, sc_capsule_pred.h): it runs first on sc_fd, taking a sign only
 * when the value is further from zero than its bound, and again on sc_bf, where every sign is
 * known, when some sign it depends on was too close to call. Internal. Moved here from
 * sc_ball.c unchanged (the functions became static inline), so that sc_capsule.c shares them. */
#ifndef SC_EXACT_NUM_H
#define SC_EXACT_NUM_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The sign a number type cannot tell (sc_fd too close to zero, sc_bf too long). */
#define SC_NUM_UNKNOWN 2
/* ------------------------------------------------------------------ doubles with a bound */

/* v: the value in double; e: a bound on |v - exact| (0 for exact inputs). */
typedef struct sc_fd { double v, e; } sc_fd;

/* Each operation's rounding is at most 2^-53 |v| (plus 2^-1075 when the result is subnormal);
 * the bound itself is computed in double, so it is grown by 2^-50 to stay a bound. */
#define SC_FD_U 0x1p-52
#define SC_FD_GROW (1.0 + 0x1p-50)
#define SC_FD_TINY 0x1p-1073

/* An exact double. */
static inline void sc_fd_set(sc_fd *r, double a)
{
    r->v = a;
    r->e = 0.0;
}

static inline void sc_fd_add(sc_fd *r, const sc_fd *a, const sc_fd *b)
{
    double v = a->v + b->v;
    r->e = (a->e + b->e + fabs(v) * SC_FD_U) * SC_FD_GROW + SC_FD_TINY;
    r->v = v;
}

static inline void sc_fd_sub(sc_fd *r, const sc_fd *a, const sc_fd *b)
{
    double v = a->v - b->v;
    r->e = (a->e + b->e + fabs(v) * SC_FD_U) * SC_FD_GROW + SC_FD_TINY;
    r->v = v;
}

static inline void sc_fd_mul(sc_fd *r, const sc_fd *a, const sc_fd *b)
{
    double v = a->v * b->v;
    r->e = (fabs(a->v) * b->e + fabs(b->v) * a->e + a->e * b->e + fabs(v) * SC_FD_U) * SC_FD_GROW + SC_FD_TINY;
    r->v = v;
}

static inline int sc_fd_sign(const sc_fd *a)
{
    if (!(fabs(a->v) <= DBL_MAX && a->e <= DBL_MAX)) return SC_NUM_UNKNOWN; /* overflow, NaN */
    if (a->v > a->e) return 1;
    if (a->v < -a->e) return -1;
    if (a->v == 0.0 && a->e == 0.0) return 0;
    return SC_NUM_UNKNOWN;
}

/* ------------------------------------------------------------------ exact binary numbers */

#define SC_BF_LIMBS 80

/* (-1)^neg * sum_{i < n} m[i] 2^(32 i) * 2^e; zero when n == 0. m[0] and m[n - 1] are non-zero
 * (whole zero limbs are moved into e). over: a result needed more than SC_BF_LIMBS limbs (the
 * bound above says it cannot happen; the sign is then unknown rather than wrong). */
typedef struct sc_bf {
    int32_t e;
    int16_t n;
    uint8_t neg, over;
    uint32_t m[SC_BF_LIMBS];
} sc_bf;

static inline void sc_bf_trim(sc_bf *r)
{
    while (r->n > 0 && r->m[r->n - 1] == 0) --r->n;
    int z = 0;
    while (z < r->n && r->m[z] == 0) ++z;
    if (z) {
        memmove(r->m, r->m + z, sizeof(uint32_t) * (size_t)(r->n - z));
        r->n = (int16_t)(r->n - z);
        r->e += 32 * z;
    }
    if (r->n == 0) { r->e = 0; r->neg = 0; }
}

static inline void sc_bf_set(sc_bf *r, double x)
{
    memset(r, 0, offsetof(sc_bf, m));
    if (x == 0.0) return;
    int ex;
    double f = frexp(fabs(x), &ex);        /* |x| = f 2^ex, f in [0.5, 1) */
    uint64_t mant = (uint64_t)ldexp(f, 53); /* exact: 53 bits */
    r->neg = x < 0.0;
    r->e = ex - 53;
    r->m[0] = (uint32_t)mant;
    r->m[1] = (uint32_t)(mant >> 32);
    r->n = 2;
    sc_bf_trim(r);
}

/* out = |a| shifted left by s >= 0 bits, into limbs; returns its limb count, or -1 when too long. */
static inline int sc_bf_shifted(const sc_bf *a, int64_t s, uint32_t *out)
{
    int64_t w = s / 32;
    int bits = (int)(s % 32);
    if (a->n + w + 1 > SC_BF_LIMBS) return -1;
    int n = (int)w + a->n + 1;
    memset(out, 0, sizeof(uint32_t) * (size_t)n);
    for (int i = 0; i < a->n; ++i) {
        uint64_t x = (uint64_t)a->m[i] << bits;
        out[w + i] |= (uint32_t)x;
        out[w + i + 1] |= (uint32_t)(x >> 32);
    }
    return n;
}

/* r = a + (negate_b ? -b : b) */
static inline void sc_bf_addsub(sc_bf *r, const sc_bf *a, const sc_bf *b, int negate_b)
{
    if (a->over || b->over) { r->over = 1; r->n = 0; return; }
    uint8_t bneg = (uint8_t)(b->neg ^ (negate_b && b->n));
    if (b->n == 0) { if (r != a) *r = *a; return; }
    if (a->n == 0) { if (r != b) *r = *b; r->neg = bneg; return; }
    uint32_t x[SC_BF_LIMBS], y[SC_BF_LIMBS];
    int32_t e = a->e < b->e ? a->e : b->e;
    int nx = sc_bf_shifted(a, (int64_t)a->e - e, x), ny = sc_bf_shifted(b, (int64_t)b->e - e, y);
    uint8_t aneg = a->neg;
    if (nx < 0 || ny < 0) { r->over = 1; r->n = 0; return; }
    int n = nx > ny ? nx : ny;
    for (int i = nx; i < n; ++i) x[i] = 0;
    for (int i = ny; i < n; ++i) y[i] = 0;
    sc_bf out;
    memset(&out, 0, offsetof(sc_bf, m));
    out.e = e;
    if (aneg == bneg) {
        uint64_t carry = 0;
        for (int i = 0; i < n; ++i) {
            uint64_t s = (uint64_t)x[i] + y[i] + carry;
            out.m[i] = (uint32_t)s;
            carry = s >> 32;
        }
        if (carry) {
            if (n + 1 > SC_BF_LIMBS) { r->over = 1; r->n = 0; return; }
            out.m[n++] = (uint32_t)carry;
        }
        out.neg = aneg;
    } else {
        /* |x| - |y| or |y| - |x|, whichever is not negative */
        int cmp = 0;
        for (int i = n - 1; i >= 0 && !cmp; --i) cmp = x[i] < y[i] ? -1 : (x[i] > y[i] ? 1 : 0);
        const uint32_t *p = cmp >= 0 ? x : y, *q = cmp >= 0 ? y : x;
        int64_t borrow = 0;
        for (int i = 0; i < n; ++i) {
            int64_t d = (int64_t)p[i] - q[i] - borrow;
            borrow = d < 0;
            out.m[i] = (uint32_t)(d + (borrow << 32));
        }
        out.neg = cmp >= 0 ? aneg : bneg;
    }
    out.n = (int16_t)n;
    sc_bf_trim(&out);
    memcpy(r, &out, offsetof(sc_bf, m) + sizeof(uint32_t) * (size_t)out.n);
}

static inline void sc_bf_add(sc_bf *r, const sc_bf *a, const sc_bf *b) { sc_bf_addsub(r, a, b, 0); }
static inline void sc_bf_sub(sc_bf *r, const sc_bf *a, const sc_bf *b) { sc_bf_addsub(r, a, b, 1); }

static inline void sc_bf_mul(sc_bf *r, const sc_bf *a, const sc_bf *b)
{
    if (a->over || b->over || a->n + b->n > SC_BF_LIMBS) { r->over = 1; r->n = 0; return; }
    sc_bf out;
    memset(&out, 0, offsetof(sc_bf, m));
    if (a->n == 0 || b->n == 0) { *r = out; return; }
    int n = a->n + b->n;
    memset(out.m, 0, sizeof(uint32_t) * (size_t)n);
    for (int i = 0; i < a->n; ++i) {
        uint64_t carry = 0;
        for (int j = 0; j < b->n; ++j) {
            uint64_t t = (uint64_t)a->m[i] * b->m[j] + out.m[i + j] + carry;
            out.m[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        out.m[i + b->n] = (uint32_t)carry;
    }
    out.n = (int16_t)n;
    out.e = a->e + b->e;
    out.neg = a->neg ^ b->neg;
    sc_bf_trim(&out);
    memcpy(r, &out, offsetof(sc_bf, m) + sizeof(uint32_t) * (size_t)out.n);
}

static inline int sc_bf_sign(const sc_bf *a)
{
    if (a->over) return SC_NUM_UNKNOWN;
    return a->n == 0 ? 0 : (a->neg ? -1 : 1);
}


#endif
