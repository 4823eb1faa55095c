/* sc_traverse_loop.h: the near-first BVH loop of sc__cast (internal), included by sc_traverse.c
 * once per node kernel:
 *   SC_TL_NAME  the function defined: int SC_TL_NAME(w, r, best, any_hit, oct), 1 when the
 *               stack filled up (the caller then tests every object), else 0;
 *   SC_TL_AVX   1: nodes through sc_w_cull8_avx2, the function compiled for AVX2 (SC_AVX2);
 *               0: nodes through sc_w_cull_node (SSE2, wasm SIMD128 or scalar).
 * The loop is instantiated per ray octant (oct: bit a set when the culling reciprocal of axis a
 * is negative), so that the offsets of the near and far bounds are constants.
 *
 * The current node is kept out of the stack: one child hit descends directly, two push the
 * farther, more are sorted. A stack entry is one 64-bit key: the bits of the child's culling
 * t_enter (a float >= +0, never NaN, so its bits order as the floats do) above the child
 * reference; keys sort by integer compares, and entries that cannot beat the best hit found
 * since are dropped when popped. */

#if SC_TL_AVX
#define SC_TL_ATTR SC_AVX2
#else
#define SC_TL_ATTR
#endif
#if defined(__wasm__)
/* Wasm has no prefetch: the farther of two children hit, pushed for later, has one word read
 * now (a group's count, which the leaf step reads first; a node's first child reference), kept
 * by an empty asm, so that its cache miss overlaps the nearer child's traversal. At 100k boxes
 * about a third of V8's traversal time is spent waiting on a group's first read. */
#define SC_TL_TOUCH(c)                                                                         \
    do {                                                                                       \
        int32_t sc_tl_c = (c);                                                                 \
        int32_t sc_tl_v = sc_tl_c < 0 ? groups[~sc_tl_c].count : nodes[sc_tl_c].child[0];      \
        __asm__ volatile("" : : "r"(sc_tl_v));                                                 \
    } while (0)
#else
#define SC_TL_TOUCH(c) ((void)0)
#endif
#define SC_TL_CAT2(a, b) a##b
#define SC_TL_CAT(a, b) SC_TL_CAT2(a, b)
#define SC_TL_BODY SC_TL_CAT(SC_TL_NAME, _oct)

static SC_W_FORCE_INLINE SC_TL_ATTR int SC_TL_BODY(const sc_world *w, const sc_wray *r, sc_whit *best, int any_hit,
                                                   const int oct, const int known_fast)
{
    int noff[3], foff[3], gnoff[3], gfoff[3];
    sc_w_cull_offsets(oct, SC_NODE_W, noff, foff);
    sc_w_cull_offsets(oct, 4, gnoff, gfoff);
    const sc_wcull *cull = &r->c;
#if SC_TL_AVX
    const sc_wcull8 c8 = sc_w_cull8_prep(cull);
#endif
    const sc_node *nodes = w->nodes;
    const sc_group *groups = w->groups;
    /* SC_NODE_W spare entries: a node's hits (up to SC_NODE_W) are written from sp, which may
     * be SC_STACK, before the stack's bound is checked */
    uint64_t stack[SC_STACK + SC_NODE_W];
    int sp = 0;
    int32_t cur = w->root;
    /* the limit (>= +0) as a float, its culling splats and its bits */
    float limit = (best->index >= 0 ? best->t : r->ray.tmax) + 0.0f;
    f4 vlim = f4_splat(sc_w_cull_limit(limit));
#if SC_TL_AVX
    __m256 vlim8 = _mm256_set1_ps(sc_w_cull_limit(limit));
#endif
    uint32_t lbits = sc_w_fbits(limit);
    /* the leaf test's fast path (sc_wray.fast; known_fast: a constant 1, the caller checked it) */
    const int fast = known_fast || r->fast;
    const f4 vtmax = f4_splat(r->ray.tmax);
    for (;;) {
        while (cur >= 0) {
            const sc_node *nd = &nodes[cur];
            _Alignas(32) float tn[SC_NODE_W];
#if SC_TL_AVX
            unsigned bits = sc_w_cull8_avx2(&nd->bmin[0][0], noff, foff, &c8, vlim8, tn, known_fast) & (unsigned)nd->valid;
#else
#if defined(__wasm__)
            /* the ray's splats read from memory per node: V8 spills when all of them stay live */
            const sc_wcull *cn = cull;
            __asm__ volatile("" : "+r"(cn));
            unsigned bits = sc_w_cull_node(nd, noff, foff, cn, vlim, tn);
#else
            unsigned bits = sc_w_cull_node(nd, noff, foff, cull, vlim, tn);
#endif
#endif
            if (!bits) goto pop;
            int a = sc_w_ctz(bits);
            bits &= bits - 1;
            if (!bits) {
                cur = nd->child[a];
                continue;
            }
            uint64_t ka = sc_w_key(tn[a], nd->child[a]);
            int b = sc_w_ctz(bits);
            bits &= bits - 1;
            uint64_t kb = sc_w_key(tn[b], nd->child[b]);
            uint64_t knear = ka < kb ? ka : kb, kfar = ka < kb ? kb : ka;
            if (!bits) {
                /* two: descend into the nearer, push the farther */
                if (sp == SC_STACK) return 1;
                stack[sp++] = kfar;
                cur = (int32_t)(uint32_t)knear;
                SC_TL_TOUCH((int32_t)(uint32_t)kfar);
                continue;
            }
            /* three or more: pushed far to near (insertion sort of the keys on the stack's top),
             * then the nearest popped */
            uint64_t *top = stack + sp;
            top[0] = kfar;
            top[1] = knear;
            int m = 2;
            while (bits) {
                int l = sc_w_ctz(bits);
                bits &= bits - 1;
                uint64_t k = sc_w_key(tn[l], nd->child[l]);
                int j = m++;
                while (j > 0 && top[j - 1] < k) {
                    top[j] = top[j - 1];
                    --j;
                }
                top[j] = k;
            }
            if (sp + m - 1 > SC_STACK) return 1;
            sp += m - 1;
            cur = (int32_t)(uint32_t)top[m - 1];
        }
        {
            const sc_group *g = &groups[~cur];
            if (fast && g->all_aabb) {
                /* the culling and exact tests in one pass (sc_w_leaf_fast4) */
                sc_w_group_fast(w, g, r, best, gnoff, gfoff, vlim, vtmax);
            } else if (g->count == 1 || sc_w_cull4v(&g->lo[0][0], gnoff, gfoff, cull, vlim, NULL)) {
                /* A group of one object below a node: its bounds are the node lane's that was
                 * just culled (with a limit t_enter did not exceed then and does not exceed
                 * now, see pop), so the same test would pass again. (A root group of one
                 * object is then tested exactly without culling: culling only ever saves
                 * work.) */
                sc_w_group_exact(w, g, r, best, limit);
            } else {
                goto pop;
            }
            if (best->index >= 0) {
                if (any_hit) return 0;
                limit = best->t + 0.0f;
                vlim = f4_splat(sc_w_cull_limit(limit));
#if SC_TL_AVX
                vlim8 = _mm256_set1_ps(sc_w_cull_limit(limit));
#endif
                lbits = sc_w_fbits(limit);
            }
        }
    pop:
        do {
            if (sp == 0) return 0;
            --sp;
        } while ((uint32_t)(stack[sp] >> 32) > lbits);
        cur = (int32_t)(uint32_t)stack[sp];
    }
}

static SC_TL_ATTR int SC_TL_NAME(const sc_world *w, const sc_wray *r, sc_whit *best, int any_hit, int oct)
{
    switch (oct) {
    case 0: return SC_TL_BODY(w, r, best, any_hit, 0, 0);
    case 1: return SC_TL_BODY(w, r, best, any_hit, 1, 0);
    case 2: return SC_TL_BODY(w, r, best, any_hit, 2, 0);
    case 3: return SC_TL_BODY(w, r, best, any_hit, 3, 0);
    case 4: return SC_TL_BODY(w, r, best, any_hit, 4, 0);
    case 5: return SC_TL_BODY(w, r, best, any_hit, 5, 0);
    case 6: return SC_TL_BODY(w, r, best, any_hit, 6, 0);
    default: return SC_TL_BODY(w, r, best, any_hit, 7, 0);
    }
}

/* The loops over a batch's rays (sc__cast_recs; natively also sc__cast_order): ray j + 1 is
 * prepared before ray j is cast (its divisions overlap ray j's traversal), then ray j goes
 * through the loop of its octant; no call, no kernel choice and no setup per ray beyond the
 * loop's own. */
/* ray rj through the loop of its octant (kf: SC_TL_BODY's known_fast), its result in full */
#define SC_TL_SWITCH(rj, h, kf)                                                            \
    do {                                                                                   \
        switch ((rj)->c.oct) {                                                             \
        case 0: full = SC_TL_BODY(w, rj, h, any_hit, 0, kf); break;                        \
        case 1: full = SC_TL_BODY(w, rj, h, any_hit, 1, kf); break;                        \
        case 2: full = SC_TL_BODY(w, rj, h, any_hit, 2, kf); break;                        \
        case 3: full = SC_TL_BODY(w, rj, h, any_hit, 3, kf); break;                        \
        case 4: full = SC_TL_BODY(w, rj, h, any_hit, 4, kf); break;                        \
        case 5: full = SC_TL_BODY(w, rj, h, any_hit, 5, kf); break;                        \
        case 6: full = SC_TL_BODY(w, rj, h, any_hit, 6, kf); break;                        \
        default: full = SC_TL_BODY(w, rj, h, any_hit, 7, kf); break;                       \
        }                                                                                  \
    } while (0)
#if !SC_TL_AVX
#define SC_TL_CAST(rj, h)                                                                  \
    do {                                                                                   \
        int full = 1;                                                                      \
        if (!(rj)->far) SC_TL_SWITCH(rj, h, 0);                                            \
        /* from 2^80 or more, or deeper than the stack: every object exactly (sc__cast) */ \
        if (full) sc_w_cast_every(w, rj, h, any_hit);                                      \
    } while (0)
#else
/* On AVX2, rays whose every axis culls (sc_wray.fast: nearly all) get the loop inlined with that
 * known (known_fast: the node test's shorter reduction, no leaf-path check); the others the loop
 * of SC_TL_NAME. (The portable loop, above, stays as it was: with this split the SSE2 kernel's
 * batches were 5-10% slower natively.) */
#define SC_TL_CAST(rj, h)                                                                  \
    do {                                                                                   \
        int full = 1;                                                                      \
        if (!(rj)->fast || (rj)->far) {                                                    \
            if (!(rj)->far) full = SC_TL_NAME(w, rj, h, any_hit, (rj)->c.oct);             \
        } else {                                                                           \
            SC_TL_SWITCH(rj, h, 1);                                                        \
        }                                                                                  \
        /* from 2^80 or more, or deeper than the stack: every object exactly (sc__cast) */ \
        if (full) sc_w_cast_every(w, rj, h, any_hit);                                      \
    } while (0)
#endif

/* The rays gathered in trace order (rec), each hit stored in its record. */
static SC_TL_ATTR void SC_TL_CAT(SC_TL_NAME, _recs)(const sc_world *w, sc_wrec *rec, int n, int any_hit)
{
    sc_wray r[2];
    sc_w_ray_defaults(&r[0]);
    sc_w_ray_defaults(&r[1]);
    if (n > 0) sc_w_ray_prep(&r[0], &rec[0].u.ray);
    for (int j = 0; j < n; ++j) {
        if (j + 1 < n) sc_w_ray_prep(&r[(j + 1) & 1], &rec[j + 1].u.ray);
        const sc_wray *rj = &r[j & 1];
        sc_whit h = {0.0f, -1, {0.0f, 0.0f, 0.0f}};
        SC_TL_CAST(rj, &h);
        rec[j].u.hit = h;
    }
}

#if !defined(__wasm__)
/* The rays read from the input in the order perm, each hit written straight to its place
 * (sc_w_put). The order scatters those reads and writes over the caller's arrays: the lines of
 * the ray SC_TL_AHEAD places on (its input, its outputs) are prefetched, so that neither the
 * reads nor the writes wait (a write that misses would hold back every later store, the
 * traversal's included). */
#define SC_TL_AHEAD 3
static SC_TL_ATTR void SC_TL_CAT(SC_TL_NAME, _order)(const sc_world *w, const float *rays, const int32_t *perm, int n,
                                                      int any_hit, const sc_wout *out)
{
    sc_wray r[2];
    sc_w_ray_defaults(&r[0]);
    sc_w_ray_defaults(&r[1]);
    if (n > 0) sc_w_ray_prep(&r[0], sc_w_ray_in(rays, perm[0]));
    for (int j = 0; j < n; ++j) {
#if defined(SC_SIMD_SSE2)
        if (j + SC_TL_AHEAD < n) {
            const size_t ia = (size_t)perm[j + SC_TL_AHEAD];
            const char *pa = (const char *)(rays + ia * SC_RAY_FLOATS);
            _mm_prefetch(pa, _MM_HINT_T0);
            _mm_prefetch(pa + SC_RAY_FLOATS * sizeof(float) - 1, _MM_HINT_T0);
            if (any_hit) {
                _mm_prefetch((const char *)(out->hit + ia), _MM_HINT_T0);
            } else {
                _mm_prefetch((const char *)(out->t + ia), _MM_HINT_T0);
                _mm_prefetch((const char *)(out->index + ia), _MM_HINT_T0);
                if (out->normal) {
                    _mm_prefetch((const char *)(out->normal + 3 * ia), _MM_HINT_T0);
                    _mm_prefetch((const char *)(out->normal + 3 * ia + 2), _MM_HINT_T0);
                }
            }
        }
#endif
        if (j + 1 < n) sc_w_ray_prep(&r[(j + 1) & 1], sc_w_ray_in(rays, perm[j + 1]));
        const sc_wray *rj = &r[j & 1];
        sc_whit h = {0.0f, -1, {0.0f, 0.0f, 0.0f}};
        SC_TL_CAST(rj, &h);
        sc_w_put(&h, perm[j], any_hit, out);
    }
}
#undef SC_TL_AHEAD
#endif
#undef SC_TL_CAST
#undef SC_TL_SWITCH

#undef SC_TL_ATTR
#undef SC_TL_TOUCH
#undef SC_TL_BODY
#undef SC_TL_CAT
#undef SC_TL_CAT2
