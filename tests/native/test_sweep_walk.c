/* The sweeps' BVH walk (src/sc_sweep_walk.c) and the capsule-box leaf's edge culling
 * (src/sc_sweep_capsule.c): every sweep through the BVH gives the brute force's bits (t, index,
 * normal, point). The brute force (sc_world_cast_*_bruteforce) is the independent path: no BVH, no
 * culling, every piece of every object tested. Scenes: random at five scales; dyadic (exact ties,
 * duplicate objects, touching contacts, sweeps along faces); capsules and directions nearly parallel
 * to an axis (where the edge culling steps aside); a deep BVH; sweeps from 2^80 or beyond (the
 * generic walk). Built twice: on the default core and on one whose traversal stack holds 4 entries
 * (SC_STACK=4: the walk's full-stack path, every object tested). Plus contacts worked out by hand. */
#include "slabcast.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"


static uint64_t g_rng = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}
static double unit(void) { return (double)(rnd() >> 11) * (1.0 / 9007199254740992.0); }
static double sym(void) { return unit() * 2.0 - 1.0; }
static int pick(int n) { return (int)(rnd() % (uint64_t)n); }
/* Dyadic in [-lim, lim], steps of 1/4. */
static float dyad(int lim) { return (float)(pick(8 * lim + 1) - 4 * lim) * 0.25f; }

/* How a scene is drawn. */
typedef struct style {
    double s;      /* scale */
    int dyadic;    /* dyadic coordinates and sizes, axis directions */
    int parallel;  /* capsules and directions nearly along an axis */
} style;

/* A vector of length len along axis a, tilted toward the next axis by tilt. */
static void along(float *v, int a, double len, double tilt)
{
    v[0] = v[1] = v[2] = 0.0f;
    v[a] = (float)len;
    v[(a + 1) % 3] = (float)(len * tilt);
}

/* A random direction of length len (the style's kind). */
static void direction(const style *st, float *d, double len)
{
    if (st->dyadic && pick(2)) {
        d[0] = d[1] = d[2] = 0.0f;
        d[pick(3)] = pick(2) ? 1.0f : -1.0f;
        if (pick(2)) d[pick(3)] = dyad(1);
        if (d[0] == 0.0f && d[1] == 0.0f && d[2] == 0.0f) d[0] = 1.0f;
        return;
    }
    if (st->parallel && pick(2)) {
        along(d, pick(3), pick(2) ? len : -len, ldexp(sym(), -(4 + pick(31))));
        return;
    }
    double v[3], l;
    do {
        for (int k = 0; k < 3; ++k) v[k] = sym();
        l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    } while (l < 0.1 || l > 1.0);
    for (int k = 0; k < 3; ++k) d[k] = (float)(v[k] / l * len);
}

/* Adds one random object; returns its kind. */
static int add_one(sc_world *w, const style *st)
{
    float f[15], c[3];
    double s = st->s;
    for (int k = 0; k < 3; ++k) c[k] = st->dyadic ? dyad(8) : (float)(s * 10.0 * sym());
    int kind = pick(4);
    double h = st->dyadic ? 0.25 * (1 + pick(8)) : s * (0.2 + 2.0 * unit());
    if (kind == 0) {
        for (int k = 0; k < 3; ++k) {
            double e = st->dyadic ? 0.25 * (1 + pick(8)) : h * (0.3 + unit());
            f[k] = (float)(c[k] - e);
            f[3 + k] = (float)(c[k] + e);
        }
        return sc_world_add_aabbs(w, f, 1, NULL) == SC_OK ? 0 : -1;
    }
    if (kind == 1) {
        double a = 6.283185307179586 * unit(), ca = cos(a), sa = sin(a);
        float ax[9] = {(float)ca, (float)sa, 0, (float)-sa, (float)ca, 0, 0, 0, 1};
        memcpy(f, c, sizeof c);
        memcpy(f + 3, ax, sizeof ax);
        for (int k = 0; k < 3; ++k) f[12 + k] = (float)(h * (0.3 + unit()));
        return sc_world_add_obbs(w, f, 1, NULL) == SC_OK ? 1 : -1;
    }
    if (kind == 2) {
        memcpy(f, c, sizeof c);
        f[3] = (float)h;
        return sc_world_add_spheres(w, f, 1, NULL) == SC_OK ? 2 : -1;
    }
    float d[3];
    direction(st, d, st->dyadic ? 0.25 * pick(12) : s * 3.0 * unit());
    for (int k = 0; k < 3; ++k) { f[k] = c[k]; f[3 + k] = c[k] + d[k]; }
    f[6] = (float)(h * 0.5);
    return sc_world_add_capsules(w, f, 1, NULL) == SC_OK ? 3 : -1;
}

/* One random sweep of kind (0 sphere, 1 box, 2 capsule) into p. */
static void one_sweep(const style *st, int kind, float *p)
{
    double s = st->s;
    float c[3], d[3];
    for (int k = 0; k < 3; ++k) c[k] = st->dyadic ? dyad(10) : (float)(s * 12.0 * sym());
    direction(st, d, st->dyadic ? 1.0 : (pick(4) ? 1.0 : 1e-3 + 1e3 * unit()));
    float tmax = pick(3) == 0 ? INFINITY : (st->dyadic ? dyad(8) + 8.0f : (float)(s * 30.0 * unit()));
    float rad = st->dyadic ? 0.25f * (float)pick(6) : (float)(pick(6) ? s * (0.05 + 2.0 * unit()) : 0.0);
    if (kind == 2) {
        float h[3];
        direction(st, h, st->dyadic ? 0.25 * pick(6) : s * 2.0 * unit());
        for (int k = 0; k < 3; ++k) {
            p[k] = c[k] - h[k];
            p[3 + k] = c[k] + h[k];
            p[6 + k] = d[k];
        }
        p[9] = tmax;
        p[10] = rad;
        return;
    }
    for (int k = 0; k < 3; ++k) { p[k] = c[k]; p[3 + k] = d[k]; }
    p[6] = tmax;
    if (kind == 0) p[7] = rad;
    else
        for (int k = 0; k < 3; ++k) p[7 + k] = st->dyadic ? 0.25f * (float)pick(5) : (float)(s * (0.05 + 1.5 * unit()));
}

typedef sc_status (*cast_fn)(const sc_world *, const float *, int32_t, float *, int32_t *, float *, float *,
                             const sc_query_filter *, sc_scratch *);

/* n sweeps of kind through the BVH and the brute force under filter f: the same bits. */
static int same_as_brute(const sc_world *w, int kind, const float *p, int n, const sc_query_filter *f)
{
    static const cast_fn bvh[3] = {sc_world_cast_spheres, sc_world_cast_boxes, sc_world_cast_capsules};
    static const cast_fn brute[3] = {sc_world_cast_spheres_bruteforce, sc_world_cast_boxes_bruteforce,
                                     sc_world_cast_capsules_bruteforce};
    enum { N = 64 };
    float t[2][N], nrm[2][3 * N], pt[2][3 * N];
    int32_t idx[2][N];
    ENSURE(n <= N);
    ENSURE(bvh[kind](w, p, n, t[0], idx[0], nrm[0], pt[0], f, NULL) == SC_OK);
    ENSURE(brute[kind](w, p, n, t[1], idx[1], nrm[1], pt[1], f, NULL) == SC_OK);
    for (int i = 0; i < n; ++i) {
        int same = memcmp(&t[0][i], &t[1][i], 4) == 0 && idx[0][i] == idx[1][i] &&
                   memcmp(nrm[0] + 3 * i, nrm[1] + 3 * i, 12) == 0 && memcmp(pt[0] + 3 * i, pt[1] + 3 * i, 12) == 0;
        if (!same)
            fprintf(stderr, "  kind %d sweep %d: BVH %d t %a, brute %d t %a\n", kind, i, idx[0][i], (double)t[0][i],
                    idx[1][i], (double)t[1][i]);
        ENSURE(same);
    }
    return 0;
}

/* A scene of n objects in style st, then 64 sweeps of each kind under four filters. */
static int scene_vs_brute(const style *st, int n, long *hits)
{
    sc_world *w = sc_world_create();
    ENSURE(w != NULL);
    for (int i = 0; i < n; ++i) {
        uint64_t keep = g_rng;
        ENSURE(add_one(w, st) >= 0);
        if (pick(12) == 0 && i + 1 < n) { /* the same object again: a tie, to the lower index */
            g_rng = keep;
            ENSURE(add_one(w, st) >= 0);
            ++i;
        }
    }
    for (int i = 1; i < n; ++i) {
        int r = pick(30);
        bool off = false;
        uint32_t m = 1u << pick(3);
        if (r == 0) ENSURE(sc_world_remove(w, i) == SC_OK);
        if (r == 1) ENSURE(sc_world_set_enabled(w, i, &off, 1) == SC_OK);
        if (r == 2) ENSURE(sc_world_set_masks(w, i, &m, 1) == SC_OK);
    }
    ENSURE(sc_world_commit(w) == SC_OK);
    float p[64 * SC_CAPSULE_SWEEP_FLOATS];
    int32_t ex[64];
    for (int fi = 0; fi < 4; ++fi) {
        sc_query_filter f = {0xFFFFFFFFu, NULL, SC_INSIDE_SOLID};
        if (fi == 1) f.mask = 1u << pick(3);
        if (fi == 2) {
            for (int k = 0; k < 64; ++k) ex[k] = pick(n + 1) - 1;
            f.exclude = ex;
        }
        if (fi == 3) f.inside = pick(2) ? SC_INSIDE_SKIP : SC_INSIDE_EXIT;
        for (int kind = 0; kind < 3; ++kind) {
            int per = kind == 0 ? SC_SPHERE_SWEEP_FLOATS : kind == 1 ? SC_BOX_SWEEP_FLOATS : SC_CAPSULE_SWEEP_FLOATS;
            for (int i = 0; i < 64; ++i) one_sweep(st, kind, p + i * per);
            if (same_as_brute(w, kind, p, 64, &f)) {
                sc_world_destroy(w);
                return 1;
            }
            int32_t idx[64];
            float t[64];
            if (kind == 0) ENSURE(sc_world_cast_spheres(w, p, 64, t, idx, NULL, NULL, &f, NULL) == SC_OK);
            for (int i = 0; kind == 0 && i < 64; ++i) *hits += idx[i] >= 0;
        }
    }
    sc_world_destroy(w);
    return 0;
}

/* Random scenes at five scales (1e-20 to 1e15), dyadic scenes, near-axis scenes. */
static int random_scenes_vs_brute(void)
{
    static const double scales[5] = {1.0, 1e-20, 1e15, 3e-3, 1e6};
    long hits = 0;
    for (int i = 0; i < 150; ++i) {
        style st = {scales[i % 5], i % 3 == 1, i % 3 == 2};
        if (st.dyadic) st.s = 1.0;
        if (scene_vs_brute(&st, 1 + pick(i % 4 == 0 ? 30 : 300), &hits)) return 1;
    }
    ENSURE(hits > 1000); /* the sphere sweeps hit something often enough to mean something */
    return 0;
}

/* A deep BVH: 6000 objects, near-axis and random sweeps. */
static int deep_scene_vs_brute(void)
{
    long hits = 0;
    style st = {1.0, 0, 1};
    return scene_vs_brute(&st, 6000, &hits);
}

/* Sweeps from 2^81 (outside the float walk's range: the generic walk), by hand: a sphere of radius
 * 1 at (2^81, 0, 0) moving along -x meets the box [-1, 1]^3 when its centre is at x = 2, t = 2^81 - 2,
 * which is 2^81 in float (and in double: the ulp there is 2^29, so the contact point, computed from
 * o + t d, is not checked); normal +x. A capsule from (2^81, -1, 0) to (2^81, 1, 0) of radius 1 the
 * same way: t 2^81 in float, box 0. Both: the brute force's bits. */
static int far_sweeps_by_hand(void)
{
    sc_world *w = sc_world_create();
    float box[6] = {-1, -1, -1, 1, 1, 1}, far_box[6] = {-5, 3, -1, -4, 4, 1};
    ENSURE(sc_world_add_aabbs(w, box, 1, NULL) == SC_OK && sc_world_add_aabbs(w, far_box, 1, NULL) == SC_OK);
    ENSURE(sc_world_commit(w) == SC_OK);
    const float X = 0x1p81f;
    float sph[8] = {X, 0, 0, -1, 0, 0, INFINITY, 1}, cap[11] = {X, -1, 0, X, 1, 0, -1, 0, 0, INFINITY, 1};
    float t[2], n[6], p[6];
    int32_t idx[2];
    ENSURE(sc_world_cast_spheres(w, sph, 1, t, idx, n, p, NULL, NULL) == SC_OK);
    ENSURE(sc_world_cast_capsules(w, cap, 1, t + 1, idx + 1, n + 3, p + 3, NULL, NULL) == SC_OK);
    ENSURE(idx[0] == 0 && t[0] == X);
    ENSURE(n[0] == 1.0f && n[1] == 0.0f && n[2] == 0.0f);
    ENSURE(idx[1] == 0 && t[1] == X);
    ENSURE(same_as_brute(w, 0, sph, 1, NULL) == 0 && same_as_brute(w, 2, cap, 1, NULL) == 0);
    sc_world_destroy(w);
    return 0;
}

/* Contacts by hand through the float walk, where the culling margins matter:
 * - a sphere of radius 1 at (-10, 2, 0) moving +x grazes the top face y = 1 of the box [-1, 1]^3 over
 *   its whole length (touching counts): first contact when its centre reaches x = -1, t = 9, normal
 *   +y, point (-1, 1, 0);
 * - the same sphere with radius one float step below 1 never touches it: no contact;
 * - a capsule from (-10, 2, 0) to (-10, 4, 0), radius 1, moving +x: the same contact as the sphere
 *   (its lower end ball), t = 9;
 * - two identical boxes (indices 1 and 2) ahead of a sphere at the same t: the lower index. */
static int grazing_by_hand(void)
{
    sc_world *w = sc_world_create();
    float boxes[18] = {-1, -1, -1, 1, 1, 1, 20, -1, -1, 22, 1, 1, 20, -1, -1, 22, 1, 1};
    ENSURE(sc_world_add_aabbs(w, boxes, 3, NULL) == SC_OK && sc_world_commit(w) == SC_OK);
    float sw[3 * 8] = {-10, 2, 0, 1, 0, 0, 5000, 1, -10, 2, 0, 1, 0, 0, 5000, nextafterf(1.0f, 0.0f),
                       10, 0, 0, 1, 0, 0, INFINITY, 1};
    float t[3], n[9], p[9];
    int32_t idx[3];
    ENSURE(sc_world_cast_spheres(w, sw, 3, t, idx, n, p, NULL, NULL) == SC_OK);
    ENSURE(idx[0] == 0 && t[0] == 9.0f && n[1] == 1.0f && p[0] == -1.0f && p[1] == 1.0f && p[2] == 0.0f);
    /* the second sphere misses box 0; its path meets boxes 1 and 2 only if within reach: y = 2 - r > 1 */
    ENSURE(idx[1] == -1);
    ENSURE(idx[2] == 1 && t[2] == 9.0f && n[6] == -1.0f && p[6] == 20.0f && p[7] == 0.0f);
    float cap[11] = {-10, 2, 0, -10, 4, 0, 1, 0, 0, 5000, 1};
    ENSURE(sc_world_cast_capsules(w, cap, 1, t, idx, n, p, NULL, NULL) == SC_OK);
    ENSURE(idx[0] == 0 && t[0] == 9.0f && n[1] == 1.0f && p[0] == -1.0f && p[1] == 1.0f && p[2] == 0.0f);
    sc_world_destroy(w);
    return 0;
}


int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    RUN_TEST(grazing_by_hand);
    RUN_TEST(far_sweeps_by_hand);
    RUN_TEST(random_scenes_vs_brute);
    RUN_TEST(deep_scene_vs_brute);
    printf("%d passed, %d failed\n", g_run - g_failed_tests, g_failed_tests);
    return g_failed_tests ? 1 : 0;
}
