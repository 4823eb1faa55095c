/* fuzz_queries: every single-query entry point of slabcast.h on float32 inputs of any bit
 * pattern (NaN, inf, -0, subnormals, huge), with the invariants of docs/semantics.md
 * checked by abort().
 *
 * Input: 4 header bytes, then 49 floats (4 bytes each, little-endian; missing bytes read 0):
 *   byte 0: bits 0-1 value mode (fuzz_common.h: raw, dyadic, fixed, mixed);
 *   byte 1: bit 0 sort the AABB's min/max, bit 1 OBB axes from a rotation (quaternion or, in
 *           the dyadic mode, a signed permutation), bit 2 |half| and |radius|, bit 3 tmax = +inf,
 *           bit 4 make the ray direction parallel to one axis (bits 5-6 pick it; 3: two zeros
 *           only), bit 7 the same for the segment (b - a along that axis);
 *   byte 2: the signed permutation (bits 0-2: which of 6, bits 3-5: signs);
 *   byte 3: a shape type for sc_shape_check (any int, mostly invalid);
 *   floats: ray origin, dir, tmax (7); segment a, b (6); point (3); aabb min, max (6);
 *           obb center, axes, half (15); sphere center, radius (4); plane normal, d (4);
 *           quaternion (4).
 *
 * Invariants (each run twice: as given, and with every 0 turned into -0 and back, which must
 * give bit-identical results):
 *   - statuses are documented (< SC_STATUS_COUNT), equal to the first failing validator
 *     (input, then shape), the sc_*_valid functions agree with sc_*_check, and an invalid
 *     input never hits;
 *   - a raycast hit has a finite t with 0 <= t <= tmax, t = min(max(t_enter, 0), tmax),
 *     t_enter <= t_exit, t_exit >= 0, t_enter <= tmax, a finite point, a normal of unit
 *     length (1e-4) or exactly zero, zero when t_enter < 0; an AABB hit's point is in the box;
 *   - geometry (check_hit_geometry, check_closest_geometry; tolerance 2^-20 of the largest
 *     magnitude involved): a hit with t_enter >= 0 has its point on the surface and the normal
 *     of a face through it, facing the ray (AABB: exactly +-e_i and the point exactly on that
 *     face; OBB: +-axis with the point on that face; sphere: radial; plane: +-n); a closest
 *     point is the clamp (AABB, exactly), satisfies the per-axis optimality conditions and is
 *     no farther than any vertex (OBB), lies on the sphere along centre -> point, or on the
 *     plane with point - closest along n;
 *   - the generic sc_raycast equals the per-shape function bit for bit, and the certified OBB
 *     hit (sc__raycast_obb_hit), whenever it answers, equals sc_raycast_obb bit for bit;
 *   - an origin (segment start, point) inside a solid: raycast hits at t = 0 (linetest hits,
 *     the closest point is the point itself);
 *   - dyadic inputs (the spec's exact domain): AABB, permutation-OBB and plane raycast /
 *     linetest / contains classify exactly like integer arithmetic, with t_enter, t_exit
 *     exactly the rounded rational; spheres exactly too when the direction is axis-parallel.
 */
#include "fuzz_common.h"
#include "sc_internal.h"

#include <float.h>

#define NFLOATS 49

typedef struct inputs {
    sc_ray ray;
    sc_segment seg;
    sc_vec3 point;
    sc_shape shape[4]; /* aabb, obb, sphere, plane */
    int bogus_type;
    int dyadic;        /* every value is a multiple of 1/2 in [-64, 64] */
    int perm_obb;      /* the OBB's axes are a signed permutation */
} inputs;

typedef struct outputs {
    sc_raycast_result ray[4], ray_specific[4], bogus_ray;
    sc_test_result line[4], contains[4], bogus_line, bogus_contains;
    sc_point_result closest[4], bogus_closest;
    int status_checks[16];
} outputs;

/* Field by field (the structs have padding after their bools, whose bytes mean nothing):
 * the same status and flag, and the same bits in every float. */
static int same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }
static int same_ray(const sc_raycast_result *a, const sc_raycast_result *b)
{
    return a->status == b->status && a->hit == b->hit && same_bits(&a->t, &b->t, sizeof a->t) &&
           same_bits(&a->t_enter, &b->t_enter, sizeof a->t_enter) && same_bits(&a->t_exit, &b->t_exit, sizeof a->t_exit) &&
           same_bits(&a->point, &b->point, sizeof a->point) && same_bits(&a->normal, &b->normal, sizeof a->normal);
}
static int same_test(const sc_test_result *a, const sc_test_result *b) { return a->status == b->status && a->value == b->value; }
static int same_point(const sc_point_result *a, const sc_point_result *b)
{
    return a->status == b->status && same_bits(&a->point, &b->point, sizeof a->point);
}
static int same_outputs(const outputs *a, const outputs *b)
{
    int ok = same_ray(&a->bogus_ray, &b->bogus_ray) && same_test(&a->bogus_line, &b->bogus_line) &&
             same_test(&a->bogus_contains, &b->bogus_contains) && same_point(&a->bogus_closest, &b->bogus_closest) &&
             same_bits(a->status_checks, b->status_checks, sizeof a->status_checks);
    for (int i = 0; i < 4; ++i)
        ok = ok && same_ray(&a->ray[i], &b->ray[i]) && same_ray(&a->ray_specific[i], &b->ray_specific[i]) &&
             same_test(&a->line[i], &b->line[i]) && same_test(&a->contains[i], &b->contains[i]) &&
             same_point(&a->closest[i], &b->closest[i]);
    return ok;
}

/* ------------------------------------------------------------ decoding */

static void decode(const uint8_t *data, size_t size, inputs *in, float *raw)
{
    fuzz_bytes b = {data, size, 0};
    uint8_t mode = fb_u8(&b) & 3u, flags = fb_u8(&b), perm = fb_u8(&b), type = fb_u8(&b);
    for (int i = 0; i < NFLOATS; ++i) raw[i] = fb_value(fb_u32(&b), mode);
    memset(in, 0, sizeof *in);
    const float *f = raw;
    in->dyadic = mode == 1;
    in->ray = (sc_ray){{f[0], f[1], f[2]}, {f[3], f[4], f[5]}, f[6]};
    f += 7;
    in->seg = (sc_segment){{f[0], f[1], f[2]}, {f[3], f[4], f[5]}};
    f += 6;
    in->point = (sc_vec3){f[0], f[1], f[2]};
    f += 3;
    sc_aabb box = {{f[0], f[1], f[2]}, {f[3], f[4], f[5]}};
    f += 6;
    sc_obb obb = {{f[0], f[1], f[2]}, {{f[3], f[4], f[5]}, {f[6], f[7], f[8]}, {f[9], f[10], f[11]}}, {f[12], f[13], f[14]}};
    f += 15;
    sc_sphere sp = {{f[0], f[1], f[2]}, f[3]};
    f += 4;
    sc_plane pl = {{f[0], f[1], f[2]}, f[3]};
    f += 4;
    const float *q = f;

    if (flags & 1u) {
        for (int a = 0; a < 3; ++a) {
            float lo = v3_at(box.min, a), hi = v3_at(box.max, a);
            if (lo > hi) { v3_set(&box.min, a, hi); v3_set(&box.max, a, lo); }
        }
    }
    if (flags & 2u) {
        if (in->dyadic) {
            static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
            const int *p = perms[(perm & 7u) % 6u];
            for (int i = 0; i < 3; ++i) {
                obb.axes[i] = (sc_vec3){0.0f, 0.0f, 0.0f};
                v3_set(&obb.axes[i], p[i], (perm >> (3 + i)) & 1u ? -1.0f : 1.0f);
            }
            in->perm_obb = 1;
        } else {
            /* A rotation from a quaternion, computed in double: orthonormal to ~1e-7. */
            double w = q[0], x = q[1], y = q[2], z = q[3];
            double n = sqrt(w * w + x * x + y * y + z * z);
            if (!(n > 1e-30) || !isfinite(n)) { w = 1; x = y = z = 0; n = 1; }
            w /= n; x /= n; y /= n; z /= n;
            double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
                              {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
                              {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)}};
            for (int i = 0; i < 3; ++i) obb.axes[i] = (sc_vec3){(float)m[i][0], (float)m[i][1], (float)m[i][2]};
        }
    }
    if (flags & 4u) {
        obb.half = (sc_vec3){fabsf(obb.half.x), fabsf(obb.half.y), fabsf(obb.half.z)};
        sp.radius = fabsf(sp.radius);
    }
    if (flags & 8u) in->ray.tmax = INFINITY;
    else if (in->dyadic) in->ray.tmax = fabsf(in->ray.tmax);
    int axis = (flags >> 5) & 3u;
    if ((flags & 16u) && axis < 3) {
        float *d = &in->ray.dir.x;
        for (int a = 0; a < 3; ++a)
            if (a != axis) d[a] = d[a] < 0.0f || signbit(d[a]) ? -0.0f : 0.0f;
    }
    if ((flags & 128u) && axis < 3) {
        float *a = &in->seg.a.x, *bb = &in->seg.b.x;
        for (int k = 0; k < 3; ++k)
            if (k != axis) bb[k] = a[k];
    }
    in->shape[0].type = SC_SHAPE_AABB;
    in->shape[0].u.aabb = box;
    in->shape[1].type = SC_SHAPE_OBB;
    in->shape[1].u.obb = obb;
    in->shape[2].type = SC_SHAPE_SPHERE;
    in->shape[2].u.sphere = sp;
    in->shape[3].type = SC_SHAPE_PLANE;
    in->shape[3].u.plane = pl;
    in->bogus_type = (int)(int8_t)type;
}

/* Every exact zero of the inputs gets the other sign. */
static void flip_zeros(inputs *in)
{
    float *p = (float *)(void *)&in->ray;
    for (size_t i = 0; i < sizeof in->ray / sizeof(float); ++i)
        if (p[i] == 0.0f) p[i] = signbit(p[i]) ? 0.0f : -0.0f;
    p = (float *)(void *)&in->seg;
    for (size_t i = 0; i < sizeof in->seg / sizeof(float); ++i)
        if (p[i] == 0.0f) p[i] = signbit(p[i]) ? 0.0f : -0.0f;
    for (int i = 0; i < 3; ++i) {
        float v = v3_at(in->point, i);
        if (v == 0.0f) v3_set(&in->point, i, signbit(v) ? 0.0f : -0.0f);
    }
    for (int s = 0; s < 4; ++s) {
        p = (float *)(void *)&in->shape[s].u;
        size_t n = s == 0 ? 6 : s == 1 ? 15 : 4;
        for (size_t i = 0; i < n; ++i)
            if (p[i] == 0.0f) p[i] = signbit(p[i]) ? 0.0f : -0.0f;
    }
}

/* ------------------------------------------------ independent validity */

static int fin3(sc_vec3 v) { return fuzz_finite3(v); }

static sc_status my_ray_check(const sc_ray *r)
{
    if (!fin3(r->origin)) return SC_ERR_RAY_ORIGIN;
    if (!fin3(r->dir)) return SC_ERR_RAY_DIR;
    if (r->dir.x == 0.0f && r->dir.y == 0.0f && r->dir.z == 0.0f) return SC_ERR_RAY_DIR_ZERO;
    if (isnan(r->tmax) || r->tmax < 0.0f) return SC_ERR_RAY_TMAX;
    return SC_OK;
}

static sc_status my_shape_check(const sc_shape *s)
{
    switch (s->type) {
    case SC_SHAPE_AABB: {
        const sc_aabb *b = &s->u.aabb;
        if (!fin3(b->min) || !fin3(b->max)) return SC_ERR_AABB_NOT_FINITE;
        if (b->min.x > b->max.x || b->min.y > b->max.y || b->min.z > b->max.z) return SC_ERR_AABB_MIN_GT_MAX;
        return SC_OK;
    }
    case SC_SHAPE_OBB: /* orthonormality is a float tolerance test: trust sc_obb_check for it */
        return sc_obb_check(&s->u.obb);
    case SC_SHAPE_SPHERE: {
        const sc_sphere *p = &s->u.sphere;
        if (!fin3(p->center)) return SC_ERR_SPHERE_CENTER;
        if (!isfinite(p->radius)) return SC_ERR_SPHERE_RADIUS;
        if (p->radius < 0.0f) return SC_ERR_SPHERE_RADIUS_NEGATIVE;
        return SC_OK;
    }
    case SC_SHAPE_PLANE: {
        const sc_plane *p = &s->u.plane;
        if (!fin3(p->normal)) return SC_ERR_PLANE_NORMAL;
        if (p->normal.x == 0.0f && p->normal.y == 0.0f && p->normal.z == 0.0f) return SC_ERR_PLANE_NORMAL_ZERO;
        if (!isfinite(p->d)) return SC_ERR_PLANE_D;
        return SC_OK;
    }
    default: return SC_ERR_SHAPE_TYPE;
    }
}

static void check_obb_status(const sc_obb *o, sc_status s)
{
    /* The fields are checked in order; only orthonormality is left to the library. */
    if (!fin3(o->center)) { FUZZ_CHECK(s == SC_ERR_OBB_CENTER); return; }
    if (!fin3(o->axes[0]) || !fin3(o->axes[1]) || !fin3(o->axes[2])) { FUZZ_CHECK(s == SC_ERR_OBB_AXES); return; }
    if (!fin3(o->half)) { FUZZ_CHECK(s == SC_ERR_OBB_HALF); return; }
    if (o->half.x < 0.0f || o->half.y < 0.0f || o->half.z < 0.0f) { FUZZ_CHECK(s == SC_ERR_OBB_HALF_NEGATIVE); return; }
    FUZZ_CHECK(s == SC_OK || s == SC_ERR_OBB_AXES_NOT_ORTHONORMAL);
    /* Exactly orthonormal axes (within 2e-5, computed in double) must pass. */
    double worst = 0.0;
    for (int i = 0; i < 3; ++i)
        for (int j = i; j < 3; ++j) {
            const sc_vec3 a = o->axes[i], b = o->axes[j];
            double d = (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z - (i == j);
            if (fabs(d) > worst) worst = fabs(d);
        }
    if (worst <= 2e-5) FUZZ_CHECK(s == SC_OK);
    if (worst > 2e-4) FUZZ_CHECK(s == SC_ERR_OBB_AXES_NOT_ORTHONORMAL);
}

/* --------------------------------------------- exact oracles (dyadic) */

/* Dyadic values as integers in half units. */
static int64_t hu(float v) { return (int64_t)(v * 2.0f); }

/* p/q with q > 0. */
typedef struct frac { int64_t p, q; } frac;
static int frac_lt(frac a, frac b) { return a.p * b.q < b.p * a.q; }

/* The exact slab test of the line o + t*d (half units) against [lo, hi]: returns 0 for a miss
 * of the line, else the interval [*tn, *tf] (tn_inf / tf_inf: unbounded, which a valid ray
 * never has). */
static int exact_slab(const int64_t o[3], const int64_t d[3], const int64_t lo[3], const int64_t hi[3],
                      frac *tn, frac *tf, int *tn_inf, int *tf_inf)
{
    *tn_inf = *tf_inf = 1;
    for (int a = 0; a < 3; ++a) {
        if (d[a] == 0) {
            if (o[a] < lo[a] || o[a] > hi[a]) return 0;
            continue;
        }
        frac t1 = {lo[a] - o[a], d[a]}, t2 = {hi[a] - o[a], d[a]};
        if (d[a] < 0) { t1.p = -t1.p; t1.q = -t1.q; t2.p = -t2.p; t2.q = -t2.q; }
        frac nr = d[a] > 0 ? t1 : t2, fr = d[a] > 0 ? t2 : t1;
        if (*tn_inf || frac_lt(*tn, nr)) { *tn = nr; *tn_inf = 0; }
        if (*tf_inf || frac_lt(fr, *tf)) { *tf = fr; *tf_inf = 0; }
    }
    if (!*tn_inf && !*tf_inf && frac_lt(*tf, *tn)) return 0;
    return 1;
}

/* The rational p/q rounded to float32, correctly: with q < 2^10, p/q is either a float
 * midpoint exactly or at least 2^-35 (relative) away from every midpoint, far more than the
 * 2^-53 error of the division in double, so the second rounding cannot cross one. */
static float frac_float(frac f) { return (float)((double)f.p / (double)f.q); }

/* A dyadic box (AABB, or a permutation OBB as the AABB it is) in half units. */
static void box_hu(const sc_shape *s, int64_t lo[3], int64_t hi[3])
{
    if (s->type == SC_SHAPE_AABB) {
        for (int k = 0; k < 3; ++k) { lo[k] = hu(v3_at(s->u.aabb.min, k)); hi[k] = hu(v3_at(s->u.aabb.max, k)); }
        return;
    }
    const sc_obb *o = &s->u.obb;
    const float c[3] = {o->center.x, o->center.y, o->center.z}, h[3] = {o->half.x, o->half.y, o->half.z};
    for (int k = 0; k < 3; ++k) {
        int64_t e = 0;
        for (int i = 0; i < 3; ++i) e += (int64_t)fabsf(v3_at(o->axes[i], k)) * hu(h[i]);
        lo[k] = hu(c[k]) - e;
        hi[k] = hu(c[k]) + e;
    }
}

/* Ray (origin o, direction d in half units, tmax = T2/2 or infinite) vs a dyadic box:
 * the exact classification, and on a hit the exact t_enter / t_exit. */
static int exact_box_ray(const int64_t o[3], const int64_t d[3], int tinf, int64_t T2, const int64_t lo[3],
                         const int64_t hi[3], frac *tn, frac *tf)
{
    int ni, fi;
    if (!exact_slab(o, d, lo, hi, tn, tf, &ni, &fi)) return 0;
    FUZZ_CHECK(!ni && !fi); /* a non-zero direction bounds both ends */
    if (tf->p < 0) return 0;                         /* t_exit >= 0 */
    if (!tinf && 2 * tn->p > T2 * tn->q) return 0;   /* t_enter <= tmax */
    return 1;
}

/* Sphere (centre c, radius r, half units) vs the line o + t*d with d along one axis only. */
static int exact_sphere_axis(const int64_t o[3], const int64_t d[3], int tinf, int64_t T2, const int64_t c[3],
                             int64_t r)
{
    int k = d[0] != 0 ? 0 : d[1] != 0 ? 1 : 2;
    int64_t f2 = 0;
    for (int a = 0; a < 3; ++a)
        if (a != k) f2 += (o[a] - c[a]) * (o[a] - c[a]);
    int64_t h2 = r * r - f2;
    if (h2 < 0) return 0;
    int64_t ad = d[k] < 0 ? -d[k] : d[k];
    int64_t e = d[k] > 0 ? c[k] - o[k] : o[k] - c[k]; /* the centre's parameter times |d| */
    if (!(e >= 0 || h2 >= e * e)) return 0;           /* t_exit >= 0 */
    if (!tinf) {                                      /* t_enter <= tmax */
        int64_t g = 2 * e - T2 * ad;
        if (!(g <= 0 || g * g <= 4 * h2)) return 0;
    }
    return 1;
}

/* The exact answers for one shape; checked only when the inputs are dyadic. */
static void check_exact(const inputs *in, int s, const outputs *o)
{
    const sc_shape *sh = &in->shape[s];
    if (o->ray[s].status != SC_OK && o->line[s].status != SC_OK && o->contains[s].status != SC_OK) return;
    int box = s == 0 || (s == 1 && in->perm_obb);
    int64_t ro[3], rd[3], sa[3], sb[3], sd[3], pt[3];
    for (int k = 0; k < 3; ++k) {
        ro[k] = hu(v3_at(in->ray.origin, k));
        rd[k] = hu(v3_at(in->ray.dir, k));
        sa[k] = hu(v3_at(in->seg.a, k));
        sb[k] = hu(v3_at(in->seg.b, k));
        sd[k] = sb[k] - sa[k];
        pt[k] = hu(v3_at(in->point, k));
    }
    int tinf = isinf(in->ray.tmax);
    int64_t T2 = tinf ? 0 : hu(in->ray.tmax);
    int seg_point = sd[0] == 0 && sd[1] == 0 && sd[2] == 0;
    int axis_ray = (rd[0] != 0) + (rd[1] != 0) + (rd[2] != 0) == 1;
    int axis_seg = (sd[0] != 0) + (sd[1] != 0) + (sd[2] != 0) == 1;

    if (box) {
        int64_t lo[3], hi[3];
        box_hu(sh, lo, hi);
        if (o->ray[s].status == SC_OK) {
            frac tn, tf;
            int hit = exact_box_ray(ro, rd, tinf, T2, lo, hi, &tn, &tf);
            FUZZ_CHECK(o->ray[s].hit == hit);
            if (hit) {
                FUZZ_CHECK(o->ray[s].t_enter == frac_float(tn));
                FUZZ_CHECK(o->ray[s].t_exit == frac_float(tf));
            }
        }
        if (o->line[s].status == SC_OK) {
            int hit;
            if (seg_point) {
                hit = 1;
                for (int k = 0; k < 3; ++k) hit &= lo[k] <= sa[k] && sa[k] <= hi[k];
            } else {
                frac tn, tf;
                hit = exact_box_ray(sa, sd, 0, 2, lo, hi, &tn, &tf);
            }
            FUZZ_CHECK(o->line[s].value == hit);
        }
        if (o->contains[s].status == SC_OK) {
            int in_box = 1;
            for (int k = 0; k < 3; ++k) in_box &= lo[k] <= pt[k] && pt[k] <= hi[k];
            FUZZ_CHECK(o->contains[s].value == in_box);
        }
    } else if (s == 2) {
        const sc_sphere *sp = &sh->u.sphere;
        int64_t c[3] = {hu(sp->center.x), hu(sp->center.y), hu(sp->center.z)}, r = hu(sp->radius);
        if (o->ray[s].status == SC_OK && axis_ray)
            FUZZ_CHECK(o->ray[s].hit == exact_sphere_axis(ro, rd, tinf, T2, c, r));
        if (o->line[s].status == SC_OK && axis_seg)
            FUZZ_CHECK(o->line[s].value == exact_sphere_axis(sa, sd, 0, 2, c, r));
        if (o->contains[s].status == SC_OK) {
            int64_t m2 = 0;
            for (int k = 0; k < 3; ++k) m2 += (pt[k] - c[k]) * (pt[k] - c[k]);
            FUZZ_CHECK(o->contains[s].value == (m2 <= r * r));
        }
    } else if (s == 3) {
        const sc_plane *pl = &sh->u.plane;
        int64_t n[3] = {hu(pl->normal.x), hu(pl->normal.y), hu(pl->normal.z)}, D = hu(pl->d);
        /* n.x = d  <=>  N.X = 2 D in half units */
        if (o->ray[s].status == SC_OK) {
            int64_t den = n[0] * rd[0] + n[1] * rd[1] + n[2] * rd[2];
            int64_t num = 2 * D - (n[0] * ro[0] + n[1] * ro[1] + n[2] * ro[2]);
            int hit;
            if (den == 0) hit = num == 0;
            else {
                if (den < 0) { den = -den; num = -num; }
                hit = num >= 0 && (tinf || 2 * num <= T2 * den);
            }
            FUZZ_CHECK(o->ray[s].hit == hit);
            if (hit) FUZZ_CHECK(o->ray[s].t == (den == 0 ? 0.0f : frac_float((frac){num, den})));
        }
        if (o->line[s].status == SC_OK) {
            int64_t da = n[0] * sa[0] + n[1] * sa[1] + n[2] * sa[2] - 2 * D;
            int64_t db = n[0] * sb[0] + n[1] * sb[1] + n[2] * sb[2] - 2 * D;
            FUZZ_CHECK(o->line[s].value == ((da <= 0 && db >= 0) || (da >= 0 && db <= 0)));
        }
    }
}

/* ------------------------------------------------------------ invariants */

/* The geometry of the answers (check_hit_geometry, check_closest_geometry): fuzz_geometry.h. */
#include "fuzz_geometry.h"

static void check_ray_result(const sc_ray *ray, const sc_shape *sh, const sc_raycast_result *r)
{
    sc_status want = my_ray_check(ray);
    if (want == SC_OK) want = my_shape_check(sh);
    FUZZ_CHECK(r->status >= 0 && r->status < SC_STATUS_COUNT);
    FUZZ_CHECK(r->status == want);
    FUZZ_CHECK(r->hit == 0 || r->hit == 1);
    if (r->status != SC_OK) {
        FUZZ_CHECK(!r->hit);
        return;
    }
    if (!r->hit) return;
    FUZZ_CHECK(isfinite(r->t));
    FUZZ_CHECK(r->t >= 0.0f && r->t <= ray->tmax);
    FUZZ_CHECK(!isnan(r->t_enter) && !isnan(r->t_exit));
    FUZZ_CHECK(r->t_enter <= r->t_exit);
    FUZZ_CHECK(r->t_exit >= 0.0f);
    FUZZ_CHECK(r->t_enter <= ray->tmax);
    FUZZ_CHECK(r->t == fminf(fmaxf(r->t_enter, 0.0f), ray->tmax));
    FUZZ_CHECK(fuzz_finite3(r->point));
    FUZZ_CHECK(fuzz_unit_or_zero(r->normal));
    if (sh->type != SC_SHAPE_PLANE && r->t_enter < 0.0f)
        FUZZ_CHECK(r->normal.x == 0.0f && r->normal.y == 0.0f && r->normal.z == 0.0f);
    if (sh->type == SC_SHAPE_PLANE) FUZZ_CHECK(r->t == r->t_enter && r->t == r->t_exit);
    if (sh->type == SC_SHAPE_AABB) {
        const sc_aabb *b = &sh->u.aabb;
        FUZZ_CHECK(b->min.x <= r->point.x && r->point.x <= b->max.x && b->min.y <= r->point.y &&
                   r->point.y <= b->max.y && b->min.z <= r->point.z && r->point.z <= b->max.z);
    }
    /* no negative zeros in results */
    FUZZ_CHECK(!(r->t == 0.0f && signbit(r->t)));
    check_hit_geometry(ray, sh, r);
}

static void run_all(const inputs *in, outputs *o)
{
    memset(o, 0, sizeof *o);
    for (int s = 0; s < 4; ++s) {
        const sc_shape *sh = &in->shape[s];
        o->ray[s] = sc_raycast(&in->ray, sh);
        switch (s) {
        case 0: o->ray_specific[s] = sc_raycast_aabb(&in->ray, &sh->u.aabb); break;
        case 1: o->ray_specific[s] = sc_raycast_obb(&in->ray, &sh->u.obb); break;
        case 2: o->ray_specific[s] = sc_raycast_sphere(&in->ray, &sh->u.sphere); break;
        default: o->ray_specific[s] = sc_raycast_plane(&in->ray, &sh->u.plane); break;
        }
        o->line[s] = sc_linetest(&in->seg, sh);
        o->contains[s] = sc_contains(in->point, sh);
        o->closest[s] = sc_closest_point(in->point, sh);
    }
    sc_shape bogus = in->shape[(unsigned)in->bogus_type & 3u];
    bogus.type = in->bogus_type;
    o->bogus_ray = sc_raycast(&in->ray, &bogus);
    o->bogus_line = sc_linetest(&in->seg, &bogus);
    o->bogus_contains = sc_contains(in->point, &bogus);
    o->bogus_closest = sc_closest_point(in->point, &bogus);
    int *st = o->status_checks;
    st[0] = sc_ray_check(&in->ray);
    st[1] = sc_segment_check(&in->seg);
    st[2] = sc_point_check(in->point);
    st[3] = sc_aabb_check(&in->shape[0].u.aabb);
    st[4] = sc_obb_check(&in->shape[1].u.obb);
    st[5] = sc_sphere_check(&in->shape[2].u.sphere);
    st[6] = sc_plane_check(&in->shape[3].u.plane);
    st[7] = sc_shape_check(&bogus);
    for (int s = 0; s < 4; ++s) st[8 + s] = sc_shape_check(&in->shape[s]);
}

/* The certified OBB hit (sc__raycast_obb_hit: the wasm raycast export tries it before the exact
 * test) answers only what the exact query answers: when it certifies, the same hit bit for bit. */
static void check_obb_certificate(const inputs *in, const outputs *o)
{
    const sc_obb *box = &in->shape[1].u.obb;
    if (sc_ray_check(&in->ray) != SC_OK || sc_obb_check(box) != SC_OK) return;
    sc_raycast_result got;
    if (!sc__raycast_obb_hit(&in->ray, box, &got)) return;
    const sc_raycast_result *want = &o->ray_specific[1];
    FUZZ_CHECK(got.status == SC_OK && got.hit && want->status == SC_OK && want->hit);
    const float g[9] = {got.t, got.t_enter, got.t_exit, got.point.x, got.point.y, got.point.z,
                        got.normal.x, got.normal.y, got.normal.z};
    const float w[9] = {want->t, want->t_enter, want->t_exit, want->point.x, want->point.y, want->point.z,
                        want->normal.x, want->normal.y, want->normal.z};
    FUZZ_CHECK(memcmp(g, w, sizeof g) == 0);
}

static void check_all(const inputs *in, const outputs *o)
{
    const int *st = o->status_checks;
    for (int i = 0; i < 12; ++i) {
        FUZZ_CHECK(st[i] >= 0 && st[i] < SC_STATUS_COUNT);
        FUZZ_CHECK(sc_status_message((sc_status)st[i]) != NULL);
    }
    FUZZ_CHECK(st[0] == (int)my_ray_check(&in->ray));
    FUZZ_CHECK(sc_ray_valid(&in->ray) == (st[0] == SC_OK));
    FUZZ_CHECK(sc_segment_valid(&in->seg) == (st[1] == SC_OK));
    FUZZ_CHECK(st[1] == (!fin3(in->seg.a) ? SC_ERR_SEGMENT_A : !fin3(in->seg.b) ? SC_ERR_SEGMENT_B : SC_OK));
    FUZZ_CHECK(st[2] == (fin3(in->point) ? SC_OK : SC_ERR_POINT));
    FUZZ_CHECK(sc_aabb_valid(&in->shape[0].u.aabb) == (st[3] == SC_OK));
    FUZZ_CHECK(sc_obb_valid(&in->shape[1].u.obb) == (st[4] == SC_OK));
    FUZZ_CHECK(sc_sphere_valid(&in->shape[2].u.sphere) == (st[5] == SC_OK));
    FUZZ_CHECK(sc_plane_valid(&in->shape[3].u.plane) == (st[6] == SC_OK));
    check_obb_status(&in->shape[1].u.obb, (sc_status)st[4]);
    check_obb_certificate(in, o);
    if (in->perm_obb && fin3(in->shape[1].u.obb.center) && fin3(in->shape[1].u.obb.half) &&
        in->shape[1].u.obb.half.x >= 0.0f && in->shape[1].u.obb.half.y >= 0.0f && in->shape[1].u.obb.half.z >= 0.0f)
        FUZZ_CHECK(st[4] == SC_OK);
    for (int s = 0; s < 4; ++s) {
        FUZZ_CHECK(st[8 + s] == st[3 + s]);
        FUZZ_CHECK(sc_shape_valid(&in->shape[s]) == (st[8 + s] == SC_OK));
        FUZZ_CHECK(st[8 + s] == (int)my_shape_check(&in->shape[s]));
    }
    int bogus_known = in->bogus_type >= SC_SHAPE_AABB && in->bogus_type <= SC_SHAPE_CAPSULE; /* 5: a capsule now */
    if (!bogus_known) {
        FUZZ_CHECK(st[7] == SC_ERR_SHAPE_TYPE);
        FUZZ_CHECK((int)o->bogus_ray.status == (st[0] != SC_OK ? st[0] : SC_ERR_SHAPE_TYPE) && !o->bogus_ray.hit);
        FUZZ_CHECK((int)o->bogus_line.status == (st[1] != SC_OK ? st[1] : SC_ERR_SHAPE_TYPE) && !o->bogus_line.value);
        FUZZ_CHECK((int)o->bogus_contains.status == (st[2] != SC_OK ? st[2] : SC_ERR_SHAPE_TYPE) && !o->bogus_contains.value);
        FUZZ_CHECK((int)o->bogus_closest.status == (st[2] != SC_OK ? st[2] : SC_ERR_SHAPE_TYPE));
    }

    for (int s = 0; s < 4; ++s) {
        const sc_shape *sh = &in->shape[s];
        int solid = s != 3;
        int shape_st = st[8 + s];
        const sc_raycast_result *r = &o->ray[s];
        check_ray_result(&in->ray, sh, r);
        FUZZ_CHECK(same_ray(r, &o->ray_specific[s]));

        /* linetest */
        const sc_test_result *l = &o->line[s];
        FUZZ_CHECK((int)l->status == (st[1] != SC_OK ? st[1] : shape_st));
        FUZZ_CHECK(l->value == 0 || l->value == 1);
        if (l->status != SC_OK) FUZZ_CHECK(!l->value);

        /* contains */
        const sc_test_result *c = &o->contains[s];
        int want_c = st[2] != SC_OK ? st[2] : shape_st != SC_OK ? shape_st : solid ? SC_OK : SC_ERR_UNSUPPORTED;
        FUZZ_CHECK((int)c->status == want_c);
        FUZZ_CHECK(c->value == 0 || c->value == 1);
        if (c->status != SC_OK) FUZZ_CHECK(!c->value);

        /* closest point */
        const sc_point_result *p = &o->closest[s];
        FUZZ_CHECK((int)p->status == (st[2] != SC_OK ? st[2] : shape_st));
        if (p->status == SC_OK) {
            FUZZ_CHECK(fuzz_finite3(p->point));
            if (c->status == SC_OK && c->value)
                FUZZ_CHECK(p->point.x == in->point.x && p->point.y == in->point.y && p->point.z == in->point.z);
            if (s == 0) {
                sc_test_result back = sc_contains(p->point, sh);
                FUZZ_CHECK(back.status == SC_OK && back.value);
            }
            check_closest_geometry(in->point, sh, p->point, c->status == SC_OK && c->value);
        }

        /* an origin / start point inside the solid */
        if (solid && r->status == SC_OK) {
            sc_test_result ins = sc_contains(in->ray.origin, sh);
            FUZZ_CHECK(ins.status == SC_OK);
            if (ins.value) FUZZ_CHECK(r->hit && r->t == 0.0f);
        }
        if (solid && l->status == SC_OK) {
            sc_test_result ins = sc_contains(in->seg.a, sh);
            FUZZ_CHECK(ins.status == SC_OK);
            if (ins.value) FUZZ_CHECK(l->value);
        }
        if (in->dyadic) check_exact(in, s, o);
    }
}

/* ------------------------------------------------------------ dumping */

static const inputs *g_in;
static const outputs *g_out;

static void dump_vec(const char *name, sc_vec3 v)
{
    fprintf(stderr, "  %s = [%.9g, %.9g, %.9g]  [%a, %a, %a]\n", name, v.x, v.y, v.z, v.x, v.y, v.z);
}

static void dump_ray_result(const char *name, const sc_raycast_result *r)
{
    fprintf(stderr, "  %s: status %d hit %d t %.9g (%a) t_enter %.9g (%a) t_exit %.9g (%a)\n", name, r->status, r->hit,
            r->t, r->t, r->t_enter, r->t_enter, r->t_exit, r->t_exit);
    dump_vec("    point", r->point);
    dump_vec("    normal", r->normal);
}

static void dump(void)
{
    const inputs *in = g_in;
    if (!in) return;
    fprintf(stderr, "inputs (dyadic %d, perm_obb %d, bogus type %d):\n", in->dyadic, in->perm_obb, in->bogus_type);
    dump_vec("ray.origin", in->ray.origin);
    dump_vec("ray.dir", in->ray.dir);
    fprintf(stderr, "  ray.tmax = %.9g (%a)\n", in->ray.tmax, in->ray.tmax);
    dump_vec("seg.a", in->seg.a);
    dump_vec("seg.b", in->seg.b);
    dump_vec("point", in->point);
    dump_vec("aabb.min", in->shape[0].u.aabb.min);
    dump_vec("aabb.max", in->shape[0].u.aabb.max);
    dump_vec("obb.center", in->shape[1].u.obb.center);
    dump_vec("obb.axes[0]", in->shape[1].u.obb.axes[0]);
    dump_vec("obb.axes[1]", in->shape[1].u.obb.axes[1]);
    dump_vec("obb.axes[2]", in->shape[1].u.obb.axes[2]);
    dump_vec("obb.half", in->shape[1].u.obb.half);
    dump_vec("sphere.center", in->shape[2].u.sphere.center);
    fprintf(stderr, "  sphere.radius = %.9g (%a)\n", in->shape[2].u.sphere.radius, in->shape[2].u.sphere.radius);
    dump_vec("plane.normal", in->shape[3].u.plane.normal);
    fprintf(stderr, "  plane.d = %.9g (%a)\n", in->shape[3].u.plane.d, in->shape[3].u.plane.d);
    const outputs *o = g_out;
    if (!o) return;
    static const char *names[4] = {"aabb", "obb", "sphere", "plane"};
    for (int s = 0; s < 4; ++s) {
        char name[32];
        snprintf(name, sizeof name, "raycast %s", names[s]);
        dump_ray_result(name, &o->ray[s]);
        fprintf(stderr, "  linetest %s: status %d value %d; contains: status %d value %d\n", names[s], o->line[s].status,
                o->line[s].value, o->contains[s].status, o->contains[s].value);
        fprintf(stderr, "  closest %s: status %d", names[s], o->closest[s].status);
        dump_vec("", o->closest[s].point);
    }
}

static void null_arguments(void)
{
    sc_ray ray = {{0, 0, 0}, {1, 0, 0}, INFINITY};
    sc_shape sh = {0};
    sh.type = SC_SHAPE_SPHERE;
    sh.u.sphere.radius = 1.0f;
    FUZZ_CHECK(sc_raycast(NULL, &sh).status == SC_ERR_NULL);
    FUZZ_CHECK(sc_raycast(&ray, NULL).status == SC_ERR_NULL);
    FUZZ_CHECK(sc_raycast_aabb(&ray, NULL).status == SC_ERR_NULL);
    FUZZ_CHECK(sc_raycast_obb(&ray, NULL).status == SC_ERR_NULL);
    FUZZ_CHECK(sc_raycast_sphere(&ray, NULL).status == SC_ERR_NULL);
    FUZZ_CHECK(sc_raycast_plane(&ray, NULL).status == SC_ERR_NULL);
    FUZZ_CHECK(sc_linetest(NULL, &sh).status == SC_ERR_NULL);
    FUZZ_CHECK(sc_contains((sc_vec3){0, 0, 0}, NULL).status == SC_ERR_NULL);
    FUZZ_CHECK(sc_closest_point((sc_vec3){0, 0, 0}, NULL).status == SC_ERR_NULL);
    FUZZ_CHECK(!sc_ray_valid(NULL) && !sc_segment_valid(NULL) && !sc_aabb_valid(NULL) && !sc_obb_valid(NULL) &&
               !sc_sphere_valid(NULL) && !sc_plane_valid(NULL) && !sc_shape_valid(NULL));
    for (int s = -1; s <= SC_STATUS_COUNT + 1; ++s) FUZZ_CHECK(sc_status_message((sc_status)s) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int once;
    if (!once) { null_arguments(); once = 1; }
    float raw[NFLOATS];
    inputs in, flipped;
    static outputs a, b;
    fuzz_dump = dump;
    decode(data, size, &in, raw);
    g_in = &in;
    g_out = &a;
    run_all(&in, &a);
    check_all(&in, &a);
    /* -0 behaves exactly like 0: the same inputs with every zero's sign flipped */
    flipped = in;
    flip_zeros(&flipped);
    g_in = &flipped;
    g_out = &b;
    run_all(&flipped, &b);
    check_all(&flipped, &b);
    g_in = &in;
    g_out = &a;
    FUZZ_CHECK(same_outputs(&a, &b));
    static int trace = -1;
    if (trace < 0) trace = getenv("FUZZ_QUERIES_TRACE") != NULL;
    if (trace) dump();
    return 0;
}
