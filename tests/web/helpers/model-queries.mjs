// Overlap and nearest-object commands of world-model.test.mjs, and the arbitraries of every
// command (the fc.commands list).
import fc from 'fast-check';
import { judgeClosest, judgeOverlap } from './model-checks.mjs';
import { AddCmd, RayCmd, RemoveCmd, SetRangeCmd, SweepCmd, UpdateCmd, attempt, fail, resolveFilter } from './model-commands.mjs';
import { convexOf } from './model-geom.mjs';
import { filterSpec, hostility, without, kindArb, objMask, raySpec, shapeFloats, target, targetPoint } from './model-gen.mjs';

const show = (v) => JSON.stringify(v, (k, x) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : x));
const f = Math.fround;
const OUT = { null: () => null, small: () => new Int32Array(2), big: () => new Int32Array(64), huge: () => new Int32Array(2 ** 30 + 16) };

/** The query volume: its JSON shape (for the model) and the arguments of the world call. */
function volumeOf(model, kind, v) {
  const c = targetPoint(model, v.at);
  const h = v.size.map(Math.abs);
  if (kind === 'sphere') return { shape: { type: 'sphere', center: c, radius: h[0] }, args: [c, h[0]] };
  if (kind === 'capsule') {
    const b = c.map((x, k) => f(x + (k === 0 ? h[1] : k === 1 ? -h[2] : h[1] / 2)));
    if (!b.every(Number.isFinite)) return null;
    return { shape: { type: 'capsule', a: c, b, radius: h[0] }, args: [c, b, h[0]] };
  }
  if (kind === 'aabb') {
    const min = c.map((x, k) => f(x - h[k])); const max = c.map((x, k) => f(x + h[k]));
    if (!min.every(Number.isFinite) || !max.every(Number.isFinite)) return null;
    return { shape: { type: 'aabb', min, max }, args: [min, max] };
  }
  const obb = { type: 'obb', center: c, axes: v.axes, half: h };
  if (kind === 'obb') return { shape: obb, args: [[...c, ...v.axes.flat(), ...h]] };
  // frustum: the six slab planes of that OBB, rounded to float32 (the frustum is those planes)
  const planes = convexOf(obb).planes.map((p) => ({ n: p.n.map(f), d: f(p.d) }));
  if (!planes.every((p) => Number.isFinite(p.d))) return null;
  return { shape: { type: 'frustum', planes }, args: [planes.flatMap((p) => [...p.n, p.d])] };
}

export class OverlapCmd {
  constructor(kind, brute, vol, filter, out) { Object.assign(this, { kind, brute, vol, filter, out }); }
  check() { return true; }
  run(model, real) {
    const vol = volumeOf(model, this.kind, this.vol);
    if (vol === null) return;
    const spec = this.filter && { mask: this.filter.mask, exclude: this.filter.exclude };
    const { options, f: flt } = resolveFilter(model, spec, 1);
    const out = OUT[this.out]();
    const name = { aabb: 'overlapAABB', sphere: 'overlapSphere', obb: 'overlapOBB', capsule: 'overlapCapsule', frustum: 'overlapFrustum' }[this.kind];
    const call = this.brute
      ? () => real.w.overlapBruteForce(this.kind, vol.args.flat(), out, options)
      : () => real.w[name](...vol.args, out, options);
    const r = attempt(this, real, this.out === 'huge', call);
    if (r.error) return;
    const total = r.value;
    const indices = out === null ? [] : Array.from(out.subarray(0, Math.min(total, out.length)));
    const why = judgeOverlap(real.sc, model, vol.shape, flt, { indices: out === null ? null : indices, total });
    if (why) fail(this, `${show(vol.shape)}: ${why}`, model);
  }
  toString() { return `overlap ${this.kind}${this.brute ? ' brute force' : ''}(${show(this.vol)}, filter ${show(this.filter)}, out ${this.out})`; }
}

export class ClosestCmd {
  constructor(brute, pts, md, filter) { Object.assign(this, { brute, pts, md, filter }); }
  check() { return true; }
  run(model, real) {
    const pts = this.pts.map((t) => targetPoint(model, t));
    const spec = this.filter && { mask: this.filter.mask, exclude: this.filter.exclude };
    const { options, f: flt } = resolveFilter(model, spec, pts.length);
    const name = this.brute ? 'closestObjectsBruteForce' : 'closestObjects';
    const r = attempt(this, real, false, () => real.w[name](new Float32Array(pts.flat()), this.md, undefined, options));
    const v = r.value;
    pts.forEach((q, i) => {
      const got = { index: v.index[i], distance: v.distance[i], point: Array.from(v.point.subarray(3 * i, 3 * i + 3)) };
      const why = judgeClosest(real.sc, model, q, Math.fround(this.md), flt, i, got);
      if (why) fail(this, `point ${i} ${show(q)}: ${why}; got ${show(got)}`, model);
    });
  }
  toString() { return `${this.brute ? 'closestObjectsBruteForce' : 'closestObjects'}(${show(this.pts)}, ${this.md}, filter ${show(this.filter)})`; }
}

const items = (kind, max) => fc.array(shapeFloats[kind], { minLength: 0, maxLength: max });
const size = fc.oneof(fc.constantFrom(0, 0, 0.5, 1, 2, 1e-3, 1000), fc.double({ min: 0, max: 20, noNaN: true }).map(f));
const axesArb = shapeFloats.obb.map((fl) => [fl.slice(3, 6), fl.slice(6, 9), fl.slice(9, 12)]);
const bad = fc.oneof({ weight: 12, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 100 }) });

/** Every command of the world API, weighted (fc.commands list). */
export function commandArbs() {
  const add = kindArb.chain((k) => fc.tuple(fc.constant(k), items(k, 4), hostility, bad)).map(([k, it, m, b]) => new AddCmd(k, it, m, b));
  const single = kindArb.chain((k) => fc.tuple(fc.constant(k), shapeFloats[k])).map(([k, s]) => new AddCmd(k, [s], 'f32', 0));
  const update = kindArb.chain((k) => fc.tuple(fc.constant(k), fc.nat(1000), fc.array(shapeFloats[k], { minLength: 1, maxLength: 2 })))
    .map(([k, s, it]) => new UpdateCmd(k, s, it));
  const rays = fc.tuple(fc.constantFrom('castRays', 'castRaysBruteForce', 'anyHit', 'castSegments'), fc.array(raySpec, { minLength: 1, maxLength: 6 }), filterSpec, hostility, fc.boolean(), bad)
    .map(([op, sp, fl, m, o, b]) => new RayCmd(op, sp, fl, m, o, b));
  const all = fc.tuple(raySpec, filterSpec, hostility, fc.boolean()).map(([sp, fl, m, o]) => new RayCmd('castRayAll', [sp], fl, m, o, 0));
  const sweep = fc.tuple(fc.boolean(), fc.boolean(), fc.array(raySpec, { minLength: 1, maxLength: 4 }), fc.array(fc.tuple(size, size, size), { minLength: 1, maxLength: 2 }), filterSpec, hostility)
    .map(([bx, br, sp, sz, fl, m]) => new SweepCmd(bx, br, sp, sz, fl, m));
  const vol = fc.record({ at: target, size: fc.tuple(size, size, size), axes: axesArb });
  const overlap = fc.tuple(fc.constantFrom('aabb', 'sphere', 'obb', 'capsule', 'frustum'), fc.boolean(), vol, filterSpec,
    fc.oneof({ weight: 6, arbitrary: fc.constantFrom('null', 'small', 'big') }, { weight: without.has('huge') ? 0 : 1, arbitrary: fc.constant('huge') }))
    .map(([k, br, v, fl, o]) => new OverlapCmd(k, br, v, fl, o));
  const closest = fc.tuple(fc.boolean(), fc.array(target, { minLength: 1, maxLength: 4 }), fc.constantFrom(Infinity, 0, 0.5, 10, 1e-30), filterSpec)
    .map(([br, p, md, fl]) => new ClosestCmd(br, p, md, fl));
  const remove = fc.nat(1000).map((s) => new RemoveCmd(s));
  const enable = fc.tuple(fc.nat(1000), fc.array(fc.constantFrom(0, 1, 2), { minLength: 1, maxLength: 3 })).map(([s, v]) => new SetRangeCmd('setEnabled', s, v, false));
  const masks = fc.tuple(fc.nat(1000), fc.array(objMask, { minLength: 1, maxLength: 3 })).map(([s, v]) => new SetRangeCmd('setMasks', s, v, false));
  const hugeMasks = fc.nat(1000).map((s) => new SetRangeCmd('setMasks', s, [], true));
  const groups = { rays: [rays, rays, rays, all], sweeps: [sweep], overlaps: [overlap, overlap], closest: [closest] };
  const queries = Object.entries(groups).flatMap(([k, v]) => (without.has(k) ? [] : v));
  return [add, add, single, update, remove, enable, masks, ...(without.has('huge') || without.has('hugemasks') ? [] : [hugeMasks]), ...queries];
}

