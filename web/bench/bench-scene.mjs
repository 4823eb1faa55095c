// The benchmark's seeded scene (tools/bench_scene.h), computed by the same C code as the native
// bench_world so that both measure the same boxes and rays. It lives in a wasm module of its own,
// build/wasm/slabcast-bench.wasm (tools/wasm_bench_scene.c): the product module slabcast.wasm
// holds no benchmark code. Node only (the benchmark runs there).
import { readFile } from 'node:fs/promises';

const DEFAULT_WASM = new URL('../../build/wasm/slabcast-bench.wasm', import.meta.url);
const MAX_ITEMS = 16777216;

/**
 * Loads the scene module; returns benchScene(n, nrays) -> { boxes: Float32Array (6 per box),
 * rays: Float32Array (7 per ray) }, fresh arrays that do not alias wasm memory.
 * @param {string | URL} [wasm]
 */
export async function loadBenchScene(wasm = DEFAULT_WASM) {
  let bytes;
  try {
    bytes = await readFile(wasm);
  } catch (e) {
    throw new Error(`cannot read ${wasm} (build it with npm run build): ${e.message}`, { cause: e });
  }
  const { instance } = await WebAssembly.instantiate(bytes, {
    env: { emscripten_notify_memory_growth() {} },
  });
  const ex = instance.exports;
  ex._initialize?.();
  return function benchScene(n, nrays) {
    for (const [name, v] of [['n', n], ['nrays', nrays]]) {
      if (!Number.isInteger(v) || v < 0 || v > MAX_ITEMS) throw new RangeError(`${name} must be an integer in [0, ${MAX_ITEMS}]`);
    }
    const bytesNeeded = 24 * n + 28 * nrays + 16;
    const p = ex.scb_alloc(bytesNeeded) >>> 0;
    if (p === 0) throw new RangeError(`out of memory for a scene of ${n} boxes and ${nrays} rays`);
    try {
      ex.scb_scene(n, p, nrays, p + 24 * n);
      // Views made after the call: the allocation may have grown (and replaced) the buffer.
      const boxes = new Float32Array(ex.memory.buffer, p, 6 * n).slice();
      const rays = new Float32Array(ex.memory.buffer, p + 24 * n, 7 * nrays).slice();
      return { boxes, rays };
    } finally {
      ex.scb_free(p);
    }
  };
}
