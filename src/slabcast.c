/* slabcast core: the public single queries of docs/semantics.md, on float32 inputs: raycast,
 * linetest, contains and closest_point, dispatched to the shape files, and the exit normals the
 * worlds use. Each concept has its own file (docs/architecture.md):
 *   sc_validate.c  status messages, version, input checks
 *   sc_exact.h/.c  exact arithmetic: error-free transforms, expansions, exact signs, half-space
 *                  certificates (after Shewchuk's predicates)
 *   sc_aabb.c      the slab method (float32, exact fallbacks)
 *   sc_sphere.c    spheres (closed balls), sphere overlaps
 *   sc_obb.c       OBBs (their slabs)
 *   sc_plane.c     planes
 *   sc_capsule.c   capsules (exact distance predicates, sc_capsule_pred.h)
 *
 * Exactness notes (the reason for most choices in those files):
 * - AABB slab parameters are computed as (bound - origin) / dir with one true division in
 *   float, never with a precomputed reciprocal: rounding is then monotone in the exact
 *   quotient, so the comparisons t_enter <= t_exit, t_exit >= 0 and t_enter <= tmax keep the
 *   exact order for small dyadic inputs. The world's SIMD kernel reproduces this bit for bit.
 * - An axis with dir == 0 (or -0) is never divided by: the ray is parallel to that slab and
 *   is in it for every t iff lo <= origin <= hi (closed). No 0*inf, no NaN.
 * - Spheres, OBBs and planes classify in double, from sums of products of two input floats
 *   (each exact in double, subnormals included) added without loss (sc_xsum): the tests
 *   are signs and squared comparisons of quantities whose error does not grow with the
 *   distance between the ray and the shape (docs/semantics.md, far shapes), and that are
 *   exact for small dyadic inputs.
 * - Reported t values are the double results rounded to float and kept within +-FLT_MAX;
 *   points are computed from the unrounded parameter (docs/semantics.md, beyond FLT_MAX).
 * Build with -ffp-contract=off: native and wasm then give bit-identical results.
 */
#include "sc_single.h"
#include "sc_exact.h"

/* ------------------------------------------------------------ public rays */

sc_raycast_result sc_raycast_aabb(const sc_ray *ray, const sc_aabb *box)
{
    sc_status s = sc_ray_check(ray);
    if (s == SC_OK) s = sc_aabb_check(box);
    return s == SC_OK ? sc__raycast_aabb_valid(ray, box) : sc_fail(s);
}

sc_raycast_result sc_raycast_obb(const sc_ray *ray, const sc_obb *box)
{
    sc_status s = sc_ray_check(ray);
    if (s == SC_OK) s = sc_obb_check(box);
    return s == SC_OK ? sc__raycast_obb_valid(ray, box) : sc_fail(s);
}

sc_raycast_result sc_raycast_sphere(const sc_ray *ray, const sc_sphere *sphere)
{
    sc_status s = sc_ray_check(ray);
    if (s == SC_OK) s = sc_sphere_check(sphere);
    return s == SC_OK ? sc__raycast_sphere_valid(ray, sphere) : sc_fail(s);
}

sc_raycast_result sc_raycast_capsule(const sc_ray *ray, const sc_capsule *capsule)
{
    sc_status s = sc_ray_check(ray);
    if (s == SC_OK) s = sc_capsule_check(capsule);
    return s == SC_OK ? sc__raycast_capsule_valid(ray, capsule) : sc_fail(s);
}

sc_raycast_result sc_raycast_plane(const sc_ray *ray, const sc_plane *plane)
{
    sc_status s = sc_ray_check(ray);
    if (s == SC_OK) s = sc_plane_check(plane);
    return s == SC_OK ? sc__raycast_plane_valid(ray, plane) : sc_fail(s);
}

sc_raycast_result sc_raycast(const sc_ray *ray, const sc_shape *shape)
{
    sc_status s = sc_ray_check(ray);
    if (s == SC_OK) s = sc_shape_check(shape);
    if (s != SC_OK) return sc_fail(s);
    switch (shape->type) {
    case SC_SHAPE_AABB: return sc__raycast_aabb_valid(ray, &shape->u.aabb);
    case SC_SHAPE_OBB: return sc__raycast_obb_valid(ray, &shape->u.obb);
    case SC_SHAPE_SPHERE: return sc__raycast_sphere_valid(ray, &shape->u.sphere);
    case SC_SHAPE_CAPSULE: return sc__raycast_capsule_valid(ray, &shape->u.capsule);
    default: return sc__raycast_plane_valid(ray, &shape->u.plane);
    }
}

/* ------------------------------------------------------- contains, closest */

static int sc_contains_valid(sc_vec3 p, const sc_shape *shape)
{
    switch (shape->type) {
    case SC_SHAPE_AABB: {
        const sc_aabb *b = &shape->u.aabb;
        return p.x >= b->min.x && p.x <= b->max.x && p.y >= b->min.y && p.y <= b->max.y &&
               p.z >= b->min.z && p.z <= b->max.z;
    }
    case SC_SHAPE_OBB: return sc__contains_obb(p, &shape->u.obb);
    case SC_SHAPE_CAPSULE: return sc__contains_capsule(p, &shape->u.capsule);
    default: return sc__contains_sphere(p, &shape->u.sphere);
    }
}

sc_test_result sc_contains(sc_vec3 p, const sc_shape *shape)
{
    sc_test_result r = {SC_OK, 0};
    sc_status s = sc_point_check(p);
    if (s == SC_OK) s = sc_shape_check(shape);
    if (s == SC_OK && shape->type == SC_SHAPE_PLANE) s = SC_ERR_UNSUPPORTED;
    if (s != SC_OK) { r.status = (int)s; return r; }
    r.value = sc_contains_valid(p, shape);
    return r;
}

static float sc_clampf(float v, float lo, float hi) { return sc_minf(sc_maxf(v, lo), hi); }

sc_point_result sc_closest_point(sc_vec3 p, const sc_shape *shape)
{
    sc_point_result r = {SC_OK, {0, 0, 0}};
    sc_status s = sc_point_check(p);
    if (s == SC_OK) s = sc_shape_check(shape);
    if (s != SC_OK) { r.status = (int)s; return r; }
    /* A point in a solid is its own closest point, exactly. */
    if (shape->type != SC_SHAPE_PLANE && sc_contains_valid(p, shape)) {
        r.point = sc_pz3(p);
        return r;
    }
    double q[3];
    switch (shape->type) {
    case SC_SHAPE_AABB: {
        const sc_aabb *b = &shape->u.aabb;
        r.point = sc_pz3((sc_vec3){sc_clampf(p.x, b->min.x, b->max.x), sc_clampf(p.y, b->min.y, b->max.y),
                                   sc_clampf(p.z, b->min.z, b->max.z)});
        return r;
    }
    case SC_SHAPE_OBB: {
        /* c + sum_i a_i clamp((p - c).a_i, -h_i, h_i), in double. */
        const sc_obb *b = &shape->u.obb;
        q[0] = b->center.x; q[1] = b->center.y; q[2] = b->center.z;
        for (int i = 0; i < 3; ++i) {
            double h = sc_get(b->half, i);
            double l = sc_offset_dot(p, b->center, b->axes[i]);
            l = l < -h ? -h : (l > h ? h : l);
            q[0] += l * b->axes[i].x;
            q[1] += l * b->axes[i].y;
            q[2] += l * b->axes[i].z;
        }
        break;
    }
    case SC_SHAPE_SPHERE: {
        /* c + r (p - c)/|p - c|. p is outside, so p - c is not zero; in double it is exact
         * unless the coordinates' exponents differ by more than 29, and then rounded relative
         * to its own length: the direction is right to a few 2^-53. */
        const sc_sphere *sp = &shape->u.sphere;
        double m[3];
        for (int i = 0; i < 3; ++i) m[i] = (double)sc_get(p, i) - sc_get(sp->center, i);
        sc_vec3 u = sc_unit_d(m, (sc_vec3){0, 0, 0});
        for (int i = 0; i < 3; ++i) q[i] = (double)sc_get(sp->center, i) + (double)sp->radius * sc_get(u, i);
        break;
    }
    case SC_SHAPE_CAPSULE: {
        /* The nearest point of the axis, moved out by the radius (sc_capsule.c). */
        r.point = sc_pz3(sc__closest_point_capsule(p, &shape->u.capsule));
        return r;
    }
    default: {
        /* p - n (n.p - d)/(n.n): both sums exact up to their final rounding; a normal
         * component that is 0 moves nothing. */
        const sc_plane *pl = &shape->u.plane;
        double t3[3];
        double nn = sc_xsum(t3, sc_terms_dot(t3, 0, pl->normal, pl->normal, 1.0));
        double dist = sc__plane_side(pl, p) / nn;
        for (int i = 0; i < 3; ++i) q[i] = (double)sc_get(p, i) - (double)sc_get(pl->normal, i) * dist;
        break;
    }
    }
    /* Coordinates past the float range (the exact point of a huge sphere, OBB or a far plane)
     * are reported as +-FLT_MAX, as in the raycasts. */
    r.point = sc_pz3(sc_dfin3(q));
    return r;
}

/* --------------------------------------------------------------- linetest */

sc_test_result sc_linetest(const sc_segment *segment, const sc_shape *shape)
{
    sc_test_result r = {SC_OK, 0};
    sc_status s = sc_segment_check(segment);
    if (s == SC_OK) s = sc_shape_check(shape);
    if (s != SC_OK) { r.status = (int)s; return r; }
    sc_vec3 a = segment->a, b = segment->b;
    if (shape->type == SC_SHAPE_PLANE) {
        r.value = sc__linetest_plane(a, b, &shape->u.plane);
    } else if (a.x == b.x && a.y == b.y && a.z == b.z) {
        r.value = sc_contains_valid(a, shape); /* a zero-length segment is a point test */
    } else if (shape->type == SC_SHAPE_SPHERE) {
        r.value = sc__linetest_sphere(a, b, &shape->u.sphere);
    } else if (shape->type == SC_SHAPE_CAPSULE) {
        r.value = sc__linetest_capsule(a, b, &shape->u.capsule);
    } else if (shape->type == SC_SHAPE_OBB) {
        r.value = sc__linetest_obb(a, b, &shape->u.obb);
    } else {
        r.value = sc__linetest_aabb(a, b, &shape->u.aabb);
    }
    return r;
}

/* ------------------------------------------------------------------ exit normals
 * The outward unit normal where a ray whose origin is inside a solid leaves it (the worlds'
 * SC_INSIDE_EXIT rule): the face the line crosses last, t_exit's face. On an edge or a corner any
 * face containing the exit point is correct, as for entry normals (docs/semantics.md). Each shape
 * file has its own (sc__exit_normal_aabb, _obb, _sphere, _capsule). */

sc_vec3 sc__exit_normal(const sc_ray *ray, const sc_shape *shape)
{
    switch (shape->type) {
    case SC_SHAPE_AABB: return sc__exit_normal_aabb(ray, &shape->u.aabb);
    case SC_SHAPE_OBB: return sc__exit_normal_obb(ray, &shape->u.obb);
    case SC_SHAPE_SPHERE: return sc__exit_normal_sphere(ray, &shape->u.sphere);
    case SC_SHAPE_CAPSULE: return sc__exit_normal_capsule(ray, &shape->u.capsule);
    default: return (sc_vec3){0, 0, 0};
    }
}
