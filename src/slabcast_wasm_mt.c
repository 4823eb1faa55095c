/* Extra entry points of the shared-memory WebAssembly build (slabcast-mt.wasm), for
 * web/parallel/: several instances of the module, one per Web Worker or Node worker thread,
 * share one linear memory and query one committed world at once (docs/parallel.md).
 *
 * Threading rules (the JS side keeps them):
 *   - Only the main thread's instance allocates, frees or changes a world (sc_wasm_alloc,
 *     sc_wasm_world_*). It does so only while no worker runs a job.
 *   - A worker only calls sc_wasm_mt_work: it reads the committed world (a const world: the
 *     C API allows any number of threads to query it, slabcast.h), reads the job's input and
 *     writes the outputs of the blocks it takes, plus its own scratch and result slot.
 *   - Every instance has its own __stack_pointer global; a worker points it at a stack region of
 *     its own (allocated by the main thread) with stackRestore before its first job.
 *
 * A job is a batch of n items split into blocks of `block` items; workers take blocks in
 * increasing order with one atomic add, so every item's answer is computed exactly as the
 * single-threaded call computes it (each item's result is its own, slabcast.h). The first
 * refused item is found as it is in one call: the core checks a block before it casts any of
 * it, and once a block fails no block after it is taken; every block before it was taken
 * first (blocks are handed out in order), so the smallest refused item over all workers is
 * the one a single call reports.
 */
#include "slabcast.h"

#include <stdint.h>

#if defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
#define SC_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define SC_EXPORT
#endif

/* A job as the main thread writes it (every field 4 bytes; web/parallel/shared.js). */
typedef struct sc_mt_job {
    int32_t op;             /* 0 rays, 1 any hit, 2 segments, 3 sphere, 4 box, 5 capsule sweeps */
    const sc_world *world;  /* committed */
    const float *in;        /* n items */
    int32_t n;
    int32_t block;          /* items per block, >= 1 */
    float *t;               /* n */
    int32_t *index;         /* n */
    float *normal;          /* 3n */
    float *point;           /* 3n (sweeps) */
    bool *hit;              /* n bytes (any hit) */
    int32_t filtered;       /* 0: the default filter */
    uint32_t mask;
    const int32_t *exclude; /* n, or NULL */
    int32_t inside;
    int32_t next;           /* atomic: the first item of the next block */
    int32_t stop;           /* atomic: non-zero once a block was refused */
} sc_mt_job;

_Static_assert(sizeof(sc_mt_job) == 64, "sc_mt_job layout (web/parallel/shared.js)");

static const int32_t sc_mt_per[6] = {SC_RAY_FLOATS, SC_RAY_FLOATS, SC_SEGMENT_FLOATS, SC_SPHERE_SWEEP_FLOATS,
                                     SC_BOX_SWEEP_FLOATS, SC_CAPSULE_SWEEP_FLOATS};

/// Bytes of a job (for JS).
SC_EXPORT int sc_wasm_mt_job_bytes(void) { return (int)sizeof(sc_mt_job); }

/* One block [first, first + m) of the job. */
static sc_status sc_mt_block(const sc_mt_job *job, int32_t first, int32_t m, sc_scratch *scratch)
{
    const sc_world *w = job->world;
    const float *in = job->in + (size_t)first * (size_t)sc_mt_per[job->op];
    sc_query_filter filter;
    const sc_query_filter *f = NULL;
    if (job->filtered) {
        filter.mask = job->mask;
        filter.exclude = job->exclude ? job->exclude + first : NULL;
        filter.inside = (sc_inside)job->inside;
        f = &filter;
    }
    float *t = job->t ? job->t + first : NULL;
    int32_t *index = job->index ? job->index + first : NULL;
    float *normal = job->normal ? job->normal + (size_t)first * 3 : NULL;
    float *point = job->point ? job->point + (size_t)first * 3 : NULL;
    switch (job->op) {
    case 0: return sc_world_cast_rays(w, in, m, t, index, normal, f, scratch);
    case 1: return sc_world_any_hit(w, in, m, job->hit + first, f, scratch);
    case 2: return sc_world_cast_segments(w, in, m, t, index, normal, f, scratch);
    case 3: return sc_world_cast_spheres(w, in, m, t, index, normal, point, f, scratch);
    case 4: return sc_world_cast_boxes(w, in, m, t, index, normal, point, f, scratch);
    case 5: return sc_world_cast_capsules(w, in, m, t, index, normal, point, f, scratch);
    default: return SC_ERR_NULL;
    }
}

/// A worker's share of a job: takes blocks until none is left (or one was refused). result[0]
/// gets SC_OK or the status of the first refused item this worker met, result[1] that item's
/// index in the whole batch (-1 when none). Returns the number of blocks taken.
SC_EXPORT int sc_wasm_mt_work(sc_mt_job *job, sc_scratch *scratch, int32_t *result)
{
    int blocks = 0;
    result[0] = SC_OK;
    result[1] = -1;
    if (!job || job->op < 0 || job->op > 5 || job->block < 1) {
        result[0] = SC_ERR_NULL;
        return 0;
    }
    const int32_t n = job->n;
    const int32_t block = job->block;
    for (;;) {
        if (__atomic_load_n(&job->stop, __ATOMIC_SEQ_CST)) break;
        int32_t first = __atomic_fetch_add(&job->next, block, __ATOMIC_SEQ_CST);
        if (first >= n || first < 0) break;
        int32_t m = n - first < block ? n - first : block;
        ++blocks;
        sc_status s = sc_mt_block(job, first, m, scratch);
        if (s != SC_OK) {
            int32_t i = sc_scratch_error_index(scratch);
            result[0] = s;
            result[1] = i >= 0 ? first + i : -1;
            __atomic_store_n(&job->stop, 1, __ATOMIC_SEQ_CST);
            break;
        }
    }
    return blocks;
}

/// A scratch for one worker, reserved for blocks of up to `rays` items; 0 when out of memory.
/// Called by the main thread only (it allocates).
SC_EXPORT sc_scratch *sc_wasm_mt_scratch_create(int rays)
{
    sc_scratch *s = sc_scratch_create();
    if (s && rays > 0 && sc_scratch_reserve(s, rays) != SC_OK) {
        sc_scratch_destroy(s);
        return NULL;
    }
    return s;
}

/// Frees a scratch of sc_wasm_mt_scratch_create (main thread only).
SC_EXPORT void sc_wasm_mt_scratch_destroy(sc_scratch *s) { sc_scratch_destroy(s); }
