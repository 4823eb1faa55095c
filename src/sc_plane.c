/* Ray and segment against a plane (two-sided, infinitely thin): signs of exactly summed
 * products (sc_exact.h), a rounded quotient only for the reported t. */
#include "sc_single.h"
#include "sc_exact.h"

/* n.x - d for the plane and a float point x, exactly summed (sign exact; no rescaling: the
 * products of floats are all in the double range, subnormal normals included). */
double sc__plane_side(const sc_plane *p, sc_vec3 x)
{
    double t[4];
    int n = sc_terms_dot(t, 0, p->normal, x, 1.0);
    t[n++] = -(double)p->d;
    return sc_xsum_s(t, n);
}

sc_raycast_result sc__raycast_plane_valid(const sc_ray *ray, const sc_plane *plane)
{
    double t3[3];
    double denom = sc_xsum_s(t3, sc_terms_dot(t3, 0, plane->normal, ray->dir, 1.0));
    double num = -sc__plane_side(plane, ray->origin); /* d - n.o */
    double t;
    if (denom == 0.0) {
        /* Parallel: the whole line is in the plane, or none of it. */
        if (num != 0.0) return sc_miss();
        t = 0.0;
    } else {
        /* t0 = num/denom in [0, tmax], decided by signs (exact) and, for a finite tmax, the
         * sign of num - tmax*denom, exactly summed (no rounded quotient). */
        int ge0 = (num == 0.0) || ((num > 0.0) == (denom > 0.0));
        if (!ge0) return sc_miss();
        if (!isinf(ray->tmax)) {
            double tt[16];
            int n = sc_terms_dot(tt, 0, plane->normal, ray->origin, -1.0);
            tt[n++] = plane->d;
            for (int i = 0; i < 3; ++i) {
                double ni = sc_get(plane->normal, i), di = sc_get(ray->dir, i);
                sc_two_prod(-(double)ray->tmax, ni * di, &tt[n], &tt[n + 1]);
                n += 2;
            }
            double diff = sc_xsum_s(tt, n); /* num - tmax*denom */
            if (denom > 0.0 ? diff > 0.0 : diff < 0.0) return sc_miss();
        }
        t = num / denom;
        if (!(t >= 0.0)) t = 0.0;
    }
    sc_raycast_result r = sc_miss();
    r.hit = 1;
    float tf = sc_dfin(t);
    if (tf > ray->tmax) tf = ray->tmax;
    r.t = r.t_enter = r.t_exit = sc_pz(tf);
    /* The point from the unrounded t (docs/semantics.md: only t saturates). */
    double p[3];
    for (int i = 0; i < 3; ++i) p[i] = (double)sc_get(ray->origin, i) + t * sc_get(ray->dir, i);
    r.point = sc_pz3(sc_dfin3(p));
    double nv[3] = {plane->normal.x, plane->normal.y, plane->normal.z};
    sc_vec3 n = sc_unit_d(nv, plane->normal);
    if (denom > 0.0) n = sc_scale(n, -1.0f); /* face the ray: n.dir <= 0 */
    r.normal = sc_pz3(n);
    return r;
}

/* Two-sided: the end points' signed distances have opposite signs or one is 0. */
int sc__linetest_plane(sc_vec3 a, sc_vec3 b, const sc_plane *plane)
{
    double sa = sc__plane_side(plane, a);
    double sb = sc__plane_side(plane, b);
    return (sa <= 0.0 && sb >= 0.0) || (sa >= 0.0 && sb <= 0.0);
}
