/* slabcast: whether a closed ball meets a convex polytope given by half-spaces, exactly.
 * docs/semantics.md, "Overlaps": a sphere against an OBB or a frustum.
 *
 * The decision (sc_ball_kkt.h) is a sequence of polynomial signs in the float inputs. It runs
 * first on doubles that carry a bound on their error (sc_fd): a sign is taken only when the value
 * is further from zero than its bound. When some sign the answer depends on is too close to
 * call, it runs again on exact binary numbers (sc_bf: a sign, an exponent and an integer of up to
 * SC_BF_LIMBS 32-bit limbs), where every sign is known. The widest value the decision forms from
 * float inputs spans about 2,230 bits (a squared distance of degree 8, with subnormal and
 * near-FLT_MAX inputs together); SC_BF_LIMBS holds 2,560. */
#include "sc_internal.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SC_BALL_UNKNOWN 2
#define SC_BALL_MAX 6 /* half-spaces: an OBB's six, a frustum's six */

/* ------------------------------------------------------------------ doubles with a bound */

/* v: the value in double; e: a bound on |v - exact| (0 for exact inputs). */
typedef struct sc_fd { double v, e; } sc_fd;

/* Each operation's rounding is at most 2^-53 |v| (plus 2^-1075 when the result is subnormal);
 * the bound itself is computed in double, so it is grown by 2^-50 to stay a bound. */
#define SC_FD_U 0x1p-52
#define SC_FD_GROW (1.0 + 0x1p-50)
#define SC_FD_TINY 0x1p-1073

/* An exact double. */
static void sc_fd_set(sc_fd *r, double a)
{
    r->v = a;
    r->e = 0.0;
}

static void sc_fd_add(sc_fd *r, const sc_fd *a, const sc_fd *b)
{
    double v = a->v + b->v;
    r->e = (a->e + b->e + fabs(v) * SC_FD_U) * SC_FD_GROW + SC_FD_TINY;
    r->v = v;
}

static void sc_fd_sub(sc_fd *r, const sc_fd *a, const sc_fd *b)
{
    double v = a->v - b->v;
    r->e = (a->e + b->e + fabs(v) * SC_FD_U) * SC_FD_GROW + SC_FD_TINY;
    r->v = v;
}

static void sc_fd_mul(sc_fd *r, const sc_fd *a, const sc_fd *b)
{
    double v = a->v * b->v;
    r->e = (fabs(a->v) * b->e + fabs(b->v) * a->e + a->e * b->e + fabs(v) * SC_FD_U) * SC_FD_GROW + SC_FD_TINY;
    r->v = v;
}

static int sc_fd_sign(const sc_fd *a)
{
    if (!(fabs(a->v) <= DBL_MAX && a->e <= DBL_MAX)) return SC_BALL_UNKNOWN; /* overflow, NaN */
    if (a->v > a->e) return 1;
    if (a->v < -a->e) return -1;
    if (a->v == 0.0 && a->e == 0.0) return 0;
    return SC_BALL_UNKNOWN;
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

static void sc_bf_trim(sc_bf *r)
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

static void sc_bf_set(sc_bf *r, double x)
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
static int sc_bf_shifted(const sc_bf *a, int64_t s, uint32_t *out)
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
static void sc_bf_addsub(sc_bf *r, const sc_bf *a, const sc_bf *b, int negate_b)
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

static void sc_bf_add(sc_bf *r, const sc_bf *a, const sc_bf *b) { sc_bf_addsub(r, a, b, 0); }
static void sc_bf_sub(sc_bf *r, const sc_bf *a, const sc_bf *b) { sc_bf_addsub(r, a, b, 1); }

static void sc_bf_mul(sc_bf *r, const sc_bf *a, const sc_bf *b)
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

static int sc_bf_sign(const sc_bf *a)
{
    if (a->over) return SC_BALL_UNKNOWN;
    return a->n == 0 ? 0 : (a->neg ? -1 : 1);
}

/* beta_k = b_k - n_k . c, from its exact double terms (b's, and the products n_i c_i of floats). */
static int sc_ball_terms(const sc_xhs *h, sc_vec3 c, double *t)
{
    int k = 0;
    for (int i = 0; i < h->nb; ++i) t[k++] = h->b[i];
    t[k++] = -((double)h->n[0] * c.x);
    t[k++] = -((double)h->n[1] * c.y);
    t[k++] = -((double)h->n[2] * c.z);
    return k;
}

/* ------------------------------------------------------------------ the decision, twice */

#define NUM sc_fd
#define OP(name) sc_fd_##name
#define KKT_FN(name) sc_ball_##name##_fd
#include "sc_ball_kkt.h"
#undef NUM
#undef OP
#undef KKT_FN

#define NUM sc_bf
#define OP(name) sc_bf_##name
#define KKT_FN(name) sc_ball_##name##_bf
#include "sc_ball_kkt.h"
#undef NUM
#undef OP
#undef KKT_FN

/* Whether the closed ball (center, radius >= 0) meets the intersection of the m half-spaces
 * h[k]: n . x <= sum of b (float normals, exact double terms). skip_pair: h[2i] and h[2i + 1]
 * are opposite (an OBB's slabs). A half-space with a zero normal holds everywhere (0 <= b) or
 * nowhere. Exact; at most SC_BALL_MAX half-spaces. */
static int sc_ball_meets(const sc_xhs *h, int m, int skip_pair, sc_vec3 center, float radius, int filtered);

int sc__ball_meets_halfspaces(const sc_xhs *h, int m, int skip_pair, sc_vec3 center, float radius)
{
    return sc_ball_meets(h, m, skip_pair, center, radius, 1);
}

int sc__ball_meets_halfspaces_exact(const sc_xhs *h, int m, int skip_pair, sc_vec3 center, float radius)
{
    return sc_ball_meets(h, m, skip_pair, center, radius, 0);
}

/* filtered: try the doubles with error bounds first (0: exact arithmetic only, for tests). */
static int sc_ball_meets(const sc_xhs *h, int m, int skip_pair, sc_vec3 center, float radius, int filtered)
{
    int idx[SC_BALL_MAX], k = 0;
    for (int i = 0; i < m && i < SC_BALL_MAX; ++i) {
        if (h[i].n[0] == 0.0f && h[i].n[1] == 0.0f && h[i].n[2] == 0.0f) {
            sc_bf b, t;
            sc_bf_set(&b, 0.0);
            for (int j = 0; j < h[i].nb; ++j) {
                sc_bf_set(&t, h[i].b[j]);
                sc_bf_add(&b, &b, &t);
            }
            if (sc_bf_sign(&b) < 0) return 0; /* 0 <= b fails: empty */
            skip_pair = 0;                            /* the pairs no longer line up */
            continue;
        }
        idx[k++] = i;
    }
    double rr = (double)radius * radius; /* exact: a product of floats */
    if (filtered) {
        int r = sc_ball_halfspaces_fd(h, idx, k, skip_pair, center, rr);
        if (r != SC_BALL_UNKNOWN) return r;
    }
    int r = sc_ball_halfspaces_bf(h, idx, k, skip_pair, center, rr);
    /* Unknown only if a value outgrew SC_BF_LIMBS, which float inputs cannot make (see above):
     * then the nearer answer of touching counts. */
    return r == SC_BALL_UNKNOWN ? 1 : r;
}
