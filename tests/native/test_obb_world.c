/* World queries against OBBs whose axes are orthonormal only within the contract's 1e-4
 * (docs/semantics.md, "Shapes"): an OBB is its three slabs |a_i . (x - c)| <= h_i, so every world
 * query must find the points of that set, as the single queries do, even where the slab set reaches
 * beyond the parallelepiped the axes span (issue 22, D1 to D3).
 *   - by hand: the repros of the issue (each failed before the world bounded the whole slab set and
 *     box sweeps used the slabs);
 *   - random: OBBs skewed up to the full tolerance, points sampled inside the slab set (sc_contains,
 *     exact) near its extreme vertices, and every world query must find them.
 * Usage: slabcast_obb_world_tests [NAME-SUBSTRING] */
#include "slabcast.h"
#include "sc_internal.h" /* sc__obb_bounds */

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"


/* As ENSURE, but the test goes on: each repro line reports on its own. */
#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            ++g_failures;                                                            \
            fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

static unsigned long long g_rng = 0x2545F4914F6CDD1Dull;
static unsigned rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (unsigned)(g_rng >> 32);
}
static double urand(void) { return (rnd() + 0.5) / 4294967296.0; } /* (0, 1) */

/* The OBB of the issue: axes [[1,0,0],[0,1,0],[0,7e-5,1]], half [1,1000,1], at the origin. */
static const float k_obb[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 7e-5f, 1, 1, 1000, 1};

static sc_obb obb_of(const float *p)
{
    sc_obb o = {{p[0], p[1], p[2]}, {{p[3], p[4], p[5]}, {p[6], p[7], p[8]}, {p[9], p[10], p[11]}}, {p[12], p[13], p[14]}};
    return o;
}

static int contains(const sc_obb *o, sc_vec3 p)
{
    sc_shape sh = {.type = SC_SHAPE_OBB, .u.obb = *o};
    sc_test_result r = sc_contains(p, &sh);
    return r.status == SC_OK && r.value;
}

/* D1: the point p = [0, -999.5, 1.04] is in the slab set (z + 7e-5 y = 0.970035 <= 1) but beyond
 * the parallelepiped (z <= 1): every world query must find it. */
static int d1_slab_set_points(void)
{
    const sc_obb o = obb_of(k_obb);
    const sc_vec3 p = {0, -999.5f, 1.04f};
    ENSURE(sc_obb_valid(&o) && contains(&o, p));
    sc_world *w = sc_world_create();
    int32_t first, out[4], total = -1, idx = -7;
    ENSURE(sc_world_add_obbs(w, k_obb, 1, &first) == SC_OK && sc_world_commit(w) == SC_OK);
    sc_sphere s = {p, 0.001f};
    CHECK(sc_world_overlap_sphere(w, &s, out, 4, &total, NULL) == SC_OK && total == 1 && out[0] == 0);
    sc_aabb q = {{-1, -1000, 1.03f}, {1, -999, 1.06f}};
    CHECK(sc_world_overlap_aabb(w, &q, out, 4, &total, NULL) == SC_OK && total == 1 && out[0] == 0);
    float d = -1, cp[3];
    CHECK(sc_world_closest_objects(w, &p.x, 1, 0.0f, &idx, &d, cp, NULL, NULL) == SC_OK);
    CHECK(idx == 0 && d == 0.0f && cp[0] == p.x && cp[1] == p.y && cp[2] == p.z);
    /* a point sphere (r = 0) swept through p along x: it enters the slab set at x = -1, t = 4 */
    float sw[8] = {-5, -999.5f, 1.04f, 1, 0, 0, INFINITY, 0}, t = -1;
    CHECK(sc_world_cast_spheres(w, sw, 1, &t, &idx, NULL, NULL, NULL, NULL) == SC_OK && idx == 0 && t == 4.0f);
    sc_world_destroy(w);
    /* overlapOBB: that OBB as the query volume, an AABB object holding p */
    w = sc_world_create();
    float box[6] = {-1, -1000, 1.03f, 1, -999, 1.06f};
    ENSURE(sc_world_add_aabbs(w, box, 1, &first) == SC_OK && sc_world_commit(w) == SC_OK);
    CHECK(sc_world_overlap_obb(w, &o, out, 4, &total, NULL) == SC_OK && total == 1 && out[0] == 0);
    sc_world_destroy(w);
    /* half [1, 10, 1], skew 9e-5: the slab set reaches z = 1 + 9e-4 at y = -10; the box
     * [-1,1] x [-10,-9.9] x [1.0005,1.001] holds its point (0, -10, 1.0005) */
    const float o2f[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 9e-5f, 1, 1, 10, 1};
    const sc_obb o2 = obb_of(o2f);
    ENSURE(sc_obb_valid(&o2) && contains(&o2, (sc_vec3){0, -10, 1.0005f}));
    w = sc_world_create();
    float box2[6] = {-1, -10, 1.0005f, 1, -9.9f, 1.001f};
    ENSURE(sc_world_add_aabbs(w, box2, 1, &first) == SC_OK && sc_world_commit(w) == SC_OK);
    CHECK(sc_world_overlap_obb(w, &o2, out, 4, &total, NULL) == SC_OK && total == 1 && out[0] == 0);
    sc_world_destroy(w);
    return 0;
}

/* D2: the ray from [-5, -999.5, 1.04] along x enters the slab set at t = 4 (x = -1): every world
 * ray query must report it, as sc_raycast does. */
static int d2_world_rays(void)
{
    const sc_obb o = obb_of(k_obb);
    sc_ray r = {{-5, -999.5f, 1.04f}, {1, 0, 0}, INFINITY};
    sc_raycast_result h = sc_raycast_obb(&r, &o);
    ENSURE(h.status == SC_OK && h.hit && h.t == 4.0f);
    sc_world *w = sc_world_create();
    int32_t first, idx = -7, total = -1;
    ENSURE(sc_world_add_obbs(w, k_obb, 1, &first) == SC_OK && sc_world_commit(w) == SC_OK);
    float ray[7] = {-5, -999.5f, 1.04f, 1, 0, 0, INFINITY}, t = -1, n[3];
    CHECK(sc_world_cast_rays(w, ray, 1, &t, &idx, n, NULL, NULL) == SC_OK && idx == 0 && t == h.t);
    CHECK(n[0] == h.normal.x && n[1] == h.normal.y && n[2] == h.normal.z);
    idx = -7;
    CHECK(sc_world_cast_rays_bruteforce(w, ray, 1, &t, &idx, NULL, NULL, NULL) == SC_OK && idx == 0 && t == h.t);
    bool any = false;
    CHECK(sc_world_any_hit(w, ray, 1, &any, NULL, NULL) == SC_OK && any);
    idx = -7;
    CHECK(sc_world_cast_ray_all(w, ray, 1, &t, &idx, NULL, &total, NULL) == SC_OK && total == 1 && idx == 0 && t == h.t);
    float seg[6] = {-5, -999.5f, 1.04f, 5, -999.5f, 1.04f}; /* dir 10: t = 0.4 */
    idx = -7;
    CHECK(sc_world_cast_segments(w, seg, 1, &t, &idx, NULL, NULL, NULL) == SC_OK && idx == 0 && t == 0.4f);
    sc_world_destroy(w);
    return 0;
}

/* D3: castBoxes against an OBB reported a point 0.091 away from the moving box; and a box of half
 * extents 0 on the D2 ray missed the slab set that the point sphere and the ray hit. */
static int d3_box_sweeps(void)
{
    const float of[15] = {2.5089881f, -3.959465f, 2.6035903f, -0.2225032f, 0.58588123f, -0.7792532f,
                          0.94869405f, -0.05407142f, -0.3115379f, -0.22465955f, -0.808591f, -0.543791f,
                          0.482692f, 0.16775157f, 1.5256475f};
    sc_world *w = sc_world_create();
    int32_t first, idx = -7;
    ENSURE(sc_world_add_obbs(w, of, 1, &first) == SC_OK && sc_world_commit(w) == SC_OK);
    const float sw[10] = {4.9488444f, -0.6676621f, 0.53868324f, -8.937843f, -10.120263f, 0.40594497f, INFINITY,
                          0.9299975f, 1.0179739f, 1.4136775f};
    float t = -1, n[3], p[3];
    for (int brute = 0; brute < 2; ++brute) {
        sc_status s = brute ? sc_world_cast_boxes_bruteforce(w, sw, 1, &t, &idx, n, p, NULL, NULL)
                            : sc_world_cast_boxes(w, sw, 1, &t, &idx, n, p, NULL, NULL);
        CHECK(s == SC_OK && idx == 0 && fabsf(t - 0.217406f) < 2e-6f);
        /* the point is on the object (its slabs) and on the moving box at t */
        const sc_obb o = obb_of(of);
        for (int i = 0; i < 3; ++i) {
            double l = 0;
            for (int k = 0; k < 3; ++k) l += ((double)p[k] - v3_at(o.center, k)) * v3_at(o.axes[i], k);
            CHECK(fabs(l) <= v3_at(o.half, i) + 1e-5);
        }
        for (int k = 0; k < 3; ++k) CHECK(fabs(p[k] - (sw[k] + (double)t * sw[3 + k])) <= sw[7 + k] + 1e-5);
        /* the independent estimate of where the edges touch */
        const double want[3] = {2.5051, -3.8858, 2.0406};
        for (int k = 0; k < 3; ++k) CHECK(fabs(p[k] - want[k]) < 1e-3);
        CHECK(fabs(sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]) - 1) < 1e-6);
    }
    sc_world_destroy(w);
    /* face to face: an OBB turned 90 degrees about z (x in [-1, 1], y in [-2, 2], z in [-0.5, 0.5])
     * and a box of half 0.5 falling from z = 5 at (0.8, 1.9): its bottom reaches the top face at
     * t = 4, normal +z; the faces share [0.3, 1] x [1.4, 2] at z = 0.5, and the point must be there */
    {
        sc_world *fw = sc_world_create();
        const float ff[15] = {0, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0, 1, 2, 1, 0.5f};
        ENSURE(sc_world_add_obbs(fw, ff, 1, &first) == SC_OK && sc_world_commit(fw) == SC_OK);
        const float fs[10] = {0.8f, 1.9f, 5, 0, 0, -1, INFINITY, 0.5f, 0.5f, 0.5f};
        CHECK(sc_world_cast_boxes(fw, fs, 1, &t, &idx, n, p, NULL, NULL) == SC_OK && idx == 0 && t == 4.0f);
        CHECK(n[0] == 0.0f && n[1] == 0.0f && n[2] == 1.0f);
        CHECK(p[0] >= 0.3f - 1e-6f && p[0] <= 1.0f + 1e-6f && p[1] >= 1.4f - 1e-6f && p[1] <= 2.0f + 1e-6f && fabsf(p[2] - 0.5f) < 1e-6f);
        sc_world_destroy(fw);
    }
    /* a box of half extents 0 is a point: it enters the D2 slab set at t = 4, as the point sphere */
    w = sc_world_create();
    ENSURE(sc_world_add_obbs(w, k_obb, 1, &first) == SC_OK && sc_world_commit(w) == SC_OK);
    float b0[10] = {-5, -999.5f, 1.04f, 1, 0, 0, INFINITY, 0, 0, 0}, s0[8] = {-5, -999.5f, 1.04f, 1, 0, 0, INFINITY, 0};
    float ts = -1;
    int32_t is = -7;
    CHECK(sc_world_cast_spheres_bruteforce(w, s0, 1, &ts, &is, NULL, NULL, NULL, NULL) == SC_OK && is == 0 && ts == 4.0f);
    idx = -7;
    CHECK(sc_world_cast_boxes_bruteforce(w, b0, 1, &t, &idx, n, p, NULL, NULL) == SC_OK && idx == 0 && t == 4.0f);
    CHECK(n[0] == -1.0f && n[1] == 0.0f && n[2] == 0.0f && p[0] == -1.0f && p[1] == -999.5f && p[2] == 1.04f);
    idx = -7;
    CHECK(sc_world_cast_boxes(w, b0, 1, &t, &idx, NULL, NULL, NULL, NULL) == SC_OK && idx == 0 && t == 4.0f);
    sc_world_destroy(w);
    return 0;
}

/* A sphere meets an OBB in the OBB's frame (docs/semantics.md, "Sweeps"): with axes[2] = (0, 0, s),
 * s = 1 - 0.49e-4 (valid: s^2 - 1 = -0.98e-4), a centre at height z has frame coordinate s z, so a
 * sphere of radius 1000 passing at z = 1001.02 touches the half-1 box (s * 1001.02 = 1000.97...
 * <= 1 + 1000), 1000.02 from the slab set's top z = 1/s. The BVH must not cull it: its bounds are
 * grown by r (1 + 2^-12), not by r (1 + 2^-20) (before, the BVH missed what brute force hit). */
static int sphere_sweep_culling(void)
{
    const float s = 1.0f - 0.49e-4f;
    const float of[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, s, 1, 1, 1};
    const sc_obb o = obb_of(of);
    ENSURE(sc_obb_valid(&o));
    sc_world *w = sc_world_create();
    int32_t first, idx = -7, ib = -7;
    ENSURE(sc_world_add_obbs(w, of, 1, &first) == SC_OK && sc_world_commit(w) == SC_OK);
    const float sw[8] = {-5000, 0, 1001.02f, 1, 0, 0, INFINITY, 1000};
    float t = -1, tb = -1;
    CHECK(sc_world_cast_spheres_bruteforce(w, sw, 1, &tb, &ib, NULL, NULL, NULL, NULL) == SC_OK && ib == 0);
    CHECK(sc_world_cast_spheres(w, sw, 1, &t, &idx, NULL, NULL, NULL, NULL) == SC_OK && idx == ib && t == tb);
    /* the frame contact: l = (x, 0, s z) reaches the rounded box when (-1 - x)^2 + (s z - 1)^2 = 1000^2 */
    const double lz = (double)s * 1001.02f - 1, x = -1 - sqrt(1000.0 * 1000.0 - lz * lz);
    CHECK(fabs(tb - (x + 5000)) < 1e-3);
    sc_world_destroy(w);
    return 0;
}

/* sc__obb_bounds at the edges: zero halves give the centre itself; the OBB reaches
 * z = 1 + 7e-5 * 1000 (its slab set's vertex), and the bound is not much looser; FLT_MAX halves
 * saturate at +-FLT_MAX (never infinite or NaN) and such an object is still hit (a far object). */
static int bounds_edges(void)
{
    sc_obb o = {{1.5f, -2, 3}, {{1, 0, 0}, {0, 1, 0}, {0, 7e-5f, 1}}, {0, 0, 0}};
    sc_aabb b = sc__obb_bounds(&o);
    CHECK(b.min.x == 1.5f && b.max.x == 1.5f && b.min.y == -2 && b.max.y == -2 && b.min.z == 3 && b.max.z == 3);
    o = obb_of(k_obb);
    b = sc__obb_bounds(&o);
    const double vz = 1 + (double)7e-5f * 1000; /* z + 7e-5 y = 1 at y = -1000 */
    CHECK(b.max.z >= vz && b.min.z <= -vz && b.max.z < vz + 1e-3 && b.max.y >= 1000 && b.max.y < 1000.001);
    o.half = (sc_vec3){FLT_MAX, FLT_MAX, FLT_MAX};
    b = sc__obb_bounds(&o);
    CHECK(b.min.x == -FLT_MAX && b.max.x == FLT_MAX && b.min.z == -FLT_MAX && b.max.z == FLT_MAX);
    sc_world *w = sc_world_create();
    int32_t first, idx = -7;
    float big[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 7e-5f, 1, FLT_MAX, FLT_MAX, FLT_MAX};
    ENSURE(sc_world_add_obbs(w, big, 1, &first) == SC_OK && sc_world_commit(w) == SC_OK);
    float ray[7] = {1e30f, 1e30f, 1e30f, 1, 0, 0, INFINITY}, t = -1;
    CHECK(sc_world_cast_rays(w, ray, 1, &t, &idx, NULL, NULL, NULL) == SC_OK && idx == 0 && t == 0.0f);
    sc_world_destroy(w);
    return 0;
}

/* ------------------------------------------------------------------ random */

typedef struct skewed {
    float f[15];    /* the OBB as the world takes it */
    double inv[3][3]; /* A^-1 (A: the float axes as rows), in double */
} skewed;

static void rotation(double R[3][3])
{
    /* a random unit quaternion */
    double q[4], n = 0;
    for (int i = 0; i < 4; ++i) { q[i] = urand() * 2 - 1; n += q[i] * q[i]; }
    n = sqrt(n);
    double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
    double M[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                      {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                      {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    memcpy(R, M, sizeof M);
}

/* An OBB whose Gram matrix deviates from I by up to (just under) 1e-4: rows (I + K) R with K
 * symmetric, |K_ij| ~ 0.49e-4 (G = (I + K)^2), then rounded to float and checked by the validator
 * (scaled down until accepted). R is a random rotation, or the identity (axis-aligned, so that the
 * skew shows on thin axes), halves anisotropic (0 to 1000). */
static int make_skewed(skewed *s, float scale_c)
{
    double R[3][3];
    if (rnd() % 2) rotation(R);
    else for (int i = 0; i < 3; ++i) for (int j = 0; j < 3; ++j) R[i][j] = i == j;
    double K[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = i; j < 3; ++j) K[i][j] = K[j][i] = (rnd() % 2 ? 1 : -1) * 0.49e-4 * (0.9 + 0.1 * urand());
    for (double shrink = 1.0; shrink > 0.5; shrink -= 0.02) {
        float a[3][3];
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k) {
                double v = R[i][k];
                for (int j = 0; j < 3; ++j) v += shrink * K[i][j] * R[j][k];
                a[i][k] = (float)v;
            }
        for (int i = 0; i < 3; ++i) {
            s->f[i] = (float)((urand() * 2 - 1) * scale_c);
            for (int k = 0; k < 3; ++k) s->f[3 + 3 * i + k] = a[i][k];
            int kind = rnd() % 16; /* zero, tiny, huge (1e20: still inside the BVH), up to 1000, up to 1 */
            double h = kind == 0 ? 0.0 : kind == 1 ? 1e-30 * urand() : kind == 2 ? 1e20 * urand() : (kind % 2 ? 1000.0 * urand() : urand());
            s->f[12 + i] = (float)h;
        }
        sc_obb o = obb_of(s->f);
        if (!sc_obb_valid(&o)) continue;
        /* A^-1 = adj(A) / det(A), in double from the float axes */
        double A[3][3];
        for (int i = 0; i < 3; ++i) for (int k = 0; k < 3; ++k) A[i][k] = a[i][k];
        double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                     A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
                s->inv[i][j] = (A[r0][c0] * A[r1][c1] - A[r0][c1] * A[r1][c0]) / det;
            }
        return 1;
    }
    return 0;
}

/* A float point in the slab set near vertex (signs sg) of it: c + A^-1 (sg * h * (1 - pull)),
 * checked with the exact sc_contains; the pull grows from 1e-6 to 1e-3 of the halves until the
 * rounded point is inside (0 when it never is: a zero half, say). */
static int vertex_point(const skewed *s, int sg, sc_vec3 *out)
{
    const sc_obb o = obb_of(s->f);
    for (double pull = 1e-6; pull < 2e-3; pull *= 4) {
        double l[3];
        for (int i = 0; i < 3; ++i) l[i] = ((sg >> i & 1) ? 1 : -1) * (double)s->f[12 + i] * (1 - pull * (1 + urand()));
        float p[3];
        for (int k = 0; k < 3; ++k) p[k] = (float)(s->f[k] + s->inv[k][0] * l[0] + s->inv[k][1] * l[1] + s->inv[k][2] * l[2]);
        *out = (sc_vec3){p[0], p[1], p[2]};
        if (contains(&o, *out)) return 1;
    }
    return 0;
}

/* One skewed OBB alone in a world: every query at a point p in it must find it. */
static int query_point(sc_world *w, const sc_obb *o, sc_vec3 p, int *beyond, int *hits)
{
    int32_t out[2], total = -1, idx = -7;
    /* beyond the parallelepiped c + A^T l: what the old bounds covered */
    for (int k = 0; k < 3; ++k) {
        double e = 0;
        for (int i = 0; i < 3; ++i) e += fabs(v3_at(o->axes[i], k)) * v3_at(o->half, i);
        if (fabs(v3_at(p, k) - v3_at(o->center, k)) > e) { ++*beyond; break; }
    }
    sc_sphere s = {p, 0};
    ENSURE(sc_world_overlap_sphere(w, &s, out, 2, &total, NULL) == SC_OK && total == 1);
    sc_aabb q = {p, p};
    ENSURE(sc_world_overlap_aabb(w, &q, out, 2, &total, NULL) == SC_OK && total == 1);
    float d = -1;
    ENSURE(sc_world_closest_objects(w, &p.x, 1, 0.0f, &idx, &d, NULL, NULL, NULL) == SC_OK && idx == 0 && d == 0.0f);
    /* rays and sweeps of a point sphere and a point box from p: t = 0 */
    float at[10] = {p.x, p.y, p.z, 0, 0, 1, INFINITY, 0, 0, 0}, t = -1;
    bool any = false;
    ENSURE(sc_world_cast_rays(w, at, 1, &t, &idx, NULL, NULL, NULL) == SC_OK && idx == 0 && t == 0.0f);
    ENSURE(sc_world_cast_rays_bruteforce(w, at, 1, &t, &idx, NULL, NULL, NULL) == SC_OK && idx == 0 && t == 0.0f);
    ENSURE(sc_world_any_hit(w, at, 1, &any, NULL, NULL) == SC_OK && any);
    ENSURE(sc_world_cast_ray_all(w, at, 2, &t, &idx, NULL, &total, NULL) == SC_OK && total == 1 && t == 0.0f);
    float seg[6] = {p.x, p.y, p.z, p.x, p.y, p.z};
    ENSURE(sc_world_cast_segments(w, seg, 1, &t, &idx, NULL, NULL, NULL) == SC_OK && idx == 0 && t == 0.0f);
    ENSURE(sc_world_cast_spheres(w, at, 1, &t, &idx, NULL, NULL, NULL, NULL) == SC_OK && idx == 0 && t == 0.0f);
    ENSURE(sc_world_cast_boxes(w, at, 1, &t, &idx, NULL, NULL, NULL, NULL) == SC_OK && idx == 0 && t == 0.0f);
    ENSURE(sc_world_cast_boxes_bruteforce(w, at, 1, &t, &idx, NULL, NULL, NULL, NULL) == SC_OK && idx == 0 && t == 0.0f);
    /* a ray towards p from 2 away along a random direction: the world answers as sc_raycast does,
     * and the point sphere and point box sweeps as their brute force */
    double u[3], n = 0;
    for (int k = 0; k < 3; ++k) { u[k] = urand() * 2 - 1; n += u[k] * u[k]; }
    float ray[10] = {0, 0, 0, 0, 0, 0, INFINITY, 0, 0, 0};
    for (int k = 0; k < 3; ++k) {
        ray[3 + k] = (float)(u[k] / sqrt(n));
        ray[k] = v3_at(p, k) - 2 * ray[3 + k];
    }
    sc_ray r = {{ray[0], ray[1], ray[2]}, {ray[3], ray[4], ray[5]}, INFINITY};
    sc_raycast_result h = sc_raycast_obb(&r, o);
    ENSURE(h.status == SC_OK);
    ENSURE(sc_world_cast_rays(w, ray, 1, &t, &idx, NULL, NULL, NULL) == SC_OK && idx == (h.hit ? 0 : -1) && t == (h.hit ? h.t : 0.0f));
    ENSURE(sc_world_cast_rays_bruteforce(w, ray, 1, &t, &idx, NULL, NULL, NULL) == SC_OK && idx == (h.hit ? 0 : -1) && t == (h.hit ? h.t : 0.0f));
    float tb = -1;
    int32_t ib = -7;
    for (int box = 0; box < 2; ++box) {
        ENSURE((box ? sc_world_cast_boxes(w, ray, 1, &t, &idx, NULL, NULL, NULL, NULL)
                    : sc_world_cast_spheres(w, ray, 1, &t, &idx, NULL, NULL, NULL, NULL)) == SC_OK);
        ENSURE((box ? sc_world_cast_boxes_bruteforce(w, ray, 1, &tb, &ib, NULL, NULL, NULL, NULL)
                    : sc_world_cast_spheres_bruteforce(w, ray, 1, &tb, &ib, NULL, NULL, NULL, NULL)) == SC_OK);
        ENSURE(idx == ib && t == tb);
    }
    *hits += h.hit;
    return 0;
}

static int random_skewed_obbs(void)
{
    int points = 0, beyond = 0, hits = 0;
    for (int it = 0; it < 400; ++it) {
        skewed s;
        if (!make_skewed(&s, it % 4 == 0 ? 1e4f : 10.0f)) continue;
        const sc_obb o = obb_of(s.f);
        sc_world *w = sc_world_create();
        int32_t first;
        ENSURE(sc_world_add_obbs(w, s.f, 1, &first) == SC_OK && sc_world_commit(w) == SC_OK);
        /* and an overlapOBB world: point AABBs at the sampled points */
        sc_world *pw = sc_world_create();
        int np = 0;
        for (int sg = 0; sg < 8; ++sg) {
            sc_vec3 p;
            if (!vertex_point(&s, sg, &p)) continue;
            ++points;
            if (query_point(w, &o, p, &beyond, &hits)) {
                fprintf(stderr, "  OBB %d, vertex %d: point (%.9g, %.9g, %.9g)\n", it, sg, p.x, p.y, p.z);
                return 1;
            }
            float b[6] = {p.x, p.y, p.z, p.x, p.y, p.z};
            ENSURE(sc_world_add_aabbs(pw, b, 1, &first) == SC_OK);
            ++np;
        }
        int32_t out[8], total = -1;
        ENSURE(sc_world_commit(pw) == SC_OK && sc_world_overlap_obb(pw, &o, out, 8, &total, NULL) == SC_OK && total == np);
        sc_world_destroy(pw);
        sc_world_destroy(w);
    }
    fprintf(stderr, "  %d points in skewed slab sets, %d beyond the parallelepiped, %d rays towards them hit\n", points,
            beyond, hits);
    ENSURE(points > 1000 && beyond > points / 10 && hits > points / 2);
    return 0;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    RUN_TEST(d1_slab_set_points);
    RUN_TEST(d2_world_rays);
    RUN_TEST(d3_box_sweeps);
    RUN_TEST(bounds_edges);
    RUN_TEST(sphere_sweep_culling);
    RUN_TEST(random_skewed_obbs);
    printf("%d passed, %d failed\n", g_run - g_failed_tests, g_failed_tests);
    return g_failed_tests ? 1 : 0;
}
