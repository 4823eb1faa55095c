/* Native world benchmark: the scene family of web/bench/bench.mjs (same seeded generator),
 * printed as one JSON object per line so that the JS benchmark can put the columns side by side.
 *   bench_world [boxes ...]   (default 1000 10000 100000 1000000)
 */
#include "slabcast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_scene.h"

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

        sc_world *w = sc_world_create();
        sc_world_add_aabbs(w, boxes, n, NULL);
        double t0 = now_ms();
        sc_world_build(w);
        double build = now_ms() - t0;

        /* Move every box a little, then refit. */
        for (size_t i = 0; i < (size_t)n * 6; ++i) boxes[i] += 0.25f;
        sc_world_update_aabbs(w, 0, boxes, n);
        t0 = now_ms();
        sc_world_refit(w);
        double refit = now_ms() - t0;

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
               "\"rays_per_s\": %.0f, \"hit_fraction\": %.3f, \"brute_tests_per_s\": %.0f, \"bytes_per_box\": %.1f}\n",
               n, nrays, sc_world_simd(), build, refit, nrays / (cast / 1e3), (double)hits / nrays,
               (double)brute_rays * n / (brute / 1e3), (double)sc_world_bytes(w) / n);
        fflush(stdout);
        sc_scratch_destroy(scratch);
        sc_world_destroy(w);
        free(boxes); free(rays); free(t); free(nrm); free(idx);
    }
    return 0;
}
