/* Internal entry points shared by the core and the world (not part of the public API). */
#ifndef SC_INTERNAL_H
#define SC_INTERNAL_H

#include "slabcast.h"

/* The exact single queries on inputs already validated. */
sc_raycast_result sc__raycast_aabb_valid(const sc_ray *ray, const sc_aabb *box);
sc_raycast_result sc__raycast_obb_valid(const sc_ray *ray, const sc_obb *box);
sc_raycast_result sc__raycast_sphere_valid(const sc_ray *ray, const sc_sphere *sphere);

#endif
