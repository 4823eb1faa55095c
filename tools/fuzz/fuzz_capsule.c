/* fuzz_capsule: the capsule's single queries (docs/semantics.md, "Capsules") on float32 inputs of
 * any bit pattern, with their invariants checked by abort().
 *
 * Input: 2 header bytes, then 23 floats (4 bytes each, little-endian; missing bytes read 0):
 *   byte 0: bits 0-1 value mode (fuzz_common.h: raw, dyadic, fixed, mixed);
 *   byte 1: bit 0 |radius|, bit 1 tmax = +inf, bit 2 b = a (a ball), bit 3 the ray along the axis
 *           (dir = b - a, rounded), bit 4 radius 0, bit 5 the ray's origin at the segment's a;
 *   floats: ray origin, dir, tmax (7); segment a, b (6); point (3); capsule a, b, radius (7).
 *
 * Invariants (each run twice: as given, and with every 0 turned into -0, which must give
 * bit-identical results):
 *   - statuses: the first failing validator (input, then capsule); sc_capsule_valid agrees;
 *   - a hit: finite t = min(max(t_enter, 0), tmax) in [0, tmax], t_enter <= t_exit, t_exit >= 0,
 *     t_enter <= tmax, a finite point, a unit or zero normal, zero when t_enter < 0;
 *   - sc_raycast equals sc_raycast_capsule bit for bit;
 *   - the filtered decisions equal exact arithmetic alone (sc__capsule_decide_exact): raycast,
 *     contains, sc__segments_within;
 *   - a == b: every answer is the sphere's, bit for bit;
 *   - an origin (segment start, point) in the capsule: raycast hits at t = 0, linetest hits, the
 *     closest point is the point itself;
 *   - geometry, for inputs of magnitude below 2^40: a hit's point with t_enter > 0 lies on the
 *     surface (its distance from the axis is the radius within 2^-20 of the largest magnitude);
 *     a closest point outside lies on the surface, and no farther than the point's own distance.
 */
#include "fuzz_common.h"
#include "sc_internal.h"

#include <float.h>

#define NFLOATS 23

int sc__capsule_decide_exact(int kind, const float *v); /* sc_capsule.c, for tests */

typedef struct outputs {
    sc_raycast_result ray;
    sc_test_result line, contains;
    sc_point_result closest;
} outputs;

static sc_ray g_ray;
static sc_segment g_seg;
static sc_vec3 g_point;
static sc_capsule g_cap;

static void dump(void)
{
    fprintf(stderr, "ray (%a %a %a) (%a %a %a) %a\nsegment (%a %a %a) (%a %a %a)\npoint (%a %a %a)\n"
            "capsule (%a %a %a) (%a %a %a) %a\n", g_ray.origin.x, g_ray.origin.y, g_ray.origin.z, g_ray.dir.x,
            g_ray.dir.y, g_ray.dir.z, g_ray.tmax, g_seg.a.x, g_seg.a.y, g_seg.a.z, g_seg.b.x, g_seg.b.y, g_seg.b.z,
            g_point.x, g_point.y, g_point.z, g_cap.a.x, g_cap.a.y, g_cap.a.z, g_cap.b.x, g_cap.b.y, g_cap.b.z,
            g_cap.radius);
}

static int same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }
static int same_ray(const sc_raycast_result *a, const sc_raycast_result *b)
{
    return a->status == b->status && a->hit == b->hit && (!a->hit || same_bits(&a->t, &b->t, sizeof(float) * 9));
}

/* The distance from x to the segment a-b, in double (inputs below 2^40: no overflow). */
static double seg_dist(const double *x, sc_vec3 a, sc_vec3 b)
{
    double u[3], e[3], uu = 0, eu = 0;
    for (int i = 0; i < 3; ++i) {
        u[i] = (double)v3_at(b, i) - v3_at(a, i);
        e[i] = x[i] - v3_at(a, i);
        uu += u[i] * u[i];
        eu += e[i] * u[i];
    }
    double s = uu > 0 ? eu / uu : 0;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    double d2 = 0;
    for (int i = 0; i < 3; ++i) d2 += (e[i] - s * u[i]) * (e[i] - s * u[i]);
    return sqrt(d2);
}

static float max_mag(const float *v, int n)
{
    float m = 0;
    for (int i = 0; i < n; ++i) m = fabsf(v[i]) > m ? fabsf(v[i]) : m;
    return m;
}

static void check_hit(const sc_raycast_result *h, const sc_ray *r)
{
    FUZZ_CHECK(isfinite(h->t) && h->t >= 0 && h->t <= r->tmax);
    FUZZ_CHECK(h->t == fminf(fmaxf(h->t_enter, 0), r->tmax));
    FUZZ_CHECK(h->t_enter <= h->t_exit && h->t_exit >= 0 && h->t_enter <= r->tmax);
    FUZZ_CHECK(fuzz_finite3(h->point) && fuzz_unit_or_zero(h->normal));
    if (h->t_enter < 0) FUZZ_CHECK(h->normal.x == 0 && h->normal.y == 0 && h->normal.z == 0);
}

static void run(const sc_ray *r, const sc_segment *g, sc_vec3 p, const sc_capsule *c, outputs *o)
{
    sc_shape sh;
    memset(&sh, 0, sizeof sh);
    sh.type = SC_SHAPE_CAPSULE;
    sh.u.capsule = *c;
    o->ray = sc_raycast(r, &sh);
    o->line = sc_linetest(g, &sh);
    o->contains = sc_contains(p, &sh);
    o->closest = sc_closest_point(p, &sh);
    sc_raycast_result specific = sc_raycast_capsule(r, c);
    FUZZ_CHECK(same_ray(&o->ray, &specific));
    sc_status cs = sc_capsule_check(c), rs = sc_ray_check(r);
    FUZZ_CHECK(sc_capsule_valid(c) == (cs == SC_OK));
    FUZZ_CHECK(o->ray.status == (rs != SC_OK ? rs : cs));
    FUZZ_CHECK(o->contains.status == (sc_point_check(p) != SC_OK ? SC_ERR_POINT : cs));
    if (o->ray.status != SC_OK) FUZZ_CHECK(!o->ray.hit);
    if (cs != SC_OK) return;
    int ball = c->a.x == c->b.x && c->a.y == c->b.y && c->a.z == c->b.z;
    sc_shape sp;
    memset(&sp, 0, sizeof sp);
    sp.type = SC_SHAPE_SPHERE;
    sp.u.sphere = (sc_sphere){c->a, c->radius};
    if (ball) {
        sc_raycast_result s = sc_raycast(r, &sp);
        FUZZ_CHECK(same_ray(&o->ray, &s));
        FUZZ_CHECK(o->line.value == sc_linetest(g, &sp).value && o->contains.value == sc_contains(p, &sp).value);
        sc_point_result q = sc_closest_point(p, &sp);
        FUZZ_CHECK(same_bits(&q.point, &o->closest.point, sizeof q.point));
    }
    if (o->ray.status == SC_OK) {
        float v[14] = {r->origin.x, r->origin.y, r->origin.z, r->dir.x, r->dir.y, r->dir.z, c->a.x, c->a.y, c->a.z,
                       c->b.x, c->b.y, c->b.z, r->tmax, c->radius};
        if (!ball) FUZZ_CHECK(o->ray.hit == (sc__capsule_decide_exact(1, v) == 1));
        if (o->ray.hit) check_hit(&o->ray, r);
        if (sc_contains(r->origin, &sh).value) FUZZ_CHECK(o->ray.hit && o->ray.t == 0);
    }
    if (o->contains.status == SC_OK) {
        float v[14] = {p.x, p.y, p.z, 0, 0, 0, c->a.x, c->a.y, c->a.z, c->b.x, c->b.y, c->b.z, c->radius, 0};
        if (!ball) FUZZ_CHECK(o->contains.value == (sc__capsule_decide_exact(2, v) <= 0));
        FUZZ_CHECK(o->closest.status == SC_OK && fuzz_finite3(o->closest.point));
        if (o->contains.value)
            FUZZ_CHECK(o->closest.point.x == p.x && o->closest.point.y == p.y && o->closest.point.z == p.z);
    }
    if (o->line.status == SC_OK) {
        float v[14] = {g->a.x, g->a.y, g->a.z, g->b.x, g->b.y, g->b.z, c->a.x, c->a.y, c->a.z,
                       c->b.x, c->b.y, c->b.z, 0, c->radius};
        FUZZ_CHECK(sc__segments_within(g->a, g->b, c->a, c->b, 0, c->radius) == sc__capsule_decide_exact(0, v));
        if (!ball) FUZZ_CHECK(o->line.value == sc__capsule_decide_exact(0, v));
        if (sc_contains(g->a, &sh).value || sc_contains(g->b, &sh).value) FUZZ_CHECK(o->line.value);
    }
}

/* The geometry checks of the header, for moderate inputs. */
static void check_geometry(const sc_ray *r, sc_vec3 p, const sc_capsule *c, const outputs *o)
{
    float all[14] = {r->origin.x, r->origin.y, r->origin.z, r->dir.x, r->dir.y, r->dir.z, p.x, p.y, p.z,
                     c->a.x, c->a.y, c->a.z, c->b.x, c->b.y};
    float m = fmaxf(max_mag(all, 14), fmaxf(fabsf(c->b.z), fabsf(c->radius)));
    if (!(m < 0x1p40f) || sc_capsule_check(c) != SC_OK) return;
    double tol = 0x1p-20 * (m > 1 ? m : 1);
    if (o->ray.status == SC_OK && o->ray.hit && o->ray.t_enter > 0 && o->ray.t_enter < o->ray.t_exit) {
        double x[3] = {o->ray.point.x, o->ray.point.y, o->ray.point.z};
        FUZZ_CHECK(fabs(seg_dist(x, c->a, c->b) - c->radius) <= tol);
    }
    if (o->contains.status == SC_OK && !o->contains.value) {
        double x[3] = {o->closest.point.x, o->closest.point.y, o->closest.point.z}, y[3] = {p.x, p.y, p.z};
        FUZZ_CHECK(fabs(seg_dist(x, c->a, c->b) - c->radius) <= tol);
        double d = sqrt((x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]) + (x[2] - y[2]) * (x[2] - y[2]));
        FUZZ_CHECK(d <= seg_dist(y, c->a, c->b) - c->radius + tol);
    }
}

static float neg_zero(float x) { return x == 0 ? -0.0f : x; }
static sc_vec3 neg_zero3(sc_vec3 v) { return (sc_vec3){neg_zero(v.x), neg_zero(v.y), neg_zero(v.z)}; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_bytes b = {data, size, 0};
    int mode = fb_u8(&b) & 3, flags = fb_u8(&b);
    float f[NFLOATS];
    for (int i = 0; i < NFLOATS; ++i) f[i] = fb_value(fb_u32(&b), mode);
    sc_ray r = {{f[0], f[1], f[2]}, {f[3], f[4], f[5]}, (flags & 2) ? INFINITY : f[6]};
    sc_segment g = {{f[7], f[8], f[9]}, {f[10], f[11], f[12]}};
    sc_vec3 p = {f[13], f[14], f[15]};
    sc_capsule c = {{f[16], f[17], f[18]}, {f[19], f[20], f[21]}, f[22]};
    if (flags & 1) c.radius = fabsf(c.radius);
    if (flags & 16) c.radius = 0;
    if (flags & 4) c.b = c.a;
    if (flags & 8) r.dir = (sc_vec3){c.b.x - c.a.x, c.b.y - c.a.y, c.b.z - c.a.z};
    if (flags & 32) r.origin = c.a;
    g_ray = r, g_seg = g, g_point = p, g_cap = c;
    fuzz_dump = dump;
    outputs o1, o2;
    run(&r, &g, p, &c, &o1);
    check_geometry(&r, p, &c, &o1);
    sc_ray r2 = {neg_zero3(r.origin), neg_zero3(r.dir), r.tmax};
    sc_segment g2 = {neg_zero3(g.a), neg_zero3(g.b)};
    sc_capsule c2 = {neg_zero3(c.a), neg_zero3(c.b), neg_zero(c.radius)};
    run(&r2, &g2, neg_zero3(p), &c2, &o2);
    FUZZ_CHECK(same_ray(&o1.ray, &o2.ray));
    FUZZ_CHECK(o1.line.status == o2.line.status && o1.line.value == o2.line.value);
    FUZZ_CHECK(o1.contains.status == o2.contains.status && o1.contains.value == o2.contains.value);
    FUZZ_CHECK(o1.closest.status == o2.closest.status &&
               same_bits(&o1.closest.point, &o2.closest.point, sizeof o1.closest.point));
    return 0;
}
