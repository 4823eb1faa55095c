/* Validation: status messages, the version, and the checks of every input (sc_*_check,
 * sc_*_valid; docs/semantics.md, "Invalid input"). */
#include "sc_single.h"

const char *sc_status_message(sc_status status)
{
    switch (status) {
    case SC_OK: return "ok";
    case SC_ERR_NULL: return "a required argument is null";
    case SC_ERR_RAY_ORIGIN: return "ray.origin is not finite";
    case SC_ERR_RAY_DIR: return "ray.dir is not finite";
    case SC_ERR_RAY_DIR_ZERO: return "ray.dir is zero";
    case SC_ERR_RAY_TMAX: return "ray.tmax is NaN or negative";
    case SC_ERR_SEGMENT_A: return "segment.a is not finite";
    case SC_ERR_SEGMENT_B: return "segment.b is not finite";
    case SC_ERR_POINT: return "point is not finite";
    case SC_ERR_SHAPE_TYPE: return "shape.type is unknown";
    case SC_ERR_AABB_NOT_FINITE: return "shape.min or shape.max is not finite";
    case SC_ERR_AABB_MIN_GT_MAX: return "shape.min is greater than shape.max";
    case SC_ERR_OBB_CENTER: return "shape.center is not finite";
    case SC_ERR_OBB_AXES: return "shape.axes is not finite";
    case SC_ERR_OBB_AXES_NOT_ORTHONORMAL: return "shape.axes are not orthonormal (tolerance 1e-4)";
    case SC_ERR_OBB_HALF: return "shape.half is not finite";
    case SC_ERR_OBB_HALF_NEGATIVE: return "shape.half is negative";
    case SC_ERR_SPHERE_CENTER: return "shape.center is not finite";
    case SC_ERR_SPHERE_RADIUS: return "shape.radius is not finite";
    case SC_ERR_SPHERE_RADIUS_NEGATIVE: return "shape.radius is negative";
    case SC_ERR_PLANE_NORMAL: return "shape.normal is not finite";
    case SC_ERR_PLANE_NORMAL_ZERO: return "shape.normal is zero";
    case SC_ERR_PLANE_D: return "shape.d is not finite";
    case SC_ERR_UNSUPPORTED: return "contains is not defined for a plane";
    case SC_ERR_COUNT: return "count is negative or too large";
    case SC_ERR_RANGE: return "index range is outside the world";
    case SC_ERR_KIND: return "the objects in the range are of another kind";
    case SC_ERR_NO_MEMORY: return "out of memory";
    case SC_ERR_STALE: return "the world changed since its last commit: call sc_world_commit";
    case SC_ERR_REMOVED: return "the object has been removed from the world";
    case SC_ERR_INSIDE: return "filter.inside is not SC_INSIDE_SOLID, SC_INSIDE_SKIP or SC_INSIDE_EXIT";
    case SC_ERR_MAX_DISTANCE: return "max_distance is negative or NaN";
    case SC_ERR_CAPSULE_A: return "capsule.a is not finite";
    case SC_ERR_CAPSULE_B: return "capsule.b is not finite";
    case SC_ERR_CAPSULE_RADIUS: return "capsule.radius is not finite";
    case SC_ERR_CAPSULE_RADIUS_NEGATIVE: return "capsule.radius is negative";
    case SC_STATUS_COUNT: break;
    }
    return "unknown status";
}

const char *sc_version(void) { return SC_VERSION_STRING; }

sc_status sc_ray_check(const sc_ray *ray)
{
    if (!ray) return SC_ERR_NULL;
    if (!sc_finite3(ray->origin)) return SC_ERR_RAY_ORIGIN;
    if (!sc_finite3(ray->dir)) return SC_ERR_RAY_DIR;
    if (sc_zero3(ray->dir)) return SC_ERR_RAY_DIR_ZERO;
    if (!(ray->tmax >= 0.0f)) return SC_ERR_RAY_TMAX; /* NaN fails this too; +inf passes */
    return SC_OK;
}

sc_status sc_segment_check(const sc_segment *segment)
{
    if (!segment) return SC_ERR_NULL;
    if (!sc_finite3(segment->a)) return SC_ERR_SEGMENT_A;
    if (!sc_finite3(segment->b)) return SC_ERR_SEGMENT_B;
    return SC_OK;
}

sc_status sc_point_check(sc_vec3 point) { return sc_finite3(point) ? SC_OK : SC_ERR_POINT; }

sc_status sc_aabb_check(const sc_aabb *box)
{
    if (!box) return SC_ERR_NULL;
    if (!sc_finite3(box->min) || !sc_finite3(box->max)) return SC_ERR_AABB_NOT_FINITE;
    if (box->min.x > box->max.x || box->min.y > box->max.y || box->min.z > box->max.z)
        return SC_ERR_AABB_MIN_GT_MAX;
    return SC_OK;
}

sc_status sc_obb_check(const sc_obb *box)
{
    if (!box) return SC_ERR_NULL;
    if (!sc_finite3(box->center)) return SC_ERR_OBB_CENTER;
    for (int i = 0; i < 3; ++i)
        if (!sc_finite3(box->axes[i])) return SC_ERR_OBB_AXES;
    if (!sc_finite3(box->half)) return SC_ERR_OBB_HALF;
    if (box->half.x < 0.0f || box->half.y < 0.0f || box->half.z < 0.0f) return SC_ERR_OBB_HALF_NEGATIVE;
    if (!sc_obb_axes_ok(box->axes)) return SC_ERR_OBB_AXES_NOT_ORTHONORMAL;
    return SC_OK;
}

sc_status sc_sphere_check(const sc_sphere *sphere)
{
    if (!sphere) return SC_ERR_NULL;
    if (!sc_finite3(sphere->center)) return SC_ERR_SPHERE_CENTER;
    if (!isfinite(sphere->radius)) return SC_ERR_SPHERE_RADIUS;
    if (sphere->radius < 0.0f) return SC_ERR_SPHERE_RADIUS_NEGATIVE;
    return SC_OK;
}

sc_status sc_plane_check(const sc_plane *plane)
{
    if (!plane) return SC_ERR_NULL;
    if (!sc_finite3(plane->normal)) return SC_ERR_PLANE_NORMAL;
    if (sc_zero3(plane->normal)) return SC_ERR_PLANE_NORMAL_ZERO;
    if (!isfinite(plane->d)) return SC_ERR_PLANE_D;
    return SC_OK;
}

sc_status sc_capsule_check(const sc_capsule *capsule)
{
    if (!capsule) return SC_ERR_NULL;
    if (!sc_finite3(capsule->a)) return SC_ERR_CAPSULE_A;
    if (!sc_finite3(capsule->b)) return SC_ERR_CAPSULE_B;
    if (!isfinite(capsule->radius)) return SC_ERR_CAPSULE_RADIUS;
    if (capsule->radius < 0.0f) return SC_ERR_CAPSULE_RADIUS_NEGATIVE;
    return SC_OK;
}

sc_status sc_shape_check(const sc_shape *shape)
{
    if (!shape) return SC_ERR_NULL;
    switch (shape->type) {
    case SC_SHAPE_AABB: return sc_aabb_check(&shape->u.aabb);
    case SC_SHAPE_OBB: return sc_obb_check(&shape->u.obb);
    case SC_SHAPE_SPHERE: return sc_sphere_check(&shape->u.sphere);
    case SC_SHAPE_PLANE: return sc_plane_check(&shape->u.plane);
    case SC_SHAPE_CAPSULE: return sc_capsule_check(&shape->u.capsule);
    default: return SC_ERR_SHAPE_TYPE;
    }
}

bool sc_ray_valid(const sc_ray *ray) { return sc_ray_check(ray) == SC_OK; }
bool sc_segment_valid(const sc_segment *segment) { return sc_segment_check(segment) == SC_OK; }
bool sc_aabb_valid(const sc_aabb *box) { return sc_aabb_check(box) == SC_OK; }
bool sc_obb_valid(const sc_obb *box) { return sc_obb_check(box) == SC_OK; }
bool sc_sphere_valid(const sc_sphere *sphere) { return sc_sphere_check(sphere) == SC_OK; }
bool sc_plane_valid(const sc_plane *plane) { return sc_plane_check(plane) == SC_OK; }
bool sc_capsule_valid(const sc_capsule *capsule) { return sc_capsule_check(capsule) == SC_OK; }
bool sc_shape_valid(const sc_shape *shape) { return sc_shape_check(shape) == SC_OK; }
