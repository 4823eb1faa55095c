/* Ray and segment against an AABB: the slab method in float32, with exact (expansion) and double
 * fallbacks where the rounded slab parameters cannot decide; the exit normal of a ray from inside.
 *
 * AABB slab parameters are computed as (bound - origin) / dir with one true division in float,
 * never with a precomputed reciprocal: rounding is then monotone in the exact quotient, so the
 * comparisons t_enter <= t_exit, t_exit >= 0 and t_enter <= tmax keep the exact order unless the
 * parameters are too close (sc_slab_close), where the exact test decides. An axis with dir == 0
 * (or -0) is never divided by: the ray is parallel to that slab and is in it for every t iff
 * lo <= origin <= hi (closed). No 0*inf, no NaN. The world's SIMD kernel (sc_kernels.h,
 * sc_traverse.c) reproduces this bit for bit. */
#include "sc_single.h"
#include "sc_exact.h"


/* The slab interval of the line o + t*d against the closed box [lo, hi] (in whatever frame
 * o, d, lo, hi are given). Returns 0 when the line misses the box. On success *t_enter and
 * *t_exit bound the closed interval and *axis is the axis whose slab gave t_enter (-1 when
 * every axis is parallel, which a valid ray cannot be). */
static int sc_slab_core(sc_vec3 o, sc_vec3 d, sc_vec3 lo, sc_vec3 hi, float *t_enter, float *t_exit, int *axis)
{
    float tn = -INFINITY, tf = INFINITY;
    int ax = -1;
    for (int i = 0; i < 3; ++i) {
        float oi = sc_get(o, i), di = sc_get(d, i), loi = sc_get(lo, i), hii = sc_get(hi, i);
        if (di == 0.0f) {
            /* Parallel to this slab (dir 0 or -0): inside it for all t, or for none. */
            if (oi < loi || oi > hii) return 0;
            continue;
        }
        /* One correctly rounded division each: monotone in the exact value. */
        float n1 = loi - oi, n2 = hii - oi;
        float t1 = n1 / di;
        float t2 = n2 / di;
        /* A quotient below FLT_MIN from a non-zero numerator has lost precision, or its sign
         * (-2^-150 rounds to -0, and -0 >= 0 made a box behind the origin a hit at t = 0): the
         * caller decides in double (2: undecided). A difference of floats is zero only when
         * they are equal, so n != 0 is exact. The world's SIMD kernel hands such lanes to the
         * scalar test (sc_w_leaf_aabb4). */
        if ((sc_absf(t1) < FLT_MIN && n1 != 0.0f) || (sc_absf(t2) < FLT_MIN && n2 != 0.0f)) return 2;
        float near = di > 0.0f ? t1 : t2;
        float far = di > 0.0f ? t2 : t1;
        if (near > tn) { tn = near; ax = i; }
        if (far < tf) tf = far;
    }
    /* The rounded parameters, on a miss too: the caller checks whether they were too close to
     * tell (sc_slab_close). */
    *t_enter = tn;
    *t_exit = tf;
    *axis = ax;
    return tn > tf ? 0 : 1;
}

static int sc_slab_close(float a, float b);
SC_COLD static int sc_slab_hit_exact(sc_vec3 o, sc_vec3 d, sc_vec3 lo, sc_vec3 hi, double tmax);

static int sc_slab_interval(sc_vec3 o, sc_vec3 d, sc_vec3 lo, sc_vec3 hi,
                            float *t_enter, float *t_exit, int *axis)
{
    int k = sc_slab_core(o, d, lo, hi, t_enter, t_exit, axis);
    if (k != 1) return k;
    if (*t_enter == INFINITY) {
        /* t_enter = t_exit = +inf: both ends overflowed (a small dir), and +inf <= +inf says
         * nothing about their order. Decide it again with dir scaled by the power of two that
         * brings max|d_i| into [2, 4): exact, as every component gets larger (t_exit = +inf
         * means |bound - o| / |d_i| > FLT_MAX on every axis that is not parallel, and
         * |bound - o| < 2^128, so max|d_i| < 1 here). The t of the largest component are then
         * below 2^127, finite, so t_enter > t_exit shows as such, unless they are too close to
         * tell: then the exact test decides whether the line meets the box with t_exit >= 0
         * (the caller compares the entry, past FLT_MAX, with tmax). Both ends stay +inf (past
         * FLT_MAX) on a hit. */
        int e = 0;
        (void)frexpf(sc_max3abs(d), &e);
        sc_vec3 ds = {ldexpf(d.x, 2 - e), ldexpf(d.y, 2 - e), ldexpf(d.z, 2 - e)};
        float tn, tf;
        int k2 = sc_slab_core(o, ds, lo, hi, &tn, &tf, axis);
        if (k2 != 2 && *axis >= 0 && sc_slab_close(tn, tf)) return sc_slab_hit_exact(o, d, lo, hi, INFINITY);
        return k2;
    }
    return 1;
}

/* Whether two slab parameters rounded to float32 are too close for their order to be trusted:
 * each is within 2^-23 of its exact value relative to itself (a correctly rounded quotient of a
 * rounded difference), so values further apart than 2^-21 of the larger are ordered as the
 * exact ones. Infinities and NaN are never close (their cases are decided elsewhere). */
static int sc_slab_close(float a, float b)
{
    if (!isfinite(a) || !isfinite(b)) return 0;
    float m = sc_maxf(sc_absf(a), sc_absf(b));
    return sc_absf(a - b) <= m * 4.76837158e-7f; /* 2^-21 */
}

/* The exact classification of the slab test: whether the interval of o + t*d in the closed
 * box [lo, hi] meets [0, tmax], from the exact parameters (bound - o) / d of every slab, never
 * from rounded ones. Each numerator is an exact two-term sum (two_sum of floats) and each
 * comparison of two quotients is the sign of an exactly summed cross product, so this is exact
 * for any float inputs (products of a double and a float are split exactly by two_prod). Used
 * when the rounded parameters are too close to decide (sc_slab_close): a line that passes a
 * box's edge or corner by less than the rounding of t. */
SC_COLD static int sc_slab_hit_exact(sc_vec3 o, sc_vec3 d, sc_vec3 lo, sc_vec3 hi, double tmax)
{
    double nh[3][2], nl[3][2]; /* [axis][0: near, 1: far] numerators, hi + lo */
    int live[3];
    for (int i = 0; i < 3; ++i) {
        float oi = sc_get(o, i), di = sc_get(d, i), loi = sc_get(lo, i), hii = sc_get(hi, i);
        live[i] = di != 0.0f;
        if (!live[i]) {
            if (oi < loi || oi > hii) return 0;
            continue;
        }
        sc_two_sum(di > 0.0f ? loi : hii, -(double)oi, &nh[i][0], &nl[i][0]);
        sc_two_sum(di > 0.0f ? hii : loi, -(double)oi, &nh[i][1], &nl[i][1]);
    }
    for (int i = 0; i < 3; ++i) {
        if (!live[i]) continue;
        double di = sc_get(d, i), sd = di > 0.0 ? 1.0 : -1.0;
        /* far >= 0: the numerator's sign (its hi part's, or lo's when hi is 0) times d's */
        double fs = nh[i][1] != 0.0 ? nh[i][1] : nl[i][1];
        if (fs * sd < 0.0) return 0;
        /* near <= tmax  <=>  (num - tmax d) sd <= 0 */
        if (isfinite(tmax)) {
            double t[4];
            t[0] = nh[i][0];
            t[1] = nl[i][0];
            sc_two_prod(-tmax, di, &t[2], &t[3]);
            if (sc_xsum_s(t, 4) * sd > 0.0) return 0;
        }
        /* near_i <= far_j for every other axis j:  (num_i d_j - num_j d_i) sign(d_i d_j) <= 0 */
        for (int j = 0; j < 3; ++j) {
            if (j == i || !live[j]) continue;
            double dj = sc_get(d, j), t[8];
            sc_two_prod(nh[i][0], dj, &t[0], &t[1]);
            sc_two_prod(nl[i][0], dj, &t[2], &t[3]);
            sc_two_prod(-nh[j][1], di, &t[4], &t[5]);
            sc_two_prod(-nl[j][1], di, &t[6], &t[7]);
            if (sc_xsum_s(t, 8) * sd * (dj > 0.0 ? 1.0 : -1.0) > 0.0) return 0;
        }
    }
    return 1;
}

/* Scale factor for positions: 1, or 2^-4 when some magnitude could overflow a difference. */
static float sc_position_scale(const sc_vec3 *v, int n)
{
    for (int i = 0; i < n; ++i)
        if (sc_max3abs(v[i]) >= SC_HUGE) return SC_HUGE_SCALE;
    return 1.0f;
}

/* A hit of the AABB: the result from the line's interval [tn, tf] (floats, within the float
 * range), its entry axis, and whether the exact entry is at t >= 0 (then the point lies on the
 * entry face and the normal is that face's). */
static sc_raycast_result sc_aabb_hit(const sc_ray *ray, const sc_aabb *box, float tn, float tf, int axis, int entering)
{
    sc_raycast_result r = sc_miss();
    r.hit = 1;
    r.t_enter = sc_pz(tn);
    r.t_exit = sc_pz(tf);
    r.t = tn > 0.0f ? tn : 0.0f;
    r.point = ray->origin;
    if (entering && axis >= 0) {
        /* The point from the unrounded parameter (docs/semantics.md: t saturates at FLT_MAX,
         * the point does not): t = (face - o_axis) / d_axis again, in double, where the
         * difference of two floats does not overflow and a subnormal d_axis gives a finite t.
         * The entry axis itself is set exactly: entered through the min face when moving up
         * the axis, the max face otherwise. The others are clamped to the box below. */
        double da = sc_get(ray->dir, axis);
        double face = da > 0.0 ? sc_get(box->min, axis) : sc_get(box->max, axis);
        double td = (face - (double)sc_get(ray->origin, axis)) / da;
        double pd[3];
        for (int i = 0; i < 3; ++i) pd[i] = (double)sc_get(ray->origin, i) + td * sc_get(ray->dir, i);
        r.point = sc_dfin3(pd);
        sc_set(&r.point, axis, (float)face);
        sc_set(&r.normal, axis, da > 0.0 ? -1.0f : 1.0f);
    }
    /* The exact point is in the closed box; clamping the rounded one only brings it closer. */
    for (int i = 0; i < 3; ++i)
        sc_set(&r.point, i, sc_minf(sc_maxf(sc_get(r.point, i), sc_get(box->min, i)), sc_get(box->max, i)));
    r.point = sc_pz3(r.point);
    r.normal = sc_pz3(r.normal);
    return r;
}

/* Whether two slab parameters computed in double (a rounded difference of floats, then a
 * rounded quotient: within 2^-52 of the exact value, relative) are too close to be ordered. */
static int sc_slab_close_d(double a, double b)
{
    if (!isfinite(a) || !isfinite(b)) return 0;
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= m * 8.8817841970012523e-16; /* 2^-50 */
}

/* Ray vs AABB in double, for the inputs whose float slab quotients underflow (sc_slab_core
 * returns 2). In double no quotient of floats underflows (|q| >= 2^-277), so the signs of the
 * slab bounds are those of the exact values, and so is their order unless they are too close to
 * tell (sc_slab_close_d): then the exact test decides. */
static sc_raycast_result sc_raycast_aabb_d(const sc_ray *ray, const sc_aabb *box)
{
    double tn = -INFINITY, tf = INFINITY;
    int ax = -1;
    for (int i = 0; i < 3; ++i) {
        double oi = sc_get(ray->origin, i), di = sc_get(ray->dir, i);
        double lo = sc_get(box->min, i), hi = sc_get(box->max, i);
        if (di == 0.0) {
            if (oi < lo || oi > hi) return sc_miss();
            continue;
        }
        double t1 = (lo - oi) / di, t2 = (hi - oi) / di;
        double near = di > 0.0 ? t1 : t2, far = di > 0.0 ? t2 : t1;
        if (near > tn) { tn = near; ax = i; }
        if (far < tf) tf = far;
    }
    int hit = tn <= tf && tf >= 0.0 && tn <= ray->tmax;
    if (sc_slab_close_d(tn, tf) || sc_slab_close_d(tn, ray->tmax))
        hit = sc_slab_hit_exact(ray->origin, ray->dir, box->min, box->max, (double)ray->tmax);
    if (!hit) return sc_miss();
    if (tf < tn) tf = tn; /* an exact hit whose rounded parameters crossed */
    sc_raycast_result r = sc_aabb_hit(ray, box, sc_dfin(tn), sc_dfin(tf), ax, tn >= 0.0);
    if (r.t > ray->tmax) r.t = ray->tmax;
    return r;
}

/* Ray vs AABB, inputs valid. The world kernels reproduce this bit for bit. */
sc_raycast_result sc__raycast_aabb_valid(const sc_ray *ray, const sc_aabb *box)
{
    sc_vec3 pos[3] = {ray->origin, box->min, box->max};
    float s = sc_position_scale(pos, 3);
    float tn = 0.0f, tf = 0.0f;
    int axis = -1;
    int k = sc_slab_interval(sc_scale(ray->origin, s), ray->dir, sc_scale(box->min, s), sc_scale(box->max, s),
                             &tn, &tf, &axis);
    if (k == 2) return sc_raycast_aabb_d(ray, box);
    if (!k && !(axis >= 0 && sc_slab_close(tn, tf))) return sc_miss();
    if (s != 1.0f) { tn /= s; tf /= s; }
    /* I = [tn, tf] meets [0, tmax]; when the rounded parameters are too close to say, the exact
     * ones decide (scaling the positions by a power of two scales every parameter by it, and
     * changes none of their orders). */
    int hit = k && tf >= 0.0f && tn <= ray->tmax;
    if ((axis >= 0 && sc_slab_close(tn, tf)) || sc_slab_close(tn, ray->tmax)) {
        /* In the frame scaled by s the parameters are s times the true ones: so is tmax (in
         * double, exactly: a float times a power of two, far inside the double range). */
        hit = sc_slab_hit_exact(sc_scale(ray->origin, s), ray->dir, sc_scale(box->min, s), sc_scale(box->max, s),
                                (double)ray->tmax * s);
    }
    if (!hit) return sc_miss();
    /* An exact hit whose rounded parameters crossed: the exit is raised to the entry, and t
     * kept within tmax (the entry's point is the one reported). */
    if (tf < tn) tf = tn;
    sc_raycast_result r = sc_aabb_hit(ray, box, sc_fin(tn), sc_fin(tf), axis, tn >= 0.0f);
    if (r.t > ray->tmax) r.t = ray->tmax;
    return r;
}

/* The segment a + t (b - a), 0 <= t <= 1 (a != b), against the closed box, exactly (docs/semantics.md:
 * linetest tests the exact segment, b - a is never rounded). Per axis, with D = b - a and s its
 * sign (that of b - a: a comparison of floats), the slab's near and far bounds N, F give
 * near = (N - a) / D, far = (F - a) / D; the segment meets the box iff far_i >= 0 (s (F - a) >= 0),
 * near_i <= 1 (s (N - b) <= 0) and near_i <= far_j for every pair, that is
 * s_i s_j [(N_i - a_i)(b_j - a_j) - (F_j - a_j)(b_i - a_i)] <= 0, whose bracket is the exact sum of
 * six products of floats: N_i b_j - N_i a_j - a_i b_j - F_j b_i + F_j a_i + a_j b_i. */
int sc__linetest_aabb(sc_vec3 a, sc_vec3 b, const sc_aabb *box)
{
    int s[3];
    float nb[3], fb[3];
    for (int i = 0; i < 3; ++i) {
        float ai = sc_get(a, i), bi = sc_get(b, i), lo = sc_get(box->min, i), hi = sc_get(box->max, i);
        s[i] = bi > ai ? 1 : (bi < ai ? -1 : 0);
        if (s[i] == 0) {
            if (ai < lo || ai > hi) return 0;
            continue;
        }
        nb[i] = s[i] > 0 ? lo : hi;
        fb[i] = s[i] > 0 ? hi : lo;
        if (s[i] > 0 ? (fb[i] < ai || nb[i] > bi) : (fb[i] > ai || nb[i] < bi)) return 0;
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            if (i == j || s[i] == 0 || s[j] == 0) continue;
            double ai = sc_get(a, i), aj = sc_get(a, j), bi = sc_get(b, i), bj = sc_get(b, j);
            double t[6] = {nb[i] * bj, -(nb[i] * aj), -(ai * bj), -(fb[j] * bi), fb[j] * ai, aj * bi};
            if (s[i] * s[j] * sc__exp_sign(t, 6) > 0) return 0;
        }
    }
    return 1;
}

/* The box face of the smallest far-plane parameter: (face - o) / d in double (the difference of
 * two floats is exact there unless their exponents are 29 or more apart). */
sc_vec3 sc__exit_normal_aabb(const sc_ray *ray, const sc_aabb *box)
{
    sc_vec3 n = {0, 0, 0};
    int axis = -1;
    double best = INFINITY;
    for (int i = 0; i < 3; ++i) {
        double d = sc_get(ray->dir, i);
        if (d == 0.0) continue;
        double face = d > 0.0 ? sc_get(box->max, i) : sc_get(box->min, i);
        double t = (face - (double)sc_get(ray->origin, i)) / d;
        if (axis < 0 || t < best) { best = t; axis = i; }
    }
    if (axis >= 0) sc_set(&n, axis, sc_get(ray->dir, axis) > 0.0f ? 1.0f : -1.0f);
    return n;
}
