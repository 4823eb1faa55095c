// Writes the binary seed inputs of the fuzzer fuzz_capsule (tests/fuzz/corpus/fuzz_capsule/*.bin),
// in the byte layout tools/fuzz/fuzz_capsule.c decodes (docs/fuzzing.md): mode, flags, then 23
// floats (ray origin, dir, tmax; segment a, b; point; capsule a, b, radius). Checked in; run again
// only after changing the layout:   node tests/fuzz/gen-capsule-seeds.mjs
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'corpus/fuzz_capsule');

/** mode 0 (raw float32 bits) with the given flags and 23 values. */
function seed(flags, vals) {
  if (vals.length !== 23) throw new Error(`23 values, not ${vals.length}`);
  const b = new Uint8Array(2 + 4 * 23);
  b[0] = 0;
  b[1] = flags;
  vals.forEach((x, i) => new DataView(b.buffer).setFloat32(2 + 4 * i, x, true));
  return b;
}

const cap = [0, 0, 0, 0, 0, 10, 1];
const seeds = {
  'tangent-cylinder': seed(0, [1, -5, 5, 0, 1, 0, 100, 1, -5, 5, 1, 5, 5, 1, 0, 3, ...cap]),
  'through-caps': seed(2, [0, 0, 20, 0, 0, -1, 0, -3, 0, 11, 3, 0, 11, 0, 0, 11, ...cap]),
  'origin-inside': seed(2, [0.25, 0.25, 4, 1, 2, 3, 0, 0, 0, 5, 9, 9, 9, 0.5, 0.5, 0.5, ...cap]),
  'along-axis': seed(8 | 2 | 32, [0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 3, 4, 20, ...cap]),
  'ball': seed(4 | 2, [3, 2, -5, 0, 0, 1, 0, -1, -1, -1, 1, 1, 1, 3, 2, 3, 1, 2, 3, 0, 0, 0, 2]),
  'radius-zero': seed(16 | 2, [0.5, -3, 0, 0, 1, 0, 0, 0, -1, -1, 0, 1, 1, 0.25, 0, 0, -1, 0, 0, 1, 0, 0, 0]),
  'rotated-pythagorean': seed(2, [-4, 3, -7, 0, 0, 1, 0, -4, 3, -7, -4, 3, 7, -8, 6, 0, 0, 0, 0, 30, 40, 0, 5]),
  'far': seed(2, [0, 0.5, 1, 1, 0, 0, 0, 0, 1, 1, 1e30, 1, 1, 1e30, 3, 1, 1e30, 0, 0, 1e30, 0, 2, 1]),
  'subnormal': seed(2, [3.6e-42, 2.2e-42, -1.4e-42, -1, -0.5, 0.75, 0, 0, 0, 0, 1e-42, 1e-42, 1e-42, 1e-42, 0, 0, 0, 0, 0, 0, 0, 7.2e-42, 7.2e-43]),
};
mkdirSync(DIR, { recursive: true });
for (const f of readdirSync(DIR)) if (f.endsWith('.bin')) rmSync(path.join(DIR, f));
for (const [name, bytes] of Object.entries(seeds)) writeFileSync(path.join(DIR, `${name}.bin`), bytes);
console.log(`${DIR}: ${Object.keys(seeds).length} seeds`);
