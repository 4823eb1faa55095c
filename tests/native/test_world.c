/* World property tests: batch results must equal brute-force single queries (sc_raycast over
 * every object, nearest t, ties to the lowest index) bit for bit, on random and adversarial
 * scenes: dyadic coordinates (exact ties), axis-parallel rays, rays along faces, origins
 * inside, duplicate boxes, zero-thickness boxes, OBBs and spheres.
 * Usage: slabcast_world_tests [NAME-SUBSTRING] */
#include "slabcast.h"
#include "sc_internal.h" /* sc__overlap_checked: the brute-force overlaps */

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

/* An sc_ray as the SC_RAY_FLOATS floats sc_world_cast_ray_all takes. */
#define RAY7(r) ((const float[SC_RAY_FLOATS]){(r).origin.x, (r).origin.y, (r).origin.z, (r).dir.x, (r).dir.y, (r).dir.z, (r).tmax})

/* The caller's working memory for every query of these tests (reserved in main). */
static sc_scratch *g_scratch;

static unsigned long long g_rng = 0x9E3779B97F4A7C15ull;
static unsigned rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (unsigned)(g_rng >> 32);
}
/* A multiple of 1/2 in [-lim, lim]. */
static float dy(int lim) { return (float)((int)(rnd() % (unsigned)(4 * lim + 1)) - 2 * lim) * 0.5f; }
static float pick(const float *v, int n) { return v[rnd() % (unsigned)n]; }

typedef struct scene {
    int n;
    int kind[4096];  /* 0 aabb, 1 obb, 2 sphere */
    sc_shape shape[4096];
} scene;

/* Brute force through the public single query. */
static void brute(const scene *s, const float *ray, float *t, int *index, float *normal)
{
    sc_ray r = {{ray[0], ray[1], ray[2]}, {ray[3], ray[4], ray[5]}, ray[6]};
    *index = -1;
    *t = 0;
    normal[0] = normal[1] = normal[2] = 0;
    for (int i = 0; i < s->n; ++i) {
        sc_raycast_result h = sc_raycast(&r, &s->shape[i]);
        if (h.status != SC_OK || !h.hit) continue;
        if (*index < 0 || h.t < *t) {
            *t = h.t;
            *index = i;
            normal[0] = h.normal.x;
            normal[1] = h.normal.y;
            normal[2] = h.normal.z;
        }
    }
}

/* Adds the scene's objects in order, then commits; each must be accepted, at the next index (a
 * refused add would shift every later index and make the comparisons below meaningless). */
static int add_scene(sc_world *w, const scene *s)
{
    for (int i = 0; i < s->n; ++i) {
        sc_status st;
        const sc_shape *sh = &s->shape[i];
        int first = -1;
        if (sh->type == SC_SHAPE_AABB) {
            float b[6] = {sh->u.aabb.min.x, sh->u.aabb.min.y, sh->u.aabb.min.z,
                          sh->u.aabb.max.x, sh->u.aabb.max.y, sh->u.aabb.max.z};
            st = sc_world_add_aabbs(w, b, 1, &first);
        } else if (sh->type == SC_SHAPE_OBB) {
            const sc_obb *o = &sh->u.obb;
            float b[15] = {o->center.x, o->center.y, o->center.z, o->axes[0].x, o->axes[0].y, o->axes[0].z,
                           o->axes[1].x, o->axes[1].y, o->axes[1].z, o->axes[2].x, o->axes[2].y, o->axes[2].z,
                           o->half.x, o->half.y, o->half.z};
            st = sc_world_add_obbs(w, b, 1, &first);
        } else {
            float b[4] = {sh->u.sphere.center.x, sh->u.sphere.center.y, sh->u.sphere.center.z, sh->u.sphere.radius};
            st = sc_world_add_spheres(w, b, 1, &first);
        }
        if (st != SC_OK || first != i) {
            fprintf(stderr, "  add_scene: object %d refused (%s) or misplaced (index %d)\n", i, sc_status_message(st), first);
            return 1;
        }
    }
    return sc_world_commit(w) == SC_OK && sc_world_is_committed(w) ? 0 : 1;
}

static sc_shape rand_aabb(int lim)
{
    sc_shape s = {0};
    s.type = SC_SHAPE_AABB;
    float a[3], b[3];
    for (int k = 0; k < 3; ++k) {
        a[k] = dy(lim);
        b[k] = rnd() % 5 == 0 ? a[k] : a[k] + (float)(rnd() % 8) * 0.5f; /* some zero thickness */
    }
    s.u.aabb.min = (sc_vec3){a[0], a[1], a[2]};
    s.u.aabb.max = (sc_vec3){b[0], b[1], b[2]};
    return s;
}

static void rand_ray(const scene *s, float *r, int lim)
{
    static const float dirs[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -2.0f, 3.0f};
    int mode = (int)(rnd() % 4);
    for (int k = 0; k < 3; ++k) r[k] = dy(lim);
    if (mode == 1 && s->n > 0) {
        /* origin on a face plane of some box */
        const sc_shape *b = &s->shape[rnd() % (unsigned)s->n];
        if (b->type == SC_SHAPE_AABB) {
            int k = (int)(rnd() % 3);
            r[k] = rnd() & 1 ? v3_at(b->u.aabb.min, k) : v3_at(b->u.aabb.max, k);
        }
    }
    do {
        for (int k = 0; k < 3; ++k) r[3 + k] = mode >= 2 ? pick(dirs, 7) : dy(4);
    } while (r[3] == 0 && r[4] == 0 && r[5] == 0);
    r[6] = rnd() % 3 == 0 ? (float)(rnd() % 40) * 0.5f : INFINITY;
}

static int compare(sc_world *w, const scene *s, int nrays, int lim)
{
    float *rays = malloc(sizeof(float) * 7 * (size_t)nrays);
    float *t = malloc(sizeof(float) * (size_t)nrays), *nrm = malloc(sizeof(float) * 3 * (size_t)nrays);
    int *idx = malloc(sizeof(int) * (size_t)nrays);
    bool *any = malloc(sizeof(bool) * (size_t)nrays);
    for (int i = 0; i < nrays; ++i) rand_ray(s, rays + 7 * i, lim);
    int ok = sc_world_cast_rays(w, rays, nrays, t, idx, nrm, NULL, g_scratch) == SC_OK &&
             sc_world_any_hit(w, rays, nrays, any, NULL, g_scratch) == SC_OK;
    int bad = 0;
    for (int i = 0; ok && i < nrays && bad < 5; ++i) {
        float bt, bn[3];
        int bi;
        brute(s, rays + 7 * i, &bt, &bi, bn);
        if (bi != idx[i] || (bi >= 0 && (bt != t[i] || bn[0] != nrm[3 * i] || bn[1] != nrm[3 * i + 1] ||
                                         bn[2] != nrm[3 * i + 2])) || any[i] != (bi >= 0)) {
            const float *r = rays + 7 * i;
            fprintf(stderr, "  ray (%g %g %g)/(%g %g %g) tmax %g: world %d t %g n (%g %g %g) any %d, brute %d t %g n (%g %g %g)\n",
                    r[0], r[1], r[2], r[3], r[4], r[5], r[6], idx[i], t[i], nrm[3 * i], nrm[3 * i + 1], nrm[3 * i + 2],
                    any[i], bi, bt, bn[0], bn[1], bn[2]);
            ++bad;
        }
    }
    free(rays); free(t); free(nrm); free(idx); free(any);
    ENSURE(ok);
    ENSURE(bad == 0);
    return 0;
}

static scene g_scene;

static int random_dyadic_boxes(void)
{
    for (int round = 0; round < 20; ++round) {
        scene *s = &g_scene;
        s->n = 1 + (int)(rnd() % 600);
        for (int i = 0; i < s->n; ++i) s->shape[i] = rand_aabb(16);
        /* duplicates */
        for (int i = 1; i < s->n; i += 7) s->shape[i] = s->shape[i - 1];
        sc_world *w = sc_world_create();
        ENSURE(add_scene(w, s) == 0);
        if (compare(w, s, 2000, 20)) { sc_world_destroy(w); return 1; }
        sc_world_destroy(w);
    }
    return 0;
}


/* A random float in [-1, 1) with all mantissa bits random, times scale. */
static float rf(float scale) { return ((float)(int)(rnd() >> 8) / 8388608.0f - 1.0f) * scale; }
static float tweak(float v)
{
    switch (rnd() % 4) {
    case 0: return nextafterf(v, INFINITY);
    case 1: return nextafterf(v, -INFINITY);
    default: return v;
    }
}

/* Arbitrary floats at scales from subnormal to 2^70: the culling's reciprocal test must never
 * reject a box that the exact test hits, even for entry / exit distances that round to a tie,
 * underflow, or come from tiny, huge, zero or subnormal direction components. */
static int general_floats_and_scales(void)
{
    static const float scales[] = {7.5e-37f, 1e-20f, 1e-3f, 1.0f, 3e9f, 1e21f, 2e-38f, 1e-42f};
    static const float dscale[] = {1.0f, 1e-30f, 1e-41f, 1e30f, 3e38f, 0.0f};
    for (int round = 0; round < 48; ++round) {
        float S = scales[round % 8];
        scene *sc = &g_scene;
        sc->n = 1 + (int)(rnd() % 400);
        for (int i = 0; i < sc->n; ++i) {
            sc_shape b = {0};
            b.type = SC_SHAPE_AABB;
            for (int k = 0; k < 3; ++k) {
                float a = rf(S), c = rf(S);
                if (rnd() % 4 == 0 && i > 0) a = v3_at(sc->shape[rnd() % (unsigned)i].u.aabb.max, k); /* shared faces */
                if (c < a) { float x = a; a = c; c = x; }
                if (rnd() % 6 == 0) c = a;
                v3_set(&b.u.aabb.min, k, a);
                v3_set(&b.u.aabb.max, k, c);
            }
            sc->shape[i] = b;
        }
        int nrays = 1500;
        float *rays = malloc(sizeof(float) * 7 * (size_t)nrays);
        for (int i = 0; i < nrays; ++i) {
            float *r = rays + 7 * i;
            const sc_aabb *b = &sc->shape[rnd() % (unsigned)sc->n].u.aabb;
            for (int k = 0; k < 3; ++k) r[k] = rf(S) * 1.5f;
            if (rnd() % 2) { /* start on or next to a face plane of some box */
                int k = (int)(rnd() % 3);
                r[k] = tweak(rnd() & 1 ? v3_at(b->min, k) : v3_at(b->max, k));
            }
            do {
                for (int k = 0; k < 3; ++k) {
                    float m = dscale[rnd() % 6];
                    if (rnd() % 3 == 0) m = 1.0f;
                    r[3 + k] = rf(1.0f) * m;
                }
                if (rnd() % 3 == 0) { /* aim at a corner of the box */
                    float m = 0.0f;
                    for (int k = 0; k < 3; ++k) {
                        r[3 + k] = (rnd() & 1 ? v3_at(b->min, k) : v3_at(b->max, k)) - r[k];
                        if (fabsf(r[3 + k]) > m) m = fabsf(r[3 + k]);
                    }
                    /* and often scale that exactly to a unit-sized direction, so that tiny
                     * scenes give subnormal distances */
                    int e;
                    if (m > 0.0f && rnd() % 2) {
                        frexpf(m, &e);
                        for (int k = 0; k < 3; ++k) r[3 + k] = ldexpf(r[3 + k], 1 - e);
                    }
                }
            } while (!(r[3] != 0 || r[4] != 0 || r[5] != 0) || !isfinite(r[3]) || !isfinite(r[4]) || !isfinite(r[5]));
            r[6] = rnd() % 3 == 0 ? fabsf(rf(4.0f)) : INFINITY;
        }
        sc_world *w = sc_world_create();
        ENSURE(add_scene(w, sc) == 0);
        float *t = malloc(sizeof(float) * (size_t)nrays), *nrm = malloc(sizeof(float) * 3 * (size_t)nrays);
        int *idx = malloc(sizeof(int) * (size_t)nrays);
        ENSURE(sc_world_cast_rays(w, rays, nrays, t, idx, nrm, NULL, g_scratch) == SC_OK);
        int bad = 0;
        for (int i = 0; i < nrays && bad < 5; ++i) {
            float bt, bn[3];
            int bi;
            brute(sc, rays + 7 * i, &bt, &bi, bn);
            if (bi != idx[i] || (bi >= 0 && bt != t[i])) {
                const float *r = rays + 7 * i;
                fprintf(stderr, "  scale %g ray (%a %a %a)/(%a %a %a) tmax %a: world %d t %a, brute %d t %a\n", S, r[0],
                        r[1], r[2], r[3], r[4], r[5], r[6], idx[i], t[i], bi, bt);
                ++bad;
            }
        }
        ENSURE(bad == 0);
        sc_world_destroy(w);
        free(rays); free(t); free(nrm); free(idx);
        if (bad) return 1;
    }
    return 0;
}

static int mixed_shapes(void)
{
    static const sc_vec3 perm[6][3] = {
        {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}}, {{0, 0, 1}, {0, 1, 0}, {-1, 0, 0}},
        {{0.70710677f, 0.70710677f, 0}, {-0.70710677f, 0.70710677f, 0}, {0, 0, 1}},
        {{1, 0, 0}, {0, -1, 0}, {0, 0, -1}}, {{0, 0, -1}, {1, 0, 0}, {0, -1, 0}}};
    for (int round = 0; round < 20; ++round) {
        scene *s = &g_scene;
        s->n = 1 + (int)(rnd() % 300);
        for (int i = 0; i < s->n; ++i) {
            int k = (int)(rnd() % 3);
            if (k == 0) {
                s->shape[i] = rand_aabb(12);
            } else if (k == 1) {
                sc_shape o = {0};
                o.type = SC_SHAPE_OBB;
                o.u.obb.center = (sc_vec3){dy(12), dy(12), dy(12)};
                const sc_vec3 *p = perm[rnd() % 6];
                o.u.obb.axes[0] = p[0];
                o.u.obb.axes[1] = p[1];
                o.u.obb.axes[2] = p[2];
                o.u.obb.half = (sc_vec3){(float)(rnd() % 6) * 0.5f, (float)(rnd() % 6) * 0.5f, (float)(rnd() % 6) * 0.5f};
                s->shape[i] = o;
            } else {
                sc_shape sp = {0};
                sp.type = SC_SHAPE_SPHERE;
                sp.u.sphere.center = (sc_vec3){dy(12), dy(12), dy(12)};
                sp.u.sphere.radius = (float)(rnd() % 8) * 0.5f;
                s->shape[i] = sp;
            }
        }
        sc_world *w = sc_world_create();
        ENSURE(add_scene(w, s) == 0);
        if (compare(w, s, 1500, 16)) { sc_world_destroy(w); return 1; }
        sc_world_destroy(w);
    }
    return 0;
}

static int update_refit_and_errors(void)
{
    scene *s = &g_scene;
    s->n = 500;
    for (int i = 0; i < s->n; ++i) s->shape[i] = rand_aabb(16);
    sc_world *w = sc_world_create();
    ENSURE(add_scene(w, s) == 0);
    ENSURE(sc_world_build(w) == SC_OK);
    ENSURE(compare(w, s, 500, 20) == 0);
    /* Move a range, refit, compare again. */
    float buf[6 * 100];
    for (int i = 0; i < 100; ++i) {
        sc_shape b = rand_aabb(20);
        s->shape[200 + i] = b;
        float v[6] = {b.u.aabb.min.x, b.u.aabb.min.y, b.u.aabb.min.z, b.u.aabb.max.x, b.u.aabb.max.y, b.u.aabb.max.z};
        memcpy(buf + 6 * i, v, sizeof v);
    }
    ENSURE(sc_world_update_aabbs(w, 200, buf, 100) == SC_OK);
    ENSURE(sc_world_refit(w) == SC_OK);
    ENSURE(compare(w, s, 1000, 20) == 0);
    /* After a move the world is stale: every query refuses (after validating its input) and
     * writes nothing, until a commit refits. */
    buf[0] = -30; buf[3] = 30;
    s->shape[200].u.aabb.min.x = -30;
    s->shape[200].u.aabb.max.x = 30;
    ENSURE(sc_world_update_aabbs(w, 200, buf, 1) == SC_OK);
    ENSURE(!sc_world_is_committed(w));
    {
        float ray[7] = {-40, 0.25f, 0.25f, 1, 0, 0, INFINITY}, bad_ray[7] = {0, 0, 0, 0, 0, 0, 1};
        float miss[7] = {-1000, 0, 0, 1, 0, 0, 1}; /* would be a miss: true must stay */
        float seg[6] = {-40, 0.25f, 0.25f, 40, 0.25f, 0.25f}, t1 = 7, all_t = 7;
        int i1 = 7, all_i = 7, total = 7;
        bool hit = true;
        ENSURE(sc_world_cast_rays(w, bad_ray, 1, &t1, &i1, NULL, NULL, g_scratch) == SC_ERR_RAY_DIR_ZERO);
        ENSURE(sc_scratch_error_index(g_scratch) == 0);
        ENSURE(sc_world_cast_rays(w, ray, 1, &t1, &i1, NULL, NULL, g_scratch) == SC_ERR_STALE);
        ENSURE(sc_scratch_error_index(g_scratch) == -1);
        ENSURE(sc_world_cast_rays_bruteforce(w, ray, 1, &t1, &i1, NULL, NULL, NULL) == SC_ERR_STALE);
        ENSURE(sc_world_any_hit(w, miss, 1, &hit, NULL, NULL) == SC_ERR_STALE);
        ENSURE(sc_world_cast_segments(w, seg, 1, &t1, &i1, NULL, NULL, NULL) == SC_ERR_STALE);
        sc_ray r = {{-40, 0.25f, 0.25f}, {1, 0, 0}, INFINITY};
        ENSURE(sc_world_cast_ray_all(w, RAY7(r), 1, &all_t, &all_i, NULL, &total, NULL) == SC_ERR_STALE && total == 0);
        ENSURE(t1 == 7 && i1 == 7 && hit && all_t == 7 && all_i == 7); /* nothing written */
        ENSURE(strcmp(sc_status_message(SC_ERR_STALE), "the world changed since its last commit: call sc_world_commit") == 0);
    }
    ENSURE(sc_world_commit(w) == SC_OK && sc_world_is_committed(w));
    ENSURE(compare(w, s, 1000, 20) == 0);
    ENSURE(sc_world_commit(w) == SC_OK); /* nothing to do */
    /* Refused calls leave the world unchanged. */
    float bad[12] = {0, 0, 0, 1, 1, 1, 2, 0, 0, 1, 1, 1}; /* the second has min.x > max.x */
    int first = 123;
    ENSURE(sc_world_add_aabbs(w, bad, 2, &first) == SC_ERR_AABB_MIN_GT_MAX);
    ENSURE(sc_world_error_index(w) == 1 && first == 123 && sc_world_count(w) == 500);
    bad[6] = NAN;
    ENSURE(sc_world_update_aabbs(w, 0, bad, 2) == SC_ERR_AABB_NOT_FINITE);
    ENSURE(sc_world_update_aabbs(w, 499, bad, 2) == SC_ERR_AABB_NOT_FINITE); /* validated before range */
    bad[6] = 0.5f;
    ENSURE(sc_world_update_aabbs(w, 499, bad, 2) == SC_ERR_RANGE);
    ENSURE(sc_world_update_spheres(w, 0, bad, 1) == SC_ERR_KIND);
    float zero_ray[7] = {0, 0, 0, 0, -0.0f, 0, INFINITY};
    float t;
    int idx;
    ENSURE(sc_world_cast_rays(w, zero_ray, 1, &t, &idx, NULL, NULL, g_scratch) == SC_ERR_RAY_DIR_ZERO);
    ENSURE(sc_world_cast_rays(w, zero_ray, -1, &t, &idx, NULL, NULL, g_scratch) == SC_ERR_COUNT);
    ENSURE(compare(w, s, 500, 20) == 0);
    sc_world_destroy(w);
    sc_world_destroy(NULL);
    return 0;
}

static int origin_inside_and_ties(void)
{
    /* Three nested boxes and a duplicate: from inside, t = 0 and the lowest index wins. */
    float boxes[] = {-4, -4, -4, 4, 4, 4, -1, -1, -1, 1, 1, 1, -1, -1, -1, 1, 1, 1, 2, -1, -1, 3, 1, 1};
    sc_world *w = sc_world_create();
    int first = -1;
    ENSURE(sc_world_add_aabbs(w, boxes, 4, &first) == SC_OK && first == 0);
    ENSURE(sc_world_commit(w) == SC_OK);
    float rays[] = {0, 0, 0, 1, 0, 0, INFINITY,     /* inside 0, 1, 2: index 0 at t 0 */
                    -8, 0, 0, 1, 0, 0, INFINITY,    /* enters 0 at t 4 */
                    -8, 0, 0, 1, 0, 0, 3.5f,        /* stops short */
                    -8, 4, 0, 1, -0.0f, 0, INFINITY /* slides along the top face of box 0 */};
    float t[4], n[12];
    int idx[4];
    ENSURE(sc_world_cast_rays(w, rays, 4, t, idx, n, NULL, g_scratch) == SC_OK);
    ENSURE(idx[0] == 0 && t[0] == 0 && n[0] == 0 && n[1] == 0 && n[2] == 0);
    ENSURE(idx[1] == 0 && t[1] == 4 && n[0 + 3] == -1);
    ENSURE(idx[2] == -1);
    ENSURE(idx[3] == 0 && t[3] == 4);
    /* Segments: nearest hit along a..b. */
    float segs[] = {-8, 0, 0, -4, 0, 0, /* ends on the face of box 0: t 1 */
                    -8, 0, 0, -5, 0, 0, /* short */
                    0.5f, 0, 0, 0.5f, 0, 0 /* a point inside 0, 1 and 2 */};
    ENSURE(sc_world_cast_segments(w, segs, 3, t, idx, n, NULL, g_scratch) == SC_OK);
    ENSURE(idx[0] == 0 && t[0] == 1);
    ENSURE(idx[1] == -1);
    ENSURE(idx[2] == 0 && t[2] == 0);
    sc_world_destroy(w);
    return 0;
}

static int far_coordinates(void)
{
    float boxes[] = {1e30f, 0, 0, 2e30f, 1, 1, 5, -1, -1, 6, 1, 1};
    sc_world *w = sc_world_create();
    ENSURE(sc_world_add_aabbs(w, boxes, 2, NULL) == SC_OK);
    ENSURE(sc_world_commit(w) == SC_OK);
    float rays[] = {0, 0.5f, 0.5f, 1, 0, 0, INFINITY, -3e38f, 0, 0, 1e38f, 0, 0, INFINITY};
    float t[2];
    int idx[2];
    ENSURE(sc_world_cast_rays(w, rays, 2, t, idx, NULL, NULL, g_scratch) == SC_OK);
    ENSURE(idx[0] == 1 && t[0] == 5);
    /* x = -3e38 + t*1e38 reaches box 1 (x = 5) and box 0 (x = 1e30) at t = 3 + tiny: both
     * round to 3.0f, a tie that goes to the lower index; the single queries agree. */
    sc_ray r1 = {{-3e38f, 0, 0}, {1e38f, 0, 0}, INFINITY};
    sc_shape b0 = {0}, b1 = {0};
    b0.type = b1.type = SC_SHAPE_AABB;
    b0.u.aabb = (sc_aabb){{1e30f, 0, 0}, {2e30f, 1, 1}};
    b1.u.aabb = (sc_aabb){{5, -1, -1}, {6, 1, 1}};
    sc_raycast_result h0 = sc_raycast(&r1, &b0), h1 = sc_raycast(&r1, &b1);
    ENSURE(h0.hit && h1.hit && h0.t == 3.0f && h1.t == 3.0f);
    ENSURE(idx[1] == 0 && t[1] == 3.0f);
    sc_world_destroy(w);
    return 0;
}

/* Found by the fuzzer fuzz_world (docs/fuzzing.md). */
static int fuzz_regressions(void)
{
    /* The brute-force kernel on a world without groups computed NULL + 0 (undefined). */
    sc_world *w = sc_world_create();
    float ray[] = {0, 0, 0, 1, 0, 0, INFINITY}, t = 1, n[3];
    int idx = 5;
    ENSURE(sc_world_cast_rays_bruteforce(w, ray, 1, &t, &idx, n, NULL, g_scratch) == SC_OK && idx == -1 && t == 0);
    /* Tiny direction components: a box whose slab ends all overflow to +inf. The AABB leaf
     * kernel hands such lanes to the scalar test (its second pass), so the world agrees with
     * the single query: a miss here, and a hit at t = FLT_MAX for the second ray. */
    float boxes[] = {0, 0, -1, 1, 1, 1, 0, 0, -1, 1, 1, 1};
    ENSURE(sc_world_add_aabbs(w, boxes, 2, NULL) == SC_OK);
    ENSURE(sc_world_commit(w) == SC_OK);
    float rays[] = {-100, -50, 0, 0x1p-146f, 0x1p-140f, 0, INFINITY, -100, -100.5f, 0, 0x1p-146f, 0x1p-146f, 0, INFINITY};
    float ts[2], tb[2];
    int is[2], ib[2];
    ENSURE(sc_world_cast_rays(w, rays, 2, ts, is, NULL, NULL, g_scratch) == SC_OK);
    ENSURE(sc_world_cast_rays_bruteforce(w, rays, 2, tb, ib, NULL, NULL, g_scratch) == SC_OK);
    ENSURE(is[0] == -1 && ib[0] == -1);
    ENSURE(is[1] == 0 && ib[1] == 0 && ts[1] == FLT_MAX && tb[1] == FLT_MAX);
    sc_world_destroy(w);
    return 0;
}

/* sc_world_cast_ray_all against brute force over the single queries: every object's sc_raycast,
 * the hits sorted by t then index; the same t, index and normal, bit for bit, and the same total.
 * Each ray is also cast with a smaller capacity: the same first hits, the same total. */
typedef struct hit_rec { float t; int index; float n[3]; } hit_rec;
/* docs/semantics.md, "World queries": equal reported t goes to the lowest index in every
 * traversal order, degenerate objects included. Object 0 is an OBB with subnormal half-extents
 * at the origin; the others are huge OBBs far away (so the tree splits), and one unit cube whose
 * face x = 0 the rays enter exactly where they pass object 0. A ray from (-1, 0, 0) along +x
 * meets object 0 at t = 1 - 2^-140 (reported 1: float) and the cube at t = 1: a tie, index 0.
 * Built in many insertion orders (the cube at every index from 1 up, the huge OBBs around it), and
 * cast from both sides, each ray must report index 0, and the brute-force kernel and the single
 * queries must agree. */
static int ties_with_degenerate_objects(void)
{
    const float sub = 0x1p-140f;
    for (int cube_at = 1; cube_at <= 9; ++cube_at) {
        sc_world *w = sc_world_create();
        ENSURE(w);
        int first = -1;
        float dot[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, sub, sub, sub};
        ENSURE(sc_world_add_obbs(w, dot, 1, &first) == SC_OK && first == 0);
        for (int i = 1; i <= 9; ++i) {
            if (i == cube_at) {
                float cube[15] = {0.5f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5f, 0.5f, 0.5f};
                ENSURE(sc_world_add_obbs(w, cube, 1, &first) == SC_OK && first == i);
                continue;
            }
            float k = (float)(i * 8 + 3) * (i % 2 ? 1e30f : -1e30f);
            float huge[15] = {k, k * 0.5f, -k, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1e29f, 1e29f, 1e29f};
            ENSURE(sc_world_add_obbs(w, huge, 1, &first) == SC_OK && first == i);
        }
        /* from -x along +x through the dot, and from +x along -x (the cube is then hit first) */
        ENSURE(sc_world_commit(w) == SC_OK);
        float rays[14] = {-1, 0, 0, 1, 0, 0, INFINITY, 2, 0, 0, -1, 0, 0, INFINITY};
        float t[2], nrm[6], tb[2], nb[6];
        int idx[2], ib[2];
        ENSURE(sc_world_cast_rays(w, rays, 2, t, idx, nrm, NULL, g_scratch) == SC_OK);
        ENSURE(sc_world_cast_rays_bruteforce(w, rays, 2, tb, ib, nb, NULL, g_scratch) == SC_OK);
        if (idx[0] != 0) fprintf(stderr, "  cube at %d: world index %d t %a, brute force index %d t %a\n", cube_at, idx[0], t[0], ib[0], tb[0]);
        ENSURE(idx[0] == 0 && t[0] == 1.0f);
        ENSURE(ib[0] == 0 && tb[0] == 1.0f);
        /* from +x: the cube's far face x = 1 at t = 1, a hit of index cube_at only */
        ENSURE(idx[1] == cube_at && t[1] == 1.0f && ib[1] == cube_at && tb[1] == 1.0f);
        sc_world_destroy(w);
    }
    return 0;
}

static int hit_rec_order(const void *pa, const void *pb)
{
    const hit_rec *a = pa, *b = pb;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static int compare_all(sc_world *w, const scene *s, const float *rays, int nrays)
{
    hit_rec *want = malloc(sizeof *want * (size_t)(s->n + 1));
    float *t = malloc(sizeof(float) * (size_t)(s->n + 1)), *nrm = malloc(sizeof(float) * 3 * (size_t)(s->n + 1));
    int *idx = malloc(sizeof(int) * (size_t)(s->n + 1));
    int bad = 0, hits = 0;
    for (int i = 0; i < nrays && bad < 5; ++i) {
        const float *p = rays + 7 * i;
        sc_ray r = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, p[6]};
        int m = 0;
        for (int o = 0; o < s->n; ++o) {
            sc_raycast_result h = sc_raycast(&r, &s->shape[o]);
            if (h.status != SC_OK || !h.hit) continue;
            want[m++] = (hit_rec){h.t, o, {h.normal.x, h.normal.y, h.normal.z}};
        }
        qsort(want, (size_t)m, sizeof *want, hit_rec_order);
        hits += m;
        int total = -1;
        sc_status st = sc_world_cast_ray_all(w, RAY7(r), s->n, t, idx, nrm, &total, NULL);
        int ok = st == SC_OK && total == m;
        for (int k = 0; ok && k < m; ++k)
            ok = t[k] == want[k].t && idx[k] == want[k].index && nrm[3 * k] == want[k].n[0] &&
                 nrm[3 * k + 1] == want[k].n[1] && nrm[3 * k + 2] == want[k].n[2];
        /* a smaller capacity: the same first hits and the same total; no normals; none at all */
        int cap = m / 2, total2 = -1, total3 = -1;
        float t2[8];
        int idx2[8];
        if (cap > 8) cap = 8;
        ok = ok && sc_world_cast_ray_all(w, RAY7(r), cap, t2, idx2, NULL, &total2, NULL) == SC_OK && total2 == m;
        for (int k = 0; ok && k < cap; ++k) ok = t2[k] == want[k].t && idx2[k] == want[k].index;
        ok = ok && sc_world_cast_ray_all(w, RAY7(r), 0, NULL, NULL, NULL, &total3, NULL) == SC_OK && total3 == m;
        if (!ok) {
            fprintf(stderr, "  ray (%a %a %a)/(%a %a %a) tmax %a: status %d, world total %d, brute %d\n", p[0], p[1], p[2],
                    p[3], p[4], p[5], p[6], (int)st, total, m);
            for (int k = 0; k < m && k < 6; ++k)
                fprintf(stderr, "    brute %d t %a | world %d t %a\n", want[k].index, want[k].t, k < total ? idx[k] : -9,
                        k < total ? t[k] : 0.0f);
            ++bad;
        }
    }
    free(want); free(t); free(nrm); free(idx);
    ENSURE(bad == 0);
    ENSURE(nrays == 0 || hits > 0); /* the scenes are not vacuous */
    return 0;
}

static int all_hits(void)
{
    /* dyadic boxes (exact ties, duplicates, zero thickness, axis-parallel rays, origins on faces) */
    for (int round = 0; round < 12; ++round) {
        scene *s = &g_scene;
        s->n = 1 + (int)(rnd() % 500);
        for (int i = 0; i < s->n; ++i) s->shape[i] = rand_aabb(16);
        for (int i = 1; i < s->n; i += 7) s->shape[i] = s->shape[i - 1];
        sc_world *w = sc_world_create();
        ENSURE(add_scene(w, s) == 0);
        int nrays = 600;
        float *rays = malloc(sizeof(float) * 7 * (size_t)nrays);
        for (int i = 0; i < nrays; ++i) rand_ray(s, rays + 7 * i, 20);
        int fail = compare_all(w, s, rays, nrays);
        /* after moving a range and committing (a refit) */
        if (!fail && s->n > 10) {
            float buf[6 * 10];
            for (int i = 0; i < 10; ++i) {
                sc_shape b = rand_aabb(20);
                s->shape[s->n - 10 + i] = b;
                float v[6] = {b.u.aabb.min.x, b.u.aabb.min.y, b.u.aabb.min.z, b.u.aabb.max.x, b.u.aabb.max.y, b.u.aabb.max.z};
                memcpy(buf + 6 * i, v, sizeof v);
            }
            ENSURE(sc_world_update_aabbs(w, s->n - 10, buf, 10) == SC_OK);
            ENSURE(sc_world_commit(w) == SC_OK);
            fail = compare_all(w, s, rays, nrays);
        }
        sc_world_destroy(w);
        free(rays);
        if (fail) return 1;
    }
    /* boxes, OBBs and spheres (small dyadic coordinates: no far-OBB exception) */
    static const sc_vec3 perm[4][3] = {
        {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}},
        {{0.70710677f, 0.70710677f, 0}, {-0.70710677f, 0.70710677f, 0}, {0, 0, 1}}, {{0, 0, -1}, {1, 0, 0}, {0, -1, 0}}};
    for (int round = 0; round < 8; ++round) {
        scene *s = &g_scene;
        s->n = 1 + (int)(rnd() % 300);
        for (int i = 0; i < s->n; ++i) {
            int k = (int)(rnd() % 3);
            sc_shape sh = {0};
            if (k == 0) {
                sh = rand_aabb(12);
            } else if (k == 1) {
                sh.type = SC_SHAPE_OBB;
                sh.u.obb.center = (sc_vec3){dy(12), dy(12), dy(12)};
                const sc_vec3 *q = perm[rnd() % 4];
                sh.u.obb.axes[0] = q[0];
                sh.u.obb.axes[1] = q[1];
                sh.u.obb.axes[2] = q[2];
                sh.u.obb.half = (sc_vec3){(float)(rnd() % 6) * 0.5f, (float)(rnd() % 6) * 0.5f, (float)(rnd() % 6) * 0.5f};
            } else {
                sh.type = SC_SHAPE_SPHERE;
                sh.u.sphere.center = (sc_vec3){dy(12), dy(12), dy(12)};
                sh.u.sphere.radius = (float)(rnd() % 8) * 0.5f;
            }
            s->shape[i] = sh;
        }
        sc_world *w = sc_world_create();
        ENSURE(add_scene(w, s) == 0);
        int nrays = 500;
        float *rays = malloc(sizeof(float) * 7 * (size_t)nrays);
        for (int i = 0; i < nrays; ++i) rand_ray(s, rays + 7 * i, 16);
        int fail = compare_all(w, s, rays, nrays);
        sc_world_destroy(w);
        free(rays);
        if (fail) return 1;
    }
    /* general floats: random mantissas, shared faces, rays aimed at corners */
    for (int round = 0; round < 8; ++round) {
        scene *s = &g_scene;
        s->n = 1 + (int)(rnd() % 300);
        for (int i = 0; i < s->n; ++i) {
            sc_shape b = {0};
            b.type = SC_SHAPE_AABB;
            for (int k = 0; k < 3; ++k) {
                float a = rf(100.0f), c = rf(100.0f);
                if (rnd() % 4 == 0 && i > 0) a = v3_at(s->shape[rnd() % (unsigned)i].u.aabb.max, k);
                if (c < a) { float x = a; a = c; c = x; }
                v3_set(&b.u.aabb.min, k, a);
                v3_set(&b.u.aabb.max, k, c);
            }
            s->shape[i] = b;
        }
        int nrays = 400;
        float *rays = malloc(sizeof(float) * 7 * (size_t)nrays);
        for (int i = 0; i < nrays; ++i) {
            float *r = rays + 7 * i;
            const sc_aabb *b = &s->shape[rnd() % (unsigned)s->n].u.aabb;
            for (int k = 0; k < 3; ++k) r[k] = rf(150.0f);
            for (int k = 0; k < 3; ++k) r[3 + k] = rnd() % 3 ? rf(1.0f) : (rnd() & 1 ? v3_at(b->min, k) : v3_at(b->max, k)) - r[k];
            if (r[3] == 0 && r[4] == 0 && r[5] == 0) r[3] = 1;
            r[6] = rnd() % 3 == 0 ? fabsf(rf(4.0f)) : INFINITY;
        }
        sc_world *w = sc_world_create();
        ENSURE(add_scene(w, s) == 0);
        int fail = compare_all(w, s, rays, nrays);
        sc_world_destroy(w);
        free(rays);
        if (fail) return 1;
    }
    /* far coordinates: far objects and a far origin take the exact path */
    {
        scene *s = &g_scene;
        s->n = 3;
        s->shape[0] = (sc_shape){.type = SC_SHAPE_AABB, .u.aabb = {{1e30f, 0, 0}, {2e30f, 1, 1}}};
        s->shape[1] = (sc_shape){.type = SC_SHAPE_AABB, .u.aabb = {{5, -1, -1}, {6, 1, 1}}};
        s->shape[2] = (sc_shape){.type = SC_SHAPE_AABB, .u.aabb = {{8, -1, -1}, {9, 1, 1}}};
        sc_world *w = sc_world_create();
        ENSURE(add_scene(w, s) == 0);
        float rays[] = {0, 0.5f, 0.5f, 1, 0, 0, INFINITY, -3e38f, 0, 0, 1e38f, 0, 0, INFINITY, 0, 0.5f, 0.5f, 1, 0, 0, 7};
        int fail = compare_all(w, s, rays, 3);
        float t[3];
        int idx[3], total;
        ENSURE(sc_world_cast_ray_all(w, RAY7(((sc_ray){{-3e38f, 0, 0}, {1e38f, 0, 0}, INFINITY})), 3, t, idx, NULL, &total, NULL) ==
               SC_OK);
        ENSURE(total == 3 && idx[0] == 0 && idx[1] == 1 && t[0] == 3.0f && t[1] == 3.0f); /* a tie: index order */
        sc_world_destroy(w);
        if (fail) return 1;
    }
    /* refused calls: the status, *total = 0, the world unchanged */
    {
        sc_world *w = sc_world_create();
        float box[6] = {0, 0, 0, 1, 1, 1};
        ENSURE(sc_world_add_aabbs(w, box, 1, NULL) == SC_OK);
        ENSURE(sc_world_commit(w) == SC_OK);
        sc_ray good = {{-1, 0.5f, 0.5f}, {1, 0, 0}, INFINITY}, zero = {{0, 0, 0}, {0, -0.0f, 0}, INFINITY},
               nan_tmax = {{0, 0, 0}, {1, 0, 0}, NAN};
        float t[2];
        int idx[2], total = 7;
        ENSURE(sc_world_cast_ray_all(w, RAY7(zero), 2, t, idx, NULL, &total, NULL) == SC_ERR_RAY_DIR_ZERO && total == 0);
        ENSURE(sc_world_error_index(w) == -1);
        ENSURE(sc_world_cast_ray_all(w, RAY7(nan_tmax), 2, t, idx, NULL, &total, NULL) == SC_ERR_RAY_TMAX);
        ENSURE(sc_world_cast_ray_all(w, RAY7(good), -1, t, idx, NULL, &total, NULL) == SC_ERR_COUNT && total == 0);
        ENSURE(sc_world_cast_ray_all(w, RAY7(good), 2, NULL, idx, NULL, &total, NULL) == SC_ERR_NULL);
        ENSURE(sc_world_cast_ray_all(w, NULL, 2, t, idx, NULL, &total, NULL) == SC_ERR_NULL);
        ENSURE(sc_world_cast_ray_all(w, RAY7(good), 2, t, idx, NULL, NULL, NULL) == SC_ERR_NULL);
        ENSURE(sc_world_cast_ray_all(NULL, RAY7(good), 2, t, idx, NULL, &total, NULL) == SC_ERR_NULL && total == 0);
        ENSURE(sc_world_cast_ray_all(w, RAY7(good), 2, t, idx, NULL, &total, NULL) == SC_OK && total == 1 && idx[0] == 0 && t[0] == 1);
        sc_world_destroy(w);
        /* an empty world */
        w = sc_world_create();
        ENSURE(sc_world_cast_ray_all(w, RAY7(good), 0, NULL, NULL, NULL, &total, NULL) == SC_OK && total == 0);
        sc_world_destroy(w);
    }
    return 0;
}

/* Filters, removal, enabled flags and masks (docs/semantics.md, "Filters"), against the single
 * queries over the objects a filter allows, computed here from its rules: an object is a
 * candidate when it is present (not removed), enabled, (mask & filter mask) != 0, and not the
 * ray's excluded index; SC_INSIDE_SKIP drops a candidate whose t_enter < 0, SC_INSIDE_EXIT reports
 * its t_exit (when <= tmax) with the exit face's normal. The nearest t wins,
 * ties to the lowest index; cast_ray_all lists them all by (t, index); any_hit and segments
 * agree. Removal never renumbers; an add of one object reuses the last freed slot. */
typedef struct filt_model {
    int present[4096], enabled[4096];
    uint32_t mask[4096];
} filt_model;
static filt_model g_fm;

static int candidate(const filt_model *m, int o, uint32_t mask, int exclude)
{
    return m->present[o] && m->enabled[o] && (m->mask[o] & mask) != 0 && o != exclude;
}

/* The reference: nearest allowed hit of ray p among the scene's objects under the inside rule
 * (0 solid, 1 skip, 2 exit: an object whose t_enter < 0 reports its t_exit when t_exit <= tmax). */
static void filt_brute(const scene *s, const float *p, uint32_t mask, int exclude, int inside, float *t, int *index)
{
    sc_ray r = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, p[6]};
    *index = -1;
    *t = 0;
    for (int o = 0; o < s->n; ++o) {
        if (!candidate(&g_fm, o, mask, exclude)) continue;
        sc_raycast_result h = sc_raycast(&r, &s->shape[o]);
        if (!h.hit) continue;
        float ht = h.t;
        if (h.t_enter < 0.0f && inside == 1) continue;
        if (h.t_enter < 0.0f && inside == 2) {
            if (!(h.t_exit <= r.tmax)) continue;
            ht = h.t_exit;
        }
        if (*index < 0 || ht < *t) { *t = ht; *index = o; }
    }
}

/* Whether n is the outward unit normal of a face of shape sh containing point q (within 1e-4 of
 * the shape's size): derived from the shape's definition, not from the code under test. */
static int exit_normal_ok(const sc_shape *sh, sc_vec3 q, sc_vec3 n)
{
    double len = sqrt((double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z);
    if (fabs(len - 1.0) > 1e-4) return 0;
    if (sh->type == SC_SHAPE_SPHERE) {
        const sc_sphere *sp = &sh->u.sphere;
        for (int i = 0; i < 3; ++i) {
            double want = ((double)v3_at(q, i) - v3_at(sp->center, i)) / sp->radius;
            if (fabs(want - v3_at(n, i)) > 1e-3) return 0;
        }
        return 1;
    }
    /* a box: n is +-one axis (the world axes for an AABB), and q lies on that face */
    sc_vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    sc_vec3 c = {0, 0, 0}, h = {0, 0, 0};
    if (sh->type == SC_SHAPE_AABB) {
        for (int i = 0; i < 3; ++i) {
            v3_set(&c, i, 0.5f * (v3_at(sh->u.aabb.min, i) + v3_at(sh->u.aabb.max, i)));
            v3_set(&h, i, 0.5f * (v3_at(sh->u.aabb.max, i) - v3_at(sh->u.aabb.min, i)));
        }
    } else {
        for (int i = 0; i < 3; ++i) axes[i] = sh->u.obb.axes[i];
        c = sh->u.obb.center;
        h = sh->u.obb.half;
    }
    for (int i = 0; i < 3; ++i) {
        double dn = (double)axes[i].x * n.x + (double)axes[i].y * n.y + (double)axes[i].z * n.z;
        if (fabs(fabs(dn) - 1.0) > 1e-4) continue;
        double l = ((double)q.x - c.x) * axes[i].x + ((double)q.y - c.y) * axes[i].y + ((double)q.z - c.z) * axes[i].z;
        double want = dn > 0 ? v3_at(h, i) : -v3_at(h, i);
        return fabs(l - want) <= 1e-4 * (1.0 + fabs(want));
    }
    return 0;
}

static int filters_remove_enable_masks(void)
{
    scene *s = &g_scene;
    s->n = 400;
    for (int i = 0; i < s->n; ++i) s->shape[i] = rand_aabb(12);
    for (int i = 3; i < s->n; i += 9) s->shape[i] = s->shape[i - 3]; /* duplicates: ties */
    for (int i = 1; i < s->n; i += 4) {
        /* spheres and OBBs too: they take the scalar path of the traversal */
        sc_shape sh = {0};
        if (i % 8 == 1) {
            sh.type = SC_SHAPE_SPHERE;
            sh.u.sphere = (sc_sphere){{dy(12), dy(12), dy(12)}, 0.5f + (float)(rnd() % 4) * 0.5f};
        } else {
            sh.type = SC_SHAPE_OBB;
            sh.u.obb = (sc_obb){{dy(12), dy(12), dy(12)}, {{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}}, {1, 0.5f, 1.5f}};
        }
        s->shape[i] = sh;
    }
    sc_world *w = sc_world_create();
    ENSURE(add_scene(w, s) == 0);
    for (int i = 0; i < s->n; ++i) { g_fm.present[i] = 1; g_fm.enabled[i] = 1; g_fm.mask[i] = 0xFFFFFFFFu; }
    /* masks: 1, 2 or 4 (some 0: never hit); some disabled; some removed */
    uint32_t masks[400];
    bool flags[400];
    for (int i = 0; i < s->n; ++i) {
        masks[i] = i % 17 == 0 ? 0u : 1u << (rnd() % 3);
        flags[i] = rnd() % 5 != 0;
        g_fm.mask[i] = masks[i];
        g_fm.enabled[i] = flags[i];
    }
    ENSURE(sc_world_set_masks(w, 0, masks, s->n) == SC_OK);
    ENSURE(sc_world_set_enabled(w, 0, flags, s->n) == SC_OK);
    ENSURE(sc_world_is_committed(w)); /* they take effect at once */
    for (int i = 5; i < s->n; i += 23) {
        ENSURE(sc_world_remove(w, i) == SC_OK);
        g_fm.present[i] = 0;
    }
    ENSURE(sc_world_is_committed(w) && sc_world_count(w) == s->n && sc_world_kind(w, 5) == 0);
    ENSURE(sc_world_kind(w, 4) == SC_SHAPE_AABB);
    /* count keeps the removed indices; live_count does not: 5, 28, 51, ... below n were removed */
    int removed = (s->n - 1 - 5) / 23 + 1;
    ENSURE(sc_world_live_count(w) == s->n - removed && sc_world_live_count(NULL) == 0);
    int nrays = 1200;
    float *rays = malloc(sizeof(float) * 7 * (size_t)nrays);
    int32_t *excl = malloc(sizeof(int32_t) * (size_t)nrays), *idx = malloc(sizeof(int32_t) * (size_t)nrays);
    int32_t *ib = malloc(sizeof(int32_t) * (size_t)nrays);
    float *t = malloc(sizeof(float) * (size_t)nrays), *tb = malloc(sizeof(float) * (size_t)nrays);
    bool *any = malloc(sizeof(bool) * (size_t)nrays);
    float *nrm = malloc(sizeof(float) * 3 * (size_t)nrays);
    int bad = 0, hits = 0, skipped_inside = 0, exits = 0;
    for (int round = 0; round < 9 && !bad; ++round) {
        if (round == 4) {
            /* after a commit (the BVH drops the removed objects) the answers are the same */
            ENSURE(sc_world_commit(w) == SC_OK);
        }
        uint32_t fmask = round % 3 == 0 ? 0xFFFFFFFFu : round % 3 == 1 ? 1u : 6u;
        int inside = (round / 3 + round) % 3; /* every (mask, rule) pair over the 9 rounds */
        for (int i = 0; i < nrays; ++i) {
            rand_ray(s, rays + 7 * i, 16);
            excl[i] = rnd() % 3 == 0 ? (int32_t)(rnd() % (unsigned)s->n) : -1;
        }
        sc_query_filter f = {fmask, excl, (sc_inside)inside};
        ENSURE(sc_world_cast_rays(w, rays, nrays, t, idx, nrm, &f, g_scratch) == SC_OK);
        ENSURE(sc_world_cast_rays_bruteforce(w, rays, nrays, tb, ib, NULL, &f, NULL) == SC_OK);
        ENSURE(sc_world_any_hit(w, rays, nrays, any, &f, g_scratch) == SC_OK);
        for (int i = 0; i < nrays && bad < 5; ++i) {
            float wt;
            int wi;
            filt_brute(s, rays + 7 * i, fmask, excl[i], inside, &wt, &wi);
            hits += wi >= 0;
            if (inside != 0) {
                float t0;
                int i0;
                filt_brute(s, rays + 7 * i, fmask, excl[i], 0, &t0, &i0);
                skipped_inside += inside == 1 && i0 >= 0 && t0 == 0.0f && wi != i0;
                /* an exit hit: t is the object's t_exit, the normal its exit face's */
                if (inside == 2 && wi >= 0 && idx[i] == wi && t[i] == wt && i0 >= 0 && t0 == 0.0f && wt > 0.0f) {
                    const float *p = rays + 7 * i;
                    sc_ray r = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, p[6]};
                    if (sc_raycast(&r, &s->shape[wi]).t_enter < 0.0f) {
                        ++exits;
                        sc_vec3 q = {p[0] + wt * p[3], p[1] + wt * p[4], p[2] + wt * p[5]};
                        sc_vec3 n = {nrm[3 * i], nrm[3 * i + 1], nrm[3 * i + 2]};
                        if (!exit_normal_ok(&s->shape[wi], q, n)) {
                            fprintf(stderr, "  round %d ray %d: exit normal (%g, %g, %g) of object %d (type %d) at t %g\n", round, i,
                                    n.x, n.y, n.z, wi, s->shape[wi].type, wt);
                            ++bad;
                        }
                    }
                }
            }
            if (idx[i] != wi || (wi >= 0 && t[i] != wt) || ib[i] != wi || (wi >= 0 && tb[i] != wt) || any[i] != (wi >= 0)) {
                fprintf(stderr, "  round %d ray %d: world %d t %g, brute force %d, any %d; want %d t %g\n", round, i, idx[i],
                        t[i], ib[i], any[i], wi, wt);
                ++bad;
            }
            /* cast_ray_all: the first listed hit is the nearest allowed one */
            if (i % 50 == 0) {
                sc_query_filter f1 = {fmask, excl + i, f.inside};
                float at[8];
                int32_t ai[8], total = -1;
                ENSURE(sc_world_cast_ray_all(w, rays + 7 * i, 8, at, ai, NULL, &total, &f1) == SC_OK);
                if ((total == 0) != (wi < 0) || (total > 0 && (ai[0] != wi || at[0] != wt))) {
                    fprintf(stderr, "  round %d ray %d: cast_ray_all first %d of %d, want %d\n", round, i, total ? ai[0] : -1, total, wi);
                    ++bad;
                }
            }
        }
    }
    ENSURE(bad == 0);
    ENSURE(hits > 500 && skipped_inside > 10 && exits > 10); /* not vacuous */
    /* errors: a bad inside rule, an exclusion outside the world (its ray named), removed objects */
    sc_query_filter bad_inside = {0xFFFFFFFFu, NULL, (sc_inside)7};
    ENSURE(sc_world_cast_rays(w, rays, 1, t, idx, NULL, &bad_inside, g_scratch) == SC_ERR_INSIDE);
    int32_t far_excl[3] = {-1, 2, 400};
    sc_query_filter bad_excl = {0xFFFFFFFFu, far_excl, SC_INSIDE_SOLID};
    ENSURE(sc_world_cast_rays(w, rays, 3, t, idx, NULL, &bad_excl, g_scratch) == SC_ERR_RANGE);
    ENSURE(sc_scratch_error_index(g_scratch) == 2);
    ENSURE(sc_world_remove(w, 5) == SC_ERR_REMOVED && sc_world_remove(w, 400) == SC_ERR_RANGE && sc_world_remove(w, -1) == SC_ERR_RANGE);
    ENSURE(sc_world_set_enabled(w, 4, flags, 2) == SC_ERR_REMOVED && sc_world_error_index(w) == 1);
    float box[6] = {0, 0, 0, 1, 1, 1};
    ENSURE(sc_world_update_aabbs(w, 5, box, 1) == SC_ERR_REMOVED);
    /* an add of one object takes the last freed slot; a batch appends */
    int32_t first = -1;
    int last_freed = 5 + 23 * ((s->n - 1 - 5) / 23);
    ENSURE(sc_world_add_aabbs(w, box, 1, &first) == SC_OK && first == last_freed && sc_world_count(w) == s->n);
    ENSURE(sc_world_live_count(w) == s->n - removed + 1);
    ENSURE(sc_world_add_aabbs(w, (float[12]){0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3}, 2, &first) == SC_OK && first == s->n);
    ENSURE(sc_world_count(w) == s->n + 2 && sc_world_live_count(w) == s->n - removed + 3);
    ENSURE(!sc_world_is_committed(w) && sc_world_commit(w) == SC_OK);
    float down[7] = {0.5f, 0.5f, 5, 0, 0, -1, INFINITY};
    int32_t all_i[8], total = 0;
    float all_t[8];
    ENSURE(sc_world_cast_ray_all(w, down, 8, all_t, all_i, NULL, &total, NULL) == SC_OK);
    int seen_reused = 0;
    for (int k = 0; k < total && k < 8; ++k) seen_reused |= all_i[k] == last_freed;
    ENSURE(seen_reused);
    free(rays); free(excl); free(idx); free(ib); free(t); free(tb); free(any); free(nrm);
    sc_world_destroy(w);
    return 0;
}

/* Sweeps by hand (docs/semantics.md, "Sweeps"): a ball passing a box edge, a box reaching a sphere
 * and a turned OBB, contact at the start, tmax; BVH and brute force agree. */
static int sweeps_by_hand(void)
{
    sc_world *w = sc_world_create();
    int32_t first;
    ENSURE(sc_world_add_aabbs(w, (float[6]){0, 0, 0, 1, 1, 1}, 1, &first) == SC_OK);
    ENSURE(sc_world_add_spheres(w, (float[4]){5, 0.5f, 0.5f, 1}, 1, &first) == SC_OK);
    ENSURE(sc_world_add_obbs(w, (float[15]){10, 0.5f, 0.5f, 0, 1, 0, -1, 0, 0, 0, 0, 1, 0.5f, 0.5f, 0.5f}, 1, &first) == SC_OK);
    ENSURE(sc_world_commit(w) == SC_OK);
    float t[2], n[6], p[6];
    int32_t idx[2];
    /* radius 0.5 at y = 1.3 past the edge x = 0, y = 1: x = -0.4 at contact, t = 2.6 */
    float s1[16] = {-3, 1.3f, 0.5f, 1, 0, 0, INFINITY, 0.5f, /* */ 0.5f, 0.5f, 0.5f, 1, 0, 0, INFINITY, 0.1f};
    ENSURE(sc_world_cast_spheres(w, s1, 2, t, idx, n, p, NULL, NULL) == SC_OK);
    ENSURE(idx[0] == 0 && fabsf(t[0] - 2.6f) < 1e-6f && fabsf(n[0] + 0.8f) < 1e-6f && fabsf(n[1] - 0.6f) < 1e-6f);
    ENSURE(p[0] == 0.0f && p[1] == 1.0f && p[2] == 0.5f);
    ENSURE(idx[1] == 0 && t[1] == 0.0f && n[3] == 0.0f && n[4] == 0.0f && n[5] == 0.0f); /* touching at the start */
    /* a box of half 0.25 from x = 2 reaches the sphere's x = 4 at centre 3.75 (t = 1.75); the OBB
     * (turned: its half 0.5 lies along x) at centre 9.25 from x = 7 when the sphere is excluded */
    float b1[20] = {2, 0.5f, 0.5f, 1, 0, 0, INFINITY, 0.25f, 0.25f, 0.25f, 7, 0.5f, 0.5f, 1, 0, 0, INFINITY, 0.25f, 0.25f, 0.25f};
    int32_t excl[2] = {-1, 1};
    sc_query_filter f = {0xFFFFFFFFu, excl, SC_INSIDE_SOLID};
    ENSURE(sc_world_cast_boxes(w, b1, 2, t, idx, n, NULL, &f, NULL) == SC_OK);
    ENSURE(idx[0] == 1 && t[0] == 1.75f && n[0] == -1.0f && idx[1] == 2 && t[1] == 2.25f && n[3] == -1.0f);
    float tb[2];
    int32_t ib[2];
    ENSURE(sc_world_cast_boxes_bruteforce(w, b1, 2, tb, ib, NULL, NULL, &f, NULL) == SC_OK);
    ENSURE(ib[0] == idx[0] && ib[1] == idx[1] && tb[0] == t[0] && tb[1] == t[1]);
    /* tmax 2: the ball stops short of the box */
    float s2[8] = {-3, 0.5f, 0.5f, 1, 0, 0, 2, 0.5f};
    ENSURE(sc_world_cast_spheres(w, s2, 1, t, idx, NULL, NULL, NULL, NULL) == SC_OK && idx[0] == -1 && t[0] == 0.0f);
    /* a negative radius is refused, naming the sweep */
    float bad[16] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1, -1};
    ENSURE(sc_world_cast_spheres(w, bad, 2, t, idx, NULL, NULL, NULL, g_scratch) == SC_ERR_SPHERE_RADIUS_NEGATIVE);
    ENSURE(sc_scratch_error_index(g_scratch) == 1);
    sc_world_destroy(w);
    return 0;
}

/* Overlaps by hand (docs/semantics.md, "Overlaps"): touching counts, ascending order, cap and
 * total, filters, a frustum; the exact pairs at the touching point itself. */
static int overlaps_by_hand(void)
{
    sc_world *w = sc_world_create();
    int32_t first, out[8], total = -1;
    ENSURE(sc_world_add_aabbs(w, (float[12]){0, 0, 0, 1, 1, 1, 3, 0, 0, 4, 1, 1}, 2, &first) == SC_OK);
    ENSURE(sc_world_add_spheres(w, (float[4]){10, 0, 0, 1}, 1, &first) == SC_OK);
    ENSURE(sc_world_add_obbs(w, (float[15]){20, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0, 1, 1, 2, 1}, 1, &first) == SC_OK);
    ENSURE(sc_world_commit(w) == SC_OK);
    sc_aabb q = {{1, 0, 0}, {3, 1, 1}};
    ENSURE(sc_world_overlap_aabb(w, &q, out, 8, &total, NULL) == SC_OK && total == 2 && out[0] == 0 && out[1] == 1);
    sc_sphere s = {{7, 0, 0}, 2}; /* 3 = 2 + 1 from the sphere's centre: touching */
    ENSURE(sc_world_overlap_sphere(w, &s, out, 8, &total, NULL) == SC_OK && total == 1 && out[0] == 2);
    s.radius = nextafterf(2.0f, 0.0f); /* a hair less: apart */
    ENSURE(sc_world_overlap_sphere(w, &s, out, 8, &total, NULL) == SC_OK && total == 0);
    sc_aabb q2 = {{17, -1, -1}, {18, 1, 1}}; /* the turned OBB spans x in [18, 22] */
    ENSURE(sc_world_overlap_aabb(w, &q2, out, 8, &total, NULL) == SC_OK && total == 1 && out[0] == 3);
    sc_aabb all = {{-100, -100, -100}, {100, 100, 100}};
    ENSURE(sc_world_overlap_aabb(w, &all, out, 2, &total, NULL) == SC_OK && total == 4 && out[0] == 0 && out[1] == 1);
    int32_t excl = 1;
    sc_query_filter f = {0xFFFFFFFFu, &excl, SC_INSIDE_SOLID};
    ENSURE(sc_world_overlap_aabb(w, &all, out, 8, &total, &f) == SC_OK && total == 3 && out[0] == 0 && out[1] == 2);
    /* the box [-1, 5] x [-1, 2] x [-1, 2] as a frustum */
    float planes[24] = {1, 0, 0, 1, -1, 0, 0, 5, 0, 1, 0, 1, 0, -1, 0, 2, 0, 0, 1, 1, 0, 0, -1, 2};
    ENSURE(sc_world_overlap_frustum(w, planes, out, 8, &total, NULL) == SC_OK && total == 2 && out[0] == 0 && out[1] == 1);
    sc_aabb badbox = {{2, 0, 0}, {1, 1, 1}};
    ENSURE(sc_world_overlap_aabb(w, &badbox, out, 8, &total, NULL) == SC_ERR_AABB_MIN_GT_MAX);
    sc_world_destroy(w);

    /* A ball against an OBB, exactly (sc_ball.c): the unit cube about the origin as an OBB; the
     * ball of radius 2 at (3, 1, 0) touches its face x = 1; moved to y = 1 + 2^-20 its squared
     * distance to the edge is 4 + 2^-40 (a double-precision test with any relative slack above
     * 2^-43 would call it touching), and the next float above 2 reaches it. Both ways round:
     * the ball as the volume, and as the object under the OBB volume. */
    sc_world *v = sc_world_create();
    sc_obb cube = {{0, 0, 0}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {1, 1, 1}};
    ENSURE(sc_world_add_obbs(v, (const float *)&cube, 1, &first) == SC_OK && sc_world_commit(v) == SC_OK);
    float up = 1.0f + 0x1p-20f;
    sc_sphere b1 = {{3, 1, 0}, 2}, b2 = {{3, up, 0}, 2}, b3 = {{3, up, 0}, nextafterf(2.0f, 3.0f)};
    ENSURE(sc_world_overlap_sphere(v, &b1, out, 8, &total, NULL) == SC_OK && total == 1);
    ENSURE(sc_world_overlap_sphere(v, &b2, out, 8, &total, NULL) == SC_OK && total == 0);
    ENSURE(sc_world_overlap_sphere(v, &b3, out, 8, &total, NULL) == SC_OK && total == 1);
    sc_world_destroy(v);
    v = sc_world_create();
    ENSURE(sc_world_add_spheres(v, (const float *)&b1, 1, &first) == SC_OK);
    ENSURE(sc_world_add_spheres(v, (const float *)&b2, 1, &first) == SC_OK);
    ENSURE(sc_world_add_spheres(v, (const float *)&b3, 1, &first) == SC_OK && sc_world_commit(v) == SC_OK);
    ENSURE(sc_world_overlap_obb(v, &cube, out, 8, &total, NULL) == SC_OK && total == 2 && out[0] == 0 && out[1] == 2);
    /* the same cube as a frustum of six planes */
    float cube_planes[24] = {1, 0, 0, 1, -1, 0, 0, 1, 0, 1, 0, 1, 0, -1, 0, 1, 0, 0, 1, 1, 0, 0, -1, 1};
    ENSURE(sc_world_overlap_frustum(v, cube_planes, out, 8, &total, NULL) == SC_OK && total == 2 && out[0] == 0 &&
           out[1] == 2);
    sc_world_destroy(v);
    return 0;
}

/* Nearest objects by hand (docs/semantics.md, "Nearest objects"): a tie to the lowest index,
 * inside, exclusion, the distance limit, a bad limit. */
static int closest_objects_by_hand(void)
{
    sc_world *w = sc_world_create();
    int32_t first, idx[3];
    float d[3], q[9];
    ENSURE(sc_world_add_aabbs(w, (float[12]){0, 0, 0, 1, 1, 1, 3, 0, 0, 4, 1, 1}, 2, &first) == SC_OK);
    ENSURE(sc_world_commit(w) == SC_OK);
    float pts[9] = {2, 0.5f, 0.5f, 3.5f, 0.25f, 0.75f, 8, 0.5f, 0.5f};
    ENSURE(sc_world_closest_objects(w, pts, 3, 3.0f, idx, d, q, NULL, NULL) == SC_OK);
    ENSURE(idx[0] == 0 && d[0] == 1.0f && q[0] == 1.0f && q[1] == 0.5f && q[2] == 0.5f);
    ENSURE(idx[1] == 1 && d[1] == 0.0f && q[3] == 3.5f && q[4] == 0.25f && q[5] == 0.75f);
    ENSURE(idx[2] == -1 && isinf(d[2]));
    int32_t excl[3] = {0, -1, -1};
    sc_query_filter f = {0xFFFFFFFFu, excl, SC_INSIDE_SOLID};
    ENSURE(sc_world_closest_objects(w, pts, 1, INFINITY, idx, d, NULL, &f, NULL) == SC_OK && idx[0] == 1 && d[0] == 1.0f);
    ENSURE(sc_world_closest_objects(w, pts, 1, -1.0f, idx, d, NULL, NULL, NULL) == SC_ERR_MAX_DISTANCE);
    sc_world_destroy(w);
    return 0;
}

/* Sweeps, overlaps and nearest objects on random scenes (AABBs, spheres, OBBs, some removed,
 * disabled or masked): the BVH walks give the brute-force answers, bit for bit, natively (and
 * under ASan + UBSan in npm test: no walk reads outside its arrays). */
static int queries_bvh_equal_brute(void)
{
    scene *s = &g_scene;
    s->n = 600;
    for (int i = 0; i < s->n; ++i) {
        s->shape[i] = rand_aabb(16);
        if (i % 3 == 1) {
            sc_shape sh = {0};
            sh.type = SC_SHAPE_SPHERE;
            sh.u.sphere = (sc_sphere){{dy(16), dy(16), dy(16)}, 0.25f + (float)(rnd() % 6) * 0.5f};
            s->shape[i] = sh;
        } else if (i % 3 == 2) {
            sc_shape sh = {0};
            sh.type = SC_SHAPE_OBB;
            sh.u.obb = (sc_obb){{dy(16), dy(16), dy(16)}, {{0.6f, 0.8f, 0}, {-0.8f, 0.6f, 0}, {0, 0, 1}}, {1, 0.5f, 1.5f}};
            s->shape[i] = sh;
        }
    }
    sc_world *w = sc_world_create();
    ENSURE(add_scene(w, s) == SC_OK);
    for (int i = 7; i < s->n; i += 31) ENSURE(sc_world_remove(w, i) == SC_OK);
    bool off[5] = {0, 0, 0, 0, 0};
    ENSURE(sc_world_set_enabled(w, 101, off, 5) == SC_OK); /* removed: 7, 38, ..., every 31 */
    uint32_t masks[29];
    for (int i = 0; i < 29; ++i) masks[i] = 1u << (i % 3);
    ENSURE(sc_world_set_masks(w, 226, masks, 29) == SC_OK);
    ENSURE(sc_world_commit(w) == SC_OK);
    enum { N = 300 };
    static float sph[8 * N], box[10 * N], pts[3 * N], t1[N], t2[N], n1[3 * N], n2[3 * N], p1[3 * N], p2[3 * N];
    static int32_t i1[N], i2[N];
    for (int i = 0; i < N; ++i) {
        float *a = sph + 8 * i, *b = box + 10 * i;
        for (int k = 0; k < 3; ++k) { a[k] = b[k] = pts[3 * i + k] = dy(20); }
        do { for (int k = 3; k < 6; ++k) a[k] = b[k] = dy(2); } while (a[3] == 0 && a[4] == 0 && a[5] == 0);
        a[6] = b[6] = i % 4 == 0 ? 10.0f : INFINITY;
        a[7] = 0.25f * (float)(rnd() % 8);
        for (int k = 7; k < 10; ++k) b[k] = 0.25f * (float)(rnd() % 8);
    }
    int32_t excl[N];
    for (int i = 0; i < N; ++i) excl[i] = i % 5 == 0 ? (int32_t)(rnd() % (unsigned)s->n) : -1;
    sc_query_filter fl = {5u, excl, SC_INSIDE_SOLID};
    int hits = 0, bad = 0;
    for (int pass = 0; pass < 2; ++pass) {
        const sc_query_filter *f = pass ? &fl : NULL;
        ENSURE(sc_world_cast_spheres(w, sph, N, t1, i1, n1, p1, f, g_scratch) == SC_OK);
        ENSURE(sc_world_cast_spheres_bruteforce(w, sph, N, t2, i2, n2, p2, f, g_scratch) == SC_OK);
        for (int i = 0; i < N; ++i) {
            bad += i1[i] != i2[i] || t1[i] != t2[i] || memcmp(n1 + 3 * i, n2 + 3 * i, 12) || memcmp(p1 + 3 * i, p2 + 3 * i, 12);
            hits += i1[i] >= 0;
        }
        ENSURE(sc_world_cast_boxes(w, box, N, t1, i1, n1, p1, f, g_scratch) == SC_OK);
        ENSURE(sc_world_cast_boxes_bruteforce(w, box, N, t2, i2, n2, p2, f, g_scratch) == SC_OK);
        for (int i = 0; i < N; ++i) bad += i1[i] != i2[i] || t1[i] != t2[i] || memcmp(n1 + 3 * i, n2 + 3 * i, 12);
        /* nearest objects: the BVH's pruned walk against a brute-force scan of the single query */
        ENSURE(sc_world_closest_objects(w, pts, N, pass ? 6.0f : INFINITY, i1, t1, p1, f, g_scratch) == SC_OK);
        for (int i = 0; i < N; ++i) {
            sc_vec3 p = {pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]};
            int want = -1;
            double wd = pass ? 36.0 : INFINITY;
            for (int o = 0; o < s->n; ++o) {
                if (sc_world_kind(w, o) == 0 || (o >= 101 && o < 106)) continue;
                if (pass && ((o >= 226 && o < 255 && !(masks[o - 226] & 5u)) || o == excl[i])) continue;
                sc_point_result q = sc_closest_point(p, &s->shape[o]);
                double dx = (double)p.x - q.point.x, dyy = (double)p.y - q.point.y, dz = (double)p.z - q.point.z;
                double d2 = dx * dx + dyy * dyy + dz * dz;
                if (d2 < wd || (d2 == wd && want >= 0 && o < want)) { wd = d2; want = o; }
            }
            bad += i1[i] != want;
        }
        /* overlaps: around each point, an AABB and a sphere volume */
        for (int i = 0; i < 40; ++i) {
            int32_t o1[600], o2[600], c1 = -1, c2 = -2;
            const float *c = pts + 3 * i;
            sc_aabb q = {{c[0] - 3, c[1] - 2, c[2] - 4}, {c[0] + 3, c[1] + 2, c[2] + 4}};
            ENSURE(sc_world_overlap_aabb(w, &q, o1, 600, &c1, f) == SC_OK);
            ENSURE(sc__overlap_checked(w, SC_SHAPE_AABB, &q, o2, 600, &c2, f, 1) == SC_OK);
            bad += c1 != c2 || memcmp(o1, o2, sizeof(int32_t) * (size_t)(c1 > 0 ? c1 : 0));
            sc_sphere sp = {{c[0], c[1], c[2]}, 3.5f};
            ENSURE(sc_world_overlap_sphere(w, &sp, o1, 600, &c1, f) == SC_OK);
            ENSURE(sc__overlap_checked(w, SC_SHAPE_SPHERE, &sp, o2, 600, &c2, f, 1) == SC_OK);
            bad += c1 != c2 || memcmp(o1, o2, sizeof(int32_t) * (size_t)(c1 > 0 ? c1 : 0));
            hits += c1 > 0;
        }
    }
    if (bad) fprintf(stderr, "  %d differences\n", bad);
    ENSURE(bad == 0 && hits > 100);
    sc_world_destroy(w);
    return 0;
}

/* The ball test's double-precision filter (sc_ball.c) never takes a sign it cannot be sure of:
 * on inputs built to tie (small dyadic normals, offsets, centres and radii, so the ball often
 * touches exactly; near-parallel and opposite planes; huge and subnormal scales), the filtered
 * answer equals the answer of the exact arithmetic alone. */
static int ball_filter_agrees_with_exact(void)
{
    static const float radii[] = {0, 0.5f, 1, 1.5f, 2, 2.5f, 3, 5, 0x1p-20f, 1.4142135f, 1.7320508f};
    static const float scales[] = {1, 1, 1, 1, 0x1p-60f, 0x1p60f, 0x1p-140f};
    int differ = 0, meets = 0, n = 0;
    for (int it = 0; it < 20000; ++it) {
        sc_xhs h[6];
        int m = 1 + (int)(rnd() % 6u), paired = rnd() % 4u == 0;
        if (paired) m = 6;
        float sc = pick(scales, 7);
        for (int k = 0; k < m; ++k) {
            if (paired && k % 2 == 1) {
                for (int e = 0; e < 3; ++e) h[k].n[e] = -h[k - 1].n[e];
            } else {
                for (int e = 0; e < 3; ++e) h[k].n[e] = (float)((int)(rnd() % 5u) - 2);
                /* nearly parallel to another: a nudge of a few ulps (full 24-bit mantissas) */
                if (rnd() % 3u == 0) h[k].n[rnd() % 3u] += (float)(1 + rnd() % 7u) * 0x1p-23f;
                if (rnd() % 4u == 0) h[k].n[rnd() % 3u] *= 1.0f + (float)(rnd() % 4096u) * 0x1p-23f;
                if (h[k].n[0] == 0 && h[k].n[1] == 0 && h[k].n[2] == 0) h[k].n[0] = 1;
            }
            h[k].nb = 1 + (int)(rnd() % 2u);
            for (int j = 0; j < h[k].nb; ++j) h[k].b[j] = (double)dy(4) * sc;
        }
        sc_vec3 c = {dy(6) * sc, dy(6) * sc, dy(6) * sc};
        float r = pick(radii, 11) * sc;
        if (rnd() % 2u == 0) {
            /* full 24-bit mantissas, and the centre exactly on some planes: their b terms are
             * the products n_e c_e themselves, so beta = 0 exactly while its double sum rounds */
            for (int e = 0; e < 3; ++e) ((float *)&c)[e] *= 1.0f + (float)(rnd() % 8388608u) * 0x1p-23f;
            for (int k = 0; k < m; ++k) {
                if (paired && k % 2 == 1) continue;
                for (int e = 0; e < 3; ++e) h[k].n[e] *= 1.0f + (float)(rnd() % 8388608u) * 0x1p-23f;
                if (paired) for (int e = 0; e < 3; ++e) h[k + 1].n[e] = -h[k].n[e];
                if (rnd() % 2u) {
                    h[k].nb = 4;
                    for (int e = 0; e < 3; ++e) h[k].b[e] = (double)h[k].n[e] * ((float *)&c)[e];
                    h[k].b[3] = 0.0;
                }
            }
        }
        if (rnd() % 3u == 0) {
            /* the centre nudged by an ulp or two, and the radius to the nearest float of its
             * distance to plane 0 in double: ties within rounding, not exact ones */
            c.x *= 1.0f + (float)(rnd() % 3u) * 0x1p-23f;
            double nn = 0, s0 = h[0].b[0] + (h[0].nb > 1 ? h[0].b[1] : 0.0);
            for (int e = 0; e < 3; ++e) nn += (double)h[0].n[e] * h[0].n[e];
            s0 -= (double)h[0].n[0] * c.x + (double)h[0].n[1] * c.y + (double)h[0].n[2] * c.z;
            r = (float)(fabs(s0) / sqrt(nn));
        }
        int a = sc__ball_meets_halfspaces(h, m, paired, c, r);
        int b = sc__ball_meets_halfspaces_exact(h, m, paired, c, r);
        differ += a != b;
        meets += b;
        ++n;
    }
    if (differ) fprintf(stderr, "  %d of %d differ\n", differ, n);
    ENSURE(differ == 0 && meets > n / 10 && meets < n - n / 10);
    return 0;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    printf("world kernels: %s\n", sc_world_simd());
    g_scratch = sc_scratch_create();
    if (!g_scratch || sc_scratch_reserve(g_scratch, 8192) != SC_OK) return 2;
    RUN_TEST(random_dyadic_boxes);
    RUN_TEST(general_floats_and_scales);
    RUN_TEST(mixed_shapes);
    RUN_TEST(update_refit_and_errors);
    RUN_TEST(origin_inside_and_ties);
    RUN_TEST(far_coordinates);
    RUN_TEST(fuzz_regressions);
    RUN_TEST(all_hits);
    RUN_TEST(ties_with_degenerate_objects);
    RUN_TEST(filters_remove_enable_masks);
    RUN_TEST(sweeps_by_hand);
    RUN_TEST(overlaps_by_hand);
    RUN_TEST(ball_filter_agrees_with_exact);
    RUN_TEST(closest_objects_by_hand);
    RUN_TEST(queries_bvh_equal_brute);
    printf("%d passed, %d failed\n", g_run - g_failed_tests, g_failed_tests);
    sc_scratch_destroy(g_scratch);
    return g_failed_tests ? 1 : 0;
}
