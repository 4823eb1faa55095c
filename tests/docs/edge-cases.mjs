// The rows of docs/edge-cases.md: each tricky input, the hand-derived answer of
// docs/semantics.md ("truth"), and the code that computes every cell of the table:
// slabcast (the real wasm module), three.js (THREE.Ray from node_modules/three) and the seed
// ports (tests/docs/seed-ports.mjs). tests/web/docs.test.mjs recomputes the table and compares it
// with the page, cell by cell.
//
//   node tests/docs/edge-cases.mjs   prints the table and the "why" list (after npm run build)

import {
  seed000Raycast,
  seed002LinetestAabb,
  seed002LinetestPlane,
  seed002RaycastAabb,
  seed002RaycastPlane,
  seed002RaycastSphere,
  seed004Intersects,
} from './seed-ports.mjs';

export const FLT_MAX = 3.4028234663852886e38;

/** The box most rows use, written "B" in the table. */
export const B = { type: 'aabb', min: [0, 0, 0], max: [2, 2, 2] };

const ray = (origin, dir, tmax) => (tmax === undefined ? { origin, dir } : { origin, dir, tmax });

// truth: what docs/semantics.md says, derived by hand in the comment of each row.
//   { hit: true, t, t_exit? }  a hit at t (t_exit: the exit of the line's interval, when the
//                              other conventions may report it)
//   { hit: false }             a miss
//   { invalid: true }          invalid input (slabcast refuses it)
// show: extra slabcast result fields printed in its cell.
// why: one line, for rows where slabcast's answer differs from another column.
export const ROWS = [
  {
    // y = 2 = max.y with dir.y = 0: the y slab holds every t (closed); x enters at 1, exits at 3.
    label: 'axis-parallel ray lying in a face plane (y = max)',
    query: 'raycast', ray: ray([-1, 2, 1], [1, 0, 0]), shape: B,
    truth: { hit: true, t: 1 },
    why: 'slabcast never divides by a zero component: a parallel axis is the closed test min ≤ o ≤ max. The tutorial computes 0/0 = NaN; the Cookbook replaces the 0 by 1e-5, which turns the y slab into [-200000, 0].',
  },
  {
    // The line passes through the edge x = 49, y = 1 at t = 1: x in [40/49, 1], y in [1, 5].
    label: 'ray grazing an edge',
    query: 'raycast', ray: ray([0, 0, 0], [49, 1, 0]), shape: { type: 'aabb', min: [40, 1, -1], max: [49, 5, 1] },
    truth: { hit: true, t: 1 },
    why: 'three.js multiplies by a rounded reciprocal: 49 × (1/49) = 0.9999999999999999, so the x slab ends just before the y slab begins. slabcast divides (49/49 = 1 exactly).',
  },
  {
    // x: [-1, 1]; y, z parallel and inside. t = max(t_enter, 0) = 0.
    label: 'origin inside the box',
    query: 'raycast', ray: ray([1, 1, 1], [1, 0, 0]), shape: B,
    truth: { hit: true, t: 0, t_exit: 1 }, show: ['t_enter', 't_exit'],
    why: 'a convention, not a bug: the contract reports the first point of the ray in the solid (t = 0); three.js, the tutorial and the Cookbook report the exit, which slabcast gives as t_exit.',
  },
  {
    // x: [-2, 0] meets [0, inf) at 0: the origin is a point of the closed box.
    label: 'origin on a face, pointing out',
    query: 'raycast', ray: ray([2, 1, 1], [1, 0, 0]), shape: B,
    truth: { hit: true, t: 0, t_exit: 0 }, show: ['t_enter', 'normal'],
    why: 'the box is closed, so its face belongs to it. The GLES code only tests faces the ray can enter, plus an origin strictly inside.',
  },
  {
    // x: [0, 2]: enters at t = 0 through the min x face.
    label: 'origin on a face, pointing in',
    query: 'raycast', ray: ray([0, 1, 1], [1, 0, 0]), shape: B,
    truth: { hit: true, t: 0 }, show: ['normal'],
  },
  {
    // -0 behaves as 0 (docs/semantics.md): y = 0 = min.y, parallel, inside the closed slab; x: [1, 3].
    label: '-0 direction component, origin on a face plane (y = min)',
    query: 'raycast', ray: ray([-1, 0, 1], [1, -0, 0]), shape: B,
    truth: { hit: true, t: 1 },
    why: '-0 is 0 for slabcast (no division); the tutorial computes 0/-0 = NaN.',
  },
  {
    // The box is flat in y (min.y = max.y = 0) and the ray lies in that plane: x: [1, 3].
    label: 'ray lying in the plane of a zero-thickness box',
    query: 'raycast', ray: ray([-1, 0, 1], [1, 0, 0]), shape: { type: 'aabb', min: [0, 0, 0], max: [2, 0, 2] },
    truth: { hit: true, t: 1 },
    why: 'min = max is a valid, closed box. The tutorial gets 0/0 on both y planes; the Cookbook\'s 1e-5 shrinks the y slab to t = 0 only.',
  },
  {
    // x: [2, 4], tmax = 2: [2, 4] meets [0, 2] at 2.
    label: 'tmax exactly at the entry',
    query: 'raycast', ray: ray([-2, 1, 1], [1, 0, 0], 2), shape: B,
    truth: { hit: true, t: 2 },
  },
  {
    // Every point of the segment is in the box.
    label: 'segment wholly inside the box',
    query: 'linetest', segment: { a: [0.5, 1, 1], b: [1.5, 1, 1] }, shape: B,
    truth: { hit: true },
    why: 'the Cookbook\'s Linetest uses the raycast\'s t, which from inside is the exit (1.5), and 1.5² > LengthSq = 1.',
  },
  {
    // a == b is a point, and the point is in the box.
    label: 'degenerate segment (a == b) inside the box',
    query: 'linetest', segment: { a: [1, 1, 1], b: [1, 1, 1] }, shape: B,
    truth: { hit: true },
    why: 'slabcast treats a == b as a point test; the Cookbook normalizes the zero vector (0 × 1/0 = NaN) and its t ≥ 0 test fails.',
  },
  {
    // x: [1024 / 2^-120, 2048 / 2^-120] = [2^130, 2^131]; y, z parallel and inside.
    label: 'tiny direction, entry t past the float range',
    query: 'raycast', ray: ray([0, 0, 0], [2 ** -120, 0, 0]), shape: { type: 'aabb', min: [1024, -1, -1], max: [2048, 1, 1] },
    truth: { hit: true, t: 2 ** 130 },
    why: 'the exact entry 2^130 is past FLT_MAX: slabcast reports FLT_MAX (every number of a hit is finite). The Cookbook counts |d| ≤ 2^-23 as 0 and uses 1e-5 instead; the GLES code computes 0 × ∞ = NaN in the hit point.',
  },
  {
    label: 'NaN in the origin',
    query: 'raycast', ray: ray([NaN, -2, 1], [0, 1, 0]), shape: B,
    truth: { invalid: true },
    why: 'slabcast refuses it with a status naming the field. three.js (isNaN) and the Cookbook (fmaxf) drop the NaN slab and report a hit found with the other two axes.',
  },
  {
    label: 'infinite direction component',
    query: 'raycast', ray: ray([-2, 1, 1], [Infinity, 0, 0]), shape: B,
    truth: { invalid: true },
    why: 'dividing by ∞ (three.js: multiplying by 1/∞) puts both x planes at t = 0, so the entry is t = 0 at an origin outside the box. slabcast refuses non-finite input.',
  },
  {
    label: 'zero direction',
    query: 'raycast', ray: ray([-2, 1, 1], [0, 0, 0]), shape: B,
    truth: { invalid: true },
    why: 'a zero direction is not a ray, and slabcast refuses it; three.js and the tutorial divide by 0 and report a hit at t = ∞.',
  },
  {
    // m = o - c = (-2, 1, 0), unit d: b = m.d = -2, f = (0, 1, 0), h2 = 1 - 1 = 0: t = 2.
    label: 'ray tangent to a sphere',
    query: 'raycast', ray: ray([-2, 1, 0], [1, 0, 0]), shape: { type: 'sphere', center: [0, 0, 0], radius: 1 },
    truth: { hit: true, t: 2 },
  },
  {
    // I = [-4, -2] does not meet [0, inf).
    label: 'sphere behind the ray',
    query: 'raycast', ray: ray([3, 0, 0], [1, 0, 0]), shape: { type: 'sphere', center: [0, 0, 0], radius: 1 },
    truth: { hit: false },
    why: 'the Cookbook never tests t < 0.',
  },
  {
    // I = [-1, 1]: t = 0, the exit is 1.
    label: 'origin inside a sphere',
    query: 'raycast', ray: ray([0, 0, 0], [1, 0, 0]), shape: { type: 'sphere', center: [0, 0, 0], radius: 1 },
    truth: { hit: true, t: 0, t_exit: 1 }, show: ['t_exit'],
    why: 'the same convention as for boxes: t = 0, and the exit in t_exit.',
  },
  {
    // normal.dir = 0 and normal.origin = 1 = d: the whole line is in the plane, t = 0.
    label: 'ray lying in a plane',
    query: 'raycast', ray: ray([0, 1, 0], [1, 0, 0]), shape: { type: 'plane', normal: [0, 1, 0], d: 1 },
    truth: { hit: true, t: 0 },
    why: 'The contract: a parallel ray in the plane hits at t = 0. The Cookbook\'s Raycast needs normal·dir < 0.',
  },
  {
    // t0 = (1 - (-1)) / 1 = 2; the reported normal faces the ray: (0, -1, 0).
    label: 'plane hit from its back side',
    query: 'raycast', ray: ray([0, -1, 0], [0, 1, 0]), shape: { type: 'plane', normal: [0, 1, 0], d: 1 },
    truth: { hit: true, t: 2 }, show: ['normal'],
    why: 'planes are two-sided in slabcast (and in three.js); the Cookbook\'s Raycast is one-sided.',
  },
  {
    // Both end points are on the plane y = 1.
    label: 'segment lying in a plane',
    query: 'linetest', segment: { a: [0, 1, 0], b: [2, 1, 0] }, shape: { type: 'plane', normal: [0, 1, 0], d: 1 },
    truth: { hit: true },
    why: 'the Cookbook\'s Linetest returns false for every segment parallel to the plane, including one in it.',
  },
];

// ------------------------------------------------------------------------------ formatting

/** A number as the table writes it. */
export function fmtNum(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '-∞';
  if (Object.is(x, -0)) return '-0';
  if (x === FLT_MAX) return 'FLT_MAX';
  const e = Math.log2(Math.abs(x));
  if (x !== 0 && Number.isInteger(e) && Math.abs(e) > 20) return `${x < 0 ? '-' : ''}2^${e}`;
  if (Number.isInteger(x) && Math.abs(x) < 1e7) return String(x);
  if (Math.abs(x) >= 1e7 || Math.abs(x) < 1e-4) return x.toExponential(3).replace(/\.?0+e/, 'e').replace('e+', 'e');
  return String(Number(x.toPrecision(6)));
}

const fmtVec = (v) => `(${Array.from(v, fmtNum).join(', ')})`;

function fmtShape(s) {
  if (s === B) return 'B';
  switch (s.type) {
    case 'aabb': return `box ${fmtVec(s.min)}–${fmtVec(s.max)}`;
    case 'sphere': return `sphere c ${fmtVec(s.center)} r ${fmtNum(s.radius)}`;
    case 'plane': return `plane n ${fmtVec(s.normal)} d ${fmtNum(s.d)}`;
    default: throw new Error(`no format for ${s.type}`);
  }
}

/** The input column. */
export function fmtInput(row) {
  if (row.query === 'linetest') return `segment ${fmtVec(row.segment.a)}–${fmtVec(row.segment.b)}; ${fmtShape(row.shape)}`;
  const tmax = row.ray.tmax === undefined ? '' : `, tmax ${fmtNum(row.ray.tmax)}`;
  return `o ${fmtVec(row.ray.origin)}, d ${fmtVec(row.ray.dir)}${tmax}; ${fmtShape(row.shape)}`;
}

// An answer: {kind: 'hit', t?, extra?} | {kind: 'miss'} | {kind: 'nan'} (a t of NaN, neither
// -1 nor a number) | {kind: 'error', message} | {kind: 'na', why?}.

function close(t, want) {
  if (want > FLT_MAX) return t >= FLT_MAX; // FLT_MAX (slabcast's convention), inf (float code)
  return Math.abs(t - want) <= 1e-6 * Math.max(1, Math.abs(want));
}

/** What is wrong with an answer, measured against the row's truth ('' when it agrees). */
export function judge(answer, truth) {
  const { kind } = answer;
  if (kind === 'na' || kind === 'error') {
    return kind === 'error' && !truth.invalid ? ' (should hit)' : '';
  }
  if (truth.invalid) return kind === 'miss' ? '' : ' (invalid input)';
  if (!truth.hit) return kind === 'miss' ? '' : ' (should miss)';
  if (kind !== 'hit') return ' (should hit)';
  if (answer.t === undefined || truth.t === undefined || close(answer.t, truth.t)) return '';
  if (truth.t_exit !== undefined && close(answer.t, truth.t_exit)) return ' (the exit)';
  return ` (should be t=${fmtNum(truth.t)})`;
}

/** A cell: the answer and, where it disagrees with docs/semantics.md, a note. */
export function fmtAnswer(answer, truth) {
  let s;
  switch (answer.kind) {
    case 'hit': s = answer.t === undefined ? 'hit' : `hit t=${fmtNum(answer.t)}`; break;
    case 'miss': s = 'miss'; break;
    case 'nan': s = 't=NaN'; break;
    case 'error': s = `error "${answer.message}"`; break;
    case 'na': return answer.why ? `n/a (${answer.why})` : 'n/a';
    default: throw new Error(`unknown answer ${answer.kind}`);
  }
  if (answer.extra) s += `, ${answer.extra}`;
  return s + judge(answer, truth);
}

// ------------------------------------------------------------------------------ computing

/** slabcast's answer, from the real module (sc = await loadSlabcast()). */
export function slabcastAnswer(sc, row) {
  let r;
  try {
    r = row.query === 'linetest' ? sc.linetest(row.segment, row.shape) : sc.raycast(row.ray, row.shape);
  } catch (e) {
    if (e && e.name === 'SlabcastError') return { kind: 'error', message: e.message };
    throw e;
  }
  if (!r.hit) return { kind: 'miss' };
  if (row.query === 'linetest') return { kind: 'hit' };
  const extra = (row.show ?? []).map((k) => `${k}=${Array.isArray(r[k]) ? fmtVec(r[k]) : fmtNum(r[k])}`).join(', ');
  return { kind: 'hit', t: r.t, extra: extra || undefined };
}

/**
 * three.js's answer (THREE from node_modules/three). Ray.intersectBox / intersectSphere return a
 * point, not t: the t is the argument they pass to this.at(t, target), captured on the instance.
 * Planes: Ray.distanceToPlane, which returns t (three's Plane is normal.x + constant = 0, so
 * constant = -d).
 */
export function threeAnswer(THREE, row) {
  if (row.query === 'linetest') return { kind: 'na', why: 'no segment test' };
  if (row.ray.tmax !== undefined) return { kind: 'na', why: 'no tmax' };
  const r = new THREE.Ray(new THREE.Vector3(...row.ray.origin), new THREE.Vector3(...row.ray.dir));
  let captured;
  r.at = function at(t, target) {
    captured = t;
    return THREE.Ray.prototype.at.call(this, t, target);
  };
  const s = row.shape;
  let out;
  if (s.type === 'aabb') {
    out = r.intersectBox(new THREE.Box3(new THREE.Vector3(...s.min), new THREE.Vector3(...s.max)), new THREE.Vector3());
  } else if (s.type === 'sphere') {
    out = r.intersectSphere(new THREE.Sphere(new THREE.Vector3(...s.center), s.radius), new THREE.Vector3());
  } else if (s.type === 'plane') {
    const t = r.distanceToPlane(new THREE.Plane(new THREE.Vector3(...s.normal), -s.d));
    return t === null ? { kind: 'miss' } : { kind: 'hit', t };
  } else {
    return { kind: 'na' };
  }
  return out === null ? { kind: 'miss' } : { kind: 'hit', t: captured };
}

/** Seed 000, the tutorial's C# Raycast(Ray, AABB): AABBs only, no tmax. */
export function seed000Answer(row) {
  if (row.query !== 'raycast' || row.shape.type !== 'aabb') return { kind: 'na' };
  if (row.ray.tmax !== undefined) return { kind: 'na', why: 'no tmax' };
  const t = seed000Raycast(row.ray, row.shape);
  if (Number.isNaN(t)) return { kind: 'nan' };
  return t === -1 ? { kind: 'miss' } : { kind: 'hit', t };
}

/** Seed 002, the Cookbook's Raycast / Linetest for AABBs, spheres and planes. */
export function seed002Answer(row) {
  const s = row.shape;
  if (row.query === 'linetest') {
    const hit = s.type === 'aabb' ? seed002LinetestAabb(row.segment, s) : seed002LinetestPlane(row.segment, s);
    return { kind: hit ? 'hit' : 'miss' };
  }
  if (row.ray.tmax !== undefined) return { kind: 'na', why: 'no tmax' };
  const fn = { aabb: seed002RaycastAabb, sphere: seed002RaycastSphere, plane: seed002RaycastPlane }[s.type];
  const r = fn(row.ray, s);
  if (!r.hit) return { kind: 'miss' };
  return { kind: 'hit', t: r.t };
}

/** Seed 004, the GLES engine's intersects(AxisAlignedBox): AABBs only, no tmax. */
export function seed004Answer(row) {
  if (row.query !== 'raycast' || row.shape.type !== 'aabb') return { kind: 'na' };
  if (row.ray.tmax !== undefined) return { kind: 'na', why: 'no tmax' };
  const [hit, t] = seed004Intersects(row.ray, row.shape);
  return hit ? { kind: 'hit', t } : { kind: 'miss' };
}

export const COLUMNS = ['#', 'case', 'input', 'slabcast', 'three.js `Ray`', 'tutorial (000)', 'Cookbook (002)', 'GLES (004)'];

/**
 * Every row's cells, as strings, in COLUMNS order, plus the answers themselves.
 * @returns {{cells: string[], answers: object, row: object}[]}
 */
export function computeTable(sc, THREE) {
  return ROWS.map((row, i) => {
    const answers = {
      slabcast: slabcastAnswer(sc, row),
      three: threeAnswer(THREE, row),
      s000: seed000Answer(row),
      s002: seed002Answer(row),
      s004: seed004Answer(row),
    };
    const cells = [
      String(i + 1),
      row.label,
      fmtInput(row),
      fmtAnswer(answers.slabcast, row.truth),
      fmtAnswer(answers.three, row.truth),
      fmtAnswer(answers.s000, row.truth),
      fmtAnswer(answers.s002, row.truth),
      fmtAnswer(answers.s004, row.truth),
    ];
    return { cells, answers, row };
  });
}

/** The core of an answer, for "does this column differ from slabcast": kind and t. */
export function core(answer) {
  if (answer.kind === 'na') return 'na';
  if (answer.kind === 'hit') return answer.t === undefined ? 'hit' : `hit ${fmtNum(answer.t)}`;
  return answer.kind;
}

/** Whether some non-n/a column gives another answer than slabcast. */
export function differs(answers) {
  const mine = core(answers.slabcast);
  return Object.entries(answers).some(([k, a]) => k !== 'slabcast' && a.kind !== 'na' && core(a) !== mine);
}

const escapeCell = (s) => s.replace(/\|/g, '\\|');

/** The markdown table and the "why" list. */
export function renderMarkdown(table) {
  const lines = [];
  lines.push(`| ${COLUMNS.join(' | ')} |`);
  lines.push(`| ${COLUMNS.map((c) => (c === '#' ? '---:' : '---')).join(' | ')} |`);
  for (const { cells } of table) lines.push(`| ${cells.map(escapeCell).join(' | ')} |`);
  lines.push('');
  lines.push('Why slabcast answers differently:');
  lines.push('');
  table.forEach(({ row }, i) => {
    if (row.why) lines.push(`- **${i + 1}.** ${row.why}`);
  });
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { loadSlabcast } = await import('../../web/slabcast.js');
  const THREE = await import('three');
  const sc = await loadSlabcast();
  console.log(renderMarkdown(computeTable(sc, THREE)));
}
