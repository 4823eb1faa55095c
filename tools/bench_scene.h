/* The benchmark's seeded scene family, shared by the native and the wasm benchmark so both
 * measure the same boxes and rays: n boxes of size 0.5..2.5 spread uniformly in a cube whose
 * side grows with cbrt(n) (constant density), and rays from random points in the cube in
 * random directions (tmax = +inf). Deterministic: xorshift32 from a fixed seed. Used by
 * tools/bench_world.c (native) and tools/wasm_bench_scene.c (slabcast-bench.wasm, for JS). */
#ifndef SC_BENCH_SCENE_H
#define SC_BENCH_SCENE_H

#include <math.h>

#define SC_BENCH_RAYS 100000

static unsigned sc_bench_next(unsigned *s)
{
    unsigned x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}
/* uniform in [0, 1) */
static float sc_bench_u(unsigned *s) { return (float)(sc_bench_next(s) >> 8) * (1.0f / 16777216.0f); }

static void sc_bench_scene(int n, float *boxes, int nrays, float *rays)
{
    unsigned s = 0x12345678u;
    float side = 4.0f * cbrtf((float)n);
    for (int i = 0; i < n; ++i) {
        float *b = boxes + 6 * (long)i;
        for (int a = 0; a < 3; ++a) {
            float c = sc_bench_u(&s) * side;
            float h = 0.25f + sc_bench_u(&s);
            b[a] = c - h;
            b[3 + a] = c + h;
        }
    }
    for (int i = 0; i < nrays; ++i) {
        float *r = rays + 7 * (long)i;
        float d[3], len2;
        do {
            for (int a = 0; a < 3; ++a) d[a] = sc_bench_u(&s) * 2.0f - 1.0f;
            len2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        } while (len2 > 1.0f || len2 < 0.01f);
        float inv = 1.0f / sqrtf(len2);
        for (int a = 0; a < 3; ++a) {
            r[a] = sc_bench_u(&s) * side;
            r[3 + a] = d[a] * inv;
        }
        r[6] = INFINITY;
    }
}

#endif
