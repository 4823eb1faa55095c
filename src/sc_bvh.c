/* slabcast worlds: the SC_NODE_W-wide BVH (leaves of 4 objects). Built by binned SAH over the objects' bounds (contiguous
 * build records, bounds grown with f4 min / max), refit bottom-up, and the commit rule that
 * decides between them (docs/semantics.md, "World queries").
 */
#include "sc_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ build */

static void sc_b_empty(sc_bounds *b)
{
    for (int a = 0; a < 3; ++a) { b->lo[a] = INFINITY; b->hi[a] = -INFINITY; }
}
static float sc_b_area(const sc_bounds *b)
{
    float dx = b->hi[0] - b->lo[0], dy = b->hi[1] - b->lo[1], dz = b->hi[2] - b->lo[2];
    if (!(dx >= 0.0f)) return 0.0f;
    return dx * dy + dy * dz + dz * dx;
}

/* Trees of at most this many objects fill their nodes' free slots with smaller leaves
 * (sc_w_build_rec), up to two leaves for every three objects of the node: at 1k boxes the tree
 * grows from 60 to 84 bytes per box and casts are 5-7% faster; at 10k even, at 100k 2-4% slower
 * (a larger tree out of cache). The cap per node keeps a node of 8 objects from becoming 8
 * leaves of one (memory per box at 3000 boxes: 209 B). */
#define SC_FILL_MAX 2048
typedef struct sc_part { int begin, n; sc_bounds b; } sc_part;

/* A build record: an object's bounds and index, moved around by the partitions (contiguous,
 * so that every pass of the build reads memory in order). Lane 3 of lo holds the index's
 * bits; lane 3 of hi is 0. The bounds are grown with f4 min / max (one operation for three
 * axes; a scalar compare-and-select is slow in wasm). */
typedef struct sc_bprim { _Alignas(16) float lo[4]; float hi[4]; } sc_bprim;
typedef struct sc_b4 { f4 lo, hi; } sc_b4;

static int32_t sc_bp_id(const sc_bprim *p)
{
    int32_t id;
    memcpy(&id, &p->lo[3], sizeof id);
    return id;
}

static sc_b4 sc_b4_empty(void) { sc_b4 b = {f4_splat(INFINITY), f4_splat(-INFINITY)}; return b; }
static void sc_b4_grow(sc_b4 *b, f4 lo, f4 hi)
{
    b->lo = f4_min(b->lo, lo);
    b->hi = f4_max(b->hi, hi);
}
static sc_bounds sc_b4_out(sc_b4 b)
{
    _Alignas(16) float lo[4], hi[4];
    f4_store(lo, b.lo);
    f4_store(hi, b.hi);
    sc_bounds r = {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
    return r;
}
/* sc_b_area of the bounds: the extents subtracted four lanes at once, the same roundings. */
static float sc_b4_area(sc_b4 b)
{
    _Alignas(16) float d[4];
    f4_store(d, f4_sub(b.hi, b.lo));
    if (!(d[0] >= 0.0f)) return 0.0f;
    return d[0] * d[1] + d[1] * d[2] + d[2] * d[0];
}

static sc_bounds sc_w_range_bounds(const sc_bprim *p, int n)
{
    sc_b4 b = sc_b4_empty();
    for (int i = 0; i < n; ++i) sc_b4_grow(&b, f4_load(p[i].lo), f4_load(p[i].hi));
    return sc_b4_out(b);
}

/* The bins of four centroid (times 2, scaled and offset) values, clamped. Scalar, per lane:
 * bin(v) = v > 0 ? (v < SC_BINS - 1 ? (int)v : SC_BINS - 1) : 0 (NaN: 0). Here clamped in float
 * (f4_max(0, v) = 0 < v ? v : 0, so NaN gives 0; f4_min(15, x) = x < 15 ? x : 15), then
 * truncated: the same bins. */
static inline void sc_w_bins4(f4 v, int32_t *out)
{
    f4 c = f4_min(f4_splat((float)(SC_BINS - 1)), f4_max(f4_splat(0.0f), v));
#if defined(__wasm_simd128__) && !defined(SC_SIMD_SCALAR)
    wasm_v128_store(out, wasm_i32x4_trunc_sat_f32x4(c));
#elif (defined(__SSE2__) || defined(_M_X64)) && !defined(SC_SIMD_SCALAR)
    _mm_store_si128((__m128i *)out, _mm_cvttps_epi32(c));
#else
    _Alignas(16) float f[4];
    f4_store(f, c);
    for (int i = 0; i < 4; ++i) out[i] = (int32_t)f[i];
#endif
}

/* Splits p[0..n) (n >= 2) in two by binned SAH over centroids, all three axes binned in one
 * pass; returns the size of the left part (1..n-1) and the bounds of both parts. Halves
 * when every centroid is the same or the split would leave a side empty. */
static int sc_w_split(sc_bprim *p, int n, sc_bounds *lb, sc_bounds *rb)
{
    /* centroids times 2: lo + hi */
    sc_b4 cb = sc_b4_empty();
    for (int i = 0; i < n; ++i) {
        f4 c = f4_add(f4_load(p[i].lo), f4_load(p[i].hi));
        sc_b4_grow(&cb, c, c);
    }
    sc_bounds cr = sc_b4_out(cb);
    _Alignas(16) float kf[4] = {0, 0, 0, 0};
    for (int a = 0; a < 3; ++a) {
        float ext = cr.hi[a] - cr.lo[a];
        kf[a] = ext > 0.0f ? (float)SC_BINS / ext : 0.0f; /* ext = inf (huge objects): k = 0 */
    }
    const f4 cmin = cb.lo, k = f4_load(kf);
    sc_b4 bb[3][SC_BINS];
    int cnt[3][SC_BINS];
    memset(cnt, 0, sizeof cnt);
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < SC_BINS; ++b) bb[a][b] = sc_b4_empty();
    for (int i = 0; i < n; ++i) {
        f4 lo = f4_load(p[i].lo), hi = f4_load(p[i].hi);
        _Alignas(16) int32_t bin[4];
        sc_w_bins4(f4_mul(f4_sub(f4_add(lo, hi), cmin), k), bin);
        for (int a = 0; a < 3; ++a) {
            int b = bin[a];
            cnt[a][b]++;
            sc_b4_grow(&bb[a][b], lo, hi);
        }
    }
    /* The sweeps skip empty bins: growing by one changes nothing, and a split after an empty
     * bin costs exactly what the split after the last non-empty bin before it costs, which comes
     * first and wins the tie (cost < best_cost): the same split as sweeping every bin. */
    float best_cost = INFINITY;
    int best_axis = -1, best_bin = 0;
    for (int a = 0; a < 3; ++a) {
        if (kf[a] == 0.0f) continue;
        float right_area[SC_BINS];
        int right_cnt[SC_BINS];
        sc_b4 acc = sc_b4_empty();
        int c = 0;
        float area = 0.0f; /* sc_b4_area of the empty bounds */
        for (int b = SC_BINS - 1; b > 0; --b) {
            if (cnt[a][b]) {
                sc_b4_grow(&acc, bb[a][b].lo, bb[a][b].hi);
                c += cnt[a][b];
                area = sc_b4_area(acc);
            }
            right_area[b] = area;
            right_cnt[b] = c;
        }
        acc = sc_b4_empty();
        c = 0;
        for (int b = 0; b < SC_BINS - 1; ++b) {
            if (!cnt[a][b]) continue;
            sc_b4_grow(&acc, bb[a][b].lo, bb[a][b].hi);
            c += cnt[a][b];
            if (right_cnt[b + 1] == 0) break; /* and for every later bin */
            float cost = sc_b4_area(acc) * (float)c + right_area[b + 1] * (float)right_cnt[b + 1];
            if (cost < best_cost) {
                best_cost = cost;
                best_axis = a;
                best_bin = b;
            }
        }
    }
    int left = n / 2;
    if (best_axis >= 0) {
        /* the same arithmetic as the binning pass, so every record lands on its side: with
         * best_bin < SC_BINS - 1, bin(v) <= best_bin (sc_w_bins4) exactly when !(v >= best_bin + 1)
         * (NaN: bin 0, left) */
        float cm = cr.lo[best_axis], ka = kf[best_axis], edge = (float)(best_bin + 1);
        int i = 0, j = n - 1;
        while (i <= j) {
            if (!((p[i].lo[best_axis] + p[i].hi[best_axis] - cm) * ka >= edge)) {
                ++i;
            } else {
                sc_bprim t = p[i];
                p[i] = p[j];
                p[j] = t;
                --j;
            }
        }
        if (i > 0 && i < n) {
            sc_b4 l4 = sc_b4_empty(), r4 = sc_b4_empty();
            for (int b = 0; b < SC_BINS; ++b) sc_b4_grow(b <= best_bin ? &l4 : &r4, bb[best_axis][b].lo, bb[best_axis][b].hi);
            *lb = sc_b4_out(l4);
            *rb = sc_b4_out(r4);
            return i;
        }
    }
    *lb = sc_w_range_bounds(p, left);
    *rb = sc_w_range_bounds(p + left, n - left);
    return left;
}

/* Splits p[0..n) (2 <= n <= SC_LEAF: a part that would fit in one leaf, split to fill a node's
 * free slots) along the axis of the widest centroid spread: sorted by centroid (times 2) on it,
 * cut where area * count summed over both sides is least (the first such cut). */
static int sc_w_split_small(sc_bprim *p, int n, sc_bounds *lb, sc_bounds *rb)
{
    float cmin[3] = {INFINITY, INFINITY, INFINITY}, cmax[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < n; ++i) {
        for (int a = 0; a < 3; ++a) {
            float c = p[i].lo[a] + p[i].hi[a];
            cmin[a] = c < cmin[a] ? c : cmin[a];
            cmax[a] = c > cmax[a] ? c : cmax[a];
        }
    }
    int ax = 0;
    for (int a = 1; a < 3; ++a)
        if (cmax[a] - cmin[a] > cmax[ax] - cmin[ax]) ax = a;
    for (int i = 1; i < n; ++i) {
        for (int j = i; j > 0 && p[j].lo[ax] + p[j].hi[ax] < p[j - 1].lo[ax] + p[j - 1].hi[ax]; --j) {
            sc_bprim t = p[j];
            p[j] = p[j - 1];
            p[j - 1] = t;
        }
    }
    int best = 1;
    float best_cost = INFINITY;
    for (int k = 1; k < n; ++k) {
        sc_bounds l = sc_w_range_bounds(p, k), r = sc_w_range_bounds(p + k, n - k);
        float cost = sc_b_area(&l) * (float)k + sc_b_area(&r) * (float)(n - k);
        if (cost < best_cost) {
            best_cost = cost;
            best = k;
            *lb = l;
            *rb = r;
        }
    }
    if (best_cost == INFINITY) { /* NaN or infinite costs: halve */
        *lb = sc_w_range_bounds(p, n / 2);
        *rb = sc_w_range_bounds(p + n / 2, n - n / 2);
        return n / 2;
    }
    return best;
}

static void sc_w_group_fill(sc_world *w, int g)
{
    sc_group *gr = &w->groups[g];
    int all = 1, live = 0;
    for (int l = 0; l < 4; ++l) {
        int o = gr->idx[l];
        if (o >= 0 && w->enabled[o]) live |= 1 << l;
        for (int a = 0; a < 3; ++a) {
            gr->lo[a][l] = o >= 0 ? sc_v3_at(w->bounds[o].min, a) : INFINITY;
            gr->hi[a][l] = o >= 0 ? sc_v3_at(w->bounds[o].max, a) : -INFINITY;
        }
        if (o >= 0 && w->kind[o] != SC_SHAPE_AABB) all = 0;
    }
    gr->all_aabb = all;
    gr->live = live;
}

/* Builds the subtree over p[0..n) (n >= 1, with bounds pb); returns its child reference, or
 * SC_NO_CHILD when out of memory. Nodes are numbered parent before children, so a refit
 * walks them backwards. */
static int32_t sc_w_build_rec(sc_world *w, sc_bprim *p, int n, sc_bounds pb, int depth, int fill, int *oom)
{
    if (n <= SC_LEAF) {
        if (!sc__grow_aligned(&w->mem, (void **)&w->groups, &w->groups_raw, &w->capgroups, w->ngroups + 1, sizeof(sc_group),
                             w->ngroups)) {
            *oom = 1;
            return SC_NO_CHILD;
        }
        int g = w->ngroups++;
        sc_group *gr = &w->groups[g];
        memset(gr, 0, sizeof *gr);
        for (int l = 0; l < 4; ++l) {
            gr->idx[l] = l < n ? sc_bp_id(&p[l]) : -1;
            if (l < n) w->obj_ref[gr->idx[l]] = g * 4 + l;
        }
        gr->count = n;
        sc_w_group_fill(w, g);
        return ~(int32_t)g;
    }
    /* Up to SC_NODE_W parts: split the part with the largest surface area until there are
     * SC_NODE_W or every part fits in a leaf, parts of two leaves' worth first (SC_LEAF + 1 to
     * 2 SC_LEAF objects, largest area first): left as a child, such a part becomes a node of two
     * leaves, a node visit for two groups (at 100k boxes, 2900 of 7708 nodes had two children;
     * 1410 of 6856 with this order, the wasm cast 2% faster; not with fill, which splits such
     * parts anyway: there it left more nodes). Past depth 24, halve the largest part (by count)
     * instead: the depth (and so the traversal stack, see SC_STACK) stays bounded even when SAH
     * keeps peeling one object off at a time. Then, with fill (small trees: SC_FILL_MAX), while
     * slots are left (above depth 24, fewer than 2n / 3 parts), split the largest part of two or
     * more objects anyway (sc_w_split_small): a node's free slots cost no node visit, and
     * smaller leaves are tighter (1k boxes: 1.53 -> 1.06 leaf groups and 5.1 -> 2.6 object lanes
     * per ray). Parts never grow, so the depth bound holds. */
    sc_part parts[SC_NODE_W];
    int np = 1;
    parts[0].begin = 0;
    parts[0].n = n;
    parts[0].b = pb;
    while (np < SC_NODE_W) {
        int pick = -1;
        float best = -1.0f;
        int pick_two = 0;
        for (int i = 0; i < np; ++i) {
            if (parts[i].n <= SC_LEAF) continue;
            float size = depth < 24 ? sc_b_area(&parts[i].b) : (float)parts[i].n;
            int two = !fill && depth < 24 && parts[i].n <= 2 * SC_LEAF;
            if (two > pick_two || (two == pick_two && size > best)) { best = size; pick = i; pick_two = two; }
        }
        if (pick < 0 && fill && depth < 24 && 3 * np < 2 * n) {
            for (int i = 0; i < np; ++i) {
                float size = sc_b_area(&parts[i].b);
                if (parts[i].n >= 2 && size > best) { best = size; pick = i; }
            }
        }
        if (pick < 0) break;
        sc_part q = parts[pick];
        sc_bounds lb, rb;
        int left;
        if (q.n <= SC_LEAF) {
            left = sc_w_split_small(p + q.begin, q.n, &lb, &rb);
        } else if (depth < 24) {
            left = sc_w_split(p + q.begin, q.n, &lb, &rb);
        } else {
            left = q.n / 2;
            lb = sc_w_range_bounds(p + q.begin, left);
            rb = sc_w_range_bounds(p + q.begin + left, q.n - left);
        }
        parts[pick].n = left;
        parts[pick].b = lb;
        parts[np].begin = q.begin + left;
        parts[np].n = q.n - left;
        parts[np].b = rb;
        ++np;
    }
    if (!sc__grow_aligned(&w->mem, (void **)&w->nodes, &w->nodes_raw, &w->capnodes, w->nnodes + 1, sizeof(sc_node),
                         w->nnodes)) {
        *oom = 1;
        return SC_NO_CHILD;
    }
    int32_t me = w->nnodes++;
    for (int l = 0; l < SC_NODE_W; ++l) {
        int32_t c = SC_NO_CHILD;
        if (l < np) {
            c = sc_w_build_rec(w, p + parts[l].begin, parts[l].n, parts[l].b, depth + 1, fill, oom);
            if (*oom) return SC_NO_CHILD;
        }
        sc_node *node = &w->nodes[me]; /* re-derived: the recursion may move the array */
        node->child[l] = c;
        if (l == 0) node->valid = 0;
        if (c != SC_NO_CHILD) node->valid |= 1 << l;
        for (int a = 0; a < 3; ++a) {
            node->bmin[a][l] = l < np ? parts[l].b.lo[a] : INFINITY;
            node->bmax[a][l] = l < np ? parts[l].b.hi[a] : -INFINITY;
        }
    }
    return me;
}

/* Moves an array of cap 64-byte aligned elements into a block of exactly want elements, the
 * first keep of them copied. Nothing changes when the allocation fails. */
static void sc_w_resize_array(sc_world *w, void **p, void **raw, int *cap, int keep, int want, size_t elem)
{
    if (!sc__fits(want, elem)) return;
    void *r = sc__mem_alloc(&w->mem, sc__aligned_bytes(want, elem));
    if (!r) return;
    void *q = (void *)(((uintptr_t)r + 63) & ~(uintptr_t)63);
    if (keep > 0) memcpy(q, *p, (size_t)keep * elem);
    sc__mem_free(&w->mem, *raw, sc__aligned_bytes(*cap, elem));
    *raw = r;
    *p = q;
    *cap = want;
}
/* Before a build of n objects: room for the nodes and leaf groups such a tree usually has (the
 * bench scene, 1k to 1M boxes: 0.073-0.106 n nodes; 0.33 n groups, about 0.5 n with fill), so
 * that the build seldom grows them (by doubling, a copy each time). After it: an array with more than an eighth
 * of its room unused is moved into a block of its exact size, so that the tree's memory is what
 * it holds, not the last doubling. Neither is needed for a correct build: a failed allocation
 * leaves the array as it was. */
static void sc_w_reserve(sc_world *w, int n)
{
    int nodes = n / 9 + 1, groups = n <= SC_FILL_MAX ? n / 2 + n / 16 + 1 : n / 3 + n / 32 + 1;
    if (w->capnodes < nodes) sc_w_resize_array(w, (void **)&w->nodes, &w->nodes_raw, &w->capnodes, 0, nodes, sizeof(sc_node));
    if (w->capgroups < groups)
        sc_w_resize_array(w, (void **)&w->groups, &w->groups_raw, &w->capgroups, 0, groups, sizeof(sc_group));
}
static void sc_w_trim(sc_world *w)
{
    if (w->nnodes > 0 && w->capnodes - w->nnodes > w->nnodes / 8)
        sc_w_resize_array(w, (void **)&w->nodes, &w->nodes_raw, &w->capnodes, w->nnodes, w->nnodes, sizeof(sc_node));
    if (w->ngroups > 0 && w->capgroups - w->ngroups > w->ngroups / 8)
        sc_w_resize_array(w, (void **)&w->groups, &w->groups_raw, &w->capgroups, w->ngroups, w->ngroups, sizeof(sc_group));
}

sc_status sc_world_build(sc_world *w)
{
    if (!w) return SC_ERR_NULL;
    /* The build records and the far list hold at most count entries; nothing is changed
     * until both fit. */
    if (w->count > w->scratch_cap) {
        sc_bprim *p = sc__mem_alloc(&w->mem, (size_t)w->count * sizeof *p);
        if (!p) return SC_ERR_NO_MEMORY;
        sc__mem_free(&w->mem, w->scratch, (size_t)w->scratch_cap * sizeof *p);
        w->scratch = p;
        w->scratch_cap = w->count;
    }
    if (w->count > w->capfar) {
        int32_t *f = sc__mem_alloc(&w->mem, (size_t)w->count * sizeof *f);
        if (!f) return SC_ERR_NO_MEMORY;
        sc__mem_free(&w->mem, w->far_list, (size_t)w->capfar * sizeof *f);
        w->far_list = f;
        w->capfar = w->count;
    }
    w->nfar = 0;
    int n = 0;
    for (int i = 0; i < w->count; ++i) {
        w->obj_ref[i] = -1;
        if (w->kind[i] & SC_KIND_REMOVED) continue; /* in neither the BVH nor the far list */
        if (w->far[i]) {
            w->far_list[w->nfar++] = i;
            continue;
        }
        sc_bprim *q = &w->scratch[n++];
        const sc_aabb *b = &w->bounds[i];
        q->lo[0] = b->min.x; q->lo[1] = b->min.y; q->lo[2] = b->min.z;
        q->hi[0] = b->max.x; q->hi[1] = b->max.y; q->hi[2] = b->max.z;
        int32_t id = i;
        memcpy(&q->lo[3], &id, sizeof id);
        q->hi[3] = 0.0f;
    }
    w->nnodes = 0;
    w->ngroups = 0;
    w->root = SC_NO_CHILD;
    sc_w_reserve(w, n);
    int oom = 0;
    if (n > 0) w->root = sc_w_build_rec(w, w->scratch, n, sc_w_range_bounds(w->scratch, n), 0, n <= SC_FILL_MAX, &oom);
    if (oom) {
        w->root = SC_NO_CHILD;
        w->built = 0;
        return SC_ERR_NO_MEMORY;
    }
    sc_w_trim(w);
    w->built = 1;
    w->dirty = 0;
    w->loose = 0;
    return SC_OK;
}

void sc__bvh_child_bounds(const sc_world *w, int32_t c, sc_bounds *b)
{
    sc_b_empty(b);
    if (c == SC_NO_CHILD) return;
    if (c < 0) {
        const sc_group *g = &w->groups[~c];
        for (int l = 0; l < 4; ++l) {
            for (int a = 0; a < 3; ++a) {
                if (g->lo[a][l] < b->lo[a]) b->lo[a] = g->lo[a][l];
                if (g->hi[a][l] > b->hi[a]) b->hi[a] = g->hi[a][l];
            }
        }
        return;
    }
    const sc_node *nd = &w->nodes[c];
    for (int l = 0; l < SC_NODE_W; ++l) {
        for (int a = 0; a < 3; ++a) {
            if (nd->bmin[a][l] < b->lo[a]) b->lo[a] = nd->bmin[a][l];
            if (nd->bmax[a][l] > b->hi[a]) b->hi[a] = nd->bmax[a][l];
        }
    }
}

sc_status sc_world_refit(sc_world *w)
{
    if (!w) return SC_ERR_NULL;
    if (!w->built) return sc_world_build(w);
    for (int g = 0; g < w->ngroups; ++g) sc_w_group_fill(w, g);
    for (int i = w->nnodes - 1; i >= 0; --i) {
        sc_node *nd = &w->nodes[i];
        for (int l = 0; l < SC_NODE_W; ++l) {
            sc_bounds b;
            sc__bvh_child_bounds(w, nd->child[l], &b);
            for (int a = 0; a < 3; ++a) {
                nd->bmin[a][l] = b.lo[a];
                nd->bmax[a][l] = b.hi[a];
            }
        }
    }
    w->dirty = 0;
    w->loose = 0;
    return SC_OK;
}

sc_status sc_world_commit(sc_world *w)
{
    if (!w) return SC_ERR_NULL;
    if (!w->built) return sc_world_build(w);
    if (w->dirty || w->loose) return sc_world_refit(w);
    return SC_OK;
}
