/* The BVH's conservative culling kernels (src/sc_kernels.h) on hostile lanes: parallel axes with
 * +0 and -0 direction components, origins on a bound's plane, tiny (< 2^-40) and huge (>= 2^100)
 * components, infinite, inverted (empty) and NaN bounds, limits 0 and +inf, and random boxes on
 * integer planes (exact ties). For every ray and node:
 *   - the kernels agree bit for bit: the AVX2 node kernel (when this CPU has AVX2), the portable
 *     one (two 4-lane halves: SSE2, or scalar when this file is built with SC_SIMD_SCALAR: the
 *     test kernels-scalar) and the 4-lane group kernel on the same boxes: the same lane bits and
 *     the same t_enter bits;
 *   - expectations come from the exact single query sc_raycast_aabb (tmax = the limit): a box it
 *     hits is never rejected, and the culling t_enter is never above its t; boxes placed far from
 *     the ray (by hand) are rejected; a box covering all space is always kept, an empty one never
 *     (when some axis culls).
 * The culling data is built here from its definition (sc_internal.h, sc__ray_prep): the
 * reciprocal 1/d rounded, NaN for 0 < |d| < 2^-40 or |d| >= 2^100, scaled by 1 - 2^-20 for
 * entries and 1 + 2^-20 for exits, the octant from its sign; the SIMD builds also check that
 * sc__ray_prep builds the same. */
#include "sc_kernels.h"
#include "test.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* The culling data of a ray (o, d), from the definition. */
static void prep(sc_wcull *c, const float *o, const float *d)
{
    c->oct = 0;
    for (int a = 0; a < 3; ++a) {
        float inv = 1.0f / d[a];
        float ad = fabsf(d[a]);
        if (d[a] != 0.0f && (ad < 0x1p-40f || ad >= 0x1p100f)) inv = NAN;
        c->vo[a] = f4_splat(o[a]);
        c->vnear[a] = f4_splat(inv * (1.0f - 0x1p-20f));
        c->vfar[a] = f4_splat(inv * (1.0f + 0x1p-20f));
        if (signbit(inv)) c->oct |= 1 << a;
    }
}

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

#if SC_HAVE_AVX2
/* The AVX2 node kernel, from a function compiled for AVX2. */
static SC_AVX2 unsigned avx2_node(const sc_node *nd, const sc_wcull *c, float limit, float *tn, int finite)
{
    int noff[3], foff[3];
    sc_w_cull_offsets(c->oct, SC_NODE_W, noff, foff);
    sc_wcull8 c8 = sc_w_cull8_prep(c);
    const __m256 lim = _mm256_set1_ps(sc_w_cull_limit(limit));
    return finite ? sc_w_cull8_avx2(&nd->bmin[0][0], noff, foff, &c8, lim, tn, 1)
                  : sc_w_cull8_avx2(&nd->bmin[0][0], noff, foff, &c8, lim, tn, 0);
}
static int have_avx2(void) { return __builtin_cpu_supports("avx2"); }
#endif

/* Lanes the kernels keep for node nd; checks that every kernel agrees (bits and t_enter bits of
 * kept lanes) and returns the bits, the t_enter in tn. *bad set when they disagree. */
static unsigned cull_all(const sc_node *nd, const sc_wcull *c, float limit, float *tn, int *bad)
{
    int noff[3], foff[3];
    sc_w_cull_offsets(c->oct, SC_NODE_W, noff, foff);
    _Alignas(32) float tp[SC_NODE_W];
    unsigned bits = sc_w_cull_node(nd, noff, foff, c, f4_splat(sc_w_cull_limit(limit)), tp) & (unsigned)nd->valid;
    memcpy(tn, tp, sizeof tp);
#if SC_HAVE_AVX2
    if (have_avx2()) {
        /* the AVX2 kernel, and its shorter reduction when every culling reciprocal is finite */
        _Alignas(16) float rn[4], rf[4];
        int finite = 1;
        for (int a = 0; a < 3; ++a) {
            f4_store(rn, c->vnear[a]);
            f4_store(rf, c->vfar[a]);
            finite &= isfinite(rn[0]) && isfinite(rf[0]);
        }
        for (int k = 0; k <= finite; ++k) {
            _Alignas(32) float ta[SC_NODE_W];
            unsigned b8 = avx2_node(nd, c, limit, ta, k) & (unsigned)nd->valid;
            if (b8 != bits) *bad = 1;
            for (int l = 0; l < SC_NODE_W; ++l)
                if (bits >> l & 1 && bits_of(ta[l]) != bits_of(tp[l])) *bad = 1;
        }
    }
#endif
    /* the group kernel, four lanes at a time, the same boxes in a group's layout */
    for (int h = 0; h < SC_NODE_W; h += 4) {
        _Alignas(16) float gb[24], tg[4];
        for (int a = 0; a < 3; ++a)
            for (int l = 0; l < 4; ++l) {
                gb[4 * a + l] = nd->bmin[a][h + l];
                gb[12 + 4 * a + l] = nd->bmax[a][h + l];
            }
        unsigned b4 = (unsigned)sc_w_cull4(gb, *c, limit, tg) & ((unsigned)nd->valid >> h & 15u);
        if (b4 != (bits >> h & 15u)) *bad = 1;
        for (int l = 0; l < 4; ++l)
            if (b4 >> l & 1 && bits_of(tg[l]) != bits_of(tp[h + l])) *bad = 1;
    }
    return bits;
}

static void set_lane(sc_node *nd, int l, const float *lo, const float *hi)
{
    for (int a = 0; a < 3; ++a) {
        nd->bmin[a][l] = lo[a];
        nd->bmax[a][l] = hi[a];
    }
    nd->valid |= 1 << l;
}

/* A lane of nd against the exact query: 1 when the exact query hits box l within [0, limit]
 * (then *t is its t), 0 when it misses, -1 when the box is not a valid AABB. */
static int exact_lane(const sc_node *nd, int l, const float *o, const float *d, float limit, float *t)
{
    sc_aabb b = {{nd->bmin[0][l], nd->bmin[1][l], nd->bmin[2][l]}, {nd->bmax[0][l], nd->bmax[1][l], nd->bmax[2][l]}};
    if (sc_aabb_check(&b) != SC_OK) return -1;
    sc_ray ray = {{o[0], o[1], o[2]}, {d[0], d[1], d[2]}, limit};
    if (sc_ray_check(&ray) != SC_OK) return -2; /* never: every test ray is valid */
    sc_raycast_result r = sc_raycast_aabb(&ray, &b);
    *t = r.t;
    return r.hit ? 1 : 0;
}

/* Checks one node: the kernels agree; exact hits are kept with t_enter <= t; lanes in must_miss
 * rejected, lanes in must_keep kept. */
static int check_node(const sc_node *nd, const float *o, const float *d, float limit, unsigned must_miss,
                      unsigned must_keep)
{
    sc_wcull c;
    prep(&c, o, d);
#ifndef SC_SIMD_SCALAR
    /* sc__ray_prep builds the same culling data */
    {
        sc_wray r;
        sc_ray ray = {{o[0], o[1], o[2]}, {d[0], d[1], d[2]}, limit};
        sc__ray_prep(&r, &ray);
        ENSURE(r.c.oct == c.oct);
        ENSURE(memcmp(r.c.vo, c.vo, sizeof c.vo) == 0);
        ENSURE(memcmp(r.c.vnear, c.vnear, sizeof c.vnear) == 0 && memcmp(r.c.vfar, c.vfar, sizeof c.vfar) == 0);
    }
#endif
    float tn[SC_NODE_W];
    int bad = 0;
    unsigned bits = cull_all(nd, &c, limit, tn, &bad);
    if (bad) fprintf(stderr, "  kernels disagree: o %g %g %g d %g %g %g limit %g\n", o[0], o[1], o[2], d[0], d[1], d[2], limit);
    ENSURE(!bad);
    ENSURE((bits & must_miss) == 0);
    ENSURE((bits & must_keep) == must_keep);
    for (int l = 0; l < SC_NODE_W; ++l) {
        if (!(nd->valid >> l & 1)) continue;
        float t;
        int ex = exact_lane(nd, l, o, d, limit, &t);
        ENSURE(ex != -2);
        if (ex == 1) {
            if (!(bits >> l & 1) || !(tn[l] <= t))
                fprintf(stderr, "  lane %d: exact hit t %g, kernel bit %u tn %g\n", l, t, bits >> l & 1, tn[l]);
            ENSURE(bits >> l & 1);
            ENSURE(tn[l] <= t);
        }
    }
    return 0;
}

static void node_clear(sc_node *nd)
{
    memset(nd, 0, sizeof *nd);
    for (int l = 0; l < SC_NODE_W; ++l) {
        nd->child[l] = SC_NO_CHILD;
        for (int a = 0; a < 3; ++a) {
            nd->bmin[a][l] = INFINITY;
            nd->bmax[a][l] = -INFINITY;
        }
    }
}

/* Parallel axes (+0 and -0), origins on bound planes, boxes behind and beside the ray. */
static int parallel_and_planes(void)
{
    static const float dirs[][3] = {{1, 0, 0}, {1, -0.0f, 0}, {-1, 0, -0.0f}, {-0.0f, -0.0f, 1}, {0, 1, 0}};
    for (int k = 0; k < 5; ++k) {
        const float *d = dirs[k];
        int ax = d[0] != 0.0f ? 0 : d[1] != 0.0f ? 1 : 2; /* the moving axis */
        float s = (ax == 0 ? d[0] : ax == 1 ? d[1] : d[2]) > 0.0f ? 1.0f : -1.0f;
        const float o[3] = {0, 0, 0};
        sc_node nd;
        node_clear(&nd);
        unsigned miss = 0, keep = 0;
        for (int l = 0; l < SC_NODE_W; ++l) {
            float lo[3], hi[3];
            for (int a = 0; a < 3; ++a) {
                if (a == ax) {
                    lo[a] = s > 0 ? 1.0f : -2.0f; /* ahead: [1, 2] along the ray */
                    hi[a] = s > 0 ? 2.0f : -1.0f;
                } else {
                    /* lane bits pick, per other axis: the origin on the min plane, on the max
                     * plane (as -0 and +0), inside, or outside the slab */
                    int pick = (l >> (a == (ax + 1) % 3 ? 0 : 2)) & 3;
                    lo[a] = pick == 0 ? 0.0f : pick == 1 ? -1.0f : pick == 2 ? -1.0f : 0.5f;
                    hi[a] = pick == 0 ? 1.0f : pick == 1 ? -0.0f : pick == 2 ? 1.0f : 1.5f;
                }
            }
            if (l == SC_NODE_W - 1) { /* behind the origin */
                lo[ax] = s > 0 ? -3.0f : 2.0f;
                hi[ax] = s > 0 ? -2.0f : 3.0f;
                for (int a = 0; a < 3; ++a)
                    if (a != ax) { lo[a] = -1.0f; hi[a] = 1.0f; }
                miss |= 1u << l;
            }
            set_lane(&nd, l, lo, hi);
            int outside = 0;
            for (int a = 0; a < 3; ++a)
                if (a != ax && lo[a] > 0.0f) outside = 1;
            if (l != SC_NODE_W - 1) {
                if (outside) miss |= 1u << l;
                else keep |= 1u << l;
            }
        }
        if (check_node(&nd, o, d, INFINITY, miss, keep)) return 1;
        if (check_node(&nd, o, d, 1.0f, miss, keep)) return 1; /* touching at the limit */
        if (check_node(&nd, o, d, 0.5f, miss | keep, 0)) return 1; /* all beyond the limit */
    }
    return 0;
}

/* Tiny and huge direction components: such axes do not cull, others do; all-space lanes are
 * kept, empty lanes rejected. */
static int tiny_huge_infinite_empty(void)
{
    static const float dirs[][3] = {{1, 1e-13f, 0}, {1, -1e-13f, -0.0f}, {1e31f, 1, 0}, {-1e31f, 1e-20f, 1},
                                    {1, 0x1p-40f, 0x1p100f}, {-1, -0x1p-41f, 0x1.fffffep99f}};
    for (int k = 0; k < 6; ++k) {
        const float *d = dirs[k];
        const float o[3] = {0.25f, -0.5f, 2.0f};
        sc_node nd;
        node_clear(&nd);
        const float all_lo[3] = {-INFINITY, -INFINITY, -INFINITY}, all_hi[3] = {INFINITY, INFINITY, INFINITY};
        set_lane(&nd, 0, all_lo, all_hi);
        const float e_lo[3] = {INFINITY, INFINITY, INFINITY}, e_hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        set_lane(&nd, 1, e_lo, e_hi); /* empty, yet marked valid: must still be rejected */
        const float around_lo[3] = {-1, -1, 1}, around_hi[3] = {1, 1, 3}; /* holds the origin */
        set_lane(&nd, 2, around_lo, around_hi);
        /* far away on every axis in the direction opposite to the ray on its largest axis */
        float big = -1e6f * (fabsf(d[0]) >= fabsf(d[1]) ? (d[0] > 0 ? 1.0f : -1.0f) : (d[1] > 0 ? 1.0f : -1.0f));
        int bax = fabsf(d[0]) >= fabsf(d[1]) ? 0 : 1;
        float f_lo[3] = {-1, -1, 1}, f_hi[3] = {1, 1, 3};
        f_lo[bax] = big - 1.0f;
        f_hi[bax] = big + 1.0f;
        set_lane(&nd, 3, f_lo, f_hi);
        for (int l = 4; l < SC_NODE_W; ++l) { /* boxes along the ray, some on integer planes */
            float lo[3], hi[3];
            for (int a = 0; a < 3; ++a) {
                float p = o[a] + d[a] * (float)(2 * l);
                if (!(fabsf(p) < 1e20f)) p = 0.0f;
                lo[a] = floorf(p) - (float)(l & 1);
                hi[a] = floorf(p) + 1.0f;
            }
            set_lane(&nd, l, lo, hi);
        }
        /* which axes cull: the big one does when its component is ordinary */
        float adb = fabsf(d[bax]);
        unsigned miss = 1u << 1;
        if (adb >= 0x1p-40f && adb < 0x1p100f) miss |= 1u << 3;
        if (check_node(&nd, o, d, INFINITY, miss, 1u | 1u << 2)) return 1;
        if (check_node(&nd, o, d, 0.0f, miss, 1u | 1u << 2)) return 1;
    }
    return 0;
}

/* NaN bounds: the kernels agree, and a NaN never makes a lane rejected that the same lane
 * without that bound (the axis unconstrained) keeps. */
static int nan_bounds(void)
{
    static const float dirs[][3] = {{1, 0.5f, -0.25f}, {-1, 0, 0}, {0, -0.0f, 1}, {1e-13f, 1, 1e31f}};
    for (int k = 0; k < 4; ++k) {
        const float o[3] = {0, 0, 0};
        sc_node nd;
        node_clear(&nd);
        for (int l = 0; l < SC_NODE_W; ++l) {
            float lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
            int a = l % 3;
            if (l & 4) lo[a] = NAN;
            else hi[a] = NAN;
            set_lane(&nd, l, lo, hi);
        }
        if (check_node(&nd, o, dirs[k], INFINITY, 0, (1u << SC_NODE_W) - 1)) return 1;
    }
    return 0;
}

static uint32_t g_seed = 0x2545F491u;
static uint32_t next_u32(void)
{
    uint32_t x = g_seed;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return g_seed = x;
}
static float pick_dir(void)
{
    static const float v[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -2.0f, 3.0f, 1e-13f, -1e-13f, 1e31f, -1e31f,
                              0x1p-40f, 0x1p100f, 0x1.fffffep99f, 0.1f, -0.3f};
    return v[next_u32() % 16];
}

/* Random boxes on integer planes against rays from integer or half-integer points, hostile
 * direction components included: many exact touches and ties. */
static int random_integer_scenes(void)
{
    for (int it = 0; it < 20000; ++it) {
        float o[3], d[3];
        for (int a = 0; a < 3; ++a) {
            o[a] = (float)((int)(next_u32() % 9) - 4) * (next_u32() & 1 ? 1.0f : 0.5f);
            d[a] = pick_dir();
        }
        if (d[0] == 0.0f && d[1] == 0.0f && d[2] == 0.0f) d[0] = 1.0f;
        sc_node nd;
        node_clear(&nd);
        for (int l = 0; l < SC_NODE_W; ++l) {
            if (next_u32() % 8 == 0) continue; /* an empty lane */
            float lo[3], hi[3];
            for (int a = 0; a < 3; ++a) {
                lo[a] = (float)((int)(next_u32() % 13) - 6);
                hi[a] = lo[a] + (float)(next_u32() % 4);
            }
            set_lane(&nd, l, lo, hi);
        }
        static const float limits[] = {INFINITY, 0.0f, 1.0f, 2.5f, 1e30f};
        if (check_node(&nd, o, d, limits[next_u32() % 5], 0, 0)) return 1;
    }
    return 0;
}

/* sc_world_simd names the kernel in use: avx2 exactly when this CPU has it and SC_NO_AVX2 is not
 * set to something other than "" or "0". */
static int simd_name(void)
{
    const char *name = sc_world_simd();
    ENSURE(name != NULL);
    printf("  world kernels: %s\n", name);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    const char *no = getenv("SC_NO_AVX2");
    int off = no && no[0] && strcmp(no, "0") != 0;
    int want_avx2 = !off && __builtin_cpu_supports("avx2");
    ENSURE(strcmp(name, want_avx2 ? "avx2" : "sse2") == 0);
#endif
    return 0;
}

/* Lane 0 of v, when its four lanes hold the same bits (a splat); else a NaN whose bits no
 * float computed here has (0x7FBADBAD), so that a comparison against it fails. */
static float f4_lane(f4 v)
{
    _Alignas(16) float x[4];
    f4_store(x, v);
    for (int l = 1; l < 4; ++l)
        if (bits_of(x[l]) != bits_of(x[0])) {
            uint32_t u = 0x7FBADBADu;
            memcpy(&x[0], &u, sizeof u);
        }
    return x[0];
}

/* sc__ray_prep's whole record against its definition, component magnitudes at the edges of
 * its thresholds: the culling data as prep (the non-culling range [2^-40, 2^100) of |d|), par
 * (d == 0, -0 included), far (some |o| >= 2^80: sc_w_far3's definition, written out), the
 * origin, direction and ray copied, the filter's defaults. */
static int ray_prep_edges(void)
{
#ifndef SC_SIMD_SCALAR /* the library's sc_wray (SSE2 f4) is not this file's (scalar f4) */
    static const float dv[] = {0.0f, -0.0f, 1e-45f, -1e-45f, FLT_MIN, 0x1.fffffep-41f, -0x1.fffffep-41f, 0x1p-40f,
                               -0x1p-40f, 0x1.000002p-40f, 0.75f, -3.0f, 0x1.fffffep99f, -0x1.fffffep99f, 0x1p100f,
                               -0x1p100f, FLT_MAX, -FLT_MAX};
    static const float ov[] = {0.0f, -0.0f, 2.5f, -7.0f, 0x1.fffffep79f, -0x1.fffffep79f, 0x1p80f, -0x1p80f, FLT_MAX, -FLT_MAX};
    const int nd = (int)(sizeof dv / sizeof dv[0]), no = (int)(sizeof ov / sizeof ov[0]);
    for (int k = 0; k < nd * nd * nd; ++k) {
        const float d[3] = {dv[k % nd], dv[k / nd % nd], dv[k / nd / nd]};
        if (d[0] == 0.0f && d[1] == 0.0f && d[2] == 0.0f) continue; /* not a ray */
        const float o[3] = {ov[k % no], ov[(k / 3 + 1) % no], ov[(k / 7 + 2) % no]};
        sc_wcull c;
        prep(&c, o, d);
        sc_wray r;
        const sc_ray ray = {{o[0], o[1], o[2]}, {d[0], d[1], d[2]}, 5.0f};
        sc__ray_prep(&r, &ray);
        ENSURE(r.c.oct == c.oct);
        for (int a = 0; a < 3; ++a) {
            ENSURE(bits_of(f4_lane(r.c.vo[a])) == bits_of(f4_lane(c.vo[a])));
            float n = f4_lane(r.c.vnear[a]), f = f4_lane(r.c.vfar[a]);
            float cn = f4_lane(c.vnear[a]), cf = f4_lane(c.vfar[a]);
            ENSURE(isnan(cn) ? isnan(n) && bits_of(n) != 0x7FBADBADu : bits_of(n) == bits_of(cn));
            ENSURE(isnan(cf) ? isnan(f) && bits_of(f) != 0x7FBADBADu : bits_of(f) == bits_of(cf));
            ENSURE(r.par[a] == (d[a] == 0.0f));
            ENSURE(bits_of(r.o[a]) == bits_of(o[a]) && bits_of(r.d[a]) == bits_of(d[a]));
        }
        int far = !(fabsf(o[0]) < 0x1p80f && fabsf(o[1]) < 0x1p80f && fabsf(o[2]) < 0x1p80f);
        ENSURE(r.far == far);
        ENSURE(memcmp(&r.ray, &ray, sizeof ray) == 0);
        ENSURE(r.mask == 0xFFFFFFFFu && r.exclude == -1 && r.inside == SC_INSIDE_SOLID && r.filtered == 0);
    }
#endif
    return 0;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
#if SC_HAVE_AVX2
    printf("node kernels compared: %s, %s halves, group\n", have_avx2() ? "avx2" : "(no avx2 on this CPU)", SC_SIMD_NAME);
#else
    printf("node kernels compared: %s, group\n", SC_SIMD_NAME);
#endif
    RUN_TEST(parallel_and_planes);
    RUN_TEST(tiny_huge_infinite_empty);
    RUN_TEST(nan_bounds);
    RUN_TEST(random_integer_scenes);
    RUN_TEST(ray_prep_edges);
#ifndef SC_SIMD_SCALAR
    RUN_TEST(simd_name);
#endif
    printf("%d of %d tests passed\n", g_run - g_failed_tests, g_run);
    return g_failed_tests ? 1 : 0;
}
