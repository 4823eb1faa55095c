// The words of the playground's slab stepper (web/playground/slab.mjs explainSlabs and
// tutorial-text.js), for what issue 23 found wrong: a flat box crossed through its face is a
// crossing, not a graze (docs/semantics.md: a degenerate solid crossed transversally has
// t_enter == t_exit and is hit); a real graze of an edge or a corner still says so; every
// minus sign in the step text is U+2212. Expected values are worked out by hand below.
import { describe, expect, it } from 'vitest';
import { explainSlabs } from '../../web/playground/slab.mjs';
import { stepFlags, stepText, verdictShort } from '../../web/playground/tutorial-text.js';

const sub = (ray, shape) => ({ i: 0, j: 0, ray, shape, ex: explainSlabs(ray, shape) });
const verdict = (s) => stepText(7, s)[1];

describe('the flat-plate verdict', () => {
  // A plate of zero thickness in z: x in [-1, 1], y in [-1, 1], z = 0.
  const plate = { type: 'aabb', min: [-1, -1, 0], max: [1, 1, 0] };

  it('a ray through the face of a flat box crosses it: no "single point (an edge or a corner)", no grazing flag', () => {
    // origin (-1, 0, -2), dir (0.5, 0, 1): z = 0 at t = 2, where x = 0 and y = 0 (inside the face).
    const s = sub({ origin: [-1, 0, -2], dir: [0.5, 0, 1] }, plate);
    expect(s.ex).toMatchObject({ hit: true, tEnter: 2, tExit: 2, t: 2 });
    expect(s.ex.flags).toMatchObject({ flatCrossing: true, grazing: false });
    const text = verdict(s);
    expect(text).not.toMatch(/single point|edge or a corner/);
    expect(text).toMatch(/flat \(zero thickness along z\), and the ray crosses it/);
    expect(stepFlags(7, s.ex).map((f) => f.flag)).toEqual(['flat']);
    expect(verdictShort(s.ex)).toEqual(['hit', 'at t = 2']);
  });

  it('a ray along the normal of a rotated flat box (half 0 on one axis) crosses it too', () => {
    const obb = { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], half: [1, 0, 1] };
    const s = sub({ origin: [0.5, -4, 0.25], dir: [0, 2, 0] }, obb);
    // local y: 0 = -4 + 2t at t = 2; x = 0.5 and z = 0.25 strictly inside [-1, 1].
    expect(s.ex).toMatchObject({ hit: true, tEnter: 2, tExit: 2 });
    expect(s.ex.flags).toMatchObject({ flatCrossing: true, grazing: false });
  });

  it('a ray that meets the flat box only on its rim (x = 1, the edge) is a graze', () => {
    const s = sub({ origin: [1, 0, -1], dir: [0, 0, 1] }, plate);
    expect(s.ex).toMatchObject({ hit: true, tEnter: 1, tExit: 1 });
    expect(s.ex.flags).toMatchObject({ flatCrossing: false, grazing: true });
    expect(verdict(s)).toMatch(/single point \(an edge or a corner\)/);
  });

  it('a ray grazing the corner of a solid box is still a graze', () => {
    // box [0, 2]^3, origin (-1, 1, 1), dir (1, 1, 0): x enters at t = 1, y leaves at t = 1.
    const s = sub({ origin: [-1, 1, 1], dir: [1, 1, 0] }, { type: 'aabb', min: [0, 0, 0], max: [2, 2, 2] });
    expect(s.ex).toMatchObject({ hit: true, tEnter: 1, tExit: 1 });
    expect(s.ex.flags).toMatchObject({ flatCrossing: false, grazing: true });
    expect(stepFlags(7, s.ex).map((f) => f.flag)).toEqual(['grazing']);
  });
});

describe('one minus sign', () => {
  it('the step text writes every negative number with U+2212: "(−3 − −6)", never "-6"', () => {
    // origin x = -6, dir x = 1, box x in [-3, 3]: t = (−3 − −6) / 1 = 3 and (3 − −6) / 1 = 9.
    const s = sub({ origin: [-6, -0.5, 0], dir: [1, 0.25, 0] }, { type: 'aabb', min: [-3, -3, -3], max: [3, 3, 3] });
    const all = [1, 2, 3, 4, 5, 6, 7].map((k) => stepText(k, s).join('\n')).join('\n');
    expect(stepText(2, s)[1]).toContain('t = (\u22123 \u2212 \u22126) / 1 = 3');
    expect(stepText(2, s)[1]).toContain('t = (3 \u2212 \u22126) / 1 = 9');
    expect(all).not.toMatch(/-\d/);
  });
});
