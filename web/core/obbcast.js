// obbcast.js: raycast's OBB, read from the caller's arrays and tested in one function.
//
// obbReadRay(r, shape, s) is validate.js's obbInto followed by shapes.js's obbRay, without the
// float32 staging between them: the OBB's 15 numbers are read (each once, in obbInto's order,
// with its checks and errors) into locals, rounded to float32 as obbInto's Float32Array would
// round them, and obbRay's tests run on those locals. Its answer is obbRay's for the floats obbInto
// would have staged (tests/web/raycast-obb-read.test.mjs compares the two); only a call obbRay
// cannot settle as a miss stages the floats into s, for the core.
import { fail } from './errors.js';
import { HI1 as SHAPES_HI1, LO1 as SHAPES_LO1, LO4 as SHAPES_LO4, M as SHAPES_M, UNSURE, entersBall, obbSlabs } from './shapes.js';
import { typedVec3Into } from './validate.js';

const fround = Math.fround;
// 1 as a heap number (a Float64Array's element): x * ONE is x. Math.fround returns a small integer
// (a Smi) for 0 or 1, and V8 then records the products of an axis-aligned box's components as
// integer ones; its optimized code checks and converts each operand (a dozen instructions a
// product instead of one). A heap number operand makes V8 record doubles; the product by 1 itself
// is folded away.
const ONE = new Float64Array([1])[0];
const fin = (x) => x - x === 0; // finite (NaN and infinities give NaN)
const abs = Math.abs;
// shapes.js's margin and its factors, as constants of this module (read once, not per call)
const M = SHAPES_M;
const M4 = 1 + 4 * M; // obbRay's (1 + 4 M)
const LO4 = SHAPES_LO4;
const LO1 = SHAPES_LO1;
const HI1 = SHAPES_HI1;
const T = 0.99e-4;
const AXES = '"shape.axes" must be an array of 3 arrays of 3 numbers';
const vecFail = (name) => fail(`"${name}" must be an array of 3 numbers`, name);

/**
 * raycast's OBB test: the fields of `shape` (an OBB's, its type read) read as obbInto reads them,
 * and obbRay's answer for the ray r (7 floats, staged) and them: 0 (a certain miss; s untouched) or
 * UNSURE (s holds the 15 floats, for the core). A vector that is not a plain array (a typed array)
 * is read by validate.js's typedVec3Into into s and taken from there.
 */
export function obbReadRay(r, shape, s) {
  let c0 = 0, c1 = 0, c2 = 0, h0 = 0, h1 = 0, h2 = 0;
  let ax = 0, ay = 0, az = 0, bx = 0, by = 0, bz = 0, cx = 0, cy = 0, cz = 0;
  const cv = shape.center;
  if (Array.isArray(cv)) {
    if (cv.length !== 3) vecFail('shape.center');
    const x = cv[0], y = cv[1], z = cv[2];
    if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') vecFail('shape.center');
    c0 = fround(x) * ONE; c1 = fround(y) * ONE; c2 = fround(z) * ONE;
  } else {
    if (!typedVec3Into(cv, s, 0)) vecFail('shape.center');
    c0 = s[0]; c1 = s[1]; c2 = s[2];
  }
  // shapes.js's ballMiss (the bounding ball's test, below), written out: its steps that need only
  // the ray (raycast's own staging: a nested call stages in its own) and the centre run here,
  // before the axes and half are read (about 3 ns: fewer instructions follow the caller's last
  // loads); the same expressions, so the same decisions
  const ox = r[0], oy = r[1], oz = r[2], dx = r[3], dy = r[4], dz = r[5];
  const mx = ox - c0, my = oy - c1, mz = oz - c2;
  const e = M * (abs(mx) + abs(my) + abs(mz)) * (abs(dx) + abs(dy) + abs(dz));
  let away = false;
  let l2 = 0;
  if (mx * dx + my * dy + mz * dz > e) away = true;
  else {
    const wx = abs(my * dz - mz * dy) - e;
    const wy = abs(mz * dx - mx * dz) - e;
    const wz = abs(mx * dy - my * dx) - e;
    l2 = (wx > 0 ? wx * wx : 0) + (wy > 0 ? wy * wy : 0) + (wz > 0 ? wz * wz : 0);
  }
  const mm = mx * mx + my * my + mz * mz;
  const v = shape.axes;
  if (!Array.isArray(v) || v.length !== 3) fail(AXES, 'shape.axes');
  // as obbInto: all three read (and checked) before the error
  let ok = true;
  const a = v[0];
  if (Array.isArray(a)) {
    if (a.length === 3) {
      const x = a[0], y = a[1], z = a[2];
      if (typeof x === 'number' && typeof y === 'number' && typeof z === 'number') { ax = fround(x) * ONE; ay = fround(y) * ONE; az = fround(z) * ONE; } else ok = false;
    } else ok = false;
  } else if (typedVec3Into(a, s, 3)) { ax = s[3]; ay = s[4]; az = s[5]; } else ok = false;
  const b = v[1];
  if (Array.isArray(b)) {
    if (b.length === 3) {
      const x = b[0], y = b[1], z = b[2];
      if (typeof x === 'number' && typeof y === 'number' && typeof z === 'number') { bx = fround(x) * ONE; by = fround(y) * ONE; bz = fround(z) * ONE; } else ok = false;
    } else ok = false;
  } else if (typedVec3Into(b, s, 6)) { bx = s[6]; by = s[7]; bz = s[8]; } else ok = false;
  const c = v[2];
  if (Array.isArray(c)) {
    if (c.length === 3) {
      const x = c[0], y = c[1], z = c[2];
      if (typeof x === 'number' && typeof y === 'number' && typeof z === 'number') { cx = fround(x) * ONE; cy = fround(y) * ONE; cz = fround(z) * ONE; } else ok = false;
    } else ok = false;
  } else if (typedVec3Into(c, s, 9)) { cx = s[9]; cy = s[10]; cz = s[11]; } else ok = false;
  if (!ok) fail(AXES, 'shape.axes');
  // obbRay's orthonormality test, here, before half is read (plain arithmetic: nothing the caller
  // can see moves): its branches run while half's loads are under way, and fewer instructions
  // follow the last of the caller's loads (single.mjs: about 2 ns a call)
  const orth = abs(ax * ax + ay * ay + az * az - 1) <= T && abs(bx * bx + by * by + bz * bz - 1) <= T &&
    abs(cx * cx + cy * cy + cz * cz - 1) <= T && abs(ax * bx + ay * by + az * bz) <= T &&
    abs(ax * cx + ay * cy + az * cz) <= T && abs(bx * cx + by * cy + bz * cz) <= T;
  const hv = shape.half;
  if (Array.isArray(hv)) {
    if (hv.length !== 3) vecFail('shape.half');
    const x = hv[0], y = hv[1], z = hv[2];
    if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') vecFail('shape.half');
    h0 = fround(x) * ONE; h1 = fround(y) * ONE; h2 = fround(z) * ONE;
  } else {
    if (!typedVec3Into(hv, s, 12)) vecFail('shape.half');
    h0 = s[12]; h1 = s[13]; h2 = s[14];
  }
  // From here on none of the caller's code runs. obbRay's steps and decisions (see there), its
  // validity test split: the ball test claims a miss only for a finite origin, dir, centre and half and
  // a nonzero dir (a NaN fails its first comparison or makes its bound e NaN; an infinity makes
  // |m|^2 or e infinite, so that m.d > e fails and every |m x d| bound is NaN or below 0; a zero
  // dir leaves 0 > 0), so on a ball miss the rest of obbRay's test is tmax >= 0 and half >= 0.
  const r2 = (h0 * h0 + h1 * h1 + h2 * h2) * 1.0004 * M4; // obbRay's bounding ball
  const ball = mm * LO4 > r2 && (away || l2 * LO1 > r2 * (dx * dx + dy * dy + dz * dz) * HI1); // ballMiss's result
  let slabs = false; // a valid OBB whose bounding ball the ray meets: obbSlabs decides
  if ((ball ? r[6] >= 0 && h0 >= 0 && h1 >= 0 && h2 >= 0
    : fin(((ox + oy) + (oz + dx)) + ((dy + dz) + (c0 + c1)) + ((c2 + h0) + (h1 + h2))) &&
      r[6] >= 0 && (dx !== 0 || dy !== 0 || dz !== 0) && h0 >= 0 && h1 >= 0 && h2 >= 0 &&
      !entersBall(mx, my, mz, dx, dy, dz, h0 < h1 ? (h0 < h2 ? h0 * h0 : h2 * h2) : (h1 < h2 ? h1 * h1 : h2 * h2))) &&
      orth) {
    if (ball) return 0;
    slabs = true;
  }
  // the 15 floats in sc_shape's layout (written out: a helper V8 did not inline would take its
  // 15 doubles boxed, a heap number each)
  s[0] = c0; s[1] = c1; s[2] = c2; s[3] = ax; s[4] = ay; s[5] = az; s[6] = bx; s[7] = by; s[8] = bz;
  s[9] = cx; s[10] = cy; s[11] = cz; s[12] = h0; s[13] = h1; s[14] = h2;
  return slabs ? obbSlabs(r, s) : UNSURE;
}
