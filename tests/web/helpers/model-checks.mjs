// Checks of the world's overlaps, nearest objects and sweeps against the model
// (docs/semantics.md: Overlaps, Nearest objects, Sweeps). Each check asserts only what is
// certain: exact tests where they exist (boxes, balls), certified witness points and clear
// separations (polytopes), and for sweeps bounds from rays against inner and outer shapes of the
// Minkowski sum, with margins far above double rounding and within the contract's 1e-5.
import { FLT_MAX } from './model-world.mjs';
import { convexOf, distanceBounds, f32v, inShape, member, norm, overlapClass, sub } from './model-geom.mjs';

/**
 * Problems with an overlap answer: indices (ascending, the first min(total, cap)) and total,
 * against the classification of every object against the query volume (a JSON shape).
 */
export function judgeOverlap(sc, model, volume, f, got) {
  const Q = convexOf(volume);
  const must = []; const may = new Set();
  for (let j = 0; j < model.count; j++) {
    if (!model.allowed(j, f, 0)) continue;
    const c = overlapClass(sc, Q, convexOf(model.objs[j].shape));
    if (c === 'yes') must.push(j);
    if (c !== 'no') may.add(j);
  }
  const { total } = got;
  const countOnly = got.indices === null;
  const indices = got.indices ?? [];
  for (let k = 1; k < indices.length; k++) if (!(indices[k - 1] < indices[k])) return `indices not ascending: ${indices}`;
  if (total < must.length || total > may.size) return `total ${total}, expected between ${must.length} [${must}] and ${may.size} [${[...may]}]`;
  for (const j of indices) if (!may.has(j)) return `object ${j} reported but it is not allowed or clearly apart (indices ${indices})`;
  // the reported prefix: every certain object below the last reported index must be in it
  const last = indices.length ? indices[indices.length - 1] : -1;
  for (const j of countOnly ? [] : must) {
    if (indices.length === total && !indices.includes(j)) return `object ${j} certainly overlaps but is missing (indices ${indices})`;
    if (j <= last && !indices.includes(j)) return `object ${j} certainly overlaps but is missing (indices ${indices})`;
  }
  return null;
}

/** Problems with closestObjects' answer for point q (float32) and maxDistance md. */
export function judgeClosest(sc, model, q, md, f, i, got) {
  let best = Infinity; const cand = [];
  for (let j = 0; j < model.count; j++) {
    if (!model.allowed(j, f, i)) continue;
    const s = model.objs[j].shape;
    // exact containment; where the single contains differs (a point within its rounding of the
    // boundary, inside the allowance of "How results are judged") either answer is accepted
    const inside = inShape(q, s);
    const ambiguous = inside !== sc.contains(q, s).inside;
    const cp = inside ? q : sc.closestPoint(q, s).point;
    const d = inside ? 0 : norm(sub(q, cp));
    const scale = Math.max(1, ...q.map(Math.abs), ...cp.map(Math.abs), ...shapeNumbers(s));
    cand[j] = { d, cp, inside, ambiguous, tol: 1e-4 * scale };
    best = Math.min(best, d);
  }
  const within = (c) => c && (c.inside || c.d <= md + c.tol);
  const clearlyWithin = (c) => c && !c.ambiguous && (c.inside || c.d < md - c.tol);
  if (got.index === -1) {
    const j = cand.findIndex(clearlyWithin);
    if (j >= 0) return `no object reported, but object ${j} is at ${cand[j].d} <= ${md}`;
    if (got.distance !== Infinity) return `a miss must report distance Infinity, got ${got.distance}`;
    return null;
  }
  const c = cand[got.index];
  if (!c) return `object ${got.index} is not allowed`;
  if (!within(c)) return `object ${got.index} is at ${c.d} > maxDistance ${md}`;
  if (c.d > best + c.tol) return `object ${got.index} at ${c.d} is not the nearest (${best})`;
  // an object exactly containing the point is at distance 0: a lower index containing it wins
  const first0 = cand.findIndex((x) => x && x.inside && !x.ambiguous);
  if (first0 >= 0 && got.index > first0) return `the point is inside object ${first0}, a lower index than ${got.index}`;
  // beyond the float range the contract fixes no rounding: FLT_MAX or Infinity
  const far = c.d > FLT_MAX && (got.distance === FLT_MAX || got.distance === Infinity);
  if (!far && Math.abs(got.distance - c.d) > c.tol) return `distance ${got.distance}, expected ${c.d}`;
  if (c.inside && !c.ambiguous && got.distance !== 0) return `inside: distance must be 0, got ${got.distance}`;
  if (got.point.some((x, k) => Math.abs(x - c.cp[k]) > c.tol)) return `point ${got.point}, expected ${c.cp}`;
  return null;
}

/** The magnitudes of a shape's numbers. */
const shapeNumbers = (s) => [s.min, s.max, s.center, s.half, s.axes?.flat(), s.a, s.b, [s.radius ?? 0]].flatMap((v) => v ?? []).map(Math.abs);

/** The inner and outer shapes (JSON) of the Minkowski sum of object s and the moving shape. */
function minkowski(s, r, e, m) {
  const grow = (v, by) => f32v(v.map((x, k) => x + by[k]));
  const inner = [s]; let outer;
  if (s.type === 'capsule') {
    // a capsule grown by the sphere's radius, or by the box's inscribed ball (inner) and its
    // circumscribed one (outer): capsules too, which sc.raycast answers
    const grown = (by) => ({ ...s, radius: Math.fround(s.radius + by) });
    const lo = e ? Math.min(...e) : r;
    outer = grown(((e ? norm(e) : r) + m) * (1 + 1e-6) + s.radius * 1e-6);
    if (lo - m > 0) inner.push(grown(lo - m));
    return { inner, outer };
  }
  if (s.type === 'sphere') {
    const reach = e ? norm(e) : r;
    outer = { type: 'sphere', center: s.center, radius: Math.fround((s.radius + reach + m) * (1 + 1e-6)) };
    if (!e && r - m > 0) inner.push({ type: 'sphere', center: s.center, radius: Math.fround(s.radius + r - m) });
    if (e) {
      const box = (h) => ({ type: 'aabb', min: grow(s.center, h.map((x) => -x)), max: grow(s.center, h) });
      inner.push(box(e.map((x) => Math.max(x - m, 0))));
      if (s.radius - m > 0) for (let k = 0; k < 3; k++) inner.push(box(e.map((x, a) => Math.max(x - m, 0) + (a === k ? s.radius - m : 0))));
    }
  } else if (s.type === 'aabb') {
    const out = e || [r, r, r];
    outer = { type: 'aabb', min: grow(s.min, out.map((x) => -(x + m))), max: grow(s.max, out.map((x) => x + m)) };
    if (e) {
      const g = e.map((x) => x - m);
      if ([0, 1, 2].every((k) => s.max[k] - s.min[k] + 2 * g[k] >= 0)) inner.push({ type: 'aabb', min: grow(s.min, g.map((x) => -x)), max: grow(s.max, g) });
    } else if (r - m > 0) {
      for (let k = 0; k < 3; k++) {
        const g = [0, 1, 2].map((a) => (a === k ? r - m : 0));
        inner.push({ type: 'aabb', min: grow(s.min, g.map((x) => -x)), max: grow(s.max, g) });
      }
    }
  } else {
    const reach = s.axes.map((a) => (e ? Math.abs(a[0]) * e[0] + Math.abs(a[1]) * e[1] + Math.abs(a[2]) * e[2] : r * norm(a)));
    outer = { ...s, half: f32v(s.half.map((h, k) => (h + reach[k] + m) * (1 + 1e-6))) };
    if (!e && r - m > 0) for (let k = 0; k < 3; k++) inner.push({ ...s, half: f32v(s.half.map((h, a) => (a === k ? h + (r - m) / 1.001 : h))) });
  }
  return { inner, outer };
}

/**
 * The time a ray first reaches a shape within [0, tmax] (raycast t), or Infinity. With
 * `robust` (a length), only a hit whose part within [0, tmax] is longer than that counts: a
 * graze or a touch within the single query's rounding is not certain.
 */
function firstT(sc, ray, s, robust = 0) {
  if (![s.min, s.max, s.center, s.half, s.a, s.b].every((v) => v === undefined || v.every(Number.isFinite)) || (s.radius !== undefined && !Number.isFinite(s.radius))) return null;
  const h = sc.raycast(ray, s);
  if (!h.hit) return Infinity;
  if (robust > 0 && !((Math.min(h.t_exit, ray.tmax) - h.t) * norm(ray.dir) > robust)) return Infinity;
  return h.t;
}

/**
 * Problems with one sweep's answer: sphere (radius r) or box (half extents e) moving along ray,
 * got {t, index, normal, point}.
 */
export function judgeSweep(sc, model, ray, r, e, f, i, got) {
  const skip = f && f.inside === 'skip';
  const dl = norm(ray.dir);
  let upper = Infinity; const reach = [];
  for (let j = 0; j < model.count; j++) {
    if (!model.allowed(j, f, i)) continue;
    const s = model.objs[j].shape;
    const cv = convexOf(s);
    const sc0 = Math.max(1e-30, norm(ray.origin), dl * (Number.isFinite(ray.tmax) ? ray.tmax : 0), r, e ? norm(e) : 0, ...(cv.kind === 'ball' ? [...cv.c, cv.r] : cv.kind === 'capsule' ? [...cv.a, ...cv.b, cv.r] : cv.verts.flat()).map(Math.abs));
    const m = 2e-6 * sc0; const tolT = 1e-5 * sc0 / dl;
    const { inner, outer } = minkowski(s, r, e, m);
    const tin = Math.min(...inner.map((x) => firstT(sc, ray, x, m) ?? Infinity));
    const tout = firstT(sc, ray, outer) ?? -Infinity;
    reach[j] = { tin, tout, tolT };
    if (skip && tout <= 0) { if (tin === 0) reach[j].ignored = true; continue; } // may touch at t = 0
    upper = Math.min(upper, tin + tolT);
  }
  const { index, t } = got;
  if (index === -1) {
    if (upper < Infinity) return `miss, but an allowed object is certainly touched by t = ${upper}`;
    return null;
  }
  const rj = reach[index];
  if (!rj) return `object ${index} is not allowed`;
  if (rj.ignored) return `object ${index} touches at t = 0 and inside is skip`;
  if (!(t >= 0 && t <= ray.tmax)) return `t = ${t} outside [0, tmax]`;
  if (t > upper) return `t = ${t}, but an allowed object is certainly touched by ${upper}`;
  if (t < rj.tout - rj.tolT) return `t = ${t} is before any possible contact with object ${index} (${rj.tout - rj.tolT})`;
  return judgeContact(sc, model.objs[index].shape, ray, r, e, got);
}

/** The contact point must lie on the object and on the moving shape at t; the normal unit. */
function judgeContact(sc, s, ray, r, e, got) {
  const { t } = got; const n = Array.from(got.normal); const p = Array.from(got.point);
  const x = [0, 1, 2].map((k) => ray.origin[k] + t * ray.dir[k]);
  // the scale of "How results are judged": the largest magnitude of the case's numbers, at least 1
  const scale = Math.max(1, ...x.map(Math.abs), ...p.map(Math.abs), ...ray.origin.map(Math.abs), t * norm(ray.dir), r, ...(e || []), ...shapeNumbers(s));
  const tol = 1e-4 * scale;
  // t > 0: a unit normal; zero is accepted only when the moving shape or the object is
  // degenerate (a radius or an extent 0, or below 1e-6 of the scale), where at an edge or a
  // corner "the direction from the contact point to the moving shape" can vanish
  const flat = (v) => v.some((x) => x <= 1e-6 * scale);
  const degenerate = (e ? flat(e) : r <= 1e-6 * scale) || flat(s.type === 'sphere' || s.type === 'capsule' ? [s.radius] : s.type === 'obb' ? s.half : s.max.map((x, k) => x - s.min[k]));
  const zero = n.every((x) => x === 0);
  if (t > 0 && !(zero && degenerate) && Math.abs(norm(n) - 1) > 1e-3) return `t = ${t} > 0 needs a unit normal, got ${n}`;
  // touching at the start: the contact point is not defined; a saturated t does not locate it
  if (t === 0 || t === FLT_MAX) return null;
  const d = distanceBounds(convexOf(s), p);
  if (d.lower > tol && !member(sc, convexOf(s), f32v(p))) return `contact point ${p} is ${d.lower} from object`;
  const off = e ? norm([0, 1, 2].map((k) => Math.max(Math.abs(p[k] - x[k]) - e[k], 0))) : Math.max(norm(sub(p, x)) - r, 0);
  if (off > tol) return `contact point ${p} is ${off} from the moving shape at t = ${t} (centre ${x})`;
  return null;
}
