/* Native peer benchmark: Embree 3 (Debian's libembree-dev) against slabcast's native world on the
 * scene of tools/bench_world.c and web/bench/bench.mjs (tools/bench_scene.h: same seeded boxes
 * and rays). Embree has no box primitive, so the boxes are one user geometry
 * (RTC_GEOMETRY_TYPE_USER): a bounds callback (the box itself) and an intersect callback doing
 * the slab test, closed solids as slabcast (a ray starting inside a box hits it at t = 0).
 *
 * Two Embree devices in the same process: the default one (Embree picks the widest ISA the CPU
 * has: AVX-512 on a CPU with AVX512F, AVX2 on Zen 3) and one made with rtcNewDevice("isa=avx2")
 * (what Embree runs on an AVX2 machine such as the product's target). The ISA each runs is read
 * from Embree's own report (the config string plus "verbose=1": its "ISA" line) and printed with
 * the CPU's SIMD flags (CPUID: avx2, fma, avx512f) and slabcast's kernel (sc_world_simd()).
 *
 * Rays: rtcIntersect1 one at a time on each device (and rtcIntersect1M, Embree 3's stream API,
 * over the batch on the default device); slabcast: sc_world_cast_rays on the batch. tnear = 0,
 * tfar = +inf. Five rounds, each timing slabcast, then Embree default, then Embree AVX2 (so a
 * change of the machine's load hits all three alike); per engine the best round, by the wall clock
 * and by the thread's CPU time (CLOCK_THREAD_CPUTIME_ID, which time given to other processes does
 * not inflate). All cast on this one thread; Embree's BVH build uses its task scheduler (TBB) on
 * every core, slabcast's build one. Every Embree hit of both devices is checked against
 * slabcast's: the same hit or miss, |t diff| <= 1e-4 * max(1, t); rays from inside a box
 * (slabcast t = 0) are counted apart (BENCH_EMBREE_MISMATCHES=1: each mismatch on stderr).
 *
 * Output: one JSON line {"machine": ...} (CPU, flags, the ISA of each device, slabcast's kernel),
 * then one JSON object per size:
 *   bench_embree [boxes ...]   (default 1000 10000 100000 1000000)
 */
#include "slabcast.h"

#include <embree3/rtcore.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* ------------------------------------------------------------ the machine and Embree's ISA */

/* The CPU's model name from /proc/cpuinfo ("?" when unreadable), quotes and backslashes dropped. */
static void cpu_model(char *out, size_t n)
{
    snprintf(out, n, "?");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        const char *v = strchr(line, ':');
        if (!v) break;
        v += 1 + (v[1] == ' ');
        size_t k = 0;
        for (; *v && *v != '\n' && k + 1 < n; ++v) {
            if (*v != '"' && *v != '\\') out[k++] = *v;
        }
        out[k] = 0;
        break;
    }
    fclose(f);
}

/* rtcNewDevice(config + ",verbose=1") with stdout sent to a temporary file meanwhile: Embree then
 * prints its configuration there, whose "ISA :" line under "Config" is the instruction set the
 * device runs (AVX512F among them: Embree's AVX-512 kernels; AVX2 without: its AVX2 ones). The
 * widest target is written to isa ("AVX512", "AVX2", "AVX", "SSE4.2", "SSE2", "?"). */
static RTCDevice new_device(const char *config, char *isa, size_t n)
{
    char cfg[128];
    snprintf(cfg, sizeof cfg, "%s%sverbose=1", config, config[0] ? "," : "");
    snprintf(isa, n, "?");
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = dup(1);
    if (tmp && saved >= 0) dup2(fileno(tmp), 1);
    RTCDevice device = rtcNewDevice(cfg);
    fflush(stdout);
    if (tmp && saved >= 0) {
        dup2(saved, 1);
        close(saved);
        rewind(tmp);
        char line[1024];
        int in_config = 0;
        while (fgets(line, sizeof line, tmp)) {
            if (strstr(line, "Config")) in_config = 1;
            if (!in_config || !strstr(line, "ISA")) continue;
            const char *widest = strstr(line, "AVX512F") ? "AVX512" : strstr(line, "AVX2") ? "AVX2"
                               : strstr(line, " AVX ") ? "AVX" : strstr(line, "SSE4.2") ? "SSE4.2"
                               : strstr(line, "SSE2") ? "SSE2" : "?";
            snprintf(isa, n, "%s", widest);
            break;
        }
    }
    if (tmp) fclose(tmp);
    return device;
}

/* ------------------------------------------------------------ one size */

typedef struct timing { double ms, cpu_ms; } timing;

static void best(timing *b, double ms, double cpu)
{
    if (ms < b->ms) b->ms = ms;
    if (cpu < b->cpu_ms) b->cpu_ms = cpu;
}

/* One Embree scene of the n boxes on a device. */
static RTCScene embree_scene(RTCDevice device, float *boxes, int n, double *build_ms)
{
    double t0 = now_ms();
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
    *build_ms = now_ms() - t0;
    return scene;
}

/* rtcIntersect1 on every ray, t to et (INFINITY on a miss); the best of this round into b. */
static void embree_cast(RTCScene scene, const float *rays, int nrays, float *et, timing *b)
{
    struct RTCIntersectContext ctx;
    double t0 = now_ms(), c0 = cpu_ms();
    for (int i = 0; i < nrays; ++i) {
        struct RTCRayHit one;
        set_ray(&one, rays + 7 * (size_t)i);
        rtcInitIntersectContext(&ctx);
        rtcIntersect1(scene, &ctx, &one);
        et[i] = one.hit.geomID == RTC_INVALID_GEOMETRY_ID ? INFINITY : one.ray.tfar;
    }
    best(b, now_ms() - t0, cpu_ms() - c0);
}

/* Embree's answers et against slabcast's (t, idx): mismatches, rays from inside left out. */
static int agreement(const char *what, int n, const float *rays, int nrays, const float *t, const int *idx,
                     const float *et, int *checked, int *inside, int verbose)
{
    int mismatches = 0;
    *checked = *inside = 0;
    for (int i = 0; i < nrays; ++i) {
        int hit = idx[i] >= 0;
        if (hit && t[i] == 0.0f) { ++*inside; continue; }
        ++*checked;
        if (hit != (et[i] != INFINITY) || (hit && !(fabsf(et[i] - t[i]) <= 1e-4f * fmaxf(1.0f, t[i])))) {
            ++mismatches;
            if (verbose) {
                const float *r = rays + 7 * (size_t)i;
                fprintf(stderr, "mismatch (%s): %d boxes, ray %d (%.9g %.9g %.9g  %.9g %.9g %.9g): slabcast index %d t %.9g, Embree t %.9g\n",
                        what, n, i, r[0], r[1], r[2], r[3], r[4], r[5], idx[i], t[i], et[i]);
            }
        }
    }
    return mismatches;
}

#define ROUNDS 5

static void run_size(int n, RTCDevice dev, RTCDevice avx2, int verbose)
{
    const int nrays = SC_BENCH_RAYS;
    float *boxes = malloc(sizeof(float) * 6 * (size_t)n);
    float *rays = malloc(sizeof(float) * 7 * (size_t)nrays);
    float *t = malloc(sizeof(float) * (size_t)nrays);
    float *nrm = malloc(sizeof(float) * 3 * (size_t)nrays);
    int *idx = malloc(sizeof(int) * (size_t)nrays);
    struct RTCRayHit *rh = malloc(sizeof(struct RTCRayHit) * (size_t)nrays);
    float *et = malloc(sizeof(float) * (size_t)nrays), *et2 = malloc(sizeof(float) * (size_t)nrays);
    sc_bench_scene(n, boxes, nrays, rays);

    double t0 = now_ms();
    sc_world *w = sc_world_create();
    sc_world_add_aabbs(w, boxes, n, NULL);
    sc_world_build(w);
    double sc_build = now_ms() - t0;
    sc_scratch *scratch = sc_scratch_create();
    sc_scratch_reserve(scratch, nrays);
    double em_build, avx2_build;
    RTCScene scene = embree_scene(dev, boxes, n, &em_build);
    RTCScene scene2 = embree_scene(avx2, boxes, n, &avx2_build);

    timing sc = {INFINITY, INFINITY}, em = {INFINITY, INFINITY}, em2 = {INFINITY, INFINITY}, stream = {INFINITY, INFINITY};
    for (int k = 0; k < ROUNDS; ++k) {
        t0 = now_ms();
        double c0 = cpu_ms();
        sc_world_cast_rays(w, rays, nrays, t, idx, nrm, NULL, scratch);
        best(&sc, now_ms() - t0, cpu_ms() - c0);
        embree_cast(scene, rays, nrays, et, &em);
        embree_cast(scene2, rays, nrays, et2, &em2);
    }
    for (int k = 0; k < 3; ++k) {
        struct RTCIntersectContext ctx;
        t0 = now_ms(); /* filling the RTCRayHit array is part of the call's cost */
        double c0 = cpu_ms();
        for (int i = 0; i < nrays; ++i) set_ray(rh + i, rays + 7 * (size_t)i);
        rtcInitIntersectContext(&ctx);
        rtcIntersect1M(scene, &ctx, rh, (unsigned)nrays, sizeof(struct RTCRayHit));
        best(&stream, now_ms() - t0, cpu_ms() - c0);
    }

    int checked, inside, checked2, inside2, hits = 0, stream_diff = 0;
    int mismatches = agreement("default ISA", n, rays, nrays, t, idx, et, &checked, &inside, verbose);
    int mismatches2 = agreement("isa=avx2", n, rays, nrays, t, idx, et2, &checked2, &inside2, verbose);
    for (int i = 0; i < nrays; ++i) {
        float es = rh[i].hit.geomID == RTC_INVALID_GEOMETRY_ID ? INFINITY : rh[i].ray.tfar;
        stream_diff += !(es == et[i]);
        hits += idx[i] >= 0;
    }
    int em_error = (int)rtcGetDeviceError(dev), avx2_error = (int)rtcGetDeviceError(avx2);
    const double r = nrays * 1e3;
    printf("{\"boxes\": %d, \"rays\": %d, \"embree\": \"%s\", \"simd\": \"%s\", \"rounds\": %d, "
           "\"slabcast_build_ms\": %.3f, \"slabcast_rays_per_s\": %.0f, \"slabcast_cpu_rays_per_s\": %.0f, "
           "\"build_ms\": %.3f, \"rays_per_s\": %.0f, \"cpu_rays_per_s\": %.0f, "
           "\"stream_rays_per_s\": %.0f, \"stream_cpu_rays_per_s\": %.0f, "
           "\"avx2_build_ms\": %.3f, \"avx2_rays_per_s\": %.0f, \"avx2_cpu_rays_per_s\": %.0f, "
           "\"hit_fraction\": %.3f, \"checked\": %d, \"mismatches\": %d, \"inside\": %d, "
           "\"avx2_checked\": %d, \"avx2_mismatches\": %d, "
           "\"stream_differs\": %d, \"embree_error\": %d, \"avx2_error\": %d}\n",
           n, nrays, RTC_VERSION_STRING, sc_world_simd(), ROUNDS, sc_build, r / sc.ms, r / sc.cpu_ms,
           em_build, r / em.ms, r / em.cpu_ms, r / stream.ms, r / stream.cpu_ms,
           avx2_build, r / em2.ms, r / em2.cpu_ms, (double)hits / nrays, checked, mismatches, inside,
           checked2, mismatches2, stream_diff, em_error, avx2_error);
    (void)inside2;
    fflush(stdout);
    rtcReleaseScene(scene);
    rtcReleaseScene(scene2);
    sc_scratch_destroy(scratch);
    sc_world_destroy(w);
    free(boxes); free(rays); free(t); free(nrm); free(idx); free(rh); free(et); free(et2);
}

int main(int argc, char **argv)
{
    int sizes[8] = {1000, 10000, 100000, 1000000}, nsizes = 4;
    if (argc > 1) {
        nsizes = 0;
        for (int i = 1; i < argc && nsizes < 8; ++i) sizes[nsizes++] = atoi(argv[i]);
    }
    const int verbose = getenv("BENCH_EMBREE_MISMATCHES") != NULL; /* each mismatch on stderr */
    char isa[32], isa2[32], model[256];
    RTCDevice device = new_device("", isa, sizeof isa);
    RTCDevice avx2 = new_device("isa=avx2", isa2, sizeof isa2);
    if (!device || !avx2) {
        fprintf(stderr, "bench_embree: rtcNewDevice failed (error %d)\n", (int)rtcGetDeviceError(NULL));
        return 1;
    }
    cpu_model(model, sizeof model);
    __builtin_cpu_init();
    printf("{\"machine\": {\"cpu\": \"%s\", \"avx2\": %s, \"fma\": %s, \"avx512f\": %s}, \"embree\": \"%s\", "
           "\"embree_isa\": \"%s\", \"embree_avx2_isa\": \"%s\", \"slabcast_simd\": \"%s\", \"compiler\": \"%s\"}\n",
           model, __builtin_cpu_supports("avx2") ? "true" : "false", __builtin_cpu_supports("fma") ? "true" : "false",
           __builtin_cpu_supports("avx512f") ? "true" : "false", RTC_VERSION_STRING, isa, isa2, sc_world_simd(),
#if defined(__clang__)
           "clang " __clang_version__
#elif defined(__GNUC__)
           "gcc " __VERSION__
#else
           "?"
#endif
    );
    fflush(stdout);
    for (int si = 0; si < nsizes; ++si) run_size(sizes[si], device, avx2, verbose);
    rtcReleaseDevice(device);
    rtcReleaseDevice(avx2);
    return 0;
}
