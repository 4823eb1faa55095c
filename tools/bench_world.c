/* Native world benchmark: the scene family of web/bench/bench.mjs (same seeded generator),
 * printed as one JSON object per line so that the JS benchmark can put the columns side by side.
 * The build is timed as the best of three (each a fresh world: add, then sc_world_build timed).
 * The refit is checked to work in place: the world is made with a counting allocator
 * (sc_world_create_with), and sc_world_refit after every box moved must allocate and free
 * nothing and leave sc_world_bytes unchanged ("refit_allocs", "refit_frees", "refit_bytes_same").
 *   bench_world [boxes ...]   (default 1000 10000 100000 1000000)
 */
#include "slabcast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_scene.h"

/* The counting allocator: how many blocks the world allocated and freed. */
typedef struct counts { long allocs, frees; } counts;
static void *count_alloc(void *user, size_t bytes)
{
    ++((counts *)user)->allocs;
    return malloc(bytes);
}
static void count_free(void *user, void *block, size_t bytes)
{
    (void)bytes;
    ++((counts *)user)->frees;
    free(block);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    int sizes[8] = {1000, 10000, 100000, 1000000}, nsizes = 4;
    if (argc > 1) {
        nsizes = 0;
        for (int i = 1; i < argc && nsizes < 8; ++i) sizes[nsizes++] = atoi(argv[i]);
    }
    const int nrays = SC_BENCH_RAYS;
    for (int si = 0; si < nsizes; ++si) {
        int n = sizes[si];
        float *boxes = malloc(sizeof(float) * 6 * (size_t)n);
        float *rays = malloc(sizeof(float) * 7 * (size_t)nrays);
        float *t = malloc(sizeof(float) * (size_t)nrays);
        float *nrm = malloc(sizeof(float) * 3 * (size_t)nrays);
        int *idx = malloc(sizeof(int) * (size_t)nrays);
        sc_bench_scene(n, boxes, nrays, rays);

        counts c = {0, 0};
        const sc_allocator counting = {count_alloc, count_free, &c};
        sc_world *w = NULL;
        double build = INFINITY, t0;
        for (int k = 0; k < 3; ++k) { /* the best of three builds, each of a fresh world */
            if (w) sc_world_destroy(w);
            w = sc_world_create_with(&counting);
            sc_world_add_aabbs(w, boxes, n, NULL);
            t0 = now_ms();
            sc_world_build(w);
            double ms = now_ms() - t0;
            if (ms < build) build = ms;
        }

        /* Move every box a little, then refit: in place (no allocation, no free, same bytes). */
        for (size_t i = 0; i < (size_t)n * 6; ++i) boxes[i] += 0.25f;
        sc_world_update_aabbs(w, 0, boxes, n);
        size_t bytes_before = sc_world_bytes(w);
        counts before = c;
        t0 = now_ms();
        sc_world_refit(w);
        double refit = now_ms() - t0;
        long refit_allocs = c.allocs - before.allocs, refit_frees = c.frees - before.frees;
        int refit_bytes_same = sc_world_bytes(w) == bytes_before;

        /* The caller's scratch, reserved once: the batch is traced in a cache-friendly order. */
        sc_scratch *scratch = sc_scratch_create();
        sc_scratch_reserve(scratch, nrays);

        t0 = now_ms();
        sc_world_cast_rays(w, rays, nrays, t, idx, nrm, NULL, scratch);
        double cast = now_ms() - t0;
        int hits = 0;
        for (int i = 0; i < nrays; ++i) hits += idx[i] >= 0;

        /* Brute-force kernel: every box against a few rays (box tests per second). */
        int brute_rays = n >= 100000 ? 20 : 200;
        t0 = now_ms();
        sc_world_cast_rays_bruteforce(w, rays, brute_rays, t, idx, nrm, NULL, scratch);
        double brute = now_ms() - t0;

        printf("{\"boxes\": %d, \"rays\": %d, \"simd\": \"%s\", \"build_ms\": %.3f, \"refit_ms\": %.3f, "
               "\"rays_per_s\": %.0f, \"hit_fraction\": %.3f, \"brute_tests_per_s\": %.0f, \"bytes_per_box\": %.1f, "
               "\"refit_allocs\": %ld, \"refit_frees\": %ld, \"refit_bytes_same\": %s}\n",
               n, nrays, sc_world_simd(), build, refit, nrays / (cast / 1e3), (double)hits / nrays,
               (double)brute_rays * n / (brute / 1e3), (double)sc_world_bytes(w) / n, refit_allocs, refit_frees,
               refit_bytes_same ? "true" : "false");
        fflush(stdout);
        sc_scratch_destroy(scratch);
        sc_world_destroy(w);
        free(boxes); free(rays); free(t); free(nrm); free(idx);
    }
    return 0;
}
