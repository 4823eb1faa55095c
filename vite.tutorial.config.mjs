// The tutorial page of the static site (docs/tutorial.html -> dist/site/tutorial.html), built
// by scripts/build-site.mjs after the playground page (vite.site.config.mjs) into the same
// directory: its figures (slabcast/figure, web/figure.js) and its scenes
// (docs/tutorial-figures.mjs) bundled into one hashed script, web/figure.css into a hashed
// stylesheet, and slabcast.wasm as a file of its own (the same bytes, so the same hashed name,
// as the playground's). No three.js: the first load stays within 150 KB of gzip
// (scripts/site-size.mjs).
import path from 'node:path';
import { defineConfig } from 'vite';

const ROOT = import.meta.dirname;

export default defineConfig({
  root: path.join(ROOT, 'docs'),
  base: './',
  publicDir: false,
  logLevel: 'warn',
  clearScreen: false,
  build: {
    outDir: path.join(ROOT, 'dist/site'),
    emptyOutDir: false, // the playground page is already there
    assetsDir: 'assets',
    assetsInlineLimit: 0,
    target: 'es2022',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    sourcemap: false,
    rollupOptions: {
      input: { tutorial: path.join(ROOT, 'docs/tutorial.html') },
    },
  },
});
