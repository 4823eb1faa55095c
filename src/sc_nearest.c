/* slabcast worlds: the nearest object to a point. Per point, among the allowed objects within
 * max_distance: the one nearest (ties to the lowest index), the distance from the point to its
 * closed solid (0 inside) and the closest point on it (the point itself inside), from the single
 * query sc_closest_point. docs/semantics.md, "Nearest objects". The BVH is walked nearest bound
 * first... in stack order, pruned by the distance to each node's bounds. */
#include "sc_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

typedef struct sc_near {
    int index;
    double d2;
    sc_vec3 q;
} sc_near;

/* The squared distance from p to lane l of SoA bounds (lo, hi: [axis][4]). */
static double sc_n_box_d2(const double *p, const float *lo, const float *hi, int l)
{
    double s = 0.0;
    for (int a = 0; a < 3; ++a) {
        double b0 = lo[a * 4 + l], b1 = hi[a * 4 + l];
        double e = p[a] < b0 ? b0 - p[a] : (p[a] > b1 ? p[a] - b1 : 0.0);
        s += e * e;
    }
    return s;
}

static void sc_n_offer(const sc_world *w, const sc_wfilt *f, int32_t exclude, sc_vec3 p, int o, sc_near *best)
{
    if (!w->enabled[o]) return;
    if (f->masked && (w->mask[o] & f->mask) == 0) return;
    if (o == exclude) return;
    sc_shape sh;
    memset(&sh, 0, sizeof sh);
    sh.type = (sc_shape_type)w->kind[o];
    if (w->kind[o] == SC_SHAPE_AABB) sh.u.aabb = w->bounds[o];
    else if (w->kind[o] == SC_SHAPE_OBB) sh.u.obb = w->obbs[w->slot[o]];
    else sh.u.sphere = w->spheres[w->slot[o]];
    sc_point_result r = sc_closest_point(p, &sh);
    if (r.status != SC_OK) return;
    double d[3] = {(double)p.x - r.point.x, (double)p.y - r.point.y, (double)p.z - r.point.z};
    double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (d2 > best->d2) return;
    if (best->index >= 0 && (d2 > best->d2 || (d2 == best->d2 && o > best->index))) return;
    best->index = o;
    best->d2 = d2;
    best->q = r.point;
}

static void sc_n_find(const sc_world *w, const sc_wfilt *f, int32_t exclude, sc_vec3 p, sc_near *best)
{
    double pd[3] = {p.x, p.y, p.z};
    for (int i = 0; i < w->nfar; ++i) sc_n_offer(w, f, exclude, p, w->far_list[i], best);
    if (w->root == SC_NO_CHILD) return;
    int32_t stack[SC_STACK];
    int sp = 0;
    stack[sp++] = w->root;
    while (sp > 0) {
        int32_t cur = stack[--sp];
        /* bounds are compared with a margin of 2^-20 relative: rounding never prunes the nearest */
        double limit = best->d2 * (1.0 + 1.9073486328125e-06) + 1e-300;
        if (cur < 0) {
            const sc_group *g = &w->groups[~cur];
            for (int l = 0; l < 4; ++l)
                if (g->idx[l] >= 0 && (g->live >> l & 1) && sc_n_box_d2(pd, &g->lo[0][0], &g->hi[0][0], l) <= limit)
                    sc_n_offer(w, f, exclude, p, g->idx[l], best);
            continue;
        }
        const sc_node4 *nd = &w->nodes[cur];
        for (int l = 0; l < 4; ++l) {
            if (!(nd->valid >> l & 1) || sc_n_box_d2(pd, &nd->bmin[0][0], &nd->bmax[0][0], l) > limit) continue;
            if (sp == SC_STACK) {
                for (int o = 0; o < w->count; ++o) sc_n_offer(w, f, exclude, p, o, best);
                return;
            }
            stack[sp++] = nd->child[l];
        }
    }
}

sc_status sc__nearest_batch(const sc_world *w, const float *points, int32_t n, float max_distance, int32_t *index,
                            float *distance, float *point, const sc_wfilt *f, int brute)
{
    double md = max_distance;
    for (int i = 0; i < n; ++i) {
        sc_vec3 p = {points[3 * i], points[3 * i + 1], points[3 * i + 2]};
        sc_near best = {-1, md * md, {0, 0, 0}};
        int32_t ex = f->exclude ? f->exclude[i] : -1;
        if (brute)
            for (int o = 0; o < w->count; ++o) sc_n_offer(w, f, ex, p, o, &best);
        else
            sc_n_find(w, f, ex, p, &best);
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
