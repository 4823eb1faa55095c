// The built site (dist/site, npm run build:site) for the browser tests, with a clear
// message when it is missing or older than the files it is built from.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './artifacts.mjs';

export const SITE = path.join(ROOT, 'dist/site');

/** The newest mtime of the site's sources: web/ (not web/bench, web/bin), the tutorial, the configs. */
function newestSource() {
  let newest = { file: null, mtime: 0 };
  const visit = (rel) => {
    const abs = path.join(ROOT, rel);
    const info = statSync(abs);
    if (info.isDirectory()) {
      for (const f of readdirSync(abs)) if (!['bench', 'bin'].includes(f) || rel !== 'web') visit(path.join(rel, f));
    } else if (info.mtimeMs > newest.mtime) newest = { file: rel, mtime: info.mtimeMs };
  };
  for (const rel of ['web', 'docs/tutorial.html', 'docs/tutorial-figures.mjs', 'vite.site.config.mjs', 'vite.tutorial.config.mjs', 'vite.demo.config.mjs', 'scripts/build-site.mjs']) {
    if (existsSync(path.join(ROOT, rel))) visit(rel);
  }
  return newest;
}

/** Throws unless dist/site exists and is at least as new as its sources. */
export function requireSite() {
  const index = path.join(SITE, 'index.html');
  if (!existsSync(index)) {
    throw new Error('dist/site is missing: build the site first (npm run build:site; npm test does it)');
  }
  const newest = newestSource();
  if (newest.mtime > statSync(index).mtimeMs) {
    throw new Error(`dist/site is older than ${newest.file}: rebuild it (npm run build:site)`);
  }
}
