/* Pointer-based entry points for the WebAssembly build.
 *
 * JS writes inputs into linear memory as the plain C structs of slabcast.h
 * (every member is 4 bytes: int32 or float32, no padding), calls one export,
 * and reads the result struct back. One call per query, not one per number.
 *
 * Layout (byte offsets; all little-endian 4-byte fields):
 *   sc_ray              0: origin xyz, 12: dir xyz, 24: tmax                (28 bytes)
 *   sc_segment          0: a xyz, 12: b xyz                                 (24 bytes)
 *   sc_vec3             0: x y z                                            (12 bytes)
 *   sc_shape            0: int32 type (1 aabb, 2 obb, 3 sphere, 4 plane, 5 capsule), then from 4:
 *                          aabb:    min xyz, max xyz
 *                          obb:     center xyz, axes[0] xyz, axes[1] xyz, axes[2] xyz, half xyz
 *                          sphere:  center xyz, radius
 *                          plane:   normal xyz, d
 *                          capsule: a xyz, b xyz, radius                    (64 bytes)
 *   sc_raycast_result   0: int32 status, 4: int32 hit (0 or 1), 8: t, 12: t_enter, 16: t_exit,
 *                       20: point xyz, 32: normal xyz                       (44 bytes)
 *   sc_test_result      0: int32 status, 4: int32 value (0 or 1)            (8 bytes)
 *
 * In C, hit and value are bool (one byte, then padding): the exports below write the structs
 * field by field over zeroed memory, so JS may read them as int32.
 *   sc_point_result     0: int32 status, 4: point xyz                       (16 bytes)
 *
 * sc_wasm_scratch() returns a static, 16-byte aligned area of SC_WASM_SCRATCH_BYTES
 * that JS may use for these structs (no allocation is needed for single queries).
 */
#include "slabcast.h"
#include "sc_internal.h" /* sc__overlap_checked: the brute-force overlaps for the benchmark */
#include "sc_single.h"   /* sc_obb_axes_ok: sc_obb_check's orthonormality test */

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#if defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
#define SC_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define SC_EXPORT
#endif

#define SC_WASM_SCRATCH_BYTES 512

_Static_assert(sizeof(sc_ray) == 28, "sc_ray layout");
_Static_assert(sizeof(sc_segment) == 24, "sc_segment layout");
_Static_assert(sizeof(sc_shape) == 64, "sc_shape layout");
_Static_assert(offsetof(sc_shape, u) == 4, "sc_shape union offset");
_Static_assert(sizeof(sc_capsule) == 28, "sc_capsule layout: a xyz, b xyz, radius");
_Static_assert(sizeof(sc_raycast_result) == 44, "sc_raycast_result layout");
_Static_assert(sizeof(sc_test_result) == 8, "sc_test_result layout");
_Static_assert(sizeof(sc_point_result) == 16, "sc_point_result layout");

static _Alignas(16) unsigned char sc_scratch_area[SC_WASM_SCRATCH_BYTES];

/// The static scratch area for single queries.
SC_EXPORT void *sc_wasm_scratch(void) { return sc_scratch_area; }

/// Size of the scratch area in bytes.
SC_EXPORT int sc_wasm_scratch_bytes(void) { return SC_WASM_SCRATCH_BYTES; }

/* Copies a result over zeroed memory, so that the padding after a bool reads as 0. */
static void sc_wasm_put_raycast(sc_raycast_result *out, sc_raycast_result r)
{
    memset(out, 0, sizeof *out);
    out->status = r.status;
    out->hit = r.hit;
    out->t = r.t;
    out->t_enter = r.t_enter;
    out->t_exit = r.t_exit;
    out->point = r.point;
    out->normal = r.normal;
}

static void sc_wasm_put_test(sc_test_result *out, sc_test_result r)
{
    memset(out, 0, sizeof *out);
    out->status = r.status;
    out->value = r.value;
}

/// Raycast; writes *out.
SC_EXPORT void sc_wasm_raycast(const sc_ray *ray, const sc_shape *shape, sc_raycast_result *out)
{
    if (out) sc_wasm_put_raycast(out, sc_raycast(ray, shape));
}

/* The io exports' answer: 1 (hit: io[0..8] become t, t_enter, t_exit, point, normal), 0 (miss)
 * or -status (invalid input; io unchanged). */
static int sc_wasm_io_result(float *io, const sc_raycast_result *r)
{
    if (r->status != SC_OK) return -(int)r->status;
    if (!r->hit) return 0;
    io[0] = r->t;
    io[1] = r->t_enter;
    io[2] = r->t_exit;
    io[3] = r->point.x;
    io[4] = r->point.y;
    io[5] = r->point.z;
    io[6] = r->normal.x;
    io[7] = r->normal.y;
    io[8] = r->normal.z;
    return 1;
}

/// One ray against one AABB without structs, for the allocation-free JS call: io holds the ray
/// (7 floats: origin, dir, tmax) then the box (6: min, max); on a hit io[0..8] become t, t_enter,
/// t_exit, point, normal. Returns 1 (hit), 0 (miss) or -status (invalid input; io unchanged).
SC_EXPORT int sc_wasm_raycast_aabb_io(float *io)
{
    sc_ray ray = {{io[0], io[1], io[2]}, {io[3], io[4], io[5]}, io[6]};
    sc_aabb box = {{io[7], io[8], io[9]}, {io[10], io[11], io[12]}};
    sc_raycast_result r = sc_raycast_aabb(&ray, &box);
    return sc_wasm_io_result(io, &r);
}

/* Whether the ray and the box in io (as sc_wasm_raycast_obb_io reads them) pass sc_ray_check and
 * sc_obb_check, tested at once: every float but tmax finite (x - x is +0 for a finite float and NaN
 * for an infinity or a NaN, so their sum is 0 exactly when all are finite), the dir not zero,
 * tmax >= 0 (NaN fails), half >= 0, and sc_obb_check's orthonormality test itself
 * (sc_obb_axes_ok on box, the same floats). True exactly when both checks return SC_OK: then
 * sc__raycast_obb_valid is sc_raycast_obb's answer; otherwise sc_raycast_obb gives the status. One
 * pass instead of the checks' component-by-component branches. */
static int sc_wasm_obb_io_valid(const float *io, const sc_obb *box)
{
    float z = 0.0f;
    for (int k = 0; k < 22; ++k)
        if (k != 6) z += io[k] - io[k];
    if (!(z == 0.0f) || (io[3] == 0.0f && io[4] == 0.0f && io[5] == 0.0f) || !(io[6] >= 0.0f) ||
        io[19] < 0.0f || io[20] < 0.0f || io[21] < 0.0f)
        return 0;
    return sc_obb_axes_ok(box->axes);
}

/// One ray against one OBB without structs, for sc.raycast's OBB path: io holds the ray (7 floats:
/// origin, dir, tmax) then the box (15: center, axes[0..2], half); on a hit io[0..8] become t,
/// t_enter, t_exit, point, normal. Returns 1 (hit), 0 (miss) or -status (invalid input; io
/// unchanged): sc_raycast_obb's answer, which is sc_raycast's for that shape. Most hits are
/// certified in plain double (sc__raycast_obb_hit, sc_obb.c) without the exact sums; the rest go to
/// the exact test.
SC_EXPORT int sc_wasm_raycast_obb_io(float *io)
{
    sc_ray ray = {{io[0], io[1], io[2]}, {io[3], io[4], io[5]}, io[6]};
    sc_obb box = {{io[7], io[8], io[9]},
                  {{io[10], io[11], io[12]}, {io[13], io[14], io[15]}, {io[16], io[17], io[18]}},
                  {io[19], io[20], io[21]}};
    sc_raycast_result r;
    if (!sc_wasm_obb_io_valid(io, &box)) r = sc_raycast_obb(&ray, &box); /* the status */
    else if (!sc__raycast_obb_hit(&ray, &box, &r)) r = sc__raycast_obb_valid(&ray, &box);
    return sc_wasm_io_result(io, &r);
}

/// Linetest; writes *out.
SC_EXPORT void sc_wasm_linetest(const sc_segment *segment, const sc_shape *shape, sc_test_result *out)
{
    if (out) sc_wasm_put_test(out, sc_linetest(segment, shape));
}

/// Closest point; writes *out.
SC_EXPORT void sc_wasm_closest_point(const sc_vec3 *p, const sc_shape *shape, sc_point_result *out)
{
    if (!out) return;
    if (!p) { out->status = SC_ERR_NULL; out->point = (sc_vec3){0, 0, 0}; return; }
    *out = sc_closest_point(*p, shape);
}

/// Contains; writes *out.
SC_EXPORT void sc_wasm_contains(const sc_vec3 *p, const sc_shape *shape, sc_test_result *out)
{
    if (!out) return;
    if (!p) { sc_wasm_put_test(out, (sc_test_result){SC_ERR_NULL, false}); return; }
    sc_wasm_put_test(out, sc_contains(*p, shape));
}

/// The library's version string (static storage).
SC_EXPORT const char *sc_wasm_version(void) { return sc_version(); }

/// The NUL-terminated message of a status (static storage).
SC_EXPORT const char *sc_wasm_status_message(int status) { return sc_status_message((sc_status)status); }

/* ------------------------------------------------------------------ worlds
 * JS allocates staging buffers with sc_wasm_alloc (any call that allocates may grow the
 * memory: JS re-derives its views after each), passes pointers to the sc_world_* calls, and
 * copies results out. */
#include <stdlib.h>

/// malloc for JS staging buffers (16-byte aligned); 0 when out of memory.
SC_EXPORT void *sc_wasm_alloc(int bytes) { return bytes > 0 ? malloc((size_t)bytes) : NULL; }
/// free for sc_wasm_alloc.
SC_EXPORT void sc_wasm_free(void *p) { free(p); }

/* The JS module is single-threaded: one scratch serves every query of this instance, and the
 * element index of the last refused world call (add, update or query) is kept here. */
static sc_scratch *sc_wasm_query_scratch;
static int sc_wasm_last_error = -1;

/// The element index of the last world call refused because of one element, else -1.
SC_EXPORT int sc_wasm_error_index(void) { return sc_wasm_last_error; }

/* An overlap volume of kind (1 aabb: 6 floats, 3 sphere: 4, 2 obb: 15, 5 capsule: 7, 0 frustum: 24
 * planes' floats, used as they are) as the core's struct, in *v; the address to pass; NULL for
 * another kind. */
typedef union sc_wasm_volume {
    sc_aabb box;
    sc_sphere sphere;
    sc_obb obb;
    sc_capsule capsule;
} sc_wasm_volume;

static const void *sc_wasm_volume_of(int kind, const float *f, sc_wasm_volume *v)
{
    switch (kind) {
    case SC_SHAPE_AABB: v->box = (sc_aabb){{f[0], f[1], f[2]}, {f[3], f[4], f[5]}}; return &v->box;
    case SC_SHAPE_SPHERE: v->sphere = (sc_sphere){{f[0], f[1], f[2]}, f[3]}; return &v->sphere;
    case SC_SHAPE_OBB:
        v->obb.center = (sc_vec3){f[0], f[1], f[2]};
        for (int i = 0; i < 3; ++i) v->obb.axes[i] = (sc_vec3){f[3 + 3 * i], f[4 + 3 * i], f[5 + 3 * i]};
        v->obb.half = (sc_vec3){f[12], f[13], f[14]};
        return &v->obb;
    case SC_SHAPE_CAPSULE: v->capsule = (sc_capsule){{f[0], f[1], f[2]}, {f[3], f[4], f[5]}, f[6]}; return &v->capsule;
    case 0: return f;
    default: return NULL;
    }
}

/* The checks of one volume of an overlap (kind as sc_wasm_volume_of), as the overlap query runs them. */
static sc_status sc_wasm_volume_check(int kind, const float *f)
{
    sc_wasm_volume v;
    const void *p = sc_wasm_volume_of(kind, f, &v);
    switch (kind) {
    case SC_SHAPE_AABB: return sc_aabb_check(p);
    case SC_SHAPE_SPHERE: return sc_sphere_check(p);
    case SC_SHAPE_OBB: return sc_obb_check(p);
    case SC_SHAPE_CAPSULE: return sc_capsule_check(p);
    case 0:
        for (int k = 0; k < 6; ++k) {
            sc_plane pl = {{f[4 * k], f[4 * k + 1], f[4 * k + 2]}, f[4 * k + 3]};
            sc_status s = sc_plane_check(&pl);
            if (s != SC_OK) return s;
        }
        return SC_OK;
    default: return SC_ERR_SHAPE_TYPE;
    }
}

/* Floats per overlap volume of kind (sc_wasm_volume_of), 0 for none. */
static int sc_wasm_volume_floats(int kind)
{
    static const int per[6] = {24, 6, 15, 4, 0, 7};
    return kind >= 0 && kind < 6 ? per[kind] : 0;
}

/* The item checks of a batch query (op as web/parallel/protocol.js's QUERY: 0 castRays, 1 anyHit,
 * 2 castSegments, 3 castSpheres, 4 castBoxes, 5 castCapsules, 6 closestObjects' points, 7 castRayAll's
 * rays, 8 + kind an overlap's volumes of kind, as sc_wasm_volume_of), without running it: the parallel
 * world refuses bad items on the calling thread before any worker sees them. The refused item: error_index. */
SC_EXPORT int sc_wasm_check_batch(int op, const float *items, int n)
{
    int32_t bad = -1;
    sc_status s = SC_OK;
    if (op <= 5) {
        s = sc__check_batch(op, items, n, &bad);
    } else if (n < 0) {
        s = SC_ERR_COUNT;
    } else if (n > 0 && !items) {
        s = SC_ERR_NULL;
    } else if (op == 6) {
        for (int i = 0; i < n && s == SC_OK; ++i) {
            const float *p = items + 3 * (size_t)i;
            if (sc_point_check((sc_vec3){p[0], p[1], p[2]}) != SC_OK) { s = SC_ERR_POINT; bad = i; }
        }
    } else if (op == 7) {
        s = sc__check_batch(0, items, n, &bad);
    } else {
        int per = sc_wasm_volume_floats(op - 8);
        if (per == 0) return SC_ERR_SHAPE_TYPE;
        for (int i = 0; i < n && s == SC_OK; ++i) {
            s = sc_wasm_volume_check(op - 8, items + (size_t)per * (size_t)i);
            if (s != SC_OK) bad = i;
        }
    }
    sc_wasm_last_error = bad;
    return (int)s;
}

SC_EXPORT sc_world *sc_wasm_world_create(void) { return sc_world_create(); }
SC_EXPORT void sc_wasm_world_destroy(sc_world *w) { sc_world_destroy(w); }
SC_EXPORT int sc_wasm_world_count(const sc_world *w) { return sc_world_count(w); }
SC_EXPORT int sc_wasm_world_live_count(const sc_world *w) { return sc_world_live_count(w); }
SC_EXPORT double sc_wasm_world_bytes(const sc_world *w) { return (double)sc_world_bytes(w); }
/// Adds n objects of kind (an sc_shape_type: 1 aabb, 2 obb, 3 sphere, 5 capsule); *first gets the first index.
SC_EXPORT int sc_wasm_world_add(sc_world *w, int kind, const float *data, int n, int *first)
{
    sc_status s;
    switch (kind) {
    case SC_SHAPE_AABB: s = sc_world_add_aabbs(w, data, n, first); break;
    case SC_SHAPE_OBB: s = sc_world_add_obbs(w, data, n, first); break;
    case SC_SHAPE_SPHERE: s = sc_world_add_spheres(w, data, n, first); break;
    case SC_SHAPE_CAPSULE: s = sc_world_add_capsules(w, data, n, first); break;
    default: s = SC_ERR_SHAPE_TYPE; break;
    }
    sc_wasm_last_error = sc_world_error_index(w);
    return s;
}
/// Replaces objects first.. of kind (an sc_shape_type: 1 aabb, 2 obb, 3 sphere, 5 capsule).
SC_EXPORT int sc_wasm_world_update(sc_world *w, int kind, int first, const float *data, int n)
{
    sc_status s;
    switch (kind) {
    case SC_SHAPE_AABB: s = sc_world_update_aabbs(w, first, data, n); break;
    case SC_SHAPE_OBB: s = sc_world_update_obbs(w, first, data, n); break;
    case SC_SHAPE_SPHERE: s = sc_world_update_spheres(w, first, data, n); break;
    case SC_SHAPE_CAPSULE: s = sc_world_update_capsules(w, first, data, n); break;
    default: s = SC_ERR_SHAPE_TYPE; break;
    }
    sc_wasm_last_error = sc_world_error_index(w);
    return s;
}
SC_EXPORT int sc_wasm_world_refit(sc_world *w) { sc_wasm_last_error = -1; return sc_world_refit(w); }
SC_EXPORT int sc_wasm_world_build(sc_world *w) { sc_wasm_last_error = -1; return sc_world_build(w); }
SC_EXPORT int sc_wasm_world_commit(sc_world *w) { sc_wasm_last_error = -1; return sc_world_commit(w); }

/* Before a JS query: commit the world (JS worlds commit by themselves) and make the scratch
 * hold n rays. Memory short for the scratch only costs speed: the query then runs in input
 * order. */
static sc_status sc_wasm_before_query(sc_world *w, int n)
{
    sc_wasm_last_error = -1;
    if (!w) return SC_ERR_NULL;
    sc_status s = sc_world_commit(w);
    if (s != SC_OK) return s;
    if (!sc_wasm_query_scratch) sc_wasm_query_scratch = sc_scratch_create();
    if (sc_wasm_query_scratch && n >= SC_SCRATCH_MIN_RAYS) (void)sc_scratch_reserve(sc_wasm_query_scratch, n);
    return SC_OK;
}

static sc_status sc_wasm_after_query(sc_status s)
{
    if (s != SC_OK && sc_wasm_query_scratch) sc_wasm_last_error = sc_scratch_error_index(sc_wasm_query_scratch);
    return s;
}

/// Nearest hit per ray; filter is an sc_query_filter in wasm memory, or 0 for the default.
SC_EXPORT int sc_wasm_world_cast_rays(sc_world *w, const float *rays, int n, float *t, int *index, float *normal,
                                      const sc_query_filter *filter)
{
    sc_status s = sc_wasm_before_query(w, n);
    if (s != SC_OK) return s;
    return sc_wasm_after_query(sc_world_cast_rays(w, rays, n, t, index, normal, filter, sc_wasm_query_scratch));
}
SC_EXPORT int sc_wasm_world_cast_rays_bruteforce(sc_world *w, const float *rays, int n, float *t, int *index,
                                                 float *normal, const sc_query_filter *filter)
{
    sc_status s = sc_wasm_before_query(w, 0);
    if (s != SC_OK) return s;
    return sc_wasm_after_query(sc_world_cast_rays_bruteforce(w, rays, n, t, index, normal, filter, sc_wasm_query_scratch));
}
/// Any hit per ray into hit[i] (int32 0 or 1: the bools are written into the front of the
/// array, then widened in place from the back, so no buffer is needed).
SC_EXPORT int sc_wasm_world_any_hit(sc_world *w, const float *rays, int n, int *hit, const sc_query_filter *filter)
{
    sc_status s = sc_wasm_before_query(w, n);
    if (s != SC_OK) return s;
    bool *flags = (bool *)(void *)hit;
    s = sc_wasm_after_query(sc_world_any_hit(w, rays, n, flags, filter, sc_wasm_query_scratch));
    if (s != SC_OK) return s;
    for (int i = n - 1; i >= 0; --i) {
        bool f;
        memcpy(&f, (const unsigned char *)hit + i, sizeof f);
        hit[i] = f ? 1 : 0;
    }
    return SC_OK;
}
/// Every hit of one ray (SC_RAY_FLOATS floats), nearest first; the first min(*total, cap) hits to t, index, normal.
SC_EXPORT int sc_wasm_world_cast_ray_all(sc_world *w, const float *ray, int cap, float *t, int *index, float *normal,
                                         int *total, const sc_query_filter *filter)
{
    sc_status s = sc_wasm_before_query(w, 0);
    if (s != SC_OK) return s;
    return sc_world_cast_ray_all(w, ray, cap, t, index, normal, total, filter);
}
SC_EXPORT int sc_wasm_world_cast_segments(sc_world *w, const float *segs, int n, float *t, int *index, float *normal,
                                          const sc_query_filter *filter)
{
    sc_status s = sc_wasm_before_query(w, 0);
    if (s != SC_OK) return s;
    return sc_wasm_after_query(sc_world_cast_segments(w, segs, n, t, index, normal, filter, sc_wasm_query_scratch));
}

/// Sphere (kind 0), box (1) or capsule (2) sweeps: t, index, normal, point per sweep; brute: without the BVH.
SC_EXPORT int sc_wasm_world_sweeps(sc_world *w, int kind, int brute, const float *sweeps, int n, float *t, int *index,
                                   float *normal, float *point, const sc_query_filter *filter)
{
    sc_status s = sc_wasm_before_query(w, 0);
    if (s != SC_OK) return s;
    sc_scratch *sc = sc_wasm_query_scratch;
    if (kind == 1) {
        s = brute ? sc_world_cast_boxes_bruteforce(w, sweeps, n, t, index, normal, point, filter, sc)
                  : sc_world_cast_boxes(w, sweeps, n, t, index, normal, point, filter, sc);
    } else if (kind == 2) {
        s = brute ? sc_world_cast_capsules_bruteforce(w, sweeps, n, t, index, normal, point, filter, sc)
                  : sc_world_cast_capsules(w, sweeps, n, t, index, normal, point, filter, sc);
    } else {
        s = brute ? sc_world_cast_spheres_bruteforce(w, sweeps, n, t, index, normal, point, filter, sc)
                  : sc_world_cast_spheres(w, sweeps, n, t, index, normal, point, filter, sc);
    }
    return sc_wasm_after_query(s);
}

/* The overlap query of one volume in floats (as sc_wasm_volume_of) on a committed world; for
 * sc_wasm_world_overlap and the shared-memory build's workers (slabcast_wasm_mt.c). */
sc_status sc_wasm_overlap_floats(const sc_world *w, int kind, const float *shape, int32_t *out, int32_t cap,
                                 int32_t *total, const sc_query_filter *filter, int brute)
{
    if (!shape) return SC_ERR_NULL;
    sc_wasm_volume v;
    const void *p = sc_wasm_volume_of(kind, shape, &v);
    if (!p) return SC_ERR_SHAPE_TYPE;
    return sc__overlap_checked(w, kind, p, out, cap, total, filter, brute);
}

/// Overlaps: kind 1 aabb (6 floats), 3 sphere (4), 2 obb (15), 5 capsule (7), 0 frustum (24) at shape; the cap
/// smallest indices ascending in out, the count in *total; brute: without the BVH.
SC_EXPORT int sc_wasm_world_overlap(sc_world *w, int kind, const float *shape, int *out, int cap, int *total,
                                    const sc_query_filter *filter, int brute)
{
    sc_status s = sc_wasm_before_query(w, 0);
    if (s != SC_OK) return s;
    return sc_wasm_overlap_floats(w, kind, shape, out, cap, total, filter, brute);
}

/* The lists of items [first, first + m) of a batch (op 7: rays, castRayAll's hits in t, index,
 * normal; 8 + kind: overlap volumes, their objects in index), one query per item: item i writes at
 * most start[i + 1] - start[i] hits from hit start[i] and its number of hits to total[i]. filter
 * (NULL for the default): mask and inside for every item, exclude one entry per item of the batch
 * (or NULL). *bad gets a refused item's index among the m. For sc_wasm_world_lists and the
 * shared-memory build's workers (slabcast_wasm_mt.c). */
sc_status sc_wasm_lists_range(const sc_world *w, int op, const float *items, int32_t first, int32_t m,
                              const int32_t *start, int32_t *total, int32_t *index, float *t, float *normal,
                              const sc_query_filter *filter, int32_t *bad)
{
    *bad = -1;
    const int per = op == 7 ? SC_RAY_FLOATS : sc_wasm_volume_floats(op - 8);
    if (per == 0) return SC_ERR_SHAPE_TYPE;
    if (!items || !start || !total || !index || (op == 7 && (!t || !normal))) return SC_ERR_NULL;
    for (int32_t i = first; i < first + m; ++i) {
        sc_query_filter one;
        const sc_query_filter *f = NULL;
        if (filter) {
            one.mask = filter->mask;
            one.exclude = filter->exclude ? filter->exclude + i : NULL;
            one.inside = filter->inside;
            f = &one;
        }
        const int32_t at = start[i];
        const int32_t cap = start[i + 1] - at;
        const float *in = items + (size_t)i * (size_t)per;
        sc_status s = op == 7 ? sc_world_cast_ray_all(w, in, cap, t + at, index + at, normal + 3 * (size_t)at, total + i, f)
                              : sc_wasm_overlap_floats(w, op - 8, in, index + at, cap, total + i, f, 0);
        if (s != SC_OK) {
            *bad = i - first;
            return s;
        }
    }
    return SC_OK;
}

/// castRayAll (op 7) or overlaps (op 8 + kind) of n items at once, as sc_wasm_lists_range (slabcast/parallel).
SC_EXPORT int sc_wasm_world_lists(sc_world *w, int op, const float *items, int n, const int32_t *start, int32_t *total,
                                  int32_t *index, float *t, float *normal, const sc_query_filter *filter)
{
    sc_status s = sc_wasm_before_query(w, 0);
    if (s != SC_OK) return s;
    int32_t bad = -1;
    s = sc_wasm_lists_range(w, op, items, 0, n, start, total, index, t, normal, filter, &bad);
    sc_wasm_last_error = bad;
    return s;
}

/// The nearest object to each point within max_distance: index, distance, point.
SC_EXPORT int sc_wasm_world_closest_objects(sc_world *w, const float *points, int n, float max_distance, int *index,
                                            float *distance, float *point, const sc_query_filter *filter, int brute)
{
    sc_status s = sc_wasm_before_query(w, 0);
    if (s != SC_OK) return s;
    return sc_wasm_after_query(sc__closest_objects(w, points, n, max_distance, index, distance, point, filter,
                                                   sc_wasm_query_scratch, brute));
}

/// Frees object index (docs/semantics.md, "Filters"); no other index changes.
SC_EXPORT int sc_wasm_world_remove(sc_world *w, int index) { sc_wasm_last_error = -1; return sc_world_remove(w, index); }
/// Enabled flags of objects first.. from n bytes (0: disabled, anything else: enabled).
SC_EXPORT int sc_wasm_world_set_enabled(sc_world *w, int first, const unsigned char *flags, int n)
{
    /* The bytes come from JS: read each as a byte and pass true/false, never a bool of another
     * value. The flags are rewritten in place as bools (1 byte each, like unsigned char). */
    bool *b = (bool *)(void *)flags;
    for (int i = 0; flags && i < n; ++i) {
        unsigned char v = flags[i];
        bool f = v != 0;
        memcpy(&b[i], &f, sizeof f);
    }
    sc_status s = sc_world_set_enabled(w, first, b, n);
    sc_wasm_last_error = w ? sc_world_error_index(w) : -1;
    return s;
}
/// Masks of objects first.. from n uint32 values.
SC_EXPORT int sc_wasm_world_set_masks(sc_world *w, int first, const uint32_t *masks, int n)
{
    sc_status s = sc_world_set_masks(w, first, masks, n);
    sc_wasm_last_error = w ? sc_world_error_index(w) : -1;
    return s;
}
/// The sc_shape_type of object index (0 when removed or out of range).
SC_EXPORT int sc_wasm_world_kind(const sc_world *w, int index) { return sc_world_kind(w, index); }
/// Bytes of an sc_query_filter (for JS, which writes its fields).
SC_EXPORT int sc_wasm_filter_bytes(void) { return (int)sizeof(sc_query_filter); }
/// The SIMD backend of the world kernels.
SC_EXPORT const char *sc_wasm_world_simd(void) { return sc_world_simd(); }
