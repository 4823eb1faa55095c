/* slabcast worlds: the nearest object to a point. Per point, among the allowed objects within
 * max_distance: the one nearest (ties to the lowest index), the distance from the point to its
 * closed solid (0 inside) and the closest point on it (the point itself inside), from the single
 * query sc_closest_point. docs/semantics.md, "Nearest objects". The BVH walk (sc__walk) is pruned
 * by the distance to each node's bounds. */
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

/* One point's query: the world, the filter, the point, the nearest so far. */
typedef struct sc_nq {
    const sc_world *w;
    const sc_wfilt *f;
    int32_t exclude;
    sc_vec3 p;
    double pd[3];
    sc_near best;
} sc_nq;

static void sc_n_offer(void *ctx, int o)
{
    sc_nq *q = ctx;
    if (!sc__passes(q->w, o, q->f->mask, q->f->masked, q->exclude)) return;
    sc_shape sh = sc__object_shape(q->w, o);
    sc_point_result r = sc_closest_point(q->p, &sh);
    if (r.status != SC_OK) return;
    double d[3] = {q->pd[0] - r.point.x, q->pd[1] - r.point.y, q->pd[2] - r.point.z};
    double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (d2 > q->best.d2) return;
    if (q->best.index >= 0 && (d2 > q->best.d2 || (d2 == q->best.d2 && o > q->best.index))) return;
    q->best.index = o;
    q->best.d2 = d2;
    q->best.q = r.point;
}

/* Bounds that may hold something nearer than the nearest so far: compared with a margin of
 * 2^-20 relative, so that rounding never prunes the nearest. */
static int sc_n_cull(void *ctx, const float *lo, const float *hi, int l)
{
    const sc_nq *q = ctx;
    return sc_n_box_d2(q->pd, lo, hi, l) <= q->best.d2 * (1.0 + 1.9073486328125e-06) + 1e-300;
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
            sc_walker k = {sc_n_cull, sc_n_offer, NULL, &q};
            sc__walk(w, &k);
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
