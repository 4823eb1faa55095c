/* Worlds and memory (docs/semantics.md, "World queries"; docs/api-c.md, "Worlds"):
 *   - queries take a const world and never allocate: not through the world's allocator, not
 *     through malloc (counted by interposing malloc where the C library allows it), not when a
 *     large batch is ordered (the caller's scratch holds the buffers) nor for cast_ray_all;
 *   - several threads query one committed world at once, each with its own scratch, and get the
 *     answers a single thread gets;
 *   - a world and a scratch created with an allocator take all their memory from it, give it
 *     all back with the sizes they took, and survive every allocation failing in turn (the call
 *     reports SC_ERR_NO_MEMORY, the world keeps its objects and stays usable).
 * Usage: slabcast_world_memory_tests [NAME-SUBSTRING] */
#include "slabcast.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

/* An sc_ray as the SC_RAY_FLOATS floats sc_world_cast_ray_all takes. */
#define RAY7(r) ((const float[SC_RAY_FLOATS]){(r).origin.x, (r).origin.y, (r).origin.z, (r).dir.x, (r).dir.y, (r).dir.z, (r).tmax})


/* ------------------------------------------------ counting every malloc of the process */

/* With glibc and no sanitizer (which brings its own malloc), malloc and friends are interposed:
 * each call is counted, then forwarded to glibc's own. Elsewhere only the allocator hook counts. */
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__has_feature)
#define SC_COUNT_MALLOC 1
#elif defined(__GLIBC__) && defined(__has_feature)
#if !__has_feature(address_sanitizer)
#define SC_COUNT_MALLOC 1
#endif
#endif

static volatile long g_mallocs; /* calls of malloc, calloc, realloc or the aligned ones */

#ifdef SC_COUNT_MALLOC
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
void *malloc(size_t n)
{
    __atomic_add_fetch(&g_mallocs, 1, __ATOMIC_RELAXED);
    return __libc_malloc(n);
}
void *calloc(size_t a, size_t b)
{
    __atomic_add_fetch(&g_mallocs, 1, __ATOMIC_RELAXED);
    return __libc_calloc(a, b);
}
void *realloc(void *p, size_t n)
{
    __atomic_add_fetch(&g_mallocs, 1, __ATOMIC_RELAXED);
    return __libc_realloc(p, n);
}
/* The default sc_allocator takes 16-byte aligned blocks (aligned_alloc): counted too. */
extern void *__libc_memalign(size_t, size_t);
void *aligned_alloc(size_t align, size_t n)
{
    __atomic_add_fetch(&g_mallocs, 1, __ATOMIC_RELAXED);
    return __libc_memalign(align, n);
}
void *memalign(size_t align, size_t n)
{
    __atomic_add_fetch(&g_mallocs, 1, __ATOMIC_RELAXED);
    return __libc_memalign(align, n);
}
#endif

/* ------------------------------------------------------------- a counting allocator */

typedef struct counter {
    long allocs, frees, fail_at; /* fail_at: the allocation number that fails (-1: none) */
    size_t live_bytes;
    int bad_size;                /* a free whose size was not the allocation's */
} counter;

/* Each block starts with a 16-byte header holding its size, so a free can check the size it is
 * told. */
static void *count_alloc(void *user, size_t bytes)
{
    counter *c = user;
    if (c->fail_at >= 0 && c->allocs == c->fail_at) {
        c->fail_at = -1;
        return NULL;
    }
    unsigned char *p = malloc(bytes + 16);
    if (!p) return NULL;
    memcpy(p, &bytes, sizeof bytes);
    c->allocs++;
    c->live_bytes += bytes;
    return p + 16;
}

static void count_free(void *user, void *block, size_t bytes)
{
    counter *c = user;
    unsigned char *p = (unsigned char *)block - 16;
    size_t had;
    memcpy(&had, p, sizeof had);
    if (had != bytes) c->bad_size = 1;
    c->frees++;
    c->live_bytes -= had;
    free(p);
}

/* ----------------------------------------------------------------------- scenes */

static unsigned long long g_rng = 0x2545F4914F6CDD1Dull;
static unsigned rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (unsigned)(g_rng >> 32);
}
static float coord(void) { return (float)((int)(rnd() % 161) - 80) * 0.25f; }

/* n boxes, n / 4 spheres, n / 4 OBBs (unit axes turned about z by 90 degrees: exact) and n / 4
 * capsules. */
static sc_status fill_world(sc_world *w, int n)
{
    float *boxes = malloc(sizeof(float) * 6 * (size_t)n);
    for (int i = 0; i < n; ++i) {
        float *b = boxes + 6 * i;
        for (int k = 0; k < 3; ++k) {
            b[k] = coord();
            b[3 + k] = b[k] + (float)(rnd() % 8) * 0.25f;
        }
    }
    float spheres[4 * 64], obbs[15 * 64], capsules[7 * 64];
    int m = n / 4 < 64 ? n / 4 : 64;
    for (int i = 0; i < m; ++i) {
        float *s = spheres + 4 * i, *o = obbs + 15 * i;
        s[0] = coord(); s[1] = coord(); s[2] = coord(); s[3] = 0.5f + (float)(rnd() % 4);
        float ax[12] = {coord(), coord(), coord(), 0, 1, 0, -1, 0, 0, 0, 0, 1};
        memcpy(o, ax, sizeof ax);
        o[12] = 1; o[13] = 0.5f; o[14] = 2;
        float *c = capsules + 7 * i;
        c[0] = coord(); c[1] = coord(); c[2] = coord();
        c[3] = c[0] + coord() * 0.125f; c[4] = c[1]; c[5] = c[2] + coord() * 0.125f; c[6] = 0.25f * (float)(rnd() % 4);
    }
    sc_status s = sc_world_add_aabbs(w, boxes, n, NULL);
    if (s == SC_OK) s = sc_world_add_spheres(w, spheres, m, NULL);
    if (s == SC_OK) s = sc_world_add_obbs(w, obbs, m, NULL);
    if (s == SC_OK) s = sc_world_add_capsules(w, capsules, m, NULL);
    free(boxes);
    return s;
}

static float *make_rays(int n)
{
    float *r = malloc(sizeof(float) * SC_RAY_FLOATS * (size_t)n);
    for (int i = 0; i < n; ++i) {
        float *p = r + SC_RAY_FLOATS * i;
        p[0] = coord() * 1.5f; p[1] = coord() * 1.5f; p[2] = coord() * 1.5f;
        do {
            p[3] = (float)((int)(rnd() % 9) - 4); p[4] = (float)((int)(rnd() % 9) - 4); p[5] = (float)((int)(rnd() % 9) - 4);
        } while (p[3] == 0 && p[4] == 0 && p[5] == 0);
        p[6] = rnd() % 4 ? INFINITY : (float)(rnd() % 20);
    }
    return r;
}

/* Results of one thread's queries, for comparison. */
typedef struct answers {
    float *t, *normal, *seg_t;
    int *index, *seg_index;
    bool *hit;
    float all_t[64];
    int all_index[64], all_total;
} answers;

static void answers_alloc(answers *a, int n)
{
    a->t = malloc(sizeof(float) * (size_t)n);
    a->normal = malloc(sizeof(float) * 3 * (size_t)n);
    a->seg_t = malloc(sizeof(float) * (size_t)n);
    a->index = malloc(sizeof(int) * (size_t)n);
    a->hit = malloc(sizeof(bool) * (size_t)n);
    a->seg_index = malloc(sizeof(int) * (size_t)n);
}

static void answers_free(answers *a)
{
    free(a->t); free(a->normal); free(a->seg_t); free(a->index); free(a->hit); free(a->seg_index);
}

static int answers_equal(const answers *a, const answers *b, int n)
{
    return memcmp(a->t, b->t, sizeof(float) * (size_t)n) == 0 && memcmp(a->normal, b->normal, sizeof(float) * 3 * (size_t)n) == 0 &&
           memcmp(a->index, b->index, sizeof(int) * (size_t)n) == 0 && memcmp(a->hit, b->hit, sizeof(bool) * (size_t)n) == 0 &&
           memcmp(a->seg_t, b->seg_t, sizeof(float) * (size_t)n) == 0 &&
           memcmp(a->seg_index, b->seg_index, sizeof(int) * (size_t)n) == 0 && a->all_total == b->all_total &&
           memcmp(a->all_t, b->all_t, sizeof a->all_t) == 0 && memcmp(a->all_index, b->all_index, sizeof a->all_index) == 0;
}

/* Every query kind on rays[0..n): nearest hits (ordered through the scratch when it has room),
 * any hits, segments (each ray's first 6 floats as a..b) and all hits of ray 0. */
static sc_status run_queries(const sc_world *w, const float *rays, int n, sc_scratch *scratch, answers *a)
{
    sc_status s = sc_world_cast_rays(w, rays, n, a->t, a->index, a->normal, NULL, scratch);
    if (s == SC_OK) s = sc_world_any_hit(w, rays, n, a->hit, NULL, scratch);
    if (s == SC_OK) {
        /* segments of 7-float strides: copy out the 6 floats each */
        float seg[6 * 64];
        for (int base = 0; base < n && s == SC_OK; base += 64) {
            int m = n - base < 64 ? n - base : 64;
            for (int i = 0; i < m; ++i) memcpy(seg + 6 * i, rays + SC_RAY_FLOATS * (base + i), sizeof(float) * 6);
            s = sc_world_cast_segments(w, seg, m, a->seg_t + base, a->seg_index + base, NULL, NULL, scratch);
        }
    }
    if (s == SC_OK) {
        sc_ray r = {{rays[0], rays[1], rays[2]}, {rays[3], rays[4], rays[5]}, INFINITY};
        memset(a->all_t, 0, sizeof a->all_t);
        memset(a->all_index, 0, sizeof a->all_index);
        s = sc_world_cast_ray_all(w, RAY7(r), 64, a->all_t, a->all_index, NULL, &a->all_total, NULL);
    }
    return s;
}

/* --------------------------------------------------------------------------- tests */

/* Queries never allocate, through the hook or malloc, for any batch size, once the scratch is
 * reserved; the world's byte count does not move either. */
static int queries_do_not_allocate(void)
{
    counter c = {0, 0, -1, 0, 0};
    sc_allocator al = {count_alloc, count_free, &c};
    sc_world *w = sc_world_create_with(&al);
    ENSURE(w != NULL);
    ENSURE(fill_world(w, 3000) == SC_OK);
    float line[6 * 50]; /* 50 boxes along the x axis, for cast_ray_all to find */
    for (int i = 0; i < 50; ++i) {
        float b[6] = {(float)i - 25, 0, 0, (float)i - 24.5f, 0.25f, 0.25f};
        memcpy(line + 6 * i, b, sizeof b);
    }
    ENSURE(sc_world_add_aabbs(w, line, 50, NULL) == SC_OK);
    ENSURE(sc_world_commit(w) == SC_OK);
    sc_scratch *scratch = sc_scratch_create_with(&al);
    ENSURE(scratch != NULL && sc_scratch_reserve(scratch, 4096) == SC_OK && sc_scratch_capacity(scratch) >= 4096);
    const int n = 4096;
    float *rays = make_rays(n);
    /* a ray through everything: many hits for cast_ray_all */
    rays[0] = -100; rays[1] = 0.125f; rays[2] = 0.125f; rays[3] = 1; rays[4] = 0; rays[5] = 0;
    answers a;
    answers_alloc(&a, n);
    long hook_before = c.allocs, malloc_before = g_mallocs, bytes_before = sc_world_bytes(w);
    long scratch_bytes = sc_scratch_bytes(scratch);
    ENSURE(run_queries(w, rays, n, scratch, &a) == SC_OK);
    ENSURE(run_queries(w, rays, 700, scratch, &a) == SC_OK);
    ENSURE(run_queries(w, rays, n, NULL, &a) == SC_OK);
    ENSURE(sc_world_cast_rays_bruteforce(w, rays, 64, a.t, a.index, NULL, NULL, scratch) == SC_OK);
    ENSURE(a.all_total >= 50); /* the test is not vacuous */
    /* capsule sweeps (11 floats: the ray's origin, origin + 1 along y, dir, tmax, radius) and a
     * capsule overlap allocate nothing either */
    static float sweeps[11 * 256], sp[3 * 256];
    for (int i = 0; i < 256; ++i) {
        const float *r = rays + SC_RAY_FLOATS * i;
        float cs[11] = {r[0], r[1], r[2], r[0], r[1] + 1, r[2], r[3], r[4], r[5], r[6], 0.25f};
        memcpy(sweeps + 11 * i, cs, sizeof cs);
    }
    ENSURE(sc_world_cast_capsules(w, sweeps, 256, a.t, a.index, a.normal, sp, NULL, scratch) == SC_OK);
    int capsule_hits = 0;
    for (int i = 0; i < 256; ++i) capsule_hits += a.index[i] >= 0;
    ENSURE(capsule_hits > 50);
    sc_capsule big = {{-20, 0, 0}, {20, 0, 0}, 3};
    int32_t within[64], total = 0;
    ENSURE(sc_world_overlap_capsule(w, &big, within, 64, &total, NULL) == SC_OK && total > 10);
    ENSURE(c.allocs == hook_before);
    ENSURE(g_mallocs == malloc_before);
    ENSURE(sc_world_bytes(w) == bytes_before && sc_scratch_bytes(scratch) == scratch_bytes);
#ifdef SC_COUNT_MALLOC
    /* the interposition works: this very test's malloc is seen */
    void *probe = malloc(8);
    ENSURE(g_mallocs == malloc_before + 1);
    free(probe);
    /* and the default allocator's blocks (aligned_alloc) are seen too */
    sc_scratch *seen = sc_scratch_create();
    ENSURE(seen && g_mallocs > malloc_before + 1);
    sc_scratch_destroy(seen);
#endif
    /* a batch larger than the scratch is traced in input order: the same answers */
    answers b;
    answers_alloc(&b, n);
    sc_scratch *small = sc_scratch_create();
    ENSURE(small && sc_scratch_reserve(small, 1024) == SC_OK);
    ENSURE(run_queries(w, rays, n, scratch, &a) == SC_OK);
    ENSURE(run_queries(w, rays, n, small, &b) == SC_OK);
    ENSURE(answers_equal(&a, &b, n));
    sc_scratch_destroy(small);
    answers_free(&b);
    answers_free(&a);
    free(rays);
    sc_scratch_destroy(scratch);
    sc_world_destroy(w);
    ENSURE(c.live_bytes == 0 && c.allocs == c.frees && !c.bad_size);
    return 0;
}

typedef struct worker {
    const sc_world *w;
    const float *rays;
    int n;
    answers a;
    sc_status status;
} worker;

static void *worker_main(void *arg)
{
    worker *k = arg;
    sc_scratch *scratch = sc_scratch_create();
    k->status = scratch && sc_scratch_reserve(scratch, k->n) == SC_OK ? SC_OK : SC_ERR_NO_MEMORY;
    for (int round = 0; round < 4 && k->status == SC_OK; ++round) k->status = run_queries(k->w, k->rays, k->n, scratch, &k->a);
    sc_scratch_destroy(scratch);
    return NULL;
}

/* Four threads query one committed world at once, each with its own scratch: every answer is
 * the one a single thread gets, bit for bit. */
static int threads_share_a_committed_world(void)
{
    sc_world *w = sc_world_create();
    ENSURE(w && fill_world(w, 5000) == SC_OK && sc_world_commit(w) == SC_OK);
    const int n = 3000;
    float *rays = make_rays(n);
    answers want;
    answers_alloc(&want, n);
    ENSURE(run_queries(w, rays, n, NULL, &want) == SC_OK);
    worker k[4];
    pthread_t th[4];
    for (int i = 0; i < 4; ++i) {
        k[i].w = w;
        k[i].rays = rays;
        k[i].n = n;
        k[i].status = SC_ERR_NULL;
        answers_alloc(&k[i].a, n);
        ENSURE(pthread_create(&th[i], NULL, worker_main, &k[i]) == 0);
    }
    int bad = 0;
    for (int i = 0; i < 4; ++i) {
        ENSURE(pthread_join(th[i], NULL) == 0);
        if (k[i].status != SC_OK || !answers_equal(&k[i].a, &want, n)) {
            fprintf(stderr, "  thread %d: %s, answers %s\n", i, sc_status_message(k[i].status),
                    answers_equal(&k[i].a, &want, n) ? "equal" : "differ");
            bad = 1;
        }
        answers_free(&k[i].a);
    }
    ENSURE(!bad);
    answers_free(&want);
    free(rays);
    sc_world_destroy(w);
    return 0;
}

/* Every allocation of a world's life fails in turn: each call reports SC_ERR_NO_MEMORY or
 * succeeds, a failed add leaves the world as it was, a failed commit leaves it stale (queries
 * say so) and a later commit succeeds; nothing leaks and every free is told the right size. */
static int allocation_failures(void)
{
    ENSURE(sc_world_create_with(&(sc_allocator){NULL, count_free, NULL}) == NULL);
    ENSURE(sc_world_create_with(&(sc_allocator){count_alloc, NULL, NULL}) == NULL);
    ENSURE(sc_scratch_create_with(&(sc_allocator){NULL, NULL, NULL}) == NULL);
    ENSURE(sc_scratch_reserve(NULL, 10) == SC_ERR_NULL);
    float ray[7] = {-100, 0.125f, 0.125f, 1, 0, 0, INFINITY};
    int failures = 0;
    for (long fail_at = 0;; ++fail_at) {
        counter c = {0, 0, fail_at, 0, 0};
        sc_allocator al = {count_alloc, count_free, &c};
        sc_world *w = sc_world_create_with(&al);
        if (!w) {
            ENSURE(c.live_bytes == 0);
            ++failures;
            continue;
        }
        int count = 0, stale = 0;
        for (int step = 0; step < 6; ++step) {
            g_rng = 0x2545F4914F6CDD1Dull + (unsigned long long)step; /* the same scene for every fail_at */
            int n = 200 * (step + 1), m = n / 4 < 64 ? n / 4 : 64;
            sc_status s = fill_world(w, n);
            if (s == SC_OK) {
                count += n + 3 * m;
                stale = 1;
            } else {
                ENSURE(s == SC_ERR_NO_MEMORY);
                ++failures;
                /* fill_world adds in four calls, each all or nothing: the boxes, then the
                 * spheres, then the OBBs, then the capsules */
                int now = sc_world_count(w);
                ENSURE(now == count || now == count + n || now == count + n + m || now == count + n + 2 * m);
                if (now != count) stale = 1;
                count = now;
            }
            ENSURE(sc_world_count(w) == count);
            s = sc_world_commit(w);
            if (s == SC_OK) {
                stale = 0;
            } else {
                ENSURE(s == SC_ERR_NO_MEMORY);
                ++failures;
            }
            ENSURE(sc_world_is_committed(w) == !stale);
            float t;
            int idx;
            s = sc_world_cast_rays(w, ray, 1, &t, &idx, NULL, NULL, NULL);
            ENSURE(s == (stale ? SC_ERR_STALE : SC_OK));
        }
        sc_scratch *scratch = sc_scratch_create_with(&al);
        if (scratch) {
            sc_status s = sc_scratch_reserve(scratch, 5000);
            ENSURE(s == SC_OK || (s == SC_ERR_NO_MEMORY && sc_scratch_capacity(scratch) == 0));
            if (s != SC_OK) ++failures;
        } else {
            ++failures;
        }
        sc_scratch_destroy(scratch);
        sc_world_destroy(w);
        ENSURE(c.live_bytes == 0 && c.allocs == c.frees && !c.bad_size);
        if (c.fail_at >= 0) break; /* no allocation failed: every one has been tried */
    }
    ENSURE(failures > 20);
    return 0;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
#ifdef SC_COUNT_MALLOC
    printf("malloc interposed: queries are checked for any allocation\n");
#else
    printf("malloc not interposed (sanitizer or libc): queries are checked through the allocator hook\n");
#endif
    RUN_TEST(queries_do_not_allocate);
    RUN_TEST(threads_share_a_committed_world);
    RUN_TEST(allocation_failures);
    printf("%d passed, %d failed\n", g_run - g_failed_tests, g_failed_tests);
    return g_failed_tests ? 1 : 0;
}
