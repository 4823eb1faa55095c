// Build outputs the tests use, with a clear message when one is missing or older
// than the C sources it is built from (a stale build makes confusing failures).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const NATIVE_RUNNER = path.join(ROOT, 'build/native/slabcast-cases');
export const WASM = path.join(ROOT, 'web/slabcast.wasm');
export const MT_WASM = path.join(ROOT, 'web/slabcast-mt.wasm');
export const BENCH_WASM = path.join(ROOT, 'build/wasm/slabcast-bench.wasm');
export const QUERY_DUMP = path.join(ROOT, 'build/native/slabcast_query_dump');

const SOURCES = {
  // the runner's own sources (not every tool: make does not relink it for a benchmark's change)
  [NATIVE_RUNNER]: ['src', 'tools/slabcast-cases.c', 'tools/slabcast_cases_lib.c', 'tools/slabcast_cases_lib.h'],
  [WASM]: ['src'],
  [MT_WASM]: ['src'],
  [BENCH_WASM]: ['tools/bench_scene.h', 'tools/wasm_bench_scene.c'],
  [QUERY_DUMP]: ['src', 'tests/native/query_dump.c'],
};

// The wasm-only entry files (slabcast_wasm.c, slabcast_wasm_mt.c) are not part of native builds.
const WASM_ONLY = /^slabcast_wasm.*\.c$/;
const NATIVE = new Set([NATIVE_RUNNER, QUERY_DUMP]);

function newestSource(dirs, native = false) {
  let newest = { file: null, mtime: 0 };
  for (const dir of dirs) {
    const abs = path.join(ROOT, dir);
    if (!existsSync(abs)) continue;
    if (statSync(abs).isFile()) {
      const mtime = statSync(abs).mtimeMs;
      if (mtime > newest.mtime) newest = { file: dir, mtime };
      continue;
    }
    for (const f of readdirSync(abs)) {
      if (!/\.[ch]$/.test(f) || (native && WASM_ONLY.test(f))) continue;
      const mtime = statSync(path.join(abs, f)).mtimeMs;
      if (mtime > newest.mtime) newest = { file: path.join(dir, f), mtime };
    }
  }
  return newest;
}

/** Throws unless `artifact` exists and is at least as new as its C sources. */
export function requireBuilt(artifact) {
  const rel = path.relative(ROOT, artifact);
  if (!existsSync(artifact)) {
    throw new Error(`${rel} is missing: build it first (npm run build)`);
  }
  const newest = newestSource(SOURCES[artifact] ?? [], NATIVE.has(artifact));
  if (newest.file && newest.mtime > statSync(artifact).mtimeMs) {
    throw new Error(`${rel} is older than ${newest.file}: rebuild it (npm run build)`);
  }
}
