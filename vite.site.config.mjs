// The static site (npm run build:site -> dist/site/): the playground page web/index.html
// bundled by Vite (pinned in package.json) with three.js tree-shaken to what the page uses,
// hashed file names, relative URLs (base './') so that it works under any path, e.g.
// https://slabcast.github.io/slabcast/. scripts/build-site.mjs runs this build, then copies
// the tutorial page and writes the precompressed .gz files.
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
    emptyOutDir: true,
    assetsDir: 'assets',
    // slabcast.wasm stays a file of its own (fetched and compiled), never inlined as base64.
    assetsInlineLimit: 0,
    target: 'es2022',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    sourcemap: false,
    rollupOptions: {
      input: { index: path.join(ROOT, 'web/index.html') },
    },
  },
});
