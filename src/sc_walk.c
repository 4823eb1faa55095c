/* slabcast worlds: the BVH walk of the queries other than rays (overlaps, and the sweeps that the
 * fast sweep walk of sc_sweep_walk.c cannot take). Nothing is pruned by an answer found so far
 * unless the walker's cull reads it, so the order of the walk does not matter: depth first, a
 * node's children culled together (sc_walker, sc_internal.h). Nearest objects walk nearest first
 * on their own (sc_nearest.c). */
#include "sc_kernels.h"

/* The lanes (bits) of four boxes that meet the closed box q, from SoA bounds at base of the
 * given width (minima [axis][width], then maxima): q holds splats of the box's minima (q[0..2])
 * and maxima (q[3..5]). Scalar, per lane: lo[a] <= q_max[a] && hi[a] >= q_min[a] on every axis
 * (float compares, exact; an empty lane's inverted bounds, +inf / -inf, never meet). */
static inline unsigned sc_k_box4(const float *base, int width, const f4 *q)
{
    const float *hi = base + 3 * width;
    f4 in = f4_and(f4_le(f4_load(base), q[3]), f4_ge(f4_load(hi), q[0]));
    in = f4_and(in, f4_and(f4_le(f4_load(base + width), q[4]), f4_ge(f4_load(hi + width), q[1])));
    in = f4_and(in, f4_and(f4_le(f4_load(base + 2 * width), q[5]), f4_ge(f4_load(hi + 2 * width), q[2])));
    return (unsigned)f4_bits(in);
}

/* sc_k_box4 on a node's SC_NODE_W children. */
static inline unsigned sc_k_box_node(const sc_node *nd, const f4 *q)
{
    const float *base = &nd->bmin[0][0];
#if SC_NODE_W == 8
    return sc_k_box4(base, SC_NODE_W, q) | sc_k_box4(base + 4, SC_NODE_W, q) << 4;
#else
    return sc_k_box4(base, SC_NODE_W, q);
#endif
}

/* The walk; boxed: cull by k->box (a constant at each call, so the compiler makes two loops). */
static inline void sc_walk_run(const sc_world *w, const sc_walker *k, int boxed)
{
    f4 q[6];
    if (boxed)
        for (int i = 0; i < 6; ++i) q[i] = f4_splat(k->box[i]);
    for (int i = 0; i < w->nfar; ++i) k->offer(k->ctx, w->far_list[i]);
    if (w->root == SC_NO_CHILD) return;
    int32_t stack[SC_STACK];
    int sp = 0;
    stack[sp++] = w->root;
    while (sp > 0) {
        int32_t cur = stack[--sp];
        if (cur < 0) {
            const sc_group *g = &w->groups[~cur];
            unsigned lanes = (unsigned)g->live;
            if (!lanes) continue;
            lanes &= boxed ? sc_k_box4(&g->lo[0][0], 4, q) : k->cull(k->ctx, &g->lo[0][0], 4, lanes);
            for (; lanes; lanes &= lanes - 1) k->offer(k->ctx, g->idx[sc_w_ctz(lanes)]);
            continue;
        }
        const sc_node *nd = &w->nodes[cur];
        unsigned lanes = (unsigned)nd->valid;
        lanes &= boxed ? sc_k_box_node(nd, q) : k->cull(k->ctx, &nd->bmin[0][0], SC_NODE_W, lanes);
        if (lanes && sp + SC_NODE_W > SC_STACK) {
            int m = 0;
            for (unsigned b = lanes; b; b &= b - 1) ++m;
            if (sp + m > SC_STACK) {
                /* deeper than the stack (see sc_internal.h): every object, none dropped */
                if (k->restart) k->restart(k->ctx);
                for (int o = 0; o < w->count; ++o) k->offer(k->ctx, o);
                return;
            }
        }
        for (int l = SC_NODE_W - 1; l >= 0; --l)
            if (lanes >> l & 1u) stack[sp++] = nd->child[l];
    }
}

void sc__walk(const sc_world *w, const sc_walker *k)
{
    if (k->box) sc_walk_run(w, k, 1);
    else sc_walk_run(w, k, 0);
}
