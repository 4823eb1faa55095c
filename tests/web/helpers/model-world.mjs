// The model of a world for world-model.test.mjs: which objects exist (their float32 shapes),
// removed / enabled / mask, and the expected answers of the ray queries, computed from the
// single queries (sc.raycast, sc.contains) and the rules of docs/semantics.md ("World queries",
// "Filters"): nearest reported float32 t, ties to the lowest index, inside = solid / skip / exit.
import { dot, norm } from './model-geom.mjs';

export const FLOATS = { aabb: 6, obb: 15, sphere: 4, capsule: 7 };
export const FLT_MAX = 3.4028234663852886e38;

/** The JSON shape of one object from its batch floats. */
export function shapeOf(kind, f) {
  if (kind === 'aabb') return { type: 'aabb', min: [f[0], f[1], f[2]], max: [f[3], f[4], f[5]] };
  if (kind === 'sphere') return { type: 'sphere', center: [f[0], f[1], f[2]], radius: f[3] };
  if (kind === 'capsule') return { type: 'capsule', a: [f[0], f[1], f[2]], b: [f[3], f[4], f[5]], radius: f[6] };
  return { type: 'obb', center: [f[0], f[1], f[2]], axes: [[f[3], f[4], f[5]], [f[6], f[7], f[8]], [f[9], f[10], f[11]]], half: [f[12], f[13], f[14]] };
}

export class WorldModel {
  constructor() { this.objs = []; }

  get count() { return this.objs.length; }

  live() { return this.objs.map((o, i) => (o.removed ? -1 : i)).filter((i) => i >= 0); }

  /** Whether object j may be hit by item i under filter f ({mask, exclude (resolved), inside}). */
  allowed(j, f, i) {
    const o = this.objs[j];
    if (o.removed || !o.enabled) return false;
    const mask = f && f.mask !== undefined ? f.mask >>> 0 : 0xFFFFFFFF; // the default: all bits
    if (((o.mask & mask) >>> 0) === 0) return false;
    if (f && f.exclude && f.exclude[i] === j) return false;
    return true;
  }
}

/** A ray {origin, dir, tmax} from 7 floats. */
export const rayOf = (a, i) => ({ origin: [a[7 * i], a[7 * i + 1], a[7 * i + 2]], dir: [a[7 * i + 3], a[7 * i + 4], a[7 * i + 5]], tmax: a[7 * i + 6] });

/**
 * Every allowed hit of a ray under the filter: [{index, t, normal, exit}] in (t, index) order,
 * from sc.raycast on each object. inside: 'skip' drops objects with t_enter < 0, 'exit' reports
 * t_exit when t_exit <= tmax.
 */
export function rayHits(sc, model, ray, f, i) {
  const inside = (f && f.inside) || 'solid';
  const hits = [];
  for (let j = 0; j < model.count; j++) {
    if (!model.allowed(j, f, i)) continue;
    const h = sc.raycast(ray, model.objs[j].shape);
    if (!h.hit) continue;
    if (h.t_enter < 0 && inside === 'skip') continue;
    if (h.t_enter < 0 && inside === 'exit') {
      if (!(h.t_exit <= ray.tmax)) continue;
      hits.push({ index: j, t: h.t_exit, normal: null, exit: true, h });
      continue;
    }
    hits.push({ index: j, t: h.t, normal: h.normal, exit: false, h });
  }
  hits.sort((a, b) => a.t - b.t || a.index - b.index);
  return hits;
}

/** Hits of a zero-length segment (a point test): objects containing a at t = 0; none under skip. */
export function pointHits(sc, model, a, f, i) {
  if (f && f.inside === 'skip') return [];
  const hits = [];
  for (let j = 0; j < model.count; j++) {
    if (model.allowed(j, f, i) && model.objs[j].shape && sc.contains(a, model.objs[j].shape).inside) {
      hits.push({ index: j, t: 0, normal: [0, 0, 0], exit: false });
    }
  }
  return hits;
}

/**
 * Whether n is an outward unit normal of shape s at the point origin + t*dir (within 1e-4 of
 * the local scale), pointing along (exit) or against (entry) dir: a face normal (AABB, OBB) or
 * the radial direction (sphere). The point is taken relative to the shape's centre,
 * (origin - centre) + t*dir, so that far shapes keep their precision.
 */
export function faceNormalOk(s, ray, t, n, exit) {
  const { origin, dir } = ray;
  if (Math.abs(norm(n) - 1) > 1e-4) return false;
  const nd = dot(n, dir);
  if (exit ? nd < -1e-6 * norm(dir) : nd > 1e-6 * norm(dir)) return false;
  if (Math.abs(t) === FLT_MAX) return true; // a saturated t does not locate the point
  if (s.type === 'capsule') return capsuleNormalOk(s, ray, t, n);
  const c = s.type === 'aabb' ? [0, 1, 2].map((k) => (s.min[k] + s.max[k]) / 2) : s.center;
  const rel = [0, 1, 2].map((k) => (origin[k] - c[k]) + t * dir[k]);
  const h = s.type === 'obb' ? s.half : s.type === 'aabb' ? [0, 1, 2].map((k) => (s.max[k] - s.min[k]) / 2) : [s.radius];
  const tol = 1e-4 * Math.max(1e-30, norm(rel), norm(dir) * Math.abs(t), ...h);
  if (s.type === 'sphere') {
    if (s.radius === 0) return true; // a point: any direction along the ray is accepted
    const l = norm(rel);
    return [0, 1, 2].every((k) => Math.abs(rel[k] / l - n[k]) <= 1e-3);
  }
  const axes = s.type === 'obb' ? s.axes : [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  for (let a = 0; a < 3; a++) {
    const dn = dot(axes[a], n) / norm(axes[a]);
    if (Math.abs(Math.abs(dn) - 1) > 1e-3) continue;
    if (Math.abs(dot(rel, axes[a]) - (dn > 0 ? h[a] : -h[a])) <= tol) return true;
  }
  return false;
}

/** A capsule's outward normal at origin + t dir: the direction from its axis' nearest point. */
function capsuleNormalOk(s, ray, t, n) {
  if (s.radius === 0) return true; // a segment: no defined normal at most points
  const c = [0, 1, 2].map((k) => (s.a[k] + s.b[k]) / 2);
  const rel = [0, 1, 2].map((k) => (ray.origin[k] - c[k]) + t * ray.dir[k]);
  const a = [0, 1, 2].map((k) => s.a[k] - c[k]); const ab = [0, 1, 2].map((k) => s.b[k] - s.a[k]);
  const l2 = dot(ab, ab);
  const u = l2 > 0 ? Math.min(1, Math.max(0, dot([0, 1, 2].map((k) => rel[k] - a[k]), ab) / l2)) : 0;
  const d = [0, 1, 2].map((k) => rel[k] - (a[k] + u * ab[k]));
  const l = norm(d);
  if (!(l > 0)) return true;
  return [0, 1, 2].every((k) => Math.abs(d[k] / l - n[k]) <= 1e-3);
}

/** The problem with one nearest-hit answer (t, index, normal) given the model's hits, or null. */
export function judgeNearest(hits, ray, got, shapes) {
  const want = hits[0];
  if (!want) {
    if (got.index !== -1 || got.t !== 0 || got.normal.some((x) => x !== 0)) return `expected a miss, got ${JSON.stringify(got)}`;
    return null;
  }
  if (got.index !== want.index || !Object.is(got.t + 0, want.t + 0)) {
    return `expected index ${want.index} t ${want.t}${want.exit ? ' (exit)' : ''}, got index ${got.index} t ${got.t}`;
  }
  const n = Array.from(got.normal);
  if (!want.exit && want.h && want.h.t_enter < 0) {
    if (n.some((x) => x !== 0)) return `origin inside object ${want.index}: normal must be 0, got ${n}`;
    return null;
  }
  if (!want.exit && want.normal && n.every((x, k) => x === want.normal[k])) return null;
  if (!want.h) return n.every((x) => x === 0) ? null : `point test: normal must be 0, got ${n}`;
  if (!faceNormalOk(shapes[want.index], ray, want.t, n, want.exit)) {
    return `normal ${n} is not a face normal of object ${want.index} at t = ${want.t}${want.exit ? ' (exit)' : ''}`;
  }
  return null;
}
