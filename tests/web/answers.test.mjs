// The bit-identity check of issue 25: the answers of this build, native (build/native/answers_digest,
// build/native/slabcast-cases) and wasm (web/slabcast.js), hashed as web/bench/answers.mjs hashes
// them, must equal the hashes recorded from main before the work (tests/answers/digests.json,
// commit 481861d, built by scripts/bench-base.sh): every scene family at 100k random rays (castRays
// t, index and normal bits; anyHit; castRaysBruteForce on the first rays, which must equal the
// BVH's), and every case file's results document. `npm run bench:answers` runs the same check at
// 1M rays per family (about 30 to 80 s here; too long for npm test).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIGESTS_FILE, compareDigests, computeDigests, fnv1a64 } from '../../web/bench/answers.mjs';
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
