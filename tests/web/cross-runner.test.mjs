// The native runner (build/native/slabcast-cases) and the wasm runner
// (web/bin/slabcast-cases.mjs) must print byte-identical output for the same
// file (docs/case-runner.md). Checked on every tests/cases/*.json, on a set of
// hand-written odd files and on seeded generated ones.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCaseFile } from '../../web/cases.mjs';
import { loadSlabcast } from '../../web/slabcast.js';
import { NATIVE_RUNNER as NATIVE, ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';
import { generateCaseFile } from './helpers/gen-cases.mjs';

const JS_RUNNER = path.join(ROOT, 'web/bin/slabcast-cases.mjs');
const CASES_DIR = path.join(ROOT, 'tests/cases');
const caseFiles = readdirSync(CASES_DIR).filter((f) => f.endsWith('.json')).sort();

function requireNative() {
  requireBuilt(NATIVE);
  requireBuilt(WASM);
}

function native(args, cwd = ROOT) {
  requireNative();
  const r = spawnSync(NATIVE, args, { cwd, maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  return { stdout: r.stdout, stderr: r.stderr.toString('latin1'), code: r.status };
}

function wasmCli(args, cwd = ROOT) {
  const r = spawnSync(process.execPath, [JS_RUNNER, ...args], { cwd, maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  return { stdout: r.stdout, stderr: r.stderr.toString('latin1'), code: r.status };
}

/** Byte string (latin1) -> Buffer. */
const bytesOf = (s) => Buffer.from(s, 'latin1');

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** The float32 bit pattern of a printed number; -0 counts as 0; "inf"/"-inf"/"nan" stay strings. */
function bits(v) {
  if (typeof v === 'string') return v;
  f32[0] = v === 0 ? 0 : v;
  return u32[0];
}

/** Every number of a results document as [path, bits]. */
function numberBits(doc) {
  const out = [];
  const walk = (v, where) => {
    if (typeof v === 'number' || (typeof v === 'string' && /^(-?inf|nan)$/.test(v))) out.push([where, bits(v)]);
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${where}[${i}]`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${where}.${k}`);
  };
  doc.results.forEach((r, i) => walk(r, `results[${i}](${r.id})`));
  return out;
}

/** A readable account of the first difference between two outputs. */
function firstDifference(a, b) {
  const la = a.toString('latin1').split('\n');
  const lb = b.toString('latin1').split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return `line ${i + 1}:\n  native: ${la[i]}\n  wasm:   ${lb[i]}`;
  }
  return 'no line differs (a trailing byte?)';
}

describe('tests/cases: native and wasm runners print the same bytes', () => {
  beforeAll(requireNative);

  it('there are case files', () => {
    expect(caseFiles.length).toBeGreaterThan(0);
  });

  for (const file of caseFiles) {
    const rel = path.join('tests/cases', file);

    it(`run ${rel}`, () => {
      const c = native(['run', rel]);
      const j = wasmCli(['run', rel]);
      expect(c.code, `native exit status (stderr: ${c.stderr})`).toBe(0);
      expect(j.code, `wasm exit status (stderr: ${j.stderr})`).toBe(0);
      const same = Buffer.compare(c.stdout, j.stdout) === 0;
      // Numbers first, bit for bit (float32, -0 == 0), for a precise report.
      const cb = numberBits(JSON.parse(c.stdout.toString('utf8')));
      const jb = numberBits(JSON.parse(j.stdout.toString('utf8')));
      expect(jb.length).toBe(cb.length);
      const differing = cb.filter(([where, v], i) => jb[i][0] !== where || jb[i][1] !== v).slice(0, 10)
        .map(([where, v], i) => `${where}: native ${v}, wasm ${jb[i][1]}`);
      expect(differing, 'float32 bit patterns').toEqual([]);
      expect(same, same ? '' : firstDifference(c.stdout, j.stdout)).toBe(true);
      const n = JSON.parse(c.stdout.toString('utf8')).results.length;
      console.log(`${rel}: ${n} results, ${cb.length} numbers, byte-identical`);
    });

    it(`check ${rel}`, () => {
      const c = native(['check', rel]);
      const j = wasmCli(['check', rel]);
      expect(j.code).toBe(c.code);
      expect(j.stderr).toBe(c.stderr);
      const same = Buffer.compare(c.stdout, j.stdout) === 0;
      expect(same, same ? '' : firstDifference(c.stdout, j.stdout)).toBe(true);
      const summary = c.stdout.toString('utf8').trimEnd().split('\n').pop();
      console.log(`${rel}: native and wasm both say: ${summary}`);
    });
  }
});

// ---------------------------------------------------------------- odd input

const nested = (depth) => `{"format": "slabcast-cases/1", "cases": [${'['.repeat(depth - 2)}${']'.repeat(depth - 2)}]}`;
const wrap = (cases) => `{"format": "slabcast-cases/1", "cases": [${cases.join(', ')}]}`;
const RAY = '"query": "raycast", "ray": {"origin": [-2, -2, -2], "dir": [2, 2, 2]}';
const BOX = '"shape": {"type": "aabb", "min": [0.5, 0.5, 0.5], "max": [2, 2, 2]}';

const ODD_FILES = {
  'empty.json': '',
  'spaces.json': '  \n\t ',
  'null.json': 'null',
  'array.json': '[]',
  'not-json.json': '{"format": "slabcast-cases/1", "cases": [}',
  'wrong-format.json': '{"format": "slabcast-cases/2", "cases": []}',
  'format-number.json': '{"format": 1, "cases": []}',
  'format-nul.json': '{"format": "slabcast-cases/1\\u0000junk", "cases": []}',
  'format-dup-key.json': '{"format": "x", "format": "slabcast-cases/1", "cases": []}',
  'no-cases.json': '{"format": "slabcast-cases/1"}',
  'cases-object.json': '{"format": "slabcast-cases/1", "cases": {}}',
  'empty-cases.json': wrap([]),
  'bom.json': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(wrap([`{"id": "a", ${RAY}, ${BOX}}`]))]),
  'trailing-garbage.json': `${wrap([`{"id": "a", ${RAY}, ${BOX}}`])} and then some`,
  'nul-bytes.json': Buffer.concat([Buffer.from(wrap([`{"id": "a", ${RAY}, ${BOX}}`])), Buffer.from([0, 0, 0x41])]),
  'control-whitespace.json': `\u0001${wrap([`{"id": "a",\u001f${RAY}, ${BOX}}`])}`,
  'deep-1000.json': nested(1000),
  'deep-1001.json': nested(1001),
  'lone-surrogate.json': wrap(['{"id": "\\ud800"}']),
  'bad-hex-escape.json': wrap([`{"id": "a\\u12zzb", ${RAY}, ${BOX}}`]),
  'numbers.json': wrap([
    `{"id": "n1", "query": "raycast", "ray": {"origin": [-2., -02, -2e0], "dir": [2, 2, 2]}, ${BOX}}`,
    `{"id": "n2", "query": "closest_point", "point": [-.5, 1e39, 0], ${BOX}}`,
    `{"id": "n3", "query": "closest_point", "point": [1e-46, -1e-46, 1e-45], ${BOX}}`,
    `{"id": "n4", "query": "closest_point", "point": [3.4028235e38, -3.4028235e38, 16777217], ${BOX}}`,
    `{"id": "n5", "query": "raycast", "ray": {"origin": [-2, -2, -2], "dir": [2, 2, 2], "tmax": "inf"}, ${BOX}}`,
    `{"id": "n6", "query": "raycast", "ray": {"origin": [-2, -2, -2], "dir": [2, 2, 2], "tmax": "nan"}, ${BOX}}`,
    `{"id": "n7", "query": "raycast", "ray": {"origin": [-2, -2, -2], "dir": [2, 2, 2], "tmax": null}, ${BOX}}`,
    `{"id": "n8", "query": "closest_point", "point": ["inf\\u0000yes", 0, 0], ${BOX}}`,
    `{"id": "n9", "query": "closest_point", "point": [0.1, 0.2, 0.30000001192092896], ${BOX}}`,
    `{"id": "n10", "query": "closest_point", "point": [123456789, 1.5e-5, 1e10], "shape": {"type": "sphere", "center": [0,0,0], "radius": 1e20}}`,
  ]),
  'strings.json': Buffer.concat([
    Buffer.from(wrap([
      `{"id": "tab\\there \\"quoted\\" back\\\\slash \\/ \\u0001\\u001f\\u007f é €", ${RAY}, ${BOX}}`,
      `{"id": "${'é'.repeat(40)}", "query": "${'é'.repeat(40)}"}`,
      `{"id": "${'x'.repeat(63)}é", "query": "raycast", "ray": {"origin": [0,0,0], "dir": [1,0,0]}, "shape": {"type": "${'y'.repeat(63)}€€"}}`,
      `{"id": "${'\\u0001'.repeat(70)}", ${RAY}, ${BOX}}`,
      `{"id": "${'\\u0001'.repeat(70)}", ${RAY}, ${BOX}, "expect": {"hit": true}}`,
      `{"id": "nul\\u0000a", ${RAY}, ${BOX}}`,
      `{"id": "nul\\u0000b", ${RAY}, ${BOX}}`,
      '{"id": "raw-',
    ])),
    Buffer.from([0xff, 0xfe, 0xc3]),
    Buffer.from(`", ${RAY}, ${BOX}}]}`),
  ]),
  'structure.json': wrap([
    '1', 'null', '[]', '"case"', '{}', '{"id": 5}', '{"id": "q"}', '{"id": "q2", "query": 5}',
    '{"id": "q3", "query": "cast"}', '{"id": "q3"}', '{"id": "r1", "query": "raycast"}',
    '{"id": "r2", "query": "raycast", "ray": {"origin": [0,0,0]}}',
    '{"id": "r3", "query": "raycast", "ray": {"origin": [0,0,0], "dir": [1,0,0], "tmax": "1"}}',
    '{"id": "r4", "query": "raycast", "ray": {"origin": [0,0,0], "dir": [0,-0,0]}, "shape": {"type": "cone"}}',
    '{"id": "r5", "query": "raycast", "ray": {"origin": [0,0,0], "dir": [0,-0,0]}, "shape": {"type": "aabb", "min": [0,0,0], "max": [1,1,1]}}',
    '{"id": "s1", "query": "linetest", "segment": [], "shape": {}}',
    '{"id": "s2", "query": "contains", "point": [0,0,0], "shape": {"type": "plane", "normal": [0,0,1], "d": 0}}',
    '{"id": "s3", "query": "contains", "point": [0,0,0], "shape": {"type": "obb", "center": [0,0,0], "axes": [[1,0,0],[0,1,0],[0,0,1],[0,0,0]], "half": [1,1,1]}}',
    '{"id": "s4", "query": "contains", "point": [0,0,0], "shape": {"type": "obb", "center": [0,0,0], "axes": [[1,0,0],[0,1,0],[0,0,1.1]], "half": [1,1,1]}}',
    '{"id": "s5", "query": "closest_point", "point": [0,0,0], "shape": {"type": "sphere", "center": [0,0,0], "radius": -1}}',
    '{"id": "s6", "query": "closest_point", "point": [0,0,0], "shape": {"type": "aabb", "min": [1,0,0], "max": [0,1,1]}}',
    '{"id": "dup-key", "id": "dup-key-2", "query": "closest_point", "point": [5,5,5], "point": [0,0,0], "shape": {"type": "sphere", "center": [0,0,0], "radius": 1}}',
  ]),
  'expect.json': wrap([
    `{"id": "e1", ${RAY}, ${BOX}, "expect": {"hit": false, "t": 1.3, "t_enter": "x", "t_exit": null, "point": [0.5, 0.5], "normal": [1, 0, 0], "inside": true}}`,
    `{"id": "e2", ${RAY}, ${BOX}, "expect": {"hit": "yes", "error": "zero"}}`,
    `{"id": "e3", ${RAY}, ${BOX}, "expect": {"error": true}}`,
    `{"id": "e4", ${RAY}, ${BOX}, "expect": null}`,
    `{"id": "e5", ${RAY}, ${BOX}, "expect": {}}`,
    `{"id": "e6", ${RAY}, ${BOX}, "expect": {"t": 1.25001, "point": [0.50001, 0.5, 0.5]}}`,
    `{"id": "e7", ${RAY}, ${BOX}, "expect": {"t": 1.2502, "normal": [-1, 0, 0.0002]}}`,
    '{"id": "e8", "query": "raycast", "ray": {"origin": [0,0,0], "dir": [0,0,0]}, "shape": {"type": "sphere", "center": [0,0,0], "radius": 1}, "expect": {"error": "dir is zero"}}',
    '{"id": "e9", "query": "raycast", "ray": {"origin": [0,0,0], "dir": [0,0,0]}, "shape": {"type": "sphere", "center": [0,0,0], "radius": 1}, "expect": {"error": "other\\u0001thing"}}',
    '{"id": "e10", "query": "raycast", "ray": {"origin": [0,0,0], "dir": [0,0,0]}, "shape": {"type": "sphere", "center": [0,0,0], "radius": 1}, "expect": {"hit": true}}',
    '{"id": "e11", "query": "raycast", "ray": {"origin": [0,0,0], "dir": [0,0,0]}, "shape": {"type": "sphere", "center": [0,0,0], "radius": 1}, "expect": {"error": false}}',
    '{"id": "e12", "query": "linetest", "segment": {"a": [0,0,0], "b": [1,1,1]}, "shape": {"type": "sphere", "center": [5,5,5], "radius": 1}, "expect": {"hit": true, "t": 1, "point": [1,1,1], "inside": false}}',
    '{"id": "e13", "query": "closest_point", "point": [3,0,0], "shape": {"type": "sphere", "center": [0,0,0], "radius": 1}, "expect": {"point": [1.0001, 0, 0], "hit": true}}',
    '{"id": "e14", "query": "contains", "point": [3,0,0], "shape": {"type": "sphere", "center": [0,0,0], "radius": 1}, "expect": {"inside": false, "t": "inf"}}',
    `{"id": "e15", ${RAY}, ${BOX}, "expect": {"t": "nan", "t_exit": "inf"}}`,
    '{"id": "e16", "query": "raycast", "ray": {"origin": [0,0,0], "dir": [1,0,0]}, "shape": {"type": "cone"}, "expect": {"error": "unknown"}}',
    `{"id": 7, ${RAY}, ${BOX}, "expect": {"hit": true}}`,
    `{"id": "e17", ${RAY}, ${BOX}, "expect": {"error": "${'\\u0001'.repeat(70)}"}}`,
    `{"id": "e17", ${RAY}, ${BOX}, "expect": {"error": "duplicate"}}`,
    `{"id": "e18", ${RAY}, ${BOX}}`,
  ]),
};

describe('odd files: native and wasm runners agree byte for byte', () => {
  let dir;
  let api;
  beforeAll(async () => {
    requireNative();
    dir = mkdtempSync(path.join(tmpdir(), 'slabcast-cross-'));
    for (const [name, content] of Object.entries(ODD_FILES)) writeFileSync(path.join(dir, name), content);
    mkdirSync(path.join(dir, 'a-directory.json'));
    api = await loadSlabcast();
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const names = [...Object.keys(ODD_FILES), 'a-directory.json', 'missing.json'];
  for (const name of names) {
    for (const mode of ['run', 'check']) {
      it(`${mode} ${name}`, () => {
        const c = native([mode, name], dir);
        // The CLI once per file for the hand-written ones.
        const j = wasmCli([mode, name], dir);
        expect({ code: j.code, stderr: j.stderr }).toEqual({ code: c.code, stderr: c.stderr });
        const same = Buffer.compare(c.stdout, j.stdout) === 0;
        expect(same, same ? '' : firstDifference(c.stdout, j.stdout)).toBe(true);
      });
    }
  }

  it('usage errors', () => {
    for (const args of [[], ['run'], ['walk', 'x.json'], ['run', 'a', 'b'], ['RUN', 'x.json']]) {
      const c = native(args, dir);
      const j = wasmCli(args, dir);
      expect({ args, code: j.code, stdout: j.stdout.toString(), stderr: j.stderr })
        .toEqual({ args, code: c.code, stdout: c.stdout.toString(), stderr: c.stderr });
    }
  });

  it('number formatting: %.Pg + strtof emulation on thousands of float32 values', async () => {
    // closest_point of a point inside a huge box is the point itself, so the runners
    // print the input floats back: C's printf/strtof against web/f32format.mjs.
    const values = [0.125, 2.5, 0.5, 1.25, 100, 1e10, 1.5e-5, 16777216, 16777217, 25e9, 35e8, 45e8, 1e-45,
      3e-45, 1.1754943508222875e-38, 3.4028234663852886e38, 0.1, 1 / 3, 123456789, 65536, 9.5, 0.95, 999999.5];
    for (let k = -149; k <= 127; k += 3) values.push(2 ** k, 3 * 2 ** k);
    for (let k = -44; k <= 38; k++) values.push(10 ** k, 1.5 * 10 ** k, 9.999999 * 10 ** k);
    const u = new Uint32Array(1);
    const f = new Float32Array(u.buffer);
    let seed = 12345;
    while (values.length < 4500) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      u[0] = (seed ^ (seed << 13) ^ (seed >>> 7)) >>> 0;
      if (Number.isFinite(f[0])) values.push(f[0]);
    }
    const floats = values.map(Math.fround).filter(Number.isFinite).map((v, i) => (i % 2 ? -v : v));
    const text = (v) => (Object.is(v, -0) ? '-0' : v.toPrecision(17)); // exact enough to round back to v
    const cases = [];
    for (let i = 0; i < floats.length; i += 3) {
      const p = [0, 1, 2].map((k) => text(floats[i + k] ?? 0));
      cases.push(`{"id": "f${i}", "query": "closest_point", "point": [${p.join(', ')}], `
        + '"shape": {"type": "aabb", "min": [-3.4028234663852886e38, -3.4028234663852886e38, -3.4028234663852886e38], '
        + '"max": [3.4028234663852886e38, 3.4028234663852886e38, 3.4028234663852886e38]}}');
    }
    const file = path.join(dir, 'floats.json');
    writeFileSync(file, wrap(cases));
    const c = native(['run', file]);
    const j = await runCaseFile(api, 'run', file);
    expect(c.code).toBe(0);
    const same = Buffer.compare(c.stdout, bytesOf(j.stdout)) === 0;
    expect(same, same ? '' : firstDifference(c.stdout, bytesOf(j.stdout))).toBe(true);
    console.log(`number formatting: ${floats.length} float32 values printed identically`);
  });

  it('generated files (seeded)', async () => {
    const failures = [];
    const SEEDS = 150;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const name = `gen-${seed}.json`;
      writeFileSync(path.join(dir, name), generateCaseFile(seed));
      for (const mode of ['run', 'check']) {
        // In process for speed (the CLI is a thin wrapper around runCaseFile).
        const file = path.join(dir, name);
        const c = native([mode, file]);
        const j = await runCaseFile(api, mode, file);
        if (j.code !== c.code || j.stderr !== c.stderr || Buffer.compare(bytesOf(j.stdout), c.stdout) !== 0) {
          failures.push(`seed ${seed} ${mode}: ${firstDifference(c.stdout, bytesOf(j.stdout))} (exit ${c.code} vs ${j.code})`);
        }
      }
    }
    console.log(`generated files: ${SEEDS} files x run/check, ${failures.length} differences`);
    expect(failures.slice(0, 5)).toEqual([]);
  });
});
