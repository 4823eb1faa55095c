#!/usr/bin/env node
// The first-load transfer of the built site (dist/site/, npm run build:site): the gzip
// size of everything a page loads first: the page, its scripts and stylesheets (and the
// modules they import statically), and the wasm the scripts fetch. Prints one line per
// file and the total; exits 1 above the page's budget or when the site is missing.
// index.html (the playground, the default): 400 KB = 400,000 bytes; tutorial.html (the
// lesson on slabcast/figure, no three.js): 150 KB; demo/index.html (the playable demo on
// slabcast/three): 300 KB.
//
//   node scripts/site-size.mjs [SITE_DIR] [--page tutorial.html | --page demo/index.html]
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The first-load budget of the playground page, in bytes of gzip. */
export const BUDGET = 400_000;
/** The first-load budget of each page, in bytes of gzip. */
export const BUDGETS = { 'index.html': BUDGET, 'tutorial.html': 150_000, 'demo/index.html': 300_000 };

/**
 * The files (paths relative to the site) that loading index.html fetches first: its
 * <script src>, <link rel=stylesheet|modulepreload href>, the modules those scripts import
 * statically, and the .wasm files they name.
 */
export function firstLoadFiles(site, page = 'index.html') {
  const html = readFileSync(path.join(site, page), 'utf8');
  const files = [page];
  const queue = [];
  // paths relative to the site; the page's own URLs are relative to its directory
  const add = (rel, dir = path.posix.dirname(page)) => {
    if (/^[a-z]+:|^\/\//i.test(rel)) return;
    const clean = path.posix.normalize(path.posix.join(dir, rel.replace(/^\.\//, '')));
    if (files.includes(clean)) return;
    files.push(clean);
    if (clean.endsWith('.js')) queue.push(clean);
  };
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*>/g)) {
    const rel = /\brel="([^"]+)"/.exec(m[0])?.[1] ?? '';
    const href = /\bhref="([^"]+)"/.exec(m[0])?.[1];
    if (href && /\b(stylesheet|modulepreload)\b/.test(rel)) add(href);
  }
  while (queue.length) {
    const js = queue.shift();
    const dir = path.posix.dirname(js);
    const text = readFileSync(path.join(site, js), 'utf8');
    // Static imports of other chunks (import"./x.js", from"./x.js"); not import("./x.js").
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g)) add(m[1], dir);
    // The wasm the module fetches: new URL("name.wasm", import.meta.url).
    for (const m of text.matchAll(/new URL\(\s*["']([\w./-]+\.wasm)["']/g)) add(m[1], dir);
  }
  return files;
}

/** [{file, bytes, gzip}] for the first load of the site, and the gzip total. */
export function siteSize(site, page = 'index.html') {
  const rows = firstLoadFiles(site, page).map((file) => {
    const abs = path.join(site, file);
    if (!existsSync(abs)) throw new Error(`${file} is named by the site but missing`);
    if (!existsSync(`${abs}.gz`)) throw new Error(`${file}.gz is missing: build the site with npm run build:site`);
    return { file, bytes: statSync(abs).size, gzip: statSync(`${abs}.gz`).size };
  });
  return { rows, total: rows.reduce((n, r) => n + r.gzip, 0) };
}

function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--page');
  const page = at >= 0 ? args.splice(at, 2)[1] : 'index.html';
  if (!Object.hasOwn(BUDGETS, page)) {
    console.error(`site-size: --page must be one of ${Object.keys(BUDGETS).join(', ')}, got ${JSON.stringify(page ?? '')}`);
    process.exit(1);
  }
  const budget = BUDGETS[page];
  const site = path.resolve(args[0] ?? path.join(ROOT, 'dist/site'));
  if (!existsSync(path.join(site, page))) {
    console.error(`site-size: ${path.relative(process.cwd(), site) || site}/${page} is missing: build the site first (npm run build:site)`);
    process.exit(1);
  }
  let result;
  try {
    result = siteSize(site, page);
  } catch (e) {
    console.error(`site-size: ${e.message}`);
    process.exit(1);
  }
  const width = Math.max(...result.rows.map((r) => r.file.length), 5);
  for (const r of result.rows) {
    console.log(`${r.file.padEnd(width)}  ${String(r.bytes).padStart(9)} B  gzip ${String(r.gzip).padStart(8)} B`);
  }
  const kb = (n) => (n / 1000).toFixed(1);
  console.log(`${'total'.padEnd(width)}  first load ${result.total} B gzip (${kb(result.total)} KB; budget ${kb(budget)} KB)`);
  if (result.total > budget) {
    console.error(`site-size: the first load is ${kb(result.total)} KB, over the ${kb(budget)} KB budget`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
