// floor-worker.js: the worker of web/bench/parallel-floor.mjs, the same module in Node and in a
// page. It holds a World; each message is one ArrayBuffer, transferred both ways: int32 word 0
// is the number of rays (0: send it straight back, nothing cast), the rays from byte 16, and
// the answers (t, index, normal) written after them. No checks: a benchmark, not the library.
import { loadSlabcast } from '../slabcast.js';

const isNode = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';
let post;
let world = null;
const onMessage = async (m) => {
  if (!(m instanceof ArrayBuffer)) {
    const sc = await loadSlabcast({ wasm: m.module });
    world = sc.createWorld();
    world.addAABBs(m.boxes);
    post('ready');
    return;
  }
  const n = new Int32Array(m, 0, 1)[0];
  if (n > 0) {
    const at = 16 + 28 * n;
    world.castRays(new Float32Array(m, 16, 7 * n),
      { t: new Float32Array(m, at, n), index: new Int32Array(m, at + 4 * n, n), normal: new Float32Array(m, at + 8 * n, 3 * n) });
  }
  post(m, [m]);
};
if (isNode) {
  const { parentPort } = process.getBuiltinModule('node:worker_threads');
  post = (m, t) => parentPort.postMessage(m, t);
  parentPort.on('message', onMessage);
} else {
  post = (m, t) => self.postMessage(m, t);
  self.onmessage = (e) => onMessage(e.data);
}
