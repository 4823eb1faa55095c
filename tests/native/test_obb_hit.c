/* sc__raycast_obb_hit (sc_obb.c), the OBB hits certified in plain double, against the exact test
 * sc__raycast_obb_valid: wherever it answers, every field bit for bit the same. Rays aimed at the
 * faces, edges and vertices of rotated, skewed (axes within sc_obb_check's 1e-4) and axis-aligned
 * dyadic boxes, at scales from 1e-30 to 1e30, near and far, with tmax at, just before and just
 * after the entry. */
#include "slabcast.h"
#include "sc_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "test.h"

static uint32_t g_seed = 0x9e3779b9u;
static uint32_t rnd(void)
{
    g_seed ^= g_seed << 13;
    g_seed ^= g_seed >> 17;
    g_seed ^= g_seed << 5;
    return g_seed;
}
static double rndu(void) { return (rnd() >> 8) * (1.0 / 16777216.0); } /* [0, 1) */
static double rnds(void) { return 2.0 * rndu() - 1.0; }                 /* [-1, 1) */

static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }
static int same_v3(sc_vec3 a, sc_vec3 b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z); }

/* A box of the given kind at scale s: 0 rotated (a random unit quaternion), 1 rotated then skewed
 * (every component moved by up to 2e-5), 2 a signed permutation with dyadic centre and half
 * sizes. Its centre is near the origin or far from it (up to 1e6 sizes). */
static sc_obb random_box(int kind, double s)
{
    sc_obb b;
    double far = rnd() % 3 == 0 ? rndu() * 1e6 : 2.0;
    if (kind == 2) {
        int perm = (int)(rnd() % 6);
        const int p[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
        for (int i = 0; i < 3; ++i) {
            sc_vec3 a = {0, 0, 0};
            v3_set(&a, p[perm][i], rnd() % 2 ? 1.0f : -1.0f);
            b.axes[i] = a;
            v3_set(&b.half, i, (float)(s * (double)(1 + rnd() % 8) / 4.0));
            v3_set(&b.center, i, (float)(s * (double)((int)(rnd() % 64) - 32) / 8.0 * (far > 2.0 ? 1024.0 : 1.0)));
        }
        return b;
    }
    double q[4], n = 0.0;
    for (int i = 0; i < 4; ++i) n += (q[i] = rnds()) * q[i];
    n = sqrt(n);
    for (int i = 0; i < 4; ++i) q[i] /= n;
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    const double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
                            {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
                            {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)}};
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) {
            double v = m[i][k] + (kind == 1 ? 2e-5 * rnds() : 0.0);
            v3_set(&b.axes[i], k, (float)v);
        }
        v3_set(&b.half, i, (float)(s * (0.05 + rndu())));
        v3_set(&b.center, i, (float)(s * far * rnds()));
    }
    return b;
}

/* A point on the box: a face's centre, a point on an edge, a vertex, or anywhere on its surface
 * (in the box frame: one coordinate at +-h, the others inside), in world coordinates. */
static void box_point(const sc_obb *b, double *p)
{
    double l[3];
    int which = (int)(rnd() % 4), face = (int)(rnd() % 3);
    for (int i = 0; i < 3; ++i) {
        double h = v3_at(b->half, i), sgn = rnd() % 2 ? 1.0 : -1.0;
        if (which == 0) l[i] = i == face ? sgn * h : 0.0;
        else if (which == 1) l[i] = i == face ? rnds() * h : sgn * h;
        else if (which == 2) l[i] = sgn * h;
        else l[i] = i == face ? sgn * h : rnds() * h;
    }
    for (int k = 0; k < 3; ++k) {
        p[k] = v3_at(b->center, k);
        for (int i = 0; i < 3; ++i) p[k] += l[i] * v3_at(b->axes[i], k);
    }
}

static int obb_hit_matches_exact(void)
{
    const double scales[] = {1e-30, 1e-10, 1e-3, 1.0, 3.0, 1e10, 1e30};
    long tried = 0, certified = 0, hits = 0;
    for (int it = 0; it < 300000; ++it) {
        double s = scales[rnd() % (sizeof scales / sizeof *scales)];
        sc_obb b = random_box((int)(rnd() % 3), s);
        if (sc_obb_check(&b) != SC_OK) continue;
        double target[3], o[3];
        box_point(&b, target);
        /* the origin 1.5 to 1e6 box sizes away, in a random direction */
        double dist = s * (1.5 + (rnd() % 4 == 0 ? rndu() * 1e6 : rndu() * 8.0));
        double u[3], un = 0.0;
        for (int k = 0; k < 3; ++k) un += (u[k] = rnds()) * u[k];
        un = sqrt(un);
        for (int k = 0; k < 3; ++k) o[k] = target[k] + dist * u[k] / un;
        /* the direction toward the target, at a scale of its own (unit, tiny or huge) */
        const double dscale[] = {1.0, 1.0, 1e-20, 1e20, 0.37};
        double ds = dscale[rnd() % 5] / dist;
        sc_ray ray = {{(float)o[0], (float)o[1], (float)o[2]},
                      {(float)((target[0] - o[0]) * ds), (float)((target[1] - o[1]) * ds), (float)((target[2] - o[2]) * ds)},
                      INFINITY};
        /* sometimes slightly off the target (a graze by a few ulps), sometimes a little inside it */
        if (rnd() % 4 == 0) {
            float *dc = rnd() % 3 == 0 ? &ray.dir.x : rnd() % 2 ? &ray.dir.y : &ray.dir.z;
            *dc = nextafterf(*dc, rnd() % 2 ? INFINITY : -INFINITY);
        }
        if (sc_ray_check(&ray) != SC_OK) continue;
        sc_raycast_result want = sc_raycast_obb(&ray, &b);
        ENSURE(want.status == SC_OK);
        /* tmax at, just before or just after the entry */
        if (want.hit && rnd() % 3 == 0) {
            int k = (int)(rnd() % 3);
            ray.tmax = k == 0 ? want.t_enter : nextafterf(want.t_enter, k == 1 ? 0.0f : INFINITY);
            if (!(ray.tmax >= 0.0f)) ray.tmax = 0.0f;
            want = sc_raycast_obb(&ray, &b);
        }
        ++tried;
        hits += want.hit;
        sc_raycast_result got;
        if (!sc__raycast_obb_hit(&ray, &b, &got)) continue;
        ++certified;
        if (!(got.status == SC_OK && got.hit && want.hit && same_bits(got.t, want.t) && same_bits(got.t_enter, want.t_enter) &&
              same_bits(got.t_exit, want.t_exit) && same_v3(got.point, want.point) && same_v3(got.normal, want.normal))) {
            fprintf(stderr, "  ray (%a %a %a) (%a %a %a) %a, box c (%a %a %a) h (%a %a %a):\n"
                            "  certified t %a enter %a exit %a point (%a %a %a), exact hit %d t %a enter %a exit %a point (%a %a %a)\n",
                    ray.origin.x, ray.origin.y, ray.origin.z, ray.dir.x, ray.dir.y, ray.dir.z, ray.tmax, b.center.x, b.center.y,
                    b.center.z, b.half.x, b.half.y, b.half.z, got.t, got.t_enter, got.t_exit, got.point.x, got.point.y,
                    got.point.z, want.hit, want.t, want.t_enter, want.t_exit, want.point.x, want.point.y, want.point.z);
            ENSURE(0);
        }
    }
    printf("  %ld rays, %ld hits, %ld certified\n", tried, hits, certified);
    /* not vacuous: most of these hits are certain */
    ENSURE(tried > 200000 && certified > hits / 3);
    return 0;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    RUN_TEST(obb_hit_matches_exact);
    printf("%d run, %d failed\n", g_run, g_failed_tests);
    return g_failed_tests != 0;
}
