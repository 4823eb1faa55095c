/* Consumer check: one ray-vs-AABB query through the installed public header and library.
 *
 * Ray origin (-3, 0.5, 0.25), dir (2, 0, 0); box [1,2] x [0,1] x [0,1].
 * x slab: t = (1 - -3) / 2 = 2 (entry) and (2 - -3) / 2 = 2.5 (exit); y and z: dir 0 with the
 * origin inside [0,1], so no bound. Hit at t = 2, point (1, 0.5, 0.25), normal (-1, 0, 0).
 * With tmax = 1.5 < 2 the same ray misses; dir (0, 0, 0) is refused as SC_ERR_RAY_DIR_ZERO.
 * All values are dyadic, so exact comparison is right. Exits 1 on any mismatch. */
#include "slabcast.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void expect(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "slabcast_consumer: FAILED: %s\n", what);
        failures++;
    }
}

int main(void) {
    sc_aabb box = {{1, 0, 0}, {2, 1, 1}};
    sc_ray ray = {.origin = {-3, 0.5f, 0.25f}, .dir = {2, 0, 0}, .tmax = INFINITY};

    sc_raycast_result r = sc_raycast_aabb(&ray, &box);
    printf("slabcast_consumer: status %d hit %d t %g t_enter %g t_exit %g point (%g, %g, %g) "
           "normal (%g, %g, %g)\n", r.status, r.hit, r.t, r.t_enter, r.t_exit,
           r.point.x, r.point.y, r.point.z, r.normal.x, r.normal.y, r.normal.z);
    expect(r.status == SC_OK, "status SC_OK");
    expect(r.hit == 1, "hit");
    expect(r.t == 2.0f && r.t_enter == 2.0f && r.t_exit == 2.5f, "t = t_enter = 2, t_exit = 2.5");
    expect(r.point.x == 1.0f && r.point.y == 0.5f && r.point.z == 0.25f, "point (1, 0.5, 0.25)");
    expect(r.normal.x == -1.0f && r.normal.y == 0.0f && r.normal.z == 0.0f, "normal (-1, 0, 0)");

    ray.tmax = 1.5f;
    r = sc_raycast_aabb(&ray, &box);
    expect(r.status == SC_OK && r.hit == 0, "tmax 1.5: miss");

    sc_ray zero = {.origin = {0, 0, 0}, .dir = {0, 0, 0}, .tmax = INFINITY};
    r = sc_raycast_aabb(&zero, &box);
    expect(r.status == SC_ERR_RAY_DIR_ZERO, "dir 0: SC_ERR_RAY_DIR_ZERO");
    expect(strcmp(sc_status_message((sc_status)r.status), "ray.dir is zero") == 0,
           "dir 0: message \"ray.dir is zero\"");

    if (failures) return 1;
    puts("slabcast_consumer: ok");
    return 0;
}
