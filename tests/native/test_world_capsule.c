/* Capsules as world objects (issue 24): storage and its errors, rays bit for bit the single
 * queries' (every inside rule), sweeps against hand-derived contacts and the brute force, overlaps
 * exact against AABBs (touching in, one float step out), nearest objects against sc_closest_point,
 * remove / update / refit. Expected values come from the geometry worked out by hand in the
 * comments, or from the single queries (an independent code path: no BVH, no world storage). */
#include "slabcast.h"
#include "sc_internal.h" /* sc__exit_normal_capsule: the single query's exit normal */
#include "sc_sweep.h"    /* sc__sw_capsule_box: the upright capsule's sweep against the pieces' */

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"


static unsigned long long g_rng = 0x9E3779B97F4A7C15ull;
static unsigned rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (unsigned)(g_rng >> 32);
}
static float frand(float lo, float hi) { return lo + (hi - lo) * (float)((rnd() >> 8) * (1.0 / 16777216.0)); }
/* Dyadic coordinates in [-lim, lim] (steps of 1/4): exact ties and touching contacts. */
static float dyad(int lim) { return (float)((int)(rnd() % (unsigned)(8 * lim + 1)) - 4 * lim) * 0.25f; }

static int storage_and_errors(void)
{
    sc_world *w = sc_world_create();
    const float good[14] = {0, 0, 0, 1, 0, 0, 0.5f, 2, 2, 2, 2, 2, 2, 0}; /* the second: a == b, r = 0 (a point) */
    int32_t first = -1;
    ENSURE(sc_world_add_capsules(w, good, 2, &first) == SC_OK && first == 0);
    ENSURE(sc_world_kind(w, 0) == SC_SHAPE_CAPSULE && sc_world_kind(w, 1) == SC_SHAPE_CAPSULE);
    float bad[21] = {0, 0, 0, 1, 0, 0, 0.5f, 0, 0, 0, 1, 0, 0, 0.5f, 0, 0, 0, 1, 0, 0, 0.5f};
    bad[20] = NAN;
    ENSURE(sc_world_add_capsules(w, bad, 3, &first) == SC_ERR_CAPSULE_RADIUS && sc_world_error_index(w) == 2);
    bad[20] = -1.0f;
    ENSURE(sc_world_add_capsules(w, bad, 3, &first) == SC_ERR_CAPSULE_RADIUS_NEGATIVE && sc_world_error_index(w) == 2);
    bad[20] = 0.5f;
    bad[8] = INFINITY; /* item 1's a.z */
    ENSURE(sc_world_add_capsules(w, bad, 3, &first) == SC_ERR_CAPSULE_A && sc_world_error_index(w) == 1);
    bad[8] = 0;
    bad[11] = NAN; /* item 1's b.y */
    ENSURE(sc_world_add_capsules(w, bad, 3, &first) == SC_ERR_CAPSULE_B && sc_world_error_index(w) == 1);
    ENSURE(sc_world_count(w) == 2); /* refused batches add nothing */
    const float box[6] = {0, 0, 0, 1, 1, 1};
    ENSURE(sc_world_add_aabbs(w, box, 1, &first) == SC_OK && first == 2);
    ENSURE(sc_world_update_capsules(w, 1, good, 2) == SC_ERR_KIND && sc_world_error_index(w) == 1);
    ENSURE(sc_world_update_capsules(w, 0, bad, 2) == SC_ERR_CAPSULE_B && sc_world_error_index(w) == 1);
    ENSURE(sc_world_update_capsules(w, 1, good, 1) == SC_OK);
    /* a removed capsule's slot taken by a capsule, then by a sphere */
    ENSURE(sc_world_remove(w, 0) == SC_OK && sc_world_kind(w, 0) == 0);
    ENSURE(sc_world_update_capsules(w, 0, good, 1) == SC_ERR_REMOVED);
    ENSURE(sc_world_add_capsules(w, good + 7, 1, &first) == SC_OK && first == 0);
    ENSURE(sc_world_kind(w, 0) == SC_SHAPE_CAPSULE);
    ENSURE(sc_world_commit(w) == SC_OK);
    sc_world_destroy(w);
    return 0;
}

/* The reference of one ray: the single queries on each allowed object, under the inside rule. */
static void ray_reference(const sc_world *w, const sc_shape *shapes, int n, const sc_ray *ray, int inside,
                          float *t, int *index, sc_vec3 *normal)
{
    *index = -1;
    *t = 0.0f;
    *normal = (sc_vec3){0, 0, 0};
    (void)w;
    for (int o = 0; o < n; ++o) {
        sc_raycast_result h = sc_raycast(ray, &shapes[o]);
        if (h.status != SC_OK || !h.hit) continue;
        float ht = h.t;
        sc_vec3 hn = h.normal;
        if (h.t_enter < 0.0f && inside != SC_INSIDE_SOLID) {
            if (inside == SC_INSIDE_SKIP || !(h.t_exit <= ray->tmax)) continue;
            ht = h.t_exit;
            hn = shapes[o].type == SC_SHAPE_CAPSULE ? sc__exit_normal_capsule(ray, &shapes[o].u.capsule)
                                                    : sc__exit_normal(ray, &shapes[o]);
        }
        if (*index < 0 || ht < *t) {
            *t = ht;
            *index = o;
            *normal = hn;
        }
    }
}

static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Random capsules (dyadic: touching and grazing rays) with boxes and spheres among them; every ray's
 * answer is the single queries' own, bit for bit, under every inside rule, through the BVH and the
 * brute force. */
static int rays_bit_identical(void)
{
    enum { N = 300, R = 3000 };
    sc_world *w = sc_world_create();
    static sc_shape shapes[N];
    for (int o = 0; o < N; ++o) {
        int k = rnd() % 6;
        if (k == 0) {
            float c[3] = {dyad(10), dyad(10), dyad(10)};
            float b[6] = {c[0], c[1], c[2], c[0] + dyad(1) + 1.0f, c[1] + 1.5f, c[2] + 0.5f};
            sc_world_add_aabbs(w, b, 1, NULL);
            shapes[o].type = SC_SHAPE_AABB;
            shapes[o].u.aabb = (sc_aabb){{b[0], b[1], b[2]}, {b[3], b[4], b[5]}};
        } else if (k == 1) {
            float s[4] = {dyad(10), dyad(10), dyad(10), dyad(1) + 1.0f};
            sc_world_add_spheres(w, s, 1, NULL);
            shapes[o].type = SC_SHAPE_SPHERE;
            shapes[o].u.sphere = (sc_sphere){{s[0], s[1], s[2]}, s[3]};
        } else {
            float c[7] = {dyad(10), dyad(10), dyad(10), 0, 0, 0, (rnd() % 5) * 0.25f};
            int kind = rnd() % 3; /* a segment along an axis, a general one, or a ball (a == b) */
            for (int i = 0; i < 3; ++i) c[3 + i] = kind == 2 ? c[i] : kind == 0 ? c[i] + (i == 0 ? 2.0f : 0.0f) : c[i] + dyad(2);
            if (kind == 1) c[6] = frand(0.0f, 1.5f);
            sc_world_add_capsules(w, c, 1, NULL);
            shapes[o].type = SC_SHAPE_CAPSULE;
            shapes[o].u.capsule = (sc_capsule){{c[0], c[1], c[2]}, {c[3], c[4], c[5]}, c[6]};
        }
    }
    ENSURE(sc_world_commit(w) == SC_OK);
    static float rays[7 * R], t[R], tb[R], nrm[3 * R], nb[3 * R];
    static int32_t idx[R], ib[R];
    for (int i = 0; i < R; ++i) {
        float *p = rays + 7 * i;
        for (int k = 0; k < 3; ++k) p[k] = dyad(12);
        do {
            for (int k = 3; k < 6; ++k) p[k] = rnd() % 3 ? dyad(1) : frand(-1.0f, 1.0f);
        } while (p[3] == 0 && p[4] == 0 && p[5] == 0);
        p[6] = rnd() % 4 ? INFINITY : dyad(4) + 5.0f;
    }
    int hits = 0, inside_hits = 0;
    for (int rule = 0; rule < 3; ++rule) {
        sc_query_filter f = sc_query_filter_default();
        f.inside = (sc_inside)rule;
        ENSURE(sc_world_cast_rays(w, rays, R, t, idx, nrm, &f, NULL) == SC_OK);
        ENSURE(sc_world_cast_rays_bruteforce(w, rays, R, tb, ib, nb, &f, NULL) == SC_OK);
        for (int i = 0; i < R; ++i) {
            const float *p = rays + 7 * i;
            sc_ray ray = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, p[6]};
            float rt;
            int ri;
            sc_vec3 rn;
            ray_reference(w, shapes, N, &ray, rule, &rt, &ri, &rn);
            ENSURE(idx[i] == ri && ib[i] == ri);
            if (ri < 0) continue;
            ++hits;
            if (shapes[ri].type == SC_SHAPE_CAPSULE && rt == 0.0f) ++inside_hits;
            ENSURE(same_bits(t[i], rt + 0.0f) && same_bits(tb[i], t[i]));
            ENSURE(same_bits(nrm[3 * i], rn.x + 0.0f) && same_bits(nrm[3 * i + 1], rn.y + 0.0f) &&
                   same_bits(nrm[3 * i + 2], rn.z + 0.0f));
        }
    }
    fprintf(stderr, "  %d hits (%d at t = 0 on capsules) over the three inside rules\n", hits, inside_hits);
    ENSURE(hits > R && inside_hits > 10);
    sc_world_destroy(w);
    return 0;
}

/* Capsule sweeps by hand; the brute force gives the same bits. */
static int sweeps_by_hand(void)
{
    sc_world *w = sc_world_create();
    const float box[6] = {0, 0, 0, 1, 1, 1};
    sc_world_add_aabbs(w, box, 1, NULL);                              /* 0 */
    const float sph[4] = {10, 0.5f, 0.5f, 1};
    sc_world_add_spheres(w, sph, 1, NULL);                            /* 1 */
    const float cap[7] = {20, 0, 0.5f, 20, 1, 0.5f, 0.5f};            /* 2: along y at x = 20 */
    sc_world_add_capsules(w, cap, 1, NULL);
    const float obb[15] = {30, 0.5f, 0.5f, 0, 1, 0, -1, 0, 0, 0, 0, 1, 0.5f, 0.5f, 0.5f};
    sc_world_add_obbs(w, obb, 1, NULL);                               /* 3: a unit cube turned about z */
    ENSURE(sc_world_commit(w) == SC_OK);
    float t[8], n[24], p[24], tb[8], nb[24], pb[24];
    int32_t i[8], ib[8];
    float sw[8 * 11] = {
        /* 0: a vertical capsule (z from 0.2 to 0.8, r 0.25) moving along +x from x = -2: its side
         * meets the face x = 0 when its axis is at x = -0.25: t = 1.75, normal -x, point on x = 0 */
        -2, 0.5f, 0.2f, -2, 0.5f, 0.8f, 1, 0, 0, INFINITY, 0.25f,
        /* 1: a capsule lying along z (from z = -3 to z = -1) moving along +z, r = 0: its end reaches
         * the face z = 0 at t = 1 */
        0.5f, 0.5f, -3, 0.5f, 0.5f, -1, 0, 0, 1, INFINITY, 0,
        /* 2: a horizontal capsule along y (y from -1 to 2, r 0.5) moving down (-z) from z = 3 onto
         * the box's top face z = 1, its axis crossing the face's interior: t = 1.5 (axis at z = 1.5) */
        0.5f, -1, 3, 0.5f, 2, 3, 0, 0, -1, INFINITY, 0.5f,
        /* 3: a capsule along x moving along +x onto the sphere (10, 0.5, 0.5; 1): its end ball
         * (r 0.5, end at x = 6) touches when the end is at x = 8.5: t = 2.5, normal -x, point (9, .5, .5) */
        4, 0.5f, 0.5f, 6, 0.5f, 0.5f, 1, 0, 0, INFINITY, 0.5f,
        /* 4: a capsule along z crossing the object capsule 2 (along y at x = 20, z = 0.5, r 0.5):
         * axes perpendicular, distance along x: touches when the distance is 1, x = 19: t = 1 */
        18, 0.5f, -1, 18, 0.5f, 2, 1, 0, 0, INFINITY, 0.5f,
        /* 5: the same towards the OBB (30 +- 0.5): axis at x = 29.25 for r = 0.25: t = 1.25 */
        28, 0.5f, 0.2f, 28, 0.5f, 0.8f, 1, 0, 0, INFINITY, 0.25f,
        /* 6: already overlapping the box at t = 0 (its segment crosses it): t = 0, normal 0 */
        -1, 0.5f, 0.5f, 2, 0.5f, 0.5f, 0, 1, 0, INFINITY, 0,
        /* 7: a capsule whose axis (z = 0.5) runs along the line x + y = 4 from (4, 0) to (0, 4),
         * moving along (-0.5, -0.5, 0): the line is x + y = 4 - t, at distance (2 - t) / sqrt 2
         * from the box edge x = y = 1; r = 0.5 touches at t = 2 - sqrt(2) / 2, normal
         * (1, 1, 0) / sqrt 2, point (1, 1, 0.5) */
        4, 0, 0.5f, 0, 4, 0.5f, -0.5f, -0.5f, 0, INFINITY, 0.5f,
    };
    ENSURE(sc_world_cast_capsules(w, sw, 8, t, i, n, p, NULL, NULL) == SC_OK);
    ENSURE(sc_world_cast_capsules_bruteforce(w, sw, 8, tb, ib, nb, pb, NULL, NULL) == SC_OK);
    ENSURE(memcmp(t, tb, sizeof t) == 0 && memcmp(i, ib, sizeof i) == 0 && memcmp(n, nb, sizeof n) == 0 &&
           memcmp(p, pb, sizeof p) == 0);
    ENSURE(i[0] == 0 && t[0] == 1.75f && n[0] == -1 && n[1] == 0 && n[2] == 0 && p[0] == 0);
    ENSURE(i[1] == 0 && t[1] == 1.0f && n[5] == -1 && p[5] == 0);
    ENSURE(i[2] == 0 && t[2] == 1.5f && n[8] == 1 && p[8] == 1 && p[6] == 0.5f);
    ENSURE(i[3] == 1 && t[3] == 2.5f && n[9] == -1 && p[9] == 9 && p[10] == 0.5f && p[11] == 0.5f);
    ENSURE(i[4] == 2 && t[4] == 1.0f && n[12] == -1 && p[12] == 19.5f);
    ENSURE(i[5] == 3 && t[5] == 1.25f && fabsf(n[15] + 1) < 1e-6f && fabsf(p[15] - 29.5f) < 1e-6f);
    ENSURE(i[6] == 0 && t[6] == 0 && n[18] == 0 && n[19] == 0 && n[20] == 0);
    ENSURE(i[7] == 0 && fabsf(t[7] - (float)(2.0 - sqrt(2.0) / 2)) < 1e-6f);
    ENSURE(fabsf(n[21] - 0.70710677f) < 1e-6f && fabsf(n[22] - 0.70710677f) < 1e-6f && p[21] == 1 && p[22] == 1);
    /* spheres and boxes against the capsule object 2 (axis along y at x = 20, z = 0.5; r 0.5) */
    const float ss[8] = {17, 0.5f, 0.5f, 1, 0, 0, INFINITY, 1}; /* touches at x = 18.5: t = 1.5 */
    ENSURE(sc_world_cast_spheres(w, ss, 1, t, i, n, p, NULL, NULL) == SC_OK);
    ENSURE(i[0] == 2 && t[0] == 1.5f && n[0] == -1 && p[0] == 19.5f && p[1] == 0.5f);
    const float bs[10] = {17, 0.5f, 0.5f, 1, 0, 0, INFINITY, 0.5f, 0.5f, 0.5f}; /* face at x = 19.5: t = 2 */
    ENSURE(sc_world_cast_boxes(w, bs, 1, t, i, n, p, NULL, NULL) == SC_OK);
    ENSURE(i[0] == 2 && t[0] == 2.0f && n[0] == -1 && p[0] == 19.5f);
    /* filters: exclude the box, then skip an object touched at t = 0 */
    sc_query_filter f = sc_query_filter_default();
    int32_t ex = 0;
    f.exclude = &ex;
    /* the sphere (10, .5, .5; 1): the axis at x = 8.75, t = 10.75 */
    ENSURE(sc_world_cast_capsules(w, sw, 1, t, i, n, p, &f, NULL) == SC_OK && i[0] == 1 && t[0] == 10.75f);
    f.exclude = NULL;
    f.inside = SC_INSIDE_SKIP;
    ENSURE(sc_world_cast_capsules(w, sw + 6 * 11, 1, t, i, n, p, &f, NULL) == SC_OK && i[0] == -1);
    /* bad sweeps: the capsule first (radius), then its ray (dir zero), the item named */
    float badsw[22];
    memcpy(badsw, sw, sizeof badsw);
    badsw[11 + 10] = -1;
    sc_scratch *sc = sc_scratch_create();
    ENSURE(sc_world_cast_capsules(w, badsw, 2, t, i, n, p, NULL, sc) == SC_ERR_CAPSULE_RADIUS_NEGATIVE &&
           sc_scratch_error_index(sc) == 1);
    badsw[11 + 10] = 0.5f;
    badsw[6] = badsw[7] = badsw[8] = 0;
    ENSURE(sc_world_cast_capsules(w, badsw, 2, t, i, n, p, NULL, sc) == SC_ERR_RAY_DIR_ZERO &&
           sc_scratch_error_index(sc) == 0);
    sc_scratch_destroy(sc);
    sc_world_destroy(w);
    return 0;
}

static double nextdown(double x) { return nextafterf((float)x, -INFINITY); }

/* Capsule-AABB overlaps are exact: contacts at a distance exactly r (on a face, along an edge and
 * across an edge at a slant), and the radius one float step smaller misses. */
static int overlaps_exact(void)
{
    sc_world *w = sc_world_create();
    const float box[6] = {0, 0, 0, 1, 1, 1};
    sc_world_add_aabbs(w, box, 1, NULL);
    ENSURE(sc_world_commit(w) == SC_OK);
    struct { float a[3], b[3], r; } c[] = {
        {{2, 0.5f, -1}, {2, 0.5f, 3}, 1},       /* parallel to the face x = 1 at distance 1 */
        {{1.6f, 1.8f, -5}, {1.6f, 1.8f, 5}, 1}, /* parallel to the edge x = y = 1: distance 1 (0.6, 0.8) */
        {{3, 0, 0.5f}, {0, 4, 0.5f}, 1},        /* the line 4x + 3y = 12: distance (12 - 7) / 5 = 1 from the edge */
        {{2, 2, 2}, {2, 2, 2}, 1.7320508f},     /* a ball at the corner (1, 1, 1): sqrt 3 rounded up? see below */
    };
    int32_t out[2], total;
    for (int k = 0; k < 3; ++k) {
        sc_capsule q = {{c[k].a[0], c[k].a[1], c[k].a[2]}, {c[k].b[0], c[k].b[1], c[k].b[2]}, c[k].r};
        ENSURE(sc_world_overlap_capsule(w, &q, out, 2, &total, NULL) == SC_OK && total == 1 && out[0] == 0);
        q.radius = (float)nextdown(c[k].r);
        ENSURE(sc_world_overlap_capsule(w, &q, out, 2, &total, NULL) == SC_OK && total == 0);
        /* the same capsule as an object, found by the AABB volume */
        sc_world *w2 = sc_world_create();
        float cf[7] = {q.a.x, q.a.y, q.a.z, q.b.x, q.b.y, q.b.z, c[k].r};
        sc_world_add_capsules(w2, cf, 1, NULL);
        sc_aabb b = {{0, 0, 0}, {1, 1, 1}};
        ENSURE(sc_world_commit(w2) == SC_OK);
        ENSURE(sc_world_overlap_aabb(w2, &b, out, 2, &total, NULL) == SC_OK && total == 1);
        cf[6] = q.radius;
        ENSURE(sc_world_update_capsules(w2, 0, cf, 1) == SC_OK && sc_world_commit(w2) == SC_OK);
        ENSURE(sc_world_overlap_aabb(w2, &b, out, 2, &total, NULL) == SC_OK && total == 0);
        sc_world_destroy(w2);
    }
    /* a thin capsule piercing the box through two faces: its ends and their balls are far
     * outside, no box edge comes near its axis; only the segment meets the box */
    sc_capsule pierce = {{-5, 0.5f, 0.5f}, {5, 0.5f, 0.5f}, 0.1f};
    ENSURE(sc_world_overlap_capsule(w, &pierce, out, 2, &total, NULL) == SC_OK && total == 1);
    pierce.radius = 0;
    ENSURE(sc_world_overlap_capsule(w, &pierce, out, 2, &total, NULL) == SC_OK && total == 1);
    /* a ball at (2, 2, 2): the corner's squared distance is 3; sqrt 3 rounded to float is above or
     * below it, and the exact test follows: r^2 >= 3 exactly when r is the float above */
    float r = 1.7320508f;
    sc_capsule q = {{2, 2, 2}, {2, 2, 2}, r};
    ENSURE(sc_world_overlap_capsule(w, &q, out, 2, &total, NULL) == SC_OK);
    ENSURE(total == ((double)r * r >= 3.0));
    q.radius = nextafterf(r, (double)r * r >= 3.0 ? -INFINITY : INFINITY);
    ENSURE(sc_world_overlap_capsule(w, &q, out, 2, &total, NULL) == SC_OK);
    ENSURE(total == ((double)q.radius * q.radius >= 3.0));
    sc_world_destroy(w);
    return 0;
}

/* Capsule against an OBB and a frustum (decided in double, docs/semantics.md "Overlaps"): the unit
 * cube as an OBB turned by 90 degrees and as six frustum planes; capsules whose distance to it is 1
 * (to a face, along an edge, across an edge, to a corner), with radii 1e-4 above and below. */
static int overlaps_obb_frustum(void)
{
    sc_world *w = sc_world_create();
    const float obb[15] = {0.5f, 0.5f, 0.5f, 0, 1, 0, -1, 0, 0, 0, 0, 1, 0.5f, 0.5f, 0.5f};
    sc_world_add_obbs(w, obb, 1, NULL);
    ENSURE(sc_world_commit(w) == SC_OK);
    /* the cube [0, 1]^3: inside where n.x + d >= 0 */
    const float planes[24] = {1, 0, 0, 0, -1, 0, 0, 1, 0, 1, 0, 0, 0, -1, 0, 1, 0, 0, 1, 0, 0, 0, -1, 1};
    struct { float a[3], b[3]; } c[] = {
        {{2, 0.5f, -1}, {2, 0.5f, 3}},       /* parallel to the face x = 1 at distance 1 */
        {{1.6f, 1.8f, -5}, {1.6f, 1.8f, 5}}, /* parallel to the edge x = y = 1 at distance 1 */
        {{3, 0, 0.5f}, {0, 4, 0.5f}},        /* across the edge x = y = 1: distance 1 */
        {{1.6f, 1.8f, 1}, {1.6f, 1.8f, 5}},  /* its end 1 from the edge x = y = 1 at z = 1 (a corner) */
        {{-5, 0.5f, 0.5f}, {5, 0.5f, 0.5f}}, /* piercing the cube (distance 0 for any radius) */
    };
    int32_t out[2], total;
    for (int k = 0; k < 5; ++k) {
        for (int s = 0; s < 2; ++s) {
            float r = k == 4 ? (s ? 0.1f : 0.0f) : s ? 1.0001f : 0.9999f; /* piercing: thin, no edge near */
            int want = s || k == 4;
            sc_capsule q = {{c[k].a[0], c[k].a[1], c[k].a[2]}, {c[k].b[0], c[k].b[1], c[k].b[2]}, r};
            ENSURE(sc_world_overlap_capsule(w, &q, out, 2, &total, NULL) == SC_OK && total == want);
            sc_world *w2 = sc_world_create();
            float cf[7] = {q.a.x, q.a.y, q.a.z, q.b.x, q.b.y, q.b.z, r};
            sc_world_add_capsules(w2, cf, 1, NULL);
            ENSURE(sc_world_commit(w2) == SC_OK);
            ENSURE(sc_world_overlap_frustum(w2, planes, out, 2, &total, NULL) == SC_OK && total == want);
            sc_obb o = {{0.5f, 0.5f, 0.5f}, {{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}}, {0.5f, 0.5f, 0.5f}};
            ENSURE(sc_world_overlap_obb(w2, &o, out, 2, &total, NULL) == SC_OK && total == want);
            sc_world_destroy(w2);
        }
    }
    sc_world_destroy(w);
    return 0;
}

/* Capsule-capsule and capsule-sphere overlaps exact: crossing axes at distance r0 + r1. */
static int overlaps_capsules(void)
{
    sc_world *w = sc_world_create();
    const float caps[14] = {0, -2, 0, 0, 2, 0, 0.5f, /* along y */ 10, 0, 0, 10, 0, 0, 0.25f /* a ball */};
    sc_world_add_capsules(w, caps, 2, NULL);
    const float sph[4] = {20, 0, 0, 1};
    sc_world_add_spheres(w, sph, 1, NULL);
    ENSURE(sc_world_commit(w) == SC_OK);
    int32_t out[3], total;
    /* along z at x = 1.25: distance 1.25 = 0.5 + 0.75 */
    sc_capsule q = {{1.25f, 0, -3}, {1.25f, 0, 3}, 0.75f};
    ENSURE(sc_world_overlap_capsule(w, &q, out, 3, &total, NULL) == SC_OK && total == 1 && out[0] == 0);
    q.radius = nextafterf(0.75f, 0);
    ENSURE(sc_world_overlap_capsule(w, &q, out, 3, &total, NULL) == SC_OK && total == 0);
    /* a ball object at x = 10 (r 0.25) and the sphere at 20 (r 1): a capsule from 10.75 to 18.5
     * with r 0.5 touches both */
    sc_capsule q2 = {{10.75f, 0, 0}, {18.5f, 0, 0}, 0.5f};
    ENSURE(sc_world_overlap_capsule(w, &q2, out, 3, &total, NULL) == SC_OK && total == 2 && out[0] == 1 && out[1] == 2);
    sc_sphere s = {{0.5f, 3, 0}, 1.0f}; /* the capsule 0's end ball: centre (0, 2, 0), distance sqrt(1.25) > 1.5? no: 1.118 <= 1.5 */
    ENSURE(sc_world_overlap_sphere(w, &s, out, 3, &total, NULL) == SC_OK && total == 1 && out[0] == 0);
    s.center = (sc_vec3){0, 4, 0};
    s.radius = 1.5f; /* distance 2 from the end (0, 2, 0): 0.5 + 1.5, touching */
    ENSURE(sc_world_overlap_sphere(w, &s, out, 3, &total, NULL) == SC_OK && total == 1);
    s.radius = nextafterf(1.5f, 0);
    ENSURE(sc_world_overlap_sphere(w, &s, out, 3, &total, NULL) == SC_OK && total == 0);
    sc_world_destroy(w);
    return 0;
}

/* Random scenes: every overlap and every capsule sweep equals its brute force, nearest objects the
 * single sc_closest_point; after remove, update and refit too. */
static int random_world_vs_brute(void)
{
    enum { N = 200, Q = 400 };
    sc_world *w = sc_world_create();
    for (int o = 0; o < N; ++o) {
        int k = rnd() % 4;
        if (k == 0) {
            float b[6] = {frand(-20, 20), frand(-20, 20), frand(-20, 20), 0, 0, 0};
            for (int i = 0; i < 3; ++i) b[3 + i] = b[i] + frand(0.1f, 2);
            sc_world_add_aabbs(w, b, 1, NULL);
        } else if (k == 1) {
            float s[4] = {frand(-20, 20), frand(-20, 20), frand(-20, 20), frand(0, 2)};
            sc_world_add_spheres(w, s, 1, NULL);
        } else if (k == 2) {
            float a = frand(0, 3.14159f), c = cosf(a), s = sinf(a);
            float b[15] = {frand(-20, 20), frand(-20, 20), frand(-20, 20), c, s, 0, -s, c, 0, 0, 0, 1, frand(0.1f, 2), frand(0.1f, 2), frand(0.1f, 2)};
            sc_world_add_obbs(w, b, 1, NULL);
        } else {
            float c[7] = {frand(-20, 20), frand(-20, 20), frand(-20, 20), 0, 0, 0, frand(0, 1.5f)};
            for (int i = 0; i < 3; ++i) c[3 + i] = c[i] + frand(-3, 3);
            sc_world_add_capsules(w, c, 1, NULL);
        }
    }
    int rounds_hits = 0;
    for (int round = 0; round < 3; ++round) {
        ENSURE(sc_world_commit(w) == SC_OK);
        static float sw[11 * Q], t[Q], tb[Q], n[3 * Q], nb[3 * Q], p[3 * Q], pb[3 * Q];
        static int32_t i[Q], ib[Q];
        for (int q = 0; q < Q; ++q) {
            float *s = sw + 11 * q;
            for (int k = 0; k < 3; ++k) { s[k] = frand(-25, 25); s[3 + k] = s[k] + frand(-2, 2); s[6 + k] = frand(-1, 1); }
            s[9] = rnd() % 3 ? INFINITY : frand(1, 30);
            s[10] = frand(0, 1);
        }
        ENSURE(sc_world_cast_capsules(w, sw, Q, t, i, n, p, NULL, NULL) == SC_OK);
        ENSURE(sc_world_cast_capsules_bruteforce(w, sw, Q, tb, ib, nb, pb, NULL, NULL) == SC_OK);
        for (int q = 0; q < Q; ++q)
            if (t[q] != tb[q] || i[q] != ib[q]) {
                const float *s = sw + 11 * q;
                fprintf(stderr, "  sweep %d: BVH %d t %.9g, brute %d t %.9g (kind %d / %d) r %g\n", q, i[q], t[q], ib[q], tb[q],
                        i[q] >= 0 ? sc_world_kind(w, i[q]) : -1, ib[q] >= 0 ? sc_world_kind(w, ib[q]) : -1, s[10]);
            }
        ENSURE(memcmp(t, tb, sizeof t) == 0 && memcmp(i, ib, sizeof i) == 0);
        ENSURE(memcmp(n, nb, sizeof n) == 0 && memcmp(p, pb, sizeof p) == 0);
        for (int q = 0; q < Q; ++q) rounds_hits += i[q] >= 0;
        static int32_t out[N], outb[N];
        for (int q = 0; q < Q; ++q) {
            const float *s = sw + 11 * q;
            sc_capsule c = {{s[0], s[1], s[2]}, {s[3], s[4], s[5]}, s[10] * 3};
            int32_t tot, totb;
            ENSURE(sc_world_overlap_capsule(w, &c, out, N, &tot, NULL) == SC_OK);
            ENSURE(sc__overlap_checked(w, SC_SHAPE_CAPSULE, &c, outb, N, &totb, NULL, 1) == SC_OK);
            ENSURE(tot == totb && memcmp(out, outb, sizeof(int32_t) * (size_t)tot) == 0);
            sc_sphere sp = {c.a, c.radius};
            ENSURE(sc_world_overlap_sphere(w, &sp, out, N, &tot, NULL) == SC_OK);
            ENSURE(sc__overlap_checked(w, SC_SHAPE_SPHERE, &sp, outb, N, &totb, NULL, 1) == SC_OK);
            ENSURE(tot == totb && memcmp(out, outb, sizeof(int32_t) * (size_t)tot) == 0);
        }
        /* nearest objects: the world's answer is the single query's distance, minimal */
        static float pts[3 * Q], d[Q], qp[3 * Q];
        for (int q = 0; q < 3 * Q; ++q) pts[q] = frand(-25, 25);
        ENSURE(sc_world_closest_objects(w, pts, Q, INFINITY, i, d, qp, NULL, NULL) == SC_OK);
        for (int q = 0; q < Q; ++q) {
            sc_vec3 x = {pts[3 * q], pts[3 * q + 1], pts[3 * q + 2]};
            double best = INFINITY;
            int bi = -1;
            for (int o = 0; o < sc_world_count(w); ++o) {
                if (!sc_world_kind(w, o)) continue;
                sc_shape sh = sc__object_shape(w, o);
                sc_point_result r = sc_closest_point(x, &sh);
                double dx = (double)x.x - r.point.x, dy = (double)x.y - r.point.y, dz = (double)x.z - r.point.z;
                double d2 = dx * dx + dy * dy + dz * dz;
                if (d2 < best) { best = d2; bi = o; }
            }
            ENSURE(i[q] == bi && d[q] == (float)sqrt(best));
        }
        /* change the world: remove some, move the capsules */
        for (int o = round; o < N; o += 17) if (sc_world_kind(w, o)) sc_world_remove(w, o);
        for (int o = 0; o < N; ++o) {
            if (sc_world_kind(w, o) != SC_SHAPE_CAPSULE) continue;
            sc_shape sh = sc__object_shape(w, o);
            float c[7] = {sh.u.capsule.a.x + 1, sh.u.capsule.a.y, sh.u.capsule.a.z, sh.u.capsule.b.x, sh.u.capsule.b.y - 1,
                          sh.u.capsule.b.z, sh.u.capsule.radius};
            ENSURE(sc_world_update_capsules(w, o, c, 1) == SC_OK);
        }
    }
    fprintf(stderr, "  %d capsule sweep hits\n", rounds_hits);
    ENSURE(rounds_hits > 100);
    sc_world_destroy(w);
    return 0;
}

/* Upright capsules (b - a along one axis) against a box: sc_sweep_capsule.c sweeps them as a sphere
 * of centre a against the box stretched along the axis. Contacts worked out by hand on the box
 * [0, 1]^3, radius 0.25; the point is the box's point nearest a at t (docs/semantics.md, "Sweeps").
 * The BVH and the brute force give the same bits. */
static int upright_by_hand(void)
{
    sc_world *w = sc_world_create();
    const float box[6] = {0, 0, 0, 1, 1, 1};
    ENSURE(sc_world_add_aabbs(w, box, 1, NULL) == SC_OK && sc_world_commit(w) == SC_OK);
    enum { Q = 11 };
    const float sw[Q * 11] = {
        /* 0: along y, moving +x onto the face x = 0: the axis at x = -0.25, t = 1.75; point at a's height */
        -2, 0.25f, 0.5f, -2, 0.75f, 0.5f, 1, 0, 0, INFINITY, 0.25f,
        /* 1: along y above the box, moving -y onto the top: a at y = 1.25, t = 1.75 */
        0.5f, 3, 0.5f, 0.5f, 4, 0.5f, 0, -1, 0, INFINITY, 0.25f,
        /* 2: the same with a above b: b at y = 1.25, t = 1.75; the point under a (clamped to y = 1) */
        0.5f, 4, 0.5f, 0.5f, 3, 0.5f, 0, -1, 0, INFINITY, 0.25f,
        /* 3: along y from 0.75 to 1.75 (half over the box's top), moving +x: face x = 0, t = 1.75,
         * point (0, 0.75, 0.5) */
        -2, 0.75f, 0.5f, -2, 1.75f, 0.5f, 1, 0, 0, INFINITY, 0.25f,
        /* 4: along y from -1 to 2 (spanning the box), moving +x: t = 1.75, point (0, 0, 0.5) (a's
         * height -1 clamped to the box) */
        -2, -1, 0.5f, -2, 2, 0.5f, 1, 0, 0, INFINITY, 0.25f,
        /* 5: along y from 1.15 to 2, moving +x past the top edge (x = 0, y = 1): its lower ball (0.15
         * above the edge) touches it at horizontal distance sqrt(0.25^2 - 0.15^2) = 0.2: t = 1.8,
         * normal (-0.8, 0.6, 0), point (0, 1, 0.5) */
        -2, 1.15f, 0.5f, -2, 2, 0.5f, 1, 0, 0, INFINITY, 0.25f,
        /* 6: along y, moving along (1, 0, 1) at the vertical edge x = z = 0: the axis at horizontal
         * distance sqrt2 (1 - t): t = 1 - 0.25 / sqrt2, normal (-1, 0, -1) / sqrt2, point (0, 0.25, 0) */
        -1, 0.25f, -1, -1, 0.75f, -1, 1, 0, 1, INFINITY, 0.25f,
        /* 7: along y below the corner (0, 0, 0), its top b at (-1, -1, -1), moving along (1, 1, 1):
         * b at distance sqrt3 (1 - t) from the corner: t = 1 - 0.25 / sqrt3, normal -(1, 1, 1) / sqrt3 */
        -1, -2, -1, -1, -1, -1, 1, 1, 1, INFINITY, 0.25f,
        /* 8: along z (from 0.2 to 0.8) above the box, moving -y onto the top: t = 1.75, point (0.5, 1, 0.2) */
        0.5f, 3, 0.2f, 0.5f, 3, 0.8f, 0, -1, 0, INFINITY, 0.25f,
        /* 9: along x (from -3 to -2) moving +x: its end b reaches x = -0.25 at t = 1.75; point (0, 0.5, 0.5) */
        -3, 0.5f, 0.5f, -2, 0.5f, 0.5f, 1, 0, 0, INFINITY, 0.25f,
        /* 10: along y crossing the box at t = 0: t = 0, normal 0, point (0.5, 0, 0.5) (under a) */
        0.5f, -1, 0.5f, 0.5f, 2, 0.5f, 1, 0, 0, INFINITY, 0.25f,
    };
    float t[Q], n[3 * Q], p[3 * Q], tb[Q], nb[3 * Q], pb[3 * Q];
    int32_t i[Q], ib[Q];
    ENSURE(sc_world_cast_capsules(w, sw, Q, t, i, n, p, NULL, NULL) == SC_OK);
    ENSURE(sc_world_cast_capsules_bruteforce(w, sw, Q, tb, ib, nb, pb, NULL, NULL) == SC_OK);
    ENSURE(memcmp(t, tb, sizeof t) == 0 && memcmp(i, ib, sizeof i) == 0 && memcmp(n, nb, sizeof n) == 0 &&
           memcmp(p, pb, sizeof p) == 0);
    const double r2 = sqrt(0.5), r3 = sqrt(1.0 / 3.0);
    const double want[Q][7] = {
        {1.75, -1, 0, 0, 0, 0.25, 0.5},   {1.75, 0, 1, 0, 0.5, 1, 0.5},    {1.75, 0, 1, 0, 0.5, 1, 0.5},
        {1.75, -1, 0, 0, 0, 0.75, 0.5},   {1.75, -1, 0, 0, 0, 0, 0.5},     {1.8, -0.8, 0.6, 0, 0, 1, 0.5},
        {1 - 0.25 * r2, -r2, 0, -r2, 0, 0.25, 0}, {1 - 0.25 * r3, -r3, -r3, -r3, 0, 0, 0},
        {1.75, 0, 1, 0, 0.5, 1, 0.2},     {1.75, -1, 0, 0, 0, 0.5, 0.5},   {0, 0, 0, 0, 0.5, 0, 0.5},
    };
    for (int q = 0; q < Q; ++q) {
        ENSURE(i[q] == 0);
        if (fabs(t[q] - want[q][0]) > 1e-6 || fabs(n[3 * q] - want[q][1]) > 1e-6 || fabs(n[3 * q + 1] - want[q][2]) > 1e-6 ||
            fabs(n[3 * q + 2] - want[q][3]) > 1e-6 || fabs(p[3 * q] - want[q][4]) > 1e-6 ||
            fabs(p[3 * q + 1] - want[q][5]) > 1e-6 || fabs(p[3 * q + 2] - want[q][6]) > 1e-6)
            fprintf(stderr, "  sweep %d: t %.9g n %g %g %g p %g %g %g\n", q, t[q], n[3 * q], n[3 * q + 1], n[3 * q + 2],
                    p[3 * q], p[3 * q + 1], p[3 * q + 2]);
        ENSURE(fabs(t[q] - want[q][0]) <= 1e-6);
        for (int k = 0; k < 3; ++k) ENSURE(fabs(n[3 * q + k] - want[q][1 + k]) <= 1e-6 && fabs(p[3 * q + k] - want[q][4 + k]) <= 1e-6);
    }
    /* the exact dyadic ones exactly */
    ENSURE(t[0] == 1.75f && t[1] == 1.75f && t[4] == 1.75f && t[9] == 1.75f && p[1] == 0.25f && p[13] == 0);
    /* skip: the crossing capsule ignores the box */
    sc_query_filter f = sc_query_filter_default();
    f.inside = SC_INSIDE_SKIP;
    ENSURE(sc_world_cast_capsules(w, sw + 10 * 11, 1, t, i, n, p, &f, NULL) == SC_OK && i[0] == -1);
    sc_world_destroy(w);
    return 0;
}

/* The distance from the axis-aligned segment [a, b] (b - a along axis k at most) to the box [lo, hi]
 * in double, from the definition: per axis the gap between the two intervals (the segment's range on
 * axis k, a point on the others). */
static double upright_dist(const double *a, const double *b, const double *lo, const double *hi)
{
    double s = 0.0;
    for (int i = 0; i < 3; ++i) {
        double s0 = a[i] < b[i] ? a[i] : b[i], s1 = a[i] < b[i] ? b[i] : a[i];
        double g = s1 < lo[i] ? lo[i] - s1 : (s0 > hi[i] ? s0 - hi[i] : 0.0);
        s += g * g;
    }
    return sqrt(s);
}

/* The least separation (distance minus r) of the moving segment and the box over [0, t1], sampled,
 * (sampled: an upper bound of the true least, enough to catch a contact found late). */
static double upright_min_sep(const double *a, const double *b, const double *d, double t1, const double *lo,
                              const double *hi, double r)
{
    double m = INFINITY;
    for (int s = 0; s <= 256; ++s) {
        double t = t1 * s / 256.0, at[3], bt[3];
        for (int i = 0; i < 3; ++i) { at[i] = a[i] + t * d[i]; bt[i] = b[i] + t * d[i]; }
        double v = upright_dist(at, bt, lo, hi) - r;
        if (v < m) m = v;
    }
    return m;
}

/* Random upright sweeps against random boxes: the stretched box (as the sweeps compute it) against
 * the pieces (end balls and edges, sc__sw_capsule_box(..., 1)). Both hit or both miss except where a
 * graze by less than delta decides; t within the contract's rule (the contact's separation within
 * delta of 0, none below -delta before it); the point on the box and within 2 delta of the capsule;
 * the normal facing the capsule. Then a world of those boxes: the BVH gives the brute force's bits. */
static int upright_matches_pieces(void)
{
    enum { N = 20000 };
    int hits = 0, differ = 0, points_differ = 0;
    for (int q = 0; q < N; ++q) {
        double lo[3], hi[3], a[3], b[3], d[3], r = rnd() % 8 == 0 ? 0.0 : frand(0.01f, 1.5f);
        int k = rnd() % 3, dyadic = rnd() % 4 == 0;
        for (int i = 0; i < 3; ++i) {
            lo[i] = dyadic ? dyad(2) : frand(-2, 2);
            hi[i] = lo[i] + (dyadic ? 0.25 * (rnd() % 9) : frand(0, 3));
            a[i] = b[i] = dyadic ? dyad(6) : frand(-6, 6);
            d[i] = dyadic ? dyad(1) : frand(-1, 1);
            if (rnd() % 5 == 0) d[i] = 0.0;
        }
        if (rnd() % 4) /* aimed at the box, roughly */
            for (int i = 0; i < 3; ++i) d[i] = (lo[i] + hi[i]) * 0.5 - a[i] + (dyadic ? dyad(1) : frand(-1.5f, 1.5f));
        if (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0) d[rnd() % 3] = 1.0;
        if (rnd() % 6) b[k] = a[k] + (dyadic ? dyad(2) : frand(-3, 3)); /* else a point */
        double tmax = rnd() % 3 ? INFINITY : frand(0, 10), t1, t2, q1[3], q2[3], n1[3], n2[3];
        int h1 = sc__sw_capsule_box(a, b, d, tmax, lo, hi, r, &t1, q1, n1, 0);
        int h2 = sc__sw_capsule_box(a, b, d, tmax, lo, hi, r, &t2, q2, n2, 1);
        /* the scale: every input and the centre's coordinates at the answers (at least 1) */
        double s = 1.0 + r;
        for (int i = 0; i < 3; ++i) {
            double c = fabs(a[i]) + fabs(b[i]) + fabs(lo[i]) + fabs(hi[i]) + fabs(d[i]) * (h1 ? t1 : h2 ? t2 : 0.0);
            if (c > s) s = c;
        }
        double delta = 1e-6 * s, tend = h1 ? t1 : (tmax < 1e3 ? tmax : 1e3);
        if (h1 != h2) {
            /* a graze: the least separation over the sweep within delta of 0 */
            double m = upright_min_sep(a, b, d, h1 ? t1 : (h2 ? t2 : tend), lo, hi, r);
            if (!(fabs(m) <= delta * 16)) fprintf(stderr, "  sweep %d: fast %d pieces %d, least separation %g\n", q, h1, h2, m);
            ENSURE(fabs(m) <= delta * 16);
            ++differ;
            continue;
        }
        if (!h1) {
            ENSURE(upright_min_sep(a, b, d, tend, lo, hi, r) >= -delta);
            continue;
        }
        ++hits;
        double at[3], bt[3];
        for (int i = 0; i < 3; ++i) { at[i] = a[i] + t1 * d[i]; bt[i] = b[i] + t1 * d[i]; }
        double sep = upright_dist(at, bt, lo, hi) - r;
        if (t1 > 0.0) ENSURE(fabs(sep) <= delta);
        else ENSURE(sep <= delta);
        if (t1 > 0.0) ENSURE(upright_min_sep(a, b, d, t1, lo, hi, r) >= -delta);
        if (t1 != t2) {
            /* the pieces' t is within the same rule: touching there */
            double a2[3], b2[3];
            for (int i = 0; i < 3; ++i) { a2[i] = a[i] + t2 * d[i]; b2[i] = b[i] + t2 * d[i]; }
            ENSURE(fabs(upright_dist(a2, b2, lo, hi) - r) <= delta || t2 == 0.0);
        }
        /* the point: on the box, within r (+ 2 delta) of the segment at t; the normal faces it */
        double pz[3] = {q1[0], q1[1], q1[2]};
        ENSURE(upright_dist(pz, pz, lo, hi) == 0.0);
        double c[3]; /* the segment's point nearest q1: clamp along k */
        for (int i = 0; i < 3; ++i) {
            double s0 = at[i] < bt[i] ? at[i] : bt[i], s1 = at[i] < bt[i] ? bt[i] : at[i];
            c[i] = q1[i] < s0 ? s0 : (q1[i] > s1 ? s1 : q1[i]);
        }
        double dc = sqrt((c[0] - q1[0]) * (c[0] - q1[0]) + (c[1] - q1[1]) * (c[1] - q1[1]) + (c[2] - q1[2]) * (c[2] - q1[2]));
        ENSURE(dc <= r + 2 * delta);
        if (t1 > 0.0) {
            double nl = sqrt(n1[0] * n1[0] + n1[1] * n1[1] + n1[2] * n1[2]);
            ENSURE(fabs(nl - 1) <= 1e-6);
            ENSURE(n1[0] * (c[0] - q1[0]) + n1[1] * (c[1] - q1[1]) + n1[2] * (c[2] - q1[2]) >= -delta);
        } else {
            ENSURE(n1[0] == 0 && n1[1] == 0 && n1[2] == 0);
        }
        points_differ += memcmp(q1, q2, sizeof q1) != 0;
    }
    fprintf(stderr, "  %d hits, %d grazes decided differently, %d points differ from the pieces'\n", hits, differ,
            points_differ);
    ENSURE(hits > N / 10 && differ < N / 1000);
    /* a world of boxes, upright sweeps: the BVH gives the brute force's bits */
    sc_world *w = sc_world_create();
    for (int o = 0; o < 300; ++o) {
        float bx[6] = {frand(-20, 20), frand(-20, 20), frand(-20, 20), 0, 0, 0};
        for (int i = 0; i < 3; ++i) bx[3 + i] = bx[i] + frand(0.1f, 3);
        ENSURE(sc_world_add_aabbs(w, bx, 1, NULL) == SC_OK);
    }
    ENSURE(sc_world_commit(w) == SC_OK);
    enum { Q = 2000 };
    static float sw[11 * Q], t[Q], tb[Q], n[3 * Q], nb[3 * Q], p[3 * Q], pb[3 * Q];
    static int32_t i[Q], ib[Q];
    for (int q = 0; q < Q; ++q) {
        float *s = sw + 11 * q;
        int k = rnd() % 3;
        for (int j = 0; j < 3; ++j) { s[j] = s[3 + j] = frand(-25, 25); s[6 + j] = frand(-1, 1); }
        s[3 + k] += frand(-2, 2);
        s[9] = rnd() % 3 ? INFINITY : frand(1, 30);
        s[10] = frand(0, 1);
    }
    ENSURE(sc_world_cast_capsules(w, sw, Q, t, i, n, p, NULL, NULL) == SC_OK);
    ENSURE(sc_world_cast_capsules_bruteforce(w, sw, Q, tb, ib, nb, pb, NULL, NULL) == SC_OK);
    ENSURE(memcmp(t, tb, sizeof t) == 0 && memcmp(i, ib, sizeof i) == 0 && memcmp(n, nb, sizeof n) == 0 &&
           memcmp(p, pb, sizeof p) == 0);
    int wh = 0;
    for (int q = 0; q < Q; ++q) wh += i[q] >= 0;
    ENSURE(wh > Q / 10);
    sc_world_destroy(w);
    return 0;
}

/* A capsule of a == b against AABBs and OBBs is the sphere sweep of centre a: the same bits (t,
 * index, normal, point) as castSpheres, solid and skip. */
static int point_capsule_is_sphere(void)
{
    sc_world *w = sc_world_create();
    for (int o = 0; o < 300; ++o) {
        if (rnd() % 2) {
            float bx[6] = {frand(-20, 20), frand(-20, 20), frand(-20, 20), 0, 0, 0};
            for (int i = 0; i < 3; ++i) bx[3 + i] = bx[i] + frand(0.1f, 3);
            ENSURE(sc_world_add_aabbs(w, bx, 1, NULL) == SC_OK);
        } else {
            float a = frand(0, 3.14159f), c = cosf(a), s = sinf(a);
            float b[15] = {frand(-20, 20), frand(-20, 20), frand(-20, 20), c, s, 0, -s, c, 0, 0, 0, 1, frand(0.1f, 2), frand(0.1f, 2), frand(0.1f, 2)};
            ENSURE(sc_world_add_obbs(w, b, 1, NULL) == SC_OK);
        }
    }
    ENSURE(sc_world_commit(w) == SC_OK);
    enum { Q = 1000 };
    static float cs[11 * Q], ss[8 * Q], t[Q], tb[Q], n[3 * Q], nb[3 * Q], p[3 * Q], pb[3 * Q];
    static int32_t i[Q], ib[Q];
    for (int q = 0; q < Q; ++q) {
        float *c = cs + 11 * q, *s = ss + 8 * q;
        for (int k = 0; k < 3; ++k) { c[k] = c[3 + k] = s[k] = frand(-25, 25); c[6 + k] = s[3 + k] = frand(-1, 1); }
        c[9] = s[6] = rnd() % 3 ? INFINITY : frand(1, 30);
        c[10] = s[7] = rnd() % 8 ? frand(0, 2) : 0.0f;
    }
    int hits = 0;
    for (int skip = 0; skip < 2; ++skip) {
        sc_query_filter f = sc_query_filter_default();
        f.inside = skip ? SC_INSIDE_SKIP : SC_INSIDE_SOLID;
        ENSURE(sc_world_cast_capsules(w, cs, Q, t, i, n, p, &f, NULL) == SC_OK);
        ENSURE(sc_world_cast_spheres(w, ss, Q, tb, ib, nb, pb, &f, NULL) == SC_OK);
        ENSURE(memcmp(t, tb, sizeof t) == 0 && memcmp(i, ib, sizeof i) == 0 && memcmp(n, nb, sizeof n) == 0 &&
               memcmp(p, pb, sizeof p) == 0);
        for (int q = 0; q < Q; ++q) hits += i[q] >= 0;
    }
    ENSURE(hits > Q / 5);
    sc_world_destroy(w);
    return 0;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    RUN_TEST(storage_and_errors);
    RUN_TEST(rays_bit_identical);
    RUN_TEST(sweeps_by_hand);
    RUN_TEST(overlaps_exact);
    RUN_TEST(overlaps_obb_frustum);
    RUN_TEST(overlaps_capsules);
    RUN_TEST(random_world_vs_brute);
    RUN_TEST(upright_by_hand);
    RUN_TEST(upright_matches_pieces);
    RUN_TEST(point_capsule_is_sphere);
    printf("%d passed, %d failed\n", g_run - g_failed_tests, g_failed_tests);
    return g_failed_tests ? 1 : 0;
}
