// A page bundled by Vite: loads slabcast twice (the default: slabcast.wasm found beside
// the module through new URL(..., import.meta.url); and options.wasm from Vite's ?url
// import of the package's ./slabcast.wasm export), runs a raycast with each and writes
// the results into #out for the test to read.
import { loadSlabcast } from 'slabcast';
import wasmUrl from 'slabcast/slabcast.wasm?url';

const ray = { origin: [-3, 0.5, 0.25], dir: [2, 0, 0] };
const box = { type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] };
const out = document.getElementById('out');
try {
  const sc = await loadSlabcast();
  const explicit = await loadSlabcast({ wasm: wasmUrl });
  out.textContent = JSON.stringify({ default: sc.raycast(ray, box), explicit: explicit.raycast(ray, box), wasmUrl });
} catch (e) {
  out.textContent = JSON.stringify({ error: String(e && e.message ? e.message : e) });
}
document.body.dataset.ready = 'true';
