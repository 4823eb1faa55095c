// slabcast/three, shapes: what slabcast shape stands for one entry. A mesh's bounding box
// through its matrixWorld becomes an axis-aligned box (no rotation), an oriented box (a
// rotation) or the AABB bound of a sheared box; a Box3 is an axis-aligned box; a singular
// matrix or an empty box is a placeholder that never hits. Each record is written as the
// float array the core's addAABBs / addOBBs / addSpheres take (6, 15 or 4 floats).
// A mesh opts into its shape with userData.slabcast = { shape }:
//   'aabb'    the world AABB of its box (exact without rotation; with one, the AABB of the 8
//             transformed corners, kind 'bound': what was asked for, larger than the mesh);
//   'obb'     an oriented box even without rotation (shear still gives the bound, or throws);
//   'sphere'  the geometry's boundingSphere through matrixWorld: centre M c, radius r times the
//             scale, which must be uniform (column lengths equal within 1e-6 relative, columns
//             orthogonal); any other matrixWorld is refused with a SlabcastError naming the
//             mesh (use 'obb' for such a mesh): a sphere cannot stand for an ellipsoid.
//   'capsule' the capsule of its local bounding box (below) through matrixWorld, which must be a
//             rotation and a uniform scale (as for 'sphere'; anything else is refused naming the
//             mesh: a capsule under a non-uniform scale is no capsule).
// Capsules (kind 'capsule', the core's capsule: a segment and a radius). A mesh whose geometry is
// a CapsuleGeometry is one without asking (unless it opts into another shape): the capsule of the
// geometry's parameters, radius r and the segment (0, -height/2, 0) to (0, height/2, 0) (three's
// CapsuleGeometry stands along local +y, centred), when its bounding box fits that capsule (y from
// -(height/2 + r) to height/2 + r, x and z within [-r, r], within 1e-6 relative; exact whatever
// its radial segments); a CapsuleGeometry whose vertices were moved since (geometry.translate,
// scale...) takes the capsule of its bounding box instead. Through a matrixWorld that is not a
// rotation with a uniform scale (a character squashed along y, say) such a mesh falls back to its
// box (an AABB, OBB or bound as any mesh, and kindOf says so): only the opt-in refuses.
// The capsule of a local bounding box (centre c, half extents h): its axis is the box's longest
// axis (ties: y, then x, then z), through c; its radius the larger of the two other half extents;
// the segment's half length the longest half extent minus the radius (0 when negative: a sphere).
// It is exact for a CapsuleGeometry whose radial segments are a multiple of 4 (the box then
// touches the capsule on every side); for other shapes it is a stand-in, not a bound.

import { fail, isNum } from './errors.js';

/** The kind a record is stored as in the core world. */
export const AABB = 0;
export const OBB = 1;
export const SPHERE = 2;
export const CAPSULE = 3;
/** Floats per record of each stored kind. */
export const FLOATS = [6, 15, 4, 7];

/** The kinds reported by kindOf (K_* index KIND_NAMES). */
export const KIND_NAMES = ['aabb', 'obb', 'bound', 'none', 'sphere', 'capsule'];
export const K_AABB = 0;
export const K_OBB = 1;
export const K_BOUND = 2;
export const K_NONE = 3;
export const K_SPHERE = 4;
export const K_CAPSULE = 5;

/** The shapes a mesh may opt into (userData.slabcast.shape). */
const OPT_SHAPES = ['aabb', 'obb', 'sphere', 'capsule'];

/** Largest |cos| between two matrix columns for a rotation (an oriented box). */
const ORTHO_TOL = 1e-6;

/** Scratch for computeEntry (one per world); m holds the last mesh's matrixWorld. */
export function createShapeScratch() {
  return {
    lc: new Float64Array(3), // local box centre
    lh: new Float64Array(3), // local box half extents
    m: new Float64Array(16), // matrixWorld, column-major
    tmpMin: new Float64Array(3),
    tmpMax: new Float64Array(3),
    colLen: new Float64Array(3),
    ls: new Float64Array(4), // a local bounding sphere: centre, radius
    opt: null, // the current mesh's opted-in shape (null: its box, as computed)
    auto: false, // opt is 'capsule' because the geometry is a CapsuleGeometry (not asked for)
    geom: null, // the current mesh's geometry (a CapsuleGeometry's parameters), or null
    lcap: new Float64Array(7), // a local capsule: a xyz, b xyz, radius
  };
}

/**
 * Computes entry k's box into out (AABB: 6 floats; OBB: 15) and the linear part of its
 * matrixWorld into lin[lo..lo+8] (row-major); returns its kind (K_*). Throws naming the entry.
 * st: { entries, names, isBox, shear, shape } (the world's state).
 */
export function computeEntry(st, k, out, lin, lo) {
  const name = st.names[k];
  if (st.isBox[k]) return computeBox(st.shape, st.entries[k], name, out, lin, lo);
  return computeMesh(st.shape, st.entries[k], name, st.shear, out, lin, lo);
}

/** A Box3 entry: its min/max as an AABB; the identity as its linear part. */
function computeBox(s, box, name, out, lin, lo) {
  if (!readBox(s, box, name)) return K_NONE;
  for (let a = 0; a < 3; a++) {
    out[a] = s.tmpMin[a];
    out[3 + a] = s.tmpMax[a];
  }
  lin.fill(0, lo, lo + 9);
  lin[lo] = lin[lo + 4] = lin[lo + 8] = 1;
  return checkRange(out, 6, name, K_AABB);
}

/** A Mesh entry: its bounding box (or opted-in shape) through its matrixWorld. */
function computeMesh(s, obj, name, shear, out, lin, lo) {
  readMatrix(s.m, obj, name);
  s.opt = optInShape(obj, name);
  s.geom = obj.geometry;
  s.auto = s.opt === null && isCapsuleGeometry(s.geom);
  if (s.auto) s.opt = 'capsule';
  if (s.opt === 'sphere') {
    if (!readSphere(s, sphereOf(obj, name), name)) {
      linearPart(s.m, lin, lo);
      return K_NONE;
    }
    return sphereThrough(s, name, out, lin, lo);
  }
  if (!readBox(s, boundsOf(obj, name), name)) {
    linearPart(s.m, lin, lo);
    return K_NONE;
  }
  return boxThrough(s, name, shear, out, lin, lo);
}

/** The linear part of the column-major m, row-major into lin[lo..lo+8]: lin[3r + c] = m[4c + r]. */
function linearPart(m, lin, lo) {
  for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) lin[lo + 3 * r + c] = m[4 * c + r];
}

/**
 * The local box read last (s.tmpMin, s.tmpMax; not empty) through the matrix s.m, into out;
 * its linear part into lin. Returns the kind: K_NONE for a singular matrix (three.js never
 * hits it), else as transformedBox.
 */
export function boxThrough(s, name, shear, out, lin, lo) {
  const m = s.m;
  linearPart(m, lin, lo);
  if (s.opt === 'sphere') return sphereThrough(s, name, out, lin, lo);
  for (let a = 0; a < 3; a++) {
    s.lc[a] = (s.tmpMin[a] + s.tmpMax[a]) / 2;
    s.lh[a] = (s.tmpMax[a] - s.tmpMin[a]) / 2;
  }
  const det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) +
    m[8] * (m[1] * m[6] - m[2] * m[5]);
  if (det === 0 || !Number.isFinite(det)) return K_NONE;
  if (s.opt === 'capsule') {
    const kind = capsuleThrough(s, name, out);
    if (kind >= 0) return kind;
    s.opt = null; // a CapsuleGeometry under a non-uniform scale: its box, as any mesh
  }
  return transformedBox(s, name, shear, out);
}

/** Reads obj.matrixWorld into m (each element once); throws unless finite and affine. */
export function readMatrix(m, obj, name) {
  readAffine(m, obj.matrixWorld, name, 'matrixWorld');
}

/** Reads a Matrix4 into m (each element once) and returns m; throws naming what unless finite and affine. */
export function readAffine(m, mw, name, what) {
  const e = mw && mw.elements;
  if (!e || typeof e.length !== 'number' || e.length !== 16) fail(`${name}: ${what} must be a Matrix4`, name);
  for (let i = 0; i < 16; i++) {
    const v = e[i];
    if (!isNum(v) || !Number.isFinite(v)) fail(`${name}: ${what} is not finite`, name);
    m[i] = v;
  }
  if (m[3] !== 0 || m[7] !== 0 || m[11] !== 0 || m[15] !== 1) {
    fail(`${name}: a projective ${what} (bottom row not 0, 0, 0, 1) is not supported`, name);
  }
  return m;
}

/** The mesh's bounding box: a SkinnedMesh's own, else its geometry's (computed when null). */
export function boundsOf(obj, name) {
  if (obj.isSkinnedMesh) {
    if (obj.boundingBox === null || obj.boundingBox === undefined) obj.computeBoundingBox();
    return obj.boundingBox;
  }
  const g = obj.geometry;
  if (g === null || typeof g !== 'object' || g.isBufferGeometry !== true) fail(`${name} has no geometry`, name);
  if (g.boundingBox === null || g.boundingBox === undefined) {
    if (!g.attributes || !g.attributes.position) fail(`${name}: its geometry has no position attribute (and no boundingBox)`, name);
    g.computeBoundingBox();
  }
  return g.boundingBox;
}

/** Reads a Box3-like min/max into s.tmpMin/s.tmpMax (each value read once); false when empty. */
export function readBox(s, b, name) {
  const mn = b === null || typeof b !== 'object' ? null : b.min;
  const mx = b === null || typeof b !== 'object' ? null : b.max;
  if (mn === null || typeof mn !== 'object' || mx === null || typeof mx !== 'object') {
    fail(`${name}: its bounding box must be a Box3`, name);
  }
  const x0 = mn.x, y0 = mn.y, z0 = mn.z, x1 = mx.x, y1 = mx.y, z1 = mx.z;
  if (!isNum(x0) || !isNum(y0) || !isNum(z0) || !isNum(x1) || !isNum(y1) || !isNum(z1)) {
    fail(`${name}: its bounding box must be a Box3 of numbers`, name);
  }
  s.tmpMin[0] = x0; s.tmpMin[1] = y0; s.tmpMin[2] = z0;
  s.tmpMax[0] = x1; s.tmpMax[1] = y1; s.tmpMax[2] = z1;
  // empty (three.js's isEmpty: max < min on some axis) before finiteness: new Box3() is +-Infinity
  if (x1 < x0 || y1 < y0 || z1 < z0) return false;
  if (!Number.isFinite(x0) || !Number.isFinite(y0) || !Number.isFinite(z0) ||
      !Number.isFinite(x1) || !Number.isFinite(y1) || !Number.isFinite(z1)) {
    fail(`${name}: its bounding box is not finite`, name);
  }
  return true;
}

/**
 * The local box (s.lc, s.lh) through the non-singular s.m: an AABB without rotation, an OBB
 * with a rotation, the AABB bound of the 8 corners with shear (or a throw, shear: 'throw').
 */
function transformedBox(s, name, shear, out) {
  const { m, lc, lh } = s;
  const cx = m[0] * lc[0] + m[4] * lc[1] + m[8] * lc[2] + m[12];
  const cy = m[1] * lc[0] + m[5] * lc[1] + m[9] * lc[2] + m[13];
  const cz = m[2] * lc[0] + m[6] * lc[1] + m[10] * lc[2] + m[14];
  if (s.opt !== 'obb' && axisAligned(m)) return worldAabb(m, lh, cx, cy, cz, out, name, K_AABB);
  if (s.opt === 'aabb') return worldAabb(m, lh, cx, cy, cz, out, name, K_BOUND); // asked for: the corners' AABB
  const len = s.colLen;
  for (let c = 0; c < 3; c++) len[c] = Math.hypot(m[4 * c], m[4 * c + 1], m[4 * c + 2]);
  let maxCos = 0;
  for (let a = 0; a < 3; a++) {
    for (let b = a + 1; b < 3; b++) {
      const dot = m[4 * a] * m[4 * b] + m[4 * a + 1] * m[4 * b + 1] + m[4 * a + 2] * m[4 * b + 2];
      maxCos = Math.max(maxCos, Math.abs(dot) / (len[a] * len[b]));
    }
  }
  if (maxCos <= ORTHO_TOL) {
    out[0] = cx; out[1] = cy; out[2] = cz;
    for (let c = 0; c < 3; c++) {
      out[3 + 3 * c] = m[4 * c] / len[c];
      out[4 + 3 * c] = m[4 * c + 1] / len[c];
      out[5 + 3 * c] = m[4 * c + 2] / len[c];
      out[12 + c] = lh[c] * len[c];
    }
    return checkRange(out, 15, name, K_OBB);
  }
  if (shear === 'throw') {
    fail(`${name}: its matrixWorld has shear (columns at cos ${maxCos.toPrecision(3)}), which an oriented box cannot represent`, name);
  }
  return worldAabb(m, lh, cx, cy, cz, out, name, K_BOUND); // the 8 corners of the sheared box
}

/** userData.slabcast.shape of obj (null when it has none); throws naming obj unless a known shape. */
export function optInShape(obj, name) {
  const ud = obj.userData;
  const sc = ud !== null && typeof ud === 'object' ? ud.slabcast : undefined;
  if (sc === undefined || sc === null) return null;
  const shape = typeof sc === 'object' ? sc.shape : undefined;
  if (shape === undefined) return null;
  if (!OPT_SHAPES.includes(shape)) fail(`${name}: userData.slabcast.shape must be 'sphere', 'capsule', 'obb' or 'aabb'`, name);
  return shape;
}

/** The mesh's bounding sphere: a SkinnedMesh's own, else its geometry's (computed when null). */
export function sphereOf(obj, name) {
  if (obj.isSkinnedMesh) {
    if (obj.boundingSphere === null || obj.boundingSphere === undefined) obj.computeBoundingSphere();
    return obj.boundingSphere;
  }
  const g = obj.geometry;
  if (g === null || typeof g !== 'object' || g.isBufferGeometry !== true) fail(`${name} has no geometry`, name);
  if (g.boundingSphere === null || g.boundingSphere === undefined) {
    if (!g.attributes || !g.attributes.position) fail(`${name}: its geometry has no position attribute (and no boundingSphere)`, name);
    g.computeBoundingSphere();
  }
  return g.boundingSphere;
}

/** Reads a Sphere into s.ls (each value once); false when empty (radius < 0, as three.js's). */
export function readSphere(s, sp, name) {
  const c = sp === null || typeof sp !== 'object' ? null : sp.center;
  if (c === null || typeof c !== 'object') fail(`${name}: its bounding sphere must be a Sphere`, name);
  const x = c.x, y = c.y, z = c.z, r = sp.radius;
  if (!isNum(x) || !isNum(y) || !isNum(z) || !isNum(r)) fail(`${name}: its bounding sphere must be a Sphere of numbers`, name);
  if (r < 0) return false;
  if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z) || !Number.isFinite(r)) fail(`${name}: its bounding sphere is not finite`, name);
  s.ls[0] = x; s.ls[1] = y; s.ls[2] = z; s.ls[3] = r;
  return true;
}

/** Relative tolerance on the column lengths of a uniform scale. */
const UNIFORM_TOL = 1e-6;

/**
 * The local sphere s.ls through s.m (a rotation and a uniform scale) into out (centre, radius);
 * its linear part into lin. K_NONE for a singular matrix; throws naming the mesh otherwise.
 */
function sphereThrough(s, name, out, lin, lo) {
  const m = s.m;
  const c = s.ls;
  linearPart(m, lin, lo);
  const hi = similarScale(s);
  if (hi === 0) return K_NONE;
  if (hi < 0) fail(notUniform(s, name, 'sphere'), name);
  out[0] = m[0] * c[0] + m[4] * c[1] + m[8] * c[2] + m[12];
  out[1] = m[1] * c[0] + m[5] * c[1] + m[9] * c[2] + m[13];
  out[2] = m[2] * c[0] + m[6] * c[1] + m[10] * c[2] + m[14];
  out[3] = c[3] * hi;
  return checkRange(out, 4, name, K_SPHERE);
}

/**
 * The scale of s.m when it is a rotation (or mirror) times a uniform scale (column lengths equal
 * within UNIFORM_TOL relative, columns orthogonal within ORTHO_TOL): its largest column length;
 * 0 for a singular matrix; -1 otherwise. The column lengths stay in s.colLen.
 */
function similarScale(s) {
  const m = s.m;
  const len = s.colLen;
  for (let k = 0; k < 3; k++) len[k] = Math.hypot(m[4 * k], m[4 * k + 1], m[4 * k + 2]);
  const hi = Math.max(len[0], len[1], len[2]);
  const lowest = Math.min(len[0], len[1], len[2]);
  if (lowest === 0) return 0;
  let maxCos = 0;
  for (let a = 0; a < 3; a++) {
    for (let b = a + 1; b < 3; b++) {
      const dot = m[4 * a] * m[4 * b] + m[4 * a + 1] * m[4 * b + 1] + m[4 * a + 2] * m[4 * b + 2];
      maxCos = Math.max(maxCos, Math.abs(dot) / (len[a] * len[b]));
    }
  }
  return hi - lowest > UNIFORM_TOL * hi || maxCos > ORTHO_TOL ? -1 : hi;
}

/** The message refusing an opted-in shape under a matrixWorld that is not a similarity. */
function notUniform(s, name, shape) {
  const len = s.colLen;
  return `${name}: userData.slabcast.shape '${shape}' needs a rotation and a uniform scale in its matrixWorld (column lengths ${len[0].toPrecision(6)}, ${len[1].toPrecision(6)}, ${len[2].toPrecision(6)}); use 'obb'`;
}

/** Whether g is a three.js CapsuleGeometry (its type and parameters). */
export function isCapsuleGeometry(g) {
  return g !== null && typeof g === 'object' && g.type === 'CapsuleGeometry' && g.parameters !== null && typeof g.parameters === 'object';
}

/**
 * The local capsule of the mesh read last into s.lcap: a CapsuleGeometry's parameters when its
 * bounding box (s.tmpMin, s.tmpMax) is theirs, else the capsule of that box (see the top).
 */
function localCapsule(s) {
  const c = s.lcap;
  const g = s.geom;
  if (isCapsuleGeometry(g)) {
    const r = g.parameters.radius;
    const h = Math.max(0, g.parameters.height ?? g.parameters.length); // (three.js before r163: length)
    if (isNum(r) && isNum(h) && r >= 0 && Number.isFinite(r + h) && within(s, 0, r) && matches(s, 1, -(h / 2 + r), h / 2 + r) && within(s, 2, r)) {
      c[0] = 0; c[1] = -h / 2; c[2] = 0; c[3] = 0; c[4] = h / 2; c[5] = 0; c[6] = r;
      return;
    }
  }
  const lh = s.lh;
  const lc = s.lc;
  // the longest axis, ties to y, then x, then z
  let ax = 1;
  if (lh[0] > lh[ax]) ax = 0;
  if (lh[2] > lh[ax]) ax = 2;
  const r = Math.max(lh[(ax + 1) % 3], lh[(ax + 2) % 3]);
  const half = Math.max(0, lh[ax] - r);
  for (let i = 0; i < 3; i++) {
    c[i] = lc[i] - (i === ax ? half : 0);
    c[3 + i] = lc[i] + (i === ax ? half : 0);
  }
  c[6] = r;
}

/**
 * Whether the local box's axis `a` lies within [-r, r] (1e-6 relative): the tube's cross-section
 * (its radial segments may not reach +-r on x or z: 5 segments reach 0.809 r on one side).
 */
function within(s, a, r) {
  const tol = 1e-6 * r;
  return s.tmpMin[a] >= -r - tol && s.tmpMax[a] <= r + tol;
}

/** Whether the local box's axis `a` runs from lo to hi within 1e-6 relative (of the larger extent). */
function matches(s, a, lo, hi) {
  const tol = 1e-6 * Math.max(Math.abs(lo), Math.abs(hi), Math.abs(s.tmpMax[a] - s.tmpMin[a]));
  return Math.abs(s.tmpMin[a] - lo) <= tol && Math.abs(s.tmpMax[a] - hi) <= tol;
}

/**
 * The mesh's capsule (local capsule through the non-singular s.m) into out (a, b, radius):
 * K_CAPSULE; -1 when s.m is not a similarity and the capsule was not asked for (s.auto: the
 * caller falls back to the box); throws naming the mesh when it was.
 */
function capsuleThrough(s, name, out) {
  const hi = similarScale(s);
  if (hi <= 0) {
    if (s.auto) return -1;
    fail(notUniform(s, name, 'capsule'), name);
  }
  localCapsule(s);
  const m = s.m;
  const c = s.lcap;
  for (let e = 0; e < 2; e++) {
    const x = c[3 * e];
    const y = c[3 * e + 1];
    const z = c[3 * e + 2];
    out[3 * e] = m[0] * x + m[4] * y + m[8] * z + m[12];
    out[3 * e + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
    out[3 * e + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
  }
  out[6] = c[6] * hi;
  return checkRange(out, 7, name, K_CAPSULE);
}

/** Every column has a single non-zero entry (with det != 0 they are distinct rows). */
function axisAligned(m) {
  for (let c = 0; c < 3; c++) {
    let nz = 0;
    for (let r = 0; r < 3; r++) if (m[4 * c + r] !== 0) nz++;
    if (nz !== 1) return false;
  }
  return true;
}

/**
 * The world AABB of the local box (centre mapped to cx, cy, cz; half extents lh) through the
 * matrix m: each world half extent is the sum of |column entries| times the local half extents.
 * Exact for an axis-aligned m, the bound of the 8 corners otherwise.
 */
function worldAabb(m, lh, cx, cy, cz, out, name, kind) {
  let hx = 0;
  let hy = 0;
  let hz = 0;
  for (let c = 0; c < 3; c++) {
    hx += Math.abs(m[4 * c]) * lh[c];
    hy += Math.abs(m[4 * c + 1]) * lh[c];
    hz += Math.abs(m[4 * c + 2]) * lh[c];
  }
  out[0] = cx - hx; out[1] = cy - hy; out[2] = cz - hz;
  out[3] = cx + hx; out[4] = cy + hy; out[5] = cz + hz;
  return checkRange(out, 6, name, kind);
}

function checkRange(out, count, name, kind) {
  for (let i = 0; i < count; i++) {
    if (!Number.isFinite(Math.fround(out[i]))) fail(`${name}: its world bounds exceed the float32 range`, name);
  }
  return kind;
}

/**
 * The placeholder of an inactive entry (right after computeEntry for it): a point, never
 * reported, in the stored kind; a mesh's is at its position (s.m still holds its matrixWorld).
 */
export function placeholder(s, isBoxEntry, kind, out) {
  let x = 0;
  let y = 0;
  let z = 0;
  if (!isBoxEntry) {
    const fin = (v) => (Number.isFinite(Math.fround(v)) ? Math.fround(v) : 0);
    x = fin(s.m[12]);
    y = fin(s.m[13]);
    z = fin(s.m[14]);
  }
  out.fill(0);
  if (kind === SPHERE) {
    out[0] = x; out[1] = y; out[2] = z; // a point: radius 0
  } else if (kind === CAPSULE) {
    out[0] = out[3] = x; // a point: both ends there, radius 0
    out[1] = out[4] = y;
    out[2] = out[5] = z;
  } else if (kind === AABB) {
    out[0] = out[3] = x;
    out[1] = out[4] = y;
    out[2] = out[5] = z;
  } else {
    out[0] = x; out[1] = y; out[2] = z;
    out[3] = 1; out[7] = 1; out[11] = 1;
  }
}

/** Rewrites the AABB record in row (min, max) as the same box's OBB record (15 floats). */
export function aabbAsObb(row) {
  row[0] = (row[0] + row[3]) / 2; row[1] = (row[1] + row[4]) / 2; row[2] = (row[2] + row[5]) / 2;
  const hx = row[3] - row[0];
  const hy = row[4] - row[1];
  const hz = row[5] - row[2];
  row.fill(0, 3);
  row[3] = 1; row[7] = 1; row[11] = 1;
  row[12] = hx; row[13] = hy; row[14] = hz;
}

/** kindOf(index): the name of entry index's kind in kinds. */
export function kindName(kinds, n, index) {
  if (!Number.isInteger(index) || index < 0 || index >= n) fail(`index must be an integer in [0, ${n})`, 'index');
  return KIND_NAMES[kinds[index]];
}
