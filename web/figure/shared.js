// The one slabcast module every figure of a page shares: loaded on the first figure that
// starts (a module-level promise), never before. A figure given options.sc uses that instead.
import { loadSlabcast } from '../slabcast.js';

let shared = null;

/** The page's slabcast API, loaded once (`wasm`: where slabcast.wasm is, used by the first call). */
export function sharedSlabcast(wasm) {
  if (!shared) {
    shared = loadSlabcast({ wasm: wasm ?? new URL('../slabcast.wasm', import.meta.url) });
    // A failed load is not cached: the next figure tries again.
    shared.catch(() => { shared = null; });
  }
  return shared;
}
