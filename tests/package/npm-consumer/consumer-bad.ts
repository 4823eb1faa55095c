// Deliberate type errors: `tsc --noEmit` must FAIL on this file, with exactly these
// errors (tests/web/package.test.mjs checks the codes and lines), proving that the
// type-check of consumer.ts could fail at all.
import { loadSlabcast } from 'slabcast';

const sc = await loadSlabcast();
const r = sc.raycast({ origin: [0, 0, -5], dir: [0, 0, 1] }, { type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] });
export const t: number = r.t; // line 8: TS2339, t exists only on a hit
export const miss = sc.raycast({ origin: [0, 0, 0] }, { type: 'sphere', center: [0, 0, 0], radius: 1 }); // line 9: TS2741, no dir
export const world: string = sc.createWorld(); // line 10: TS2322, a World is not a string
