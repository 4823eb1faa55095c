// The static site (npm run build:site -> dist/site/): the playground page web/index.html
// bundled by Vite (pinned in package.json) with three.js tree-shaken to what the page uses,
// hashed file names, relative URLs (base './') so that it works under any path, e.g.
// https://slabcast.github.io/slabcast/. scripts/build-site.mjs runs this build, then copies
// the tutorial page and writes the precompressed .gz files.
import path from 'node:path';
import { createLogger, defineConfig } from 'vite';

const ROOT = import.meta.dirname;

/** A <link rel="preload"> for the wasm in the built page: it downloads beside the script
 * instead of after it (the script only asks for it once it runs). */
function preloadWasm() {
  return {
    name: 'slabcast-preload-wasm',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        // slabcast.wasm (the page's core); not slabcast-mt.wasm, which only a parallel world loads
        const wasm = Object.keys(ctx.bundle ?? {}).filter((f) => /(^|\/)slabcast-[\w-]{8}\.wasm$/.test(f) && !/slabcast-mt-/.test(f));
        if (wasm.length !== 1) throw new Error(`expected one slabcast.wasm in the bundle, found ${wasm.length}`);
        return [{ tag: 'link', attrs: { rel: 'preload', href: `./${wasm[0]}`, as: 'fetch', type: 'application/wasm', crossorigin: '' }, injectTo: 'head' }];
      },
    },
  };
}

/** The case runner's file reading loads node:fs on demand (Node only); Vite says so for the
 * browser build. That one message is expected; every other one shows. */
const logger = createLogger('warn');
const warn = logger.warn.bind(logger);
logger.warn = (msg, options) => {
  if (/Module "node:fs" has been externalized for browser compatibility, imported by ".*web\/cases\.mjs"/.test(msg)) return;
  warn(msg, options);
};

export default defineConfig({
  root: path.join(ROOT, 'web'),
  base: './',
  publicDir: false,
  logLevel: 'warn',
  customLogger: logger,
  clearScreen: false,
  plugins: [preloadWasm()],
  // slabcast/parallel's worker (stress mode's "rays/s on 1..N workers"): an ES module worker,
  // bundled with its imports
  worker: { format: 'es' },
  build: {
    outDir: path.join(ROOT, 'dist/site'),
    emptyOutDir: true,
    assetsDir: 'assets',
    // slabcast.wasm stays a file of its own (fetched and compiled), never inlined as base64.
    assetsInlineLimit: 0,
    target: 'es2022',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    // three.js is most of the page (measured by npm run site:size against its budget).
    chunkSizeWarningLimit: 800,
    sourcemap: false,
    rollupOptions: {
      input: { index: path.join(ROOT, 'web/index.html') },
    },
  },
});
