/* sc_simd.h: the 4-wide float abstraction of the world kernels (internal).
 *
 * Backends: wasm SIMD128 (-msimd128), SSE2 (x86-64 baseline; AVX builds reuse it with VEX
 * encoding), and a scalar fallback (SC_SIMD_SCALAR or any other target). Every operation is
 * IEEE-exact and has the same result on every backend, NaN and -0 included, so the kernels
 * give bit-identical answers native and wasm:
 *   f4_min(a, b) = b < a ? b : a   (wasm pmin; SSE minps with swapped operands)
 *   f4_max(a, b) = a < b ? b : a   (wasm pmax; SSE maxps with swapped operands)
 * Masks are all-ones / all-zeros lanes.
 */
#ifndef SC_SIMD_H
#define SC_SIMD_H

#if defined(__wasm_simd128__) && !defined(SC_SIMD_SCALAR)
#include <wasm_simd128.h>
#define SC_SIMD_NAME "wasm-simd128"
typedef v128_t f4;
static inline f4 f4_load(const float *p) { return wasm_v128_load(p); }
static inline void f4_store(float *p, f4 a) { wasm_v128_store(p, a); }
static inline f4 f4_splat(float a) { return wasm_f32x4_splat(a); }
static inline f4 f4_add(f4 a, f4 b) { return wasm_f32x4_add(a, b); }
static inline f4 f4_sub(f4 a, f4 b) { return wasm_f32x4_sub(a, b); }
static inline f4 f4_mul(f4 a, f4 b) { return wasm_f32x4_mul(a, b); }
static inline f4 f4_div(f4 a, f4 b) { return wasm_f32x4_div(a, b); }
static inline f4 f4_min(f4 a, f4 b) { return wasm_f32x4_pmin(a, b); }
static inline f4 f4_max(f4 a, f4 b) { return wasm_f32x4_pmax(a, b); }
static inline f4 f4_lt(f4 a, f4 b) { return wasm_f32x4_lt(a, b); }
static inline f4 f4_le(f4 a, f4 b) { return wasm_f32x4_le(a, b); }
static inline f4 f4_gt(f4 a, f4 b) { return wasm_f32x4_gt(a, b); }
static inline f4 f4_ge(f4 a, f4 b) { return wasm_f32x4_ge(a, b); }
static inline f4 f4_and(f4 a, f4 b) { return wasm_v128_and(a, b); }
static inline f4 f4_or(f4 a, f4 b) { return wasm_v128_or(a, b); }
static inline f4 f4_abs(f4 a) { return wasm_f32x4_abs(a); }
/* mask ? a : b */
static inline f4 f4_select(f4 mask, f4 a, f4 b) { return wasm_v128_bitselect(a, b, mask); }
static inline int f4_bits(f4 mask) { return (int)wasm_i32x4_bitmask(mask); }

#elif (defined(__SSE2__) || defined(_M_X64)) && !defined(SC_SIMD_SCALAR)
#include <emmintrin.h>
#define SC_SIMD_NAME "sse2"
#define SC_SIMD_SSE2 1 /* f4 is __m128: code may use SSE2 intrinsics on it */
typedef __m128 f4;
static inline f4 f4_load(const float *p) { return _mm_load_ps(p); }
static inline void f4_store(float *p, f4 a) { _mm_store_ps(p, a); }
static inline f4 f4_splat(float a) { return _mm_set1_ps(a); }
static inline f4 f4_add(f4 a, f4 b) { return _mm_add_ps(a, b); }
static inline f4 f4_sub(f4 a, f4 b) { return _mm_sub_ps(a, b); }
static inline f4 f4_mul(f4 a, f4 b) { return _mm_mul_ps(a, b); }
static inline f4 f4_div(f4 a, f4 b) { return _mm_div_ps(a, b); }
/* minps(x, y) = x < y ? x : y, so minps(b, a) = b < a ? b : a, as wasm pmin */
static inline f4 f4_min(f4 a, f4 b) { return _mm_min_ps(b, a); }
static inline f4 f4_max(f4 a, f4 b) { return _mm_max_ps(b, a); }
static inline f4 f4_lt(f4 a, f4 b) { return _mm_cmplt_ps(a, b); }
static inline f4 f4_le(f4 a, f4 b) { return _mm_cmple_ps(a, b); }
static inline f4 f4_gt(f4 a, f4 b) { return _mm_cmpgt_ps(a, b); }
static inline f4 f4_ge(f4 a, f4 b) { return _mm_cmpge_ps(a, b); }
static inline f4 f4_and(f4 a, f4 b) { return _mm_and_ps(a, b); }
static inline f4 f4_or(f4 a, f4 b) { return _mm_or_ps(a, b); }
static inline f4 f4_abs(f4 a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
static inline f4 f4_select(f4 mask, f4 a, f4 b) { return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b)); }
static inline int f4_bits(f4 mask) { return _mm_movemask_ps(mask); }

#else
#include <string.h>
#define SC_SIMD_NAME "scalar"
typedef struct f4 { float v[4]; } f4;
static inline f4 f4_load(const float *p) { f4 r; memcpy(r.v, p, sizeof r.v); return r; }
static inline void f4_store(float *p, f4 a) { memcpy(p, a.v, sizeof a.v); }
static inline f4 f4_splat(float a) { f4 r = {{a, a, a, a}}; return r; }
#define SC_F4_OP(name, expr) \
    static inline f4 name(f4 a, f4 b) { f4 r; for (int i = 0; i < 4; ++i) { float x = a.v[i], y = b.v[i]; r.v[i] = (expr); } return r; }
SC_F4_OP(f4_add, x + y)
SC_F4_OP(f4_sub, x - y)
SC_F4_OP(f4_mul, x * y)
SC_F4_OP(f4_div, x / y)
SC_F4_OP(f4_min, y < x ? y : x)
SC_F4_OP(f4_max, x < y ? y : x)
#undef SC_F4_OP
static inline float sc_f4_mask(int c) { union { unsigned u; float f; } m; m.u = c ? 0xFFFFFFFFu : 0u; return m.f; }
static inline unsigned sc_f4_bitsof(float f) { union { unsigned u; float f; } m; m.f = f; return m.u; }
#define SC_F4_CMP(name, op) \
    static inline f4 name(f4 a, f4 b) { f4 r; for (int i = 0; i < 4; ++i) r.v[i] = sc_f4_mask(a.v[i] op b.v[i]); return r; }
SC_F4_CMP(f4_lt, <)
SC_F4_CMP(f4_le, <=)
SC_F4_CMP(f4_gt, >)
SC_F4_CMP(f4_ge, >=)
#undef SC_F4_CMP
static inline f4 f4_and(f4 a, f4 b)
{
    f4 r;
    for (int i = 0; i < 4; ++i) r.v[i] = sc_f4_mask(sc_f4_bitsof(a.v[i]) && sc_f4_bitsof(b.v[i]));
    return r;
}
static inline f4 f4_or(f4 a, f4 b)
{
    f4 r;
    for (int i = 0; i < 4; ++i) r.v[i] = sc_f4_mask(sc_f4_bitsof(a.v[i]) || sc_f4_bitsof(b.v[i]));
    return r;
}
static inline f4 f4_select(f4 mask, f4 a, f4 b)
{
    f4 r;
    for (int i = 0; i < 4; ++i) r.v[i] = sc_f4_bitsof(mask.v[i]) ? a.v[i] : b.v[i];
    return r;
}
static inline f4 f4_abs(f4 a)
{
    f4 r;
    for (int i = 0; i < 4; ++i) { union { unsigned u; float f; } m; m.f = a.v[i]; m.u &= 0x7FFFFFFFu; r.v[i] = m.f; }
    return r;
}
static inline int f4_bits(f4 mask)
{
    int b = 0;
    for (int i = 0; i < 4; ++i) b |= (sc_f4_bitsof(mask.v[i]) ? 1 : 0) << i;
    return b;
}
#endif

#endif /* SC_SIMD_H */
