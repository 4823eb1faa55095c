/* slabcast: whether a closed ball meets a convex polytope given by half-spaces, exactly.
 * docs/semantics.md, "Overlaps": a sphere against an OBB or a frustum.
 *
 * The decision (sc_ball_kkt.h) is a sequence of polynomial signs in the float inputs. It runs
 * first on doubles that carry a bound on their error (sc_fd): a sign is taken only when the value
 * is further from zero than its bound. When some sign the answer depends on is too close to
 * call, it runs again on exact binary numbers (sc_bf: a sign, an exponent and an integer of up to
 * SC_BF_LIMBS 32-bit limbs), where every sign is known. The widest value the decision forms from
 * float inputs spans about 2,230 bits (a squared distance of degree 8, with subnormal and
 * near-FLT_MAX inputs together); SC_BF_LIMBS holds 2,560. */
#include "sc_internal.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sc_exact_num.h"

#define SC_BALL_UNKNOWN SC_NUM_UNKNOWN
#define SC_BALL_MAX 6 /* half-spaces: an OBB's six, a frustum's six */

/* beta_k = b_k - n_k . c, from its exact double terms (b's, and the products n_i c_i of floats). */
static int sc_ball_terms(const sc_xhs *h, sc_vec3 c, double *t)
{
    int k = 0;
    for (int i = 0; i < h->nb; ++i) t[k++] = h->b[i];
    t[k++] = -((double)h->n[0] * c.x);
    t[k++] = -((double)h->n[1] * c.y);
    t[k++] = -((double)h->n[2] * c.z);
    return k;
}

/* ------------------------------------------------------------------ the decision, twice */

#define NUM sc_fd
#define OP(name) sc_fd_##name
#define KKT_FN(name) sc_ball_##name##_fd
#include "sc_ball_kkt.h"
#undef NUM
#undef OP
#undef KKT_FN

#define NUM sc_bf
#define OP(name) sc_bf_##name
#define KKT_FN(name) sc_ball_##name##_bf
#include "sc_ball_kkt.h"
#undef NUM
#undef OP
#undef KKT_FN

/* Whether the closed ball (center, radius >= 0) meets the intersection of the m half-spaces
 * h[k]: n . x <= sum of b (float normals, exact double terms). skip_pair: h[2i] and h[2i + 1]
 * are opposite (an OBB's slabs). A half-space with a zero normal holds everywhere (0 <= b) or
 * nowhere. Exact; at most SC_BALL_MAX half-spaces. */
static int sc_ball_meets(const sc_xhs *h, int m, int skip_pair, sc_vec3 center, float radius, int filtered);

int sc__ball_meets_halfspaces(const sc_xhs *h, int m, int skip_pair, sc_vec3 center, float radius)
{
    return sc_ball_meets(h, m, skip_pair, center, radius, 1);
}

int sc__ball_meets_halfspaces_exact(const sc_xhs *h, int m, int skip_pair, sc_vec3 center, float radius)
{
    return sc_ball_meets(h, m, skip_pair, center, radius, 0);
}

/* filtered: try the doubles with error bounds first (0: exact arithmetic only, for tests). */
static int sc_ball_meets(const sc_xhs *h, int m, int skip_pair, sc_vec3 center, float radius, int filtered)
{
    int idx[SC_BALL_MAX], k = 0;
    for (int i = 0; i < m && i < SC_BALL_MAX; ++i) {
        if (h[i].n[0] == 0.0f && h[i].n[1] == 0.0f && h[i].n[2] == 0.0f) {
            sc_bf b, t;
            sc_bf_set(&b, 0.0);
            for (int j = 0; j < h[i].nb; ++j) {
                sc_bf_set(&t, h[i].b[j]);
                sc_bf_add(&b, &b, &t);
            }
            if (sc_bf_sign(&b) < 0) return 0; /* 0 <= b fails: empty */
            skip_pair = 0;                            /* the pairs no longer line up */
            continue;
        }
        idx[k++] = i;
    }
    double rr = (double)radius * radius; /* exact: a product of floats */
    if (filtered) {
        int r = sc_ball_halfspaces_fd(h, idx, k, skip_pair, center, rr);
        if (r != SC_BALL_UNKNOWN) return r;
    }
    int r = sc_ball_halfspaces_bf(h, idx, k, skip_pair, center, rr);
    /* Unknown only if a value outgrew SC_BF_LIMBS, which float inputs cannot make (see above):
     * then the nearer answer of touching counts. */
    return r == SC_BALL_UNKNOWN ? 1 : r;
}
