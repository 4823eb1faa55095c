/* sc_kernels.h: the world's kernels (internal), on sc_simd.h (4 lanes; 8 for AVX2 nodes). Each SIMD line is
 * preceded by its scalar meaning. Static inline: the traversal loops of sc_traverse.c keep
 * them in registers.
 */
#ifndef SC_KERNELS_H
#define SC_KERNELS_H

#include "sc_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* A ray of a large batch in trace order (sc_query.c): the ray, then (once traced) its result in
 * its place, and the ray's index in the batch. 32 bytes. */
typedef struct sc_wrec {
    union {
        sc_ray ray;
        sc_whit hit;
    } u;
    int32_t i;
} sc_wrec;

/* The nearest hits (any_hit: the first found) of n unfiltered rays in trace order, each rec's
 * ray replaced by its hit: sc__ray_prep then sc__cast on each, in one loop (sc_traverse.c). */
void sc__cast_recs(const sc_world *w, sc_wrec *rec, int n, int any_hit);

/* Where the results of a batch go (sc_query.c's outputs): nearest hits into t, index and normal
 * (normal may be NULL), or, for any-hit batches, whether each ray hit into hit. */
typedef struct sc_wout {
    float *t;
    int32_t *index;
    float *normal;
    bool *hit;
} sc_wout;

/* Ray i's hit h to the outputs: t (0 for a miss; -0 reported as +0), index and normal (-0 as
 * +0), or for any_hit whether it hit. */
static inline void sc_w_put(const sc_whit *h, int32_t i, int any_hit, const sc_wout *out)
{
    if (any_hit) {
        out->hit[i] = h->index >= 0;
        return;
    }
    out->t[i] = h->index >= 0 ? h->t + 0.0f : 0.0f;
    out->index[i] = h->index;
    if (out->normal) {
        out->normal[3 * (size_t)i + 0] = h->normal.x + 0.0f;
        out->normal[3 * (size_t)i + 1] = h->normal.y + 0.0f;
        out->normal[3 * (size_t)i + 2] = h->normal.z + 0.0f;
    }
}

#if !defined(__wasm__)
/* sc__cast_recs without the records: the n rays (SC_RAY_FLOATS floats each, checked) read from
 * the input in the order perm (ray perm[j] j-th), each result written straight to its place in
 * out (sc_w_put). Natively, for trees that stay in cache (sc_query.c). */
void sc__cast_order(const sc_world *w, const float *rays, const int32_t *perm, int n, int any_hit, const sc_wout *out);
#endif

/* The conservative test of four boxes against one ray. base points at a node's bmin/bmax or
 * a group's lo/hi: twelve floats of minima (x, y, z: four lanes each), then twelve of maxima.
 * A reciprocal slab test, branch-free, that never rejects a box the exact test hits:
 *   - entries use a reciprocal shrunk by 2^-20, exits one grown by 2^-20. Before the last
 *     rounding, an entry product is then below the exact entry distance times (1 - 2^-21),
 *     and an exit product above the exact exit times (1 + 2^-21): the other roundings
 *     (bound - o, 1/d, the scaling) are relative and below 2^-22 in all (a subtraction
 *     that underflows is exact, and |d| is kept in [2^-40, 2^100)). The last rounding is
 *     monotone, so when the exact entry is at most the exact exit, or at most the exact t
 *     of the best hit so far (itself a rounding of an exact value), the computed one is
 *     too, even in the subnormal range and on ties. Signs are exact.
 *   - special axes need no branch, thanks to the NaN rule of f4_max(a, b) = a < b ? b : a
 *     and f4_min(a, b) = b < a ? b : a (a NaN in b is ignored):
 *       d = +-0: inv = +-inf; (bound - o) * inv is -inf (no constraint), +inf (rejects), or
 *                NaN when o lies on the bound's plane: ignored, so the slab is closed, as in
 *                the exact test;
 *       tiny or huge d: inv = NaN: the axis is ignored (culls less, never more);
 *       empty lanes (inverted bounds): entry +inf, exit -inf: rejected.
 * Returns the lanes that may hit with t_enter <= limit (vlimit: its splat, sc_w_cull_limit);
 * max(t_enter, 0) per lane in tn_out (finite for those lanes). noff / foff: the float offsets of
 * each axis's near and far bounds (sc_w_cull_offsets). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline)) /* never a call inside a traversal loop (its vector registers) */
#endif
static inline int sc_w_cull4v(const float *base, const int *noff, const int *foff, const sc_wcull *r, f4 vlimit,
                              float *tn_out)
{
    /* scalar, per axis: near = (near_bound - o) * inv_near; far = (far_bound - o) * inv_far */
    f4 n0 = f4_mul(f4_sub(f4_load(base + noff[0]), r->vo[0]), r->vnear[0]);
    f4 f0 = f4_mul(f4_sub(f4_load(base + foff[0]), r->vo[0]), r->vfar[0]);
    f4 n1 = f4_mul(f4_sub(f4_load(base + noff[1]), r->vo[1]), r->vnear[1]);
    f4 f1 = f4_mul(f4_sub(f4_load(base + foff[1]), r->vo[1]), r->vfar[1]);
    f4 n2 = f4_mul(f4_sub(f4_load(base + noff[2]), r->vo[2]), r->vnear[2]);
    f4 f2 = f4_mul(f4_sub(f4_load(base + foff[2]), r->vo[2]), r->vfar[2]);
    /* scalar: tn = max(0, n0, n1, n2); tf = min(limit, f0, f1, f2), NaN terms ignored (the
     * accumulator is the first operand: f4_max / f4_min ignore a NaN second operand only) */
    f4 tn = f4_max(f4_max(f4_max(f4_splat(0.0f), n0), n1), n2);
    f4 tf = f4_min(f4_min(f4_min(vlimit, f0), f1), f2);
    /* scalar: tn <= tf, which is t_enter <= t_exit && t_exit >= 0 && t_enter <= limit */
    int bits = f4_bits(f4_le(tn, tf));
    if (tn_out) f4_store(tn_out, tn);
    return bits;
}

/* The culling limit: a finite one, so that an entry of +inf (the origin outside the slab of an
 * axis the ray is parallel to) is always rejected, even before any hit when tmax = inf. */
static inline float sc_w_cull_limit(float limit) { return limit < FLT_MAX ? limit : FLT_MAX; }

/* sc_w_cull4v with the limit as a float. */
static inline int sc_w_cull4o(const float *base, const int *noff, const int *foff, const sc_wcull *r, float limit,
                              float *tn_out)
{
    return sc_w_cull4v(base, noff, foff, r, f4_splat(sc_w_cull_limit(limit)), tn_out);
}

/* The float offsets of the near and far bounds of each axis in SoA bounds of width lanes
 * ([axis][width] minima, then as many maxima): for octant oct (bit a: the culling reciprocal of
 * axis a is negative, so the near bound is the maximum). */
static inline void sc_w_cull_offsets(int oct, int width, int *noff, int *foff)
{
    for (int a = 0; a < 3; ++a) {
        int neg = oct >> a & 1;
        noff[a] = (neg ? 3 * width : 0) + width * a;
        foff[a] = (neg ? 0 : 3 * width) + width * a;
    }
}

/* sc_w_cull4o on a group (or on lo / hi bounds of width 4) in the ray's octant. */
static inline int sc_w_cull4(const float *base, const sc_wcull c, float limit, float *tn_out)
{
    int noff[3], foff[3];
    sc_w_cull_offsets(c.oct, 4, noff, foff);
    return sc_w_cull4o(base, noff, foff, &c, limit, tn_out);
}

/* The conservative test of a node's SC_NODE_W children (sc_w_cull4v on each 4-lane half: the
 * portable kernel, SSE2, wasm SIMD128 or scalar); noff / foff for width SC_NODE_W. Returns the
 * lanes that may hit among the node's valid ones. The build fills a node's lanes from the
 * first (sc_bvh.c), so a node of at most four children has no valid lane in its upper half,
 * which is then not tested (its tn_out lanes are not written): at 100k boxes 40% of the nodes. */
static inline unsigned sc_w_cull_node(const sc_node *nd, const int *noff, const int *foff, const sc_wcull *c,
                                      f4 vlimit, float *tn_out)
{
    const float *base = &nd->bmin[0][0];
    const unsigned valid = (unsigned)nd->valid;
#if SC_NODE_W == 8
    unsigned bits = (unsigned)sc_w_cull4v(base, noff, foff, c, vlimit, tn_out);
    if (valid >> 4) bits |= (unsigned)sc_w_cull4v(base + 4, noff, foff, c, vlimit, tn_out + 4) << 4;
    return bits & valid;
#else
    return (unsigned)sc_w_cull4v(base, noff, foff, c, vlimit, tn_out) & valid;
#endif
}

/* The node kernel's AVX2 variant (x86-64, GCC or clang): compiled for AVX2 whatever the build's
 * flags (the functions that use it carry SC_AVX2) and chosen at run time when the CPU has it
 * (sc_traverse.c). Never FMA: the products and sums round exactly as sc_w_cull4v's. */
#if SC_NODE_W == 8 && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(SC_SIMD_SCALAR)
#define SC_HAVE_AVX2 1
#include <immintrin.h>
#define SC_AVX2 __attribute__((target("avx2")))

/* The ray's splats, eight lanes wide. */
typedef struct sc_wcull8 { __m256 vo[3], vnear[3], vfar[3]; } sc_wcull8;

static inline SC_AVX2 sc_wcull8 sc_w_cull8_prep(const sc_wcull *c)
{
    sc_wcull8 r;
    /* each from its splat's first lane in memory: one vbroadcastss from memory, not a load and a
     * broadcast */
    for (int a = 0; a < 3; ++a) {
        r.vo[a] = _mm256_broadcast_ss((const float *)(const void *)&c->vo[a]);
        r.vnear[a] = _mm256_broadcast_ss((const float *)(const void *)&c->vnear[a]);
        r.vfar[a] = _mm256_broadcast_ss((const float *)(const void *)&c->vfar[a]);
    }
    return r;
}

/* sc_w_cull4v on eight lanes: the same operations in the same order, so the same bits and tn
 * lane by lane. vmaxps(x, y) = x > y ? x : y, so f4_max(a, b) = a < b ? b : a = vmaxps(b, a);
 * vminps(x, y) = x < y ? x : y, so f4_min(a, b) = b < a ? b : a = vminps(b, a).
 * finite (a constant): every culling reciprocal of the ray is finite (sc_wray.fast), so that no
 * product is NaN; the maxima and minima are then taken as two pairs (one step shorter): the same
 * values (max and min are exact), and the same zeros where a sign could differ (tn: the pair
 * holding +0 comes second, so max(-0, +0) gives +0 as the chain does; tf is only compared). */
static inline SC_AVX2 unsigned sc_w_cull8_avx2(const float *base, const int *noff, const int *foff, const sc_wcull8 *r,
                                               __m256 vlimit, float *tn_out, const int finite)
{
    /* scalar, per axis: near = (near_bound - o) * inv_near; far = (far_bound - o) * inv_far */
    __m256 n0 = _mm256_mul_ps(_mm256_sub_ps(_mm256_load_ps(base + noff[0]), r->vo[0]), r->vnear[0]);
    __m256 f0 = _mm256_mul_ps(_mm256_sub_ps(_mm256_load_ps(base + foff[0]), r->vo[0]), r->vfar[0]);
    __m256 n1 = _mm256_mul_ps(_mm256_sub_ps(_mm256_load_ps(base + noff[1]), r->vo[1]), r->vnear[1]);
    __m256 f1 = _mm256_mul_ps(_mm256_sub_ps(_mm256_load_ps(base + foff[1]), r->vo[1]), r->vfar[1]);
    __m256 n2 = _mm256_mul_ps(_mm256_sub_ps(_mm256_load_ps(base + noff[2]), r->vo[2]), r->vnear[2]);
    __m256 f2 = _mm256_mul_ps(_mm256_sub_ps(_mm256_load_ps(base + foff[2]), r->vo[2]), r->vfar[2]);
    /* scalar: tn = max(max(max(0, n0), n1), n2); tf = min(min(min(limit, f0), f1), f2), a NaN
     * second operand ignored (f4_max(acc, x) = vmaxps(x, acc) returns acc when x is NaN) */
    __m256 tn, tf;
    if (finite) {
        tn = _mm256_max_ps(_mm256_max_ps(n2, n1), _mm256_max_ps(n0, _mm256_setzero_ps()));
        tf = _mm256_min_ps(_mm256_min_ps(f2, f1), _mm256_min_ps(f0, vlimit));
    } else {
        tn = _mm256_max_ps(n2, _mm256_max_ps(n1, _mm256_max_ps(n0, _mm256_setzero_ps())));
        tf = _mm256_min_ps(f2, _mm256_min_ps(f1, _mm256_min_ps(f0, vlimit)));
    }
    _mm256_store_ps(tn_out, tn);
    /* scalar: tn <= tf */
    return (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(tn, tf, _CMP_LE_OQ));
}
#endif

/* Four AABBs against one ray: sc__raycast_aabb_valid's slab test, lane by lane, bit for bit. The same quotients, (bound - o) / d, so the same bits:
 *   - each axis's near and far bounds are read where the ray's direction puts them (near: lo
 *     when d > 0, hi otherwise, as the scalar test), with no per-lane select;
 *   - the scalar's underflow rule (a quotient below FLT_MIN from a non-zero numerator) is
 *     replaced by a wider one that needs no numerator: any quotient below FLT_MIN (zero
 *     included) sends its lane to the scalar test;
 *   - a t_enter of +inf (both ends overflowed: sc_slab_interval's second pass) sends its lane
 *     to the scalar test, hit or not;
 *   - the entry axis (the lowest one whose near quotient is t_enter, as `if (near > tn)` keeps
 *     the first) is found only when some lane hits.
 * Lanes sent to the scalar test are in *redo (decided there, whatever this kernel concluded for
 * them): a superset of the lanes where the scalar test leaves its float path. Every other lane is decided on the scalar's own
 * t_enter and t_exit by the scalar's rules. Returns the lanes that hit with t_enter <= limit;
 * t_enter per lane in tn_out, and in axis_out[a] the lanes whose near quotient on axis a (not
 * parallel) is t_enter (both set when some lane hits): sc_w_lane_axis. */
static inline int sc_w_leaf_aabb4(const sc_group *g, const sc_wray *r, float limit, float *tn_out, unsigned *axis_out,
                                  int *redo)
{
    const float *base = &g->lo[0][0];
    f4 tn = f4_splat(-INFINITY), tf = f4_splat(INFINITY);
    f4 alive = f4_lt(f4_splat(0.0f), f4_splat(1.0f)); /* all lanes */
    f4 small = f4_splat(INFINITY);
    f4 q[3];
    for (int a = 0; a < 3; ++a) {
        f4 o = f4_splat(r->o[a]);
        if (r->par[a]) {
            /* scalar: if (o < lo || o > hi) miss */
            alive = f4_and(alive, f4_and(f4_ge(o, f4_load(g->lo[a])), f4_le(o, f4_load(g->hi[a]))));
            q[a] = tn;
            continue;
        }
        /* scalar: near = (near_bound - o) / d; far = (far_bound - o) / d, where the near bound is
         * lo when d > 0 (at 4a floats in the group), hi otherwise (at 12 + 4a) */
        uint32_t neg;
        memcpy(&neg, &r->d[a], sizeof neg);
        neg >>= 31;
        f4 d = f4_splat(r->d[a]);
        q[a] = f4_div(f4_sub(f4_load(base + 12 * neg + 4 * a), o), d);
        f4 fr = f4_div(f4_sub(f4_load(base + 12 * (neg ^ 1u) + 4 * a), o), d);
        /* scalar: small = min(small, |near|, |far|) */
        small = f4_min(small, f4_min(f4_abs(q[a]), f4_abs(fr)));
        /* scalar: tn = max(tn, near) (the earlier on ties, as `if (near > tn)`); tf = min(tf, far) */
        tn = f4_max(tn, q[a]);
        tf = f4_min(tf, fr);
    }
    /* scalar: tn <= tf && tf >= 0 && tn <= tmax */
    f4 vt = f4_splat(r->ray.tmax), inf = f4_splat(INFINITY);
    f4 hit = f4_and(alive, f4_and(f4_le(tn, tf), f4_and(f4_ge(tf, f4_splat(0.0f)), f4_le(tn, vt))));
    /* scalar: to the scalar test when small < FLT_MIN || tn == +inf || sc_slab_close(tn, tf) ||
     * sc_slab_close(tn, tmax) (|a - b| <= 2^-21 max(|a|, |b|), both finite) */
    f4 an = f4_abs(tn), af = f4_abs(tf), c = f4_splat(4.76837158e-7f);
    f4 undecided = f4_or(f4_lt(small, f4_splat(FLT_MIN)), f4_ge(tn, inf));
    f4 fin = f4_and(f4_lt(an, inf), f4_lt(af, inf));
    undecided = f4_or(undecided, f4_and(fin, f4_le(f4_abs(f4_sub(tn, tf)), f4_mul(f4_max(an, af), c))));
    if (r->ray.tmax < INFINITY) {
        f4 near_tmax = f4_le(f4_abs(f4_sub(tn, vt)), f4_mul(f4_max(an, vt), c));
        undecided = f4_or(undecided, f4_and(f4_lt(an, inf), near_tmax));
    }
    *redo = f4_bits(f4_and(alive, undecided));
    /* and only what can beat the best hit so far: max(tn, 0) <= best <=> tn <= best (tn is
     * finite on decided lanes: sc_fin changes nothing) */
    int bits = f4_bits(f4_and(hit, f4_le(tn, f4_splat(limit))));
    if (bits) {
        /* scalar: axis = the lowest a whose near is tn; here per axis, the lanes where it is
         * (sc_w_lane_axis picks the lowest) */
        for (int a = 0; a < 3; ++a) axis_out[a] = r->par[a] ? 0 : (unsigned)f4_bits(f4_ge(q[a], tn));
        f4_store(tn_out, tn);
    }
    return bits;
}

/* The leaf test's fast path: an all-AABB group against a ray whose every axis culls (r->fast),
 * from the culling products alone, with no division. The exact test's float path
 * (sc__raycast_aabb_valid) takes, per slab, the rounded quotient q = RN(N / d) of the rounded
 * difference N = RN(bound - o); the culling product of the same slab is p = RN(N * RN(RN(1/d) *
 * (1 -+ 2^-20))). When |p| >= 2^-100 (so that neither p nor q is subnormal), |p - q| < 2^-18 |q|:
 * the scaled reciprocal is within 2^-20 + 2^-23 of 1/d, q within 2^-24 of N / d. Per lane, with
 * PN = max of the near products and PF = min of the far ones:
 *   - a sure hit: every |p| >= 2^-100, PN + (|PN| + |PF|) 2^-16 < PF, PF > 0 and
 *     PN + |PN| 2^-16 < tmax. Then the exact parameters TN = max near q, TF = min far q have
 *     TN < TF and TF > 0 and TN < tmax, each pair further apart than sc_slab_close's 2^-21 (the
 *     float rule decides, no quotient is below FLT_MIN: the scalar test's float path hits);
 *   - the entry axis of a sure hit: the axes whose near product is at least PN - |PN| 2^-16 hold
 *     every axis whose q is the largest (ties included); when that is one axis, it is the lowest
 *     (the only) one whose q is TN, and TN is its quotient, divided by the caller.
 * Lanes the culling test passes (the limit's test, conservative as sc_w_cull4v's) that are not
 * sure hits with one entry axis go to the scalar test (*redo): the slab planes through the
 * origin, the edges and corners passed within 2^-16, and their like. Returns the sure hits;
 * axm[0] / axm[1]: the lanes whose entry axis is 0 / 1 (else 2). base, noff, foff: as
 * sc_w_cull4v's (width 4). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline unsigned sc_w_leaf_fast4(const float *base, const int *noff, const int *foff, const sc_wcull *r,
                                       f4 vlimit, f4 vtmax, unsigned lanes, unsigned *redo, unsigned *axm)
{
    /* scalar, per axis: near = (near_bound - o) * inv_near; far = (far_bound - o) * inv_far */
    f4 n0 = f4_mul(f4_sub(f4_load(base + noff[0]), r->vo[0]), r->vnear[0]);
    f4 f0 = f4_mul(f4_sub(f4_load(base + foff[0]), r->vo[0]), r->vfar[0]);
    f4 n1 = f4_mul(f4_sub(f4_load(base + noff[1]), r->vo[1]), r->vnear[1]);
    f4 f1 = f4_mul(f4_sub(f4_load(base + foff[1]), r->vo[1]), r->vfar[1]);
    f4 n2 = f4_mul(f4_sub(f4_load(base + noff[2]), r->vo[2]), r->vnear[2]);
    f4 f2 = f4_mul(f4_sub(f4_load(base + foff[2]), r->vo[2]), r->vfar[2]);
    /* scalar: pn = max(n0, n1, n2); pf = min(f0, f1, f2) (no NaN: every reciprocal is finite) */
    f4 pn = f4_max(f4_max(n0, n1), n2);
    f4 pf = f4_min(f4_min(f0, f1), f2);
    /* scalar: the culling test, max(pn, 0) <= min(pf, limit) */
    unsigned pass = (unsigned)f4_bits(f4_le(f4_max(pn, f4_splat(0.0f)), f4_min(pf, vlimit))) & lanes;
    if (!pass) {
        *redo = 0;
        return 0;
    }
    /* scalar: clean = min(|n0|, |n1|, |n2|, |f0|, |f1|, |f2|) >= 2^-100 */
    f4 small = f4_min(f4_min(f4_min(f4_abs(n0), f4_abs(n1)), f4_abs(n2)), f4_min(f4_min(f4_abs(f0), f4_abs(f1)), f4_abs(f2)));
    f4 sure = f4_ge(small, f4_splat(7.88860905e-31f));
    /* scalar: pn + (|pn| + |pf|) 2^-16 < pf && pf > 0 && pn + |pn| 2^-16 < tmax */
    f4 rel = f4_splat(1.52587891e-5f), apn = f4_abs(pn);
    f4 m = f4_mul(apn, rel);
    sure = f4_and(sure, f4_lt(f4_add(pn, f4_mul(f4_add(apn, f4_abs(pf)), rel)), pf));
    sure = f4_and(sure, f4_and(f4_gt(pf, f4_splat(0.0f)), f4_lt(f4_add(pn, m), vtmax)));
    /* scalar: the candidate entry axes, near >= pn - |pn| 2^-16 */
    f4 lowest = f4_sub(pn, m);
    unsigned c0 = (unsigned)f4_bits(f4_ge(n0, lowest)), c1 = (unsigned)f4_bits(f4_ge(n1, lowest));
    unsigned c2 = (unsigned)f4_bits(f4_ge(n2, lowest));
    unsigned one = ~((c0 & c1) | (c0 & c2) | (c1 & c2));
    unsigned hit = (unsigned)f4_bits(sure) & one & pass;
    *redo = pass & ~hit;
    axm[0] = c0;
    axm[1] = c1;
    return hit;
}

/* The entry axis of lane l from sc_w_leaf_aabb4's axis_out: the lowest a whose near quotient
 * is t_enter, or -1. */
static inline int sc_w_lane_axis(const unsigned *axm, int l)
{
    return axm[0] >> l & 1u ? 0 : axm[1] >> l & 1u ? 1 : axm[2] >> l & 1u ? 2 : -1;
}

/* The normal of an AABB lane hit with entry tn on axis (sc__raycast_aabb_valid's): the entry
 * face's outward normal, or 0 when the origin is strictly inside (tn < 0). */
static inline sc_vec3 sc_w_lane_normal(const sc_wray *r, float tn, int axis)
{
    if (!(tn >= 0.0f && axis >= 0)) return (sc_vec3){0, 0, 0};
    float s = r->d[axis] > 0.0f ? -1.0f : 1.0f;
    return (sc_vec3){axis == 0 ? s : 0.0f, axis == 1 ? s : 0.0f, axis == 2 ? s : 0.0f};
}

/* The lowest set bit of a non-zero mask. */
static inline int sc_w_ctz(unsigned m)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(m);
#else
    int i = 0;
    while (!(m & 1u)) { m >>= 1; ++i; }
    return i;
#endif
}

#endif
