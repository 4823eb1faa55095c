/* Pointer-based entry points for the WebAssembly build.
 *
 * JS writes inputs into linear memory as the plain C structs of slabcast.h
 * (every member is 4 bytes: int32 or float32, no padding), calls one export,
 * and reads the result struct back. One call per query, not one per number.
 *
 * Layout (byte offsets; all little-endian 4-byte fields):
 *   sc_ray              0: origin xyz, 12: dir xyz, 24: tmax                (28 bytes)
 *   sc_segment          0: a xyz, 12: b xyz                                 (24 bytes)
 *   sc_vec3             0: x y z                                            (12 bytes)
 *   sc_shape            0: int32 type (1 aabb, 2 obb, 3 sphere, 4 plane), then from 4:
 *                          aabb:   min xyz, max xyz
 *                          obb:    center xyz, axes[0] xyz, axes[1] xyz, axes[2] xyz, half xyz
 *                          sphere: center xyz, radius
 *                          plane:  normal xyz, d                            (64 bytes)
 *   sc_raycast_result   0: int32 status, 4: int32 hit, 8: t, 12: t_enter, 16: t_exit,
 *                       20: point xyz, 32: normal xyz                       (44 bytes)
 *   sc_test_result      0: int32 status, 4: int32 value                     (8 bytes)
 *   sc_point_result     0: int32 status, 4: point xyz                       (16 bytes)
 *
 * sc_wasm_scratch() returns a static, 16-byte aligned area of SC_WASM_SCRATCH_BYTES
 * that JS may use for these structs (no allocation is needed for single queries).
 */
#include "slabcast.h"

#include <stddef.h>

#if defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
#define SC_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define SC_EXPORT
#endif

#define SC_WASM_SCRATCH_BYTES 512

_Static_assert(sizeof(sc_ray) == 28, "sc_ray layout");
_Static_assert(sizeof(sc_segment) == 24, "sc_segment layout");
_Static_assert(sizeof(sc_shape) == 64, "sc_shape layout");
_Static_assert(offsetof(sc_shape, u) == 4, "sc_shape union offset");
_Static_assert(sizeof(sc_raycast_result) == 44, "sc_raycast_result layout");
_Static_assert(sizeof(sc_test_result) == 8, "sc_test_result layout");
_Static_assert(sizeof(sc_point_result) == 16, "sc_point_result layout");

static _Alignas(16) unsigned char sc_scratch_area[SC_WASM_SCRATCH_BYTES];

/// The static scratch area for single queries.
SC_EXPORT void *sc_wasm_scratch(void) { return sc_scratch_area; }

/// Size of the scratch area in bytes.
SC_EXPORT int sc_wasm_scratch_bytes(void) { return SC_WASM_SCRATCH_BYTES; }

/// Raycast; writes *out.
SC_EXPORT void sc_wasm_raycast(const sc_ray *ray, const sc_shape *shape, sc_raycast_result *out)
{
    if (out) *out = sc_raycast(ray, shape);
}

/// Linetest; writes *out.
SC_EXPORT void sc_wasm_linetest(const sc_segment *segment, const sc_shape *shape, sc_test_result *out)
{
    if (out) *out = sc_linetest(segment, shape);
}

/// Closest point; writes *out.
SC_EXPORT void sc_wasm_closest_point(const sc_vec3 *p, const sc_shape *shape, sc_point_result *out)
{
    if (!out) return;
    if (!p) { out->status = SC_ERR_NULL; out->point = (sc_vec3){0, 0, 0}; return; }
    *out = sc_closest_point(*p, shape);
}

/// Contains; writes *out.
SC_EXPORT void sc_wasm_contains(const sc_vec3 *p, const sc_shape *shape, sc_test_result *out)
{
    if (!out) return;
    if (!p) { out->status = SC_ERR_NULL; out->value = 0; return; }
    *out = sc_contains(*p, shape);
}

/// The NUL-terminated message of a status (static storage).
SC_EXPORT const char *sc_wasm_status_message(int status) { return sc_status_message((sc_status)status); }
