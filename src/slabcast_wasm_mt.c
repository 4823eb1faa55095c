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
    int32_t op;             /* as SC_MT_OPS below */
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
    float max_distance;     /* closest objects */
    const int32_t *start;   /* lists: item i writes at most start[i + 1] - start[i] hits from hit start[i] */
    int32_t *total;         /* lists: n, each item's number of hits */
    int32_t spare[5];
} sc_mt_job;

_Static_assert(sizeof(sc_mt_job) == 96, "sc_mt_job layout (web/parallel/shared.js)");

/* Operations (web/parallel/protocol.js, QUERY): 0 rays, 1 any hit, 2 segments, 3 sphere, 4 box,
 * 5 capsule sweeps, 6 closest objects (t: distance), 7 every hit of each ray (lists of t, index,
 * normal), 8 + kind overlaps of volumes of kind (0 frustum, 1 aabb, 2 obb, 3 sphere, 5 capsule;
 * lists of index). */
#define SC_MT_OPS 14
static const int32_t sc_mt_per[SC_MT_OPS] = {SC_RAY_FLOATS, SC_RAY_FLOATS, SC_SEGMENT_FLOATS, SC_SPHERE_SWEEP_FLOATS,
                                             SC_BOX_SWEEP_FLOATS, SC_CAPSULE_SWEEP_FLOATS, 3, SC_RAY_FLOATS,
                                             24, 6, 15, 4, 0, 7};

/* slabcast_wasm.c: the lists (castRayAll, overlaps) of items [first, first + m), one query per item. */
sc_status sc_wasm_lists_range(const sc_world *w, int op, const float *items, int32_t first, int32_t m,
                              const int32_t *start, int32_t *total, int32_t *index, float *t, float *normal,
                              const sc_query_filter *filter, int32_t *bad);

/* The lists of items [first, first + m) (ops 7 and up); *bad gets a refused item's index in the block. */
static sc_status sc_mt_lists(const sc_mt_job *job, int32_t first, int32_t m, int32_t *bad)
{
    sc_query_filter filter;
    const sc_query_filter *f = NULL;
    if (job->filtered) {
        filter.mask = job->mask;
        filter.exclude = job->exclude; /* one entry per item of the batch */
        filter.inside = (sc_inside)job->inside;
        f = &filter;
    }
    return sc_wasm_lists_range(job->world, job->op, job->in, first, m, job->start, job->total, job->index, job->t,
                               job->normal, f, bad);
}

/// Bytes of a job (for JS).
SC_EXPORT int sc_wasm_mt_job_bytes(void) { return (int)sizeof(sc_mt_job); }

/* One block [first, first + m) of the job; *bad gets a refused item's index in the block (or -1). */
static sc_status sc_mt_block(const sc_mt_job *job, int32_t first, int32_t m, sc_scratch *scratch, int32_t *bad)
{
    *bad = -1;
    if (job->op >= 7) return sc_mt_lists(job, first, m, bad);
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
    sc_status s;
    switch (job->op) {
    case 0: s = sc_world_cast_rays(w, in, m, t, index, normal, f, scratch); break;
    case 1: s = sc_world_any_hit(w, in, m, job->hit + first, f, scratch); break;
    case 2: s = sc_world_cast_segments(w, in, m, t, index, normal, f, scratch); break;
    case 3: s = sc_world_cast_spheres(w, in, m, t, index, normal, point, f, scratch); break;
    case 4: s = sc_world_cast_boxes(w, in, m, t, index, normal, point, f, scratch); break;
    case 5: s = sc_world_cast_capsules(w, in, m, t, index, normal, point, f, scratch); break;
    case 6: s = sc_world_closest_objects(w, in, m, job->max_distance, index, t, point, f, scratch); break;
    default: return SC_ERR_NULL;
    }
    if (s != SC_OK) *bad = sc_scratch_error_index(scratch);
    return s;
}

/// A worker's share of a job: takes blocks until none is left (or one was refused). result[0]
/// gets SC_OK or the status of the first refused item this worker met, result[1] that item's
/// index in the whole batch (-1 when none). Returns the number of blocks taken.
SC_EXPORT int sc_wasm_mt_work(sc_mt_job *job, sc_scratch *scratch, int32_t *result)
{
    int blocks = 0;
    result[0] = SC_OK;
    result[1] = -1;
    if (!job || job->op < 0 || job->op >= SC_MT_OPS || sc_mt_per[job->op] == 0 || job->block < 1 ||
        (job->op >= 7 && (!job->start || !job->total))) {
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
        int32_t i;
        sc_status s = sc_mt_block(job, first, m, scratch, &i);
        if (s != SC_OK) {
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
