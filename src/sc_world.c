/* slabcast worlds: lifetime, memory and object storage.
 *
 * Every block a world or scratch holds comes from its sc_allocator (malloc and free by
 * default) and goes back to it with its size. Arrays grow by doubling: a new block, the old
 * contents copied, the old block freed, so a failure leaves everything as it was.
 */
#include "sc_internal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- memory */

/* The default allocator keeps the sc_allocator promise of 16-byte alignment on every platform:
 * malloc alone does not (Emscripten's returns 8-byte aligned blocks). */
static void *sc_std_alloc(void *user, size_t bytes)
{
    (void)user;
    if (bytes > SIZE_MAX - 15) return NULL;
    size_t rounded = (bytes + 15) & ~(size_t)15; /* aligned_alloc wants a multiple of the alignment */
#if defined(_WIN32)
    return _aligned_malloc(rounded ? rounded : 16, 16);
#else
    return aligned_alloc(16, rounded ? rounded : 16);
#endif
}

static void sc_std_free(void *user, void *block, size_t bytes)
{
    (void)user;
    (void)bytes;
#if defined(_WIN32)
    _aligned_free(block);
#else
    free(block);
#endif
}

/* The allocator to copy into a new world or scratch: malloc and free for NULL; 0 when a given
 * allocator lacks a function. */
int sc__pick_allocator(const sc_allocator *given, sc_allocator *out)
{
    if (!given) {
        *out = (sc_allocator){sc_std_alloc, sc_std_free, NULL};
        return 1;
    }
    if (!given->alloc || !given->free) return 0;
    *out = *given;
    return 1;
}

void *sc__mem_alloc(const sc_allocator *m, size_t bytes) { return bytes ? m->alloc(m->user, bytes) : NULL; }

void sc__mem_free(const sc_allocator *m, void *block, size_t bytes)
{
    if (block) m->free(m->user, block, bytes);
}

/* The capacity to grow cap to so that it holds need (doubling from first); 0 past INT32_MAX. */
int sc__next_cap(int cap, int need, int first)
{
    int nc = cap ? cap : first;
    while (nc < need) {
        if (nc > INT32_MAX / 2) return 0;
        nc *= 2;
    }
    return nc;
}

/* Whether cap elements of elem bytes, plus 64 spare bytes, can be counted in a size_t: in wasm32
 * size_t has 32 bits, and a product that wrapped would allocate a small block for a large array. */
int sc__fits(int cap, size_t elem) { return cap >= 0 && (size_t)cap <= (SIZE_MAX - 64) / elem; }

/* Grows the array *p of *cap elements of elem bytes to hold need: a new block, the old
 * contents copied, the old block freed. 0 (and nothing changed) when out of memory. */
int sc__grow(const sc_allocator *m, void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap) return 1;
    int nc = sc__next_cap(*cap, need, 16);
    if (!nc || !sc__fits(nc, elem)) return 0;
    void *q = sc__mem_alloc(m, (size_t)nc * elem);
    if (!q) return 0;
    if (*cap > 0) memcpy(q, *p, (size_t)*cap * elem);
    sc__mem_free(m, *p, (size_t)*cap * elem);
    *p = q;
    *cap = nc;
    return 1;
}

/* Bytes of the block behind an array of cap 64-byte aligned elements (see sc__grow_aligned). */
size_t sc__aligned_bytes(int cap, size_t elem) { return (size_t)cap * elem + 64; }

/* Like sc__grow, for arrays of 64-byte aligned elements (nodes, groups). 64 spare bytes hold an
 * aligned start whatever the block's own alignment (48 assumed 16-byte aligned blocks, and the
 * array overran its block by up to 8 bytes under Emscripten's 8-byte aligned malloc: heap
 * corruption that trapped a later malloc); *raw keeps the block. */
int sc__grow_aligned(const sc_allocator *m, void **p, void **raw, int *cap, int need, size_t elem, int used)
{
    if (need <= *cap) return 1;
    int nc = sc__next_cap(*cap, need, 16);
    if (!nc || !sc__fits(nc, elem)) return 0;
    void *r = sc__mem_alloc(m, sc__aligned_bytes(nc, elem));
    if (!r) return 0;
    void *q = (void *)(((uintptr_t)r + 63) & ~(uintptr_t)63);
    if (used > 0) memcpy(q, *p, (size_t)used * elem);
    sc__mem_free(m, *raw, sc__aligned_bytes(*cap, elem));
    *raw = r;
    *p = q;
    *cap = nc;
    return 1;
}

/* The per-object arrays, as (pointer, element size) pairs. */
#define SC_OBJECT_ARRAYS 7
static void sc_object_arrays(sc_world *w, void ***ptr, size_t *elem)
{
    ptr[0] = (void **)&w->kind;    elem[0] = sizeof *w->kind;
    ptr[1] = (void **)&w->slot;    elem[1] = sizeof *w->slot;
    ptr[2] = (void **)&w->bounds;  elem[2] = sizeof *w->bounds;
    ptr[3] = (void **)&w->far;     elem[3] = sizeof *w->far;
    ptr[4] = (void **)&w->obj_ref; elem[4] = sizeof *w->obj_ref;
    ptr[5] = (void **)&w->mask;    elem[5] = sizeof *w->mask;
    ptr[6] = (void **)&w->enabled; elem[6] = sizeof *w->enabled;
}

/* Grows every per-object array to hold need objects: all new blocks are allocated before any
 * old one is released, so a failure changes nothing. */
static int sc_grow_objects(sc_world *w, int need)
{
    if (need <= w->cap) return 1;
    int nc = sc__next_cap(w->cap, need, 64);
    if (!nc) return 0;
    void **ptr[SC_OBJECT_ARRAYS], *fresh[SC_OBJECT_ARRAYS];
    size_t elem[SC_OBJECT_ARRAYS];
    sc_object_arrays(w, ptr, elem);
    for (int k = 0; k < SC_OBJECT_ARRAYS; ++k)
        if (!sc__fits(nc, elem[k])) return 0;
    for (int k = 0; k < SC_OBJECT_ARRAYS; ++k) {
        fresh[k] = sc__mem_alloc(&w->mem, (size_t)nc * elem[k]);
        if (!fresh[k]) {
            while (k-- > 0) sc__mem_free(&w->mem, fresh[k], (size_t)nc * elem[k]);
            return 0;
        }
    }
    for (int k = 0; k < SC_OBJECT_ARRAYS; ++k) {
        if (w->count > 0) memcpy(fresh[k], *ptr[k], (size_t)w->count * elem[k]);
        sc__mem_free(&w->mem, *ptr[k], (size_t)w->cap * elem[k]);
        *ptr[k] = fresh[k];
    }
    w->cap = nc;
    return 1;
}

sc_world *sc_world_create_with(const sc_allocator *allocator)
{
    sc_allocator m;
    if (!sc__pick_allocator(allocator, &m)) return NULL;
    sc_world *w = sc__mem_alloc(&m, sizeof *w);
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
    for (int k = 0; k < SC_OBJECT_ARRAYS; ++k) sc__mem_free(&m, *ptr[k], (size_t)w->cap * elem[k]);
    sc__mem_free(&m, w->obbs, (size_t)w->capobb * sizeof *w->obbs);
    sc__mem_free(&m, w->spheres, (size_t)w->capsph * sizeof *w->spheres);
    sc__mem_free(&m, w->capsules, (size_t)w->capcap * sizeof *w->capsules);
    sc__mem_free(&m, w->nodes_raw, sc__aligned_bytes(w->capnodes, sizeof(sc_node)));
    sc__mem_free(&m, w->groups_raw, sc__aligned_bytes(w->capgroups, sizeof(sc_group)));
    sc__mem_free(&m, w->far_list, (size_t)w->capfar * sizeof *w->far_list);
    sc__mem_free(&m, w->free_slots, (size_t)w->capfree * sizeof *w->free_slots);
    sc__mem_free(&m, w->scratch, (size_t)w->scratch_cap * 32 /* sizeof(sc_bprim) */);
    sc__mem_free(&m, w, sizeof *w);
}

int32_t sc_world_count(const sc_world *w) { return w ? w->count : 0; }
int32_t sc_world_live_count(const sc_world *w) { return w ? w->count - w->nfree : 0; }
int32_t sc_world_error_index(const sc_world *w) { return w ? w->error_index : -1; }
const char *sc_world_simd(void) { return sc__simd_name(); }
bool sc_world_is_committed(const sc_world *w) { return w && w->built && !w->dirty; }

size_t sc_world_bytes(const sc_world *w)
{
    if (!w) return 0;
    size_t per_obj = sizeof(uint8_t) * 3 + sizeof(int32_t) * 3 + sizeof(sc_aabb);
    return sizeof *w + (size_t)w->cap * per_obj + (size_t)w->capobb * sizeof(sc_obb) +
           (size_t)w->capsph * sizeof(sc_sphere) + (size_t)w->capcap * sizeof(sc_capsule) +
           sc__aligned_bytes(w->capnodes, sizeof(sc_node)) +
           sc__aligned_bytes(w->capgroups, sizeof(sc_group)) + (size_t)w->scratch_cap * 32 /* sizeof(sc_bprim) */ +
           (size_t)w->capfar * sizeof(int32_t) + (size_t)w->capfree * sizeof(int32_t);
}

/* --------------------------------------------------------------- objects */

/* A box that surely contains the closed ball despite float rounding: widened by a
 * relative 2^-10 of the magnitudes involved (culling only; leaf tests are exact). */
static sc_aabb sc_w_bound(sc_vec3 c, sc_vec3 e)
{
    float sx = (sc_w_abs(c.x) + e.x) * 0.0009765625f, sy = (sc_w_abs(c.y) + e.y) * 0.0009765625f,
          sz = (sc_w_abs(c.z) + e.z) * 0.0009765625f;
    sc_aabb b = {{c.x - e.x - sx, c.y - e.y - sy, c.z - e.z - sz}, {c.x + e.x + sx, c.y + e.y + sy, c.z + e.z + sz}};
    return b;
}

/* min(a, b) - r and max(a, b) + r, each rounded outwards (one float step beyond the rounded
 * value, which is within half a step of the exact one): the box holds the whole capsule. An
 * overflow gives an infinite bound, and the capsule goes to the far list. */
static float sc_w_down(float lo, float r) { return nextafterf(lo - r, -INFINITY); }
static float sc_w_up(float hi, float r) { return nextafterf(hi + r, INFINITY); }
static sc_aabb sc_w_capsule_bound(const sc_capsule *c)
{
    sc_aabb b;
    b.min.x = sc_w_down(c->a.x < c->b.x ? c->a.x : c->b.x, c->radius);
    b.min.y = sc_w_down(c->a.y < c->b.y ? c->a.y : c->b.y, c->radius);
    b.min.z = sc_w_down(c->a.z < c->b.z ? c->a.z : c->b.z, c->radius);
    b.max.x = sc_w_up(c->a.x > c->b.x ? c->a.x : c->b.x, c->radius);
    b.max.y = sc_w_up(c->a.y > c->b.y ? c->a.y : c->b.y, c->radius);
    b.max.z = sc_w_up(c->a.z > c->b.z ? c->a.z : c->b.z, c->radius);
    return b;
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
        if (kind == SC_SHAPE_AABB) {
            const float *p = data + (size_t)i * SC_AABB_FLOATS;
            sc_aabb b = {sc_w_v3(p), sc_w_v3(p + 3)};
            s = sc_aabb_check(&b);
        } else if (kind == SC_SHAPE_OBB) {
            sc_obb o = sc_w_read_obb(data + (size_t)i * SC_OBB_FLOATS);
            s = sc_obb_check(&o);
        } else if (kind == SC_SHAPE_SPHERE) {
            const float *p = data + (size_t)i * SC_SPHERE_FLOATS;
            sc_sphere sp = {sc_w_v3(p), p[3]};
            s = sc_sphere_check(&sp);
        } else {
            const float *p = data + (size_t)i * SC_CAPSULE_FLOATS;
            sc_capsule c = {sc_w_v3(p), sc_w_v3(p + 3), p[6]};
            s = sc_capsule_check(&c);
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
    if (kind == SC_SHAPE_AABB) {
        sc_aabb b = {sc_w_v3(p), sc_w_v3(p + 3)};
        w->bounds[i] = b;
        w->far[i] = (uint8_t)(sc_w_far3(b.min) || sc_w_far3(b.max));
    } else if (kind == SC_SHAPE_OBB) {
        sc_obb o = sc_w_read_obb(p);
        w->obbs[w->slot[i]] = o;
        w->bounds[i] = sc__obb_bounds(&o); /* the whole slab set (sc_obb_bounds.c) */
        w->far[i] = (uint8_t)(sc_w_far3(w->bounds[i].min) || sc_w_far3(w->bounds[i].max));
    } else if (kind == SC_SHAPE_SPHERE) {
        sc_sphere sp = {sc_w_v3(p), p[3]};
        w->spheres[w->slot[i]] = sp;
        w->bounds[i] = sc_w_bound(sp.center, (sc_vec3){sp.radius, sp.radius, sp.radius});
        w->far[i] = (uint8_t)(sc_w_far3(w->bounds[i].min) || sc_w_far3(w->bounds[i].max));
    } else {
        sc_capsule c = {sc_w_v3(p), sc_w_v3(p + 3), p[6]};
        w->capsules[w->slot[i]] = c;
        w->bounds[i] = sc_w_capsule_bound(&c);
        w->far[i] = (uint8_t)(sc_w_far3(w->bounds[i].min) || sc_w_far3(w->bounds[i].max));
    }
}

/* A fresh or reused slot o for an object of kind: enabled, all mask bits, outside the BVH until
 * the next build, and its OBB / sphere record (a reused slot keeps its record when the kind is
 * the same; room was made by the caller). */
static void sc_w_init_slot(sc_world *w, int o, int kind)
{
    int same = w->slot[o] >= 0 && (w->kind[o] & ~SC_KIND_REMOVED) == kind;
    if (!same)
        w->slot[o] = kind == SC_SHAPE_OBB      ? w->nobb++
                     : kind == SC_SHAPE_SPHERE  ? w->nsph++
                     : kind == SC_SHAPE_CAPSULE ? w->ncap++
                                                : -1;
    w->kind[o] = (uint8_t)kind;
    w->mask[o] = 0xFFFFFFFFu;
    w->enabled[o] = 1;
    w->obj_ref[o] = -1;
}

static int sc_w_floats(int kind)
{
    return kind == SC_SHAPE_AABB     ? SC_AABB_FLOATS
           : kind == SC_SHAPE_OBB    ? SC_OBB_FLOATS
           : kind == SC_SHAPE_SPHERE ? SC_SPHERE_FLOATS
                                     : SC_CAPSULE_FLOATS;
}

static sc_status sc_w_add(sc_world *w, const float *data, int32_t n, int32_t *first, int kind)
{
    if (!w) return SC_ERR_NULL;
    sc_status s = sc_w_check_batch(w, data, n, kind);
    if (s != SC_OK) return s;
    if (n > SC_WORLD_MAX_OBJECTS - w->count) return SC_ERR_COUNT;
    int floats = sc_w_floats(kind);
    /* Allocate everything first: a refused call leaves the world unchanged. */
    if (!sc_grow_objects(w, w->count + n)) return SC_ERR_NO_MEMORY;
    if (kind == SC_SHAPE_OBB && !sc__grow(&w->mem, (void **)&w->obbs, &w->capobb, w->nobb + n, sizeof(sc_obb))) return SC_ERR_NO_MEMORY;
    if (kind == SC_SHAPE_SPHERE && !sc__grow(&w->mem, (void **)&w->spheres, &w->capsph, w->nsph + n, sizeof(sc_sphere)))
        return SC_ERR_NO_MEMORY;
    if (kind == SC_SHAPE_CAPSULE &&
        !sc__grow(&w->mem, (void **)&w->capsules, &w->capcap, w->ncap + n, sizeof(sc_capsule)))
        return SC_ERR_NO_MEMORY;
    if (n == 1 && w->nfree > 0) {
        /* one object takes the most recently freed slot */
        int o = w->free_slots[--w->nfree];
        sc_w_init_slot(w, o, kind);
        sc_w_store(w, o, kind, data);
        if (first) *first = o;
        w->built = 0;
        return SC_OK;
    }
    int base = w->count;
    for (int i = 0; i < n; ++i) {
        int o = base + i;
        w->slot[o] = -1;
        sc_w_init_slot(w, o, kind);
        sc_w_store(w, o, kind, data + (size_t)i * (size_t)floats);
    }
    w->count += n;
    if (first) *first = base;
    if (n > 0) w->built = 0;
    return SC_OK;
}

sc_status sc_world_add_aabbs(sc_world *w, const float *b, int32_t n, int32_t *first) { return sc_w_add(w, b, n, first, SC_SHAPE_AABB); }
sc_status sc_world_add_obbs(sc_world *w, const float *b, int32_t n, int32_t *first) { return sc_w_add(w, b, n, first, SC_SHAPE_OBB); }
sc_status sc_world_add_spheres(sc_world *w, const float *b, int32_t n, int32_t *first) { return sc_w_add(w, b, n, first, SC_SHAPE_SPHERE); }
sc_status sc_world_add_capsules(sc_world *w, const float *b, int32_t n, int32_t *first) { return sc_w_add(w, b, n, first, SC_SHAPE_CAPSULE); }

static sc_status sc_w_update(sc_world *w, int first, const float *data, int n, int kind)
{
    if (!w) return SC_ERR_NULL;
    sc_status s = sc_w_check_batch(w, data, n, kind);
    if (s != SC_OK) return s;
    if (first < 0 || first > w->count || n > w->count - first) return SC_ERR_RANGE;
    for (int i = 0; i < n; ++i) {
        if (w->kind[first + i] != kind) {
            w->error_index = i;
            return w->kind[first + i] & SC_KIND_REMOVED ? SC_ERR_REMOVED : SC_ERR_KIND;
        }
    }
    int floats = sc_w_floats(kind);
    for (int i = 0; i < n; ++i) {
        int o = first + i;
        uint8_t was_far = w->far[o];
        sc_w_store(w, o, kind, data + (size_t)i * (size_t)floats);
        if (w->far[o] != was_far) w->built = 0; /* moves between the BVH and the far list */
    }
    if (n > 0) w->dirty = 1;
    return SC_OK;
}

sc_status sc_world_update_aabbs(sc_world *w, int32_t f, const float *b, int32_t n) { return sc_w_update(w, f, b, n, SC_SHAPE_AABB); }
sc_status sc_world_update_obbs(sc_world *w, int32_t f, const float *b, int32_t n) { return sc_w_update(w, f, b, n, SC_SHAPE_OBB); }
sc_status sc_world_update_spheres(sc_world *w, int32_t f, const float *b, int32_t n) { return sc_w_update(w, f, b, n, SC_SHAPE_SPHERE); }
sc_status sc_world_update_capsules(sc_world *w, int32_t f, const float *b, int32_t n) { return sc_w_update(w, f, b, n, SC_SHAPE_CAPSULE); }

/* ------------------------------------------------------- remove, enable, masks */

/* Lane of object o in its group (or NULL when it lies in the far list or outside the BVH). */
static sc_group *sc_w_lane(sc_world *w, int o, int *lane)
{
    int32_t ref = w->obj_ref[o];
    if (ref < 0 || !w->built) return NULL;
    *lane = ref & 3;
    return &w->groups[ref >> 2];
}

sc_status sc_world_remove(sc_world *w, int32_t index)
{
    if (!w) return SC_ERR_NULL;
    w->error_index = -1;
    if (index < 0 || index >= w->count) return SC_ERR_RANGE;
    if (w->kind[index] & SC_KIND_REMOVED) return SC_ERR_REMOVED;
    if (w->nfree == w->capfree &&
        !sc__grow(&w->mem, (void **)&w->free_slots, &w->capfree, w->nfree + 1, sizeof *w->free_slots))
        return SC_ERR_NO_MEMORY;
    int lane;
    sc_group *g = sc_w_lane(w, index, &lane);
    if (g) {
        /* out of its leaf at once: an empty lane (inverted bounds) that no test can hit */
        g->idx[lane] = -1;
        g->live &= ~(1 << lane);
        for (int a = 0; a < 3; ++a) {
            g->lo[a][lane] = INFINITY;
            g->hi[a][lane] = -INFINITY;
        }
        w->loose = 1;
    }
    if (w->mask[index] == 0) w->nzero_mask--;
    w->kind[index] |= SC_KIND_REMOVED;
    w->enabled[index] = 0;
    w->obj_ref[index] = -1;
    w->bounds[index] = (sc_aabb){{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    w->free_slots[w->nfree++] = index;
    return SC_OK;
}

/* The checks set_enabled and set_masks share: world, count, NULL data, range, removed. */
static sc_status sc_w_check_range(sc_world *w, int32_t first, const void *data, int32_t n)
{
    if (!w) return SC_ERR_NULL;
    w->error_index = -1;
    if (n < 0 || n > SC_WORLD_MAX_OBJECTS) return SC_ERR_COUNT;
    if (n > 0 && !data) return SC_ERR_NULL;
    if (first < 0 || first > w->count || n > w->count - first) return SC_ERR_RANGE;
    for (int32_t i = 0; i < n; ++i) {
        if (w->kind[first + i] & SC_KIND_REMOVED) {
            w->error_index = i;
            return SC_ERR_REMOVED;
        }
    }
    return SC_OK;
}

sc_status sc_world_set_enabled(sc_world *w, int32_t first, const bool *flags, int32_t n)
{
    sc_status s = sc_w_check_range(w, first, flags, n);
    if (s != SC_OK) return s;
    for (int32_t i = 0; i < n; ++i) {
        int o = first + i;
        w->enabled[o] = flags[i] ? 1 : 0;
        int lane;
        sc_group *g = sc_w_lane(w, o, &lane);
        if (g) g->live = flags[i] ? g->live | 1 << lane : g->live & ~(1 << lane);
    }
    return SC_OK;
}

sc_status sc_world_set_masks(sc_world *w, int32_t first, const uint32_t *masks, int32_t n)
{
    sc_status s = sc_w_check_range(w, first, masks, n);
    if (s != SC_OK) return s;
    for (int32_t i = 0; i < n; ++i) {
        int o = first + i;
        w->nzero_mask += (masks[i] == 0) - (w->mask[o] == 0);
        w->mask[o] = masks[i];
    }
    return SC_OK;
}

int32_t sc_world_kind(const sc_world *w, int32_t index)
{
    if (!w || index < 0 || index >= w->count || (w->kind[index] & SC_KIND_REMOVED)) return 0;
    return w->kind[index];
}

sc_query_filter sc_query_filter_default(void) { return (sc_query_filter){0xFFFFFFFFu, NULL, SC_INSIDE_SOLID}; }
