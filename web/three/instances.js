// slabcast/three, instances: the box of one instance slot of an InstancedMesh or a BatchedMesh.
// Each slot is one entry (walk.js fixes their number when the world is made: an InstancedMesh's
// instanceMatrix.count, a BatchedMesh's maxInstanceCount). Instance i's box is the local
// bounding box (the InstancedMesh's geometry's; the BatchedMesh's getBoundingBoxAt of the
// instance's geometry) through matrixWorld x getMatrixAt(i), converted as a mesh's (shapes.js).
// Capsules: an InstancedMesh of a CapsuleGeometry is one capsule per instance (or its box under a
// non-uniform instance scale), as a mesh is (shapes.js); a BatchedMesh with
// userData.slabcast.shape 'capsule' makes each instance the capsule of its geometry's box.
// A slot never hits (K_NONE) when three.js's raycast skips it: an InstancedMesh's slots at or past
// its count; a BatchedMesh's unused, deleted or invisible instances.

import { Box3, Matrix4, Sphere } from 'three';
import { fail } from './errors.js';
import { K_NONE, boundsOf, boxThrough, isCapsuleGeometry, optInShape, readAffine, readBox, readMatrix, readSphere, sphereOf } from './shapes.js';
import { slotCount } from './walk.js';

/** Scratch for the instances of one world (state.shape.inst); owner is reset by startPass. */
export function createInstanceScratch() {
  return {
    owner: null, // the mesh whose values below were read in this pass
    pm: new Float64Array(16), // its matrixWorld
    count: 0, // InstancedMesh: its count
    empty: false, // InstancedMesh: its geometry's bounding box is empty
    min: new Float64Array(3), // InstancedMesh: its geometry's bounding box
    max: new Float64Array(3),
    mat: new Matrix4(), // getMatrixAt's target
    box: new Box3(), // getBoundingBoxAt's target
    sphere: new Sphere(), // getBoundingSphereAt's target
    opt: null, // the owner's opted-in shape (userData.slabcast.shape; shapes.js)
    auto: false, // opt is 'capsule' because the owner's geometry is a CapsuleGeometry
    ls: new Float64Array(4), // InstancedMesh with shape 'sphere': its geometry's bounding sphere
    im: new Float64Array(16), // the instance matrix, read
    // the name of the slot in messages, made only when one is thrown
    name: { base: '', id: 0, toString() { return `${this.base} instance ${this.id}`; } },
  };
}

/** Forgets what the last pass read (each pass reads every owner's matrixWorld once). */
export function startPass(s) {
  s.inst.owner = null;
}

/**
 * Computes instance slot entry k's box into out and its linear part into lin[lo..lo+8] (as
 * shapes.js's computeEntry); returns its kind. st: the world's state.
 */
export function computeInstance(st, k, out, lin, lo) {
  const s = st.shape;
  const is = s.inst;
  const obj = st.entries[k];
  if (is.owner !== obj) readOwner(st, is, obj, st.names[k]);
  is.name.base = st.names[k];
  is.name.id = st.inst[k];
  s.opt = is.opt;
  s.auto = is.auto;
  s.geom = obj.isBatchedMesh ? null : obj.geometry; // (a BatchedMesh's capsules: from their boxes)
  const live = obj.isBatchedMesh ? batchedSlot(s, is, obj, st.inst[k]) : instancedSlot(s, is, st.inst[k]);
  if (!live) {
    s.m.set(is.pm); // the placeholder sits at the mesh's position
    lin.fill(0, lo, lo + 9);
    return K_NONE;
  }
  multiply(s.m, is.pm, readAffine(is.im, obj.getMatrixAt(st.inst[k], is.mat), is.name, 'instance matrix'));
  return boxThrough(s, is.name, st.shear, out, lin, lo);
}

/** Reads what the slots of obj share (once per pass): matrixWorld, and the slot count checks. */
function readOwner(st, is, obj, name) {
  const cap = slotCount(obj, name);
  const was = st.capacity.get(obj);
  if (cap !== was) {
    const what = obj.isBatchedMesh ? 'maxInstanceCount' : 'instanceMatrix.count';
    fail(`${name}: its ${what} is ${cap}, it was ${was} when the world was made (the number of instance slots is fixed: make a new world)`, name);
  }
  readMatrix(is.pm, obj, name);
  is.opt = optInShape(obj, name);
  is.auto = is.opt === null && !obj.isBatchedMesh && isCapsuleGeometry(obj.geometry);
  if (is.auto) is.opt = 'capsule';
  if (!obj.isBatchedMesh) {
    const count = obj.count;
    if (!Number.isInteger(count) || count < 0 || count > cap) fail(`${name}: its count must be an integer in [0, ${cap}] (instanceMatrix.count)`, name);
    is.count = count;
    if (is.opt === 'sphere') {
      is.empty = !readSphere(st.shape, sphereOf(obj, name), name); // the geometry's, not the instances'
      is.ls.set(st.shape.ls);
    } else {
      is.empty = !readBox(st.shape, boundsOf(obj, name), name);
      is.min.set(st.shape.tmpMin);
      is.max.set(st.shape.tmpMax);
    }
  } else if (!Array.isArray(obj._instanceInfo)) {
    fail(`${name}: a BatchedMesh without _instanceInfo (three.js r166 or newer is needed)`, name);
  }
  is.owner = obj;
}

/** InstancedMesh slot i: whether it can hit (below count, a box); the local box into s.tmp*. */
function instancedSlot(s, is, i) {
  if (i >= is.count || is.empty) return false;
  if (is.opt === 'sphere') {
    s.ls.set(is.ls);
    return true;
  }
  s.tmpMin.set(is.min);
  s.tmpMax.set(is.max);
  return true;
}

/** BatchedMesh slot i: whether it can hit (an active, visible instance); its local box into s.tmp*. */
function batchedSlot(s, is, obj, i) {
  const info = obj._instanceInfo;
  if (i >= info.length || !info[i] || info[i].active === false) return false;
  if (!obj.getVisibleAt(i)) return false;
  if (is.opt === 'sphere') {
    const sp = obj.getBoundingSphereAt(obj.getGeometryIdAt(i), is.sphere);
    return sp !== null && readSphere(s, sp, is.name);
  }
  const box = obj.getBoundingBoxAt(obj.getGeometryIdAt(i), is.box);
  if (box === null) return false;
  return readBox(s, box, is.name);
}

/** m = a * b (column-major 4x4, affine); returns m. */
function multiply(m, a, b) {
  for (let c = 0; c < 4; c++) {
    const b0 = b[4 * c];
    const b1 = b[4 * c + 1];
    const b2 = b[4 * c + 2];
    const b3 = b[4 * c + 3];
    for (let r = 0; r < 4; r++) m[4 * c + r] = a[r] * b0 + a[4 + r] * b1 + a[8 + r] * b2 + a[12 + r] * b3;
  }
  return m;
}
