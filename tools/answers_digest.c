/* answers_digest: hashes of slabcast's native answers on one scene, for the bit-identity check of
 * issue 25 (docs/benchmarks.md, "Answer digests"). web/bench/answers.mjs computes the same hashes
 * through the JS World (wasm) and writes the scenes this program reads, so that native and wasm
 * answer the same boxes and rays; tests/answers/digests.json holds the hashes of main before the
 * change (481861d), tests/web/answers.test.mjs compares.
 *
 *   answers_digest SCENE_FILE
 *
 * SCENE_FILE, little-endian: int32 boxes, int32 rays, int32 brute (how many of the first rays the
 * brute-force kernel answers too), then boxes * 6 float32 (min xyz, max xyz), rays * 7 float32
 * (origin, direction, tmax). The boxes go into one world (sc_world_add_aabbs, sc_world_build);
 * then sc_world_cast_rays on every ray (with normals, one call, one scratch), sc_world_any_hit on
 * every ray, and sc_world_cast_rays_bruteforce on the first `brute` rays. Prints one JSON line:
 *
 *   {"simd": ..., "boxes": n, "rays": m, "brute": k, "cast": H, "any": H, "bvh_prefix": H, "brute_cast": H,
 *    "bvh_vs_brute_differ": d}
 *
 * each H the FNV-1a 64-bit hash (16 hex digits) of a byte stream: "cast" the rays' t (float32
 * bits), then their index (int32), then their normal (3 float32), each array whole and in ray
 * order, little-endian; "any" the any-hit flags (one byte, 0 or 1, per ray); "bvh_prefix" and
 * "brute_cast" the same stream as "cast" over the first `brute` rays, from the BVH and from the
 * brute force (equal when BVH = brute force); "bvh_vs_brute_differ" counts those rays whose
 * (t, index, normal) bits differ. Exit 0 when it ran (a difference is reported, not an error),
 * 2 on a bad file or a failed call. */
#include "slabcast.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull
#define MAX_ITEMS 16777216

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; ++i) {
        h ^= b[i];
        h *= FNV_PRIME;
    }
    return h;
}

/* The stream of "cast": t, index, normal of rays [0, n), each array whole (this machine is
 * little-endian, as wasm: checked in main). */
static uint64_t cast_hash(const float *t, const int32_t *index, const float *normal, int32_t n)
{
    uint64_t h = FNV_OFFSET;
    h = fnv(h, t, sizeof(float) * (size_t)n);
    h = fnv(h, index, sizeof(int32_t) * (size_t)n);
    return fnv(h, normal, sizeof(float) * 3 * (size_t)n);
}

static int fail(const char *what, sc_status s)
{
    fprintf(stderr, "answers_digest: %s failed (%s)\n", what, sc_status_message(s));
    return 2;
}

static void *alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "answers_digest: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

int main(int argc, char **argv)
{
    const uint16_t one = 1;
    if (*(const unsigned char *)&one != 1) {
        fputs("answers_digest: needs a little-endian machine (the hashes are of little-endian bytes)\n", stderr);
        return 2;
    }
    if (argc != 2) {
        fputs("usage: answers_digest SCENE_FILE\n", stderr);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    int32_t head[3];
    if (fread(head, sizeof head, 1, f) != 1 || head[0] < 0 || head[0] > MAX_ITEMS || head[1] < 0 ||
        head[1] > MAX_ITEMS || head[2] < 0 || head[2] > head[1]) {
        fprintf(stderr, "answers_digest: %s: bad header (boxes, rays, brute: three int32, brute <= rays)\n", argv[1]);
        fclose(f);
        return 2;
    }
    const int32_t n = head[0], m = head[1], k = head[2];
    float *boxes = alloc(sizeof(float) * 6 * (size_t)n);
    float *rays = alloc(sizeof(float) * 7 * (size_t)m);
    if (fread(boxes, sizeof(float) * 6, (size_t)n, f) != (size_t)n || fread(rays, sizeof(float) * 7, (size_t)m, f) != (size_t)m) {
        fprintf(stderr, "answers_digest: %s: shorter than its header says\n", argv[1]);
        fclose(f);
        return 2;
    }
    fclose(f);

    float *t = alloc(sizeof(float) * (size_t)m), *normal = alloc(sizeof(float) * 3 * (size_t)m);
    int32_t *index = alloc(sizeof(int32_t) * (size_t)m);
    bool *any = alloc(sizeof(bool) * (size_t)m);
    float *bt = alloc(sizeof(float) * (size_t)k), *bnormal = alloc(sizeof(float) * 3 * (size_t)k);
    int32_t *bindex = alloc(sizeof(int32_t) * (size_t)k);
    sc_world *w = sc_world_create();
    sc_scratch *scratch = sc_scratch_create();
    if (!w || !scratch) return fail("sc_world_create / sc_scratch_create", SC_ERR_NO_MEMORY);
    sc_status s;
    if ((s = sc_world_add_aabbs(w, boxes, n, NULL)) != SC_OK) return fail("sc_world_add_aabbs", s);
    if ((s = sc_world_build(w)) != SC_OK) return fail("sc_world_build", s);
    if ((s = sc_world_cast_rays(w, rays, m, t, index, normal, NULL, scratch)) != SC_OK) return fail("sc_world_cast_rays", s);
    if ((s = sc_world_any_hit(w, rays, m, any, NULL, scratch)) != SC_OK) return fail("sc_world_any_hit", s);
    if ((s = sc_world_cast_rays_bruteforce(w, rays, k, bt, bindex, bnormal, NULL, scratch)) != SC_OK)
        return fail("sc_world_cast_rays_bruteforce", s);

    unsigned char *anyb = alloc((size_t)m);
    for (int32_t i = 0; i < m; ++i) anyb[i] = any[i] ? 1 : 0;
    int32_t differ = 0;
    for (int32_t i = 0; i < k; ++i) {
        differ += memcmp(&t[i], &bt[i], sizeof(float)) != 0 || index[i] != bindex[i] ||
                  memcmp(&normal[3 * (size_t)i], &bnormal[3 * (size_t)i], 3 * sizeof(float)) != 0;
    }
    printf("{\"simd\": \"%s\", \"boxes\": %d, \"rays\": %d, \"brute\": %d, \"cast\": \"%016llx\", \"any\": \"%016llx\", "
           "\"bvh_prefix\": \"%016llx\", \"brute_cast\": \"%016llx\", \"bvh_vs_brute_differ\": %d}\n",
           sc_world_simd(), n, m, k, (unsigned long long)cast_hash(t, index, normal, m),
           (unsigned long long)fnv(FNV_OFFSET, anyb, (size_t)m), (unsigned long long)cast_hash(t, index, normal, k),
           (unsigned long long)cast_hash(bt, bindex, bnormal, k), differ);
    sc_scratch_destroy(scratch);
    sc_world_destroy(w);
    free(boxes); free(rays); free(t); free(normal); free(index); free(any); free(bt); free(bnormal); free(bindex); free(anyb);
    return 0;
}
