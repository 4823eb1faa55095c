// The bit-identity check of issue 25: the answers of this build, native (build/native/answers_digest,
// build/native/slabcast-cases) and wasm (web/slabcast.js), hashed as web/bench/answers.mjs hashes
// them, must equal the hashes recorded from main before the work (tests/answers/digests.json,
// commit 481861d, built by scripts/bench-base.sh): every scene family at 100k random rays (castRays
// t, index and normal bits; anyHit; castRaysBruteForce on the first rays, which must equal the
// BVH's), and every case file's results document. `npm run bench:answers` runs the same check at
// 1M rays per family (about 40 s of CPU time, 75 to 110 s by the clock on the shared machine; too long for npm test).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIGESTS_FILE, compareDigests, computeDigests, fnv1a64, nativeDigest, wasmDigest } from '../../web/bench/answers.mjs';
import { loadSlabcast } from '../../web/slabcast.js';
import { NATIVE_RUNNER, ROOT, WASM, requireBuilt } from './helpers/artifacts.mjs';

const RAYS = 100000;
const DIGEST_BIN = path.join(ROOT, 'build/native/answers_digest');

describe('FNV-1a 64 (web/bench/answers.mjs)', () => {
  // Test vectors of the FNV specification (draft-eastlake-fnv, and isthe.com/chongo/tech/comp/fnv).
  it.each([
    ['', 'cbf29ce484222325'],
    ['a', 'af63dc4c8601ec8c'],
    ['foobar', '85944171f73967e8'],
  ])('hashes %j to %s', (text, want) => {
    expect(fnv1a64().update(Buffer.from(text, 'latin1')).hex()).toBe(want);
  });

  it('hashes in pieces as in one go, and a typed array by its bytes', () => {
    const f = new Float32Array([1.5, -0, Infinity]);
    const bytes = new Uint8Array(f.buffer);
    expect(fnv1a64().update(f).hex()).toBe(fnv1a64().update(bytes.subarray(0, 5)).update(bytes.subarray(5)).hex());
    // -0 and 0 differ in their bits, so in the hash
    expect(fnv1a64().update(new Float32Array([-0])).hex()).not.toBe(fnv1a64().update(new Float32Array([0])).hex());
  });
});

/** FNV-1a 64 in BigInt, written apart from answers.mjs' 16-bit limbs. */
function fnvBig(bytes) {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

describe('the digests of a scene worked out by hand', () => {
  // Box 0 = [0,1]^3, box 1 = [2,3] x [0,1] x [0,1]. Ray 0 from x = -1 along +x: box 0 at t = 1, its
  // -x face. Ray 1 from x = 5 along -x: box 1 at t = 2, its +x face. Ray 2 starts inside box 0: t = 0,
  // normal 0. Ray 3 passes above both: a miss, t = 0, index -1, normal 0 (docs/semantics.md,
  // "Nearest hit"). anyHit: 1, 1, 1, 0.
  const boxes = new Float32Array([0, 0, 0, 1, 1, 1, 2, 0, 0, 3, 1, 1]);
  const rays = new Float32Array([
    -1, 0.5, 0.5, 1, 0, 0, Infinity,
    5, 0.5, 0.5, -1, 0, 0, Infinity,
    0.5, 0.5, 0.5, 0, 0, 1, Infinity,
    -1, 5, 0.5, 1, 0, 0, Infinity,
  ]);
  const stream = (t, index, normal) => {
    const v = new DataView(new ArrayBuffer(20 * t.length));
    t.forEach((x, i) => v.setFloat32(4 * i, x, true));
    index.forEach((x, i) => v.setInt32(4 * t.length + 4 * i, x, true));
    normal.forEach((x, i) => v.setFloat32(8 * t.length + 4 * i, x, true));
    return new Uint8Array(v.buffer);
  };
  const cast = fnvBig(stream([1, 2, 0, 0], [0, 1, 0, -1], [-1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]));
  const want = { boxes: 2, rays: 4, brute: 4, cast, any: fnvBig([1, 1, 1, 0]), bvh_prefix: cast, brute_cast: cast, bvh_vs_brute_differ: 0 };

  it('wasm (the JS World) and native (build/native/answers_digest) hash those answers', async () => {
    requireBuilt(WASM);
    if (!existsSync(DIGEST_BIN)) throw new Error('build/native/answers_digest is missing: build it first (npm run build)');
    const sc = await loadSlabcast();
    expect(wasmDigest(sc, boxes, rays, 4)).toMatchObject(want);
    const dir = mkdtempSync(path.join(tmpdir(), 'slabcast-answers-test-'));
    try {
      expect(nativeDigest(DIGEST_BIN, boxes, rays, 4, dir)).toMatchObject(want);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe(`answers bit-identical to ${path.relative(ROOT, DIGESTS_FILE)}`, () => {
  let record;
  let got;
  beforeAll(async () => {
    requireBuilt(WASM);
    requireBuilt(NATIVE_RUNNER);
    if (!existsSync(DIGEST_BIN)) throw new Error('build/native/answers_digest is missing: build it first (npm run build)');
    record = JSON.parse(readFileSync(DIGESTS_FILE, 'utf8'));
    got = await computeDigests({ rays: RAYS });
  }, 300_000);

  it(`the record holds ${RAYS} rays per family and every case file`, () => {
    expect(record.commit).toMatch(/^481861d/);
    expect(Object.keys(record.runs[RAYS].families).sort()).toEqual(Object.keys(got.families).sort());
    expect(Object.keys(record.runs[1000000].families).sort()).toEqual(Object.keys(got.families).sort());
  });

  it('native = wasm = recorded on every family and case file, BVH = brute force', () => {
    const bad = compareDigests(got, { families: record.runs[RAYS].families, cases: record.cases });
    expect(bad).toEqual([]);
  });

  it('a changed answer is reported (the comparison can fail)', () => {
    const name = Object.keys(got.families)[0];
    const changed = structuredClone(got);
    changed.families[name].native.cast = '0000000000000000';
    changed.families[name].wasm.bvh_vs_brute_differ = 1;
    const file = Object.keys(changed.cases.wasm)[0];
    changed.cases.wasm[file] = 'ffffffffffffffff';
    const bad = compareDigests(changed, { families: record.runs[RAYS].families, cases: record.cases });
    expect(bad).toEqual([
      `${name}: wasm BVH differs from the brute force on 1 of ${got.families[name].wasm.brute} rays`,
      `${name}: native cast 0000000000000000, recorded ${record.runs[RAYS].families[name].cast}`,
      `case file ${file}: wasm ffffffffffffffff, recorded ${record.cases[file]}`,
    ]);
  });
});
