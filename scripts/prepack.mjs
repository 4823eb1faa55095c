#!/usr/bin/env node
// npm's "prepack" step: `npm pack` / `npm publish` must ship a web/slabcast.wasm built
// from the current C sources. When it is missing or older than src/*.[ch] (the check of
// tests/web/helpers/artifacts.mjs), builds it with the CMake preset "wasm" (the wasm half
// of scripts/build.sh, which builds into build/wasm and stages the module as web/slabcast.wasm);
// when cmake or Emscripten is not installed, stops and says to run `npm run setup`.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WASM = path.join(ROOT, 'web/slabcast.wasm');
const BUILT = path.join(ROOT, 'build/wasm/slabcast.wasm');

const say = (msg) => process.stderr.write(`prepack: ${msg}\n`);

/** Newest mtime among the inputs of the wasm build, with its path. */
function newestInput() {
  let newest = { file: null, mtime: 0 };
  const consider = (rel) => {
    const m = statSync(path.join(ROOT, rel)).mtimeMs;
    if (m > newest.mtime) newest = { file: rel, mtime: m };
  };
  for (const f of readdirSync(path.join(ROOT, 'src'))) if (/\.[ch]$/.test(f)) consider(`src/${f}`);
  return newest;
}

function why() {
  if (!existsSync(WASM)) return 'web/slabcast.wasm is missing';
  const newest = newestInput();
  if (newest.mtime > statSync(WASM).mtimeMs) return `web/slabcast.wasm is older than ${newest.file}`;
  return null;
}

const hasCommand = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

function run(cmd, args) {
  say(`${cmd} ${args.join(' ')}`);
  // The build's output goes to stderr: stdout stays clean for `npm pack --json`.
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) {
    say(`\`${cmd} ${args.join(' ')}\` failed; the package needs web/slabcast.wasm (npm run setup && npm run build)`);
    process.exit(1);
  }
}

const reason = why();
if (reason === null) {
  say('web/slabcast.wasm is up to date');
} else {
  const missing = [];
  if (!hasCommand('cmake')) missing.push('cmake');
  // cmake/emscripten.cmake (the preset's toolchain file) finds Emscripten through emcc.
  if (!hasCommand('emcc') && !process.env.EMSCRIPTEN && !process.env.EMSDK) missing.push('emscripten (emcc)');
  if (missing.length) {
    say(`${reason}, and building it needs ${missing.join(' and ')}, which ${missing.length > 1 ? 'are' : 'is'} not installed.`);
    say('Run `npm run setup` (installs the toolchain on Debian/Ubuntu), then `npm pack` again.');
    process.exit(1);
  }
  say(`${reason}: building it (CMake preset wasm)`);
  run('cmake', ['--preset', 'wasm']);
  run('cmake', ['--build', '--preset', 'wasm']);
  copyFileSync(BUILT, WASM);
  const still = why();
  if (still !== null) {
    say(`${still} after the build`);
    process.exit(1);
  }
}
