// Only for `vite` (the dev server): its dependency pre-bundling moves slabcast.js away
// from slabcast.wasm, so keep slabcast out of it. `vite build` needs no configuration.
export default {
  optimizeDeps: { exclude: ['slabcast'] },
};
