// queries.js: the single queries (one ray, segment or point against one shape): inputs checked,
// written into the core's scratch area as the C structs of slabcast.h, one export called, and
// the result struct copied out into fresh JS objects (nothing returned aliases wasm memory).
import { checkRay, checkSegment, checkShape, requireVec3 } from './validate.js';

/** sc_shape_type values of the C header slabcast.h. */
const SHAPE_TYPES = { aabb: 1, obb: 2, sphere: 3, plane: 4 };

// Byte offsets inside the scratch area (sc_wasm_scratch, SC_WASM_SCRATCH_BYTES).
const IN_OFF = 0; //      sc_ray (28 bytes) / sc_segment (24) / sc_vec3 (12)
const SHAPE_OFF = 64; //  sc_shape (64)
const OUT_OFF = 128; //   sc_raycast_result (44) / sc_test_result (8) / sc_point_result (16)

function writeVec(f32, word, v) {
  f32[word] = v[0];
  f32[word + 1] = v[1];
  f32[word + 2] = v[2];
}

function readVec(f32, word) {
  return [f32[word], f32[word + 1], f32[word + 2]];
}

/** Writes a checked shape (the copy checkShape returns) as an sc_shape at byte address p. */
function writeShape(core, p, shape) {
  const { f32, i32 } = core;
  const w = p >> 2;
  for (let i = 0; i < 16; i++) i32[w + i] = 0;
  i32[w] = SHAPE_TYPES[shape.type];
  switch (shape.type) {
    case 'aabb':
      writeVec(f32, w + 1, shape.min);
      writeVec(f32, w + 4, shape.max);
      break;
    case 'obb':
      writeVec(f32, w + 1, shape.center);
      writeVec(f32, w + 4, shape.axes[0]);
      writeVec(f32, w + 7, shape.axes[1]);
      writeVec(f32, w + 10, shape.axes[2]);
      writeVec(f32, w + 13, shape.half);
      break;
    case 'sphere':
      writeVec(f32, w + 1, shape.center);
      f32[w + 4] = shape.radius;
      break;
    case 'plane':
      writeVec(f32, w + 1, shape.normal);
      f32[w + 4] = shape.d;
      break;
  }
}

/**
 * Runs fn(in, shape, out) on the core with `write` filling the input struct, then checks the
 * status. Returns the word address of the result struct, valid until the next call.
 */
function run(core, fn, shape, write) {
  const inPtr = core.scratch + IN_OFF;
  const shapePtr = core.scratch + SHAPE_OFF;
  const outPtr = core.scratch + OUT_OFF;
  core.views();
  write(core.f32, inPtr >> 2);
  writeShape(core, shapePtr, shape);
  core.call(fn, inPtr, shapePtr, outPtr);
  core.views();
  const outWord = outPtr >> 2;
  core.checkStatus(core.i32[outWord]);
  return outWord;
}

/** The single queries of one core: raycast, linetest, closestPoint, contains. */
export function createQueries(core) {
  const ex = core.ex;
  return {
    raycast(ray, shape) {
      const r = checkRay(ray);
      const s = checkShape(shape);
      const out = run(core, ex.sc_wasm_raycast, s, (f32, w) => {
        writeVec(f32, w, r.origin);
        writeVec(f32, w + 3, r.dir);
        f32[w + 6] = r.tmax;
      });
      const { f32, i32 } = core;
      if (i32[out + 1] === 0) return { hit: false };
      return {
        hit: true,
        t: f32[out + 2],
        t_enter: f32[out + 3],
        t_exit: f32[out + 4],
        point: readVec(f32, out + 5),
        normal: readVec(f32, out + 8),
      };
    },

    linetest(segment, shape) {
      const g = checkSegment(segment);
      const s = checkShape(shape);
      const out = run(core, ex.sc_wasm_linetest, s, (f32, w) => {
        writeVec(f32, w, g.a);
        writeVec(f32, w + 3, g.b);
      });
      return { hit: core.i32[out + 1] !== 0 };
    },

    closestPoint(point, shape) {
      const p = requireVec3(point, 'point');
      const s = checkShape(shape);
      const out = run(core, ex.sc_wasm_closest_point, s, (f32, w) => writeVec(f32, w, p));
      return { point: readVec(core.f32, out + 1) };
    },

    contains(point, shape) {
      const p = requireVec3(point, 'point');
      const s = checkShape(shape);
      const out = run(core, ex.sc_wasm_contains, s, (f32, w) => writeVec(f32, w, p));
      return { inside: core.i32[out + 1] !== 0 };
    },
  };
}
