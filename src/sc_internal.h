/* Internal declarations shared by the core's translation units (not part of the public API).
 *
 *   slabcast.c      single queries (exact; the reference every world answer must equal): the
 *                   public entry points, dispatched to sc_aabb.c, sc_sphere.c, sc_obb.c,
 *                   sc_plane.c; sc_validate.c checks; sc_exact.h/.c exact arithmetic
 *   sc_world.c      world and scratch lifetime, memory (the allocator hook), object storage
 *   sc_bvh.c        BVH build (binned SAH), refit, commit
 *   sc_kernels.h    the SIMD kernels (sc_simd.h), each line with its scalar meaning
 *   sc_traverse.c   one ray through the BVH: nearest, any, brute force, all hits
 *   sc_walk.c       the BVH walk of overlaps (and of sweeps the fast sweep walk cannot take)
 *   sc_query.c      the batch entry points: validation, scratch, ray ordering, output
 *   sc_sweep.c, sc_sweep_walk.c, sc_sweep_obb.c, sc_sweep_capsule.c (sc_sweep.h), sc_overlap.c, sc_overlap_capsule.c,
 *   sc_nearest.c    sweeps, overlaps, nearest objects
 *   sc_obb_bounds.c the bounds of an OBB's whole slab set
 *   slabcast_wasm.c the WebAssembly exports
 */
#ifndef SC_INTERNAL_H
#define SC_INTERNAL_H

#if defined(__FAST_MATH__)
#error "slabcast must not be built with -ffast-math (or -Ofast): its exact answers rely on IEEE float semantics (NaN, infinities, -0, no reassociation, no contraction). Build these files without it."
#endif

#include "slabcast.h"
#include "sc_simd.h"

#include <stddef.h>
#include <stdint.h>

/* The exact single queries on inputs already validated. */
sc_raycast_result sc__raycast_aabb_valid(const sc_ray *ray, const sc_aabb *box);
sc_raycast_result sc__raycast_obb_valid(const sc_ray *ray, const sc_obb *box);
/* A hit of sc__raycast_obb_valid certified in plain double (sc_obb.c): 1 with *r its result, bit
 * for bit, or 0 when not certain (then only sc__raycast_obb_valid decides). Valid inputs only. */
int sc__raycast_obb_hit(const sc_ray *ray, const sc_obb *box, sc_raycast_result *r);
sc_raycast_result sc__raycast_sphere_valid(const sc_ray *ray, const sc_sphere *sphere);
/* sc_capsule.c: the capsule's single queries on validated inputs (exact classification). */
sc_raycast_result sc__raycast_capsule_valid(const sc_ray *ray, const sc_capsule *capsule);
int sc__linetest_capsule(sc_vec3 a, sc_vec3 b, const sc_capsule *capsule);
int sc__contains_capsule(sc_vec3 p, const sc_capsule *capsule);
sc_vec3 sc__closest_point_capsule(sc_vec3 p, const sc_capsule *capsule);
sc_vec3 sc__exit_normal_capsule(const sc_ray *ray, const sc_capsule *capsule);
/* sc_capsule.c: exactly, whether the closed segments [a0, b0] and [a1, b1] (either may be a
 * point) come within r0 + r1 of each other (the sum taken exactly, not rounded); r0, r1 >= 0.
 * The exact predicate behind capsule-capsule and capsule-sphere overlaps and capsule-AABB edges. */
int sc__segments_within(sc_vec3 a0, sc_vec3 b0, sc_vec3 a1, sc_vec3 b1, float r0, float r1);
/* The outward unit normal where a ray whose origin is inside the (valid) solid leaves it. */
sc_vec3 sc__exit_normal(const sc_ray *ray, const sc_shape *shape);

/* ------------------------------------------------------------------ worlds */

#define SC_FAR_COORD 1.2089258e24f   /* 2^80: at or above, objects and rays skip the BVH */
#define SC_TINY_DIR 9.094947e-13f    /* 2^-40: smaller direction components do not cull */
#define SC_HUGE_DIR 1.2676506e30f    /* 2^100: larger direction components do not cull */
#define SC_SHRINK 0.99999905f        /* 1 - 2^-20: culling entries scale their reciprocal by it */
#define SC_GROW 1.0000010f           /* 1 + 2^-20: culling exits scale their reciprocal by it */
#define SC_LEAF 4
#define SC_BINS 16
/* The width of a BVH node, fixed at compile time: 8 children with a SIMD backend, natively on
 * x86-64 (culled by one AVX2 kernel when the CPU has it, else as two SSE2 halves: sc_kernels.h)
 * and in wasm (two SIMD128 halves: in V8 10% faster than nodes of 4 at 1k to 100k boxes, with
 * this traversal loop); 4 with the scalar backend. Leaves (sc_group) hold 4 objects either way. */
#ifndef SC_NODE_W
#if (defined(__x86_64__) || defined(_M_X64) || defined(__wasm_simd128__)) && !defined(SC_SIMD_SCALAR)
#define SC_NODE_W 8
#else
#define SC_NODE_W 4
#endif
#endif
#if SC_NODE_W != 4 && SC_NODE_W != 8
#error "SC_NODE_W must be 4 or 8"
#endif
/* Entries of a traversal stack. The build bounds the depth: binned SAH splits to node depth 24,
 * below which every node halves its largest part (by count) until it has SC_NODE_W parts, so
 * each part holds at most ceil(n / 2) objects (W = 4: ceil(n / 4), W = 8: ceil(n / 8)); with
 * n < 2^31, a node (more than 4 objects) is at depth <= 24 + 14 (W = 4) or 24 + 9 (W = 8). A
 * traversal keeps at most W - 1 entries per node on its path: 3 * 39 = 117, 7 * 34 = 238, below
 * 256, so a full stack cannot happen; if it ever did, the ray would be answered by testing every
 * object (sc_traverse.c), never by dropping a subtree. Tests build with a tiny stack. */
#ifndef SC_STACK
#define SC_STACK 256
#endif

/* A BVH node: the bounds of SC_NODE_W children, SoA ([axis][lane]). child >= 0: a node;
 * child < 0: the leaf group ~child; SC_NO_CHILD: empty (its bounds are inverted and can never
 * be hit). Two cache lines (W = 4) or four (W = 8). */
#define SC_NO_CHILD INT32_MIN
typedef struct sc_node {
    _Alignas(64) float bmin[3][SC_NODE_W];
    float bmax[3][SC_NODE_W];
    int32_t child[SC_NODE_W];
    int32_t valid;  /* bit l: child[l] is not SC_NO_CHILD */
} sc_node;

/* A leaf: up to four objects, their bounds SoA (for AABBs, the boxes themselves). */
typedef struct sc_group {
    _Alignas(64) float lo[3][4];
    float hi[3][4];
    int32_t idx[4]; /* object index, or -1 */
    int32_t all_aabb;
    int32_t count;
    int32_t live;   /* bit l: lane l holds an enabled object (removed or disabled: clear) */
    int32_t pad[1];
} sc_group;

struct sc_world {
    sc_allocator mem;
    int count, cap;
    uint8_t *kind;     /* an sc_shape_type, or SC_KIND_REMOVED */
    int32_t *slot;     /* OBB / sphere: index into obbs / spheres */
    sc_aabb *bounds;   /* the box itself, or a conservative bounding box */
    uint8_t *far;      /* 1: coordinates >= 2^80, kept out of the BVH */
    int32_t *obj_ref;  /* object -> group*4 + lane, or -1 when in far_list */
    uint32_t *mask;    /* per object, all bits by default: hit by queries whose mask shares a bit */
    uint8_t *enabled;  /* per object: 0 when disabled or removed (never hit) */
    int32_t nzero_mask; /* objects whose mask is 0 (then a default filter must check masks) */
    int32_t *free_slots; /* removed indices, reused by later adds of one object (LIFO) */
    int nfree, capfree;
    sc_obb *obbs;
    int nobb, capobb;
    sc_sphere *spheres;
    int nsph, capsph;
    sc_capsule *capsules;
    int ncap, capcap;

    sc_node *nodes;
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
    int loose;         /* 1: objects were removed since the last build or refit (bounds only loose) */
    int error_index;   /* of the last add or update */

    struct sc_bprim *scratch; /* build scratch: one record per object */
    int scratch_cap;
};

/* Set in kind[o] when object o has been removed (the low bits keep its old kind, so that a
 * later object of the same kind can reuse its OBB / sphere record). */
#define SC_KIND_REMOVED 0x80

/* A caller's working memory for queries (see slabcast.h). One block holds, for cap rays: the
 * rays in trace order with their indices (32 bytes each; their results take their place), the
 * counts of the sort's bins (4 bytes a ray) and the 16-bit sort keys (sc_query.c). */
struct sc_scratch {
    sc_allocator mem;
    int cap;
    int error_index;
    void *block;
    size_t block_bytes;
};


static inline float sc_w_abs(float a) { return a < 0.0f ? -a : a; }
/* Coordinates of magnitude 2^80 or more: kept out of the BVH. */
static inline int sc_w_far3(sc_vec3 v)
{
    return !(sc_w_abs(v.x) < SC_FAR_COORD && sc_w_abs(v.y) < SC_FAR_COORD && sc_w_abs(v.z) < SC_FAR_COORD);
}
static inline sc_vec3 sc_w_v3(const float *p) { return (sc_vec3){p[0], p[1], p[2]}; }
/* Component a (0, 1, 2) of v. */
static inline float sc_v3_at(sc_vec3 v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

/* One ray, prepared for traversal (sc__ray_prep). */
/* What the culling test needs of a ray. Loops copy it into a local whose address is never
 * taken, so that it stays in registers across calls. */
typedef struct sc_wcull {
    f4 vo[3];                    /* splats of the origin, per axis */
    f4 vnear[3], vfar[3];        /* splats of the culling reciprocals (see sc__ray_prep) */
    int oct;                     /* bit a: the culling reciprocal of axis a is negative (its
                                  * sign bit: the near bound is the maximum); sc_w_cull_offsets */
} sc_wcull;

typedef struct sc_wray {
    sc_wcull c;
    sc_ray ray;
    float o[3], d[3];
    int par[3];            /* dir == 0 (or -0) on that axis */
    int far;               /* origin >= 2^80: test every object exactly */
    uint32_t mask;         /* the filter's mask */
    int32_t exclude;       /* the object this ray ignores, or -1 */
    int inside;            /* the sc_inside rule for objects containing the origin */
    int filtered;          /* masks or exclude must be checked per object */
    int fast;              /* sc_w_leaf_fast4 may run: every axis culls (2^-40 <= |dir| < 2^100),
                            * unfiltered, SC_INSIDE_SOLID (sc__ray_prep's defaults) */
} sc_wray;

typedef struct sc_whit {
    float t;
    int index;
    sc_vec3 normal;
} sc_whit;

/* A BVH bound: min and max per axis. */
typedef struct sc_bounds { float lo[3], hi[3]; } sc_bounds;

/* sc_world.c: memory through the world's or scratch's allocator. */
int sc__pick_allocator(const sc_allocator *given, sc_allocator *out);
void *sc__mem_alloc(const sc_allocator *m, size_t bytes);
void sc__mem_free(const sc_allocator *m, void *block, size_t bytes);
int sc__next_cap(int cap, int need, int first);
int sc__fits(int cap, size_t elem);
int sc__grow(const sc_allocator *m, void **p, int *cap, int need, size_t elem);
size_t sc__aligned_bytes(int cap, size_t elem);
int sc__grow_aligned(const sc_allocator *m, void **p, void **raw, int *cap, int need, size_t elem, int used);

/* sc_obb_bounds.c: an AABB (floats, rounded outwards) that holds the OBB's whole slab set
 * |a_i.(x - c)| <= h_i and the parallelepiped c + sum l_i a_i, |l_i| <= h_i, for any valid axes. */
sc_aabb sc__obb_bounds(const sc_obb *o);

/* sc_bvh.c */
void sc__bvh_child_bounds(const sc_world *w, int32_t c, sc_bounds *b);

/* A query filter as the traversals apply it (sc_query.c reads an sc_query_filter into it). */
typedef struct sc_wfilt {
    uint32_t mask;
    const int32_t *exclude;
    int inside; /* the sc_inside rule */
    int masked; /* masks must be checked: a mask other than all bits, or objects of mask 0 */
} sc_wfilt;

/* Whether object o may answer a query: enabled (a removed object is disabled too), its mask
 * shares a bit with mask when masked, and it is not the excluded one (-1: none). */
static inline int sc__passes(const sc_world *w, int o, uint32_t mask, int masked, int32_t exclude)
{
    return w->enabled[o] && (!masked || (w->mask[o] & mask) != 0) && o != exclude;
}

/* sc_traverse.c: object o as a shape, for the single queries. */
sc_shape sc__object_shape(const sc_world *w, int o);

/* sc_walk.c: a BVH walk for the queries other than rays (overlaps, the sweeps the fast sweep walk
 * cannot take). Bounds are culled a whole node (or group) at a time: with box set (6 floats: min
 * x y z, max x y z), the lanes whose bounds meet that closed box (float compares, SIMD), and cull
 * is not called; else cull(ctx, base, width, lanes) returns those of lanes (bits) whose bounds may
 * hold an answer (it may read the answer found so far), from SoA bounds at base of the given width
 * (minima [axis][width], then maxima [axis][width]: a node's, width SC_NODE_W, or a group's,
 * width 4). offer(ctx, o) tests object o. Objects outside the BVH are offered first, then every
 * live leaf lane that passes. Should the traversal stack fill up, restart(ctx) (when not NULL)
 * forgets what was offered and every object is offered instead: none is dropped. */
typedef struct sc_walker {
    unsigned (*cull)(void *ctx, const float *base, int width, unsigned lanes);
    void (*offer)(void *ctx, int o);
    void (*restart)(void *ctx);
    void *ctx;
    const float *box;
} sc_walker;
void sc__walk(const sc_world *w, const sc_walker *k);

/* sc_sweep.c: n validated sweeps (kind 0 sphere: 8 floats each, 1 box: 10, 2 capsule: 11) against a
 * committed world. */
sc_status sc__sweep_batch(const sc_world *w, const float *sweeps, int32_t n, int kind, float *t, int32_t *index,
                          float *normal, float *point, const sc_wfilt *filter, int brute);

/* sc_sweep_obb.c: a box of half extents e whose centre moves along o + t d, 0 <= t <= tmax, against
 * the OBB's slabs: the first contact t and the unit normal (zero when touching at t = 0); 0 for
 * none. The contact point at a given t (n: the contact normal found, or zero): a point common to the
 * slab set and the box (up to rounding). */
int sc__sweep_box_obb(const double *o, const double *d, double tmax, const double *e, const sc_obb *b, double *t,
                      double *n);
void sc__sweep_box_obb_point(const double *o, const double *d, double t, const double *e, const double *n,
                             const sc_obb *b, double *p);

/* sc_overlap.c: the objects overlapping a validated volume (kind: an sc_shape_type, 0 for a
 * frustum of 6 planes), the cap smallest indices ascending in out, the count in *total. */
sc_status sc__overlap(const sc_world *w, int kind, const void *shape, int32_t *out, int32_t cap, int32_t *total,
                      const sc_wfilt *f, int brute);
/* sc_query.c: the same, validated (brute: without the BVH), for the wasm exports. */
sc_status sc__overlap_checked(const sc_world *w, int kind, const void *shape, int32_t *out, int32_t cap, int32_t *total,
                              const sc_query_filter *filter, int brute);
/* sc_nearest.c: the nearest allowed object within max_distance of each validated point. */
sc_status sc__nearest_batch(const sc_world *w, const float *points, int32_t n, float max_distance, int32_t *index,
                            float *distance, float *point, const sc_wfilt *f, int brute);
/* sc_query.c: sc_world_closest_objects, or without the BVH (brute), for the wasm exports. */
sc_status sc__closest_objects(const sc_world *w, const float *points, int32_t n, float max_distance, int32_t *index,
                              float *distance, float *point, const sc_query_filter *filter, sc_scratch *scratch,
                              int brute);
/* A half-space n.x <= b for the exact polytope test: float normal, b the exact sum of nb doubles. */
typedef struct sc_xhs {
    float n[3];
    double b[4];
    int nb;
} sc_xhs;
/* sc_overlap_capsule.c: a capsule against an AABB (exactly) and against m <= 12 half-spaces (in
 * double; docs/semantics.md, "Overlaps"; paired: h[2i], h[2i + 1] opposite, as an OBB's slabs). */
int sc__overlap_capsule_aabb(const sc_capsule *c, const sc_aabb *b);
int sc__overlap_capsule_poly(const sc_capsule *c, const sc_xhs *h, int m, int paired);
/* sc_exact.c: whether the intersection of m <= 12 half-spaces is empty, exactly. */
int sc__halfspaces_empty_exact(const sc_xhs *h, int m);
/* sc_exact.c: the exact sign of det(a, b, c) for float rows. */
int sc__det3_sign_exact(const float *a, const float *b, const float *c);
/* sc_query.c: the item checks of a batch query alone (op: 0, 1 rays; 2 segments; 3 sphere sweeps;
 * 4 box sweeps; 5 capsule sweeps); the first refused item in *bad (-1 when none). */
sc_status sc__check_batch(int op, const float *items, int32_t n, int32_t *bad);
/* sc_ball.c: whether the closed ball meets the intersection of m <= 6 half-spaces, exactly
 * (skip_pair: h[2i] and h[2i + 1] are opposite, as an OBB's slabs). */
int sc__ball_meets_halfspaces(const sc_xhs *h, int m, int skip_pair, sc_vec3 center, float radius);
/* The same in exact arithmetic only (no double-precision filter): for tests of the filter. */
int sc__ball_meets_halfspaces_exact(const sc_xhs *h, int m, int skip_pair, sc_vec3 center, float radius);
/* sc_sphere.c: exact overlaps of closed shapes. */
int sc__overlap_sphere_aabb(const sc_sphere *s, const sc_aabb *b);
int sc__overlap_sphere_sphere(const sc_sphere *a, const sc_sphere *b);

/* sc_traverse.c: the kernels in use (sc_world_simd): "avx2" when the 8-wide node kernel runs on
 * AVX2 (chosen at run time), else SC_SIMD_NAME. */
const char *sc__simd_name(void);
/* sc_traverse.c: one ray (prepared by sc__ray_prep) through a committed world. */
void sc__ray_prep(sc_wray *r, const sc_ray *ray);
/* The nearest hit (any_hit: the first found); index -1 when none. */
void sc__cast(const sc_world *w, const sc_wray *r, sc_whit *best, int any_hit);
/* The nearest hit without the BVH (every group, the brute-force kernel). */
void sc__cast_brute(const sc_world *w, const sc_wray *r, sc_whit *best);
/* Every hit: the nearest cap (by t, then index) sorted into t, index, normal; returns the total. */
int sc__cast_all(const sc_world *w, const sc_wray *r, float *t, int *index, float *normal, int cap);

#endif
