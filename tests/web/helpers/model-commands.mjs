// The commands of world-model.test.mjs (fast-check model-based testing): each runs one call of
// the JS world API on the real world and checks its answer against the model (model-world.mjs,
// model-checks.mjs). A refused call must throw the module's SlabcastError and change nothing.
import { judgeClosest, judgeOverlap, judgeSweep } from './model-checks.mjs';
import { handOver } from './model-hostile.mjs';
import { targetPoint } from './model-gen.mjs';
import { FLOATS, judgeNearest, pointHits, rayHits, rayOf, shapeOf } from './model-world.mjs';

const ADD = { aabb: 'addAABBs', obb: 'addOBBs', sphere: 'addSpheres', capsule: 'addCapsules' };
const UPDATE = { aabb: 'updateAABBs', obb: 'updateOBBs', sphere: 'updateSpheres', capsule: 'updateCapsules' };
const show = (v) => JSON.stringify(v, (k, x) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : x));

/** A failure of the model check (fast-check reports it with the command sequence). */
export function fail(cmd, msg, model) {
  const objs = model ? `\n  objects: ${model.objs.map((o, i) => `#${i}${o.removed ? ' removed' : ''}${o.enabled ? '' : ' disabled'}${o.mask === 0xFFFFFFFF ? '' : ` mask ${o.mask}`} ${show(o.shape)}`).join('\n    ')}` : '';
  throw new Error(`${cmd}: ${msg}${objs}`);
}

/**
 * Runs call(); returns {value} or {error}. An error that is not the module's SlabcastError is a
 * failure (a leaked RangeError or trap); so is an error when !errorOk.
 */
export function attempt(cmd, real, errorOk, call) {
  try {
    return { value: call() };
  } catch (e) {
    if (!(e instanceof real.Err)) fail(cmd, `threw a ${e?.constructor?.name}, not SlabcastError: ${e?.message}`);
    if (!errorOk) fail(cmd, `refused valid input: ${e.message}`);
    return { error: e };
  }
}

/** The filter options for n items from a filter spec, with exclude selectors resolved. */
export function resolveFilter(model, spec, n) {
  if (spec === null) return { options: undefined, f: null };
  const options = {};
  if (spec.mask !== undefined) options.mask = spec.mask;
  if (spec.inside !== undefined) options.inside = spec.inside;
  if (spec.exclude !== undefined) {
    const ex = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const s = spec.exclude[i % spec.exclude.length];
      ex[i] = s < 0 || model.count === 0 ? -1 : s % model.count;
    }
    options.exclude = ex;
  }
  return { options, f: { mask: options.mask, exclude: options.exclude, inside: options.inside } };
}

export class AddCmd {
  constructor(kind, items, mode, bad) { Object.assign(this, { kind, items, mode, bad }); }
  check() { return true; }
  run(model, real) {
    const per = FLOATS[this.kind];
    const floats = new Float32Array(this.items.flat());
    if (this.bad && floats.length) floats[this.bad % floats.length] = NaN;
    const h = handOver(this.mode, floats, per, undefined, false);
    const r = attempt(this, real, h.errorOk || (this.bad && floats.length > 0), () => real.w[ADD[this.kind]](h.data));
    if (r.error) return;
    if (this.bad && floats.length && h.counts[0] > 0) fail(this, 'a NaN was accepted');
    const n = h.counts[0];
    const first = r.value;
    const reuse = n === 1 && first < model.count && model.objs[first]?.removed;
    if (first !== model.count && !reuse) fail(this, `returned first ${first}, expected ${model.count}${n === 1 ? ' or a freed index' : ''}`);
    for (let i = 0; i < n; i++) {
      const fl = Array.from(floats.subarray(i * per, (i + 1) * per));
      const o = { kind: this.kind, shape: shapeOf(this.kind, fl), removed: false, enabled: true, mask: 0xFFFFFFFF };
      if (reuse) model.objs[first] = o; else model.objs.push(o);
    }
    if (n > 0 && real.w.kindOf(first) !== this.kind) fail(this, `kindOf(${first}) is ${real.w.kindOf(first)}`);
  }
  toString() { return `${ADD[this.kind]}(${show(this.items)}, ${this.mode}${this.bad ? `, NaN at ${this.bad}` : ''})`; }
}

export class UpdateCmd {
  constructor(kind, sel, items) { Object.assign(this, { kind, sel, items }); }
  check() { return true; }
  run(model, real) {
    const cand = model.live().filter((j) => model.objs[j].kind === this.kind);
    const first = cand.length ? cand[this.sel % cand.length] : this.sel % (model.count + 1);
    const n = this.items.length;
    const ok = [...Array(n).keys()].every((i) => model.objs[first + i] && !model.objs[first + i].removed && model.objs[first + i].kind === this.kind);
    const r = attempt(this, real, !ok, () => real.w[UPDATE[this.kind]](first, new Float32Array(this.items.flat())));
    if (!ok && !r.error) fail(this, `update of objects ${first}.. accepted, they are not all live ${this.kind}s`);
    if (r.error) return;
    this.items.forEach((fl, i) => { model.objs[first + i].shape = shapeOf(this.kind, fl); });
  }
  toString() { return `${UPDATE[this.kind]}(#${this.sel}, ${show(this.items)})`; }
}

export class RemoveCmd {
  constructor(sel) { this.sel = sel; }
  check() { return true; }
  run(model, real) {
    const j = this.sel % (model.count + 1);
    const ok = j < model.count && !model.objs[j].removed;
    const r = attempt(this, real, !ok, () => real.w.remove(j));
    if (!ok && !r.error) fail(this, `remove(${j}) accepted`);
    if (ok) model.objs[j].removed = true;
    if (j < model.count && real.w.kindOf(j) !== (model.objs[j].removed ? 'removed' : model.objs[j].kind)) fail(this, `kindOf(${j}) is ${real.w.kindOf(j)}`);
  }
  toString() { return `remove(#${this.sel})`; }
}

/** setEnabled / setMasks on objects first.. (a huge Uint32Array when huge: always refused). */
export class SetRangeCmd {
  constructor(what, sel, values, huge) { Object.assign(this, { what, sel, values, huge }); }
  check() { return true; }
  run(model, real) {
    const first = this.sel % (model.count + 1);
    const n = this.huge ? 2 ** 30 + 8 : this.values.length;
    const ok = !this.huge && [...Array(n).keys()].every((i) => model.objs[first + i] && !model.objs[first + i].removed);
    let arr;
    if (this.huge) arr = new Uint32Array(n);
    else arr = this.what === 'setMasks' ? new Uint32Array(this.values) : new Uint8Array(this.values);
    const r = attempt(this, real, !ok, () => real.w[this.what](first, arr));
    if (!ok && !r.error) fail(this, `${this.what}(${first}, ${n} values) accepted`);
    if (r.error) return;
    this.values.forEach((v, i) => {
      const o = model.objs[first + i];
      if (this.what === 'setMasks') o.mask = v >>> 0; else o.enabled = (v & 255) !== 0;
    });
  }
  toString() { return `${this.what}(#${this.sel}, ${this.huge ? 'new Uint32Array(2**30 + 8)' : show(this.values)})`; }
}

/** The rays (7 floats each) of ray specs, aimed at the model's objects. */
export function raysOf(model, specs) {
  const out = new Float32Array(7 * specs.length);
  specs.forEach((s, i) => {
    const aim = targetPoint(model, s.aim);
    let o = aim.map((x, k) => Math.fround(x - s.back * s.dir[k]));
    if (!o.every(Number.isFinite)) o = aim;
    out.set([...o, ...s.dir, s.tmax], 7 * i);
  });
  return out;
}

/** Segments (6 floats each) from ray specs: a = the ray's origin, b = a + dir (tmax 0: b = a). */
function segmentsOf(rays, specs) {
  const out = new Float32Array(6 * specs.length);
  specs.forEach((s, i) => {
    const a = Array.from(rays.subarray(7 * i, 7 * i + 3));
    let b = a.map((x, k) => Math.fround(x + (s.tmax === 0 ? 0 : 2 * s.back + 1) * s.dir[k]));
    if (!b.every(Number.isFinite)) b = a;
    out.set([...a, ...b], 6 * i);
  });
  return out;
}

/** The model's hits for segment i (as the ray a, fround(b - a), tmax 1; a point when a == b). */
function segmentHits(sc, model, segs, i, f) {
  const a = Array.from(segs.subarray(6 * i, 6 * i + 3));
  const b = Array.from(segs.subarray(6 * i + 3, 6 * i + 6));
  if (a.every((x, k) => x === b[k])) return { hits: pointHits(sc, model, a, f, i), ray: { origin: a, dir: [0, 0, 0], tmax: 1 } };
  const ray = { origin: a, dir: b.map((x, k) => Math.fround(x - a[k])), tmax: 1 };
  if (!ray.dir.every(Number.isFinite)) return null;
  return { hits: rayHits(sc, model, ray, f, i), ray };
}

export class RayCmd {
  constructor(op, specs, filter, mode, out, bad) { Object.assign(this, { op, specs, filter, mode, out, bad }); }
  check() { return true; }
  run(model, real) {
    const seg = this.op === 'castSegments';
    const rays = raysOf(model, this.specs);
    const per = seg ? 6 : 7;
    const floats = seg ? segmentsOf(rays, this.specs) : rays;
    const n = this.specs.length;
    if (this.bad) floats[this.bad % floats.length] = NaN;
    const { options, f } = resolveFilter(model, this.filter, n);
    const h = handOver(this.bad ? 'f32' : this.mode, floats, per, options, true);
    const out = h.errorOk ? undefined : this.outFor(n); // caller arrays only with plain batches
    const hits = (i) => (seg ? segmentHits(real.sc, model, floats, i, f) : { hits: rayHits(real.sc, model, rayOf(floats, i), f, i), ray: rayOf(floats, i) });
    const segOverflow = seg && [...Array(n).keys()].some((i) => segmentHits(real.sc, model, floats, i, f) === null);
    const r = attempt(this, real, h.errorOk || !!this.bad || segOverflow, () => real.w[this.op](h.data, out, h.options));
    if (r.error) return;
    if (this.bad) fail(this, 'a NaN was accepted');
    const len = this.op === 'anyHit' ? r.value.length : this.op === 'castRayAll' ? 1 : r.value.index.length;
    const m = out || this.op === 'castRayAll' ? h.counts[0] : len;
    if (!h.counts.includes(m)) fail(this, `answered ${len} items; acceptable: ${h.counts}`);
    const shapes = model.objs.map((o) => o.shape);
    for (let i = 0; i < m; i++) {
      const e = hits(i);
      if (e === null) continue;
      const why = this.judge(r.value, i, e, shapes);
      if (why) fail(this, `item ${i} (${show(e.ray)}): ${why}`, model);
    }
  }
  outFor(n) {
    if (!this.out) return undefined;
    if (this.op === 'anyHit') return new Uint8Array(n + 3);
    if (this.op === 'castRayAll') return { t: new Float32Array(2), index: new Int32Array(3) };
    return { t: new Float32Array(n + 1), index: new Int32Array(n + 2), normal: new Float32Array(3 * n + 1) };
  }
  judge(v, i, { hits, ray }, shapes) {
    if (this.op === 'anyHit') return v[i] === (hits.length ? 1 : 0) ? null : `anyHit ${v[i]}, expected ${hits.length ? 1 : 0} (${hits.map((x) => x.index)})`;
    if (this.op === 'castRayAll') {
      if (v.count !== hits.length) return `count ${v.count}, expected ${hits.length}: ${show(hits.map((x) => [x.index, x.t]))}`;
      const room = v.t.length === 2 ? 2 : hits.length; // out: {t: 2 floats, index: 3}
      for (let k = 0; k < Math.min(room, hits.length); k++) {
        if (v.index[k] !== hits[k].index || !Object.is(v.t[k] + 0, hits[k].t + 0)) return `hit ${k}: got [${v.index[k]}, ${v.t[k]}], expected ${show(hits.map((x) => [x.index, x.t]))}`;
      }
      return null;
    }
    return judgeNearest(hits, ray, { t: v.t[i], index: v.index[i], normal: v.normal.subarray(3 * i, 3 * i + 3) }, shapes);
  }
  toString() { return `${this.op}(${show(this.specs)}, filter ${show(this.filter)}, ${this.mode}${this.out ? ', out' : ''}${this.bad ? `, NaN at ${this.bad}` : ''})`; }
}

export class SweepCmd {
  constructor(box, brute, specs, sizes, filter, mode) { Object.assign(this, { box, brute, specs, sizes, filter, mode }); }
  check() { return true; }
  run(model, real) {
    const rays = raysOf(model, this.specs);
    const n = this.specs.length; const per = this.box ? 10 : 8;
    const floats = new Float32Array(per * n);
    for (let i = 0; i < n; i++) {
      const size = this.sizes[i % this.sizes.length];
      floats.set([...rays.subarray(7 * i, 7 * i + 7), ...(this.box ? size : [size[0]])], per * i);
    }
    const { options, f } = resolveFilter(model, this.filter, n);
    const h = handOver(this.mode, floats, per, options, true);
    const name = `cast${this.box ? 'Boxes' : 'Spheres'}${this.brute ? 'BruteForce' : ''}`;
    const r = attempt(this, real, h.errorOk, () => real.w[name](h.data, undefined, h.options));
    if (r.error) return;
    const v = r.value;
    if (!h.counts.includes(v.index.length)) fail(this, `answered ${v.index.length} items; acceptable: ${h.counts}`);
    for (let i = 0; i < v.index.length; i++) {
      const ray = rayOf(rays, i);
      const size = Array.from(floats.subarray(per * i + 7, per * i + per));
      const got = { t: v.t[i], index: v.index[i], normal: v.normal.subarray(3 * i, 3 * i + 3), point: v.point.subarray(3 * i, 3 * i + 3) };
      const why = judgeSweep(real.sc, model, ray, this.box ? 0 : size[0], this.box ? size : null, f, i, got);
      if (why) fail(this, `sweep ${i} (${show(ray)}, ${this.box ? 'half' : 'r'} ${show(size)}): ${why}; got index ${got.index} t ${got.t}`, model);
    }
  }
  toString() { return `${this.box ? 'castBoxes' : 'castSpheres'}${this.brute ? 'BruteForce' : ''}(${show(this.specs)}, sizes ${show(this.sizes)}, filter ${show(this.filter)}, ${this.mode})`; }
}
