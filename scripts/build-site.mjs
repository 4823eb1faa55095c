#!/usr/bin/env node
// Builds the static site into dist/site/ (docs/playground.md):
//   1. Vite (vite.site.config.mjs) bundles web/index.html: hashed assets under assets/;
//   2. Vite (vite.tutorial.config.mjs) bundles docs/tutorial.html, the lesson built on
//      slabcast/figure, into dist/site/tutorial.html and hashed assets beside the page's;
//   3. Vite (vite.demo.config.mjs) bundles web/demo/index.html, the playable demo on
//      slabcast/three, into dist/site/demo/index.html and hashed assets beside the others;
//   4. every text asset (and the wasm) gets a precompressed .gz beside it (gzip level 9),
//      which web/bin/serve.mjs sends to clients that accept gzip.
// Needs web/slabcast.wasm (npm run build). Prints what it wrote.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SITE = path.join(ROOT, 'dist/site');
/** Files that get a .gz beside them. */
export const COMPRESSIBLE = /\.(html|js|mjs|css|wasm|svg|json|txt|map)$/;

/** Every file below dir (paths relative to dir, '/' separated). */
export function listFiles(dir, prefix = '') {
  const out = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/** Write file.gz (gzip level 9) beside every compressible file of dir; returns [file, bytes, gz bytes]. */
export function precompress(dir) {
  const rows = [];
  for (const rel of listFiles(dir)) {
    if (!COMPRESSIBLE.test(rel)) continue;
    const data = readFileSync(path.join(dir, rel));
    const gz = gzipSync(data, { level: 9 });
    writeFileSync(path.join(dir, `${rel}.gz`), gz);
    rows.push([rel, data.length, gz.length]);
  }
  return rows;
}

async function main() {
  const wasm = path.join(ROOT, 'web/slabcast.wasm');
  if (!existsSync(wasm)) {
    console.error('build-site: web/slabcast.wasm is missing: build it first (npm run build)');
    process.exit(1);
  }
  await build({ configFile: path.join(ROOT, 'vite.site.config.mjs') });
  await build({ configFile: path.join(ROOT, 'vite.tutorial.config.mjs') });
  await build({ configFile: path.join(ROOT, 'vite.demo.config.mjs') });
  const rows = precompress(SITE);
  const width = Math.max(...rows.map(([f]) => f.length));
  for (const [file, size, gz] of rows) console.log(`  ${file.padEnd(width)}  ${String(size).padStart(8)} B  gzip ${String(gz).padStart(7)} B`);
  const total = listFiles(SITE).reduce((n, f) => n + statSync(path.join(SITE, f)).size, 0);
  console.log(`build-site: dist/site/ written (${listFiles(SITE).length} files, ${total} bytes)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`build-site: ${e.message}`);
    process.exit(1);
  });
}
