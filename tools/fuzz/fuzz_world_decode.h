/* fuzz_world_decode.h: how fuzz_world.c (its only includer) reads its operations' arguments
 * from the bytes: counts (small or hostile), update indices, objects of each kind, and rays
 * (raw, aimed at an object of the model, or axis-parallel). */
#ifndef SLABCAST_FUZZ_WORLD_DECODE_H
#define SLABCAST_FUZZ_WORLD_DECODE_H

#include "fuzz_world_model.h"

#include <limits.h>

/* A count: usually small, sometimes hostile. *hostile says it must not be backed by data. */
static int take_count(fuzz_bytes *b, int small_max, int *hostile)
{
    uint8_t c = fb_u8(b);
    *hostile = 0;
    if (c < 0xF0) return c % (small_max + 1);
    *hostile = 1;
    switch (c & 15u) {
    case 0: return -1;
    case 1: return INT_MIN;
    case 2: return INT_MAX;
    case 3: return SC_WORLD_MAX_OBJECTS + 1;
    case 4: return SC_WORLD_MAX_OBJECTS;
    case 5: return -(int)(fb_u32(b) & 0x7FFFFFFFu) - 1;
    default: return (int)(fb_u32(b) & 0x7FFFFFFFu) | 0x10000;
    }
}

/* An index for an update: in range, at the edges, or out. */
static int take_first(fuzz_bytes *b, int count)
{
    uint8_t c = fb_u8(b);
    switch (c >> 5) {
    case 0: return -1;
    case 1: return count;
    case 2: return count + 1;
    case 3: return (c & 1u) ? INT_MAX : INT_MIN;
    default: return count > 0 ? (int)(c % (unsigned)count) : 0;
    }
}

static float take_value(fuzz_bytes *b, int mode) { return fb_value(fb_u32(b), mode); }

/* One object of a kind from the bytes: flags bit 0 makes it valid where it can. */
static void take_object(fuzz_bytes *b, int kind, int mode, int valid, float *out)
{
    if (kind == SC_SHAPE_AABB) {
        for (int i = 0; i < 6; ++i) out[i] = take_value(b, mode);
        if (valid)
            for (int a = 0; a < 3; ++a)
                if (out[a] > out[a + 3]) { float t = out[a]; out[a] = out[a + 3]; out[a + 3] = t; }
    } else if (kind == SC_SHAPE_OBB) {
        for (int i = 0; i < 3; ++i) out[i] = take_value(b, mode);
        uint8_t how = fb_u8(b);
        if (!valid && (how & 1u)) {
            for (int i = 3; i < 12; ++i) out[i] = take_value(b, mode);
        } else if (how & 2u) {
            /* a signed permutation: exact */
            static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
            const int *p = perms[(how >> 2) % 6u];
            for (int i = 0; i < 3; ++i) {
                float *ax = out + 3 + 3 * i;
                ax[0] = ax[1] = ax[2] = 0.0f;
                ax[p[i]] = (how >> (5 + i)) & 1u ? -1.0f : 1.0f;
            }
        } else {
            double w = (int8_t)fb_u8(b), x = (int8_t)fb_u8(b), y = (int8_t)fb_u8(b), z = (int8_t)fb_u8(b);
            double n = sqrt(w * w + x * x + y * y + z * z);
            if (n == 0.0) { w = 1; n = 1; }
            w /= n; x /= n; y /= n; z /= n;
            double m[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y),
                           2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x),
                           2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)};
            if (how & 4u) {
                /* skewed within the contract's 1e-4: axes 0 and 1 lean towards axis 2 by up to
                 * 9.5e-5, so the slab set reaches beyond the box the axes span (issue 22, D1) */
                double k0 = (int8_t)fb_u8(b) * (9.5e-5 / 128), k1 = (int8_t)fb_u8(b) * (9.5e-5 / 128);
                for (int c = 0; c < 3; ++c) {
                    m[c] += k0 * m[6 + c];
                    m[3 + c] += k1 * m[6 + c];
                }
            }
            for (int i = 0; i < 9; ++i) out[3 + i] = (float)m[i];
        }
        for (int i = 12; i < 15; ++i) {
            out[i] = take_value(b, mode);
            if (valid) out[i] = fabsf(out[i]);
        }
    } else if (kind == SC_SHAPE_CAPSULE) {
        /* a, then b: raw, or a plus a small step (a == b: a ball) */
        for (int i = 0; i < 3; ++i) out[i] = take_value(b, mode);
        uint8_t how = fb_u8(b);
        for (int i = 0; i < 3; ++i) out[3 + i] = how & 1u ? take_value(b, mode) : out[i] + (float)((int8_t)fb_u8(b)) * (how & 2u ? 0.0f : 0.125f);
        out[6] = take_value(b, mode);
        if (valid) out[6] = fabsf(out[6]);
    } else {
        for (int i = 0; i < 4; ++i) out[i] = take_value(b, mode);
        if (valid) out[3] = fabsf(out[3]);
    }
}

static int floats_of(int kind)
{
    return kind == SC_SHAPE_AABB     ? SC_AABB_FLOATS
           : kind == SC_SHAPE_OBB    ? SC_OBB_FLOATS
           : kind == SC_SHAPE_CAPSULE ? SC_CAPSULE_FLOATS
                                     : SC_SPHERE_FLOATS;
}

static sc_shape shape_of(int kind, const float *p)
{
    sc_shape s;
    memset(&s, 0, sizeof s);
    s.type = kind;
    if (kind == SC_SHAPE_AABB) {
        s.u.aabb = (sc_aabb){{p[0], p[1], p[2]}, {p[3], p[4], p[5]}};
    } else if (kind == SC_SHAPE_OBB) {
        s.u.obb = (sc_obb){{p[0], p[1], p[2]}, {{p[3], p[4], p[5]}, {p[6], p[7], p[8]}, {p[9], p[10], p[11]}},
                           {p[12], p[13], p[14]}};
    } else if (kind == SC_SHAPE_CAPSULE) {
        s.u.capsule = (sc_capsule){{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, p[6]};
    } else {
        s.u.sphere = (sc_sphere){{p[0], p[1], p[2]}, p[3]};
    }
    return s;
}

/* A point near object k of the model (its centre or a corner of its bounds). */
static sc_vec3 near_object(int k, int corner)
{
    const sc_shape *s = &g_m.obj[k];
    if (s->type == SC_SHAPE_AABB) {
        const sc_aabb *b = &s->u.aabb;
        if (corner & 1) return (sc_vec3){(corner & 2) ? b->max.x : b->min.x, (corner & 4) ? b->max.y : b->min.y,
                                         (corner & 8) ? b->max.z : b->min.z};
        return (sc_vec3){b->min.x * 0.5f + b->max.x * 0.5f, b->min.y * 0.5f + b->max.y * 0.5f,
                         b->min.z * 0.5f + b->max.z * 0.5f};
    }
    if (s->type == SC_SHAPE_OBB) return s->u.obb.center;
    if (s->type == SC_SHAPE_CAPSULE) return corner & 1 ? s->u.capsule.b : s->u.capsule.a;
    return s->u.sphere.center;
}

/* One ray (7 floats) from the bytes: raw, aimed at an object, or axis-parallel. */
static void take_ray(fuzz_bytes *b, int mode, float *r)
{
    uint8_t how = fb_u8(b);
    for (int i = 0; i < 7; ++i) r[i] = take_value(b, mode);
    if ((how & 3u) == 1u && g_m.count > 0) {
        /* aimed: from the origin to a point of an object */
        sc_vec3 p = near_object(fb_u8(b) % g_m.count, how >> 4);
        r[3] = p.x - r[0];
        r[4] = p.y - r[1];
        r[5] = p.z - r[2];
    } else if ((how & 3u) == 2u) {
        /* axis-parallel (the other components +-0) */
        int axis = ((how >> 2) & 3u) % 3u;
        for (int a = 0; a < 3; ++a)
            if (a != axis) r[3 + a] = (how & 32u) ? -0.0f : 0.0f;
        if (g_m.count > 0 && (how & 64u)) {
            /* from a corner or the centre of an object, along a face */
            sc_vec3 p = near_object(fb_u8(b) % g_m.count, fb_u8(b));
            r[0] = p.x;
            r[1] = p.y;
            r[2] = p.z;
        }
    }
    if (how & 128u) r[6] = INFINITY;
    else if (mode != 0) r[6] = fabsf(r[6]);
}

#endif
