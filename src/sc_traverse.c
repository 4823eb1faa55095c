/* slabcast worlds: one ray through the BVH.
 *
 * Results are those of the single queries, exactly: the leaf kernel for AABBs is the scalar
 * slab test of sc__raycast_aabb_valid done four boxes at a time with the same operations in
 * the same order (true divisions, the same comparisons), so t is bit-identical; OBBs and
 * spheres and capsules go through the scalar queries themselves. Node tests are only used to cull: they
 * use a reciprocal direction (faster) and widen the interval by a relative 2^-20, far more
 * than their rounding error, so they never cull a box that the exact test would hit.
 *
 * Coordinates of magnitude 2^80 or more (objects or ray origins) are legal but are kept out of
 * the BVH: such objects are tested on every ray, and such rays test every object, through the
 * exact scalar queries.
 */
#include "sc_internal.h"
#include "sc_kernels.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The bits of a float without its sign: for floats that are not NaN, they order as the
 * magnitudes do. */
static inline uint32_t sc_w_mag(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b & 0x7FFFFFFFu;
}


/* sc__ray_prep's filter fields: no filter (SC_INSIDE_SOLID, every mask, nothing excluded). They
 * never change from ray to ray, so the batch loops set them once on their records and
 * sc_w_ray_prep leaves them alone. */
static inline void sc_w_ray_defaults(sc_wray *r)
{
    r->mask = 0xFFFFFFFFu;
    r->exclude = -1;
    r->inside = SC_INSIDE_SOLID;
    r->filtered = 0;
}
#if defined(SC_SIMD_SSE2)
/* sc__ray_prep's definition (the portable version below), on the ray's 7 floats as two SSE2
 * vectors (o.x o.y o.z d.x and d.x d.y d.z tmax): one division for the three reciprocals
 * (lane 3, 1 / tmax, is never used), the magnitude tests as integer compares on the bits, the
 * splats as shuffles. Per lane the same operations as the scalar definition, so the same bits
 * (tests/native/test_kernels.c ray_prep_edges checks the record against the definition). */
_Static_assert(offsetof(sc_wray, d) == offsetof(sc_wray, o) + 12 && offsetof(sc_wray, par) == offsetof(sc_wray, d) + 12 &&
                   offsetof(sc_wray, far) == offsetof(sc_wray, par) + 12,
               "sc__ray_prep stores o, d, par and far as contiguous vectors");
_Static_assert(offsetof(sc_ray, dir) == 12 && offsetof(sc_ray, tmax) == 24, "sc_ray is 7 contiguous floats");
static inline void sc_w_ray_prep(sc_wray *r, const sc_ray *ray)
{
    r->ray = *ray;
    const char *rp = (const char *)ray;
    const __m128 o4 = _mm_loadu_ps((const float *)(const void *)rp);       /* o.x o.y o.z d.x */
    const __m128 d4 = _mm_loadu_ps((const float *)(const void *)(rp + 12)); /* d.x d.y d.z tmax */
    const __m128i mag = _mm_set1_epi32(0x7FFFFFFF);
    /* the magnitudes' bits: d is finite (checked), so |d| < x <=> m < bits(x) for x > 0 */
    const __m128i m = _mm_and_si128(_mm_castps_si128(d4), mag);
    const __m128i zero = _mm_cmpeq_epi32(m, _mm_setzero_si128());
    /* 0 < |d| < 2^-40 or |d| >= 2^100: NaN (that axis takes no part in culling) */
    const __m128i tiny = _mm_andnot_si128(zero, _mm_cmplt_epi32(m, _mm_set1_epi32((int)sc_w_mag(SC_TINY_DIR))));
    const __m128i huge = _mm_cmpgt_epi32(m, _mm_set1_epi32((int)sc_w_mag(SC_HUGE_DIR) - 1));
    const __m128 nanm = _mm_castsi128_ps(_mm_or_si128(tiny, huge));
    __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), d4);
    inv = _mm_or_ps(_mm_andnot_ps(nanm, inv), _mm_and_ps(nanm, _mm_set1_ps(NAN)));
    const __m128 vn = _mm_mul_ps(inv, _mm_set1_ps(SC_SHRINK)), vf = _mm_mul_ps(inv, _mm_set1_ps(SC_GROW));
    r->c.vo[0] = _mm_shuffle_ps(o4, o4, 0x00);
    r->c.vo[1] = _mm_shuffle_ps(o4, o4, 0x55);
    r->c.vo[2] = _mm_shuffle_ps(o4, o4, 0xAA);
    r->c.vnear[0] = _mm_shuffle_ps(vn, vn, 0x00);
    r->c.vnear[1] = _mm_shuffle_ps(vn, vn, 0x55);
    r->c.vnear[2] = _mm_shuffle_ps(vn, vn, 0xAA);
    r->c.vfar[0] = _mm_shuffle_ps(vf, vf, 0x00);
    r->c.vfar[1] = _mm_shuffle_ps(vf, vf, 0x55);
    r->c.vfar[2] = _mm_shuffle_ps(vf, vf, 0xAA);
    /* the sign bits of inv: the near bound is the maximum */
    r->c.oct = _mm_movemask_ps(inv) & 7;
    /* far (sc_w_far3): some |o| not below 2^80 (lanes 0..2 of o4) */
    const __m128i om = _mm_and_si128(_mm_castps_si128(o4), mag);
    const int far = (_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(om, _mm_set1_epi32((int)sc_w_mag(SC_FAR_COORD) - 1)))) & 7) != 0;
    /* o, d (d's store also writes par[0], overwritten next), then par (d == 0: 1) and far */
    const __m128i pf = _mm_insert_epi16(_mm_and_si128(zero, _mm_set_epi32(0, 1, 1, 1)), far, 6);
    char *wp = (char *)r;
    _mm_storeu_ps((float *)(void *)(wp + offsetof(sc_wray, o)), o4);
    _mm_storeu_ps((float *)(void *)(wp + offsetof(sc_wray, d)), d4);
    _mm_storeu_si128((__m128i *)(void *)(wp + offsetof(sc_wray, par)), pf);
    /* no axis parallel, tiny or huge: every culling reciprocal finite */
    r->fast = (_mm_movemask_ps(_mm_or_ps(nanm, _mm_castsi128_ps(zero))) & 7) == 0;
}
#elif defined(__wasm_simd128__) && !defined(SC_SIMD_SCALAR)
/* sc__ray_prep's definition (the portable version below) on wasm SIMD128, as the SSE2 version
 * above: the ray's 7 floats as two vectors, one division for the three reciprocals, the same
 * operations per lane (the NaN of a non-culling axis is the same quiet NaN, whose sign bit is
 * clear), so the same record. */
_Static_assert(offsetof(sc_wray, d) == offsetof(sc_wray, o) + 12 && offsetof(sc_wray, par) == offsetof(sc_wray, d) + 12,
               "sc__ray_prep stores o and d as overlapping vectors");
_Static_assert(offsetof(sc_ray, dir) == 12 && offsetof(sc_ray, tmax) == 24, "sc_ray is 7 contiguous floats");
static inline void sc_w_ray_prep(sc_wray *r, const sc_ray *ray)
{
    r->ray = *ray;
    const char *rp = (const char *)ray;
    const v128_t o4 = wasm_v128_load(rp);      /* o.x o.y o.z d.x */
    const v128_t d4 = wasm_v128_load(rp + 12); /* d.x d.y d.z tmax */
    const v128_t mag = wasm_i32x4_splat(0x7FFFFFFF);
    const v128_t m = wasm_v128_and(d4, mag);
    const v128_t zero = wasm_i32x4_eq(m, wasm_i32x4_splat(0));
    /* 0 < |d| < 2^-40 or |d| >= 2^100: NaN (that axis takes no part in culling) */
    const v128_t tiny = wasm_v128_andnot(wasm_i32x4_lt(m, wasm_i32x4_splat((int32_t)sc_w_mag(SC_TINY_DIR))), zero);
    const v128_t huge = wasm_i32x4_gt(m, wasm_i32x4_splat((int32_t)sc_w_mag(SC_HUGE_DIR) - 1));
    const v128_t nanm = wasm_v128_or(tiny, huge);
    v128_t inv = wasm_f32x4_div(wasm_f32x4_splat(1.0f), d4);
    inv = wasm_v128_bitselect(wasm_f32x4_splat(NAN), inv, nanm);
    const v128_t vn = wasm_f32x4_mul(inv, wasm_f32x4_splat(SC_SHRINK)), vf = wasm_f32x4_mul(inv, wasm_f32x4_splat(SC_GROW));
    r->c.vo[0] = wasm_i32x4_shuffle(o4, o4, 0, 0, 0, 0);
    r->c.vo[1] = wasm_i32x4_shuffle(o4, o4, 1, 1, 1, 1);
    r->c.vo[2] = wasm_i32x4_shuffle(o4, o4, 2, 2, 2, 2);
    r->c.vnear[0] = wasm_i32x4_shuffle(vn, vn, 0, 0, 0, 0);
    r->c.vnear[1] = wasm_i32x4_shuffle(vn, vn, 1, 1, 1, 1);
    r->c.vnear[2] = wasm_i32x4_shuffle(vn, vn, 2, 2, 2, 2);
    r->c.vfar[0] = wasm_i32x4_shuffle(vf, vf, 0, 0, 0, 0);
    r->c.vfar[1] = wasm_i32x4_shuffle(vf, vf, 1, 1, 1, 1);
    r->c.vfar[2] = wasm_i32x4_shuffle(vf, vf, 2, 2, 2, 2);
    /* the sign bits of inv: the near bound is the maximum */
    r->c.oct = (int)(wasm_i32x4_bitmask(inv) & 7);
    /* far (sc_w_far3): some |o| not below 2^80 (lanes 0..2 of o4) */
    const v128_t om = wasm_v128_and(o4, mag);
    r->far = (wasm_i32x4_bitmask(wasm_i32x4_gt(om, wasm_i32x4_splat((int32_t)sc_w_mag(SC_FAR_COORD) - 1))) & 7) != 0;
    wasm_v128_store(r->o, o4); /* o, and d.x in d[0] (stored again next) */
    wasm_v128_store(r->d, d4); /* d, and tmax in par[0] (stored next) */
    const v128_t par = wasm_v128_and(zero, wasm_i32x4_splat(1));
    r->par[0] = wasm_i32x4_extract_lane(par, 0);
    r->par[1] = wasm_i32x4_extract_lane(par, 1);
    r->par[2] = wasm_i32x4_extract_lane(par, 2);
    /* no axis parallel, tiny or huge: every culling reciprocal finite */
    r->fast = (wasm_i32x4_bitmask(wasm_v128_or(nanm, zero)) & 7) == 0;
}
#else
static inline void sc_w_ray_prep(sc_wray *r, const sc_ray *ray)
{
    r->ray = *ray;
    const float o[3] = {ray->origin.x, ray->origin.y, ray->origin.z};
    const float d[3] = {ray->dir.x, ray->dir.y, ray->dir.z};
    const uint32_t tiny = sc_w_mag(SC_TINY_DIR), huge = sc_w_mag(SC_HUGE_DIR), far = sc_w_mag(SC_FAR_COORD);
    int oct = 0, fast = 1;
    for (int a = 0; a < 3; ++a) {
        r->o[a] = o[a];
        r->d[a] = d[a];
        /* the magnitude's bits: d is finite (checked), so ad < x <=> m < bits(x) for x > 0 */
        const uint32_t m = sc_w_mag(d[a]);
        r->par[a] = m == 0;
        /* The culling reciprocals: 1/d rounded, then scaled by 1 -+ 2^-20 toward and away
         * from zero (see sc_w_cull4o). d = +-0 gives +-inf. A component with 0 < |d| < 2^-40
         * or |d| >= 2^100 gives NaN: that axis takes no part in culling, so that 1/d stays a
         * normal float and the products cannot overflow. */
        float inv = 1.0f / d[a];
        inv = (m != 0 && m < tiny) || m >= huge ? NAN : inv;
        fast &= m >= tiny && m < huge;
        r->c.vnear[a] = f4_splat(inv * SC_SHRINK);
        r->c.vfar[a] = f4_splat(inv * SC_GROW);
        r->c.vo[a] = f4_splat(o[a]);
        /* the sign bit of inv: the near bound is the maximum */
        uint32_t ib;
        memcpy(&ib, &inv, sizeof ib);
        oct |= (int)(ib >> 31) << a;
    }
    r->c.oct = oct;
    /* sc_w_far3: some |o| not below 2^80 */
    r->far = (int)(sc_w_mag(o[0]) >= far) | (int)(sc_w_mag(o[1]) >= far) | (int)(sc_w_mag(o[2]) >= far);
    r->fast = fast;
}
#endif

void sc__ray_prep(sc_wray *r, const sc_ray *ray)
{
    sc_w_ray_defaults(r);
    sc_w_ray_prep(r, ray);
}

#if !defined(__wasm__)
/* Ray i of a batch's input (SC_RAY_FLOATS floats a ray: origin, direction, tmax, as an sc_ray). */
static inline const sc_ray *sc_w_ray_in(const float *rays, int32_t i)
{
    return (const sc_ray *)(const void *)(rays + (size_t)i * SC_RAY_FLOATS);
}
#endif

/* Keeps the nearer hit; on equal t the lower index. */
static void sc_w_offer(sc_whit *best, float t, int index, sc_vec3 normal)
{
    if (best->index < 0 || t < best->t || (t == best->t && index < best->index)) {
        best->t = t;
        best->index = index;
        best->normal = normal;
    }
}

/* One object through the exact scalar query. */
static sc_raycast_result sc_w_exact_object(const sc_world *w, const sc_wray *r, int o)
{
    switch (w->kind[o]) {
    case SC_SHAPE_AABB: return sc__raycast_aabb_valid(&r->ray, &w->bounds[o]);
    case SC_SHAPE_OBB: return sc__raycast_obb_valid(&r->ray, &w->obbs[w->slot[o]]);
    case SC_SHAPE_CAPSULE: return sc__raycast_capsule_valid(&r->ray, &w->capsules[w->slot[o]]);
    default: return sc__raycast_sphere_valid(&r->ray, &w->spheres[w->slot[o]]);
    }
}

/* Whether ray r may hit object o (sc__passes; an unfiltered ray only needs it enabled). */
static inline int sc_w_allowed(const sc_world *w, const sc_wray *r, int o)
{
    if (!r->filtered) return w->enabled[o];
    return sc__passes(w, o, r->mask, 1, r->exclude);
}

/* The lanes of a group ray r may hit: live ones, then the filter's choice. */
static inline unsigned sc_w_lanes(const sc_world *w, const sc_group *g, const sc_wray *r)
{
    unsigned lanes = (unsigned)g->live;
    if (r->filtered)
        for (int l = 0; l < 4; ++l)
            if (lanes >> l & 1 && !sc_w_allowed(w, r, g->idx[l])) lanes &= ~(1u << l);
    return lanes;
}

sc_shape sc__object_shape(const sc_world *w, int o)
{
    sc_shape sh;
    memset(&sh, 0, sizeof sh);
    sh.type = (sc_shape_type)w->kind[o];
    if (w->kind[o] == SC_SHAPE_AABB) sh.u.aabb = w->bounds[o];
    else if (w->kind[o] == SC_SHAPE_OBB) sh.u.obb = w->obbs[w->slot[o]];
    else if (w->kind[o] == SC_SHAPE_CAPSULE) sh.u.capsule = w->capsules[w->slot[o]];
    else sh.u.sphere = w->spheres[w->slot[o]];
    return sh;
}

/* The exact hit of object o under the ray's inside rule: 1 with the t and normal to report, 0
 * when it reports nothing. An object contains the origin when its reported t_enter < 0; then
 * SC_INSIDE_SOLID reports t = 0 with a zero normal (the single query's own answer),
 * SC_INSIDE_SKIP nothing, and SC_INSIDE_EXIT t_exit with the exit face's normal when
 * t_exit <= tmax (else the ray never leaves it within its length: nothing). */
static int sc_w_exact_hit(const sc_world *w, const sc_wray *r, int o, float *t, sc_vec3 *normal)
{
    sc_raycast_result h = sc_w_exact_object(w, r, o);
    if (!h.hit) return 0;
    if (!(h.t_enter < 0.0f) || r->inside == SC_INSIDE_SOLID) {
        *t = h.t;
        *normal = h.normal;
        return 1;
    }
    if (r->inside == SC_INSIDE_SKIP || !(h.t_exit <= r->ray.tmax)) return 0;
    sc_shape sh = sc__object_shape(w, o);
    *t = h.t_exit;
    *normal = sh.type == SC_SHAPE_CAPSULE ? sc__exit_normal_capsule(&r->ray, &sh.u.capsule) : sc__exit_normal(&r->ray, &sh);
    return 1;
}

/* One object through the exact scalar query, offered to the best hit (when the filter allows
 * it, under the inside rule). */
static void sc_w_test_object(const sc_world *w, const sc_wray *r, int o, sc_whit *best)
{
    float t;
    sc_vec3 n;
    if (sc_w_allowed(w, r, o) && sc_w_exact_hit(w, r, o, &t, &n)) sc_w_offer(best, t, o, n);
}

/* The lanes of an all-AABB group: sc_w_leaf_aabb4's hits (in *bits) and the lanes the scalar
 * test decides (returned): the kernel's undecided ones, and hits whose box contains the origin
 * (tn < 0) under another rule than solid (the exact query decides: skip or exit). */
static inline unsigned sc_w_leaf_lanes(const sc_group *g, const sc_wray *r, unsigned lanes, float limit, float *tn,
                                       unsigned *axis, unsigned *bits)
{
    int redo;
    unsigned hit = (unsigned)sc_w_leaf_aabb4(g, r, limit, tn, axis, &redo) & lanes;
    unsigned slow = (unsigned)redo & lanes;
    if (hit && r->inside != SC_INSIDE_SOLID)
        for (int l = 0; l < 4; ++l)
            if (hit >> l & 1 && tn[l] < 0.0f) slow |= 1u << l;
    *bits = hit & ~slow;
    return slow;
}

/* The exact tests of a group whose conservative test passed (limit: the best t, or tmax). */
static void sc_w_group_exact(const sc_world *w, const sc_group *g, const sc_wray *r, sc_whit *best, float limit)
{
    unsigned lanes = sc_w_lanes(w, g, r);
    if (!lanes) return;
    if (g->all_aabb) {
        _Alignas(16) float tn[4];
        unsigned axis[3];
        unsigned bits, slow = sc_w_leaf_lanes(g, r, lanes, limit, tn, axis, &bits);
        for (; slow; slow &= slow - 1) sc_w_test_object(w, r, g->idx[sc_w_ctz(slow)], best);
        for (; bits; bits &= bits - 1) {
            int l = sc_w_ctz(bits);
            /* sc_w_offer, the normal made only for a hit that is kept */
            float t = tn[l] > 0.0f ? tn[l] : 0.0f;
            int o = g->idx[l];
            if (best->index < 0 || t < best->t || (t == best->t && o < best->index)) {
                best->t = t;
                best->index = o;
                best->normal = sc_w_lane_normal(r, tn[l], sc_w_lane_axis(axis, l));
            }
        }
        return;
    }
    for (int l = 0; l < 4; ++l)
        if (lanes >> l & 1) sc_w_test_object(w, r, g->idx[l], best);
}

/* Every object through the exact test (rays from 2^80 or more, and the fallback below). */
static void sc_w_cast_every(const sc_world *w, const sc_wray *r, sc_whit *best, int any_hit)
{
    for (int o = 0; o < w->count; ++o) {
        sc_w_test_object(w, r, o, best);
        if (any_hit && best->index >= 0) return;
    }
}

#if defined(__GNUC__) || defined(__clang__)
#define SC_W_FORCE_INLINE inline __attribute__((always_inline))
#else
#define SC_W_FORCE_INLINE inline
#endif

/* The bits of a float. */
static inline uint32_t sc_w_fbits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* A stack key: the bits of t (>= +0, not NaN) above the child reference. */
static inline uint64_t sc_w_key(float t, int32_t ref) { return (uint64_t)sc_w_fbits(t) << 32 | (uint32_t)ref; }

/* A group's test on the leaf test's fast path (sc_w_leaf_fast4; for an all-AABB group and an
 * unfiltered ray with every axis culling, under SC_INSIDE_SOLID): the culling test and the
 * exact one in one pass, then per sure hit the quotient of its entry axis, its one division,
 * offered as sc_w_group_exact offers it; the other lanes the culling test passed go through the
 * scalar test. gnoff / gfoff: the offsets for width 4 in the ray's octant. */
static SC_W_FORCE_INLINE void sc_w_group_fast(const sc_world *w, const sc_group *g, const sc_wray *r, sc_whit *best,
                                              const int *gnoff, const int *gfoff, f4 vlim, f4 vtmax)
{
    unsigned axm[2], redo;
    unsigned hit = sc_w_leaf_fast4(&g->lo[0][0], gnoff, gfoff, &r->c, vlim, vtmax, (unsigned)g->live, &redo, axm);
    for (; redo; redo &= redo - 1) sc_w_test_object(w, r, g->idx[sc_w_ctz(redo)], best);
    for (; hit; hit &= hit - 1) {
        int l = sc_w_ctz(hit);
        int ax = axm[0] >> l & 1u ? 0 : axm[1] >> l & 1u ? 1 : 2;
        /* the scalar test's near quotient of the entry axis: (lo - o) / d when d > 0, else
         * (hi - o) / d */
        float d = r->d[ax];
        float bound = d > 0.0f ? g->lo[ax][l] : g->hi[ax][l];
        float tn = (bound - r->o[ax]) / d;
        /* sc_w_offer, the normal made only for a hit that is kept */
        float t = tn > 0.0f ? tn : 0.0f;
        int o = g->idx[l];
        if (best->index < 0 || t < best->t || (t == best->t && o < best->index)) {
            best->t = t;
            best->index = o;
            best->normal = sc_w_lane_normal(r, tn, ax);
        }
    }
}

/* The traversal loops: the portable one, and the AVX2 one where it can exist. */
#define SC_TL_NAME sc_w_trav
#define SC_TL_AVX 0
#include "sc_traverse_loop.h"
#undef SC_TL_NAME
#undef SC_TL_AVX
#if SC_HAVE_AVX2
#define SC_TL_NAME sc_w_trav_avx2
#define SC_TL_AVX 1
#include "sc_traverse_loop.h"
#undef SC_TL_NAME
#undef SC_TL_AVX

/* Whether the AVX2 kernel runs: the CPU has AVX2 (and the OS saves its registers), and the
 * environment variable SC_NO_AVX2 is not set (to a value other than "" or "0": tests use it to
 * run the SSE2 kernel on AVX2 machines). Decided once. */
static int sc_w_avx2_state; /* 0: not decided yet; 1: no; 2: yes */
static int sc_w_avx2(void)
{
    int s = __atomic_load_n(&sc_w_avx2_state, __ATOMIC_RELAXED);
    if (s == 0) {
        const char *no = getenv("SC_NO_AVX2");
        int off = no && no[0] && !(no[0] == '0' && no[1] == 0);
        s = !off && __builtin_cpu_supports("avx2") ? 2 : 1;
        __atomic_store_n(&sc_w_avx2_state, s, __ATOMIC_RELAXED);
    }
    return s == 2;
}
#endif

const char *sc__simd_name(void)
{
#if SC_HAVE_AVX2
    if (sc_w_avx2()) return "avx2";
#endif
    return SC_SIMD_NAME;
}

/* The nearest hit of one ray (any_hit: stop at the first): near-first traversal
 * (sc_traverse_loop.h). */
void sc__cast(const sc_world *w, const sc_wray *r, sc_whit *best, int any_hit)
{
    best->index = -1;
    best->t = 0.0f;
    best->normal = (sc_vec3){0, 0, 0};
    if (r->far) {
        sc_w_cast_every(w, r, best, any_hit);
        return;
    }
    for (int i = 0; i < w->nfar; ++i) {
        sc_w_test_object(w, r, w->far_list[i], best);
        if (any_hit && best->index >= 0) return;
    }
    if (w->root == SC_NO_CHILD) return;
    int full;
#if SC_HAVE_AVX2
    if (sc_w_avx2())
        full = sc_w_trav_avx2(w, r, best, any_hit, r->c.oct);
    else
#endif
        full = sc_w_trav(w, r, best, any_hit, r->c.oct);
    /* Deeper than the stack (the build makes this impossible at the default SC_STACK): no
     * subtree is dropped, the exact test of every object decides. Hits found so far are
     * hits, so keeping them is harmless. */
    if (full) sc_w_cast_every(w, r, best, any_hit);
}

void sc__cast_recs(const sc_world *w, sc_wrec *rec, int n, int any_hit)
{
    if (w->nfar > 0 || w->root == SC_NO_CHILD) {
        /* objects outside the BVH, or an empty one: sc__cast's general path */
        sc_wray r;
        sc_w_ray_defaults(&r);
        for (int j = 0; j < n; ++j) {
            sc_w_ray_prep(&r, &rec[j].u.ray);
            sc_whit h;
            sc__cast(w, &r, &h, any_hit);
            rec[j].u.hit = h;
        }
        return;
    }
#if SC_HAVE_AVX2
    if (sc_w_avx2()) {
        sc_w_trav_avx2_recs(w, rec, n, any_hit);
        return;
    }
#endif
    sc_w_trav_recs(w, rec, n, any_hit);
}

#if !defined(__wasm__)
void sc__cast_order(const sc_world *w, const float *rays, const int32_t *perm, int n, int any_hit, const sc_wout *out)
{
    if (w->nfar > 0 || w->root == SC_NO_CHILD) {
        /* objects outside the BVH, or an empty one: sc__cast's general path */
        sc_wray r;
        sc_w_ray_defaults(&r);
        for (int j = 0; j < n; ++j) {
            sc_w_ray_prep(&r, sc_w_ray_in(rays, perm[j]));
            sc_whit h;
            sc__cast(w, &r, &h, any_hit);
            sc_w_put(&h, perm[j], any_hit, out);
        }
        return;
    }
#if SC_HAVE_AVX2
    if (sc_w_avx2()) {
        sc_w_trav_avx2_order(w, rays, perm, n, any_hit, out);
        return;
    }
#endif
    sc_w_trav_order(w, rays, perm, n, any_hit, out);
}
#endif

/* Every group against the ray: the brute-force kernel. The conservative test runs with the
 * bound in a register; the exact test only for the rare group that may beat it. */
void sc__cast_brute(const sc_world *w, const sc_wray *r, sc_whit *h)
{
    h->index = -1;
    h->t = 0.0f;
    h->normal = (sc_vec3){0, 0, 0};
    if (r->far) {
        for (int o = 0; o < w->count; ++o) sc_w_test_object(w, r, o, h);
        return;
    }
    for (int k = 0; k < w->nfar; ++k) sc_w_test_object(w, r, w->far_list[k], h);
    if (w->ngroups == 0) return; /* groups may be NULL then, and NULL + 0 is undefined */
    float limit = r->ray.tmax;
    const sc_wcull c = r->c;
    const sc_group *g = w->groups, *end = w->groups + w->ngroups;
    for (; g < end; ++g) {
        if (!sc_w_cull4(&g->lo[0][0], c, limit, NULL)) continue;
        sc_w_group_exact(w, g, r, h, limit);
        limit = h->index >= 0 ? h->t : r->ray.tmax;
    }
}

/* ------------------------------------------------------------- all hits */

/* The hits of sc_world_cast_ray_all: every hit is counted; the cap nearest, by (t, index), are
 * kept in the caller's arrays as a max-heap (the farthest kept hit at the root), then sorted
 * in place. No memory beyond the caller's. */
typedef struct sc_wall {
    float *t;
    int *index;
    float *normal; /* may be NULL */
    int cap, kept, total;
} sc_wall;

/* (ta, ia) comes after (tb, ib) in the order of the results. */
static int sc_w_after(float ta, int ia, float tb, int ib) { return ta > tb || (ta == tb && ia > ib); }

static void sc_w_heap_swap(sc_wall *c, int i, int j)
{
    float t = c->t[i]; c->t[i] = c->t[j]; c->t[j] = t;
    int x = c->index[i]; c->index[i] = c->index[j]; c->index[j] = x;
    if (c->normal) {
        for (int a = 0; a < 3; ++a) {
            float v = c->normal[3 * (size_t)i + a];
            c->normal[3 * (size_t)i + a] = c->normal[3 * (size_t)j + a];
            c->normal[3 * (size_t)j + a] = v;
        }
    }
}

/* Restores the heap below slot i of the first n slots. */
static void sc_w_heap_down(sc_wall *c, int i, int n)
{
    for (;;) {
        int big = i, l = 2 * i + 1, r = l + 1;
        if (l < n && sc_w_after(c->t[l], c->index[l], c->t[big], c->index[big])) big = l;
        if (r < n && sc_w_after(c->t[r], c->index[r], c->t[big], c->index[big])) big = r;
        if (big == i) return;
        sc_w_heap_swap(c, i, big);
        i = big;
    }
}

static void sc_w_collect(sc_wall *c, float t, int index, sc_vec3 normal)
{
    c->total++;
    t += 0.0f; /* -0 is reported as 0 (as sc_w_put) */
    int slot;
    if (c->kept < c->cap) {
        slot = c->kept++;
    } else if (c->cap > 0 && sc_w_after(c->t[0], c->index[0], t, index)) {
        slot = 0;
    } else {
        return;
    }
    c->t[slot] = t;
    c->index[slot] = index;
    if (c->normal) {
        c->normal[3 * (size_t)slot + 0] = normal.x + 0.0f;
        c->normal[3 * (size_t)slot + 1] = normal.y + 0.0f;
        c->normal[3 * (size_t)slot + 2] = normal.z + 0.0f;
    }
    if (slot == 0) {
        sc_w_heap_down(c, 0, c->kept);
        return;
    }
    /* sift the new last slot up */
    for (int i = slot; i > 0;) {
        int parent = (i - 1) / 2;
        if (!sc_w_after(c->t[i], c->index[i], c->t[parent], c->index[parent])) break;
        sc_w_heap_swap(c, i, parent);
        i = parent;
    }
}

/* Sorts the kept hits by (t, index): the root of the max-heap goes to the end, repeatedly. */
static void sc_w_heap_sort(sc_wall *c)
{
    for (int n = c->kept; n > 1; --n) {
        sc_w_heap_swap(c, 0, n - 1);
        sc_w_heap_down(c, 0, n - 1);
    }
}

static void sc_w_collect_object(const sc_world *w, const sc_wray *r, int o, sc_wall *c)
{
    float t;
    sc_vec3 n;
    if (sc_w_allowed(w, r, o) && sc_w_exact_hit(w, r, o, &t, &n)) sc_w_collect(c, t, o, n);
}

/* Every object of a group whose conservative test passed: the same exact tests as
 * sc_w_group_exact, with tmax as the limit, so the same t bit for bit. */
static void sc_w_group_collect(const sc_world *w, const sc_group *g, const sc_wray *r, sc_wall *c)
{
    unsigned lanes = sc_w_lanes(w, g, r);
    if (!lanes) return;
    if (g->all_aabb) {
        _Alignas(16) float tn[4];
        unsigned axis[3];
        unsigned bits, slow = sc_w_leaf_lanes(g, r, lanes, r->ray.tmax, tn, axis, &bits);
        for (; slow; slow &= slow - 1) sc_w_collect_object(w, r, g->idx[sc_w_ctz(slow)], c);
        for (; bits; bits &= bits - 1) {
            int l = sc_w_ctz(bits);
            sc_w_collect(c, tn[l] > 0.0f ? tn[l] : 0.0f, g->idx[l], sc_w_lane_normal(r, tn[l], sc_w_lane_axis(axis, l)));
        }
        return;
    }
    for (int l = 0; l < 4; ++l)
        if (lanes >> l & 1) sc_w_collect_object(w, r, g->idx[l], c);
}

/* Every object the ray meets within [0, tmax], unsorted: each object is tested once (it lies in
 * one leaf, or in the far list). The traversal order does not matter: nothing is pruned by a
 * best hit, only by tmax. */
static void sc_w_collect_all(const sc_world *w, const sc_wray *r, sc_wall *c)
{
    if (r->far) {
        for (int o = 0; o < w->count; ++o) sc_w_collect_object(w, r, o, c);
        return;
    }
    for (int i = 0; i < w->nfar; ++i) sc_w_collect_object(w, r, w->far_list[i], c);
    if (w->root == SC_NO_CHILD) return;
    const sc_wcull cull = r->c;
    const float limit = r->ray.tmax;
    const f4 vlim = f4_splat(sc_w_cull_limit(limit));
    int noff[3], foff[3];
    sc_w_cull_offsets(cull.oct, SC_NODE_W, noff, foff);
    int32_t stack[SC_STACK];
    int sp = 0;
    stack[sp++] = w->root;
    while (sp > 0) {
        int32_t cur = stack[--sp];
        if (cur < 0) {
            const sc_group *g = &w->groups[~cur];
            if (sc_w_cull4(&g->lo[0][0], cull, limit, NULL)) sc_w_group_collect(w, g, r, c);
            continue;
        }
        const sc_node *nd = &w->nodes[cur];
        _Alignas(16) float tn[SC_NODE_W];
        unsigned bits = sc_w_cull_node(nd, noff, foff, &cull, vlim, tn);
        while (bits) {
            if (sp == SC_STACK) {
                /* Deeper than the stack (impossible at the default SC_STACK, see
                 * sc_internal.h): start again with every object, none dropped. */
                c->kept = 0;
                c->total = 0;
                for (int o = 0; o < w->count; ++o) sc_w_collect_object(w, r, o, c);
                return;
            }
            int l = sc_w_ctz(bits);
            bits &= bits - 1;
            stack[sp++] = nd->child[l];
        }
    }
}


int sc__cast_all(const sc_world *w, const sc_wray *r, float *t, int *index, float *normal, int cap)
{
    sc_wall c = {t, index, normal, cap, 0, 0};
    sc_w_collect_all(w, r, &c);
    sc_w_heap_sort(&c);
    return c.total;
}
