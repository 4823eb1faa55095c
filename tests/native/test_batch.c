/* The batch path of sc_world_cast_rays and sc_world_any_hit (src/sc_query.c) and the world's
 * AABB leaf test (sc_w_leaf_aabb4), against independent answers:
 *   - a refused ray anywhere in a batch: the status sc_ray_check gives that ray alone (and the
 *     value the contract names for its fault), its index in the scratch, nothing written;
 *   - batches of every size around the ordering's thresholds (the scratch's minimum, each grid
 *     size of the sort keys), rays whose sort keys collide, origins at +-FLT_MAX and beyond
 *     2^80, a world large enough for the records path (natively): the same answers ordered (with
 *     a scratch), in input order (without), by the brute force and by the single query
 *     sc_raycast_aabb on every box (the lowest t, then index);
 *   - the scratch takes no more memory per ray than before (64 bytes);
 *   - every lane of the AABB leaf test on each of its rules (decided hits and misses, near ties,
 *     tiny quotients, overflowing ones), against the single query on each box; its fast path
 *     (sc_w_leaf_fast4) at its margins.
 * Usage: slabcast_batch_tests [NAME-SUBSTRING] */
#include "slabcast.h"
#include "sc_internal.h" /* clustered_large_tree: the tree's node widths */

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static uint32_t g_rng = 0x9E3779B9u;
static uint32_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 17;
    g_rng ^= g_rng << 5;
    return g_rng;
}
/* uniform in [lo, hi) */
static float rndf(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() >> 8) * (1.0f / 16777216.0f); }

static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* n random boxes in [0, side)^3, sizes 0..2 (some flat: a zero extent on one axis). */
static void random_boxes(float *b, int n, float side)
{
    for (int i = 0; i < n; ++i) {
        for (int a = 0; a < 3; ++a) {
            float c = rndf(0.0f, side), h = rndf(0.0f, 1.0f);
            if (rnd() % 16 == 0) h = 0.0f;
            b[6 * i + a] = c - h;
            b[6 * i + 3 + a] = c + h;
        }
    }
}

/* n random rays from [-1, side + 1)^3; some directions with zero (or -0) components, some from
 * box corners and along box faces (grazing), some with a finite tmax. */
static void random_rays(float *r, int n, float side, const float *boxes, int nboxes)
{
    for (int i = 0; i < n; ++i) {
        float *p = r + 7 * (size_t)i;
        for (int a = 0; a < 3; ++a) {
            p[a] = rndf(-1.0f, side + 1.0f);
            p[3 + a] = rndf(-1.0f, 1.0f);
        }
        uint32_t k = rnd() % 8;
        if (k == 0) p[3 + rnd() % 3] = rnd() % 2 ? 0.0f : -0.0f;
        if (k == 1 && nboxes > 0) {
            /* from a corner of a box, toward another box's corner */
            const float *b = boxes + 6 * (size_t)(rnd() % (uint32_t)nboxes), *c = boxes + 6 * (size_t)(rnd() % (uint32_t)nboxes);
            for (int a = 0; a < 3; ++a) {
                p[a] = b[a + 3 * (int)(rnd() % 2)];
                p[3 + a] = c[a + 3 * (int)(rnd() % 2)] - p[a];
            }
        }
        if (k == 2 && nboxes > 0) {
            /* in the plane of a box face, moving within it */
            const float *b = boxes + 6 * (size_t)(rnd() % (uint32_t)nboxes);
            int a = (int)(rnd() % 3);
            p[a] = b[a + 3 * (int)(rnd() % 2)];
            p[3 + a] = 0.0f;
        }
        if (p[3] == 0.0f && p[4] == 0.0f && p[5] == 0.0f) p[3] = 1.0f;
        p[6] = rnd() % 4 == 0 ? rndf(0.0f, side) : INFINITY;
    }
}

/* The nearest hit of ray p among the boxes by the single query on each (the lowest t, then the
 * lowest index): index, t and normal as sc_world_cast_rays reports them. */
static int single_nearest(const float *p, const float *boxes, int nboxes, float *t, float nrm[3])
{
    sc_ray ray = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, p[6]};
    int best = -1;
    float bt = 0.0f;
    sc_vec3 bn = {0, 0, 0};
    for (int o = 0; o < nboxes; ++o) {
        const float *b = boxes + 6 * (size_t)o;
        sc_aabb box = {{b[0], b[1], b[2]}, {b[3], b[4], b[5]}};
        sc_raycast_result h = sc_raycast_aabb(&ray, &box);
        if (h.status != SC_OK || !h.hit) continue;
        if (best < 0 || h.t < bt) {
            best = o;
            bt = h.t;
            bn = h.normal;
        }
    }
    *t = best >= 0 ? bt + 0.0f : 0.0f;
    nrm[0] = bn.x + 0.0f;
    nrm[1] = bn.y + 0.0f;
    nrm[2] = bn.z + 0.0f;
    return best;
}

/* A world of the boxes, committed. */
static sc_world *box_world(const float *boxes, int n)
{
    sc_world *w = sc_world_create();
    if (!w) return NULL;
    if (n > 0 && sc_world_add_aabbs(w, boxes, n, NULL) != SC_OK) return NULL;
    if (sc_world_build(w) != SC_OK) return NULL;
    return w;
}

/* The rays through the world ordered (scratch), in input order (no scratch) and by the brute
 * force: bit-identical nearest hits and any-hits; every check_single-th ray (0: none) also
 * against the single query on every box. */
static int check_batch(const sc_world *w, const float *rays, int n, const float *boxes, int nboxes, int check_single)
{
    sc_scratch *s = sc_scratch_create();
    ENSURE(s && sc_scratch_reserve(s, n) == SC_OK);
    float *t = malloc(sizeof(float) * 3 * (size_t)(n + 1)), *nr = malloc(sizeof(float) * 9 * (size_t)(n + 1));
    int32_t *idx = malloc(sizeof(int32_t) * 3 * (size_t)(n + 1));
    bool *any = malloc(sizeof(bool) * 2 * (size_t)(n + 1));
    ENSURE(t && nr && idx && any);
    float *t1 = t, *t2 = t + n, *t3 = t + 2 * n, *n1 = nr, *n2 = nr + 3 * n, *n3 = nr + 6 * n;
    int32_t *i1 = idx, *i2 = idx + n, *i3 = idx + 2 * n;
    ENSURE(sc_world_cast_rays(w, rays, n, t1, i1, n1, NULL, s) == SC_OK);
    ENSURE(sc_world_cast_rays(w, rays, n, t2, i2, n2, NULL, NULL) == SC_OK);
    ENSURE(sc_world_cast_rays_bruteforce(w, rays, n, t3, i3, n3, NULL, s) == SC_OK);
    ENSURE(sc_world_any_hit(w, rays, n, any, NULL, s) == SC_OK);
    ENSURE(sc_world_any_hit(w, rays, n, any + n, NULL, NULL) == SC_OK);
    for (int i = 0; i < n; ++i) {
        ENSURE(i1[i] == i2[i] && i1[i] == i3[i]);
        ENSURE(same_bits(t1[i], t2[i]) && same_bits(t1[i], t3[i]));
        for (int a = 0; a < 3; ++a) ENSURE(same_bits(n1[3 * i + a], n2[3 * i + a]) && same_bits(n1[3 * i + a], n3[3 * i + a]));
        ENSURE(any[i] == any[n + i] && any[i] == (i1[i] >= 0));
        if (check_single && i % check_single == 0) {
            float st, sn[3];
            int si = single_nearest(rays + 7 * (size_t)i, boxes, nboxes, &st, sn);
            if (si != i1[i] || !same_bits(st, t1[i]))
                fprintf(stderr, "  ray %d: world %d t %.9g, single %d t %.9g\n", i, i1[i], t1[i], si, st);
            ENSURE(si == i1[i] && same_bits(st, t1[i]));
            for (int a = 0; a < 3; ++a) ENSURE(same_bits(sn[a], n1[3 * i + a]));
        }
    }
    /* the same with a filter (a mask every object passes, an exclusion), ordered and not */
    int32_t *ex = malloc(sizeof(int32_t) * (size_t)(n + 1));
    ENSURE(ex);
    for (int i = 0; i < n; ++i) ex[i] = i1[i] >= 0 && i % 3 == 0 ? i1[i] : -1;
    sc_query_filter f = sc_query_filter_default();
    f.mask = 0x7FFFFFFFu;
    f.exclude = ex;
    ENSURE(sc_world_cast_rays(w, rays, n, t1, i1, n1, &f, s) == SC_OK);
    ENSURE(sc_world_cast_rays(w, rays, n, t2, i2, NULL, &f, NULL) == SC_OK);
    ENSURE(sc_world_cast_rays_bruteforce(w, rays, n, t3, i3, n3, &f, NULL) == SC_OK);
    for (int i = 0; i < n; ++i) {
        ENSURE(i1[i] == i2[i] && i1[i] == i3[i] && (ex[i] < 0 || i1[i] != ex[i]));
        ENSURE(same_bits(t1[i], t2[i]) && same_bits(t1[i], t3[i]));
    }
    free(ex);
    free(t);
    free(nr);
    free(idx);
    free(any);
    sc_scratch_destroy(s);
    return 0;
}

/* ------------------------------------------------------------------ refusals */

/* Every way sc_ray_check refuses a ray, with the status the contract names for it. */
typedef struct bad_ray { float v[7]; sc_status status; } bad_ray;

static int refused_ray_at_each_position(void)
{
    const bad_ray bad[] = {
        {{NAN, 0, 0, 1, 0, 0, INFINITY}, SC_ERR_RAY_ORIGIN},
        {{0, INFINITY, 0, 1, 0, 0, 1}, SC_ERR_RAY_ORIGIN},
        {{0, 0, -INFINITY, 1, 0, 0, 1}, SC_ERR_RAY_ORIGIN},
        {{NAN, 0, 0, 0, 0, 0, -1}, SC_ERR_RAY_ORIGIN}, /* the origin is checked first */
        {{0, 0, 0, NAN, 0, 0, 1}, SC_ERR_RAY_DIR},
        {{0, 0, 0, 1, -INFINITY, 0, 1}, SC_ERR_RAY_DIR},
        {{0, 0, 0, 0, 0, INFINITY, 1}, SC_ERR_RAY_DIR},
        {{0, 0, 0, 0, 0, 0, 1}, SC_ERR_RAY_DIR_ZERO},
        {{0, 0, 0, -0.0f, -0.0f, -0.0f, 1}, SC_ERR_RAY_DIR_ZERO},
        {{0, 0, 0, 0, -0.0f, 0, -1}, SC_ERR_RAY_DIR_ZERO}, /* before tmax */
        {{0, 0, 0, 0, 0, 1, -1}, SC_ERR_RAY_TMAX},
        {{0, 0, 0, 0, 0, 1, -0.0f}, SC_OK}, /* -0 >= 0: accepted */
        {{0, 0, 0, 0, 0, 1e-45f, NAN}, SC_ERR_RAY_TMAX},
        {{0, 0, 0, 0, 0, 1, -INFINITY}, SC_ERR_RAY_TMAX},
        {{FLT_MAX, -FLT_MAX, 0, 1e-45f, 0, 0, 0}, SC_OK},
    };
    float boxes[6 * 64];
    random_boxes(boxes, 64, 10.0f);
    sc_world *w = box_world(boxes, 64);
    ENSURE(w);
    sc_scratch *s = sc_scratch_create();
    ENSURE(s && sc_scratch_reserve(s, 2000) == SC_OK);
    const int sizes[] = {1, 2, 511, 512, 513, 700, 2000};
    float *rays = malloc(sizeof(float) * 7 * 2000), *t = malloc(sizeof(float) * 2000);
    int32_t *idx = malloc(sizeof(int32_t) * 2000);
    bool *hit = malloc(sizeof(bool) * 2000);
    ENSURE(rays && t && idx && hit);
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; ++si) {
        int n = sizes[si];
        random_rays(rays, n, 10.0f, boxes, 64);
        for (int pos = 0; pos < n; pos += (n < 600 ? 1 : 7)) {
            const bad_ray *b = &bad[(size_t)(pos + (int)si) % (sizeof bad / sizeof *bad)];
            float keep[7], keep2[7];
            memcpy(keep, rays + 7 * (size_t)pos, sizeof keep);
            memcpy(rays + 7 * (size_t)pos, b->v, sizeof keep);
            /* a second refused ray after it (another fault) must not be the one reported */
            int pos2 = pos + 1 + (int)(rnd() % 50);
            if (pos2 < n) {
                memcpy(keep2, rays + 7 * (size_t)pos2, sizeof keep2);
                memcpy(rays + 7 * (size_t)pos2, bad[(size_t)(pos + 5) % 11].v, sizeof keep2);
            }
            const float *v = b->v;
            sc_ray one = {{v[0], v[1], v[2]}, {v[3], v[4], v[5]}, v[6]};
            ENSURE(sc_ray_check(&one) == b->status);
            int first = b->status != SC_OK ? pos : pos2 < n ? pos2 : -1;
            sc_status want = b->status != SC_OK ? b->status : first >= 0 ? bad[(size_t)(pos + 5) % 11].status : SC_OK;
            for (int k = 0; k < n; ++k) {
                t[k] = -7.0f;
                idx[k] = -7;
                hit[k] = true;
            }
            sc_scratch *with[2] = {s, NULL};
            for (int u = 0; u < 2; ++u) {
                ENSURE(sc_world_cast_rays(w, rays, n, t, idx, NULL, NULL, with[u]) == want);
                if (with[u]) ENSURE(sc_scratch_error_index(s) == first);
                ENSURE(sc_world_any_hit(w, rays, n, hit, NULL, with[u]) == want);
                if (with[u]) ENSURE(sc_scratch_error_index(s) == first);
                if (want != SC_OK) {
                    /* refused before anything is written; the ray's status before the outputs'
                     * NULL and a stale world's */
                    for (int k = 0; k < n; ++k) ENSURE(t[k] == -7.0f && idx[k] == -7 && hit[k]);
                    ENSURE(sc_world_cast_rays(w, rays, n, NULL, NULL, NULL, NULL, with[u]) == want);
                    ENSURE(sc_world_any_hit(w, rays, n, NULL, NULL, with[u]) == want);
                }
            }
            memcpy(rays + 7 * (size_t)pos, keep, sizeof keep);
            if (pos2 < n) memcpy(rays + 7 * (size_t)pos2, keep2, sizeof keep2);
        }
    }
    /* a refused ray before a stale world's status */
    sc_world *stale = box_world(boxes, 64);
    ENSURE(stale);
    ENSURE(sc_world_update_aabbs(stale, 3, (const float[6]){0, 0, 0, 1, 1, 1}, 1) == SC_OK);
    random_rays(rays, 600, 10.0f, boxes, 64);
    rays[7 * 599 + 6] = -1.0f;
    ENSURE(sc_world_cast_rays(stale, rays, 600, t, idx, NULL, NULL, s) == SC_ERR_RAY_TMAX);
    ENSURE(sc_scratch_error_index(s) == 599);
    rays[7 * 599 + 6] = 1.0f;
    ENSURE(sc_world_cast_rays(stale, rays, 600, t, idx, NULL, NULL, s) == SC_ERR_STALE);
    ENSURE(sc_scratch_error_index(s) == -1);
    sc_world_destroy(stale);
    free(rays);
    free(t);
    free(idx);
    free(hit);
    sc_scratch_destroy(s);
    sc_world_destroy(w);
    return 0;
}

/* ------------------------------------------------------------------ leaf lanes */

/* Every hit of ray p among the boxes through sc_world_cast_ray_all (every lane of every leaf the
 * ray reaches, no best-hit pruning) and the nearest through sc_world_cast_rays and the brute
 * force, against the single query sc_raycast_aabb on each box: the same boxes hit, the same t
 * and normal bits. */
static int leaf_lanes_match_single(const sc_world *w, const float *p, const float *boxes, int nboxes)
{
    enum { CAP = 64 };
    float t[CAP], nrm[3 * CAP];
    int32_t idx[CAP], total = -1;
    ENSURE(nboxes <= CAP);
    ENSURE(sc_world_cast_ray_all(w, p, CAP, t, idx, nrm, &total, NULL) == SC_OK);
    sc_ray ray = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, p[6]};
    int want = 0;
    for (int o = 0; o < nboxes; ++o) {
        const float *b = boxes + 6 * (size_t)o;
        sc_aabb box = {{b[0], b[1], b[2]}, {b[3], b[4], b[5]}};
        sc_raycast_result h = sc_raycast_aabb(&ray, &box);
        ENSURE(h.status == SC_OK);
        int k = 0;
        while (k < total && idx[k] != o) ++k;
        if ((k < total) != h.hit)
            fprintf(stderr, "  ray (%.9g %.9g %.9g  %.9g %.9g %.9g  %.9g) box %d: world %s, single %s\n", p[0], p[1],
                    p[2], p[3], p[4], p[5], p[6], o, k < total ? "hit" : "miss", h.hit ? "hit" : "miss");
        ENSURE((k < total) == h.hit);
        if (!h.hit) continue;
        ++want;
        ENSURE(same_bits(t[k], h.t + 0.0f));
        ENSURE(same_bits(nrm[3 * k], h.normal.x + 0.0f) && same_bits(nrm[3 * k + 1], h.normal.y + 0.0f) &&
               same_bits(nrm[3 * k + 2], h.normal.z + 0.0f));
    }
    ENSURE(total == want);
    float st, sn[3], bt[2], bn[6];
    int32_t bi[2];
    int si = single_nearest(p, boxes, nboxes, &st, sn);
    ENSURE(sc_world_cast_rays(w, p, 1, bt, bi, bn, NULL, NULL) == SC_OK);
    ENSURE(sc_world_cast_rays_bruteforce(w, p, 1, bt + 1, bi + 1, bn + 3, NULL, NULL) == SC_OK);
    for (int k = 0; k < 2; ++k) {
        ENSURE(bi[k] == si && same_bits(bt[k], st));
        for (int a = 0; a < 3; ++a) ENSURE(same_bits(bn[3 * k + a], sn[a]));
    }
    return 0;
}

/* One leaf of four boxes (a world of four: one group) and rays on each of the leaf test's rules:
 * decided hits and misses, near ties (t_enter close to t_exit: edges and corners; close to
 * tmax), quotients below FLT_MIN (subnormal and zero: origins on a box's plane; -2^-150, which
 * rounds to -0, a far end behind the origin), t_enter overflowing (tiny direction components),
 * huge direction components and parallel axes (+0 and -0, the origin on the slab's plane). */
static int leaf_rules(void)
{
    const float b4[4][6] = {
        {0, 0, 0, 1, 1, 1},
        {2, -1, -1, 3, 1, 1},
        {-1, -1, -1, -1e-45f, 1, 1},       /* max x = -2^-149 */
        {1e-40f, 1e-40f, 1e-40f, 4, 4, 4}, /* subnormal min corner */
    };
    sc_world *w = box_world(&b4[0][0], 4);
    ENSURE(w);
    const float third = 1.0f / 3.0f;
    const float rays[][7] = {
        {-1, 0.5f, 0.5f, 1, 0, 0, INFINITY},            /* decided hits (boxes 0, 1, 3) */
        {-1, 0.5f, 0.5f, 1, 0.001f, -0.002f, INFINITY}, /* decided, not axis-aligned */
        {-1, 5, 5, 1, 0, 0, INFINITY},                  /* decided misses (parallel axes outside) */
        {-1, 0.5f, 0.5f, -1, 0.1f, 0.1f, INFINITY},     /* away from them */
        {-1, -1, 0.5f, 1, 1, 0, INFINITY},              /* through box 0's edge x = y = 0: tn == tf */
        {-1, -1, 0.5f, 1, 1.0000001f, 0, INFINITY},     /* just past it */
        {-1, -1, 0.5f, 1.0000001f, 1, 0, INFINITY},     /* just before it */
        {-1, -1, -1, 1, 1, 1, INFINITY},                /* through box 0's corner */
        {-1, -2, -3, 1, 2, 3, INFINITY},                /* a corner from another slope */
        {-2, 1.5f, 0.5f, 1, -third, 0, INFINITY},       /* an edge along a rounded slope */
        {-1, 0.5f, 0.5f, 1, 0, 0, 1},                   /* tmax = t_enter of box 0 */
        {-1, 0.5f, 0.5f, 1, 0, 0, 0.99999994f},         /* just below it */
        {-1, 0.5f, 0.5f, 1, 0, 0, 3},                   /* tmax = t_enter of box 1 */
        {-1, 0.5f, 0.5f, 3, 0, 0, third},               /* t_enter 1/3 rounded, tmax 1/3 */
        {0, 0.5f, 0.5f, 1, 0, 0, INFINITY},             /* origin on box 0's plane x = 0: quotient 0 */
        {0, 0.5f, 0.5f, -1, 0, 0, INFINITY},            /* and moving out of it */
        {1, 0.5f, 0.5f, 1, 0, 0, INFINITY},             /* on its far plane */
        {0, 0.5f, 0.5f, 2, 0, 0, INFINITY},             /* box 2's far end -2^-150: -0 in float */
        {0, 0, 0, 2, 1e-30f, 1e-30f, INFINITY},         /* subnormal quotients (box 3's min) */
        {0, 2, 2, 1, 0, 0, INFINITY},                   /* box 3's x slab from x = 0 */
        {-1, 0.5f, 0.5f, 1e-39f, 1, 0, INFINITY},       /* tiny x: quotients overflow */
        {-1, 0.5f, 0.5f, 1e-39f, 0, 0, INFINITY},       /* tiny alone: t_enter = t_exit = +inf */
        {-1, 0.5f, 0.5f, 1e-39f, 0, 0, 1e30f},          /* and a finite tmax */
        {-1, 0.5f, 0.5f, 1e30f, 1, 1, INFINITY},        /* huge x */
        {-1, 0.5f, 0.5f, 1e-42f, 1e-42f, 0, INFINITY},  /* subnormal direction */
        {-1, 0, 0.5f, 1, 0, 0, INFINITY},               /* parallel on box 0's plane y = 0 */
        {-1, 1, 1, 1, -0.0f, -0.0f, INFINITY},          /* -0 components on its max planes */
        {-1, 1.0000001f, 0.5f, 1, -0.0f, 0, INFINITY},  /* just outside, parallel */
        {0.5f, 0.5f, 0.5f, 1, 1, 1, INFINITY},          /* from inside box 0 */
        {0.5f, 0.5f, 0.5f, 1, 1, 1, 0},                 /* tmax = 0 */
    };
    for (size_t i = 0; i < sizeof rays / sizeof *rays; ++i)
        if (leaf_lanes_match_single(w, rays[i], &b4[0][0], 4)) return 1;
    sc_world_destroy(w);
    return 0;
}

/* Boxes and rays on a coarse grid (coordinates multiples of 1/4): origins on box planes, rays
 * through edges and corners, tmax at box faces are everywhere, so near ties and zero quotients
 * are common; each lane against the single query. */
static int leaf_grid_ties(void)
{
    enum { NB = 24 };
    float boxes[6 * NB];
    for (int pass = 0; pass < 60; ++pass) {
        for (int i = 0; i < NB; ++i)
            for (int a = 0; a < 3; ++a) {
                float lo = (float)(rnd() % 16) * 0.25f, ext = (float)(rnd() % 6) * 0.25f;
                boxes[6 * i + a] = lo;
                boxes[6 * i + 3 + a] = lo + ext;
            }
        sc_world *w = box_world(boxes, NB);
        ENSURE(w);
        for (int k = 0; k < 200; ++k) {
            float p[7];
            for (int a = 0; a < 3; ++a) {
                p[a] = (float)(rnd() % 20) * 0.25f - 0.5f;
                p[3 + a] = (float)((int)(rnd() % 9) - 4) * (rnd() % 4 == 0 ? 0.1f : 0.25f);
            }
            if (p[3] == 0.0f && p[4] == 0.0f && p[5] == 0.0f) p[4] = -0.25f;
            uint32_t m = rnd() % 4;
            p[6] = m == 0 ? (float)(rnd() % 16) * 0.25f : m == 1 ? (float)(rnd() % 16) * 0.1f : INFINITY;
            if (leaf_lanes_match_single(w, p, boxes, NB)) return 1;
        }
        sc_world_destroy(w);
    }
    return 0;
}

/* The leaf test's fast path (sc_w_leaf_fast4: no axis parallel, tiny or huge) at its margins:
 * boxes and origins on a grid of 1/4, directions with every component non-zero, so that entry
 * quotients of two axes tie exactly (the lowest axis names the normal), the ray passes edges and
 * corners (t_enter = t_exit) and starts on box planes (zero quotients); then each direction
 * component and tmax scaled by 1 + k 2^-e for e around the path's 2^-16 margin and its 2^-18
 * error bound, and by a few ulps, so that ties become near ties on either side of every margin.
 * Each lane against the single query, the nearest against the brute force and the single query. */
static int leaf_fast_margins(void)
{
    enum { NB = 20 };
    float boxes[6 * NB];
    const float comp[] = {0.25f, 0.5f, 1.0f, 0.75f, 0.1f, 1.0f / 3.0f};
    for (int pass = 0; pass < 40; ++pass) {
        for (int i = 0; i < NB; ++i)
            for (int a = 0; a < 3; ++a) {
                float lo = (float)(rnd() % 12) * 0.25f, ext = (float)(1 + rnd() % 5) * 0.25f;
                boxes[6 * i + a] = lo;
                boxes[6 * i + 3 + a] = lo + ext;
            }
        sc_world *w = box_world(boxes, NB);
        ENSURE(w);
        for (int k = 0; k < 300; ++k) {
            float p[7];
            p[6] = rnd() % 4 == 0 ? (float)(rnd() % 16) * 0.25f : INFINITY;
            for (int a = 0; a < 3; ++a) {
                p[a] = (float)(rnd() % 16) * 0.25f - 0.5f;
                float c = comp[rnd() % (sizeof comp / sizeof *comp)];
                p[3 + a] = rnd() % 2 ? c : -c;
            }
            if (rnd() % 2) {
                /* one component (or tmax) nudged: by 1 + j 2^-e (e in 14..20), or by a few ulps */
                int a = (int)(rnd() % 4);
                float *v = a < 3 ? &p[3 + a] : &p[6];
                float f = rnd() % 2 ? 1.0f + (float)(1 + rnd() % 3) * ldexpf(1.0f, -(int)(14 + rnd() % 7))
                                    : 1.0f - (float)(1 + rnd() % 3) * ldexpf(1.0f, -(int)(14 + rnd() % 7));
                if (a == 3) p[6] = (float)(1 + rnd() % 12) * 0.25f;
                *v = rnd() % 3 == 0 ? nextafterf(*v, rnd() % 2 ? INFINITY : -INFINITY) : *v * f;
                if (a < 3 && rnd() % 4 == 0) *v = nextafterf(nextafterf(*v, INFINITY), INFINITY);
            }
            if (leaf_lanes_match_single(w, p, boxes, NB)) return 1;
        }
        sc_world_destroy(w);
    }
    /* quotients near and below FLT_MIN on the fast path: coordinates of 1e-38 .. 1e-45 around an
     * origin at 0, and direction components up to just below 2^100 */
    const float tiny[] = {0.0f, 1e-45f, -1e-45f, 3e-42f, 1e-40f, -1e-40f, 1.2e-38f, -1e-38f, 1.0f, -1.0f};
    const float dirs[] = {1.0f, 3.0f, -7.0f, 1e20f, -3e29f, 1.2e30f, 0.1f};
    for (int pass = 0; pass < 30; ++pass) {
        for (int i = 0; i < NB; ++i)
            for (int a = 0; a < 3; ++a) {
                float x = tiny[rnd() % (sizeof tiny / sizeof *tiny)], y = tiny[rnd() % (sizeof tiny / sizeof *tiny)];
                boxes[6 * i + a] = x < y ? x : y;
                boxes[6 * i + 3 + a] = x < y ? y : x;
            }
        sc_world *w = box_world(boxes, NB);
        ENSURE(w);
        for (int k = 0; k < 100; ++k) {
            float p[7];
            for (int a = 0; a < 3; ++a) {
                p[a] = rnd() % 2 ? 0.0f : tiny[rnd() % (sizeof tiny / sizeof *tiny)];
                p[3 + a] = dirs[rnd() % (sizeof dirs / sizeof *dirs)] * (rnd() % 2 ? 1.0f : -1.0f);
            }
            p[6] = rnd() % 4 == 0 ? 1e-39f : INFINITY;
            if (leaf_lanes_match_single(w, p, boxes, NB)) return 1;
        }
        sc_world_destroy(w);
    }
    return 0;
}

/* ------------------------------------------------------------------ orders */

/* Sizes around every threshold of the ordering: below and at the scratch's minimum (512), and
 * where the sort keys' grid grows (2^(3 + 3g) rays: 4096, 32768). */
static int sizes_around_thresholds(void)
{
    const int sizes[] = {1, 63, 64, 65, 511, 512, 513, 4095, 4096, 4097, 32767, 32768, 32769};
    const int nboxes = 300;
    float *boxes = malloc(sizeof(float) * 6 * nboxes), *rays = malloc(sizeof(float) * 7 * 32769);
    ENSURE(boxes && rays);
    random_boxes(boxes, nboxes, 20.0f);
    sc_world *w = box_world(boxes, nboxes);
    ENSURE(w);
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; ++si) {
        int n = sizes[si];
        random_rays(rays, n, 20.0f, boxes, nboxes);
        if (check_batch(w, rays, n, boxes, nboxes, n > 5000 ? 97 : 3)) return 1;
    }
    sc_world_destroy(w);
    free(boxes);
    free(rays);
    return 0;
}

/* Natively, an ordered batch takes one of two paths by the size of the tree (sc_query.c,
 * SC_W_DIRECT_BYTES, 1 MiB: about 15k boxes): rays read from the input in trace order and their
 * results written straight out, or gathered into records first. The other tests' worlds are
 * small; this one (40k boxes: 2.9 MB of tree) takes the records, with and without a filter. */
static int large_tree(void)
{
    const int nboxes = 40000, n = 5000;
    float *boxes = malloc(sizeof(float) * 6 * nboxes), *rays = malloc(sizeof(float) * 7 * n);
    ENSURE(boxes && rays);
    random_boxes(boxes, nboxes, 120.0f);
    sc_world *w = box_world(boxes, nboxes);
    ENSURE(w);
    random_rays(rays, n, 120.0f, boxes, nboxes);
    if (check_batch(w, rays, n, boxes, nboxes, 211)) return 1;
    sc_world_destroy(w);
    free(boxes);
    free(rays);
    return 0;
}

/* A tree above SC_FILL_MAX (2048 objects) whose build meets many parts of 5 to 8 objects (split
 * first, into two leaves, when a node is formed: sc_bvh.c), and nodes of at most four children
 * (whose upper half the portable node test skips: sc_w_cull_node): clusters of 5 to 8 boxes,
 * each cluster's boxes identical, nested or points, far apart. Every ray against the brute
 * force, before and after the clusters move (a refit of the same tree). */
static int clustered_large_tree(void)
{
    enum { CLUSTERS = 700, N = 4000 };
    float *boxes = malloc(sizeof(float) * 6 * 8 * CLUSTERS), *rays = malloc(sizeof(float) * 7 * N);
    ENSURE(boxes && rays);
    int nboxes = 0;
    for (int c = 0; c < CLUSTERS; ++c) {
        int k = 5 + (int)(rnd() % 4);
        float cx = rndf(0.0f, 200.0f), cy = rndf(0.0f, 200.0f), cz = rndf(0.0f, 200.0f), h = rndf(0.0f, 1.5f);
        for (int j = 0; j < k; ++j) {
            float *b = boxes + 6 * (size_t)nboxes++;
            /* kind 0: k identical boxes; 1: nested; 2: points at the centre */
            float e = c % 3 == 0 ? h : c % 3 == 1 ? h * (float)(j + 1) / (float)k : 0.0f;
            b[0] = cx - e; b[1] = cy - e; b[2] = cz - e;
            b[3] = cx + e; b[4] = cy + e; b[5] = cz + e;
        }
    }
    ENSURE(nboxes > 2048);
    sc_world *w = box_world(boxes, nboxes);
    ENSURE(w);
    int low = 0;
    for (int i = 0; i < w->nnodes; ++i) low += ((unsigned)w->nodes[i].valid >> 4) == 0;
    ENSURE(low > 0); /* nodes whose upper half the portable test skips */
    random_rays(rays, N, 200.0f, boxes, nboxes);
    /* a quarter from a cluster's centre along an axis (through identical faces and points) */
    for (int i = 0; i < N; i += 4) {
        const float *b = boxes + 6 * (size_t)(rnd() % (uint32_t)nboxes);
        float *p = rays + 7 * (size_t)i;
        for (int a = 0; a < 3; ++a) {
            p[a] = 0.5f * (b[a] + b[3 + a]) - (a == 0 ? 3.0f : 0.0f);
            p[3 + a] = a == 0 ? 1.0f : 0.0f;
        }
        p[6] = INFINITY;
    }
    if (check_batch(w, rays, N, boxes, nboxes, 97)) return 1;
    for (int i = 0; i < nboxes; ++i)
        for (int a = 0; a < 6; ++a) boxes[6 * i + a] += (float)(i % 7) - 3.0f;
    ENSURE(sc_world_update_aabbs(w, 0, boxes, nboxes) == SC_OK && sc_world_commit(w) == SC_OK);
    if (check_batch(w, rays, N, boxes, nboxes, 97)) return 1;
    sc_world_destroy(w);
    free(boxes);
    free(rays);
    return 0;
}

/* Rays whose sort keys collide: one origin, directions of one octant (one bin), then of every
 * octant from a few origins, then the same ray many times over. */
static int colliding_keys(void)
{
    const int nboxes = 200, n = 3000;
    float *boxes = malloc(sizeof(float) * 6 * nboxes), *rays = malloc(sizeof(float) * 7 * n);
    ENSURE(boxes && rays);
    random_boxes(boxes, nboxes, 15.0f);
    sc_world *w = box_world(boxes, nboxes);
    ENSURE(w);
    for (int pass = 0; pass < 3; ++pass) {
        for (int i = 0; i < n; ++i) {
            float *p = rays + 7 * (size_t)i;
            p[0] = pass == 1 ? (float)(i % 3) * 5.0f : 7.5f;
            p[1] = 7.25f;
            p[2] = 7.0f;
            for (int a = 0; a < 3; ++a) p[3 + a] = pass == 2 ? 0.5f : rndf(0.0f, 1.0f);
            if (pass == 1)
                for (int a = 0; a < 3; ++a) p[3 + a] = rndf(-1.0f, 1.0f);
            if (p[3] == 0.0f && p[4] == 0.0f && p[5] == 0.0f) p[3] = 1.0f;
            p[6] = INFINITY;
        }
        if (check_batch(w, rays, n, boxes, nboxes, 7)) return 1;
    }
    sc_world_destroy(w);
    free(boxes);
    free(rays);
    return 0;
}

/* Origins the sort keys must bucket without trouble: +-FLT_MAX and other huge finite values
 * (the key's cell computation overflows to +-inf), subnormals, and origins at and beyond 2^80
 * (rays that skip the BVH), mixed in one ordered batch with ordinary rays. */
static int extreme_origins(void)
{
    const int nboxes = 100, n = 1500;
    float *boxes = malloc(sizeof(float) * 6 * (nboxes + 1)), *rays = malloc(sizeof(float) * 7 * n);
    ENSURE(boxes && rays);
    random_boxes(boxes, nboxes, 10.0f);
    /* one huge box, far from the others, that the far rays can hit */
    const float hb[6] = {-3e30f, -3e30f, -3e30f, -1e30f, -1e30f, -1e30f};
    memcpy(boxes + 6 * nboxes, hb, sizeof hb);
    sc_world *w = box_world(boxes, nboxes + 1);
    ENSURE(w);
    const float odd[] = {FLT_MAX, -FLT_MAX, 3e38f, -1e38f, 1.2089258e24f, -1.2089258e24f, 1.2089257e24f, 1e-45f, -1e-45f,
                         1e30f, -2e30f};
    random_rays(rays, n, 10.0f, boxes, nboxes);
    for (int i = 0; i < n; i += 2) {
        float *p = rays + 7 * (size_t)i;
        for (int a = 0; a < 3; ++a)
            if (rnd() % 2) p[a] = odd[rnd() % (sizeof odd / sizeof *odd)];
        if (rnd() % 3 == 0) {
            /* toward the huge box */
            for (int a = 0; a < 3; ++a) p[3 + a] = -2e30f - p[a] * 0.5f;
            if (p[3] == 0.0f && p[4] == 0.0f && p[5] == 0.0f) p[3] = -1.0f;
            for (int a = 0; a < 3; ++a)
                if (!isfinite(p[3 + a])) p[3 + a] = -FLT_MAX;
        }
    }
    if (check_batch(w, rays, n, boxes, nboxes + 1, 5)) return 1;
    sc_world_destroy(w);
    free(boxes);
    free(rays);
    return 0;
}

/* The scratch's memory per ray has not grown: 64 bytes a ray before the compact records. */
static int scratch_bytes_per_ray(void)
{
    sc_scratch *s = sc_scratch_create();
    ENSURE(s);
    size_t empty = sc_scratch_bytes(s);
    ENSURE(sc_scratch_reserve(s, 100000) == SC_OK);
    int32_t cap = sc_scratch_capacity(s);
    ENSURE(cap >= 100000);
    ENSURE(sc_scratch_bytes(s) - empty <= (size_t)cap * 64);
    sc_scratch_destroy(s);
    return 0;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    RUN_TEST(refused_ray_at_each_position);
    RUN_TEST(sizes_around_thresholds);
    RUN_TEST(colliding_keys);
    RUN_TEST(large_tree);
    RUN_TEST(clustered_large_tree);
    RUN_TEST(extreme_origins);
    RUN_TEST(scratch_bytes_per_ray);
    RUN_TEST(leaf_rules);
    RUN_TEST(leaf_grid_ties);
    RUN_TEST(leaf_fast_margins);
    printf("%d passed, %d failed\n", g_run - g_failed_tests, g_failed_tests);
    return g_failed_tests ? 1 : 0;
}
