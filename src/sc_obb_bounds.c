/* slabcast worlds: a box that surely holds a whole OBB, for culling.
 *
 * docs/semantics.md defines an OBB as its three slabs |a_i . (x - c)| <= h_i, with the axes a_i as
 * given, orthonormal only within 1e-4. That set S is the parallelepiped c + A^-1 l, |l_i| <= h_i,
 * where A has the axes as rows; it is not the parallelepiped P = c + A^T l that the axes span (the
 * two differ by about the skew times the largest half extent). The world culls every query by an
 * object's bounds, so the bounds of an OBB must hold all of S; they hold P too, because the closest
 * point of an OBB (sc_closest_point) maps clamped coordinates back with A^T and lands in P.
 *
 * The math. Let G = A A^T = I + E (the Gram matrix; E is what the validator bounds) and
 * eps = ||E||_inf = max_i sum_j |E_ij|. For eps < 1, I + E is invertible (Neumann series), and
 *   A^-1 = A^T G^-1 = A^T (I + F),  F = (I + E)^-1 - I = -E + E^2 (I + E)^-1,
 *   |F_ji| <= |E_ji| + eta,  eta = eps^2 / (1 - eps)   (|(E^2 (I+E)^-1)_ji| <= ||E||_inf^2 / (1 - eps)).
 * S reaches, along world axis k, c_k +- W_k with W_k = sum_i h_i |(A^-1)_ki|, and
 *   |(A^-1)_ki| = |A_ik + sum_j A_jk F_ji| <= |A_ik| + sum_j |A_jk| (|E_ji| + eta),
 * so W_k <= sum_i h_i (|A_ik| + sum_j |A_jk| (|E_ji| + eta)) =: B_k. B_k >= sum_i h_i |A_ik|, the
 * reach of P, so [c - B, c + B] holds both. For valid axes |E_ji| <= 1e-4 and eps <= 3e-4 (plus
 * rounding), so B_k exceeds the reach of P by at most sum_i h_i (sum_j |A_jk|) (1e-4 + eta), about
 * 1.7e-4 of sum_i h_i, and by far less for axes as orthonormal as float rotations make them
 * (|E| ~ 1e-7). The exact reach W_k exceeds that of P by up to about the skew times the halves.
 *
 * The rounding. The axes, centre and halves are floats, exact in double, and so is every product
 * of two of them. E_ij = a_i . a_j - delta_ij is a sum of four doubles: its computed value is within
 * 3u (sum of the magnitudes) of the exact one (u = 2^-53), so e_ij = |computed| + 2^-50 (sum + 1)
 * bounds |E_ij|. Everything after is a sum of products of non-negative numbers, fewer than a hundred
 * roundings deep, so scaling the result by 1 + 2^-40 covers its rounding. The bound c +- B is then
 * formed in double and rounded outwards to float, with a margin of 2^-50 of its magnitude for the
 * rounding of that last sum (see sc_ob_down). A bound beyond the float range saturates to
 * +-FLT_MAX: such an object is far (coordinates of 2^80 or more), kept out of the BVH and tested on
 * every query, so its bounds never cull it. eps >= 1/2 cannot come from valid axes; should it, the
 * bounds are the whole float range (never culled). Nothing here is NaN for finite inputs. */
#include "sc_internal.h"

#include <float.h>
#include <math.h>

/* The largest float <= x - (a margin of 2^-50 |x| for x's own rounding), saturated at -FLT_MAX. */
static float sc_ob_down(double x)
{
    double v = x - fabs(x) * 8.8817841970012523e-16; /* 2^-50 */
    float f = (float)x;
    if ((double)f > v) f = nextafterf(f, -INFINITY);
    return f < -FLT_MAX ? -FLT_MAX : f;
}

/* The smallest float >= x + 2^-50 |x|, saturated at FLT_MAX. */
static float sc_ob_up(double x)
{
    double v = x + fabs(x) * 8.8817841970012523e-16;
    float f = (float)x;
    if ((double)f < v) f = nextafterf(f, INFINITY);
    return f > FLT_MAX ? FLT_MAX : f;
}

sc_aabb sc__obb_bounds(const sc_obb *o)
{
    double A[3][3], h[3] = {o->half.x, o->half.y, o->half.z}, c[3] = {o->center.x, o->center.y, o->center.z};
    for (int i = 0; i < 3; ++i) {
        A[i][0] = o->axes[i].x;
        A[i][1] = o->axes[i].y;
        A[i][2] = o->axes[i].z;
    }
    /* e[i][j] >= |E_ij|, and eps >= ||E||_inf */
    double e[3][3], eps = 0.0;
    for (int i = 0; i < 3; ++i) {
        double row = 0.0;
        for (int j = 0; j < 3; ++j) {
            double p0 = A[i][0] * A[j][0], p1 = A[i][1] * A[j][1], p2 = A[i][2] * A[j][2];
            double s = fabs(p0) + fabs(p1) + fabs(p2) + 1.0;
            double v = p0 + p1 + p2 - (i == j ? 1.0 : 0.0);
            e[i][j] = fabs(v) + 8.8817841970012523e-16 * s;
            row += e[i][j];
        }
        if (row > eps) eps = row;
    }
    sc_aabb b;
    if (!(eps < 0.5)) {
        b.min = (sc_vec3){-FLT_MAX, -FLT_MAX, -FLT_MAX};
        b.max = (sc_vec3){FLT_MAX, FLT_MAX, FLT_MAX};
        return b;
    }
    double eta = eps * eps / (1.0 - eps);
    float lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
        double B = 0.0;
        for (int i = 0; i < 3; ++i) {
            double m = fabs(A[i][k]);
            for (int j = 0; j < 3; ++j) m += fabs(A[j][k]) * (e[j][i] + eta);
            B += h[i] * m;
        }
        B *= 1.0 + 9.094947017729282e-13; /* 1 + 2^-40 */
        if (B == 0.0) { /* every half is 0: the point c itself, exactly */
            lo[k] = hi[k] = (float)c[k];
            continue;
        }
        lo[k] = sc_ob_down(c[k] - B);
        hi[k] = sc_ob_up(c[k] + B);
    }
    b.min = (sc_vec3){lo[0], lo[1], lo[2]};
    b.max = (sc_vec3){hi[0], hi[1], hi[2]};
    return b;
}
