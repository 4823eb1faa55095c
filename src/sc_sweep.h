/* Internal to the sweeps (sc_sweep.c, sc_sweep_capsule.c): the moving shape, a contact, and the
 * double-precision pieces both files use. Not part of the public API. */
#ifndef SC_SWEEP_H
#define SC_SWEEP_H

#include "sc_internal.h"

/* A contact: t, the object, the normal (the object's outward unit normal, pointing at the moving
 * shape; zero at t = 0) and the contact point on the object. */
typedef struct sc_shit {
    double t;
    int index;
    double n[3], p[3];
} sc_shit;

/* The moving shapes (sc_mover.kind). */
#define SC_MOVER_SPHERE 0
#define SC_MOVER_BOX 1
#define SC_MOVER_CAPSULE 2

/* The moving shape: centre o + t d for t in [0, tmax]; a sphere of radius r, a box of half
 * extents e, or a capsule of segment [a, b] (at t = 0; o is its midpoint) and radius r. */
typedef struct sc_mover {
    double o[3], d[3], tmax;
    int box;  /* 1 for a box (kind == SC_MOVER_BOX) */
    int kind; /* SC_MOVER_* */
    double r, e[3];
    double a[3], b[3];
    double ext[3]; /* how far the shape reaches from its centre along each axis */
} sc_mover;

/* sc_sweep.c */
/* First t >= 0 at which o + t d enters the ball (c, rad), when o is outside it (0 inside); -1 for never. */
double sc__sw_ray_ball(const double *o, const double *d, const double *c, double rad);
/* First t >= 0 at which o + t d enters the capsule of segment [a, b] and radius rad (o outside). */
double sc__sw_ray_capsule(const double *o, const double *d, const double *a, const double *b, double rad);
/* The squared distance from x to the box [lo, hi], and the closest point q. */
double sc__sw_box_dist2(const double *x, const double *lo, const double *hi, double *q);
/* The slab interval of o + t d against [lo, hi]: 0 when the line misses. */
int sc__sw_slab(const double *o, const double *d, const double *lo, const double *hi, double *tn, double *tf, int *axis);
/* The first contact of the point o + t d with the box [lo, hi] rounded by rad: t, the box's closest
 * point q and the unit normal n there (zero when touching at 0); 0 for none. */
int sc__sw_rounded_box(const double *o, const double *d, double tmax, const double *lo, const double *hi, double rad,
                       double *t, double *q, double *n);
/* Frame coordinates ql of an OBB mapped back to the world point p; the frame normal nl to the unit n. */
void sc__sw_obb_back(const sc_obb *b, const double *ql, const double *nl, double *p, double *n);

/* sc_sweep_capsule.c: a moving capsule against object o (any kind); a moving sphere or box
 * against a capsule object. 1 with the contact in *h, 0 for none. */
int sc__sw_capsule_object(const sc_world *w, const sc_mover *m, int o, sc_shit *h);
int sc__sw_vs_capsule(const sc_mover *m, const sc_capsule *c, sc_shit *h);

#endif
