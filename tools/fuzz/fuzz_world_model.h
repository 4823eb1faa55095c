/* fuzz_world_model.h: the model fuzz_world.c (its only includer) keeps of the world it drives:
 * the objects it added, which are removed, disabled and masked, and how a query under a filter
 * sees them (docs/semantics.md, "Filters"). */
#ifndef SLABCAST_FUZZ_WORLD_MODEL_H
#define SLABCAST_FUZZ_WORLD_MODEL_H

#include "fuzz_common.h"

#define MAX_OBJECTS 256
#define MAX_RAYS 64
#define MAX_BIG_RAYS 1024
#define MAX_BATCH 16

typedef struct model {
    sc_world *w;
    int count;
    int stale;       /* objects added or updated since the last commit, build or refit */
    int world_error; /* the world's error index: of the last add or update */
    sc_shape obj[MAX_OBJECTS];
    int removed[MAX_OBJECTS], disabled[MAX_OBJECTS];
    uint32_t mask[MAX_OBJECTS];
    int free_slots[MAX_OBJECTS], nfree; /* removed indices; an add of one takes the last */
} model;

static model g_m;
/* The filter of the query being checked (the default outside op_cast), as the model applies it. */
static uint32_t g_fmask = 0xFFFFFFFFu;
static const int32_t *g_fexclude;
static int g_fray, g_finside; /* g_finside: the sc_inside rule */

/* Whether the query being checked may hit object o (docs/semantics.md, "Filters"). */
static int allowed(int o)
{
    if (g_m.removed[o] || g_m.disabled[o] || (g_m.mask[o] & g_fmask) == 0) return 0;
    return !g_fexclude || g_fexclude[g_fray] != o;
}

/* An allowed object's single-query hit under the inside rule: 1 with the t it reports (and
 * *exit set when that is its exit), 0 when it does not count. An object contains the origin
 * when t_enter < 0: solid reports it at t = 0, skip drops it, exit reports t_exit <= tmax. */
static int counted(const sc_raycast_result *h, float tmax, float *t, int *exit)
{
    *exit = 0;
    if (!h->hit) return 0;
    if (!(h->t_enter < 0.0f) || g_finside == SC_INSIDE_SOLID) {
        *t = h->t;
        return 1;
    }
    if (g_finside == SC_INSIDE_SKIP || !(h->t_exit <= tmax)) return 0;
    *t = h->t_exit;
    *exit = 1;
    return 1;
}

#endif
