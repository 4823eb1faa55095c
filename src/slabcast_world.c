/* slabcast worlds: many objects, a 4-wide BVH built by binned SAH, batch queries.
 *
 * Results are those of the single queries, exactly: the leaf kernel for AABBs is the scalar
 * slab test of sc__raycast_aabb_valid done four boxes at a time with the same operations in
 * the same order (true divisions, the same comparisons), so t is bit-identical; OBBs and
 * spheres go through the scalar queries themselves. Node tests are only used to cull: they
 * use a reciprocal direction (faster) and widen the interval by a relative 2^-20, far more
 * than their rounding error, so they never cull a box that the exact test would hit.
 *
 * Coordinates of magnitude 2^80 or more (objects or ray origins) are legal but are kept out of
 * the BVH: such objects are tested on every ray, and such rays test every object, through the
 * exact scalar queries.
 */
#include "slabcast.h"
#include "sc_internal.h"
#include "sc_simd.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


enum { K_AABB = 0, K_OBB = 1, K_SPHERE = 2 };

#define SC_FAR_COORD 1.2089258e24f   /* 2^80: at or above, objects and rays skip the BVH */
#define SC_TINY_DIR 9.094947e-13f    /* 2^-40: smaller direction components do not cull */
#define SC_HUGE_DIR 1.2676506e30f    /* 2^100: larger direction components do not cull */
#define SC_SHRINK 0.99999905f        /* 1 - 2^-20: culling entries scale their reciprocal by it */
#define SC_GROW 1.0000010f           /* 1 + 2^-20: culling exits scale their reciprocal by it */
#define SC_LEAF 4
#define SC_BINS 16
#define SC_STACK 256

/* A BVH node: the bounds of four children, SoA. child >= 0: a node; child < 0: the leaf group
 * ~child; SC_NO_CHILD: empty (its bounds are inverted and can never be hit). */
#define SC_NO_CHILD INT32_MIN
typedef struct sc_node4 {
    _Alignas(64) float bmin[3][4];
    float bmax[3][4];
    int32_t child[4];
    int32_t valid;  /* bit l: child[l] is not SC_NO_CHILD */
    int32_t pad[3]; /* 128 bytes: exactly two cache lines */
} sc_node4;

/* A leaf: up to four objects, their bounds SoA (for AABBs, the boxes themselves). */
typedef struct sc_group {
    _Alignas(64) float lo[3][4];
    float hi[3][4];
    int32_t idx[4]; /* object index, or -1 */
    int32_t all_aabb;
    int32_t count;
    int32_t pad[2];
} sc_group;

struct sc_world {
    sc_allocator mem;
    int count, cap;
    uint8_t *kind;
    int32_t *slot;     /* OBB / sphere: index into obbs / spheres */
    sc_aabb *bounds;   /* the box itself, or a conservative bounding box */
    uint8_t *far;      /* 1: coordinates >= 2^80, kept out of the BVH */
    int32_t *obj_ref;  /* object -> group*4 + lane, or -1 when in far_list */
    sc_obb *obbs;
    int nobb, capobb;
    sc_sphere *spheres;
    int nsph, capsph;

    sc_node4 *nodes;
    void *nodes_raw;
    int nnodes, capnodes;
    sc_group *groups;
    void *groups_raw;
    int ngroups, capgroups;
    int32_t root;      /* a child reference, or SC_NO_CHILD when the BVH is empty */
    int32_t *far_list; /* objects outside the BVH */
    int nfar, capfar;
    int built;         /* 0: objects were added (or crossed the far limit) since the last build */
    int dirty;         /* 1: objects were updated since the last build or refit */
    int error_index;   /* of the last add or update */

    struct sc_bprim *scratch; /* build scratch: one record per object */
    int scratch_cap;
};

/* A caller's working memory for queries (see slabcast.h). One block holds, for cap rays: the
 * sort keys twice (8 bytes each), the rays in trace order and their results. */
struct sc_scratch {
    sc_allocator mem;
    int cap;
    int error_index;
    void *block;
    size_t block_bytes;
};

/* ---------------------------------------------------------------- memory */

static void *sc_std_alloc(void *user, size_t bytes)
{
    (void)user;
    return malloc(bytes);
}

static void sc_std_free(void *user, void *block, size_t bytes)
{
    (void)user;
    (void)bytes;
    free(block);
}

/* The allocator to copy into a new world or scratch: malloc and free for NULL; 0 when a given
 * allocator lacks a function. */
static int sc_pick_allocator(const sc_allocator *given, sc_allocator *out)
{
    if (!given) {
        *out = (sc_allocator){sc_std_alloc, sc_std_free, NULL};
        return 1;
    }
    if (!given->alloc || !given->free) return 0;
    *out = *given;
    return 1;
}

static void *sc_mem_alloc(const sc_allocator *m, size_t bytes) { return bytes ? m->alloc(m->user, bytes) : NULL; }

static void sc_mem_free(const sc_allocator *m, void *block, size_t bytes)
{
    if (block) m->free(m->user, block, bytes);
}

/* The capacity to grow cap to so that it holds need (doubling from first); 0 past INT32_MAX. */
static int sc_next_cap(int cap, int need, int first)
{
    int nc = cap ? cap : first;
    while (nc < need) {
        if (nc > INT32_MAX / 2) return 0;
        nc *= 2;
    }
    return nc;
}

/* Grows the array *p of *cap elements of elem bytes to hold need: a new block, the old
 * contents copied, the old block freed. 0 (and nothing changed) when out of memory. */
static int sc_grow(const sc_allocator *m, void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap) return 1;
    int nc = sc_next_cap(*cap, need, 16);
    if (!nc) return 0;
    void *q = sc_mem_alloc(m, (size_t)nc * elem);
    if (!q) return 0;
    if (*cap > 0) memcpy(q, *p, (size_t)*cap * elem);
    sc_mem_free(m, *p, (size_t)*cap * elem);
    *p = q;
    *cap = nc;
    return 1;
}

/* Bytes of the block behind an array of cap 64-byte aligned elements (see sc_grow_aligned). */
static size_t sc_aligned_bytes(int cap, size_t elem) { return (size_t)cap * elem + 48; }

/* Like sc_grow, for arrays of 64-byte aligned elements (nodes, groups). The allocator's blocks
 * are 16-byte aligned, so 48 spare bytes always hold an aligned start; *raw keeps the block. */
static int sc_grow_aligned(const sc_allocator *m, void **p, void **raw, int *cap, int need, size_t elem, int used)
{
    if (need <= *cap) return 1;
    int nc = sc_next_cap(*cap, need, 16);
    if (!nc) return 0;
    void *r = sc_mem_alloc(m, sc_aligned_bytes(nc, elem));
    if (!r) return 0;
    void *q = (void *)(((uintptr_t)r + 63) & ~(uintptr_t)63);
    if (used > 0) memcpy(q, *p, (size_t)used * elem);
    sc_mem_free(m, *raw, sc_aligned_bytes(*cap, elem));
    *raw = r;
    *p = q;
    *cap = nc;
    return 1;
}

/* The per-object arrays, as (pointer, element size) pairs. */
#define SC_OBJECT_ARRAYS 5
static void sc_object_arrays(sc_world *w, void ***ptr, size_t *elem)
{
    ptr[0] = (void **)&w->kind;    elem[0] = sizeof *w->kind;
    ptr[1] = (void **)&w->slot;    elem[1] = sizeof *w->slot;
    ptr[2] = (void **)&w->bounds;  elem[2] = sizeof *w->bounds;
    ptr[3] = (void **)&w->far;     elem[3] = sizeof *w->far;
    ptr[4] = (void **)&w->obj_ref; elem[4] = sizeof *w->obj_ref;
}

/* Grows every per-object array to hold need objects: all new blocks are allocated before any
 * old one is released, so a failure changes nothing. */
static int sc_grow_objects(sc_world *w, int need)
{
    if (need <= w->cap) return 1;
    int nc = sc_next_cap(w->cap, need, 64);
    if (!nc) return 0;
    void **ptr[SC_OBJECT_ARRAYS], *fresh[SC_OBJECT_ARRAYS];
    size_t elem[SC_OBJECT_ARRAYS];
    sc_object_arrays(w, ptr, elem);
    for (int k = 0; k < SC_OBJECT_ARRAYS; ++k) {
        fresh[k] = sc_mem_alloc(&w->mem, (size_t)nc * elem[k]);
        if (!fresh[k]) {
            while (k-- > 0) sc_mem_free(&w->mem, fresh[k], (size_t)nc * elem[k]);
            return 0;
        }
    }
    for (int k = 0; k < SC_OBJECT_ARRAYS; ++k) {
        if (w->count > 0) memcpy(fresh[k], *ptr[k], (size_t)w->count * elem[k]);
        sc_mem_free(&w->mem, *ptr[k], (size_t)w->cap * elem[k]);
        *ptr[k] = fresh[k];
    }
    w->cap = nc;
    return 1;
}

sc_world *sc_world_create_with(const sc_allocator *allocator)
{
    sc_allocator m;
    if (!sc_pick_allocator(allocator, &m)) return NULL;
    sc_world *w = sc_mem_alloc(&m, sizeof *w);
    if (!w) return NULL;
    memset(w, 0, sizeof *w);
    w->mem = m;
    w->root = SC_NO_CHILD;
    w->error_index = -1;
    w->built = 1;
    return w;
}

sc_world *sc_world_create(void) { return sc_world_create_with(NULL); }

void sc_world_destroy(sc_world *w)
{
    if (!w) return;
    const sc_allocator m = w->mem;
    void **ptr[SC_OBJECT_ARRAYS];
    size_t elem[SC_OBJECT_ARRAYS];
    sc_object_arrays(w, ptr, elem);
    for (int k = 0; k < SC_OBJECT_ARRAYS; ++k) sc_mem_free(&m, *ptr[k], (size_t)w->cap * elem[k]);
    sc_mem_free(&m, w->obbs, (size_t)w->capobb * sizeof *w->obbs);
    sc_mem_free(&m, w->spheres, (size_t)w->capsph * sizeof *w->spheres);
    sc_mem_free(&m, w->nodes_raw, sc_aligned_bytes(w->capnodes, sizeof(sc_node4)));
    sc_mem_free(&m, w->groups_raw, sc_aligned_bytes(w->capgroups, sizeof(sc_group)));
    sc_mem_free(&m, w->far_list, (size_t)w->capfar * sizeof *w->far_list);
    sc_mem_free(&m, w->scratch, (size_t)w->scratch_cap * 32 /* sizeof(sc_bprim) */);
    sc_mem_free(&m, w, sizeof *w);
}

int sc_world_count(const sc_world *w) { return w ? w->count : 0; }
int sc_world_error_index(const sc_world *w) { return w ? w->error_index : -1; }
const char *sc_world_simd(void) { return SC_SIMD_NAME; }
bool sc_world_is_committed(const sc_world *w) { return w && w->built && !w->dirty; }

long sc_world_bytes(const sc_world *w)
{
    if (!w) return 0;
    long per_obj = (long)(sizeof(uint8_t) * 2 + sizeof(int32_t) * 2 + sizeof(sc_aabb));
    return (long)sizeof *w + (long)w->cap * per_obj + (long)w->capobb * (long)sizeof(sc_obb) +
           (long)w->capsph * (long)sizeof(sc_sphere) + (long)sc_aligned_bytes(w->capnodes, sizeof(sc_node4)) +
           (long)sc_aligned_bytes(w->capgroups, sizeof(sc_group)) + (long)w->scratch_cap * 32 /* sizeof(sc_bprim) */ +
           (long)w->capfar * (long)sizeof(int32_t);
}

/* --------------------------------------------------------------- objects */

static float sc_w_abs(float a) { return a < 0.0f ? -a : a; }
static int sc_w_far3(sc_vec3 v)
{
    return !(sc_w_abs(v.x) < SC_FAR_COORD && sc_w_abs(v.y) < SC_FAR_COORD && sc_w_abs(v.z) < SC_FAR_COORD);
}
static sc_vec3 sc_w_v3(const float *p) { return (sc_vec3){p[0], p[1], p[2]}; }

/* A box that surely contains the closed ball / OBB despite float rounding: widened by a
 * relative 2^-10 of the magnitudes involved (culling only; leaf tests are exact). */
static sc_aabb sc_w_bound(sc_vec3 c, sc_vec3 e)
{
    float sx = (sc_w_abs(c.x) + e.x) * 0.0009765625f, sy = (sc_w_abs(c.y) + e.y) * 0.0009765625f,
          sz = (sc_w_abs(c.z) + e.z) * 0.0009765625f;
    sc_aabb b = {{c.x - e.x - sx, c.y - e.y - sy, c.z - e.z - sz}, {c.x + e.x + sx, c.y + e.y + sy, c.z + e.z + sz}};
    return b;
}

static sc_aabb sc_w_obb_bound(const sc_obb *o)
{
    sc_vec3 e = {0, 0, 0};
    const float *h = &o->half.x;
    for (int i = 0; i < 3; ++i) {
        e.x += sc_w_abs(o->axes[i].x) * h[i];
        e.y += sc_w_abs(o->axes[i].y) * h[i];
        e.z += sc_w_abs(o->axes[i].z) * h[i];
    }
    return sc_w_bound(o->center, e);
}

static sc_obb sc_w_read_obb(const float *p)
{
    sc_obb o;
    o.center = sc_w_v3(p);
    o.axes[0] = sc_w_v3(p + 3);
    o.axes[1] = sc_w_v3(p + 6);
    o.axes[2] = sc_w_v3(p + 9);
    o.half = sc_w_v3(p + 12);
    return o;
}

static sc_status sc_w_check_batch(sc_world *w, const float *data, int n, int kind)
{
    w->error_index = -1;
    if (n < 0 || n > SC_WORLD_MAX_OBJECTS) return SC_ERR_COUNT;
    if (n > 0 && !data) return SC_ERR_NULL;
    for (int i = 0; i < n; ++i) {
        sc_status s;
        if (kind == K_AABB) {
            const float *p = data + (size_t)i * SC_AABB_FLOATS;
            sc_aabb b = {sc_w_v3(p), sc_w_v3(p + 3)};
            s = sc_aabb_check(&b);
        } else if (kind == K_OBB) {
            sc_obb o = sc_w_read_obb(data + (size_t)i * SC_OBB_FLOATS);
            s = sc_obb_check(&o);
        } else {
            const float *p = data + (size_t)i * SC_SPHERE_FLOATS;
            sc_sphere sp = {sc_w_v3(p), p[3]};
            s = sc_sphere_check(&sp);
        }
        if (s != SC_OK) {
            w->error_index = i;
            return s;
        }
    }
    return SC_OK;
}

/* Writes object i of kind from p (validated). */
static void sc_w_store(sc_world *w, int i, int kind, const float *p)
{
    w->kind[i] = (uint8_t)kind;
    if (kind == K_AABB) {
        sc_aabb b = {sc_w_v3(p), sc_w_v3(p + 3)};
        w->bounds[i] = b;
        w->far[i] = (uint8_t)(sc_w_far3(b.min) || sc_w_far3(b.max));
    } else if (kind == K_OBB) {
        sc_obb o = sc_w_read_obb(p);
        w->obbs[w->slot[i]] = o;
        w->bounds[i] = sc_w_obb_bound(&o);
        w->far[i] = (uint8_t)(sc_w_far3(w->bounds[i].min) || sc_w_far3(w->bounds[i].max));
    } else {
        sc_sphere sp = {sc_w_v3(p), p[3]};
        w->spheres[w->slot[i]] = sp;
        w->bounds[i] = sc_w_bound(sp.center, (sc_vec3){sp.radius, sp.radius, sp.radius});
        w->far[i] = (uint8_t)(sc_w_far3(w->bounds[i].min) || sc_w_far3(w->bounds[i].max));
    }
}

static sc_status sc_w_add(sc_world *w, const float *data, int n, int *first, int kind)
{
    if (!w) return SC_ERR_NULL;
    sc_status s = sc_w_check_batch(w, data, n, kind);
    if (s != SC_OK) return s;
    if (n > SC_WORLD_MAX_OBJECTS - w->count) return SC_ERR_COUNT;
    int floats = kind == K_AABB ? SC_AABB_FLOATS : kind == K_OBB ? SC_OBB_FLOATS : SC_SPHERE_FLOATS;
    /* Allocate everything first: a refused call leaves the world unchanged. */
    if (!sc_grow_objects(w, w->count + n)) return SC_ERR_NO_MEMORY;
    if (kind == K_OBB && !sc_grow(&w->mem, (void **)&w->obbs, &w->capobb, w->nobb + n, sizeof(sc_obb))) return SC_ERR_NO_MEMORY;
    if (kind == K_SPHERE && !sc_grow(&w->mem, (void **)&w->spheres, &w->capsph, w->nsph + n, sizeof(sc_sphere)))
        return SC_ERR_NO_MEMORY;
    int base = w->count;
    for (int i = 0; i < n; ++i) {
        int o = base + i;
        w->slot[o] = kind == K_OBB ? w->nobb++ : kind == K_SPHERE ? w->nsph++ : -1;
        sc_w_store(w, o, kind, data + (size_t)i * (size_t)floats);
        w->obj_ref[o] = -1;
    }
    w->count += n;
    if (first) *first = base;
    if (n > 0) w->built = 0;
    return SC_OK;
}

sc_status sc_world_add_aabbs(sc_world *w, const float *b, int n, int *first) { return sc_w_add(w, b, n, first, K_AABB); }
sc_status sc_world_add_obbs(sc_world *w, const float *b, int n, int *first) { return sc_w_add(w, b, n, first, K_OBB); }
sc_status sc_world_add_spheres(sc_world *w, const float *b, int n, int *first) { return sc_w_add(w, b, n, first, K_SPHERE); }

static sc_status sc_w_update(sc_world *w, int first, const float *data, int n, int kind)
{
    if (!w) return SC_ERR_NULL;
    sc_status s = sc_w_check_batch(w, data, n, kind);
    if (s != SC_OK) return s;
    if (first < 0 || first > w->count || n > w->count - first) return SC_ERR_RANGE;
    for (int i = 0; i < n; ++i) {
        if (w->kind[first + i] != kind) {
            w->error_index = i;
            return SC_ERR_KIND;
        }
    }
    int floats = kind == K_AABB ? SC_AABB_FLOATS : kind == K_OBB ? SC_OBB_FLOATS : SC_SPHERE_FLOATS;
    for (int i = 0; i < n; ++i) {
        int o = first + i;
        uint8_t was_far = w->far[o];
        sc_w_store(w, o, kind, data + (size_t)i * (size_t)floats);
        if (w->far[o] != was_far) w->built = 0; /* moves between the BVH and the far list */
    }
    if (n > 0) w->dirty = 1;
    return SC_OK;
}

sc_status sc_world_update_aabbs(sc_world *w, int f, const float *b, int n) { return sc_w_update(w, f, b, n, K_AABB); }
sc_status sc_world_update_obbs(sc_world *w, int f, const float *b, int n) { return sc_w_update(w, f, b, n, K_OBB); }
sc_status sc_world_update_spheres(sc_world *w, int f, const float *b, int n) { return sc_w_update(w, f, b, n, K_SPHERE); }

/* ------------------------------------------------------------------ build */

typedef struct sc_bounds { float lo[3], hi[3]; } sc_bounds;

static void sc_b_empty(sc_bounds *b)
{
    for (int a = 0; a < 3; ++a) { b->lo[a] = INFINITY; b->hi[a] = -INFINITY; }
}
static float sc_b_area(const sc_bounds *b)
{
    float dx = b->hi[0] - b->lo[0], dy = b->hi[1] - b->lo[1], dz = b->hi[2] - b->lo[2];
    if (!(dx >= 0.0f)) return 0.0f;
    return dx * dy + dy * dz + dz * dx;
}

typedef struct sc_part { int begin, n; sc_bounds b; } sc_part;

/* A build record: an object's bounds and index, moved around by the partitions (contiguous,
 * so that every pass of the build reads memory in order). Lane 3 of lo holds the index's
 * bits; lane 3 of hi is 0. The bounds are grown with f4 min / max (one operation for three
 * axes; a scalar compare-and-select is slow in wasm). */
typedef struct sc_bprim { _Alignas(16) float lo[4]; float hi[4]; } sc_bprim;
typedef struct sc_b4 { f4 lo, hi; } sc_b4;

static int32_t sc_bp_id(const sc_bprim *p)
{
    int32_t id;
    memcpy(&id, &p->lo[3], sizeof id);
    return id;
}

static sc_b4 sc_b4_empty(void) { sc_b4 b = {f4_splat(INFINITY), f4_splat(-INFINITY)}; return b; }
static void sc_b4_grow(sc_b4 *b, f4 lo, f4 hi)
{
    b->lo = f4_min(b->lo, lo);
    b->hi = f4_max(b->hi, hi);
}
static sc_bounds sc_b4_out(sc_b4 b)
{
    _Alignas(16) float lo[4], hi[4];
    f4_store(lo, b.lo);
    f4_store(hi, b.hi);
    sc_bounds r = {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
    return r;
}
static float sc_b4_area(sc_b4 b)
{
    sc_bounds r = sc_b4_out(b);
    return sc_b_area(&r);
}

static sc_bounds sc_w_range_bounds(const sc_bprim *p, int n)
{
    sc_b4 b = sc_b4_empty();
    for (int i = 0; i < n; ++i) sc_b4_grow(&b, f4_load(p[i].lo), f4_load(p[i].hi));
    return sc_b4_out(b);
}

/* The bin of a centroid (times 2, scaled and offset) value, clamped. */
static int sc_w_binof(float v)
{
    return v > 0.0f ? (v < (float)(SC_BINS - 1) ? (int)v : SC_BINS - 1) : 0;
}

/* Splits p[0..n) (n >= 2) in two by binned SAH over centroids, all three axes binned in one
 * pass; returns the size of the left part (1..n-1) and the bounds of both parts. Halves
 * when every centroid is the same or the split would leave a side empty. */
static int sc_w_split(sc_bprim *p, int n, sc_bounds *lb, sc_bounds *rb)
{
    /* centroids times 2: lo + hi */
    sc_b4 cb = sc_b4_empty();
    for (int i = 0; i < n; ++i) {
        f4 c = f4_add(f4_load(p[i].lo), f4_load(p[i].hi));
        sc_b4_grow(&cb, c, c);
    }
    sc_bounds cr = sc_b4_out(cb);
    _Alignas(16) float kf[4] = {0, 0, 0, 0};
    for (int a = 0; a < 3; ++a) {
        float ext = cr.hi[a] - cr.lo[a];
        kf[a] = ext > 0.0f ? (float)SC_BINS / ext : 0.0f; /* ext = inf (huge objects): k = 0 */
    }
    const f4 cmin = cb.lo, k = f4_load(kf);
    sc_b4 bb[3][SC_BINS];
    int cnt[3][SC_BINS];
    memset(cnt, 0, sizeof cnt);
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < SC_BINS; ++b) bb[a][b] = sc_b4_empty();
    for (int i = 0; i < n; ++i) {
        f4 lo = f4_load(p[i].lo), hi = f4_load(p[i].hi);
        _Alignas(16) float v[4];
        f4_store(v, f4_mul(f4_sub(f4_add(lo, hi), cmin), k));
        for (int a = 0; a < 3; ++a) {
            int b = sc_w_binof(v[a]);
            cnt[a][b]++;
            sc_b4_grow(&bb[a][b], lo, hi);
        }
    }
    float best_cost = INFINITY;
    int best_axis = -1, best_bin = 0;
    for (int a = 0; a < 3; ++a) {
        if (kf[a] == 0.0f) continue;
        float right_area[SC_BINS];
        int right_cnt[SC_BINS];
        sc_b4 acc = sc_b4_empty();
        int c = 0;
        for (int b = SC_BINS - 1; b > 0; --b) {
            sc_b4_grow(&acc, bb[a][b].lo, bb[a][b].hi);
            c += cnt[a][b];
            right_area[b] = sc_b4_area(acc);
            right_cnt[b] = c;
        }
        acc = sc_b4_empty();
        c = 0;
        for (int b = 0; b < SC_BINS - 1; ++b) {
            sc_b4_grow(&acc, bb[a][b].lo, bb[a][b].hi);
            c += cnt[a][b];
            if (c == 0 || right_cnt[b + 1] == 0) continue;
            float cost = sc_b4_area(acc) * (float)c + right_area[b + 1] * (float)right_cnt[b + 1];
            if (cost < best_cost) {
                best_cost = cost;
                best_axis = a;
                best_bin = b;
            }
        }
    }
    int left = n / 2;
    if (best_axis >= 0) {
        float cm = cr.lo[best_axis], ka = kf[best_axis];
        int i = 0, j = n - 1;
        while (i <= j) {
            /* the same arithmetic as the binning pass, so every record lands on its side */
            if (sc_w_binof((p[i].lo[best_axis] + p[i].hi[best_axis] - cm) * ka) <= best_bin) {
                ++i;
            } else {
                sc_bprim t = p[i];
                p[i] = p[j];
                p[j] = t;
                --j;
            }
        }
        if (i > 0 && i < n) {
            sc_b4 l4 = sc_b4_empty(), r4 = sc_b4_empty();
            for (int b = 0; b < SC_BINS; ++b) sc_b4_grow(b <= best_bin ? &l4 : &r4, bb[best_axis][b].lo, bb[best_axis][b].hi);
            *lb = sc_b4_out(l4);
            *rb = sc_b4_out(r4);
            return i;
        }
    }
    *lb = sc_w_range_bounds(p, left);
    *rb = sc_w_range_bounds(p + left, n - left);
    return left;
}

static void sc_w_group_fill(sc_world *w, int g)
{
    sc_group *gr = &w->groups[g];
    int all = 1;
    for (int l = 0; l < 4; ++l) {
        int o = gr->idx[l];
        for (int a = 0; a < 3; ++a) {
            gr->lo[a][l] = o >= 0 ? (&w->bounds[o].min.x)[a] : INFINITY;
            gr->hi[a][l] = o >= 0 ? (&w->bounds[o].max.x)[a] : -INFINITY;
        }
        if (o >= 0 && w->kind[o] != K_AABB) all = 0;
    }
    gr->all_aabb = all;
}

/* Builds the subtree over p[0..n) (n >= 1, with bounds pb); returns its child reference, or
 * SC_NO_CHILD when out of memory. Nodes are numbered parent before children, so a refit
 * walks them backwards. */
static int32_t sc_w_build_rec(sc_world *w, sc_bprim *p, int n, sc_bounds pb, int depth, int *oom)
{
    if (n <= SC_LEAF) {
        if (!sc_grow_aligned(&w->mem, (void **)&w->groups, &w->groups_raw, &w->capgroups, w->ngroups + 1, sizeof(sc_group),
                             w->ngroups)) {
            *oom = 1;
            return SC_NO_CHILD;
        }
        int g = w->ngroups++;
        sc_group *gr = &w->groups[g];
        memset(gr, 0, sizeof *gr);
        for (int l = 0; l < 4; ++l) {
            gr->idx[l] = l < n ? sc_bp_id(&p[l]) : -1;
            if (l < n) w->obj_ref[gr->idx[l]] = g * 4 + l;
        }
        gr->count = n;
        sc_w_group_fill(w, g);
        return ~(int32_t)g;
    }
    /* Up to four parts: split the part with the largest surface area until there are four
     * or every part fits in a leaf. */
    sc_part parts[4];
    int np = 1;
    parts[0].begin = 0;
    parts[0].n = n;
    parts[0].b = pb;
    while (np < 4) {
        int pick = -1;
        float best = -1.0f;
        for (int i = 0; i < np; ++i) {
            float area = sc_b_area(&parts[i].b);
            if (parts[i].n > SC_LEAF && area > best) { best = area; pick = i; }
        }
        if (pick < 0) break;
        sc_part q = parts[pick];
        /* Past depth 24, halve: the depth (and so the traversal stack) stays bounded even
         * when SAH keeps peeling one object off at a time. */
        sc_bounds lb, rb;
        int left;
        if (depth < 24) {
            left = sc_w_split(p + q.begin, q.n, &lb, &rb);
        } else {
            left = q.n / 2;
            lb = sc_w_range_bounds(p + q.begin, left);
            rb = sc_w_range_bounds(p + q.begin + left, q.n - left);
        }
        parts[pick].n = left;
        parts[pick].b = lb;
        parts[np].begin = q.begin + left;
        parts[np].n = q.n - left;
        parts[np].b = rb;
        ++np;
    }
    if (!sc_grow_aligned(&w->mem, (void **)&w->nodes, &w->nodes_raw, &w->capnodes, w->nnodes + 1, sizeof(sc_node4),
                         w->nnodes)) {
        *oom = 1;
        return SC_NO_CHILD;
    }
    int32_t me = w->nnodes++;
    for (int l = 0; l < 4; ++l) {
        int32_t c = SC_NO_CHILD;
        if (l < np) {
            c = sc_w_build_rec(w, p + parts[l].begin, parts[l].n, parts[l].b, depth + 1, oom);
            if (*oom) return SC_NO_CHILD;
        }
        sc_node4 *node = &w->nodes[me]; /* re-derived: the recursion may move the array */
        node->child[l] = c;
        if (l == 0) node->valid = 0;
        if (c != SC_NO_CHILD) node->valid |= 1 << l;
        for (int a = 0; a < 3; ++a) {
            node->bmin[a][l] = l < np ? parts[l].b.lo[a] : INFINITY;
            node->bmax[a][l] = l < np ? parts[l].b.hi[a] : -INFINITY;
        }
    }
    return me;
}

sc_status sc_world_build(sc_world *w)
{
    if (!w) return SC_ERR_NULL;
    /* The build records and the far list hold at most count entries; nothing is changed
     * until both fit. */
    if (w->count > w->scratch_cap) {
        sc_bprim *p = sc_mem_alloc(&w->mem, (size_t)w->count * sizeof *p);
        if (!p) return SC_ERR_NO_MEMORY;
        sc_mem_free(&w->mem, w->scratch, (size_t)w->scratch_cap * sizeof *p);
        w->scratch = p;
        w->scratch_cap = w->count;
    }
    if (w->count > w->capfar) {
        int32_t *f = sc_mem_alloc(&w->mem, (size_t)w->count * sizeof *f);
        if (!f) return SC_ERR_NO_MEMORY;
        sc_mem_free(&w->mem, w->far_list, (size_t)w->capfar * sizeof *f);
        w->far_list = f;
        w->capfar = w->count;
    }
    w->nfar = 0;
    int n = 0;
    for (int i = 0; i < w->count; ++i) {
        w->obj_ref[i] = -1;
        if (w->far[i]) {
            w->far_list[w->nfar++] = i;
            continue;
        }
        sc_bprim *q = &w->scratch[n++];
        const sc_aabb *b = &w->bounds[i];
        q->lo[0] = b->min.x; q->lo[1] = b->min.y; q->lo[2] = b->min.z;
        q->hi[0] = b->max.x; q->hi[1] = b->max.y; q->hi[2] = b->max.z;
        int32_t id = i;
        memcpy(&q->lo[3], &id, sizeof id);
        q->hi[3] = 0.0f;
    }
    w->nnodes = 0;
    w->ngroups = 0;
    w->root = SC_NO_CHILD;
    int oom = 0;
    if (n > 0) w->root = sc_w_build_rec(w, w->scratch, n, sc_w_range_bounds(w->scratch, n), 0, &oom);
    if (oom) {
        w->root = SC_NO_CHILD;
        w->built = 0;
        return SC_ERR_NO_MEMORY;
    }
    w->built = 1;
    w->dirty = 0;
    return SC_OK;
}

static void sc_w_child_bounds(const sc_world *w, int32_t c, sc_bounds *b)
{
    sc_b_empty(b);
    if (c == SC_NO_CHILD) return;
    if (c < 0) {
        const sc_group *g = &w->groups[~c];
        for (int l = 0; l < 4; ++l) {
            for (int a = 0; a < 3; ++a) {
                if (g->lo[a][l] < b->lo[a]) b->lo[a] = g->lo[a][l];
                if (g->hi[a][l] > b->hi[a]) b->hi[a] = g->hi[a][l];
            }
        }
        return;
    }
    const sc_node4 *nd = &w->nodes[c];
    for (int l = 0; l < 4; ++l) {
        for (int a = 0; a < 3; ++a) {
            if (nd->bmin[a][l] < b->lo[a]) b->lo[a] = nd->bmin[a][l];
            if (nd->bmax[a][l] > b->hi[a]) b->hi[a] = nd->bmax[a][l];
        }
    }
}

sc_status sc_world_refit(sc_world *w)
{
    if (!w) return SC_ERR_NULL;
    if (!w->built) return sc_world_build(w);
    for (int g = 0; g < w->ngroups; ++g) sc_w_group_fill(w, g);
    for (int i = w->nnodes - 1; i >= 0; --i) {
        sc_node4 *nd = &w->nodes[i];
        for (int l = 0; l < 4; ++l) {
            sc_bounds b;
            sc_w_child_bounds(w, nd->child[l], &b);
            for (int a = 0; a < 3; ++a) {
                nd->bmin[a][l] = b.lo[a];
                nd->bmax[a][l] = b.hi[a];
            }
        }
    }
    w->dirty = 0;
    return SC_OK;
}

sc_status sc_world_commit(sc_world *w)
{
    if (!w) return SC_ERR_NULL;
    if (!w->built) return sc_world_build(w);
    if (w->dirty) return sc_world_refit(w);
    return SC_OK;
}

/* ------------------------------------------------------------- traversal */

/* What the culling test needs of a ray. Loops copy it into a local whose address is never
 * taken, so that it stays in registers across calls. */
typedef struct sc_wcull {
    f4 vo[3];                    /* splats of the origin, per axis */
    f4 vnear[3], vfar[3];        /* splats of the culling reciprocals (see sc_w_prep) */
    int near_off[3], far_off[3]; /* float offsets of the near / far bound in a node or group */
} sc_wcull;

typedef struct sc_wray {
    sc_wcull c;
    sc_ray ray;
    float o[3], d[3];
    int par[3];            /* dir == 0 (or -0) on that axis */
    int far;               /* origin >= 2^80: test every object exactly */
} sc_wray;

typedef struct sc_whit {
    float t;
    int index;
    sc_vec3 normal;
} sc_whit;

static void sc_w_prep(sc_wray *r, const sc_ray *ray)
{
    r->ray = *ray;
    const float *o = &ray->origin.x, *d = &ray->dir.x;
    for (int a = 0; a < 3; ++a) {
        r->o[a] = o[a];
        r->d[a] = d[a];
        r->par[a] = d[a] == 0.0f;
        /* The culling reciprocals: 1/d rounded, then scaled by 1 -+ 2^-20 toward and away
         * from zero (see sc_w_cull4). d = +-0 gives +-inf. A component with 0 < |d| < 2^-40
         * or |d| >= 2^100 gives NaN: that axis takes no part in culling, so that 1/d stays a
         * normal float and the products cannot overflow. */
        float inv = 1.0f / d[a];
        float ad = sc_w_abs(d[a]);
        if (!r->par[a] && (ad < SC_TINY_DIR || ad >= SC_HUGE_DIR)) inv = NAN;
        r->c.vnear[a] = f4_splat(inv * SC_SHRINK);
        r->c.vfar[a] = f4_splat(inv * SC_GROW);
        r->c.vo[a] = f4_splat(o[a]);
        int neg = signbit(inv) != 0;
        r->c.near_off[a] = (neg ? 12 : 0) + 4 * a; /* bmin / lo at 0, bmax / hi at 12 floats */
        r->c.far_off[a] = (neg ? 0 : 12) + 4 * a;
    }
    r->far = sc_w_far3(ray->origin);
}

/* Keeps the nearer hit; on equal t the lower index. */
static void sc_w_offer(sc_whit *best, float t, int index, sc_vec3 normal)
{
    if (best->index < 0 || t < best->t || (t == best->t && index < best->index)) {
        best->t = t;
        best->index = index;
        best->normal = normal;
    }
}

/* The conservative test of four boxes against one ray. base points at a node's bmin/bmax or
 * a group's lo/hi: twelve floats of minima (x, y, z: four lanes each), then twelve of maxima.
 * A reciprocal slab test, branch-free, that never rejects a box the exact test hits:
 *   - entries use a reciprocal shrunk by 2^-20, exits one grown by 2^-20. Before the last
 *     rounding, an entry product is then below the exact entry distance times (1 - 2^-21),
 *     and an exit product above the exact exit times (1 + 2^-21): the other roundings
 *     (bound - o, 1/d, the scaling) are relative and below 2^-22 in all (a subtraction
 *     that underflows is exact, and |d| is kept in [2^-40, 2^100)). The last rounding is
 *     monotone, so when the exact entry is at most the exact exit, or at most the exact t
 *     of the best hit so far (itself a rounding of an exact value), the computed one is
 *     too, even in the subnormal range and on ties. Signs are exact.
 *   - special axes need no branch, thanks to the NaN rule of f4_max(a, b) = a < b ? b : a
 *     and f4_min(a, b) = b < a ? b : a (a NaN in b is ignored):
 *       d = +-0: inv = +-inf; (bound - o) * inv is -inf (no constraint), +inf (rejects), or
 *                NaN when o lies on the bound's plane: ignored, so the slab is closed, as in
 *                the exact test;
 *       tiny or huge d: inv = NaN: the axis is ignored (culls less, never more);
 *       empty lanes (inverted bounds): entry +inf, exit -inf: rejected.
 * Returns the lanes that may hit with t_enter <= limit; max(t_enter, 0) per lane in tn_out
 * (finite for those lanes). */
static inline int sc_w_cull4(const float *base, const sc_wcull c, float limit, float *tn_out)
{
    const sc_wcull *r = &c;
    /* A finite limit, so that an entry of +inf (the origin outside the slab of an axis the ray
     * is parallel to) is always rejected, even before any hit when tmax = inf. */
    limit = limit < FLT_MAX ? limit : FLT_MAX;
    /* scalar, per axis: near = (near_bound - o) * inv_near; far = (far_bound - o) * inv_far */
    f4 n0 = f4_mul(f4_sub(f4_load(base + r->near_off[0]), r->vo[0]), r->vnear[0]);
    f4 f0 = f4_mul(f4_sub(f4_load(base + r->far_off[0]), r->vo[0]), r->vfar[0]);
    f4 n1 = f4_mul(f4_sub(f4_load(base + r->near_off[1]), r->vo[1]), r->vnear[1]);
    f4 f1 = f4_mul(f4_sub(f4_load(base + r->far_off[1]), r->vo[1]), r->vfar[1]);
    f4 n2 = f4_mul(f4_sub(f4_load(base + r->near_off[2]), r->vo[2]), r->vnear[2]);
    f4 f2 = f4_mul(f4_sub(f4_load(base + r->far_off[2]), r->vo[2]), r->vfar[2]);
    /* scalar: tn = max(0, n0, n1, n2); tf = min(limit, f0, f1, f2), NaN terms ignored */
    f4 tn = f4_max(f4_max(f4_max(f4_splat(0.0f), n0), n1), n2);
    f4 tf = f4_min(f4_min(f4_min(f4_splat(limit), f0), f1), f2);
    /* scalar: tn <= tf, which is t_enter <= t_exit && t_exit >= 0 && t_enter <= limit */
    int bits = f4_bits(f4_le(tn, tf));
    if (tn_out) f4_store(tn_out, tn);
    return bits;
}

/* One object through the exact scalar query. */
static sc_raycast_result sc_w_exact_object(const sc_world *w, const sc_wray *r, int o)
{
    switch (w->kind[o]) {
    case K_AABB: return sc__raycast_aabb_valid(&r->ray, &w->bounds[o]);
    case K_OBB: return sc__raycast_obb_valid(&r->ray, &w->obbs[w->slot[o]]);
    default: return sc__raycast_sphere_valid(&r->ray, &w->spheres[w->slot[o]]);
    }
}

/* One object through the exact scalar query, offered to the best hit. */
static void sc_w_test_object(const sc_world *w, const sc_wray *r, int o, sc_whit *best)
{
    sc_raycast_result h = sc_w_exact_object(w, r, o);
    if (h.hit) sc_w_offer(best, h.t, o, h.normal);
}

/* Four AABBs against one ray: sc__raycast_aabb_valid's slab test, lane by lane, with the same
 * operations in the same order (so the same t, bit for bit). Returns the lanes that hit;
 * t_enter per lane in tn_out, the entry axis per lane in axis_out. Lanes whose t_enter and
 * t_exit both overflowed to +inf (a tiny direction component) are also set in *redo: the
 * caller decides them with the scalar test (sc_slab_interval's second pass). */
static int sc_w_leaf_aabb4(const sc_group *g, const sc_wray *r, float limit, float *tn_out, int *axis_out, int *redo)
{
    f4 tn = f4_splat(-INFINITY), tf = f4_splat(INFINITY);
    f4 alive = f4_lt(f4_splat(0.0f), f4_splat(1.0f)); /* all lanes */
    f4 ax = f4_splat(-1.0f);
    f4 zero = f4_splat(0.0f);
    f4 under = f4_lt(f4_splat(1.0f), zero); /* no lanes */
    for (int a = 0; a < 3; ++a) {
        f4 lo = f4_load(g->lo[a]), hi = f4_load(g->hi[a]);
        f4 o = f4_splat(r->o[a]);
        if (r->par[a]) {
            /* scalar: if (o < lo || o > hi) miss */
            alive = f4_and(alive, f4_and(f4_ge(o, lo), f4_le(o, hi)));
            continue;
        }
        f4 d = f4_splat(r->d[a]);
        /* scalar: t1 = (lo - o) / d; t2 = (hi - o) / d */
        f4 n1 = f4_sub(lo, o), n2 = f4_sub(hi, o);
        f4 t1 = f4_div(n1, d);
        f4 t2 = f4_div(n2, d);
        /* scalar: a quotient below FLT_MIN from a non-zero numerator makes the scalar test
         * decide in double (sc_slab_core returns 2): such lanes go to the scalar test */
        f4 fmin = f4_splat(FLT_MIN);
        under = f4_or(under, f4_and(f4_lt(f4_abs(t1), fmin), f4_gt(f4_abs(n1), zero)));
        under = f4_or(under, f4_and(f4_lt(f4_abs(t2), fmin), f4_gt(f4_abs(n2), zero)));
        /* scalar: near = d > 0 ? t1 : t2; far = d > 0 ? t2 : t1 */
        f4 nr = r->d[a] > 0.0f ? t1 : t2;
        f4 fr = r->d[a] > 0.0f ? t2 : t1;
        /* scalar: if (near > tn) { tn = near; axis = a; } */
        f4 up = f4_gt(nr, tn);
        tn = f4_select(up, nr, tn);
        ax = f4_select(up, f4_splat((float)a), ax);
        /* scalar: if (far < tf) tf = far; */
        tf = f4_select(f4_lt(fr, tf), fr, tf);
    }
    /* scalar: tn <= tf, then tf >= 0 && tn <= tmax */
    f4 hit = f4_and(alive, f4_le(tn, tf));
    hit = f4_and(hit, f4_and(f4_ge(tf, f4_splat(0.0f)), f4_le(tn, f4_splat(r->ray.tmax))));
    /* scalar: tn == +inf (then tf == +inf too) takes a second pass; underflowed lanes the
     * scalar test (whatever this kernel concluded for them) */
    *redo = f4_bits(f4_or(f4_and(hit, f4_ge(tn, f4_splat(INFINITY))), f4_and(alive, under)));
    /* scalar: tn = sc_fin(tn) (an entry past FLT_MAX is reported as FLT_MAX; -inf cannot reach
     * the output: t = max(tn, 0)) */
    tn = f4_min(tn, f4_splat(FLT_MAX));
    /* and only what can beat the best hit so far: max(tn, 0) <= best <=> tn <= best */
    hit = f4_and(hit, f4_le(tn, f4_splat(limit)));
    int bits = f4_bits(hit);
    if (bits) {
        _Alignas(16) float axf[4];
        f4_store(tn_out, tn);
        f4_store(axf, ax);
        for (int l = 0; l < 4; ++l) axis_out[l] = (int)axf[l];
    }
    return bits;
}

/* The normal of an AABB lane hit with entry tn on axis (sc__raycast_aabb_valid's): the entry
 * face's outward normal, or 0 when the origin is strictly inside (tn < 0). */
static inline sc_vec3 sc_w_lane_normal(const sc_wray *r, float tn, int axis)
{
    sc_vec3 n = {0, 0, 0};
    if (tn >= 0.0f && axis >= 0) (&n.x)[axis] = r->d[axis] > 0.0f ? -1.0f : 1.0f;
    return n;
}

/* The exact tests of a group whose conservative test passed (limit: the best t, or tmax). */
static void sc_w_group_exact(const sc_world *w, const sc_group *g, const sc_wray *r, sc_whit *best, float limit)
{
    if (g->all_aabb) {
        _Alignas(16) float tn[4];
        int axis[4], redo;
        int bits = sc_w_leaf_aabb4(g, r, limit, tn, axis, &redo);
        for (int l = 0; l < 4; ++l) {
            if (redo >> l & 1) {
                if (g->idx[l] >= 0) sc_w_test_object(w, r, g->idx[l], best);
                continue;
            }
            if (!(bits >> l & 1)) continue;
            sc_w_offer(best, tn[l] > 0.0f ? tn[l] : 0.0f, g->idx[l], sc_w_lane_normal(r, tn[l], axis[l]));
        }
        return;
    }
    for (int l = 0; l < 4; ++l)
        if (g->idx[l] >= 0) sc_w_test_object(w, r, g->idx[l], best);
}

/* The lowest set bit of a non-zero mask. */
static inline int sc_w_ctz(unsigned m)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(m);
#else
    int i = 0;
    while (!(m & 1u)) { m >>= 1; ++i; }
    return i;
#endif
}

typedef struct sc_wentry { int32_t ref; float t; } sc_wentry;

/* The nearest hit of one ray (any_hit: stop at the first). Near-first traversal with the
 * current node kept out of the stack: one child hit descends directly, two push the farther,
 * three or four are sorted. A stack entry carries its child's culling t_enter, so entries
 * that cannot beat the best hit found since are dropped when popped. */
static void sc_w_cast(const sc_world *w, const sc_wray *r, sc_whit *best, int any_hit)
{
    best->index = -1;
    best->t = 0.0f;
    best->normal = (sc_vec3){0, 0, 0};
    if (r->far) {
        for (int o = 0; o < w->count; ++o) {
            sc_w_test_object(w, r, o, best);
            if (any_hit && best->index >= 0) return;
        }
        return;
    }
    for (int i = 0; i < w->nfar; ++i) {
        sc_w_test_object(w, r, w->far_list[i], best);
        if (any_hit && best->index >= 0) return;
    }
    if (w->root == SC_NO_CHILD) return;
    const sc_wcull cull = r->c;
    const sc_node4 *nodes = w->nodes;
    sc_wentry stack[SC_STACK];
    int sp = 0;
    int32_t cur = w->root;
    float limit = best->index >= 0 ? best->t : r->ray.tmax;
    for (;;) {
        while (cur >= 0) {
            const sc_node4 *nd = &nodes[cur];
            _Alignas(16) float tn[4];
            unsigned bits = (unsigned)sc_w_cull4(&nd->bmin[0][0], cull, limit, tn) & (unsigned)nd->valid;
            if (!bits) goto pop;
            int a = sc_w_ctz(bits);
            bits &= bits - 1;
            if (!bits) {
                cur = nd->child[a];
                continue;
            }
            int b = sc_w_ctz(bits);
            bits &= bits - 1;
            if (!bits) {
                /* two: descend into the nearer, push the farther */
                if (tn[b] < tn[a]) { int x = a; a = b; b = x; }
                if (sp < SC_STACK) { stack[sp].ref = nd->child[b]; stack[sp].t = tn[b]; ++sp; }
                cur = nd->child[a];
                continue;
            }
            /* three or four: push all far to near (insertion sort), then pop the nearest */
            int order[4] = {a, b, 0, 0}, m = 2;
            if (tn[b] > tn[a]) { order[0] = b; order[1] = a; }
            while (bits) {
                int l = sc_w_ctz(bits);
                bits &= bits - 1;
                int j = m++;
                while (j > 0 && tn[order[j - 1]] < tn[l]) { order[j] = order[j - 1]; --j; }
                order[j] = l;
            }
            for (int j = 0; j < m - 1 && sp < SC_STACK; ++j) {
                stack[sp].ref = nd->child[order[j]];
                stack[sp].t = tn[order[j]];
                ++sp;
            }
            cur = nd->child[order[m - 1]];
        }
        {
            const sc_group *g = &w->groups[~cur];
            if (sc_w_cull4(&g->lo[0][0], cull, limit, NULL)) {
                sc_w_group_exact(w, g, r, best, limit);
                if (best->index >= 0) {
                    if (any_hit) return;
                    limit = best->t;
                }
            }
        }
    pop:
        do {
            if (sp == 0) return;
            --sp;
        } while (stack[sp].t > limit);
        cur = stack[sp].ref;
    }
}

/* A refused element's index, for the caller's scratch (if any). */
static void sc_w_set_error(sc_scratch *scratch, int i)
{
    if (scratch) scratch->error_index = i;
}

static sc_status sc_w_check_rays(const float *rays, int n, sc_scratch *scratch)
{
    if (n < 0) return SC_ERR_COUNT;
    if (n > 0 && !rays) return SC_ERR_NULL;
    for (int i = 0; i < n; ++i) {
        const float *p = rays + (size_t)i * SC_RAY_FLOATS;
        sc_ray ray = {sc_w_v3(p), sc_w_v3(p + 3), p[6]};
        sc_status s = sc_ray_check(&ray);
        if (s != SC_OK) {
            sc_w_set_error(scratch, i);
            return s;
        }
    }
    return SC_OK;
}

static void sc_w_emit(const sc_whit *h, int i, float *t, int *index, float *normal)
{
    t[i] = h->index >= 0 ? h->t + 0.0f : 0.0f;
    index[i] = h->index;
    if (normal) {
        normal[3 * (size_t)i + 0] = h->normal.x + 0.0f;
        normal[3 * (size_t)i + 1] = h->normal.y + 0.0f;
        normal[3 * (size_t)i + 2] = h->normal.z + 0.0f;
    }
}

/* Every group against the ray: the brute-force kernel. The conservative test runs with the
 * bound in a register; the exact test only for the rare group that may beat it. */
static void sc_w_brute(const sc_world *w, const sc_wray *r, sc_whit *h)
{
    h->index = -1;
    h->t = 0.0f;
    h->normal = (sc_vec3){0, 0, 0};
    if (r->far) {
        for (int o = 0; o < w->count; ++o) sc_w_test_object(w, r, o, h);
        return;
    }
    for (int k = 0; k < w->nfar; ++k) sc_w_test_object(w, r, w->far_list[k], h);
    if (w->ngroups == 0) return; /* groups may be NULL then, and NULL + 0 is undefined */
    float limit = r->ray.tmax;
    const sc_wcull c = r->c;
    const sc_group *g = w->groups, *end = w->groups + w->ngroups;
    for (; g < end; ++g) {
        if (!sc_w_cull4(&g->lo[0][0], c, limit, NULL)) continue;
        sc_w_group_exact(w, g, r, h, limit);
        limit = h->index >= 0 ? h->t : r->ray.tmax;
    }
}

typedef enum { SC_W_NEAREST, SC_W_BRUTE, SC_W_ANY } sc_w_mode;

/* A batch of rays: all validated first, then cast one by one. */
/* Spreads the low 10 bits of x to every third bit. */
static uint32_t sc_w_spread3(uint32_t x)
{
    x &= 0x3FFu;
    x = (x | x << 16) & 0x030000FFu;
    x = (x | x << 8) & 0x0300F00Fu;
    x = (x | x << 4) & 0x030C30C3u;
    x = (x | x << 2) & 0x09249249u;
    return x;
}

static uint32_t sc_w_cell(float v, float lo, float k)
{
    float f = (v - lo) * k;
    return f > 0.0f ? (f < 511.0f ? (uint32_t)f : 511u) : 0u; /* NaN: 0 */
}

/* ---------------------------------------------------------------- scratch */

/* Bytes of a scratch block for cap rays: two arrays of 64-bit sort keys, the rays in trace
 * order and their results. */
static size_t sc_scratch_block_bytes(int cap)
{
    return (size_t)cap * (2 * sizeof(uint64_t) + SC_RAY_FLOATS * sizeof(float) + sizeof(sc_whit));
}

sc_scratch *sc_scratch_create_with(const sc_allocator *allocator)
{
    sc_allocator m;
    if (!sc_pick_allocator(allocator, &m)) return NULL;
    sc_scratch *s = sc_mem_alloc(&m, sizeof *s);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    s->mem = m;
    s->error_index = -1;
    return s;
}

sc_scratch *sc_scratch_create(void) { return sc_scratch_create_with(NULL); }

void sc_scratch_destroy(sc_scratch *s)
{
    if (!s) return;
    const sc_allocator m = s->mem;
    sc_mem_free(&m, s->block, s->block_bytes);
    sc_mem_free(&m, s, sizeof *s);
}

sc_status sc_scratch_reserve(sc_scratch *s, int rays)
{
    if (!s) return SC_ERR_NULL;
    if (rays < 0) return SC_ERR_COUNT;
    if (rays <= s->cap) return SC_OK;
    int cap = sc_next_cap(s->cap, rays, SC_SCRATCH_MIN_RAYS);
    if (!cap) cap = rays;
    if ((size_t)cap > SIZE_MAX / sc_scratch_block_bytes(1)) return SC_ERR_NO_MEMORY;
    size_t bytes = sc_scratch_block_bytes(cap);
    void *block = sc_mem_alloc(&s->mem, bytes);
    if (!block) return SC_ERR_NO_MEMORY;
    sc_mem_free(&s->mem, s->block, s->block_bytes);
    s->block = block;
    s->block_bytes = bytes;
    s->cap = cap;
    return SC_OK;
}

int sc_scratch_capacity(const sc_scratch *s) { return s ? s->cap : 0; }
long sc_scratch_bytes(const sc_scratch *s) { return s ? (long)(sizeof *s + s->block_bytes) : 0; }
int sc_scratch_error_index(const sc_scratch *s) { return s ? s->error_index : -1; }

/* The parts of a scratch's block, for n <= cap rays. */
typedef struct sc_order_bufs {
    uint64_t *keys, *keys2;
    float *rays;
    sc_whit *res;
} sc_order_bufs;

static sc_order_bufs sc_scratch_parts(const sc_scratch *s)
{
    sc_order_bufs b;
    char *p = s->block;
    b.keys = (uint64_t *)(void *)p;
    b.keys2 = b.keys + s->cap;
    b.rays = (float *)(void *)(b.keys2 + s->cap);
    b.res = (sc_whit *)(void *)(b.rays + (size_t)s->cap * SC_RAY_FLOATS);
    return b;
}

/* The order in which to trace a large batch: by direction octant, then by the Morton code of
 * the origin on a 512^3 grid over the BVH's bounds, so that consecutive rays visit the same
 * nodes while they are in cache. Only the order changes: every ray's result is its own. An
 * LSD radix sort of 30-bit keys, three passes of 10 bits; the sorted keys (key << 32 | ray)
 * are returned, in b->keys or b->keys2. */
static const uint64_t *sc_w_ray_order(const sc_world *w, const float *rays, int n, const sc_order_bufs *bufs)
{
    uint64_t *a = bufs->keys, *b = bufs->keys2;
    uint32_t count[1024];
    sc_bounds sb;
    sc_w_child_bounds(w, w->root, &sb);
    float k[3];
    for (int ax = 0; ax < 3; ++ax) {
        float ext = sb.hi[ax] - sb.lo[ax];
        k[ax] = ext > 0.0f && ext < INFINITY ? 512.0f / ext : 0.0f;
    }
    for (int i = 0; i < n; ++i) {
        const float *p = rays + (size_t)i * SC_RAY_FLOATS;
        uint32_t key = (uint32_t)(p[3] < 0.0f) << 29 | (uint32_t)(p[4] < 0.0f) << 28 | (uint32_t)(p[5] < 0.0f) << 27;
        key |= sc_w_spread3(sc_w_cell(p[0], sb.lo[0], k[0])) | sc_w_spread3(sc_w_cell(p[1], sb.lo[1], k[1])) << 1 |
               sc_w_spread3(sc_w_cell(p[2], sb.lo[2], k[2])) << 2;
        a[i] = (uint64_t)key << 32 | (uint32_t)i;
    }
    for (int shift = 32; shift < 62; shift += 10) {
        memset(count, 0, sizeof count);
        for (int i = 0; i < n; ++i) count[a[i] >> shift & 1023u]++;
        uint32_t sum = 0;
        for (int d = 0; d < 1024; ++d) { uint32_t c = count[d]; count[d] = sum; sum += c; }
        for (int i = 0; i < n; ++i) b[count[a[i] >> shift & 1023u]++] = a[i];
        uint64_t *x = a; a = b; b = x;
    }
    return a;
}

/* One ray (7 floats at p) through the world. */
static void sc_w_trace(const sc_world *w, const float *p, sc_w_mode mode, sc_whit *h)
{
    sc_ray ray = {sc_w_v3(p), sc_w_v3(p + 3), p[6]};
    sc_wray r;
    sc_w_prep(&r, &ray);
    if (mode == SC_W_BRUTE) sc_w_brute(w, &r, h);
    else sc_w_cast(w, &r, h, mode == SC_W_ANY);
}

/* Writes ray i's result to the outputs of its mode. */
static void sc_w_output(sc_w_mode mode, const sc_whit *h, int i, float *t, int *index, float *normal, int *hit)
{
    if (mode == SC_W_ANY) hit[i] = h->index >= 0;
    else sc_w_emit(h, i, t, index, normal);
}

/* A batch of rays: all validated first, then cast one by one (large batches in a cache-friendly
 * order when the caller's scratch has room, see sc_w_ray_order). */
static sc_status sc_w_batch(const sc_world *w, const float *rays, int n, sc_w_mode mode, float *t, int *index,
                            float *normal, int *hit, sc_scratch *scratch)
{
    sc_w_set_error(scratch, -1);
    if (!w) return SC_ERR_NULL;
    sc_status s = sc_w_check_rays(rays, n, scratch);
    if (s != SC_OK) return s;
    if (n > 0 && (mode == SC_W_ANY ? !hit : (!t || !index))) return SC_ERR_NULL;
    if (!sc_world_is_committed(w)) return SC_ERR_STALE;
    if (mode != SC_W_BRUTE && n >= SC_SCRATCH_MIN_RAYS && scratch && n <= scratch->cap && w->root != SC_NO_CHILD) {
        /* gather, trace in order, scatter: the random accesses stay out of the traversal */
        sc_order_bufs bufs = sc_scratch_parts(scratch);
        const uint64_t *order = sc_w_ray_order(w, rays, n, &bufs);
        for (int j = 0; j < n; ++j)
            memcpy(bufs.rays + (size_t)j * SC_RAY_FLOATS, rays + (size_t)(uint32_t)order[j] * SC_RAY_FLOATS,
                   SC_RAY_FLOATS * sizeof *rays);
        for (int j = 0; j < n; ++j) sc_w_trace(w, bufs.rays + (size_t)j * SC_RAY_FLOATS, mode, &bufs.res[j]);
        for (int j = 0; j < n; ++j) sc_w_output(mode, &bufs.res[j], (int)(uint32_t)order[j], t, index, normal, hit);
        return SC_OK;
    }
    for (int i = 0; i < n; ++i) {
        sc_whit h;
        sc_w_trace(w, rays + (size_t)i * SC_RAY_FLOATS, mode, &h);
        sc_w_output(mode, &h, i, t, index, normal, hit);
    }
    return SC_OK;
}

sc_status sc_world_cast_rays(const sc_world *w, const float *rays, int n, float *t, int *index, float *normal,
                             sc_scratch *scratch)
{
    return sc_w_batch(w, rays, n, SC_W_NEAREST, t, index, normal, NULL, scratch);
}

sc_status sc_world_cast_rays_bruteforce(const sc_world *w, const float *rays, int n, float *t, int *index,
                                        float *normal, sc_scratch *scratch)
{
    return sc_w_batch(w, rays, n, SC_W_BRUTE, t, index, normal, NULL, scratch);
}

sc_status sc_world_any_hit(const sc_world *w, const float *rays, int n, int *hit, sc_scratch *scratch)
{
    return sc_w_batch(w, rays, n, SC_W_ANY, NULL, NULL, NULL, hit, scratch);
}

sc_status sc_world_cast_segments(const sc_world *w, const float *segs, int n, float *t, int *index, float *normal,
                                 sc_scratch *scratch)
{
    sc_w_set_error(scratch, -1);
    if (!w) return SC_ERR_NULL;
    if (n < 0) return SC_ERR_COUNT;
    if (n > 0 && (!segs || !t || !index)) return SC_ERR_NULL;
    for (int i = 0; i < n; ++i) {
        const float *p = segs + (size_t)i * SC_SEGMENT_FLOATS;
        sc_segment sg = {sc_w_v3(p), sc_w_v3(p + 3)};
        sc_status s = sc_segment_check(&sg);
        if (s != SC_OK) {
            sc_w_set_error(scratch, i);
            return s;
        }
    }
    if (!sc_world_is_committed(w)) return SC_ERR_STALE;
    for (int i = 0; i < n; ++i) {
        const float *p = segs + (size_t)i * SC_SEGMENT_FLOATS;
        sc_vec3 a = sc_w_v3(p), b = sc_w_v3(p + 3);
        sc_whit h = {0.0f, -1, {0, 0, 0}};
        sc_vec3 d = {b.x - a.x, b.y - a.y, b.z - a.z};
        if (d.x == 0.0f && d.y == 0.0f && d.z == 0.0f) {
            /* A point: the lowest-index object that contains it, at t = 0. */
            sc_shape sh;
            for (int o = 0; o < w->count; ++o) {
                if (w->kind[o] == K_AABB) { sh.type = SC_SHAPE_AABB; sh.u.aabb = w->bounds[o]; }
                else if (w->kind[o] == K_OBB) { sh.type = SC_SHAPE_OBB; sh.u.obb = w->obbs[w->slot[o]]; }
                else { sh.type = SC_SHAPE_SPHERE; sh.u.sphere = w->spheres[w->slot[o]]; }
                if (sc_contains(a, &sh).value) { h.index = o; break; }
            }
        } else {
            sc_ray ray = {a, d, 1.0f};
            if (!isfinite(d.x) || !isfinite(d.y) || !isfinite(d.z)) {
                /* b - a overflows: halve the segment's frame (t is unchanged at the end). */
                ray.dir = (sc_vec3){b.x * 0.5f - a.x * 0.5f, b.y * 0.5f - a.y * 0.5f, b.z * 0.5f - a.z * 0.5f};
                ray.tmax = 2.0f;
            }
            sc_wray r;
            sc_w_prep(&r, &ray);
            sc_w_cast(w, &r, &h, 0);
            if (ray.tmax == 2.0f) h.t *= 0.5f;
        }
        sc_w_emit(&h, i, t, index, normal);
    }
    return SC_OK;
}

/* ------------------------------------------------------------- all hits */

/* The hits of sc_world_cast_ray_all: every hit is counted; the cap nearest, by (t, index), are
 * kept in the caller's arrays as a max-heap (the farthest kept hit at the root), then sorted
 * in place. No memory beyond the caller's. */
typedef struct sc_wall {
    float *t;
    int *index;
    float *normal; /* may be NULL */
    int cap, kept, total;
} sc_wall;

/* (ta, ia) comes after (tb, ib) in the order of the results. */
static int sc_w_after(float ta, int ia, float tb, int ib) { return ta > tb || (ta == tb && ia > ib); }

static void sc_w_heap_swap(sc_wall *c, int i, int j)
{
    float t = c->t[i]; c->t[i] = c->t[j]; c->t[j] = t;
    int x = c->index[i]; c->index[i] = c->index[j]; c->index[j] = x;
    if (c->normal) {
        for (int a = 0; a < 3; ++a) {
            float v = c->normal[3 * (size_t)i + a];
            c->normal[3 * (size_t)i + a] = c->normal[3 * (size_t)j + a];
            c->normal[3 * (size_t)j + a] = v;
        }
    }
}

/* Restores the heap below slot i of the first n slots. */
static void sc_w_heap_down(sc_wall *c, int i, int n)
{
    for (;;) {
        int big = i, l = 2 * i + 1, r = l + 1;
        if (l < n && sc_w_after(c->t[l], c->index[l], c->t[big], c->index[big])) big = l;
        if (r < n && sc_w_after(c->t[r], c->index[r], c->t[big], c->index[big])) big = r;
        if (big == i) return;
        sc_w_heap_swap(c, i, big);
        i = big;
    }
}

static void sc_w_collect(sc_wall *c, float t, int index, sc_vec3 normal)
{
    c->total++;
    t += 0.0f; /* -0 is reported as 0 (as sc_w_emit) */
    int slot;
    if (c->kept < c->cap) {
        slot = c->kept++;
    } else if (c->cap > 0 && sc_w_after(c->t[0], c->index[0], t, index)) {
        slot = 0;
    } else {
        return;
    }
    c->t[slot] = t;
    c->index[slot] = index;
    if (c->normal) {
        c->normal[3 * (size_t)slot + 0] = normal.x + 0.0f;
        c->normal[3 * (size_t)slot + 1] = normal.y + 0.0f;
        c->normal[3 * (size_t)slot + 2] = normal.z + 0.0f;
    }
    if (slot == 0) {
        sc_w_heap_down(c, 0, c->kept);
        return;
    }
    /* sift the new last slot up */
    for (int i = slot; i > 0;) {
        int parent = (i - 1) / 2;
        if (!sc_w_after(c->t[i], c->index[i], c->t[parent], c->index[parent])) break;
        sc_w_heap_swap(c, i, parent);
        i = parent;
    }
}

/* Sorts the kept hits by (t, index): the root of the max-heap goes to the end, repeatedly. */
static void sc_w_heap_sort(sc_wall *c)
{
    for (int n = c->kept; n > 1; --n) {
        sc_w_heap_swap(c, 0, n - 1);
        sc_w_heap_down(c, 0, n - 1);
    }
}

static void sc_w_collect_object(const sc_world *w, const sc_wray *r, int o, sc_wall *c)
{
    sc_raycast_result h = sc_w_exact_object(w, r, o);
    if (h.hit) sc_w_collect(c, h.t, o, h.normal);
}

/* Every object of a group whose conservative test passed: the same exact tests as
 * sc_w_group_exact, with tmax as the limit, so the same t bit for bit. */
static void sc_w_group_collect(const sc_world *w, const sc_group *g, const sc_wray *r, sc_wall *c)
{
    if (g->all_aabb) {
        _Alignas(16) float tn[4];
        int axis[4], redo;
        int bits = sc_w_leaf_aabb4(g, r, r->ray.tmax, tn, axis, &redo);
        for (int l = 0; l < 4; ++l) {
            if (redo >> l & 1) {
                if (g->idx[l] >= 0) sc_w_collect_object(w, r, g->idx[l], c);
                continue;
            }
            if (bits >> l & 1) sc_w_collect(c, tn[l] > 0.0f ? tn[l] : 0.0f, g->idx[l], sc_w_lane_normal(r, tn[l], axis[l]));
        }
        return;
    }
    for (int l = 0; l < 4; ++l)
        if (g->idx[l] >= 0) sc_w_collect_object(w, r, g->idx[l], c);
}

/* Every object the ray meets within [0, tmax], unsorted: each object is tested once (it lies in
 * one leaf, or in the far list). The traversal order does not matter: nothing is pruned by a
 * best hit, only by tmax. */
static void sc_w_cast_all(const sc_world *w, const sc_wray *r, sc_wall *c)
{
    if (r->far) {
        for (int o = 0; o < w->count; ++o) sc_w_collect_object(w, r, o, c);
        return;
    }
    for (int i = 0; i < w->nfar; ++i) sc_w_collect_object(w, r, w->far_list[i], c);
    if (w->root == SC_NO_CHILD) return;
    const sc_wcull cull = r->c;
    const float limit = r->ray.tmax;
    int32_t stack[SC_STACK];
    int sp = 0;
    stack[sp++] = w->root;
    while (sp > 0) {
        int32_t cur = stack[--sp];
        if (cur < 0) {
            const sc_group *g = &w->groups[~cur];
            if (sc_w_cull4(&g->lo[0][0], cull, limit, NULL)) sc_w_group_collect(w, g, r, c);
            continue;
        }
        const sc_node4 *nd = &w->nodes[cur];
        unsigned bits = (unsigned)sc_w_cull4(&nd->bmin[0][0], cull, limit, NULL) & (unsigned)nd->valid;
        /* The depth is bounded (see sc_w_build_rec), and each level leaves at most three
         * entries behind: the stack cannot overflow. */
        while (bits && sp < SC_STACK) {
            int l = sc_w_ctz(bits);
            bits &= bits - 1;
            stack[sp++] = nd->child[l];
        }
    }
}

sc_status sc_world_cast_ray_all(const sc_world *w, const sc_ray *ray, int cap, float *t, int *index, float *normal,
                                int *total)
{
    if (total) *total = 0;
    if (!w) return SC_ERR_NULL;
    if (!ray || !total) return SC_ERR_NULL;
    if (cap < 0) return SC_ERR_COUNT;
    if (cap > 0 && (!t || !index)) return SC_ERR_NULL;
    sc_status s = sc_ray_check(ray);
    if (s != SC_OK) return s;
    if (!sc_world_is_committed(w)) return SC_ERR_STALE;
    sc_wray r;
    sc_w_prep(&r, ray);
    sc_wall c = {t, index, normal, cap, 0, 0};
    sc_w_cast_all(w, &r, &c);
    sc_w_heap_sort(&c);
    *total = c.total;
    return SC_OK;
}
