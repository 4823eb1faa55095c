/* sweep_check: the world sweeps (spheres, boxes, capsules) on seeded random scenes, for comparing
 * two builds of the core bit for bit, and their speed on the benchmark's scene.
 *
 *   sweep_check dump FILE [scenes [seed]]
 *                                   every BVH answer (t, index, normal, point) of every sweep of
 *                                   `scenes` random scenes written to FILE; prints how many sweeps
 *                                   differ from the brute force (bit for bit) and a hash of FILE
 *   sweep_check bench [boxes [sphere|capsule [rounds]]]
 *                                   sphere and capsule sweeps per second (the best of the rounds) on
 *                                   tools/bench_scene.h's boxes, sweeps as web/bench/sweep-peers.mjs's
 *
 * The scenes mix AABBs, OBBs, spheres and capsules (degenerate ones too), scaled by 1, 1e-20,
 * 1e15, 3e-3 or 1e6, some with objects beyond 2^80 (kept out of the BVH), removed and disabled
 * objects, masks; the sweeps have zero, tiny and huge direction components, finite and infinite
 * tmax, zero and tiny radii, grazing starts on faces, and every filter (mask, exclude, inside).
 * Build: cc -O2 -ffp-contract=off -Isrc tools/sweep_check.c src/sc_*.c src/slabcast.c -lm */
#include "slabcast.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_scene.h"

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
/* uniform in [0, 1) */
static double rng_u(void) { return (double)(rng_next() >> 11) * (1.0 / 9007199254740992.0); }
static double rng_sym(void) { return rng_u() * 2.0 - 1.0; }
static int rng_int(int n) { return (int)(rng_next() % (uint64_t)n); }

/* A random unit vector, some components zeroed or made tiny. */
static void rand_dir(float *d, double len)
{
    double v[3], l;
    do {
        for (int k = 0; k < 3; ++k) v[k] = rng_sym();
        l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    } while (l < 0.05 || l > 1.0);
    int style = rng_int(8);
    for (int k = 0; k < 3; ++k) {
        v[k] /= l;
        if (style == 0 && k != 0) v[k] = 0.0;            /* along x */
        if (style == 1 && k == 1) v[k] = 0.0;            /* in the xz plane */
        if (style == 2 && k == 2) v[k] *= 1e-30;         /* a tiny component */
        if (style == 3 && k == 0) v[k] = v[k] < 0 ? -0.0 : 0.0;
    }
    if (v[0] == 0.0 && v[1] == 0.0 && v[2] == 0.0) v[1] = 1.0;
    for (int k = 0; k < 3; ++k) d[k] = (float)(v[k] * len);
}

/* A vector of length len along a random axis, tilted by a random 2^-k (k in 4..34), or not. */
static void near_axis(float *v, double len)
{
    int a = rng_int(3), k = 4 + rng_int(31);
    for (int i = 0; i < 3; ++i) v[i] = 0.0f;
    v[a] = (float)(rng_int(2) ? len : -len);
    v[(a + 1 + rng_int(2)) % 3] = (float)(len * ldexp(rng_sym(), -k));
}

/* Unit axes from a random rotation (a normalised quaternion, rounded to float). */
static void rand_axes(float *ax)
{
    double q[4], l;
    do {
        for (int k = 0; k < 4; ++k) q[k] = rng_sym();
        l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    } while (l < 0.1 || l > 1.0);
    double w = q[0] / l, x = q[1] / l, y = q[2] / l, z = q[3] / l;
    double m[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y),
                   2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x),
                   2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)};
    for (int k = 0; k < 9; ++k) ax[k] = (float)m[k];
}

typedef struct scene {
    double s;    /* the scale */
    int nobj;
    float lo[3]; /* bounds of the object's first box, for grazing starts */
    float hi[3];
} scene;

/* Adds one random object of a random kind at scale s (centre c). */
static void add_object(sc_world *w, double s, const double *c, scene *sc)
{
    float f[15];
    int kind = rng_int(4), ok = 0;
    double h = s * (rng_int(10) == 0 ? 0.0 : 0.2 + 2.0 * rng_u());
    if (kind == 0) {
        for (int k = 0; k < 3; ++k) {
            double e = h * (0.3 + rng_u());
            f[k] = (float)(c[k] - e);
            f[3 + k] = (float)(c[k] + e);
        }
        ok = sc_world_add_aabbs(w, f, 1, NULL) == SC_OK;
        if (sc->nobj == 0)
            for (int k = 0; k < 3; ++k) { sc->lo[k] = f[k]; sc->hi[k] = f[3 + k]; }
    } else if (kind == 1) {
        for (int k = 0; k < 3; ++k) { f[k] = (float)c[k]; f[12 + k] = (float)(h * (0.3 + rng_u())); }
        rand_axes(f + 3);
        ok = sc_world_add_obbs(w, f, 1, NULL) == SC_OK;
    } else if (kind == 2) {
        for (int k = 0; k < 3; ++k) f[k] = (float)c[k];
        f[3] = (float)h;
        ok = sc_world_add_spheres(w, f, 1, NULL) == SC_OK;
    } else {
        float d[3];
        rand_dir(d, s * 3.0 * rng_u() * (rng_int(6) == 0 ? 0.0 : 1.0));
        if (rng_int(3) == 0) near_axis(d, s * 3.0 * rng_u());
        for (int k = 0; k < 3; ++k) { f[k] = (float)c[k]; f[3 + k] = (float)(c[k] + d[k]); }
        f[6] = (float)(h * 0.5);
        ok = sc_world_add_capsules(w, f, 1, NULL) == SC_OK;
    }
    if (!ok) {
        fprintf(stderr, "add failed (kind %d)\n", kind);
        exit(2);
    }
    sc->nobj++;
}

/* A random world: n objects at scale s, a few far ones, removed, disabled, masked. */
static sc_world *make_world(scene *sc, int n, int far)
{
    sc_world *w = sc_world_create();
    sc->nobj = 0;
    for (int i = 0; i < n; ++i) {
        double c[3];
        for (int k = 0; k < 3; ++k) c[k] = sc->s * 10.0 * rng_sym();
        if (far && rng_int(20) == 0) c[rng_int(3)] = 2e24 * rng_sym(); /* beyond 2^80 */
        uint64_t keep = rng_state;
        add_object(w, sc->s, c, sc);
        if (rng_int(15) == 0 && i + 1 < n) { /* the same object again: ties go to the lower index */
            rng_state = keep;
            add_object(w, sc->s, c, sc);
            ++i;
        }
    }
    for (int i = 1; i < n; ++i) {
        int r = rng_int(40);
        if (r == 0) sc_world_remove(w, i);
        if (r == 1) {
            bool off = false;
            sc_world_set_enabled(w, i, &off, 1);
        }
        if (r == 2 || r == 3) {
            uint32_t m = 1u << rng_int(4);
            sc_world_set_masks(w, i, &m, 1);
        }
    }
    if (sc_world_commit(w) != SC_OK) {
        fprintf(stderr, "commit failed\n");
        exit(2);
    }
    return w;
}

/* One random sweep of kind (0 sphere, 1 box, 2 capsule) into p. */
static void make_sweep(const scene *sc, int kind, float *p)
{
    double s = sc->s, c[3];
    for (int k = 0; k < 3; ++k) c[k] = s * 12.0 * rng_sym();
    double len = rng_int(5) == 0 ? 1e-3 + 1e3 * rng_u() : 1.0;
    float d[3], rad = (float)(rng_int(6) == 0 ? 0.0 : (rng_int(6) == 0 ? s * 1e-6 : s * (0.05 + 2.0 * rng_u())));
    rand_dir(d, len);
    int r = rng_int(4);
    float tmax = r == 0 ? INFINITY : (r == 1 ? 0.0f : (float)(s * 30.0 * rng_u() / len));
    int graze = rng_int(6) == 0; /* start on the grown face of the first box, moving along it */
    if (graze) {
        int a = rng_int(3);
        c[a] = (double)sc->hi[a] + (kind == 0 ? rad : 0.0);
        d[a] = 0.0f;
        if (d[0] == 0.0f && d[1] == 0.0f && d[2] == 0.0f) d[(a + 1) % 3] = 1.0f;
    }
    if (kind == 2) {
        float h[3];
        rand_dir(h, s * (rng_int(5) == 0 ? 0.0 : 2.0 * rng_u()));
        if (rng_int(3) == 0) near_axis(h, s * 2.0 * rng_u());
        if (rng_int(4) == 0) near_axis(d, len); /* a direction near an axis too */
        for (int k = 0; k < 3; ++k) {
            p[k] = (float)c[k] - h[k];
            p[3 + k] = (float)c[k] + h[k];
            p[6 + k] = d[k];
        }
        p[9] = tmax;
        p[10] = rad;
        return;
    }
    for (int k = 0; k < 3; ++k) { p[k] = (float)c[k]; p[3 + k] = d[k]; }
    p[6] = tmax;
    if (kind == 0) p[7] = rad;
    else
        for (int k = 0; k < 3; ++k) p[7 + k] = rng_int(8) == 0 ? 0.0f : (float)(s * (0.05 + 1.5 * rng_u()));
}

typedef sc_status (*cast_fn)(const sc_world *, const float *, int32_t, float *, int32_t *, float *, float *,
                             const sc_query_filter *, sc_scratch *);

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; ++i) { h ^= b[i]; h *= 1099511628211ull; }
    return h;
}

/* The sweeps of one kind on one world under one filter: BVH answers written to out, compared
 * with the brute force. Returns the sweeps that differ. */
static int near_bad; /* sweeps that differ from the brute force with both t below 2^60 */

static int run_kind(const sc_world *w, const scene *sc, int kind, int nsw, const sc_query_filter *f, FILE *out,
                    uint64_t *hash, long *hits)
{
    static const cast_fn bvh[3] = {sc_world_cast_spheres, sc_world_cast_boxes, sc_world_cast_capsules};
    static const cast_fn brute[3] = {sc_world_cast_spheres_bruteforce, sc_world_cast_boxes_bruteforce,
                                     sc_world_cast_capsules_bruteforce};
    int per = kind == 0 ? SC_SPHERE_SWEEP_FLOATS : kind == 1 ? SC_BOX_SWEEP_FLOATS : SC_CAPSULE_SWEEP_FLOATS;
    float *p = malloc(sizeof(float) * (size_t)(per * nsw)), *t = malloc(sizeof(float) * 2 * (size_t)nsw);
    float *nrm = malloc(sizeof(float) * 6 * (size_t)nsw), *pt = malloc(sizeof(float) * 6 * (size_t)nsw);
    int32_t *idx = malloc(sizeof(int32_t) * 2 * (size_t)nsw);
    for (int i = 0; i < nsw; ++i) make_sweep(sc, kind, p + (size_t)i * (size_t)per);
    if (bvh[kind](w, p, nsw, t, idx, nrm, pt, f, NULL) != SC_OK ||
        brute[kind](w, p, nsw, t + nsw, idx + nsw, nrm + 3 * nsw, pt + 3 * nsw, f, NULL) != SC_OK) {
        fprintf(stderr, "sweep call failed\n");
        exit(2);
    }
    int bad = 0;
    for (int i = 0; i < nsw; ++i) {
        if (memcmp(&t[i], &t[nsw + i], 4) || idx[i] != idx[nsw + i] || memcmp(nrm + 3 * i, nrm + 3 * (nsw + i), 12) ||
            memcmp(pt + 3 * i, pt + 3 * (nsw + i), 12))
        {
            ++bad;
            near_bad += t[i] < 0x1p60f && t[nsw + i] < 0x1p60f;
            if (getenv("SWEEP_VERBOSE"))
                fprintf(stderr, "bvh != brute: scale %g kind %d inside %d sweep %d: bvh %d t %a, brute %d t %a\n", sc->s,
                        kind, (int)f->inside, i, idx[i], (double)t[i], idx[nsw + i], (double)t[nsw + i]);
        }
        *hits += idx[i] >= 0;
    }
    size_t at = getenv("SWEEP_BRUTE") ? (size_t)nsw : 0; /* write the brute force's answers instead */
    fwrite(t + at, 4, (size_t)nsw, out);
    fwrite(idx + at, 4, (size_t)nsw, out);
    fwrite(nrm + 3 * at, 4, 3 * (size_t)nsw, out);
    fwrite(pt + 3 * at, 4, 3 * (size_t)nsw, out);
    *hash = fnv(*hash, t, 4 * (size_t)nsw);
    *hash = fnv(*hash, idx, 4 * (size_t)nsw);
    *hash = fnv(*hash, nrm, 12 * (size_t)nsw);
    *hash = fnv(*hash, pt, 12 * (size_t)nsw);
    free(p);
    free(t);
    free(nrm);
    free(pt);
    free(idx);
    return bad;
}

static int dump(const char *path, int scenes)
{
    static const double scales[5] = {1.0, 1e-20, 1e15, 3e-3, 1e6};
    FILE *out = fopen(path, "wb");
    if (!out) return 2;
    uint64_t hash = 1469598103934665603ull;
    long sweeps = 0, hits = 0;
    int bad = 0;
    for (int i = 0; i < scenes; ++i) {
        scene sc;
        memset(&sc, 0, sizeof sc);
        sc.s = scales[i % 5];
        int n = 1 + rng_int(i % 3 == 0 ? 40 : (i % 11 == 5 ? 4000 : 400));
        sc_world *w = make_world(&sc, n, i % 7 == 3);
        for (int fi = 0; fi < 4; ++fi) {
            sc_query_filter f = {0xFFFFFFFFu, NULL, SC_INSIDE_SOLID};
            int32_t ex[64];
            if (fi == 1) f.mask = 1u << rng_int(4);
            if (fi == 2) {
                for (int k = 0; k < 64; ++k) ex[k] = rng_int(n + 1) - 1;
                f.exclude = ex;
            }
            if (fi == 3) f.inside = rng_int(2) ? SC_INSIDE_SKIP : SC_INSIDE_EXIT;
            for (int kind = 0; kind < 3; ++kind) {
                bad += run_kind(w, &sc, kind, 64, &f, out, &hash, &hits);
                sweeps += 64;
            }
        }
        sc_world_destroy(w);
    }
    fclose(out);
    printf("scenes %d sweeps %ld hits %ld bvh!=brute %d (with both t below 2^60: %d) hash %016llx\n", scenes, sweeps,
           hits, bad, near_bad, (unsigned long long)hash);
    return bad != 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The benchmark: sweep-peers.mjs's sweeps (centres apart from the boxes, unit directions, length
 * 10, radius 0.25, capsules of half height 0.5 along y) on the bench scene's boxes. */
static int bench(int n, int only, int rounds)
{
    float *boxes = malloc(sizeof(float) * 6 * (size_t)n);
    float *rays = malloc(sizeof(float) * 7 * (size_t)n);
    sc_bench_scene(n, boxes, n, rays);
    sc_world *w = sc_world_create();
    sc_world_add_aabbs(w, boxes, n, NULL);
    sc_world_commit(w);
    int m = 10000;
    float *sph = malloc(sizeof(float) * 8 * (size_t)m), *cap = malloc(sizeof(float) * 11 * (size_t)m);
    float side = 4.0f * cbrtf((float)n);
    unsigned s = 0x9e3779b9u;
    for (int i = 0; i < m; ++i) {
        float c[3];
        int32_t hit[1], total = 0;
        for (int tries = 0; tries < 100; ++tries) {
            for (int k = 0; k < 3; ++k) c[k] = sc_bench_u(&s) * side;
            sc_aabb b = {{c[0] - 0.25f, c[1] - 0.75f, c[2] - 0.25f}, {c[0] + 0.25f, c[1] + 0.75f, c[2] + 0.25f}};
            sc_world_overlap_aabb(w, &b, hit, 1, &total, NULL);
            if (total == 0) break;
        }
        float *p = sph + 8 * i, *q = cap + 11 * i, *r = rays + 7 * i;
        for (int k = 0; k < 3; ++k) {
            p[k] = c[k];
            p[3 + k] = r[3 + k];
            q[k] = q[3 + k] = c[k];
            q[6 + k] = r[3 + k];
        }
        q[1] -= 0.5f;
        q[4] += 0.5f;
        p[6] = q[9] = 10.0f;
        p[7] = q[10] = 0.25f;
    }
    float *t = malloc(sizeof(float) * (size_t)m), *nrm = malloc(sizeof(float) * 3 * (size_t)m);
    float *pt = malloc(sizeof(float) * 3 * (size_t)m);
    int32_t *idx = malloc(sizeof(int32_t) * (size_t)m);
    const char *names[2] = {"sphere", "capsule"};
    for (int kind = 0; kind < 2; ++kind) {
        if (only >= 0 && kind != only) continue;
        double best = 1e30;
        long hits = 0;
        for (int round = 0; round < rounds; ++round) {
            double t0 = now();
            if (kind == 0) sc_world_cast_spheres(w, sph, m, t, idx, nrm, pt, NULL, NULL);
            else sc_world_cast_capsules(w, cap, m, t, idx, nrm, pt, NULL, NULL);
            double dt = now() - t0;
            if (dt < best) best = dt;
        }
        for (int i = 0; i < m; ++i) hits += idx[i] >= 0;
        uint64_t h = fnv(fnv(1469598103934665603ull, t, 4 * (size_t)m), idx, 4 * (size_t)m);
        printf("%-8s %d boxes: %.1f k sweeps/s (%ld hits, answers hash %016llx)\n", names[kind], n, m / best / 1e3,
               hits, (unsigned long long)h);
    }
    sc_world_destroy(w);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 4) rng_state ^= (uint64_t)strtoull(argv[4], NULL, 0) * 0x9E3779B97F4A7C15ull;
    if (argc >= 3 && strcmp(argv[1], "dump") == 0) return dump(argv[2], argc > 3 ? atoi(argv[3]) : 300);
    if (argc >= 2 && strcmp(argv[1], "bench") == 0)
        return bench(argc > 2 ? atoi(argv[2]) : 10000, argc > 3 ? (strcmp(argv[3], "sphere") == 0 ? 0 : 1) : -1,
                     argc > 4 ? atoi(argv[4]) : 5);
    fprintf(stderr, "usage: sweep_check dump FILE [scenes] | bench [boxes]\n");
    return 2;
}
