/* The capsule's ray query against the code it had before its quick paths (tests/native/capsule_ref.h,
 * main's src/sc_capsule.c at 2258ddf), bit for bit: hit, t, t_enter, t_exit, point, normal and
 * the exit normal, on millions of generated rays: random; grazing the cylinder and the end balls
 * (by 0 and by 2^-60 .. 2^-10 of the radius, either side); the origin inside, on the surface and
 * just off it; rays along the axis and along coordinate axes at the radius; a == b, radius 0;
 * every position scaled by 2^-100 .. 2^100 (about 1e-30 .. 1e30), and a far origin or a tiny or
 * huge direction against a small capsule; tmax 0, finite (also the entry itself) and infinite;
 * -0 in every place a zero can be. The expected values come from the old code, an independent
 * implementation of the same contract (docs/semantics.md, "Capsules"), not from the code under
 * test. A build with SC_CAP_NO_MARGIN=1 or 2 (src/sc_capsule_fast.h) must fail here.
 * Usage: slabcast_capsule_fast_tests [CASES] (default 2,000,000) */
#include "slabcast.h"
#include "sc_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsule_ref.h"

static uint64_t g_state = 0x9e3779b97f4a7c15ull;
static uint64_t next_u64(void)
{
    uint64_t z = (g_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double uni(void) { return (double)(next_u64() >> 11) * 0x1p-53; }      /* [0, 1) */
static double sym(double s) { return (uni() * 2.0 - 1.0) * s; }                /* [-s, s) */
static int pick(int n) { return (int)(next_u64() % (uint64_t)n); }

typedef struct { double x, y, z; } dv;
static dv dadd(dv a, dv b) { return (dv){a.x + b.x, a.y + b.y, a.z + b.z}; }
static dv dsub(dv a, dv b) { return (dv){a.x - b.x, a.y - b.y, a.z - b.z}; }
static dv dmul(dv a, double k) { return (dv){a.x * k, a.y * k, a.z * k}; }
static double ddot(dv a, dv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dv dcross(dv a, dv b) { return (dv){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
static dv dunit(dv a) { return dmul(a, 1.0 / sqrt(ddot(a, a))); }
static dv drand_unit(void)
{
    for (;;) {
        dv v = {sym(1), sym(1), sym(1)};
        double n = ddot(v, v);
        if (n > 1e-4 && n <= 1) return dmul(v, 1.0 / sqrt(n));
    }
}
static sc_vec3 f3(dv a) { return (sc_vec3){(float)a.x, (float)a.y, (float)a.z}; }
static dv d3(sc_vec3 a) { return (dv){a.x, a.y, a.z}; }

/* A unit vector perpendicular to u (u non-zero). */
static dv perp(dv u)
{
    dv r = dcross(u, drand_unit());
    return ddot(r, r) > 0 ? dunit(r) : dunit(dcross(u, (dv){1, 0, 0}));
}

/* The relative offset of a grazing case: 0, or +-2^-k for k in 10..60. */
static double graze_eps(void)
{
    if (pick(4) == 0) return 0.0;
    return ldexp(pick(2) ? 1.0 : -1.0, -(10 + pick(51)));
}

static float rand_tmax(void)
{
    switch (pick(8)) {
    case 0: return 0.0f;
    case 1: case 2: return (float)(uni() * 60.0);
    case 3: return (float)ldexp(uni(), pick(40) - 20);
    default: return INFINITY;
    }
}

/* The random capsule of the families below: ends in a cube of 8, radius up to 3. */
static sc_capsule rand_capsule(void)
{
    sc_capsule c;
    c.a = f3((dv){sym(8), sym(8), sym(8)});
    c.b = f3((dv){sym(8), sym(8), sym(8)});
    c.radius = (float)(uni() * 3.0);
    return c;
}

/* One generated case of family f. */
static void gen(int f, sc_ray *ray, sc_capsule *c)
{
    *c = rand_capsule();
    dv a = d3(c->a), b = d3(c->b), u = dsub(b, a);
    double r = c->radius;
    ray->tmax = rand_tmax();
    switch (f) {
    case 0: /* random */
        ray->origin = f3((dv){sym(20), sym(20), sym(20)});
        ray->dir = f3(drand_unit());
        break;
    case 1: case 2: { /* grazing the cylinder (1) or an end ball (2): tangent at X */
        dv n, X;
        if (f == 1) {
            n = perp(u);
            X = dadd(dadd(a, dmul(u, uni())), dmul(n, r * (1 + graze_eps())));
        } else {
            n = drand_unit();
            if (ddot(n, u) > 0) n = dmul(n, -1);
            X = dadd(pick(2) ? a : b, dmul(pick(2) ? n : dmul(n, -1), r * (1 + graze_eps())));
        }
        dv d = pick(4) ? perp(n) : drand_unit();
        double back = 1 + uni() * 30;
        ray->origin = f3(dsub(X, dmul(d, back)));
        ray->dir = f3(d);
        if (pick(4) == 0) ray->tmax = (float)(back * (1 + graze_eps()));
        break;
    }
    case 3: { /* the origin inside, on the surface, or just off it */
        if (pick(3) == 0) {
            /* exactly on the cylinder, with long integers: b = S (1, 2, 2), o = t (1, 2, 2) + B (2, 1, -2)
             * (0 < t < S), r = 3 B: (2, 1, -2) is perpendicular to (1, 2, 2), of length 3; its
             * squares and products need up to 94 bits, so the doubles round. Coordinates permuted
             * and signs flipped alike. */
            int64_t S = (int64_t)(0x200000 + pick(0x200000)), t = 1 + (int64_t)pick((int)S - 1);
            int64_t B = 1 + pick(0x1fffff);
            double U[3] = {(double)S, 2.0 * S, 2.0 * S}, O[3] = {(double)(t + 2 * B), (double)(2 * t + B), (double)(2 * t - 2 * B)};
            int perm = pick(3), flip = pick(8);
            sc_vec3 A = {0, 0, 0}, Bv, Ov;
            for (int i = 0; i < 3; ++i) {
                int k = (i + perm) % 3;
                double sg = (flip >> i) & 1 ? -1.0 : 1.0;
                sc_set(&Bv, k, (float)(sg * U[i]));
                sc_set(&Ov, k, (float)(sg * O[i]));
            }
            *c = (sc_capsule){A, Bv, (float)(3 * B)};
            ray->origin = Ov;
            ray->dir = f3(drand_unit());
            break;
        }
        static const double ks[] = {0, 0.5, 1, 1, 1, 0x1p-24, 1 + 0x1p-24, 1 - 0x1p-24, 1 + 0x1p-40, 2};
        dv p = dadd(a, dmul(u, pick(3) ? uni() : (double)pick(2)));
        dv n = pick(2) ? perp(u) : drand_unit();
        ray->origin = f3(dadd(p, dmul(n, r * ks[pick(10)])));
        ray->dir = f3(pick(3) ? drand_unit() : (pick(2) ? n : dmul(n, -1)));
        break;
    }
    case 4: { /* along the axis, or an axis-aligned capsule and ray at the radius */
        if (pick(2)) {
            dv n = perp(u);
            ray->origin = f3(dadd(dsub(a, dmul(u, uni() * 3)), dmul(n, r * pick(3) * (1 + graze_eps()) * 0.5)));
            ray->dir = f3(pick(2) ? u : dmul(u, -1));
        } else {
            int k = pick(3), j = (k + 1) % 3;
            float R = (float)(1 + pick(4)), L = (float)(1 + pick(10));
            sc_vec3 A = {0, 0, 0}, B = {0, 0, 0}, O = {0, 0, 0}, D = {0, 0, 0};
            sc_set(&B, k, L);
            sc_set(&O, k, (float)(pick(3) == 0 ? -5 : pick(25) - 12));
            sc_set(&O, j, pick(2) ? R : (pick(2) ? nextafterf(R, 0) : nextafterf(R, 100)));
            sc_set(&D, pick(4) ? k : j, pick(2) ? 1.0f : -1.0f);
            *c = (sc_capsule){A, B, R};
            ray->origin = O;
            ray->dir = D;
        }
        break;
    }
    default: { /* degenerate: a == b, radius 0, or both; a ray through a radius-0 segment */
        if (pick(2)) c->b = c->a;
        if (pick(2)) c->radius = 0.0f;
        if (pick(3) == 0) { /* integers: a radius-0 segment along axis k, a ray across it (or past it by one float) */
            int k = pick(3), j = (k + 1) % 3;
            sc_vec3 A = {0, 0, 0}, B = {0, 0, 0}, O = {0, 0, 0}, D = {0, 0, 0};
            sc_set(&B, k, (float)(1 + pick(10)));
            if (pick(2)) B = A;
            sc_set(&O, k, (float)pick(12) - 1);
            sc_set(&O, j, -5.0f);
            if (pick(3) == 0) sc_set(&O, 3 - k - j, pick(2) ? 0x1p-149f : -0x1p-149f);
            sc_set(&D, j, 1.0f);
            *c = (sc_capsule){A, B, pick(2) ? 0.0f : 1.0f};
            ray->origin = O;
            ray->dir = D;
        } else if (c->radius == 0.0f && pick(2)) {
            dv X = dadd(d3(c->a), dmul(dsub(d3(c->b), d3(c->a)), pick(2) ? 0.5 : (double)pick(2)));
            dv d = drand_unit();
            ray->origin = f3(dsub(X, dmul(d, 3)));
            ray->dir = f3(d);
        } else {
            ray->origin = f3((dv){sym(20), sym(20), sym(20)});
            ray->dir = f3(drand_unit());
        }
        break;
    }
    }
}

/* Scale every position and the radius by 2^k; or move the origin far, or make dir tiny or huge. */
static void rescale(sc_ray *ray, sc_capsule *c)
{
    int m = pick(8);
    if (m < 3) {
        int k = pick(201) - 100;
        float s = ldexpf(1.0f, k);
        ray->origin = sc_scale(ray->origin, s);
        c->a = sc_scale(c->a, s);
        c->b = sc_scale(c->b, s);
        c->radius *= s;
        if (pick(2)) ray->dir = sc_scale(ray->dir, ldexpf(1.0f, pick(201) - 100));
    } else if (m == 3) {
        sc_vec3 d = ray->dir;
        float far = ldexpf(1.0f, 20 + pick(80));
        ray->origin = (sc_vec3){ray->origin.x - d.x * far, ray->origin.y - d.y * far, ray->origin.z - d.z * far};
    } else if (m == 4) {
        ray->dir = sc_scale(ray->dir, ldexpf(1.0f, pick(2) ? -100 + pick(20) : 80 + pick(20)));
    }
}

/* Zeros made -0 at random (and -0 radius). */
static void negzero(sc_ray *ray, sc_capsule *c)
{
    float *v[] = {&ray->origin.x, &ray->origin.y, &ray->origin.z, &ray->dir.x, &ray->dir.y, &ray->dir.z,
                  &c->a.x, &c->a.y, &c->a.z, &c->b.x, &c->b.y, &c->b.z, &c->radius, &ray->tmax};
    for (int i = 0; i < 14; ++i)
        if (*v[i] == 0.0f && pick(2)) *v[i] = -0.0f;
}

static int same(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }
static int same_result(const sc_raycast_result *x, const sc_raycast_result *y)
{
    return x->status == y->status && x->hit == y->hit && same(&x->t, &y->t, 4) && same(&x->t_enter, &y->t_enter, 4) &&
           same(&x->t_exit, &y->t_exit, 4) && same(&x->point, &y->point, 12) && same(&x->normal, &y->normal, 12);
}

static void show(const char *what, const sc_ray *r, const sc_capsule *c, const sc_raycast_result *x, const sc_raycast_result *y)
{
    fprintf(stderr, "  %s: ray o(%a %a %a) d(%a %a %a) tmax %a; capsule a(%a %a %a) b(%a %a %a) r %a\n", what,
            r->origin.x, r->origin.y, r->origin.z, r->dir.x, r->dir.y, r->dir.z, r->tmax, c->a.x, c->a.y, c->a.z,
            c->b.x, c->b.y, c->b.z, c->radius);
    fprintf(stderr, "    new hit %d t %a [%a %a] n(%a %a %a)\n    old hit %d t %a [%a %a] n(%a %a %a)\n", x->hit, x->t,
            x->t_enter, x->t_exit, x->normal.x, x->normal.y, x->normal.z, y->hit, y->t, y->t_enter, y->t_exit,
            y->normal.x, y->normal.y, y->normal.z);
}

int main(int argc, char **argv)
{
    long cases = argc > 1 ? atol(argv[1]) : 2000000;
    long bad = 0, hits = 0, per[6] = {0}, hit_per[6] = {0};
    for (long i = 0; i < cases; ++i) {
        sc_ray ray;
        sc_capsule c;
        int f = (int)(i % 6);
        gen(f, &ray, &c);
        if (i % 3 == 1) rescale(&ray, &c);
        if (i % 5 == 2) negzero(&ray, &c);
        sc_shape sh;
        memset(&sh, 0, sizeof sh);
        sh.type = SC_SHAPE_CAPSULE;
        sh.u.capsule = c;
        sc_raycast_result x = sc_raycast(&ray, &sh);
        if (x.status != SC_OK) continue; /* a rescaled input out of range: not a capsule query */
        sc_raycast_result y = ref_raycast_capsule(&ray, &c);
        int ok = same_result(&x, &y);
        if (ok && x.hit) {
            /* tmax at the entry itself, and the exit normal */
            sc_vec3 ne = sc__exit_normal_capsule(&ray, &c), no = ref_exit_normal_capsule(&ray, &c);
            if (!same(&ne, &no, 12)) {
                ok = 0;
                fprintf(stderr, "  exit normal differs\n");
            }
            sc_ray r2 = ray;
            r2.tmax = x.t_enter > 0 ? x.t_enter : 0.0f;
            sc_raycast_result x2 = sc_raycast(&r2, &sh), y2 = ref_raycast_capsule(&r2, &c);
            if (!same_result(&x2, &y2)) {
                ok = 0;
                show("tmax at the entry", &r2, &c, &x2, &y2);
            }
        }
        per[f]++;
        if (x.hit) ++hits, hit_per[f]++;
        if (!ok) {
            if (++bad <= 10) show("differs", &ray, &c, &x, &y);
        }
    }
    printf("capsule fast path vs reference: %ld cases, %ld hits (", cases, hits);
    for (int f = 0; f < 6; ++f) printf("%s%ld/%ld", f ? " " : "", hit_per[f], per[f]);
    printf(" per family), %ld differ\n", bad);
    return bad ? 1 : 0;
}
