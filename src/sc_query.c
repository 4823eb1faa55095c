/* slabcast worlds: the batch queries. Every input is validated before any ray is cast; the
 * world is only read (a const world that must be committed); working memory comes from the
 * caller's scratch, never from an allocation.
 */
#include "sc_internal.h"
#include "sc_kernels.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Inlined where called: the batch loop with constant flags (sc_w_run). */
#if defined(__GNUC__) || defined(__clang__)
#define SC_Q_INLINE __attribute__((always_inline)) inline
#else
#define SC_Q_INLINE inline
#endif

/* A refused element's index, for the caller's scratch (if any). */
static void sc_w_set_error(sc_scratch *scratch, int i)
{
    if (scratch) scratch->error_index = i;
}

static sc_status sc_w_check_rays(const float *rays, int n, sc_scratch *scratch)
{
    if (n < 0) return SC_ERR_COUNT;
    if (n > 0 && !rays) return SC_ERR_NULL;
    for (int i = 0; i < n; ++i) {
        const float *p = rays + (size_t)i * SC_RAY_FLOATS;
        sc_ray ray = {sc_w_v3(p), sc_w_v3(p + 3), p[6]};
        sc_status s = sc_ray_check(&ray);
        if (s != SC_OK) {
            sc_w_set_error(scratch, i);
            return s;
        }
    }
    return SC_OK;
}

typedef enum { SC_W_NEAREST, SC_W_BRUTE, SC_W_ANY } sc_w_mode;

/* ---------------------------------------------------------------- scratch */

/* Bytes of a scratch block for cap rays: the rays in trace order (sc_wrec), then a count per
 * sort bin (at most one bin per ray), the trace order as ray indices, then a 16-bit sort key
 * per ray. */
static size_t sc_scratch_block_bytes(int cap)
{
    return (size_t)cap * (sizeof(sc_wrec) + sizeof(uint32_t) + sizeof(int32_t) + sizeof(uint16_t));
}

sc_scratch *sc_scratch_create_with(const sc_allocator *allocator)
{
    sc_allocator m;
    if (!sc__pick_allocator(allocator, &m)) return NULL;
    sc_scratch *s = sc__mem_alloc(&m, sizeof *s);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    s->mem = m;
    s->error_index = -1;
    return s;
}

sc_scratch *sc_scratch_create(void) { return sc_scratch_create_with(NULL); }

void sc_scratch_destroy(sc_scratch *s)
{
    if (!s) return;
    const sc_allocator m = s->mem;
    sc__mem_free(&m, s->block, s->block_bytes);
    sc__mem_free(&m, s, sizeof *s);
}

sc_status sc_scratch_reserve(sc_scratch *s, int32_t rays)
{
    if (!s) return SC_ERR_NULL;
    if (rays < 0) return SC_ERR_COUNT;
    if (rays <= s->cap) return SC_OK;
    int cap = sc__next_cap(s->cap, rays, SC_SCRATCH_MIN_RAYS);
    if (!cap) cap = rays;
    if ((size_t)cap > SIZE_MAX / sc_scratch_block_bytes(1)) return SC_ERR_NO_MEMORY;
    size_t bytes = sc_scratch_block_bytes(cap);
    void *block = sc__mem_alloc(&s->mem, bytes);
    if (!block) return SC_ERR_NO_MEMORY;
    sc__mem_free(&s->mem, s->block, s->block_bytes);
    s->block = block;
    s->block_bytes = bytes;
    s->cap = cap;
    return SC_OK;
}

int32_t sc_scratch_capacity(const sc_scratch *s) { return s ? s->cap : 0; }
size_t sc_scratch_bytes(const sc_scratch *s) { return s ? sizeof *s + s->block_bytes : 0; }
int32_t sc_scratch_error_index(const sc_scratch *s) { return s ? s->error_index : -1; }

/* The parts of a scratch's block, for n <= cap rays. */
typedef struct sc_order_bufs {
    sc_wrec *rec;   /* the rays gathered in trace order (not direct) */
    uint32_t *count;
    int32_t *perm;  /* the trace order as ray indices */
    uint16_t *keys;
    int direct;     /* natively, for a tree that stays in cache: rays read from the input in the
                     * order perm, their results written straight out (sc__cast_order) */
} sc_order_bufs;

static sc_order_bufs sc_scratch_parts(const sc_scratch *s)
{
    sc_order_bufs b;
    b.rec = (sc_wrec *)s->block;
    b.direct = 0;
    b.count = (uint32_t *)(void *)(b.rec + s->cap);
    b.perm = (int32_t *)(void *)(b.count + s->cap);
    b.keys = (uint16_t *)(void *)(b.perm + s->cap);
    return b;
}

/* ------------------------------------------------------------- ray order */

/* The order in which to trace a large batch: by direction octant, then by the Morton code of
 * the origin's cell on a grid of 2^g per axis over the BVH's bounds, so that consecutive rays
 * visit the same nodes while they are in cache (in wasm, for larger trees, coarse cells above
 * the octant: sc_w_key_consts). Only the order changes: every ray's result is its own. The key
 * has 3 + 3g <= 15 bits; one counting sort. */

/* Bits per axis of the grid for n rays: the most (up to 4) that keep the bins (2^(3 + 3g)) no
 * more than the rays, so that clearing and summing the counts stays below a step per ray. */
static int sc_w_grid_bits(int n)
{
    int g = 4;
    while (g > 0 && ((int32_t)1 << (3 + 3 * g)) > n) --g;
    return g;
}

#if !(defined(__wasm_simd128__) && !defined(SC_SIMD_SCALAR)) && !defined(SC_SIMD_SSE2)
/* The 4 low bits of a cell spread to every third bit. */
static const uint16_t sc_w_spread4[16] = {0x000, 0x001, 0x008, 0x009, 0x040, 0x041, 0x048, 0x049,
                                          0x200, 0x201, 0x208, 0x209, 0x240, 0x241, 0x248, 0x249};
#endif

/* A direction's sign bits (x < 0, y < 0, z < 0: bits 0, 1, 2) as its octant key (x in bit 2). */
static const uint8_t sc_w_rev3[8] = {0, 4, 2, 6, 1, 5, 3, 7};

/* The key pass's constants, filled by sc_w_key_consts and read from memory: V8's TurboFan
 * schedules a pure operation late, into the loop that uses it, even when the wasm computes it
 * before the loop (the cells per unit, three divisions, were computed for every ray: about 6 ns
 * of the pass's 11 at 100k rays); a value loaded from memory before the loop stays there. */
typedef struct sc_wkeys {
    _Alignas(16) float lo[4]; /* the BVH's lower bound (lane 3: 0) */
    float k[4];               /* cells per unit (lane 3: 0) */
    float top[4];             /* the last cell, 2^g - 1 */
    float fmax[4];            /* FLT_MAX: |x| <= FLT_MAX is finite (false for NaN) */
    float blo[4], bhi[4];     /* direction lanes in [-FLT_MAX, FLT_MAX], tmax in [0, inf] */
    float magic[4];           /* 2^23 (sc_w_morton) */
    int32_t m1[4], m2[4];     /* 0xC3, 0x249 (sc_w_morton) */
    int split;                /* the key: the Morton code's bits from split up, the octant, its
                               * low split bits (split = 3g: the octant first) */
} sc_wkeys;

/* Whether sc_ray_check accepts the ray at p (7 floats), in two vectors (lanes o.x o.y o.z d.x
 * and d.x d.y d.z tmax): finite origin and direction (|x| <= FLT_MAX, false for NaN), a
 * direction not zero, tmax >= 0 (not NaN; +inf passes). Also the direction's octant key in *oct. */
static inline int sc_w_ray_ok(const float *p, const sc_wkeys *c, uint32_t *oct)
{
    f4 a, b;
    memcpy(&a, p, sizeof a);
    memcpy(&b, p + 3, sizeof b);
    const f4 zero = f4_splat(0.0f);
    /* every lane of a finite; lanes 0..2 of b finite and lane 3 (tmax) in [0, inf] (-0 >= 0) */
    const int fin = f4_bits(f4_and(f4_le(f4_abs(a), f4_load(c->fmax)),
                                   f4_and(f4_ge(b, f4_load(c->blo)), f4_le(b, f4_load(c->bhi)))));
    const int nz = f4_bits(f4_gt(f4_abs(b), zero));
    *oct = sc_w_rev3[f4_bits(f4_lt(b, zero)) & 7];
    return (fin == 15) & ((nz & 7) != 0);
}

#if !defined(__wasm__)
/* Bytes of BVH (nodes and groups) up to which a native batch is traced direct (sc_order_bufs):
 * about 15k boxes. Measured against gathering the rays into records and writing the results
 * out in a pass of their own (thread CPU time, same process): +7-9% at 1k boxes, +1-7% at
 * 10k (0.7 MB of tree); at 30k (2 MB) 3-6% slower, at 60k-100k 2-10% slower: with a tree out
 * of L2, the scattered reads and writes among the traversal's cost more than the two passes. */
#define SC_W_DIRECT_BYTES ((size_t)1 << 20)
#endif

/* Bytes of BVH (nodes and groups) above which a batch is ordered by cell first: about 20k
 * boxes (the crossover measured in V8); coarse cells up to about 250k (sc_w_key_consts). */
#define SC_W_CELL_FIRST_BYTES ((size_t)1 << 20)
#define SC_W_COARSE_BYTES ((size_t)16 << 20)

/* The Morton code of a cell (lanes 0..2 integral, in [0, 15]; lane 3 zero): bit k of axis a
 * at bit 3k + a. On SIMD the three spreads at once ((v | v << 4) & 0xC3 puts bits 2, 3 at 6, 7;
 * (v | v << 2) & 0x249 bits 1, 7 at 3, 9); elsewhere by table. */
static inline uint32_t sc_w_morton(f4 cell, const sc_wkeys *c)
{
#if defined(__wasm_simd128__) && !defined(SC_SIMD_SCALAR)
    /* floor(c) + 2^23 holds c in its low bits (exact for c < 2^23); the masks drop the rest */
    v128_t v = wasm_f32x4_add(wasm_f32x4_floor(cell), wasm_v128_load(c->magic));
    v = wasm_v128_and(wasm_v128_or(v, wasm_i32x4_shl(v, 4)), wasm_v128_load(c->m1));
    v = wasm_v128_and(wasm_v128_or(v, wasm_i32x4_shl(v, 2)), wasm_v128_load(c->m2));
    return (uint32_t)wasm_i32x4_extract_lane(v, 0) | (uint32_t)wasm_i32x4_extract_lane(v, 1) << 1 |
           (uint32_t)wasm_i32x4_extract_lane(v, 2) << 2;
#elif defined(SC_SIMD_SSE2)
    __m128i v = _mm_cvttps_epi32(cell);
    v = _mm_and_si128(_mm_or_si128(v, _mm_slli_epi32(v, 4)), _mm_load_si128((const __m128i *)(const void *)c->m1));
    v = _mm_and_si128(_mm_or_si128(v, _mm_slli_epi32(v, 2)), _mm_load_si128((const __m128i *)(const void *)c->m2));
    v = _mm_or_si128(v, _mm_slli_epi32(_mm_srli_si128(v, 4), 1));
    v = _mm_or_si128(v, _mm_slli_epi32(_mm_srli_si128(v, 8), 2));
    return (uint32_t)_mm_cvtsi128_si32(v);
#else
    (void)c;
    _Alignas(16) float x[4];
    f4_store(x, cell);
    return sc_w_spread4[(uint32_t)x[0]] | (uint32_t)sc_w_spread4[(uint32_t)x[1]] << 1 |
           (uint32_t)sc_w_spread4[(uint32_t)x[2]] << 2;
#endif
}

/* The key pass's constants for a tree and g grid bits (sc_wkeys). Not inlined: its results
 * reach the loop through memory. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void sc_w_key_consts(const sc_world *w, int g, sc_wkeys *c)
{
    sc_bounds sb;
    sc__bvh_child_bounds(w, w->root, &sb);
    for (int ax = 0; ax < 4; ++ax) {
        const float ext = ax < 3 ? sb.hi[ax] - sb.lo[ax] : 0.0f;
        c->lo[ax] = ax < 3 ? sb.lo[ax] : 0.0f;
        c->k[ax] = ext > 0.0f && ext < INFINITY ? (float)(1 << g) / ext : 0.0f;
        c->top[ax] = (float)((1 << g) - 1);
        c->fmax[ax] = FLT_MAX;
        c->blo[ax] = ax < 3 ? -FLT_MAX : 0.0f;
        c->bhi[ax] = ax < 3 ? FLT_MAX : INFINITY;
        c->magic[ax] = 8388608.0f;
        c->m1[ax] = 0xC3;
        c->m2[ax] = 0x249;
    }
    /* A tree over SC_W_CELL_FIRST_BYTES: cells above the octant in the key, so that the batch
     * sweeps the tree once rather than once per octant (in V8, at 100k boxes, most traversal
     * time waits on the first read of a group or node: +25-40%; natively +40-50% at 1M). A
     * smaller tree stays in cache across the eight sweeps, and the octant first is faster (V8:
     * 5-9% at 10k boxes). Up to SC_W_COARSE_BYTES cells of 4^3 above the octant, the finer bits
     * below (V8: +1-3% at 30k and 100k boxes against 16^3 cells; at 1M 1-3% slower). */
    const size_t tree = (size_t)w->ngroups * sizeof(sc_group) + (size_t)w->nnodes * sizeof(sc_node);
    c->split = tree <= SC_W_CELL_FIRST_BYTES ? 3 * g : tree <= SC_W_COARSE_BYTES && g >= 2 ? 3 * g - 6 : 0;
}

/* The checks of a large batch fused with its sort keys: each ray is checked as sc_ray_check,
 * its key stored in keys and counted in count (2^(3 + 3g) bins). With a ray refused, the status
 * and index of sc_w_check_rays, from a second pass (the loop has no call and no exit: in V8 a
 * call in it kept its constants on the stack). */
static sc_status sc_w_check_keys(const sc_world *w, const float *rays, int n, int g, const sc_order_bufs *b,
                                 sc_scratch *scratch)
{
    sc_wkeys c;
    sc_w_key_consts(w, g, &c);
    uint16_t *const keys = b->keys;
    uint32_t *const count = b->count;
    memset(count, 0, sizeof *count << (3 + 3 * g));
    const uint32_t split = (uint32_t)c.split, low = ((uint32_t)1 << split) - 1;
    const float *p = rays;
    int ok = 1;
    for (int i = 0; i < n; ++i, p += SC_RAY_FLOATS) {
        uint32_t oct;
        ok &= sc_w_ray_ok(p, &c, &oct);
        /* per axis (lanes 0..2; lane 3: d.x * 0 = 0): (o - lo) * k clamped to [0, 2^g - 1], NaN
         * (0 * inf) to 0 (f4_max(0, x) = 0 < x ? x : 0; f4_min(top, x) = x < top ? x : top) */
        f4 o4;
        memcpy(&o4, p, sizeof o4);
        const f4 cell = f4_min(f4_load(c.top), f4_max(f4_splat(0.0f), f4_mul(f4_sub(o4, f4_load(c.lo)), f4_load(c.k))));
        const uint32_t mo = sc_w_morton(cell, &c);
        const uint32_t key = (mo >> split) << (split + 3) | oct << split | (mo & low);
        keys[i] = (uint16_t)key;
        count[key]++;
    }
    /* a refused ray (its key is in range all the same): the checks again, to the first one */
    return ok ? SC_OK : sc_w_check_rays(rays, n, scratch);
}

/* The trace order of a checked batch (a stable counting sort of the keys): the ray indices in
 * that order into b->perm, then (not direct) the rays gathered into b->rec in it. The gather
 * reads the input in trace order and writes the records in sequence: scattered reads overlap
 * (in V8, 5-7 ns a ray less than the records written at scattered places, at 100k rays). */
static void sc_w_gather(const float *rays, int n, int g, const sc_order_bufs *b)
{
    uint32_t *const count = b->count;
    const uint16_t *const keys = b->keys;
    int32_t *const perm = b->perm;
    uint32_t sum = 0, bins = (uint32_t)1 << (3 + 3 * g);
    for (uint32_t d = 0; d < bins; ++d) {
        uint32_t c = count[d];
        count[d] = sum;
        sum += c;
    }
    for (int i = 0; i < n; ++i) perm[count[keys[i]]++] = i;
    if (b->direct) return;
    sc_wrec *const rec = b->rec;
    for (int j = 0; j < n; ++j) {
        const int i = perm[j];
        const float *p = rays + (size_t)i * SC_RAY_FLOATS;
        rec[j].u.ray = (sc_ray){sc_w_v3(p), sc_w_v3(p + 3), p[6]};
        rec[j].i = i;
    }
}

/* The results of a batch traced in records out to the caller's arrays, each in its ray's place
 * (as sc_w_put). A nearest hit's t without a branch (a miss's t is 0: its bits masked off by
 * index >> 31): in V8 the branch on hit or miss was mispredicted as often as rays miss. */
static void sc_w_write_back(const sc_order_bufs *b, int n, int any_hit, const sc_wout *out)
{
    const sc_wrec *const rec = b->rec;
    if (any_hit) {
        for (int j = 0; j < n; ++j) sc_w_put(&rec[j].u.hit, rec[j].i, 1, out);
        return;
    }
    float *const t = out->t, *const normal = out->normal;
    int32_t *const index = out->index;
    for (int j = 0; j < n; ++j) {
        const sc_whit *h = &rec[j].u.hit;
        const size_t i = (size_t)rec[j].i;
        const float tt = h->t + 0.0f;
        uint32_t bits;
        memcpy(&bits, &tt, sizeof bits);
        bits &= ~(uint32_t)(h->index >> 31);
        memcpy(&t[i], &bits, sizeof bits);
        index[i] = h->index;
        if (normal) {
            normal[3 * i + 0] = h->normal.x + 0.0f;
            normal[3 * i + 1] = h->normal.y + 0.0f;
            normal[3 * i + 2] = h->normal.z + 0.0f;
        }
    }
}

/* ------------------------------------------------------------------ casts */

/* A query's filter, checked: the default for NULL. */

/* Validates filter for n rays (after the rays: inside, then each exclusion: -1 or an index of
 * the world) and reads it into *f. */
static sc_status sc_w_filter(const sc_world *w, const sc_query_filter *filter, int n, sc_wfilt *f,
                             sc_scratch *scratch)
{
    sc_query_filter q = filter ? *filter : sc_query_filter_default();
    if (q.inside != SC_INSIDE_SOLID && q.inside != SC_INSIDE_SKIP && q.inside != SC_INSIDE_EXIT) return SC_ERR_INSIDE;
    for (int i = 0; q.exclude && i < n; ++i) {
        if (q.exclude[i] < -1 || q.exclude[i] >= w->count) {
            sc_w_set_error(scratch, i);
            return SC_ERR_RANGE;
        }
    }
    f->mask = q.mask;
    f->exclude = q.exclude;
    f->inside = (int)q.inside;
    f->masked = q.mask != 0xFFFFFFFFu || w->nzero_mask > 0;
    return SC_OK;
}

/* Ray i of a batch takes the filter. */
static void sc_w_apply(sc_wray *r, const sc_wfilt *f, int i)
{
    r->mask = f->mask;
    r->exclude = f->exclude ? f->exclude[i] : -1;
    r->inside = f->inside;
    r->filtered = f->masked || r->exclude >= 0;
    /* the leaf test's fast path serves unfiltered rays under SC_INSIDE_SOLID only */
    r->fast &= !r->filtered && r->inside == SC_INSIDE_SOLID;
}

/* The rays of a batch through the world: in trace order (ordered batches, b: the rays gathered in
 * records, each result into its record, in the place of its ray, and out to the caller's arrays
 * after the loop, so that the loop's stores stay in cache; direct: each ray read from the input
 * and its result written straight out), else the n rays of the input in input order, their
 * results straight out. Inlined with constant ordered, mode and filt (0: sc__ray_prep's defaults
 * are the filter's: no per-ray filter work), so that each kind of batch runs a loop without their
 * branches. */
static SC_Q_INLINE int sc_w_at(const sc_order_bufs *b, int j, const int ordered)
{
    if (!ordered) return j;
    return b->direct ? b->perm[j] : b->rec[j].i;
}

static SC_Q_INLINE void sc_w_prep_at(const float *rays, const sc_order_bufs *b, int j, const int ordered,
                                     const int filt, const sc_wfilt *f, sc_wray *r)
{
    const int i = sc_w_at(b, j, ordered);
    if (ordered && !b->direct) {
        sc__ray_prep(r, &b->rec[j].u.ray);
    } else {
        const float *p = rays + (size_t)i * SC_RAY_FLOATS;
        const sc_ray ray = {sc_w_v3(p), sc_w_v3(p + 3), p[6]};
        sc__ray_prep(r, &ray);
    }
    if (filt) sc_w_apply(r, f, i);
}

static SC_Q_INLINE void sc_w_run(const sc_world *w, const float *rays, const sc_order_bufs *b, int n,
                                 const int ordered, const sc_w_mode mode, const int filt, const sc_wfilt *f,
                                 const sc_wout *out)
{
    /* ray j + 1 is prepared before ray j is cast: its preparation (a division per axis) is
     * independent of ray j's traversal and overlaps it */
    const int recs = ordered && !b->direct;
    sc_wray r[2];
    if (n > 0) sc_w_prep_at(rays, b, 0, ordered, filt, f, &r[0]);
    for (int j = 0; j < n; ++j) {
        const int i = sc_w_at(b, j, ordered);
        if (j + 1 < n) sc_w_prep_at(rays, b, j + 1, ordered, filt, f, &r[(j + 1) & 1]);
        sc_whit h;
        if (mode == SC_W_BRUTE) sc__cast_brute(w, &r[j & 1], &h);
        else sc__cast(w, &r[j & 1], &h, mode == SC_W_ANY);
        if (recs) b->rec[j].u.hit = h;
        else sc_w_put(&h, i, mode == SC_W_ANY, out);
    }
    for (int j = 0; recs && j < n; ++j) sc_w_put(&b->rec[j].u.hit, b->rec[j].i, mode == SC_W_ANY, out);
}

/* The batch loop of mode, specialised: unfiltered nearest hits (the common case) get their own.
 * b: the trace order (NULL: input order). */
static void sc_w_run_mode(const sc_world *w, const float *rays, const sc_order_bufs *b, int n, sc_w_mode mode,
                          const sc_wfilt *f, const sc_wout *out)
{
    int filt = f->masked || f->exclude || f->inside != SC_INSIDE_SOLID;
    if (mode != SC_W_BRUTE && !filt && b) {
        /* the common case: prepared and cast in one loop, each result out to its place */
#if !defined(__wasm__)
        if (b->direct) {
            sc__cast_order(w, rays, b->perm, n, mode == SC_W_ANY, out);
            return;
        }
#endif
        sc__cast_recs(w, b->rec, n, mode == SC_W_ANY);
        sc_w_write_back(b, n, mode == SC_W_ANY, out);
    }
    else if (mode == SC_W_NEAREST && !filt) sc_w_run(w, rays, NULL, n, 0, SC_W_NEAREST, 0, f, out);
    else if (b) sc_w_run(w, rays, b, n, 1, mode, 1, f, out);
    else sc_w_run(w, rays, NULL, n, 0, mode, 1, f, out);
}

/* A batch of rays: all validated first, then cast one by one (large batches in a cache-friendly
 * order when the caller's scratch has room, see sc_w_check_keys). */
static sc_status sc_w_batch(const sc_world *w, const float *rays, int n, sc_w_mode mode, float *t, int *index,
                            float *normal, bool *hit, const sc_query_filter *filter, sc_scratch *scratch)
{
    sc_w_set_error(scratch, -1);
    if (!w) return SC_ERR_NULL;
    if (n < 0) return SC_ERR_COUNT;
    if (n > 0 && !rays) return SC_ERR_NULL;
    const int ordered = mode != SC_W_BRUTE && n >= SC_SCRATCH_MIN_RAYS && scratch && n <= scratch->cap &&
                        sc_world_is_committed(w) && w->root != SC_NO_CHILD;
    const int g = sc_w_grid_bits(n);
    sc_order_bufs bufs = {0};
    sc_status s;
    if (ordered) {
        bufs = sc_scratch_parts(scratch);
#if !defined(__wasm__)
        bufs.direct = (size_t)w->ngroups * sizeof(sc_group) + (size_t)w->nnodes * sizeof(sc_node) <= SC_W_DIRECT_BYTES;
#endif
        s = sc_w_check_keys(w, rays, n, g, &bufs, scratch);
    } else {
        s = sc_w_check_rays(rays, n, scratch);
    }
    if (s != SC_OK) return s;
    if (n > 0 && (mode == SC_W_ANY ? !hit : (!t || !index))) return SC_ERR_NULL;
    sc_wfilt f;
    s = sc_w_filter(w, filter, n, &f, scratch);
    if (s != SC_OK) return s;
    if (!sc_world_is_committed(w)) return SC_ERR_STALE;
    const sc_wout out = {t, index, normal, hit};
    if (ordered) {
        /* the trace order, then each ray traced in it, its result written to its place */
        sc_w_gather(rays, n, g, &bufs);
        sc_w_run_mode(w, rays, &bufs, n, mode, &f, &out);
        return SC_OK;
    }
    sc_w_run_mode(w, rays, NULL, n, mode, &f, &out);
    return SC_OK;
}
sc_status sc_world_cast_rays(const sc_world *w, const float *rays, int32_t n, float *t, int32_t *index, float *normal,
                             const sc_query_filter *filter, sc_scratch *scratch)
{
    return sc_w_batch(w, rays, n, SC_W_NEAREST, t, index, normal, NULL, filter, scratch);
}

sc_status sc_world_cast_rays_bruteforce(const sc_world *w, const float *rays, int32_t n, float *t, int32_t *index,
                                        float *normal, const sc_query_filter *filter, sc_scratch *scratch)
{
    return sc_w_batch(w, rays, n, SC_W_BRUTE, t, index, normal, NULL, filter, scratch);
}

sc_status sc_world_any_hit(const sc_world *w, const float *rays, int32_t n, bool *hit, const sc_query_filter *filter,
                           sc_scratch *scratch)
{
    return sc_w_batch(w, rays, n, SC_W_ANY, NULL, NULL, NULL, hit, filter, scratch);
}

/* The lowest-index object (that the filter allows) containing point a: a zero-length segment. */
static int sc_w_point(const sc_world *w, sc_vec3 a, const sc_wray *r)
{
    /* Every object containing the point is skipped; under exit a point has no direction to
     * leave along, so it is reported at t = 0 as under solid. */
    if (r->inside == SC_INSIDE_SKIP) return -1;
    for (int o = 0; o < w->count; ++o) {
        if (!sc__passes(w, o, r->mask, r->filtered, r->exclude)) continue;
        sc_shape sh = sc__object_shape(w, o);
        if (sc_contains(a, &sh).value) return o;
    }
    return -1;
}

static sc_status sc_w_check_segments(const float *segs, int n, sc_scratch *scratch)
{
    for (int i = 0; i < n; ++i) {
        const float *p = segs + (size_t)i * SC_SEGMENT_FLOATS;
        sc_segment sg = {sc_w_v3(p), sc_w_v3(p + 3)};
        sc_status s = sc_segment_check(&sg);
        if (s != SC_OK) {
            sc_w_set_error(scratch, i);
            return s;
        }
    }
    return SC_OK;
}

sc_status sc_world_cast_segments(const sc_world *w, const float *segs, int32_t n, float *t, int32_t *index,
                                 float *normal, const sc_query_filter *filter, sc_scratch *scratch)
{
    sc_w_set_error(scratch, -1);
    if (!w) return SC_ERR_NULL;
    if (n < 0) return SC_ERR_COUNT;
    if (n > 0 && (!segs || !t || !index)) return SC_ERR_NULL;
    sc_status s0 = sc_w_check_segments(segs, n, scratch);
    if (s0 != SC_OK) return s0;
    sc_wfilt f;
    sc_status fs = sc_w_filter(w, filter, n, &f, scratch);
    if (fs != SC_OK) return fs;
    if (!sc_world_is_committed(w)) return SC_ERR_STALE;
    for (int i = 0; i < n; ++i) {
        const float *p = segs + (size_t)i * SC_SEGMENT_FLOATS;
        sc_vec3 a = sc_w_v3(p), b = sc_w_v3(p + 3);
        sc_whit h = {0.0f, -1, {0, 0, 0}};
        sc_vec3 d = {b.x - a.x, b.y - a.y, b.z - a.z};
        if (d.x == 0.0f && d.y == 0.0f && d.z == 0.0f) {
            /* A point: the lowest-index object that contains it, at t = 0. */
            sc_wray pr;
            sc__ray_prep(&pr, &(sc_ray){a, {1, 0, 0}, 0.0f});
            sc_w_apply(&pr, &f, i);
            h.index = sc_w_point(w, a, &pr);
        } else {
            sc_ray ray = {a, d, 1.0f};
            if (!isfinite(d.x) || !isfinite(d.y) || !isfinite(d.z)) {
                /* b - a overflows: halve the segment's frame (t is unchanged at the end). */
                ray.dir = (sc_vec3){b.x * 0.5f - a.x * 0.5f, b.y * 0.5f - a.y * 0.5f, b.z * 0.5f - a.z * 0.5f};
                ray.tmax = 2.0f;
            }
            sc_wray r;
            sc__ray_prep(&r, &ray);
            sc_w_apply(&r, &f, i);
            sc__cast(w, &r, &h, 0);
            if (ray.tmax == 2.0f) h.t *= 0.5f;
        }
        const sc_wout out = {t, index, normal, NULL};
        sc_w_put(&h, i, 0, &out);
    }
    return SC_OK;
}

sc_status sc_world_cast_ray_all(const sc_world *w, const float *ray, int32_t cap, float *t, int32_t *index,
                                float *normal, int32_t *total, const sc_query_filter *filter)
{
    if (total) *total = 0;
    if (!w) return SC_ERR_NULL;
    if (!ray || !total) return SC_ERR_NULL;
    if (cap < 0) return SC_ERR_COUNT;
    if (cap > 0 && (!t || !index)) return SC_ERR_NULL;
    sc_ray one = {sc_w_v3(ray), sc_w_v3(ray + 3), ray[6]};
    sc_status s = sc_ray_check(&one);
    if (s != SC_OK) return s;
    sc_wfilt f;
    s = sc_w_filter(w, filter, 1, &f, NULL);
    if (s != SC_OK) return s;
    if (!sc_world_is_committed(w)) return SC_ERR_STALE;
    sc_wray r;
    sc__ray_prep(&r, &one);
    sc_w_apply(&r, &f, 0);
    *total = sc__cast_all(w, &r, t, index, normal, cap);
    return SC_OK;
}

/* ------------------------------------------------------------------ sweeps */

/* Validates n sweeps (per floats each: a ray, then a radius or three half extents; a capsule's:
 * a, b, dir, tmax, radius, its capsule checked first, then its ray from a). */
static sc_status sc_w_check_sweeps(const float *sweeps, int n, int per, sc_scratch *scratch)
{
    for (int i = 0; i < n; ++i) {
        const float *p = sweeps + (size_t)i * (size_t)per;
        sc_status s;
        if (per == SC_CAPSULE_SWEEP_FLOATS) {
            sc_capsule c = {sc_w_v3(p), sc_w_v3(p + 3), p[10]};
            sc_ray r = {c.a, sc_w_v3(p + 6), p[9]};
            s = sc_capsule_check(&c);
            if (s == SC_OK) s = sc_ray_check(&r);
        } else {
            sc_ray r = {sc_w_v3(p), sc_w_v3(p + 3), p[6]};
            s = sc_ray_check(&r);
            for (int k = 7; s == SC_OK && k < per; ++k) {
                if (!isfinite(p[k])) s = per == SC_SPHERE_SWEEP_FLOATS ? SC_ERR_SPHERE_RADIUS : SC_ERR_OBB_HALF;
                else if (p[k] < 0.0f) s = per == SC_SPHERE_SWEEP_FLOATS ? SC_ERR_SPHERE_RADIUS_NEGATIVE : SC_ERR_OBB_HALF_NEGATIVE;
            }
        }
        if (s != SC_OK) {
            sc_w_set_error(scratch, i);
            return s;
        }
    }
    return SC_OK;
}

/* Floats per sweep of kind (0 sphere, 1 box, 2 capsule: sc__sweep_batch's kinds). */
static int sc_w_sweep_floats(int kind)
{
    return kind == 1 ? SC_BOX_SWEEP_FLOATS : kind == 2 ? SC_CAPSULE_SWEEP_FLOATS : SC_SPHERE_SWEEP_FLOATS;
}

static sc_status sc_w_sweeps(const sc_world *w, const float *sweeps, int32_t n, int kind, float *t, int32_t *index,
                             float *normal, float *point, const sc_query_filter *filter, sc_scratch *scratch, int brute)
{
    sc_w_set_error(scratch, -1);
    if (!w) return SC_ERR_NULL;
    if (n < 0) return SC_ERR_COUNT;
    if (n > 0 && !sweeps) return SC_ERR_NULL;
    sc_status s = sc_w_check_sweeps(sweeps, n, sc_w_sweep_floats(kind), scratch);
    if (s != SC_OK) return s;
    if (n > 0 && (!t || !index)) return SC_ERR_NULL;
    sc_wfilt f;
    s = sc_w_filter(w, filter, n, &f, scratch);
    if (s != SC_OK) return s;
    if (!sc_world_is_committed(w)) return SC_ERR_STALE;
    return sc__sweep_batch(w, sweeps, n, kind, t, index, normal, point, &f, brute);
}

sc_status sc_world_cast_spheres(const sc_world *w, const float *sweeps, int32_t n, float *t, int32_t *index,
                                float *normal, float *point, const sc_query_filter *filter, sc_scratch *scratch)
{
    return sc_w_sweeps(w, sweeps, n, 0, t, index, normal, point, filter, scratch, 0);
}

sc_status sc_world_cast_boxes(const sc_world *w, const float *sweeps, int32_t n, float *t, int32_t *index,
                              float *normal, float *point, const sc_query_filter *filter, sc_scratch *scratch)
{
    return sc_w_sweeps(w, sweeps, n, 1, t, index, normal, point, filter, scratch, 0);
}

sc_status sc_world_cast_spheres_bruteforce(const sc_world *w, const float *sweeps, int32_t n, float *t,
                                           int32_t *index, float *normal, float *point,
                                           const sc_query_filter *filter, sc_scratch *scratch)
{
    return sc_w_sweeps(w, sweeps, n, 0, t, index, normal, point, filter, scratch, 1);
}

sc_status sc_world_cast_boxes_bruteforce(const sc_world *w, const float *sweeps, int32_t n, float *t, int32_t *index,
                                         float *normal, float *point, const sc_query_filter *filter,
                                         sc_scratch *scratch)
{
    return sc_w_sweeps(w, sweeps, n, 1, t, index, normal, point, filter, scratch, 1);
}

sc_status sc_world_cast_capsules(const sc_world *w, const float *sweeps, int32_t n, float *t, int32_t *index,
                                 float *normal, float *point, const sc_query_filter *filter, sc_scratch *scratch)
{
    return sc_w_sweeps(w, sweeps, n, 2, t, index, normal, point, filter, scratch, 0);
}

sc_status sc_world_cast_capsules_bruteforce(const sc_world *w, const float *sweeps, int32_t n, float *t,
                                            int32_t *index, float *normal, float *point,
                                            const sc_query_filter *filter, sc_scratch *scratch)
{
    return sc_w_sweeps(w, sweeps, n, 2, t, index, normal, point, filter, scratch, 1);
}

/* ------------------------------------------------------------------ overlaps */

static sc_status sc_w_overlap(const sc_world *w, int kind, const void *shape, int32_t *out, int32_t cap, int32_t *total,
                              const sc_query_filter *filter, int brute)
{
    if (total) *total = 0;
    if (!w || !shape || !total) return SC_ERR_NULL;
    if (cap < 0) return SC_ERR_COUNT;
    if (cap > 0 && !out) return SC_ERR_NULL;
    sc_status s = SC_OK;
    if (kind == SC_SHAPE_AABB) s = sc_aabb_check(shape);
    else if (kind == SC_SHAPE_SPHERE) s = sc_sphere_check(shape);
    else if (kind == SC_SHAPE_OBB) s = sc_obb_check(shape);
    else if (kind == SC_SHAPE_CAPSULE) s = sc_capsule_check(shape);
    else {
        const float *pl = shape;
        for (int k = 0; k < 6 && s == SC_OK; ++k) {
            sc_plane p = {{pl[4 * k], pl[4 * k + 1], pl[4 * k + 2]}, pl[4 * k + 3]};
            s = sc_plane_check(&p);
        }
    }
    if (s != SC_OK) return s;
    sc_wfilt f;
    s = sc_w_filter(w, filter, 1, &f, NULL);
    if (s != SC_OK) return s;
    if (!sc_world_is_committed(w)) return SC_ERR_STALE;
    return sc__overlap(w, kind, shape, out, cap, total, &f, brute);
}

sc_status sc_world_overlap_aabb(const sc_world *w, const sc_aabb *box, int32_t *out, int32_t cap, int32_t *total,
                                const sc_query_filter *filter)
{
    return sc_w_overlap(w, SC_SHAPE_AABB, box, out, cap, total, filter, 0);
}

sc_status sc_world_overlap_sphere(const sc_world *w, const sc_sphere *sphere, int32_t *out, int32_t cap,
                                  int32_t *total, const sc_query_filter *filter)
{
    return sc_w_overlap(w, SC_SHAPE_SPHERE, sphere, out, cap, total, filter, 0);
}

sc_status sc_world_overlap_obb(const sc_world *w, const sc_obb *obb, int32_t *out, int32_t cap, int32_t *total,
                               const sc_query_filter *filter)
{
    return sc_w_overlap(w, SC_SHAPE_OBB, obb, out, cap, total, filter, 0);
}

sc_status sc_world_overlap_capsule(const sc_world *w, const sc_capsule *capsule, int32_t *out, int32_t cap,
                                   int32_t *total, const sc_query_filter *filter)
{
    return sc_w_overlap(w, SC_SHAPE_CAPSULE, capsule, out, cap, total, filter, 0);
}

sc_status sc_world_overlap_frustum(const sc_world *w, const float *planes, int32_t *out, int32_t cap, int32_t *total,
                                   const sc_query_filter *filter)
{
    return sc_w_overlap(w, 0, planes, out, cap, total, filter, 0);
}

sc_status sc__overlap_checked(const sc_world *w, int kind, const void *shape, int32_t *out, int32_t cap, int32_t *total,
                              const sc_query_filter *filter, int brute)
{
    return sc_w_overlap(w, kind, shape, out, cap, total, filter, brute);
}

/* ------------------------------------------------------------------ nearest objects */

sc_status sc_world_closest_objects(const sc_world *w, const float *points, int32_t n, float max_distance,
                                   int32_t *index, float *distance, float *point, const sc_query_filter *filter,
                                   sc_scratch *scratch)
{
    return sc__closest_objects(w, points, n, max_distance, index, distance, point, filter, scratch, 0);
}

sc_status sc__closest_objects(const sc_world *w, const float *points, int32_t n, float max_distance, int32_t *index,
                              float *distance, float *point, const sc_query_filter *filter, sc_scratch *scratch,
                              int brute)
{
    sc_w_set_error(scratch, -1);
    if (!w) return SC_ERR_NULL;
    if (n < 0) return SC_ERR_COUNT;
    if (n > 0 && (!points || !index)) return SC_ERR_NULL;
    for (int i = 0; i < n; ++i) {
        if (sc_point_check(sc_w_v3(points + 3 * (size_t)i)) != SC_OK) {
            sc_w_set_error(scratch, i);
            return SC_ERR_POINT;
        }
    }
    if (!(max_distance >= 0.0f)) return SC_ERR_MAX_DISTANCE; /* NaN and negative; +inf allowed */
    sc_wfilt f;
    sc_status s = sc_w_filter(w, filter, n, &f, scratch);
    if (s != SC_OK) return s;
    if (!sc_world_is_committed(w)) return SC_ERR_STALE;
    return sc__nearest_batch(w, points, n, max_distance, index, distance, point, &f, brute);
}

/* The item checks of a batch query, alone (op: 0 and 1 rays, 2 segments, 3 sphere sweeps, 4 box
 * sweeps, 5 capsule sweeps): the status the query would return for its items, the first refused item in *bad. */
sc_status sc__check_batch(int op, const float *items, int32_t n, int32_t *bad)
{
    sc_scratch probe;
    memset(&probe, 0, sizeof probe);
    probe.error_index = -1;
    sc_status s;
    if (n < 0) s = SC_ERR_COUNT;
    else if (n > 0 && !items) s = SC_ERR_NULL;
    else if (op <= 1) s = sc_w_check_rays(items, n, &probe);
    else if (op == 2) s = sc_w_check_segments(items, n, &probe);
    else s = sc_w_check_sweeps(items, n, sc_w_sweep_floats(op - 3), &probe);
    *bad = probe.error_index;
    return s;
}
