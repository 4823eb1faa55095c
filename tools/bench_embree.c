/* Native peer benchmark: Embree 3 (Debian's libembree-dev) against slabcast's native world on the
 * scene of tools/bench_world.c and web/bench/bench.mjs (tools/bench_scene.h: same seeded boxes
 * and rays). Embree has no box primitive, so the boxes are one user geometry
 * (RTC_GEOMETRY_TYPE_USER): a bounds callback (the box itself) and an intersect callback doing
 * the slab test, closed solids as slabcast (a ray starting inside a box hits it at t = 0). Rays:
 * rtcIntersect1 one at a time, and rtcIntersect1M over the whole batch (Embree 3's stream API);
 * tnear = 0, tfar = +inf; rays/s: the best of three casts of the batch (by the wall clock, and by
 * the thread's CPU time, which a loaded machine does not inflate). Both engines cast on one
 * thread; Embree's BVH build uses its task scheduler (TBB) on every core, slabcast's build one. Every Embree hit is checked against
 * slabcast's: the same hit or miss, |t diff| <= 1e-4 * max(1, t); rays from inside a box
 * (slabcast t = 0) are counted apart (BENCH_EMBREE_MISMATCHES=1: each mismatch on stderr).
 * One JSON object per size, as bench_world:
 *   bench_embree [boxes ...]   (default 1000 10000 100000 1000000)
 */
#include "slabcast.h"

#include <embree3/rtcore.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_scene.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The calling thread's CPU time: unlike the wall clock, it does not count the time another
 * process holds the core, so the casts of both engines compare fairly on a loaded machine. */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Embree 3's accessors for ray packets of runtime size N (struct-of-arrays, rtcore_ray.h) are
 * C++ only; the same layout for C: float k of lane i at [k * N + i]. */
#define RAY_F(ray, N, i, k) (((float *)(ray))[(k) * (N) + (i)])
#define HIT_U(hit, N, i, k) (((unsigned *)(hit))[(k) * (N) + (i)])
enum { ORG_X, ORG_Y, ORG_Z, TNEAR, DIR_X, DIR_Y, DIR_Z, TIME, TFAR }; /* RTCRayN */
enum { NG_X, NG_Y, NG_Z, HIT_U_, HIT_V_, PRIM_ID, GEOM_ID, INST_ID0 };   /* RTCHitN */
#define RAYHIT_HIT_OFFSET 12 /* RTCRayHitN: the RTCHitN part starts at float 12 * N */

static void box_bounds(const struct RTCBoundsFunctionArguments *args)
{
    const float *b = (const float *)args->geometryUserPtr + 6 * (size_t)args->primID;
    struct RTCBounds *o = args->bounds_o;
    o->lower_x = b[0]; o->lower_y = b[1]; o->lower_z = b[2];
    o->upper_x = b[3]; o->upper_y = b[4]; o->upper_z = b[5];
}

/* The slab test: the entry t (clamped to tnear: 0 from inside) when the ray meets the box within
 * [tnear, tfar), else -1. A zero direction component gives an infinite inverse: the slab then
 * either holds the origin (all t) or not (none); (lo - o) * inf is NaN only when o is on the
 * plane, treated as inside that slab. */
static float slab(const float *b, const float o[3], const float d[3], float tnear, float tfar)
{
    float t0 = tnear, t1 = tfar;
    for (int a = 0; a < 3; ++a) {
        float inv = 1.0f / d[a];
        float ta = (b[a] - o[a]) * inv;
        float tb = (b[3 + a] - o[a]) * inv;
        if (ta != ta) ta = -INFINITY;
        if (tb != tb) tb = INFINITY;
        float lo = ta < tb ? ta : tb;
        float hi = ta < tb ? tb : ta;
        if (lo > t0) t0 = lo;
        if (hi < t1) t1 = hi;
        if (t0 > t1) return -1.0f;
    }
    return t0 < tfar ? t0 : -1.0f;
}

static void box_intersect(const struct RTCIntersectFunctionNArguments *args)
{
    const float *b = (const float *)args->geometryUserPtr + 6 * (size_t)args->primID;
    const unsigned N = args->N;
    float *ray = (float *)args->rayhit;
    float *hit = ray + RAYHIT_HIT_OFFSET * N;
    for (unsigned i = 0; i < N; ++i) {
        if (!args->valid[i]) continue;
        float o[3] = {RAY_F(ray, N, i, ORG_X), RAY_F(ray, N, i, ORG_Y), RAY_F(ray, N, i, ORG_Z)};
        float d[3] = {RAY_F(ray, N, i, DIR_X), RAY_F(ray, N, i, DIR_Y), RAY_F(ray, N, i, DIR_Z)};
        float t = slab(b, o, d, RAY_F(ray, N, i, TNEAR), RAY_F(ray, N, i, TFAR));
        if (t < 0.0f) continue;
        RAY_F(ray, N, i, TFAR) = t;
        RAY_F(hit, N, i, NG_X) = 0.0f; /* normals are not compared */
        RAY_F(hit, N, i, NG_Y) = 0.0f;
        RAY_F(hit, N, i, NG_Z) = 0.0f;
        RAY_F(hit, N, i, HIT_U_) = 0.0f;
        RAY_F(hit, N, i, HIT_V_) = 0.0f;
        HIT_U(hit, N, i, PRIM_ID) = args->primID;
        HIT_U(hit, N, i, GEOM_ID) = args->geomID;
        HIT_U(hit, N, i, INST_ID0) = args->context->instID[0];
    }
}

static void box_occluded(const struct RTCOccludedFunctionNArguments *args)
{
    const float *b = (const float *)args->geometryUserPtr + 6 * (size_t)args->primID;
    const unsigned N = args->N;
    float *ray = (float *)args->ray;
    for (unsigned i = 0; i < N; ++i) {
        if (!args->valid[i]) continue;
        float o[3] = {RAY_F(ray, N, i, ORG_X), RAY_F(ray, N, i, ORG_Y), RAY_F(ray, N, i, ORG_Z)};
        float d[3] = {RAY_F(ray, N, i, DIR_X), RAY_F(ray, N, i, DIR_Y), RAY_F(ray, N, i, DIR_Z)};
        if (slab(b, o, d, RAY_F(ray, N, i, TNEAR), RAY_F(ray, N, i, TFAR)) >= 0.0f) RAY_F(ray, N, i, TFAR) = -INFINITY;
    }
}

static void set_ray(struct RTCRayHit *rh, const float *r)
{
    memset(rh, 0, sizeof *rh);
    rh->ray.org_x = r[0]; rh->ray.org_y = r[1]; rh->ray.org_z = r[2];
    rh->ray.dir_x = r[3]; rh->ray.dir_y = r[4]; rh->ray.dir_z = r[5];
    rh->ray.tnear = 0.0f;
    rh->ray.tfar = r[6];
    rh->ray.mask = 0xffffffffu;
    rh->hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rh->hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
}

int main(int argc, char **argv)
{
    int sizes[8] = {1000, 10000, 100000, 1000000}, nsizes = 4;
    if (argc > 1) {
        nsizes = 0;
        for (int i = 1; i < argc && nsizes < 8; ++i) sizes[nsizes++] = atoi(argv[i]);
    }
    const int nrays = SC_BENCH_RAYS;
    const int verbose = getenv("BENCH_EMBREE_MISMATCHES") != NULL; /* each mismatch on stderr */
    RTCDevice device = rtcNewDevice(NULL);
    if (!device) {
        fprintf(stderr, "bench_embree: rtcNewDevice failed (error %d)\n", (int)rtcGetDeviceError(NULL));
        return 1;
    }
    for (int si = 0; si < nsizes; ++si) {
        int n = sizes[si];
        float *boxes = malloc(sizeof(float) * 6 * (size_t)n);
        float *rays = malloc(sizeof(float) * 7 * (size_t)nrays);
        float *t = malloc(sizeof(float) * (size_t)nrays);
        float *nrm = malloc(sizeof(float) * 3 * (size_t)nrays);
        int *idx = malloc(sizeof(int) * (size_t)nrays);
        struct RTCRayHit *rh = malloc(sizeof(struct RTCRayHit) * (size_t)nrays);
        float *et = malloc(sizeof(float) * (size_t)nrays);
        sc_bench_scene(n, boxes, nrays, rays);

        /* slabcast native: build, then the best of three casts of the batch (so for Embree) */
        double t0 = now_ms();
        sc_world *w = sc_world_create();
        sc_world_add_aabbs(w, boxes, n, NULL);
        sc_world_build(w);
        double sc_build = now_ms() - t0;
        sc_scratch *scratch = sc_scratch_create();
        sc_scratch_reserve(scratch, nrays);
        double sc_cast = INFINITY, sc_cpu = INFINITY;
        for (int k = 0; k < 3; ++k) {
            t0 = now_ms();
            double c0 = cpu_ms();
            sc_world_cast_rays(w, rays, nrays, t, idx, nrm, NULL, scratch);
            double ms = now_ms() - t0, cms = cpu_ms() - c0;
            if (ms < sc_cast) sc_cast = ms;
            if (cms < sc_cpu) sc_cpu = cms;
        }

        /* Embree: one user geometry of n boxes */
        t0 = now_ms();
        RTCScene scene = rtcNewScene(device);
        RTCGeometry geom = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_USER);
        rtcSetGeometryUserPrimitiveCount(geom, (unsigned)n);
        rtcSetGeometryUserData(geom, boxes);
        rtcSetGeometryBoundsFunction(geom, box_bounds, NULL);
        rtcSetGeometryIntersectFunction(geom, box_intersect);
        rtcSetGeometryOccludedFunction(geom, box_occluded);
        rtcCommitGeometry(geom);
        rtcAttachGeometry(scene, geom);
        rtcReleaseGeometry(geom);
        rtcCommitScene(scene);
        double em_build = now_ms() - t0;

        struct RTCIntersectContext ctx;
        double em_cast = INFINITY, em_stream = INFINITY, em_cpu = INFINITY;
        for (int k = 0; k < 3; ++k) {
            t0 = now_ms();
            double c0 = cpu_ms();
            for (int i = 0; i < nrays; ++i) {
                struct RTCRayHit one;
                set_ray(&one, rays + 7 * (size_t)i);
                rtcInitIntersectContext(&ctx);
                rtcIntersect1(scene, &ctx, &one);
                et[i] = one.hit.geomID == RTC_INVALID_GEOMETRY_ID ? INFINITY : one.ray.tfar;
            }
            double ms = now_ms() - t0, cms = cpu_ms() - c0;
            if (ms < em_cast) em_cast = ms;
            if (cms < em_cpu) em_cpu = cms;
        }
        for (int k = 0; k < 3; ++k) {
            t0 = now_ms(); /* filling the RTCRayHit array is part of the call's cost */
            for (int i = 0; i < nrays; ++i) set_ray(rh + i, rays + 7 * (size_t)i);
            rtcInitIntersectContext(&ctx);
            rtcIntersect1M(scene, &ctx, rh, (unsigned)nrays, sizeof(struct RTCRayHit));
            double ms = now_ms() - t0;
            if (ms < em_stream) em_stream = ms;
        }

        int checked = 0, mismatches = 0, inside = 0, hits = 0, stream_diff = 0;
        for (int i = 0; i < nrays; ++i) {
            float es = rh[i].hit.geomID == RTC_INVALID_GEOMETRY_ID ? INFINITY : rh[i].ray.tfar;
            stream_diff += !(es == et[i]);
            int hit = idx[i] >= 0;
            hits += hit;
            if (hit && t[i] == 0.0f) { ++inside; continue; }
            ++checked;
            if (hit != (et[i] != INFINITY) || (hit && !(fabsf(et[i] - t[i]) <= 1e-4f * fmaxf(1.0f, t[i])))) {
                ++mismatches;
                if (verbose) {
                    const float *r = rays + 7 * (size_t)i;
                    fprintf(stderr, "mismatch: %d boxes, ray %d (%.9g %.9g %.9g  %.9g %.9g %.9g): slabcast index %d t %.9g, Embree t %.9g (box %u)\n",
                            n, i, r[0], r[1], r[2], r[3], r[4], r[5], idx[i], t[i], et[i], rh[i].hit.primID);
                }
            }
        }
        int em_error = (int)rtcGetDeviceError(device);

        printf("{\"boxes\": %d, \"rays\": %d, \"embree\": \"%s\", \"simd\": \"%s\", "
               "\"slabcast_build_ms\": %.3f, \"slabcast_rays_per_s\": %.0f, "
               "\"build_ms\": %.3f, \"rays_per_s\": %.0f, \"stream_rays_per_s\": %.0f, "
               "\"hit_fraction\": %.3f, \"checked\": %d, \"mismatches\": %d, \"inside\": %d, "
               "\"stream_differs\": %d, \"embree_error\": %d, "
               "\"slabcast_cpu_rays_per_s\": %.0f, \"cpu_rays_per_s\": %.0f}\n",
               n, nrays, RTC_VERSION_STRING, sc_world_simd(), sc_build, nrays / (sc_cast / 1e3), em_build,
               nrays / (em_cast / 1e3), nrays / (em_stream / 1e3), (double)hits / nrays, checked, mismatches, inside,
               stream_diff, em_error, nrays / (sc_cpu / 1e3), nrays / (em_cpu / 1e3));
        fflush(stdout);
        rtcReleaseScene(scene);
        sc_scratch_destroy(scratch);
        sc_world_destroy(w);
        free(boxes); free(rays); free(t); free(nrm); free(idx); free(rh); free(et);
    }
    rtcReleaseDevice(device);
    return 0;
}
