/* fuzz_world: the bytes as a sequence of world operations (sc_world_* of slabcast.h) against a
 * model kept by the fuzzer: create, add AABBs / OBBs / spheres / capsules (counts from the bytes,
 * hostile ones included: negative, huge, a NULL batch), update ranges (out of range, other
 * kinds), refit, build, cast rays, all hits along a ray, any-hit, segments, destroy.
 *
 * Input: a stream of operations, each an opcode byte followed by its arguments (docs/fuzzing.md);
 * missing bytes read 0. Sizes are capped (256 objects, 64 rays; one op casts a large batch
 * of up to 1024 rays to reach the reordered traversal) so that an input runs fast.
 *
 * Invariants (abort() on failure):
 *   - every status is the one the documented order of checks gives (count, NULL, element by
 *     element with sc_world_error_index for changes and sc_scratch_error_index for queries,
 *     range, kind, then SC_ERR_STALE for a query on a world changed since its last commit),
 *     and a refused call changes nothing (count, objects);
 *   - queries never write into the world: its error index and committed state stay as the
 *     model says; a stale query is committed (sc_world_commit) and asked again;
 *   - sc_world_cast_rays equals sc_world_cast_rays_bruteforce exactly (index, t, normal), with
 *     and without a normal array, and both equal the single queries over the model's objects
 *     (sc_raycast, nearest t, ties to the lowest index), with no exception: the single queries
 *     are exact at any distance (check_discrepancy reports a difference and fails);
 *   - a hit has a finite t in [0, tmax] and a unit or zero normal; a miss has t 0, index -1,
 *     normal 0; sc_world_any_hit is 1 exactly where cast_rays found a hit;
 *   - sc_world_cast_ray_all lists every hit once, sorted by t then index, each the single
 *     query's t and normal, the first the nearest hit; no single-query hit is missing;
 *     a cap below the total gives a prefix;
 *   - removal, enabled flags and masks (op 8) take effect at once; sc_world_kind follows the
 *     model; an add of one object takes the last freed slot; a cast under a filter (mask,
 *     per-ray exclusion, SC_INSIDE_SKIP, SC_INSIDE_EXIT) equals the single queries over the
 *     allowed objects (under exit, an object containing the origin gives its t_exit);
 *   - sc_world_cast_segments equals the single queries along a + t (b - a) (a point: the
 *     lowest-index object containing it), t in [0, 1], and a hit object is one that
 *     sc_linetest says the segment meets;
 *   - capsules (opcodes 4 and 7 with flags & 48 == 16) go through every check
 *     above as objects, and after each any-hit batch capsule sweeps and overlaps built from its
 *     rays equal their brute forces bit for bit (check_capsule_queries).
 */
#include "fuzz_common.h"
#include "fuzz_world_decode.h" /* reading the arguments from the bytes */
#include "fuzz_world_model.h"  /* the model of the world */
#include "sc_internal.h"       /* sc__overlap_checked: the brute-force overlaps */

#include <limits.h>

/* An sc_ray as the SC_RAY_FLOATS floats sc_world_cast_ray_all takes. */
#define RAY7(r) ((const float[SC_RAY_FLOATS]){(r).origin.x, (r).origin.y, (r).origin.z, (r).dir.x, (r).dir.y, (r).dir.z, (r).tmax})

static sc_scratch *g_scratch; /* every query's scratch, reserved for MAX_BIG_RAYS once */
static int g_op, g_opcode;
static int g_status, g_hits; /* of the last operation, for the trace (FUZZ_WORLD_TRACE=1) */
static const float *g_query; /* the ray (7 floats) or segment (6) being checked, for dump() */
static int g_query_floats;

static void dump_floats(const char *name, const float *p, int n)
{
    fprintf(stderr, "  %s:", name);
    for (int i = 0; i < n; ++i) fprintf(stderr, " %.9g (%a)", p[i], p[i]);
    fprintf(stderr, "\n");
}

static void dump(void)
{
    fprintf(stderr, "operation %d (opcode %d), %d objects in the model, world %s\n", g_op, g_opcode, g_m.count,
            g_m.w ? "live" : "NULL");
    if (g_query) dump_floats(g_query_floats == 7 ? "ray" : "segment", g_query, g_query_floats);
    for (int i = 0; i < g_m.count && i < 16; ++i) {
        const sc_shape *s = &g_m.obj[i];
        char name[32];
        snprintf(name, sizeof name, "object %d (type %d)", i, s->type);
        dump_floats(name, (const float *)(const void *)&s->u, floats_of(s->type));
    }
}

/* ------------------------------------------------------------- checking */

static int same_float(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

static sc_status check_elements(int kind, const float *data, int n, int *bad)
{
    *bad = -1;
    for (int i = 0; i < n; ++i) {
        sc_shape s = shape_of(kind, data + (size_t)i * (size_t)floats_of(kind));
        sc_status st = sc_shape_check(&s);
        if (st != SC_OK) {
            *bad = i;
            return st;
        }
    }
    return SC_OK;
}

/* n objects of a kind into data; each is made valid when valid is set, or by its own coin. */
static void take_objects(fuzz_bytes *b, int kind, int mode, int valid, int n, float *data)
{
    int fl = floats_of(kind);
    for (int i = 0; i < n; ++i) {
        int v = fb_u8(b) & 1u;
        take_object(b, kind, mode, valid || v, data + i * fl);
    }
}

static void check_count(void)
{
    FUZZ_CHECK(sc_world_count(g_m.w) == (g_m.w ? g_m.count : 0));
    FUZZ_CHECK(sc_world_is_committed(g_m.w) == (g_m.w && !g_m.stale));
}

/* After a query: its status was want (SC_ERR_STALE in place of SC_OK when the model is stale),
 * the scratch names the refused element (bad), the world is untouched (its own error index and
 * committed state). Returns 1 when the query found the world stale: then the world has been
 * committed and the caller asks again. */
static int after_query(sc_status s, sc_status want, int bad, int uses_scratch)
{
    if (want == SC_OK && g_m.stale) want = SC_ERR_STALE;
    g_status = s;
    FUZZ_CHECK(s == want);
    if (uses_scratch) FUZZ_CHECK(sc_scratch_error_index(g_scratch) == bad);
    if (g_m.w) FUZZ_CHECK(sc_world_error_index(g_m.w) == g_m.world_error);
    check_count();
    if (s != SC_ERR_STALE) return 0;
    FUZZ_CHECK(sc_world_commit(g_m.w) == SC_OK);
    g_m.stale = 0;
    check_count();
    return 1;
}

/* The status an add or update of n objects must return for the checks it shares, in the API's
 * order: no world, the count, a NULL batch, the first invalid element (its index in *bad). */
static sc_status expected_objects_status(int kind, const float *ptr, const float *data, int n, int *bad)
{
    if (!g_m.w) return SC_ERR_NULL;
    if (n < 0 || n > SC_WORLD_MAX_OBJECTS) return SC_ERR_COUNT;
    if (n > 0 && !ptr) return SC_ERR_NULL;
    return check_elements(kind, data, n, bad);
}

static void op_add(fuzz_bytes *b, int kind)
{
    int hostile, n = take_count(b, MAX_BATCH, &hostile);
    uint8_t flags = fb_u8(b);
    if (kind == SC_SHAPE_SPHERE && (flags & 48u) == 16u) kind = SC_SHAPE_CAPSULE;
    int mode = flags & 3u, valid = (flags & 4u) != 0;
    if (!hostile && g_m.count + n > MAX_OBJECTS) n = MAX_OBJECTS - g_m.count;
    static float data[MAX_BATCH * SC_OBB_FLOATS];
    int fl = floats_of(kind);
    if (!hostile) take_objects(b, kind, mode, valid, n, data);
    const float *ptr = hostile || (flags & 8u && n == 0) ? NULL : data;
    int first = -12345;
    sc_status s = kind == SC_SHAPE_AABB      ? sc_world_add_aabbs(g_m.w, ptr, n, &first)
                  : kind == SC_SHAPE_OBB     ? sc_world_add_obbs(g_m.w, ptr, n, &first)
                  : kind == SC_SHAPE_CAPSULE ? sc_world_add_capsules(g_m.w, ptr, n, &first)
                                             : sc_world_add_spheres(g_m.w, ptr, n, &first);
    int bad = -1;
    sc_status want = expected_objects_status(kind, ptr, data, n, &bad);
    if (want == SC_OK && n > SC_WORLD_MAX_OBJECTS - g_m.count) want = SC_ERR_COUNT;
    g_status = s;
    FUZZ_CHECK(s == want);
    if (g_m.w) FUZZ_CHECK(sc_world_error_index(g_m.w) == bad);
    g_m.world_error = bad;
    if (s == SC_OK && n > 0) g_m.stale = 1;
    if (s == SC_OK && n == 1 && g_m.nfree > 0) {
        int o = g_m.free_slots[--g_m.nfree]; /* the last freed slot */
        FUZZ_CHECK(first == o);
        g_m.obj[o] = shape_of(kind, data);
        g_m.removed[o] = g_m.disabled[o] = 0;
        g_m.mask[o] = 0xFFFFFFFFu;
    } else if (s == SC_OK) {
        FUZZ_CHECK(first == g_m.count);
        for (int i = 0; i < n; ++i) {
            int o = g_m.count + i;
            g_m.obj[o] = shape_of(kind, data + i * fl);
            g_m.removed[o] = g_m.disabled[o] = 0;
            g_m.mask[o] = 0xFFFFFFFFu;
        }
        g_m.count += n;
    } else {
        FUZZ_CHECK(first == -12345);
    }
    check_count();
}

static void op_update(fuzz_bytes *b, int kind)
{
    int first = take_first(b, g_m.count);
    int hostile, n = take_count(b, MAX_BATCH, &hostile);
    uint8_t flags = fb_u8(b);
    if (kind == SC_SHAPE_SPHERE && (flags & 48u) == 16u) kind = SC_SHAPE_CAPSULE;
    int mode = flags & 3u, valid = (flags & 4u) != 0;
    static float data[MAX_BATCH * SC_OBB_FLOATS];
    int fl = floats_of(kind);
    if (!hostile) take_objects(b, kind, mode, valid, n, data);
    const float *ptr = hostile ? NULL : data;
    sc_status s = kind == SC_SHAPE_AABB      ? sc_world_update_aabbs(g_m.w, first, ptr, n)
                  : kind == SC_SHAPE_OBB     ? sc_world_update_obbs(g_m.w, first, ptr, n)
                  : kind == SC_SHAPE_CAPSULE ? sc_world_update_capsules(g_m.w, first, ptr, n)
                                             : sc_world_update_spheres(g_m.w, first, ptr, n);
    int bad = -1;
    sc_status want = expected_objects_status(kind, ptr, data, n, &bad);
    if (want == SC_OK && (first < 0 || first > g_m.count || n > g_m.count - first)) want = SC_ERR_RANGE;
    if (want == SC_OK)
        for (int i = 0; i < n; ++i)
            if (g_m.removed[first + i] || (int)g_m.obj[first + i].type != kind) {
                want = g_m.removed[first + i] ? SC_ERR_REMOVED : SC_ERR_KIND;
                bad = i;
                break;
            }
    g_status = s;
    FUZZ_CHECK(s == want);
    if (g_m.w) FUZZ_CHECK(sc_world_error_index(g_m.w) == bad);
    g_m.world_error = bad;
    if (s == SC_OK && n > 0) g_m.stale = 1;
    if (s == SC_OK)
        for (int i = 0; i < n; ++i) g_m.obj[first + i] = shape_of(kind, data + i * fl);
    check_count();
}

/* Whether the float d is exactly b - a: the double difference and its rounding error (two-sum)
 * show the exact value, which the double alone may not hold. */
static int exact_difference(float d, float b, float a)
{
    double x = b, y = -(double)a, s = x + y, bb = s - x, err = (x - (s - bb)) + (y - bb);
    return err == 0.0 && (double)d == s;
}

/* The single queries over the model's allowed objects: nearest t, ties to the lowest index.
 * *exit: the winner is an exit hit (its normal is the exit face's, not the single query's). */
static void brute_ray(const sc_ray *ray, float *t, int *index, sc_vec3 *normal, int *exit)
{
    *t = 0.0f;
    *index = -1;
    *normal = (sc_vec3){0, 0, 0};
    *exit = 0;
    for (int i = 0; i < g_m.count; ++i) {
        if (!allowed(i)) continue;
        sc_raycast_result h = sc_raycast(ray, &g_m.obj[i]);
        FUZZ_CHECK(h.status == SC_OK);
        float ht;
        int ex;
        if (!counted(&h, ray->tmax, &ht, &ex)) continue;
        if (*index < 0 || ht < *t) {
            *t = ht;
            *index = i;
            *normal = h.normal;
            *exit = ex;
        }
    }
}

/* The world's answer (index w, t_w; w = -1: no hit) differs from the single queries': never
 * allowed. The single queries are exact at any distance (docs/semantics.md, "Extreme inputs"),
 * so the world, which culls conservatively and tests leaves with the single queries, must give
 * their answer. Prints the object the single queries put ahead, then fails. */
static void check_discrepancy(const sc_ray *ray, int w, float t_w)
{
    for (int j = 0; j < g_m.count; ++j) {
        if (!allowed(j)) continue;
        sc_raycast_result h = sc_raycast(ray, &g_m.obj[j]);
        float ht;
        int ex;
        if (!counted(&h, ray->tmax, &ht, &ex)) continue;
        int ahead = w < 0 || ht < t_w || (ht == t_w && j < w);
        if (ahead)
            fprintf(stderr, "object %d (type %d): the single query hits at t %.9g, ahead of the world's (%d, %.9g)\n", j,
                    g_m.obj[j].type, ht, w, t_w);
    }
    FUZZ_CHECK(0);
}

/* A hit reported by the world for object k: the single query on k gives the same t (under the
 * inside rule). */
static void check_single(const sc_ray *ray, int k, float t)
{
    sc_raycast_result h = sc_raycast(ray, &g_m.obj[k]);
    float ht;
    int ex;
    FUZZ_CHECK(h.status == SC_OK && counted(&h, ray->tmax, &ht, &ex) && same_float(t, ht + 0.0f));
}

static void check_hit(float t, int index, const float *n, float tmax)
{
    sc_vec3 nv = {n[0], n[1], n[2]};
    FUZZ_CHECK(index >= -1 && index < g_m.count);
    if (index < 0) {
        FUZZ_CHECK(same_float(t, 0.0f) && nv.x == 0.0f && nv.y == 0.0f && nv.z == 0.0f);
        return;
    }
    FUZZ_CHECK(isfinite(t) && t >= 0.0f && t <= tmax);
    FUZZ_CHECK(!(t == 0.0f && signbit(t)));
    FUZZ_CHECK(fuzz_unit_or_zero(nv));
}

/* The status a ray batch call must return: no world, a negative count, NULL rays, the first
 * invalid ray (its index in *bad), then NULL outputs, in the order the API checks them. */
static sc_status expected_batch_status(const float *rays, int n, int null_rays, int null_out, int *bad)
{
    if (!g_m.w) return SC_ERR_NULL;
    if (n < 0) return SC_ERR_COUNT;
    if (n > 0 && null_rays) return SC_ERR_NULL;
    for (int i = 0; i < n; ++i) {
        const float *p = rays + i * SC_RAY_FLOATS;
        sc_ray r = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, p[6]};
        sc_status rs = sc_ray_check(&r);
        if (rs != SC_OK) { *bad = i; return rs; }
    }
    return n > 0 && null_out ? SC_ERR_NULL : SC_OK;
}

static void op_cast(fuzz_bytes *b, int big)
{
    int hostile, n = take_count(b, MAX_RAYS, &hostile);
    uint8_t flags = fb_u8(b);
    int mode = flags & 3u;
    static float rays[MAX_BIG_RAYS * SC_RAY_FLOATS], t[MAX_BIG_RAYS], t2[MAX_BIG_RAYS], t3[MAX_BIG_RAYS];
    static float nrm[MAX_BIG_RAYS * 3], nrm2[MAX_BIG_RAYS * 3];
    static int idx[MAX_BIG_RAYS], idx2[MAX_BIG_RAYS], idx3[MAX_BIG_RAYS];
    static bool any[MAX_BIG_RAYS];
    if (!hostile) {
        for (int i = 0; i < n; ++i) take_ray(b, mode, rays + i * SC_RAY_FLOATS);
        if (big && n > 0) {
            /* a large batch (reordered by the world): the rays again, nudged */
            int m = 512 + (fb_u8(b) & 1u) * 512;
            for (int i = n; i < m; ++i) {
                const float *src = rays + (i % n) * SC_RAY_FLOATS;
                float *dst = rays + i * SC_RAY_FLOATS;
                memcpy(dst, src, SC_RAY_FLOATS * sizeof(float));
                dst[i % 3] += (float)(i / n) * 0.25f;
            }
            n = m;
        }
    }
    int null_what = (flags >> 2) & 3u; /* 1: t NULL, 2: index NULL, 3: rays NULL */
    /* bit 4: a filter (mask from bits 5-6, an exclusion per ray; bit 7: an inside rule other than
     * solid, skip or exit by one more byte) */
    static int32_t excl[MAX_BIG_RAYS];
    static const uint32_t masks[4] = {0xFFFFFFFFu, 1u, 2u, 5u};
    sc_query_filter filter = {masks[(flags >> 5) & 3u], excl, SC_INSIDE_SOLID};
    const sc_query_filter *fp = (flags & 16u) && !hostile ? &filter : NULL;
    if (fp && (flags & 128u)) filter.inside = fb_u8(b) & 1u ? SC_INSIDE_EXIT : SC_INSIDE_SKIP;
    if (fp)
        for (int i = 0; i < n; ++i) excl[i] = (int32_t)(fb_u8(b) % (unsigned)(g_m.count + 1)) - 1;
    g_fmask = fp ? fp->mask : 0xFFFFFFFFu;
    g_fexclude = fp ? excl : NULL;
    g_finside = fp ? (int)fp->inside : SC_INSIDE_SOLID;
    const float *rp = hostile || null_what == 3 ? NULL : rays;
    float *tp = null_what == 1 ? NULL : t;
    int *ip = null_what == 2 ? NULL : idx;
    /* expected: count, NULL rays, each ray, NULL outputs, then a stale world */
    int bad = -1;
    sc_status want = expected_batch_status(rays, n, !rp, !tp || !ip, &bad);
    sc_status s;
    do s = sc_world_cast_rays(g_m.w, rp, n, tp, ip, nrm, fp, g_scratch);
    while (after_query(s, want, bad, 1));
    if (s != SC_OK || n == 0) return;
    for (int i = 0; i < n; ++i) g_hits += idx[i] >= 0;

    FUZZ_CHECK(sc_world_cast_rays_bruteforce(g_m.w, rays, n, t2, idx2, nrm2, fp, g_scratch) == SC_OK);
    FUZZ_CHECK(sc_world_cast_rays(g_m.w, rays, n, t3, idx3, NULL, fp, NULL) == SC_OK); /* input order */
    FUZZ_CHECK(sc_world_any_hit(g_m.w, rays, n, any, fp, g_scratch) == SC_OK);
    for (int i = 0; i < n; ++i) {
        const float *p = rays + i * SC_RAY_FLOATS;
        g_fray = i;
        g_query = p;
        g_query_floats = 7;
        if (idx[i] != idx2[i] || !same_float(t[i], t2[i]))
            fprintf(stderr, "ray %d: world index %d t %.9g, brute force index %d t %.9g\n", i, idx[i], t[i], idx2[i], t2[i]);
        check_hit(t[i], idx[i], nrm + 3 * i, p[6]);
        FUZZ_CHECK(idx[i] == idx2[i] && same_float(t[i], t2[i]));
        FUZZ_CHECK(memcmp(nrm + 3 * i, nrm2 + 3 * i, 3 * sizeof(float)) == 0);
        FUZZ_CHECK(idx[i] == idx3[i] && same_float(t[i], t3[i]));
        FUZZ_CHECK(any[i] == (idx[i] >= 0));
        if (i < MAX_RAYS) {
            sc_ray r = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, p[6]};
            float bt;
            int bi;
            sc_vec3 bn;
            int bexit;
            brute_ray(&r, &bt, &bi, &bn, &bexit);
            if (idx[i] >= 0) check_single(&r, idx[i], t[i]);
            if (idx[i] == bi && (bi < 0 || same_float(t[i], bt + 0.0f))) {
                /* an exit hit's normal is the exit face's (unit: check_hit; the same in the BVH and
                 * brute-force paths: compared above) */
                if (bi >= 0 && !bexit) FUZZ_CHECK(nrm[3 * i] == bn.x && nrm[3 * i + 1] == bn.y && nrm[3 * i + 2] == bn.z);
                if (bi >= 0 && bexit) FUZZ_CHECK(!(nrm[3 * i] == 0.0f && nrm[3 * i + 1] == 0.0f && nrm[3 * i + 2] == 0.0f));
            } else {
                check_discrepancy(&r, idx[i], t[i]);
            }
        }
    }
}

/* sc_world_cast_ray_all: the status in the API's order (world, ray / total, cap, outputs, the
 * ray); every hit is the single query's (t bit for bit, normal), listed once, sorted by t then
 * index; the first is sc_world_cast_rays' nearest hit; no single-query hit is missing; a smaller
 * cap gives a prefix of the list. */
static void op_cast_all(fuzz_bytes *b)
{
    uint8_t flags = fb_u8(b);
    float p[SC_RAY_FLOATS];
    take_ray(b, flags & 3u, p);
    sc_ray r = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, p[6]};
    int cap;
    switch ((flags >> 2) & 3u) {
    case 0: cap = MAX_OBJECTS; break;
    case 1: cap = fb_u8(b) % 4; break;
    case 2: cap = (fb_u8(b) & 1u) ? INT_MIN : -1 - (int)fb_u8(b); break;
    default: cap = 0; break;
    }
    int null_what = (flags >> 4) & 3u; /* 1: ray NULL, 2: total NULL, 3: t and index NULL */
    static float t[MAX_OBJECTS], t2[MAX_OBJECTS], nrm[3 * MAX_OBJECTS], nrm2[3 * MAX_OBJECTS];
    static int idx[MAX_OBJECTS], idx2[MAX_OBJECTS], seen[MAX_OBJECTS];
    int total = -7;
    sc_status want = !g_m.w                                ? SC_ERR_NULL
                     : null_what == 1 || null_what == 2    ? SC_ERR_NULL
                     : cap < 0                             ? SC_ERR_COUNT
                     : cap > 0 && null_what == 3           ? SC_ERR_NULL
                                                           : sc_ray_check(&r);
    sc_status s;
    for (;;) {
        s = sc_world_cast_ray_all(g_m.w, null_what == 1 ? NULL : RAY7(r), cap, null_what == 3 ? NULL : t,
                                  null_what == 3 ? NULL : idx, nrm, null_what == 2 ? NULL : &total, NULL);
        if (null_what != 2) FUZZ_CHECK(s == SC_OK ? total >= 0 && total <= g_m.count : total == 0);
        if (!after_query(s, want, -1, 0)) break;
    }
    if (s != SC_OK) return;
    g_query = p;
    g_query_floats = 7;
    g_hits = total;
    int m = total < cap ? total : cap;
    memset(seen, 0, sizeof seen);
    for (int k = 0; k < m; ++k) {
        check_hit(t[k], idx[k], nrm + 3 * k, p[6]);
        FUZZ_CHECK(idx[k] >= 0 && !seen[idx[k]]);
        seen[idx[k]] = 1;
        if (k > 0) FUZZ_CHECK(t[k - 1] < t[k] || (same_float(t[k - 1], t[k]) && idx[k - 1] < idx[k]));
        sc_raycast_result h = sc_raycast(&r, &g_m.obj[idx[k]]);
        FUZZ_CHECK(h.status == SC_OK && h.hit && same_float(t[k], h.t + 0.0f));
        FUZZ_CHECK(nrm[3 * k] == h.normal.x && nrm[3 * k + 1] == h.normal.y && nrm[3 * k + 2] == h.normal.z);
    }
    if (m < total) {
        /* All of them, then a prefix with a smaller cap. */
        int total2 = -7;
        FUZZ_CHECK(sc_world_cast_ray_all(g_m.w, RAY7(r), total, t2, idx2, nrm2, &total2, NULL) == SC_OK && total2 == total);
        for (int k = 0; k < m; ++k) FUZZ_CHECK(idx2[k] == idx[k] && same_float(t2[k], t[k]));
        memcpy(t, t2, sizeof(float) * (size_t)total);
        memcpy(idx, idx2, sizeof(int) * (size_t)total);
        m = total;
        memset(seen, 0, sizeof seen);
        for (int k = 0; k < m; ++k) seen[idx[k]] = 1;
    }
    /* The first is the nearest hit. */
    float tn, nn[3];
    int in;
    FUZZ_CHECK(sc_world_cast_rays(g_m.w, p, 1, &tn, &in, nn, NULL, g_scratch) == SC_OK);
    FUZZ_CHECK(total == 0 ? in == -1 : in == idx[0] && same_float(tn, t[0]));
    if (cap < MAX_OBJECTS && total > 0) {
        int total3 = -7, c3 = total / 2;
        FUZZ_CHECK(sc_world_cast_ray_all(g_m.w, RAY7(r), c3, t2, idx2, NULL, &total3, NULL) == SC_OK && total3 == total);
        for (int k = 0; k < c3; ++k) FUZZ_CHECK(idx2[k] == idx[k] && same_float(t2[k], t[k]));
    }
    /* A single-query hit the list lacks: never. */
    for (int j = 0; j < g_m.count; ++j) {
        if (seen[j] || !allowed(j)) continue;
        sc_raycast_result h = sc_raycast(&r, &g_m.obj[j]);
        FUZZ_CHECK(!h.hit);
    }
}

/* Refit, commit, remove, enable / disable, or set a mask (the low bits of a byte choose). A
 * remove, enable or mask change takes effect at once: the world stays as committed as it was. */
static void op_change(fuzz_bytes *b)
{
    uint8_t what = fb_u8(b);
    int idx = (int)(fb_u8(b) % (unsigned)(g_m.count + 2)) - 1; /* -1 .. count: out of range at both ends */
    uint8_t v = fb_u8(b);
    sc_status s, want;
    switch (what & 3u) {
    case 0:
    case 1:
        s = (what & 1u) ? sc_world_commit(g_m.w) : sc_world_refit(g_m.w);
        FUZZ_CHECK(s == (g_m.w ? SC_OK : SC_ERR_NULL));
        g_m.stale = 0;
        break;
    case 2:
        s = sc_world_remove(g_m.w, idx);
        want = !g_m.w ? SC_ERR_NULL : idx < 0 || idx >= g_m.count ? SC_ERR_RANGE : g_m.removed[idx] ? SC_ERR_REMOVED : SC_OK;
        FUZZ_CHECK(s == want);
        if (s == SC_OK) {
            g_m.removed[idx] = 1;
            g_m.free_slots[g_m.nfree++] = idx;
        }
        if (g_m.w) g_m.world_error = -1;
        break;
    default: {
        int n = idx >= 0 && idx < g_m.count && (v & 4u) && idx + 1 < g_m.count ? 2 : 1;
        int bad = -1;
        want = !g_m.w ? SC_ERR_NULL : idx < 0 || idx + n > g_m.count ? SC_ERR_RANGE : SC_OK;
        for (int i = 0; want == SC_OK && i < n; ++i)
            if (g_m.removed[idx + i]) { want = SC_ERR_REMOVED; bad = i; }
        if (v & 1u) {
            bool flags[2] = {(v & 2u) != 0, (v & 8u) != 0};
            s = sc_world_set_enabled(g_m.w, idx, flags, n);
            FUZZ_CHECK(s == want);
            for (int i = 0; s == SC_OK && i < n; ++i) g_m.disabled[idx + i] = !flags[i];
        } else {
            uint32_t m[2] = {(uint32_t)(v >> 4) & 7u, (uint32_t)(v >> 1) & 7u};
            s = sc_world_set_masks(g_m.w, idx, m, n);
            FUZZ_CHECK(s == want);
            for (int i = 0; s == SC_OK && i < n; ++i) g_m.mask[idx + i] = m[i];
        }
        if (g_m.w) FUZZ_CHECK(sc_world_error_index(g_m.w) == bad);
        g_m.world_error = bad;
        break;
    }
    }
    g_status = s;
    check_count();
    for (int o = 0; g_m.w && o < g_m.count; ++o)
        FUZZ_CHECK(sc_world_kind(g_m.w, o) == (g_m.removed[o] ? 0 : (int32_t)g_m.obj[o].type));
}

/* Capsule sweeps and overlaps built from n valid rays (no more bytes read): a capsule from the
 * origin to origin + dir / 2 (rounded; a ball when that overflows) moving along dir, radius |t| of
 * the ray index; the BVH gives the brute force's bits, a hit lies in [0, tmax] with a unit or zero
 * normal; a capsule overlap lists the brute force's objects, every one allowed. */
static void check_capsule_queries(const float *rays, int n)
{
    static float sw[MAX_RAYS * SC_CAPSULE_SWEEP_FLOATS], t[2][MAX_RAYS], nrm[2][MAX_RAYS * 3], pt[2][MAX_RAYS * 3];
    static int idx[2][MAX_RAYS];
    int m = 0;
    for (int i = 0; i < n; ++i) {
        const float *p = rays + i * SC_RAY_FLOATS;
        float *s = sw + m * SC_CAPSULE_SWEEP_FLOATS;
        for (int k = 0; k < 3; ++k) {
            s[k] = p[k];
            s[3 + k] = p[k] + p[3 + k] * 0.5f;
            s[6 + k] = p[3 + k];
        }
        if (!isfinite(s[3]) || !isfinite(s[4]) || !isfinite(s[5])) for (int k = 0; k < 3; ++k) s[3 + k] = p[k];
        s[9] = p[6];
        s[10] = (float)(i % 4) * 0.25f;
        sc_capsule c = {{s[0], s[1], s[2]}, {s[3], s[4], s[5]}, s[10]};
        sc_ray r = {c.a, {s[6], s[7], s[8]}, s[9]};
        if (sc_capsule_check(&c) == SC_OK && sc_ray_check(&r) == SC_OK) ++m;
    }
    FUZZ_CHECK(sc_world_cast_capsules(g_m.w, sw, m, t[0], idx[0], nrm[0], pt[0], NULL, NULL) == SC_OK);
    FUZZ_CHECK(sc_world_cast_capsules_bruteforce(g_m.w, sw, m, t[1], idx[1], nrm[1], pt[1], NULL, NULL) == SC_OK);
    FUZZ_CHECK(memcmp(t[0], t[1], sizeof(float) * (size_t)m) == 0 && memcmp(idx[0], idx[1], sizeof(int) * (size_t)m) == 0);
    FUZZ_CHECK(memcmp(nrm[0], nrm[1], sizeof(float) * 3 * (size_t)m) == 0 && memcmp(pt[0], pt[1], sizeof(float) * 3 * (size_t)m) == 0);
    for (int i = 0; i < m; ++i) {
        if (idx[0][i] < 0) continue;
        FUZZ_CHECK(idx[0][i] < g_m.count && !g_m.removed[idx[0][i]] && !g_m.disabled[idx[0][i]]);
        FUZZ_CHECK(t[0][i] >= 0.0f && t[0][i] <= sw[i * SC_CAPSULE_SWEEP_FLOATS + 9]);
        const float *q = nrm[0] + 3 * i;
        double l = (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2];
        FUZZ_CHECK(l == 0.0 || fabs(l - 1.0) < 1e-5);
    }
    static int32_t out[2][MAX_OBJECTS];
    for (int i = 0; i < m; ++i) {
        const float *s = sw + i * SC_CAPSULE_SWEEP_FLOATS;
        sc_capsule c = {{s[0], s[1], s[2]}, {s[3], s[4], s[5]}, s[10]};
        int32_t tot[2];
        FUZZ_CHECK(sc_world_overlap_capsule(g_m.w, &c, out[0], MAX_OBJECTS, &tot[0], NULL) == SC_OK);
        FUZZ_CHECK(sc__overlap_checked(g_m.w, SC_SHAPE_CAPSULE, &c, out[1], MAX_OBJECTS, &tot[1], NULL, 1) == SC_OK);
        FUZZ_CHECK(tot[0] == tot[1] && memcmp(out[0], out[1], sizeof(int32_t) * (size_t)tot[0]) == 0);
        for (int k = 0; k < tot[0]; ++k) FUZZ_CHECK(!g_m.removed[out[0][k]] && !g_m.disabled[out[0][k]]);
    }
}

static void op_any_hit(fuzz_bytes *b)
{
    int hostile, n = take_count(b, MAX_RAYS, &hostile);
    uint8_t flags = fb_u8(b);
    static float rays[MAX_RAYS * SC_RAY_FLOATS];
    static bool hit[MAX_RAYS];
    if (!hostile)
        for (int i = 0; i < n; ++i) take_ray(b, flags & 3u, rays + i * SC_RAY_FLOATS);
    int null_hit = (flags & 4u) != 0;
    int bad = -1;
    sc_status want = expected_batch_status(rays, n, hostile, null_hit, &bad);
    sc_status s;
    do s = sc_world_any_hit(g_m.w, hostile ? NULL : rays, n, null_hit ? NULL : hit, NULL, g_scratch);
    while (after_query(s, want, bad, 1));
    if (s != SC_OK) return;
    for (int i = 0; i < n; ++i) {
        g_hits += hit[i];
        const float *p = rays + i * SC_RAY_FLOATS;
        sc_ray r = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, p[6]};
        float bt;
        int bi;
        sc_vec3 bn;
        int bexit;
        brute_ray(&r, &bt, &bi, &bn, &bexit);
        if (hit[i] != (bi >= 0)) {
            FUZZ_CHECK(!hit[i]); /* a world hit is a single-query hit */
            check_discrepancy(&r, -1, 0.0f);
        }
    }
    check_capsule_queries(rays, n);
}

static void op_segments(fuzz_bytes *b)
{
    int hostile, n = take_count(b, MAX_RAYS, &hostile);
    uint8_t flags = fb_u8(b);
    int mode = flags & 3u;
    static float segs[MAX_RAYS * SC_SEGMENT_FLOATS], t[MAX_RAYS], nrm[MAX_RAYS * 3];
    static int idx[MAX_RAYS];
    if (!hostile) {
        for (int i = 0; i < n; ++i) {
            float *s = segs + i * SC_SEGMENT_FLOATS;
            uint8_t how = fb_u8(b);
            for (int k = 0; k < 6; ++k) s[k] = take_value(b, mode);
            if ((how & 3u) == 1u && g_m.count > 0) {
                sc_vec3 p = near_object(fb_u8(b) % g_m.count, how >> 4);
                s[3] = p.x;
                s[4] = p.y;
                s[5] = p.z;
            } else if ((how & 3u) == 2u) {
                s[3] = s[0]; /* a point */
                s[4] = s[1];
                s[5] = s[2];
            }
        }
    }
    int null_what = (flags >> 2) & 3u;
    sc_status want;
    int bad = -1;
    if (!g_m.w) want = SC_ERR_NULL;
    else if (n < 0) want = SC_ERR_COUNT;
    else if (n > 0 && (hostile || null_what != 0)) want = SC_ERR_NULL;
    else {
        want = SC_OK;
        for (int i = 0; i < n; ++i) {
            const float *p = segs + i * SC_SEGMENT_FLOATS;
            sc_segment sg = {{p[0], p[1], p[2]}, {p[3], p[4], p[5]}};
            sc_status ss = sc_segment_check(&sg);
            if (ss != SC_OK) { want = ss; bad = i; break; }
        }
    }
    sc_status s;
    do s = sc_world_cast_segments(g_m.w, hostile || null_what == 3 ? NULL : segs, n, null_what == 1 ? NULL : t,
                                  null_what == 2 ? NULL : idx, (flags & 16u) ? NULL : nrm, NULL, g_scratch);
    while (after_query(s, want, bad, 1));
    if (s != SC_OK) return;
    for (int i = 0; i < n; ++i) {
        g_hits += idx[i] >= 0;
        const float *p = segs + i * SC_SEGMENT_FLOATS;
        g_query = p;
        g_query_floats = 6;
        sc_vec3 a = {p[0], p[1], p[2]}, bb = {p[3], p[4], p[5]};
        float zero[3] = {0, 0, 0};
        check_hit(t[i], idx[i], (flags & 16u) ? zero : nrm + 3 * i, 1.0f);
        sc_vec3 d = {bb.x - a.x, bb.y - a.y, bb.z - a.z};
        int want_i = -1;
        float want_t = 0.0f;
        if (d.x == 0.0f && d.y == 0.0f && d.z == 0.0f) {
            for (int o = 0; o < g_m.count && want_i < 0; ++o) {
                if (!allowed(o)) continue;
                sc_test_result c = sc_contains(a, &g_m.obj[o]);
                FUZZ_CHECK(c.status == SC_OK);
                if (c.value) want_i = o;
            }
        } else {
            sc_ray r = {a, d, 1.0f};
            int halved = !fuzz_finite3(d);
            if (halved) {
                r.dir = (sc_vec3){bb.x * 0.5f - a.x * 0.5f, bb.y * 0.5f - a.y * 0.5f, bb.z * 0.5f - a.z * 0.5f};
                r.tmax = 2.0f;
            }
            sc_vec3 bn;
            int bexit;
            brute_ray(&r, &want_t, &want_i, &bn, &bexit);
            if (halved) want_t *= 0.5f;
            if (idx[i] >= 0 && !halved) check_single(&r, idx[i], t[i]);
            if (!halved && (idx[i] != want_i || (want_i >= 0 && !same_float(t[i], want_t + 0.0f)))) {
                check_discrepancy(&r, idx[i], t[i]);
                want_i = idx[i]; /* accepted */
                want_t = t[i];
            }
        }
        if (idx[i] != want_i || (want_i >= 0 && !same_float(t[i], want_t + 0.0f)))
            fprintf(stderr, "segment %d: world index %d t %.9g, single queries index %d t %.9g\n", i, idx[i], t[i],
                    want_i, want_t);
        FUZZ_CHECK(idx[i] == want_i);
        if (want_i >= 0) FUZZ_CHECK(same_float(t[i], want_t + 0.0f));
        /* the object hit is one the segment meets (sc_linetest). The world casts the ray
         * a + t*(b - a) with b - a rounded to float (docs/semantics.md, "World queries"), while
         * linetest tests the exact segment for OBBs and spheres: they are the same line when
         * b - a needs no rounding and no rescaling (coordinates below 2^126, b - a finite). */
        sc_segment sg = {a, bb};
        float big = 8.5070592e37f; /* 2^126 */
        int exact_d = exact_difference(d.x, bb.x, a.x) && exact_difference(d.y, bb.y, a.y) &&
                      exact_difference(d.z, bb.z, a.z);
        int plain = fabsf(a.x) < big && fabsf(a.y) < big && fabsf(a.z) < big && fabsf(bb.x) < big &&
                    fabsf(bb.y) < big && fabsf(bb.z) < big && fuzz_finite3(d) && exact_d;
        if (idx[i] >= 0 && plain) {
            sc_test_result l = sc_linetest(&sg, &g_m.obj[idx[i]]);
            FUZZ_CHECK(l.status == SC_OK && l.value);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_dump = dump;
    fuzz_bytes b = {data, size, 0};
    if (!g_scratch) {
        g_scratch = sc_scratch_create();
        FUZZ_CHECK(g_scratch != NULL && sc_scratch_reserve(g_scratch, MAX_BIG_RAYS) == SC_OK);
        FUZZ_CHECK(sc_scratch_capacity(g_scratch) >= MAX_BIG_RAYS);
    }
    memset(&g_m, 0, sizeof g_m);
    g_m.world_error = -1;
    g_query = NULL;
    g_m.w = sc_world_create();
    FUZZ_CHECK(g_m.w != NULL);
    static int trace = -1;
    if (trace < 0) trace = getenv("FUZZ_WORLD_TRACE") != NULL;
    for (g_op = 0; !fb_done(&b) && g_op < 64; ++g_op) {
        g_opcode = fb_u8(&b) % 16u;
        g_fmask = 0xFFFFFFFFu; /* the default filter unless op_cast picks one */
        g_fexclude = NULL;
        g_fray = 0;
        g_finside = SC_INSIDE_SOLID;
        g_status = SC_OK;
        g_hits = 0;
        switch (g_opcode) {
        case 0: /* create (a new world replaces the old one) */
            sc_world_destroy(g_m.w);
            memset(&g_m, 0, sizeof g_m);
            g_m.world_error = -1;
            g_m.w = sc_world_create();
            FUZZ_CHECK(g_m.w != NULL && sc_world_count(g_m.w) == 0 && sc_world_error_index(g_m.w) == -1);
            break;
        case 1: case 2: op_add(&b, SC_SHAPE_AABB); break;
        case 3: op_add(&b, SC_SHAPE_OBB); break;
        case 4: op_add(&b, SC_SHAPE_SPHERE); break; /* capsules: flags & 48 == 16 */
        case 5: op_update(&b, SC_SHAPE_AABB); break;
        case 6: op_update(&b, SC_SHAPE_OBB); break;
        case 7: op_update(&b, SC_SHAPE_SPHERE); break; /* capsules: flags & 48 == 16 */
        case 8: op_change(&b); break;
        case 9: FUZZ_CHECK(sc_world_build(g_m.w) == (g_m.w ? SC_OK : SC_ERR_NULL)); g_m.stale = 0; check_count(); break;
        case 10: op_cast(&b, 0); break;
        case 11: op_cast_all(&b); break;
        case 12: op_cast(&b, fb_u8(&b) & 1u); break;
        case 13: op_any_hit(&b); break;
        case 14: op_segments(&b); break;
        default: /* destroy; later operations see a NULL world until a create */
            sc_world_destroy(g_m.w);
            memset(&g_m, 0, sizeof g_m);
            g_m.world_error = -1;
            FUZZ_CHECK(sc_world_count(NULL) == 0 && sc_world_error_index(NULL) == -1 && sc_world_bytes(NULL) == 0);
            break;
        }
        if (g_m.w) FUZZ_CHECK(sc_world_bytes(g_m.w) > 0);
        if (trace)
            fprintf(stderr, "op %d: opcode %d -> %s (%d hits), %d objects\n", g_op, g_opcode,
                    sc_status_message((sc_status)g_status), g_hits, g_m.count);
    }
    sc_world_destroy(g_m.w);
    g_m.w = NULL;
    FUZZ_CHECK(sc_world_simd() != NULL);
    return 0;
}
