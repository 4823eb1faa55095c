/* slabcast worlds: the nearest object to a point. Per point, among the allowed objects within
 * max_distance: the one nearest (ties to the lowest index), the distance from the point to its
 * closed solid (0 inside) and the closest point on it (the point itself inside), from the single
 * query sc_closest_point. docs/semantics.md, "Nearest objects". The BVH walk (sc_n_walk) goes
 * nearest first and is pruned by the distance to each node's bounds. */
#include "sc_kernels.h"

#include <float.h>
#include <math.h>
#include <string.h>

typedef struct sc_near {
    int index;
    double d2;
    sc_vec3 q;
} sc_near;

/* min(max(v, lo), hi) as sc_closest_point's clamp (a > b ? a : b, a < b ? a : b). */
static float sc_n_clamp(float v, float lo, float hi)
{
    float m = v > lo ? v : lo;
    return m < hi ? m : hi;
}

/* One point's query: the world, the filter, the point, the nearest so far. */
typedef struct sc_nq {
    const sc_world *w;
    const sc_wfilt *f;
    int32_t exclude;
    sc_vec3 p;
    double pd[3];
    sc_near best;
} sc_nq;

static void sc_n_offer(sc_nq *q, int o)
{
    if (!sc__passes(q->w, o, q->f->mask, q->f->masked, q->exclude)) return;
    sc_point_result r;
    if (q->w->kind[o] == SC_SHAPE_AABB) {
        /* sc_closest_point's answer for a box (valid, as every world box; the point too): the
         * point clamped to it, -0 made +0 (inside, the point itself, which clamping leaves) */
        const sc_aabb *b = &q->w->bounds[o];
        r.status = SC_OK;
        r.point = (sc_vec3){sc_n_clamp(q->p.x, b->min.x, b->max.x) + 0.0f, sc_n_clamp(q->p.y, b->min.y, b->max.y) + 0.0f,
                            sc_n_clamp(q->p.z, b->min.z, b->max.z) + 0.0f};
    } else {
        sc_shape sh = sc__object_shape(q->w, o);
        r = sc_closest_point(q->p, &sh);
        if (r.status != SC_OK) return;
    }
    double d[3] = {q->pd[0] - r.point.x, q->pd[1] - r.point.y, q->pd[2] - r.point.z};
    double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (d2 > q->best.d2) return;
    if (q->best.index >= 0 && (d2 > q->best.d2 || (d2 == q->best.d2 && o > q->best.index))) return;
    q->best.index = o;
    q->best.d2 = d2;
    q->best.q = r.point;
}

/* The float bound past which a BVH bound cannot hold the nearest object (a box whose squared
 * distance sc_n_d2 computes above it is pruned), from the best squared distance so far, d2. The
 * double test keeps a box of squared distance e2 (computed in double) when e2 <= d2 (1 + 2^-20) +
 * 1e-300, a margin that rounding never crosses; in float, sc_n_d2 is at most e2 (1 + 7 2^-24) +
 * 2^-147 (relative 2^-24 per rounding, and at most 2^-150 each where a product or sum is
 * subnormal, less where it underflows to 0; an overflow to +inf needs a distance whose bound
 * here is past FLT_MAX too, which rounds up to +inf and prunes nothing). The bound is that keep
 * limit grown by 2^-21 and 2^-140, rounded up to a float: every box the double test keeps is
 * kept. */
static float sc_n_cut(double d2)
{
    double x = (d2 * (1.0 + 1.9073486328125e-06) + 1e-300) * (1.0 + 4.76837158203125e-07) + 0x1p-140;
    float f = (float)x;
    if ((double)f < x) f = nextafterf(f, INFINITY);
    return f;
}

/* The squared distances from the point (splats p[0..2]) to four boxes, in float: SoA bounds at
 * base of the given width (minima [axis][width], then maxima). Scalar, per lane: the sum over the
 * axes, in order, of e * e, e = max(0, lo - p, p - hi) (an empty lane's inverted bounds give
 * +inf). */
static inline f4 sc_n_d2(const float *base, int width, const f4 *p)
{
    const f4 zero = f4_splat(0.0f);
    f4 s = zero;
    for (int a = 0; a < 3; ++a) {
        f4 e = f4_max(f4_max(zero, f4_sub(f4_load(base + a * width), p[a])), f4_sub(p[a], f4_load(base + 3 * width + a * width)));
        s = f4_add(s, f4_mul(e, e));
    }
    return s;
}

/* A stacked subtree and its box's squared distance (float). */
typedef struct sc_nentry {
    int32_t ref;
    float d2;
} sc_nentry;

/* The lanes of bits in ascending distance (ties by lane) into order; returns how many. */
static int sc_n_order(unsigned bits, const float *d2, int *order)
{
    int m = 0;
    for (; bits; bits &= bits - 1) {
        int l = sc_w_ctz(bits), i = m++;
        while (i > 0 && d2[order[i - 1]] > d2[l]) {
            order[i] = order[i - 1];
            --i;
        }
        order[i] = l;
    }
    return m;
}

/* The objects of group g nearer than the cut, nearest first (each checked again against the cut
 * as the best improves). */
static void sc_n_group(sc_nq *q, const sc_group *g, const f4 *p, float *cut)
{
    _Alignas(16) float d2[4];
    f4_store(d2, sc_n_d2(&g->lo[0][0], 4, p));
    unsigned bits = (unsigned)g->live & (unsigned)f4_bits(f4_le(f4_load(d2), f4_splat(*cut)));
    if (!bits) return;
    int order[4], m = sc_n_order(bits, d2, order);
    for (int i = 0; i < m; ++i) {
        if (d2[order[i]] > *cut) break; /* the rest are farther still */
        int o = g->idx[order[i]];
        double before = q->best.d2;
        sc_n_offer(q, o);
        if (q->best.d2 != before) *cut = sc_n_cut(q->best.d2);
    }
}

/* One point through the BVH, nearest first: the nearest child's subtree next, the others
 * stacked with their distance and dropped when popped once the best is nearer (by the cut). The
 * answer is the same as offering every object: only boxes that cannot hold the nearest (ties
 * included) are pruned. Returns 0 when the stack would overflow (then nothing is lost: the caller
 * offers every object, which leaves the nearest the same). */
static int sc_n_walk(sc_nq *q)
{
    const sc_world *w = q->w;
    f4 p[3] = {f4_splat(q->p.x), f4_splat(q->p.y), f4_splat(q->p.z)};
    float cut = sc_n_cut(q->best.d2);
    sc_nentry stack[SC_STACK];
    int sp = 0;
    int32_t cur = w->root;
    _Alignas(16) float d2[SC_NODE_W];
    for (;;) {
        while (cur >= 0) {
            const sc_node *nd = &w->nodes[cur];
            const float *base = &nd->bmin[0][0];
            f4 vcut = f4_splat(cut);
            unsigned bits = 0;
            for (int h = 0; h < SC_NODE_W; h += 4) {
                f4 d = sc_n_d2(base + h, SC_NODE_W, p);
                f4_store(d2 + h, d);
                bits |= (unsigned)f4_bits(f4_le(d, vcut)) << h;
            }
            bits &= (unsigned)nd->valid;
            if (!bits) goto pop;
            int order[SC_NODE_W], m = sc_n_order(bits, d2, order);
            if (sp + m - 1 > SC_STACK) return 0;
            for (int i = m - 1; i > 0; --i) stack[sp++] = (sc_nentry){nd->child[order[i]], d2[order[i]]};
            cur = nd->child[order[0]];
        }
        sc_n_group(q, &w->groups[~cur], p, &cut);
    pop:
        for (;;) {
            if (sp == 0) return 1;
            --sp;
            if (stack[sp].d2 <= cut) break;
        }
        cur = stack[sp].ref;
    }
}

sc_status sc__nearest_batch(const sc_world *w, const float *points, int32_t n, float max_distance, int32_t *index,
                            float *distance, float *point, const sc_wfilt *f, int brute)
{
    double md = max_distance;
    for (int i = 0; i < n; ++i) {
        sc_vec3 p = {points[3 * i], points[3 * i + 1], points[3 * i + 2]};
        sc_nq q = {w, f, f->exclude ? f->exclude[i] : -1, p, {p.x, p.y, p.z}, {-1, md * md, {0, 0, 0}}};
        if (brute) {
            for (int o = 0; o < w->count; ++o) sc_n_offer(&q, o);
        } else {
            for (int k = 0; k < w->nfar; ++k) sc_n_offer(&q, w->far_list[k]);
            if (w->root != SC_NO_CHILD && !sc_n_walk(&q))
                for (int o = 0; o < w->count; ++o) sc_n_offer(&q, o);
        }
        const sc_near best = q.best;
        index[i] = best.index;
        if (distance) distance[i] = best.index >= 0 ? (float)sqrt(best.d2) : INFINITY;
        if (point) {
            point[3 * i] = best.index >= 0 ? best.q.x : 0.0f;
            point[3 * i + 1] = best.index >= 0 ? best.q.y : 0.0f;
            point[3 * i + 2] = best.index >= 0 ? best.q.z : 0.0f;
        }
    }
    return SC_OK;
}
