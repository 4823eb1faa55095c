/* slabcast: exact-at-the-boundaries ray, segment and box queries.
 *
 * One header, one prefix (sc_), small value types, no I/O. Single queries never allocate; worlds
 * and scratches allocate only when created, changed or reserved, never in a query.
 * The contract is docs/semantics.md (installed as share/doc/slabcast/semantics.md): closed
 * solids, t = max(t_enter, 0), two-sided planes, -0 behaves like 0, exact at any distance.
 * Inputs are float32.
 */
#ifndef SLABCAST_H
#define SLABCAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// The version of this header: SC_VERSION_MAJOR.SC_VERSION_MINOR.SC_VERSION_PATCH.
#define SC_VERSION_MAJOR 0
/// See SC_VERSION_MAJOR.
#define SC_VERSION_MINOR 1
/// See SC_VERSION_MAJOR.
#define SC_VERSION_PATCH 0
/// The version as a string literal.
#define SC_VERSION_STRING "0.1.0"

/// Marks the public functions: exported from a shared build (SLABCAST_SHARED, with
/// SLABCAST_BUILDING while the library itself is compiled), nothing for a static one.
#if defined(SLABCAST_SHARED) && defined(_WIN32)
#if defined(SLABCAST_BUILDING)
#define SC_API __declspec(dllexport)
#else
#define SC_API __declspec(dllimport)
#endif
#elif defined(SLABCAST_SHARED) && defined(__GNUC__)
#define SC_API __attribute__((visibility("default")))
#else
#define SC_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// A 3-vector of float32.
typedef struct sc_vec3 { float x, y, z; } sc_vec3;

/// A ray: points origin + t*dir for 0 <= t <= tmax (tmax may be +INFINITY). dir need not be unit.
typedef struct sc_ray { sc_vec3 origin; sc_vec3 dir; float tmax; } sc_ray;

/// A segment: points a + s*(b-a), 0 <= s <= 1. a == b is a point.
typedef struct sc_segment { sc_vec3 a; sc_vec3 b; } sc_segment;

/// An axis-aligned box, closed; min == max on an axis is a box of zero thickness.
typedef struct sc_aabb { sc_vec3 min; sc_vec3 max; } sc_aabb;

/// An oriented box, closed: {p : |(p - center) . axes[i]| <= half_i}; axes orthonormal within 1e-4.
typedef struct sc_obb { sc_vec3 center; sc_vec3 axes[3]; sc_vec3 half; } sc_obb;

/// A closed ball; radius 0 is a single point.
typedef struct sc_sphere { sc_vec3 center; float radius; } sc_sphere;

/// The two-sided plane {x : normal . x = d}; normal need not be unit length.
typedef struct sc_plane { sc_vec3 normal; float d; } sc_plane;

/// A closed capsule: the points within radius of the segment a-b. a == b is a ball; radius 0 is
/// the segment itself.
typedef struct sc_capsule { sc_vec3 a; sc_vec3 b; float radius; } sc_capsule;

/// Which member of sc_shape is in use.
typedef enum sc_shape_type {
    SC_SHAPE_AABB = 1,
    SC_SHAPE_OBB = 2,
    SC_SHAPE_SPHERE = 3,
    SC_SHAPE_PLANE = 4,
    SC_SHAPE_CAPSULE = 5
} sc_shape_type;

/// A tagged shape, for the generic queries.
typedef struct sc_shape {
    sc_shape_type type; ///< which member of u is in use
    union {
        sc_aabb aabb;
        sc_obb obb;
        sc_sphere sphere;
        sc_plane plane;
        sc_capsule capsule;
    } u;
} sc_shape;

/// Why an input was refused. SC_OK (0) means the query ran.
typedef enum sc_status {
    SC_OK = 0,
    SC_ERR_NULL,                 ///< a required pointer is NULL
    SC_ERR_RAY_ORIGIN,           ///< ray.origin is not finite
    SC_ERR_RAY_DIR,              ///< ray.dir is not finite
    SC_ERR_RAY_DIR_ZERO,         ///< ray.dir is the zero vector
    SC_ERR_RAY_TMAX,             ///< ray.tmax is NaN or negative
    SC_ERR_SEGMENT_A,            ///< segment.a is not finite
    SC_ERR_SEGMENT_B,            ///< segment.b is not finite
    SC_ERR_POINT,                ///< the query point is not finite
    SC_ERR_SHAPE_TYPE,           ///< unknown shape type
    SC_ERR_AABB_NOT_FINITE,      ///< aabb.min or aabb.max is not finite
    SC_ERR_AABB_MIN_GT_MAX,      ///< aabb.min > aabb.max on some axis
    SC_ERR_OBB_CENTER,           ///< obb.center is not finite
    SC_ERR_OBB_AXES,             ///< obb.axes is not finite
    SC_ERR_OBB_AXES_NOT_ORTHONORMAL, ///< |ai.aj - kronecker(i,j)| > 1e-4 for some i, j
    SC_ERR_OBB_HALF,             ///< obb.half is not finite
    SC_ERR_OBB_HALF_NEGATIVE,    ///< obb.half < 0 on some axis
    SC_ERR_SPHERE_CENTER,        ///< sphere.center is not finite
    SC_ERR_SPHERE_RADIUS,        ///< sphere.radius is not finite
    SC_ERR_SPHERE_RADIUS_NEGATIVE, ///< sphere.radius < 0
    SC_ERR_PLANE_NORMAL,         ///< plane.normal is not finite
    SC_ERR_PLANE_NORMAL_ZERO,    ///< plane.normal is the zero vector
    SC_ERR_PLANE_D,              ///< plane.d is not finite
    SC_ERR_UNSUPPORTED,          ///< the query is not defined for this shape (contains on a plane)
    SC_ERR_COUNT,                ///< a batch count is negative or too large
    SC_ERR_RANGE,                ///< an index range lies outside the world
    SC_ERR_KIND,                 ///< an update names objects of another kind
    SC_ERR_NO_MEMORY,            ///< an allocation failed
    SC_ERR_STALE,                ///< a world query on a world changed since its last sc_world_commit
    SC_ERR_REMOVED,              ///< the index names an object removed from the world
    SC_ERR_INSIDE,               ///< sc_query_filter.inside is not an sc_inside value
    SC_ERR_MAX_DISTANCE,         ///< sc_world_closest_objects: max_distance is negative or NaN
    SC_ERR_CAPSULE_A,            ///< capsule.a is not finite
    SC_ERR_CAPSULE_B,            ///< capsule.b is not finite
    SC_ERR_CAPSULE_RADIUS,       ///< capsule.radius is not finite
    SC_ERR_CAPSULE_RADIUS_NEGATIVE, ///< capsule.radius < 0
    SC_STATUS_COUNT
} sc_status;

/// A short English message for a status, naming the field at fault ("ray.dir is zero").
SC_API const char *sc_status_message(sc_status status);
/// The version of the compiled library ("0.1.0"); compare with SC_VERSION_STRING.
SC_API const char *sc_version(void);

/// Result of a raycast. When hit is false only status and hit are meaningful.
/// Every number of a hit is finite: a t_enter, t_exit, t or point coordinate whose exact value
/// lies past the float range (a tiny dir with tmax = +INFINITY) is reported as +-FLT_MAX.
typedef struct sc_raycast_result {
    sc_status status; ///< SC_OK when the query ran
    bool hit;         ///< whether the ray's points for t in [0, tmax] meet the shape
    float t;         ///< max(t_enter, 0): the first point of the ray in the solid
    float t_enter;   ///< entry of the whole line's interval (negative: origin inside)
    float t_exit;    ///< exit of the whole line's interval
    sc_vec3 point;   ///< origin + t*dir
    sc_vec3 normal;  ///< outward unit normal at point, or 0 when the origin is strictly inside
} sc_raycast_result;

/// Result of a yes/no query (linetest: hit, contains: inside).
typedef struct sc_test_result {
    sc_status status; ///< SC_OK when the query ran
    bool value;       ///< hit (linetest) / inside (contains)
} sc_test_result;

/// Result of a closest-point query.
typedef struct sc_point_result {
    sc_status status; ///< SC_OK when the query ran
    sc_vec3 point;    ///< the point of the shape nearest to the query point
} sc_point_result;

/// SC_OK if the ray is valid (finite origin and dir, dir not zero, tmax >= 0 and not NaN), else the reason.
SC_API sc_status sc_ray_check(const sc_ray *ray);
/// SC_OK if both end points are finite.
SC_API sc_status sc_segment_check(const sc_segment *segment);
/// SC_OK if the point is finite.
SC_API sc_status sc_point_check(sc_vec3 point);
/// SC_OK if the box is finite with min <= max on every axis.
SC_API sc_status sc_aabb_check(const sc_aabb *box);
/// SC_OK if the box is finite, half >= 0 and the axes are orthonormal within 1e-4.
SC_API sc_status sc_obb_check(const sc_obb *box);
/// SC_OK if the sphere is finite with radius >= 0.
SC_API sc_status sc_sphere_check(const sc_sphere *sphere);
/// SC_OK if the plane is finite with a non-zero normal.
SC_API sc_status sc_plane_check(const sc_plane *plane);
/// SC_OK if the capsule's end points and radius are finite and radius >= 0.
SC_API sc_status sc_capsule_check(const sc_capsule *capsule);
/// SC_OK if the tagged shape is of a known type and valid.
SC_API sc_status sc_shape_check(const sc_shape *shape);

/// True iff sc_ray_check gives SC_OK.
SC_API bool sc_ray_valid(const sc_ray *ray);
/// True iff sc_segment_check gives SC_OK.
SC_API bool sc_segment_valid(const sc_segment *segment);
/// True iff sc_aabb_check gives SC_OK.
SC_API bool sc_aabb_valid(const sc_aabb *box);
/// True iff sc_obb_check gives SC_OK.
SC_API bool sc_obb_valid(const sc_obb *box);
/// True iff sc_sphere_check gives SC_OK.
SC_API bool sc_sphere_valid(const sc_sphere *sphere);
/// True iff sc_plane_check gives SC_OK.
SC_API bool sc_plane_valid(const sc_plane *plane);
/// True iff sc_capsule_check gives SC_OK.
SC_API bool sc_capsule_valid(const sc_capsule *capsule);
/// True iff sc_shape_check gives SC_OK.
SC_API bool sc_shape_valid(const sc_shape *shape);

/// Ray vs closed AABB (slab method, exact on axis-parallel and grazing rays).
SC_API sc_raycast_result sc_raycast_aabb(const sc_ray *ray, const sc_aabb *box);
/// Ray vs closed OBB (slabs in the box's frame).
SC_API sc_raycast_result sc_raycast_obb(const sc_ray *ray, const sc_obb *box);
/// Ray vs closed ball.
SC_API sc_raycast_result sc_raycast_sphere(const sc_ray *ray, const sc_sphere *sphere);
/// Ray vs closed capsule.
SC_API sc_raycast_result sc_raycast_capsule(const sc_ray *ray, const sc_capsule *capsule);
/// Ray vs two-sided plane; the normal is turned to face the ray.
SC_API sc_raycast_result sc_raycast_plane(const sc_ray *ray, const sc_plane *plane);
/// Ray vs any shape.
SC_API sc_raycast_result sc_raycast(const sc_ray *ray, const sc_shape *shape);

/// Segment vs shape: hit iff they share a point (a segment inside a solid hits it).
SC_API sc_test_result sc_linetest(const sc_segment *segment, const sc_shape *shape);
/// Closest point of the shape to p (p itself when inside a solid; the projection for a plane).
/// Coordinates past the float range (a plane far away) are reported as +-FLT_MAX.
SC_API sc_point_result sc_closest_point(sc_vec3 p, const sc_shape *shape);
/// Whether p lies in the closed solid; SC_ERR_UNSUPPORTED for planes.
SC_API sc_test_result sc_contains(sc_vec3 p, const sc_shape *shape);

/* ------------------------------------------------------------------ worlds */

/// A world: many boxes, OBBs, spheres and capsules in one allocation set, with a BVH for batch queries.
/// Objects are numbered from 0 in the order they were added, across kinds.
/// Changes (add, update) need sc_world_commit before the next query. Queries take a const world:
/// they never build, refit, allocate or write into it, so any number of threads may query one
/// committed world at once, each with its own sc_scratch (or none).
typedef struct sc_world sc_world;

/// Working memory for batch queries, owned by the caller: one per thread that queries.
/// It holds the buffers that let a large batch be traced in a cache-friendly order, and the
/// index of the element that made the last query on it fail.
typedef struct sc_scratch sc_scratch;

/// Memory functions for worlds and scratches. alloc returns bytes bytes aligned to 16, or NULL;
/// free releases a block alloc returned (NULL is never passed) and is told its size. user is
/// passed through. Both are called only from functions that take a non-const world or scratch.
typedef struct sc_allocator {
    void *(*alloc)(void *user, size_t bytes);
    void (*free)(void *user, void *block, size_t bytes);
    void *user;
} sc_allocator;

/// What a world query does with an object whose closed solid contains the ray's origin (or the
/// segment's first point): the object's t_enter is negative (docs/semantics.md, "Filters").
typedef enum sc_inside {
    SC_INSIDE_SOLID = 0, ///< a hit at t = 0, normal 0 (the default, as the single queries)
    SC_INSIDE_SKIP = 1,  ///< the object is ignored for that ray
    SC_INSIDE_EXIT = 2   ///< the ray reports where it leaves the object: t_exit, the exit face's outward normal
} sc_inside;

/// Which objects a world query may hit (Box2D's b2QueryFilter). NULL means the default:
/// mask 0xFFFFFFFF, no exclusions, SC_INSIDE_SOLID.
typedef struct sc_query_filter {
    uint32_t mask;          ///< only objects whose mask shares a bit with it: (object & mask) != 0
    const int32_t *exclude; ///< per ray (per segment), one object index it ignores, -1 for none; or NULL
    sc_inside inside;       ///< objects containing the origin
} sc_query_filter;

/// Floats per AABB in a batch: minx, miny, minz, maxx, maxy, maxz.
#define SC_AABB_FLOATS 6
/// Floats per OBB in a batch: center xyz, axes[0] xyz, axes[1] xyz, axes[2] xyz, half xyz.
#define SC_OBB_FLOATS 15
/// Floats per sphere in a batch: center xyz, radius.
#define SC_SPHERE_FLOATS 4
/// Floats per capsule in a batch: a xyz, b xyz, radius.
#define SC_CAPSULE_FLOATS 7
/// Floats per ray in a batch: origin xyz, dir xyz, tmax (+INFINITY allowed).
#define SC_RAY_FLOATS 7
/// Floats per segment in a batch: a xyz, b xyz.
#define SC_SEGMENT_FLOATS 6
/// Floats per sphere sweep: origin xyz, dir xyz, tmax, radius.
#define SC_SPHERE_SWEEP_FLOATS 8
/// Floats per box sweep: origin xyz, dir xyz, tmax, half extents xyz (an axis-aligned box).
#define SC_BOX_SWEEP_FLOATS 10
/// Floats per capsule sweep: a xyz, b xyz (the capsule at t = 0), dir xyz, tmax, radius; the
/// capsule moves as a + t*dir, b + t*dir.
#define SC_CAPSULE_SWEEP_FLOATS 11
/// The largest number of objects in one world.
#define SC_WORLD_MAX_OBJECTS 16777216
/// Batches of fewer rays are traced in input order; larger ones use a scratch's ordering buffers.
#define SC_SCRATCH_MIN_RAYS 512

/// A new empty world using malloc and free, or NULL when out of memory.
SC_API sc_world *sc_world_create(void);
/// A new empty world whose memory comes from allocator (copied; NULL means malloc and free), or NULL.
SC_API sc_world *sc_world_create_with(const sc_allocator *allocator);
/// Frees the world and everything it owns. NULL is allowed.
SC_API void sc_world_destroy(sc_world *world);
/// The number of object indices: every object added, removed ones included (a removed index
/// counts until a later add reuses it); valid indices are 0 to count - 1. 0 for NULL.
SC_API int32_t sc_world_count(const sc_world *world);
/// The number of objects that are not removed: sc_world_count minus the removed ones. 0 for NULL.
SC_API int32_t sc_world_live_count(const sc_world *world);
/// Bytes of memory the world holds (objects, BVH, build buffers).
SC_API size_t sc_world_bytes(const sc_world *world);
/// After an add or update refused for one element of a batch, that element's index (else -1).
SC_API int32_t sc_world_error_index(const sc_world *world);
/// The SIMD backend the kernels were compiled for ("wasm-simd128", "sse2" or "scalar").
SC_API const char *sc_world_simd(void);

/// Adds n AABBs (SC_AABB_FLOATS each); *first gets the index of the first. All or nothing.
SC_API sc_status sc_world_add_aabbs(sc_world *world, const float *boxes, int32_t n, int32_t *first);
/// Adds n OBBs (SC_OBB_FLOATS each); *first gets the index of the first. All or nothing.
SC_API sc_status sc_world_add_obbs(sc_world *world, const float *obbs, int32_t n, int32_t *first);
/// Adds n spheres (SC_SPHERE_FLOATS each); *first gets the index of the first. All or nothing.
SC_API sc_status sc_world_add_spheres(sc_world *world, const float *spheres, int32_t n, int32_t *first);
/// Adds n capsules (SC_CAPSULE_FLOATS each); *first gets the index of the first. All or nothing.
SC_API sc_status sc_world_add_capsules(sc_world *world, const float *capsules, int32_t n, int32_t *first);
/// Replaces objects first..first+n-1, which must all be AABBs. All or nothing.
SC_API sc_status sc_world_update_aabbs(sc_world *world, int32_t first, const float *boxes, int32_t n);
/// Replaces objects first..first+n-1, which must all be OBBs. All or nothing.
SC_API sc_status sc_world_update_obbs(sc_world *world, int32_t first, const float *obbs, int32_t n);
/// Replaces objects first..first+n-1, which must all be spheres. All or nothing.
SC_API sc_status sc_world_update_spheres(sc_world *world, int32_t first, const float *spheres, int32_t n);
/// Replaces objects first..first+n-1, which must all be capsules. All or nothing.
SC_API sc_status sc_world_update_capsules(sc_world *world, int32_t first, const float *capsules, int32_t n);
/// Removes object index: it is never hit again, its index is not reused by other objects until a
/// later add of a single object takes the slot. No other index changes. Takes effect at once
/// (the world stays committed; the next commit also tightens the BVH).
SC_API sc_status sc_world_remove(sc_world *world, int32_t index);
/// Enables or disables objects first..first+n-1 (flags[i]): a disabled object is never hit.
/// Takes effect at once (no commit needed). All or nothing.
SC_API sc_status sc_world_set_enabled(sc_world *world, int32_t first, const bool *flags, int32_t n);
/// Sets the masks of objects first..first+n-1 (all bits when added). Takes effect at once.
SC_API sc_status sc_world_set_masks(sc_world *world, int32_t first, const uint32_t *masks, int32_t n);
/// The kind of object index (SC_SHAPE_AABB, _OBB, _SPHERE or _CAPSULE), or 0 when removed or out of range.
SC_API int32_t sc_world_kind(const sc_world *world, int32_t index);
/// The default filter: mask 0xFFFFFFFF, no exclusions, SC_INSIDE_SOLID.
SC_API sc_query_filter sc_query_filter_default(void);

/// Makes the world queryable after changes: rebuilds the BVH if objects were added since the last
/// build (or moved across the 2^80 far limit), else refits it if objects were updated, else nothing.
SC_API sc_status sc_world_commit(sc_world *world);
/// Whether queries may run: true when nothing changed since the last commit, build or refit.
SC_API bool sc_world_is_committed(const sc_world *world);
/// Refits the BVH to moved objects (fast; the tree's shape is kept); builds it if objects were added.
SC_API sc_status sc_world_refit(sc_world *world);
/// Rebuilds the BVH from scratch (binned SAH).
SC_API sc_status sc_world_build(sc_world *world);

/// A new scratch using malloc and free, or NULL when out of memory.
SC_API sc_scratch *sc_scratch_create(void);
/// A new scratch whose memory comes from allocator (copied; NULL means malloc and free), or NULL.
SC_API sc_scratch *sc_scratch_create_with(const sc_allocator *allocator);
/// Frees the scratch. NULL is allowed.
SC_API void sc_scratch_destroy(sc_scratch *scratch);
/// Makes room for batches of up to rays rays to be traced in a cache-friendly order. A query never
/// grows a scratch: a larger batch is traced in input order (the same results, slower).
SC_API sc_status sc_scratch_reserve(sc_scratch *scratch, int32_t rays);
/// The largest batch the scratch can order (0 until reserved).
SC_API int32_t sc_scratch_capacity(const sc_scratch *scratch);
/// Bytes of memory the scratch holds.
SC_API size_t sc_scratch_bytes(const sc_scratch *scratch);
/// After a query on this scratch refused for one element of a batch, that element's index (else -1).
SC_API int32_t sc_scratch_error_index(const sc_scratch *scratch);

/// Nearest hit per ray (SC_RAY_FLOATS each): t = max(t_enter, 0), ties to the lowest index.
/// Writes t[i] (0 on a miss), index[i] (-1 on a miss) and normal[3i..3i+2] (0 on a miss or
/// when the origin is inside). normal may be NULL. All rays are validated before any is cast.
/// filter may be NULL (every enabled object; see sc_query_filter). scratch may be NULL (no ordering
/// buffers, no error index). SC_ERR_STALE before a commit.
SC_API sc_status sc_world_cast_rays(const sc_world *world, const float *rays, int32_t n, float *t, int32_t *index,
                             float *normal, const sc_query_filter *filter, sc_scratch *scratch);
/// sc_world_cast_rays without the BVH: every object against every ray, four AABBs at a time
/// (the brute-force kernel; for benchmarks and cross-checks).
SC_API sc_status sc_world_cast_rays_bruteforce(const sc_world *world, const float *rays, int32_t n, float *t,
                                        int32_t *index, float *normal, const sc_query_filter *filter,
                                        sc_scratch *scratch);
/// Any hit per ray, with early exit: hit[i] is whether some object meets the ray within [0, tmax].
SC_API sc_status sc_world_any_hit(const sc_world *world, const float *rays, int32_t n, bool *hit,
                                  const sc_query_filter *filter, sc_scratch *scratch);
/// Every object one ray (SC_RAY_FLOATS floats, as in a batch) meets within [0, tmax], nearest first: t = max(t_enter, 0), bit for bit the
/// single query's (as sc_world_cast_rays), ties in t by index. Writes the first min(*total, cap) hits
/// to t[k], index[k] and normal[3k..3k+2] (normal may be NULL; t and index may be NULL when cap is 0)
/// and the number of hits to *total, which may exceed cap: call again with cap >= *total for all.
/// It needs no scratch: the nearest cap hits are kept in the caller's arrays.
SC_API sc_status sc_world_cast_ray_all(const sc_world *world, const float *ray, int32_t cap, float *t, int32_t *index,
                                       float *normal, int32_t *total, const sc_query_filter *filter);
/// Nearest hit along each segment (SC_SEGMENT_FLOATS each), as a ray a + t*(b - a), 0 <= t <= 1;
/// a zero-length segment is a point test (t = 0). Output and scratch as sc_world_cast_rays.
SC_API sc_status sc_world_cast_segments(const sc_world *world, const float *segments, int32_t n, float *t,
                                        int32_t *index, float *normal, const sc_query_filter *filter,
                                        sc_scratch *scratch);
/// Sphere sweeps (SC_SPHERE_SWEEP_FLOATS each): the first t in [0, tmax] at which the sphere, its
/// centre moving along the ray, touches an object (ties to the lowest index); normal[3i..] the
/// object's outward unit normal at the contact and point[3i..] the contact point on the object
/// (either may be NULL). Already touching at t = 0: t = 0, normal 0 (SC_INSIDE_SKIP ignores such
/// objects; SC_INSIDE_EXIT acts as solid). No contact: t = 0, index -1. Computed in double.
SC_API sc_status sc_world_cast_spheres(const sc_world *world, const float *sweeps, int32_t n, float *t, int32_t *index,
                                       float *normal, float *point, const sc_query_filter *filter, sc_scratch *scratch);
/// Box sweeps (SC_BOX_SWEEP_FLOATS each): an axis-aligned box of the given half extents, its centre
/// moving along the ray; output as sc_world_cast_spheres.
SC_API sc_status sc_world_cast_boxes(const sc_world *world, const float *sweeps, int32_t n, float *t, int32_t *index,
                                     float *normal, float *point, const sc_query_filter *filter, sc_scratch *scratch);
/// Capsule sweeps (SC_CAPSULE_SWEEP_FLOATS each): a capsule moving along dir; output as
/// sc_world_cast_spheres (point: the contact point on the object).
SC_API sc_status sc_world_cast_capsules(const sc_world *world, const float *sweeps, int32_t n, float *t, int32_t *index,
                                        float *normal, float *point, const sc_query_filter *filter, sc_scratch *scratch);
/// sc_world_cast_capsules without the BVH, for checks and benchmarks.
SC_API sc_status sc_world_cast_capsules_bruteforce(const sc_world *world, const float *sweeps, int32_t n, float *t,
                                                   int32_t *index, float *normal, float *point,
                                                   const sc_query_filter *filter, sc_scratch *scratch);
/// The objects sharing a point with the closed box (touching counts), in ascending index order:
/// the first min(*total, cap) indices go to out, the number of them to *total (call again with
/// cap >= *total for all). filter: mask and exclude[0] (one index) apply; NULL for the default.
/// Exact for every pair of shapes (docs/semantics.md, "Overlaps").
SC_API sc_status sc_world_overlap_aabb(const sc_world *world, const sc_aabb *box, int32_t *out, int32_t cap,
                                       int32_t *total, const sc_query_filter *filter);
/// As sc_world_overlap_aabb, for a closed ball.
SC_API sc_status sc_world_overlap_sphere(const sc_world *world, const sc_sphere *sphere, int32_t *out, int32_t cap,
                                         int32_t *total, const sc_query_filter *filter);
/// As sc_world_overlap_aabb, for an OBB.
SC_API sc_status sc_world_overlap_obb(const sc_world *world, const sc_obb *obb, int32_t *out, int32_t cap,
                                      int32_t *total, const sc_query_filter *filter);
/// As sc_world_overlap_aabb, for a closed capsule.
SC_API sc_status sc_world_overlap_capsule(const sc_world *world, const sc_capsule *capsule, int32_t *out, int32_t cap,
                                          int32_t *total, const sc_query_filter *filter);
/// As sc_world_overlap_aabb, for a frustum: 6 planes of 4 floats (nx, ny, nz, d), inside where
/// n.x + d >= 0 for all six (three.js's Frustum convention).
SC_API sc_status sc_world_overlap_frustum(const sc_world *world, const float *planes, int32_t *out, int32_t cap,
                                          int32_t *total, const sc_query_filter *filter);
/// Per point (3 floats each): the nearest allowed object within max_distance (>= 0, +INFINITY for
/// any; ties to the lowest index) in index[i] (-1 for none), the distance from the point to its
/// closed solid in distance[i] (0 inside; +INFINITY for none) and the closest point on it in
/// point[3i..] (the point itself inside; 0 for none). distance and point may be NULL. The filter's
/// mask and per-point exclude apply. Distances are computed in double from sc_closest_point.
SC_API sc_status sc_world_closest_objects(const sc_world *world, const float *points, int32_t n, float max_distance,
                                          int32_t *index, float *distance, float *point,
                                          const sc_query_filter *filter, sc_scratch *scratch);
/// sc_world_cast_spheres without the BVH (every object against every sweep), for checks and benchmarks.
SC_API sc_status sc_world_cast_spheres_bruteforce(const sc_world *world, const float *sweeps, int32_t n, float *t,
                                                  int32_t *index, float *normal, float *point,
                                                  const sc_query_filter *filter, sc_scratch *scratch);
/// sc_world_cast_boxes without the BVH, for checks and benchmarks.
SC_API sc_status sc_world_cast_boxes_bruteforce(const sc_world *world, const float *sweeps, int32_t n, float *t,
                                                int32_t *index, float *normal, float *point,
                                                const sc_query_filter *filter, sc_scratch *scratch);

#ifdef __cplusplus
}
#endif

#endif /* SLABCAST_H */
