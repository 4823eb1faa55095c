/* slabcast worlds: one sweep through the BVH.
 *
 * The traversal of sc__cast (sc_traverse.c) for a moving shape: children culled four at once in
 * float (sc_simd.h), the nearest child first, the others stacked with their entry t and dropped
 * when popped once the best contact comes before them. Only the culling changes how many objects
 * are tested: every object is tested by the same double-precision leaf tests (sc_sweep.c,
 * sc_sweep_capsule.c) and the best contact is the smallest (t, index), so the answer is the one
 * of any culling that keeps every object holding it.
 *
 * The culling keeps at least every node sc_s_cull (sc_sweep.c, the double test of the generic
 * walk) keeps: a node of bounds [lo, hi] is kept there when the centre's path o + t d (t in
 * [0, limit]) meets the box grown by g = ext + 2^-20 (|lo| + |hi| + ext + 1) per axis, up to the
 * double rounding of that test (relative, below 2^-51 of each slab parameter). Here the box is
 * grown in float by
 *     m = fl(fl(|lo| + |hi|) 2^-19 + C),  C = ext (1 + 2^-18) + 2^-19 (1 + |o|), rounded up to a float,
 * and the path starts from o rounded to the float of, o_f (|o - o_f| <= 2^-24 |o|). With the
 * float roundings (each relative, below 2^-24), fl(lo - m) <= lo - g - |o - o_f| - 2^-21 (|lo| +
 * |hi| + |o| + ext) and fl(hi + m) the mirror image: the float box holds the double one with a
 * margin that is at least 2^-21 of every |bound - o| that test divides, far above its rounding.
 * The float slab test of o_f + t d against that box is sc_w_cull4's (the reciprocal shrunk for
 * entries and grown for exits by 2^-20, signs exact, NaN axes ignored), which never rejects a box
 * its exact test keeps; the limit is the best contact's t (or tmax) rounded up to a float.
 * Coordinates and reaches below 2^80 keep every product finite (|d| >= 2^-40 on culling axes);
 * other sweeps take the generic walk. */
#include "sc_sweep.h"
#include "sc_kernels.h"

#include <float.h>
#include <math.h>

/* What the culling needs of a sweep, per axis: the splats of o_f, of the culling reciprocals, of
 * the growth constants signed by the direction (2^-19 s and C s, s = -1 when the reciprocal is
 * negative, else 1: the near bound moves by -m s, the far one by +m s), and the float offsets of
 * the near and far bound in a group (width 4) and in a node (width SC_NODE_W): sc_w_cull_offsets. */
typedef struct sc_swc {
    f4 vo[3], vnear[3], vfar[3], vk[3], vc[3];
    int gnoff[3], gfoff[3], noff[3], foff[3];
} sc_swc;

/* x rounded up to a float (x >= 0, finite, below FLT_MAX). */
static float sc_sw_up(double x)
{
    float f = (float)x;
    return (double)f < x ? nextafterf(f, INFINITY) : f;
}

/* The culling data of m; 0 when m is outside the fast path's range. */
static int sc_sw_prep(const sc_mover *m, sc_swc *c)
{
    int oct = 0;
    for (int a = 0; a < 3; ++a) {
        double o = m->o[a], ext = m->ext[a];
        if (!(fabs(o) < 0x1p80 && ext < 0x1p80)) return 0;
        float d = (float)m->d[a]; /* the input's float */
        float inv = 1.0f / d, ad = fabsf(d);
        if (d != 0.0f && (ad < SC_TINY_DIR || ad >= SC_HUGE_DIR)) inv = NAN;
        int neg = signbit(inv) != 0;
        float s = neg ? -1.0f : 1.0f;
        c->vnear[a] = f4_splat(inv * SC_SHRINK);
        c->vfar[a] = f4_splat(inv * SC_GROW);
        c->vo[a] = f4_splat((float)o);
        c->vk[a] = f4_splat(0x1p-19f * s);
        c->vc[a] = f4_splat(sc_sw_up(ext * (1.0 + 0x1p-18) + 0x1p-19 * (1.0 + fabs(o))) * s);
        oct |= neg << a;
    }
    sc_w_cull_offsets(oct, 4, c->gnoff, c->gfoff);
    sc_w_cull_offsets(oct, SC_NODE_W, c->noff, c->foff);
    return 1;
}

/* Four boxes (base: SoA minima then maxima, the near and far bound of axis a at noff[a] and
 * foff[a]) against the sweep: the lanes whose grown box the path may meet with t_enter <= limit;
 * max(t_enter, 0) per lane in tn_out. */
static inline unsigned sc_sw_cull4(const float *base, const int *noff, const int *foff, const sc_swc *c, float limit,
                                   float *tn_out)
{
    limit = limit < FLT_MAX ? limit : FLT_MAX;
    f4 tn = f4_splat(0.0f), tf = f4_splat(limit);
    for (int a = 0; a < 3; ++a) {
        f4 nb = f4_load(base + noff[a]), fb = f4_load(base + foff[a]);
        /* scalar: m s = (|lo| + |hi|) 2^-19 s + C s; the near bound less m s, the far one plus m s
         * (the grown box [lo - m, hi + m]) */
        f4 ms = f4_add(f4_mul(f4_add(f4_abs(nb), f4_abs(fb)), c->vk[a]), c->vc[a]);
        /* scalar: near = (near_bound - m s - o) * inv_near; far = (far_bound + m s - o) * inv_far */
        f4 n = f4_mul(f4_sub(f4_sub(nb, ms), c->vo[a]), c->vnear[a]);
        f4 f = f4_mul(f4_sub(f4_add(fb, ms), c->vo[a]), c->vfar[a]);
        /* scalar: tn = max(tn, near); tf = min(tf, far), NaN terms ignored */
        tn = f4_max(tn, n);
        tf = f4_min(tf, f);
    }
    f4_store(tn_out, tn);
    return (unsigned)f4_bits(f4_le(tn, tf));
}

/* A node's SC_NODE_W children against the sweep (sc_sw_cull4 on each 4-lane half). */
static inline unsigned sc_sw_cull_node(const sc_node *nd, const sc_swc *c, float limit, float *tn_out)
{
    unsigned bits = 0;
    for (int h = 0; h < SC_NODE_W; h += 4) bits |= sc_sw_cull4(&nd->bmin[0][h], c->noff, c->foff, c, limit, tn_out + h) << h;
    return bits;
}

/* The culling limit: the best contact's t, or tmax, rounded up to a float. */
static float sc_sw_limit(const sc_sq *q)
{
    double t = q->best.index >= 0 && q->best.t < q->m->tmax ? q->best.t : q->m->tmax;
    return t < FLT_MAX ? sc_sw_up(t) : INFINITY;
}

typedef struct sc_swentry { int32_t ref; float t; } sc_swentry;

/* Pushes the lanes of bits but the nearest (far to near) and returns the nearest's child; -1
 * when the stack is full. */
static int sc_sw_push(const sc_node *nd, unsigned bits, const float *tn, sc_swentry *stack, int *sp, int32_t *next)
{
    int order[SC_NODE_W], m = 0;
    while (bits) {
        int l = sc_w_ctz(bits);
        bits &= bits - 1;
        int j = m++;
        while (j > 0 && tn[order[j - 1]] < tn[l]) { order[j] = order[j - 1]; --j; }
        order[j] = l;
    }
    if (*sp + m - 1 > SC_STACK) return -1;
    for (int j = 0; j < m - 1; ++j) {
        stack[*sp].ref = nd->child[order[j]];
        stack[*sp].t = tn[order[j]];
        ++*sp;
    }
    *next = nd->child[order[m - 1]];
    return 0;
}

int sc__sw_walk(sc_sq *q)
{
    const sc_world *w = q->w;
    sc_swc c;
    if (!sc_sw_prep(q->m, &c)) return 0;
    for (int i = 0; i < w->nfar; ++i) sc__sw_offer(q, w->far_list[i]);
    if (w->root == SC_NO_CHILD) return 1;
    sc_swentry stack[SC_STACK];
    int sp = 0;
    int32_t cur = w->root;
    float limit = sc_sw_limit(q);
    _Alignas(16) float tn[SC_NODE_W];
    for (;;) {
        while (cur >= 0) {
            const sc_node *nd = &w->nodes[cur];
            unsigned bits = sc_sw_cull_node(nd, &c, limit, tn) & (unsigned)nd->valid;
            if (!bits) goto pop;
            if (!(bits & (bits - 1))) {
                cur = nd->child[sc_w_ctz(bits)];
                continue;
            }
            if (sc_sw_push(nd, bits, tn, stack, &sp, &cur)) goto full;
        }
        {
            const sc_group *g = &w->groups[~cur];
            unsigned bits = sc_sw_cull4(&g->lo[0][0], c.gnoff, c.gfoff, &c, limit, tn) & (unsigned)g->live;
            for (; bits; bits &= bits - 1) {
                int l = sc_w_ctz(bits);
                if (tn[l] > limit) continue; /* entered after a contact found in this group */
                int before = q->best.index;
                double bt = q->best.t;
                sc__sw_offer(q, g->idx[l]);
                if (q->best.index != before || q->best.t != bt) limit = sc_sw_limit(q);
            }
        }
    pop:
        do {
            if (sp == 0) return 1;
            --sp;
        } while (stack[sp].t > limit);
        cur = stack[sp].ref;
    }
full:
    /* Deeper than the stack (impossible at the default SC_STACK): every object, none dropped
     * (those offered already are offered again, which changes nothing). */
    for (int o = 0; o < w->count; ++o) sc__sw_offer(q, o);
    return 1;
}
