// One version everywhere: the C header's macros, the compiled wasm (sc_version), package.json,
// web/version.mjs and the CMake project. A release bumps them together (docs/install.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './helpers/artifacts.mjs';

const read = (f) => readFileSync(join(ROOT, f), 'utf8');

function headerVersion() {
  const h = read('src/slabcast.h');
  const num = (name) => Number(h.match(new RegExp(`#define ${name} (\\d+)`))[1]);
  const parts = [num('SC_VERSION_MAJOR'), num('SC_VERSION_MINOR'), num('SC_VERSION_PATCH')].join('.');
  const string = h.match(/#define SC_VERSION_STRING "([^"]+)"/)[1];
  return { parts, string };
}

describe('one version', () => {
  test('header macros, package.json and the CMake project agree', () => {
    const { parts, string } = headerVersion();
    expect(string).toBe(parts);
    expect(JSON.parse(read('package.json')).version).toBe(string);
    expect(read('CMakeLists.txt')).toMatch(new RegExp(`project\\(slabcast VERSION ${string.replace(/\./g, '\\.')}\\b`));
  });

  test('web/version.mjs (the version case files record) says the same', async () => {
    const { VERSION } = await import('../../web/version.mjs');
    expect(VERSION).toBe(headerVersion().string);
  });

  test('the wasm build reports it (sc_wasm_version)', async () => {
    const bytes = readFileSync(join(ROOT, 'web/slabcast.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, {
      wasi_snapshot_preview1: new Proxy({}, { get: () => () => 0 }),
      env: new Proxy({}, { get: () => () => 0 }),
    });
    const ex = instance.exports;
    const p = ex.sc_wasm_version();
    const mem = new Uint8Array(ex.memory.buffer);
    let end = p;
    while (mem[end] !== 0) end++;
    expect(new TextDecoder().decode(mem.subarray(p, end))).toBe(headerVersion().string);
  });
});
