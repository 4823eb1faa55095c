// The demo page of the static site (web/demo/index.html -> dist/site/demo/index.html), built by
// scripts/build-site.mjs after the playground and the tutorial into the same directory: its
// modules (web/demo/*.js, slabcast/three and the parts of three.js it uses) bundled into one
// hashed script, its stylesheet, and slabcast.wasm as a file of its own (the same bytes, so the
// same hashed name, as the playground's), all under assets/ beside the other pages' (relative
// URLs: ../assets/...).
import path from 'node:path';
import { defineConfig } from 'vite';

const ROOT = import.meta.dirname;

export default defineConfig({
  root: path.join(ROOT, 'web'),
  base: './',
  publicDir: false,
  logLevel: 'warn',
  clearScreen: false,
  build: {
    outDir: path.join(ROOT, 'dist/site'),
    emptyOutDir: false, // the playground and the tutorial are already there
    assetsDir: 'assets',
    assetsInlineLimit: 0,
    target: 'es2022',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    chunkSizeWarningLimit: 800,
    sourcemap: false,
    rollupOptions: {
      input: { demo: path.join(ROOT, 'web/demo/index.html') },
    },
  },
});
