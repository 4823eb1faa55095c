// slabcast.js: the JavaScript face of the slabcast core (web/slabcast.wasm), and its one entry
// module. It composes small modules, one concern each (docs/architecture.md):
//   core/errors.js    SlabcastError, and the guard that makes every failure one
//   core/typed.js     typed arrays read through the engine's own accessors
//   core/validate.js  structural checks of every input and of the caller's arrays
//   core/loader.js    compile and instantiate slabcast.wasm; heap views, calls, staging
//   core/queries.js   single queries: raycast, linetest, closestPoint, contains
//   core/world.js     worlds: many objects behind a BVH, one call per batch
//
// No dependencies, no bundler: it runs unchanged in Node (>= 20) and in browsers.
//
//   import { loadSlabcast } from './slabcast.js';
//   const sc = await loadSlabcast();
//   sc.raycast({ origin: [0, 0, -5], dir: [0, 0, 1] },
//              { type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] });
//   // -> { hit: true, t: 4, t_enter: 4, t_exit: 6, point: [0, 0, -1], normal: [0, 0, -1] }
//
// Inputs and outputs are the JSON shapes of docs/semantics.md (Case files), with plain JS
// numbers (every number is rounded to float32 on the way in). Nothing returned aliases wasm
// memory. Invalid input throws SlabcastError. Its message is the one the case runners print
// (docs/case-runner.md): structural problems name the field ('"ray.origin" must be an array of
// 3 numbers'), semantic ones are the core's sc_status_message ('ray.dir is zero').
import { SlabcastError, fail, guardMethods, truncateUtf8 } from './core/errors.js';
import { instantiateCore } from './core/loader.js';
import { createQueries } from './core/queries.js';
import { checkOptionKeys, isPlainObject } from './core/validate.js';
import { createWorld } from './core/world.js';

export { SlabcastError, truncateUtf8 };

/** The SIMD backend of the world kernels ('none' for a core built without worlds). */
function simdOf(core) {
  if (typeof core.ex.sc_wasm_world_simd !== 'function') return 'none';
  return core.cString(core.call(core.ex.sc_wasm_world_simd) >>> 0);
}

/**
 * Load the core and return the query API.
 * @param {{wasm?: ArrayBuffer | ArrayBufferView | URL | string | Response | WebAssembly.Module}} [options]
 */
export async function loadSlabcast(options = {}) {
  if (!isPlainObject(options)) throw new SlabcastError('options must be an object ({wasm?})', { field: 'options' });
  checkOptionKeys(options, ['wasm']);
  const core = await instantiateCore(options.wasm);
  // raycastAABB and raycast are the fast paths: they guard themselves (queries.js), so they are
  // added after the others are wrapped.
  const { raycastAABB, raycast, ...queries } = createQueries(core);
  const api = guardMethods({
    /** The module's WebAssembly.Memory (grows; never cache views of it). */
    memory: core.memory,

    /** A new, empty world of boxes, OBBs and spheres for batch queries. */
    createWorld() { return createWorld(core); },

    /** The SIMD backend of the world kernels ("wasm-simd128" or "scalar"). */
    get simd() { return simdOf(core); },

    /** The core's message for an sc_status value. */
    statusMessage(status) {
      if (!Number.isInteger(status) || status < -2147483648 || status > 2147483647) {
        fail('status must be a 32-bit integer', 'status');
      }
      return core.statusMessage(status);
    },

    ...queries,
  }, '');
  api.raycastAABB = raycastAABB;
  api.raycast = raycast;
  return api;
}
