/* slabcast: exact-at-the-boundaries ray, segment and box queries.
 *
 * One header, one prefix (sc_), small value types, no allocation, no I/O.
 * Semantics are those of shared/spec/CASES.md (closed solids, t = max(t_enter, 0),
 * two-sided planes, -0 behaves like 0). Everything is computed in float32.
 */
#ifndef SLABCAST_H
#define SLABCAST_H

#include <stdbool.h>

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

/// Which member of sc_shape is in use.
typedef enum sc_shape_type {
    SC_SHAPE_AABB = 1,
    SC_SHAPE_OBB = 2,
    SC_SHAPE_SPHERE = 3,
    SC_SHAPE_PLANE = 4
} sc_shape_type;

/// A tagged shape, for the generic queries.
typedef struct sc_shape {
    int type; ///< an sc_shape_type
    union {
        sc_aabb aabb;
        sc_obb obb;
        sc_sphere sphere;
        sc_plane plane;
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
    SC_STATUS_COUNT
} sc_status;

/// A short English message for a status, naming the field at fault ("ray.dir is zero").
const char *sc_status_message(sc_status status);

/// Result of a raycast. When hit is false only status and hit are meaningful.
typedef struct sc_raycast_result {
    int status;      ///< an sc_status; SC_OK when the query ran
    int hit;         ///< 1 iff the ray's points for t in [0, tmax] meet the shape
    float t;         ///< max(t_enter, 0): the first point of the ray in the solid
    float t_enter;   ///< entry of the whole line's interval (negative: origin inside)
    float t_exit;    ///< exit of the whole line's interval
    sc_vec3 point;   ///< origin + t*dir
    sc_vec3 normal;  ///< outward unit normal at point, or 0 when the origin is strictly inside
} sc_raycast_result;

/// Result of a yes/no query (linetest: hit, contains: inside).
typedef struct sc_test_result {
    int status; ///< an sc_status
    int value;  ///< 1 for hit / inside
} sc_test_result;

/// Result of a closest-point query.
typedef struct sc_point_result {
    int status;    ///< an sc_status
    sc_vec3 point; ///< the point of the shape nearest to the query point
} sc_point_result;

/// SC_OK if the ray is valid (finite origin and dir, dir not zero, tmax >= 0 and not NaN), else the reason.
sc_status sc_ray_check(const sc_ray *ray);
/// SC_OK if both end points are finite.
sc_status sc_segment_check(const sc_segment *segment);
/// SC_OK if the point is finite.
sc_status sc_point_check(sc_vec3 point);
/// SC_OK if the box is finite with min <= max on every axis.
sc_status sc_aabb_check(const sc_aabb *box);
/// SC_OK if the box is finite, half >= 0 and the axes are orthonormal within 1e-4.
sc_status sc_obb_check(const sc_obb *box);
/// SC_OK if the sphere is finite with radius >= 0.
sc_status sc_sphere_check(const sc_sphere *sphere);
/// SC_OK if the plane is finite with a non-zero normal.
sc_status sc_plane_check(const sc_plane *plane);
/// SC_OK if the tagged shape is of a known type and valid.
sc_status sc_shape_check(const sc_shape *shape);

/// True iff sc_ray_check gives SC_OK.
bool sc_ray_valid(const sc_ray *ray);
/// True iff sc_segment_check gives SC_OK.
bool sc_segment_valid(const sc_segment *segment);
/// True iff sc_aabb_check gives SC_OK.
bool sc_aabb_valid(const sc_aabb *box);
/// True iff sc_obb_check gives SC_OK.
bool sc_obb_valid(const sc_obb *box);
/// True iff sc_sphere_check gives SC_OK.
bool sc_sphere_valid(const sc_sphere *sphere);
/// True iff sc_plane_check gives SC_OK.
bool sc_plane_valid(const sc_plane *plane);
/// True iff sc_shape_check gives SC_OK.
bool sc_shape_valid(const sc_shape *shape);

/// Ray vs closed AABB (slab method, exact on axis-parallel and grazing rays).
sc_raycast_result sc_raycast_aabb(const sc_ray *ray, const sc_aabb *box);
/// Ray vs closed OBB (slabs in the box's frame).
sc_raycast_result sc_raycast_obb(const sc_ray *ray, const sc_obb *box);
/// Ray vs closed ball.
sc_raycast_result sc_raycast_sphere(const sc_ray *ray, const sc_sphere *sphere);
/// Ray vs two-sided plane; the normal is turned to face the ray.
sc_raycast_result sc_raycast_plane(const sc_ray *ray, const sc_plane *plane);
/// Ray vs any shape.
sc_raycast_result sc_raycast(const sc_ray *ray, const sc_shape *shape);

/// Segment vs shape: hit iff they share a point (a segment inside a solid hits it).
sc_test_result sc_linetest(const sc_segment *segment, const sc_shape *shape);
/// Closest point of the shape to p (p itself when inside a solid; the projection for a plane).
sc_point_result sc_closest_point(sc_vec3 p, const sc_shape *shape);
/// Whether p lies in the closed solid; SC_ERR_UNSUPPORTED for planes.
sc_test_result sc_contains(sc_vec3 p, const sc_shape *shape);

#ifdef __cplusplus
}
#endif

#endif /* SLABCAST_H */
