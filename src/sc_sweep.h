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

/* One moving shape's query: the world, the shape, the filter (mask, exclude, inside), the best
 * contact so far; cull: 1 when the leaf tests may skip the pieces of an object that cannot beat
 * the best contact (the BVH path), 0 for the brute force (every piece of every object). */
typedef struct sc_sq {
    const sc_world *w;
    const sc_mover *m;
    const sc_wray *f;
    sc_shit best;
    int cull;
} sc_sq;

/* sc_sweep.c */
/* Object o against the query's moving shape, kept when it beats the best contact. */
void sc__sw_offer(sc_sq *q, int o);
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

/* sc_sweep_walk.c: the query through the BVH (near to far, four children at a time, subtrees
 * dropped once they cannot beat the best contact); every object it may touch is offered. 0 (and
 * nothing offered) when the sweep is outside the fast path's range (coordinates or reach of 2^80
 * or more): the caller walks with sc__walk then. */
int sc__sw_walk(sc_sq *q);

/* sc_sweep_capsule.c: a moving capsule against object o (any kind); a moving sphere or box
 * against a capsule object. 1 with the contact in *h, 0 for none. cut >= 0: the caller keeps only
 * contacts at t <= cut (ties included), so pieces whose contacts all come later may be skipped
 * (the answer is then exact whenever it is at most cut); cut < 0: every piece is tested. */
int sc__sw_capsule_object(const sc_world *w, const sc_mover *m, int o, sc_shit *h, double cut);
int sc__sw_vs_capsule(const sc_mover *m, const sc_capsule *c, sc_shit *h, double cut);
/* The segment [a, b] moving along t d (t in [0, tmax]) with radius r against the box [lo, hi]: t, the
 * point q on the box and its normal n (zero at t = 0); 0 for none. pieces = 0: as the sweeps compute
 * it (an upright capsule as a sphere against the box stretched along its axis); 1: always by the
 * pieces (end balls, edges), for the tests to compare the two. */
int sc__sw_capsule_box(const double *a, const double *b, const double *d, double tmax, const double *lo,
                       const double *hi, double r, double *t, double *q, double *n, int pieces);

#endif
