/* slabcast-bench.wasm: the benchmark's seeded scene (tools/bench_scene.h) as a wasm module of
 * its own, so that `npm run bench` measures the same boxes and rays as the native bench_world
 * while the product module (slabcast.wasm) holds no benchmark code. web/bench/bench-scene.mjs
 * loads it. */
#include <emscripten.h>
#include <stdlib.h>

#include "bench_scene.h"

/// malloc for the scene's arrays; 0 when out of memory.
EMSCRIPTEN_KEEPALIVE void *scb_alloc(int bytes) { return bytes > 0 ? malloc((size_t)bytes) : NULL; }
/// free for scb_alloc.
EMSCRIPTEN_KEEPALIVE void scb_free(void *p) { free(p); }
/// n boxes (6 floats each) and nrays rays (7 floats each), written at boxes and rays.
EMSCRIPTEN_KEEPALIVE void scb_scene(int n, float *boxes, int nrays, float *rays) { sc_bench_scene(n, boxes, nrays, rays); }
