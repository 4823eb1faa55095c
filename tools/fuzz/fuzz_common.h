/* Shared helpers of the libFuzzer targets tools/fuzz/fuzz_*.c (scripts/fuzz.sh runs them). */
#ifndef SLABCAST_FUZZ_COMMON_H
#define SLABCAST_FUZZ_COMMON_H

#include "slabcast.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Set by a target to print what it was doing when an invariant fails. */
static void (*fuzz_dump)(void);

/* An invariant: on failure, say which, dump the context and abort() (libFuzzer saves the input
 * as a crash file; `build/fuzz/fuzz_X CRASHFILE` replays it). */
#define FUZZ_CHECK(cond)                                                                    \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond);    \
            if (fuzz_dump) fuzz_dump();                                                     \
            abort();                                                                        \
        }                                                                                   \
    } while (0)

/* The fuzzer's bytes, read front to back; past the end every read gives 0. */
typedef struct fuzz_bytes { const uint8_t *p; size_t n, at; } fuzz_bytes;

/* Component k (0, 1, 2) of a vector, read or written by name (indexing past .x is undefined). */
static inline float v3_at(sc_vec3 v, int k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }
static inline void v3_set(sc_vec3 *v, int k, float x)
{
    if (k == 0) v->x = x;
    else if (k == 1) v->y = x;
    else v->z = x;
}

static inline uint8_t fb_u8(fuzz_bytes *b) { return b->at < b->n ? b->p[b->at++] : 0; }

static inline uint32_t fb_u32(fuzz_bytes *b)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= (uint32_t)fb_u8(b) << (8 * i);
    return v;
}

static inline float fb_bits_to_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline int fb_done(const fuzz_bytes *b) { return b->at >= b->n; }

/* A float from 4 bytes, in one of the value modes:
 *   0 raw:     any bit pattern (NaN, inf, -0, subnormals, huge);
 *   1 dyadic:  a multiple of 1/2 in [-64, 64] (the spec's exact domain); -0 from the sign bit;
 *   2 fixed:   a 2^-16 multiple in about [-32768, 32768): realistic scenes, general rounding;
 *   3 mixed:   the low two bits of the value pick one of the three above. */
static inline float fb_value(uint32_t u, int mode)
{
    if (mode == 3) {
        mode = (int)(u & 3u) % 3;
        u >>= 2;
        if (mode == 0) u |= (u & 1u) << 30; /* keep some high exponents reachable */
    }
    if (mode == 1) {
        float v = (float)((int)(u % 257u) - 128) * 0.5f;
        if (v == 0.0f && (u & 0x80000000u)) v = -0.0f;
        return v;
    }
    if (mode == 2) return (float)(int32_t)u * (1.0f / 65536.0f);
    return fb_bits_to_float(u);
}

/* |n| is 1 within 1e-4, or n is exactly zero. */
static inline int fuzz_unit_or_zero(sc_vec3 n)
{
    if (n.x == 0.0f && n.y == 0.0f && n.z == 0.0f) return 1;
    double l2 = (double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z;
    double l = sqrt(l2);
    return fabs(l - 1.0) <= 1e-4;
}

static inline int fuzz_finite3(sc_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

#endif
