// slabcast judge: compares one runner result with the exact oracle, following
// docs/semantics.md "How results are judged".
//
//   judgeCase(caseObj, resultObj, { allowance = true }) -> [problem strings]
//
// An empty list means the result is accepted.
//
// Rules implemented:
// - Errors: an invalid case must give a result with an "error" string, a
//   valid case must not (either is accepted when OBB orthonormality is
//   within 1e-6 of the 1e-4 threshold).
// - Classification (hit / inside) must equal the exact answer, for every
//   case, dyadic or not: no allowance (issue 22).
// - The numbers of a hit: outside the spec's exact class (small dyadic
//   box/plane cases, and small dyadic sphere cases along a world axis) they
//   are also accepted when they agree with the exact oracle evaluated on one
//   of a fixed set of nudged inputs of the same class (each number moved by
//   at most 1e-6 * scale; see exact.mjs `nudges`), and where a value is
//   ill-conditioned (a ray almost parallel to a face or a plane) its
//   tolerance is widened by a first-order estimate of how far 1e-6 nudges of
//   the inputs move it, so that a correct float32 implementation does not
//   fail. opts.allowance = false turns these nudges of the numbers off.
// - t, t_enter, t_exit: |got - want| * |dir| <= 1e-4 * scale.
// - point: each component within 1e-4 * scale.
// - normal: [0,0,0] (each component within 1e-4) when t_enter < 0; otherwise
//   a unit vector (length within 1e-4 of 1) whose components are within 1e-4
//   of the outward normal of a face whose plane lies within 1e-4 * scale of
//   the exact hit point (sphere: of a surface point within that distance of
//   the hit point). Outside the exact class, when |t_enter| * |dir| is within
//   the tolerance, both the zero vector and face normals are accepted.

import { judgeCapsule } from './capsule.mjs';
import { oracle, evaluate, nudges, singleNudges } from './exact.mjs';

const TOL = 1e-4;
/** The largest float32. docs/semantics.md: a t (or point coordinate) whose exact value lies
 * beyond it is reported as +-FLT_MAX, exactly; the classification still uses the exact value. */
export const FLT_MAX = 3.4028234663852886e38;
/** Is got acceptable for an exact value want beyond the float range (+-FLT_MAX required)? */
const beyond = (want) => Math.abs(want) > FLT_MAX;
// (the runner prints float32 values in their shortest form, e.g. 3.4028235e+38)
const saturatedOk = (want, got) => Math.fround(got) === Math.sign(want) * FLT_MAX;

/** Format a value of a result for a message. */
function show(v) {
  if (v === undefined) return '(none)';
  return JSON.stringify(v);
}

/** A result number: a JSON number, or the strings the runner prints for non-finite values. */
function resultNumber(v) {
  if (typeof v === 'number') return v;
  if (v === 'inf') return Infinity;
  if (v === '-inf') return -Infinity;
  if (v === 'nan') return NaN;
  return undefined;
}

function resultVec(v) {
  if (!Array.isArray(v) || v.length !== 3) return undefined;
  const out = v.map(resultNumber);
  return out.some((x) => x === undefined) ? undefined : out;
}

const NO_SLACK = { t: 0, tEnter: 0, tExit: 0, point: [0, 0, 0] };

/**
 * Compare a result with one oracle evaluation `want` (a result of evaluate()).
 * ctx: { scale, dirLen, query, lenientSign }. `slack` widens the tolerance of
 * each number (t values in units of dir, point per component) by the
 * first-order reach of a 1e-6 nudge (judgeValid).
 * Returns a list of problems.
 */
function compare(want, res, ctx, slack = NO_SLACK) {
  const problems = [];
  const tol = TOL * ctx.scale;
  const boolField = ctx.query === 'contains' ? 'inside' : 'hit';

  if (ctx.query === 'closest_point') {
    const got = resultVec(res.point);
    if (!got) return [`point: expected ${show(want.point)}, got ${show(res.point)}`];
    const ok = (x, i) =>
      beyond(want.point[i]) ? saturatedOk(want.point[i], x) : Math.abs(x - want.point[i]) <= tol + slack.point[i];
    if (!got.every(ok)) {
      problems.push(`point: expected ${show(want.point)} (within ${tol}), got ${show(res.point)}`);
    }
    return problems;
  }

  const gotBool = res[boolField];
  if (typeof gotBool !== 'boolean') return [`${boolField}: expected ${want[boolField]}, got ${show(gotBool)}`];
  if (gotBool !== want[boolField]) return [`${boolField}: expected ${want[boolField]}, got ${gotBool}`];
  if (ctx.query !== 'raycast' || !want.hit) return problems;

  // Raycast hit: numbers.
  for (const [field, key] of [
    ['t', 't'],
    ['t_enter', 'tEnter'],
    ['t_exit', 'tExit'],
  ]) {
    const got = resultNumber(res[field]);
    if (got === undefined || !Number.isFinite(got)) {
      problems.push(`${field}: expected ${want[key]}, got ${show(res[field])}`);
    } else if (beyond(want[key])) {
      if (!saturatedOk(want[key], got)) problems.push(`${field}: exact value ${want[key]} is beyond the float range: expected ${Math.sign(want[key]) * FLT_MAX}, got ${got}`);
    } else if (!(Math.abs(got - want[key]) * ctx.dirLen <= tol + slack[key] * ctx.dirLen)) {
      problems.push(`${field}: expected ${want[key]} (within ${tol / ctx.dirLen}), got ${got}`);
    }
  }
  const point = resultVec(res.point);
  const pointOk = (x, i) =>
    beyond(want.point[i]) ? saturatedOk(want.point[i], x) : Math.abs(x - want.point[i]) <= tol + slack.point[i];
  if (!point || !point.every(pointOk)) {
    problems.push(`point: expected ${show(want.point)} (within ${tol}), got ${show(res.point)}`);
  }

  // Normal.
  const n = resultVec(res.normal);
  if (!n || !n.every(Number.isFinite)) {
    problems.push(`normal: got ${show(res.normal)}`);
    return problems;
  }
  const nearZeroEnter = Math.abs(want.tEnter) * ctx.dirLen <= tol + slack.tEnter * ctx.dirLen;
  const zeroOk = want.tEnterSign < 0 || (ctx.lenientSign && nearZeroEnter);
  const faceOk = want.tEnterSign >= 0 || (ctx.lenientSign && nearZeroEnter);
  const isZero = n.every((x) => Math.abs(x) <= TOL);
  if (isZero) {
    if (!zeroOk) problems.push(`normal: expected a face normal (t_enter = ${want.tEnter} >= 0), got ${show(res.normal)}`);
    return problems;
  }
  if (!faceOk) {
    problems.push(`normal: expected [0, 0, 0] (origin inside, t_enter = ${want.tEnter}), got ${show(res.normal)}`);
    return problems;
  }
  const len = Math.hypot(n[0], n[1], n[2]);
  if (!(Math.abs(len - 1) <= TOL)) {
    problems.push(`normal: not a unit vector (length ${len}): ${show(res.normal)}`);
    return problems;
  }
  if (!normalAccepted(n, want, tol)) {
    const accepted = want.faces.filter((f) => f.dist <= tol).map((f) => f.normal);
    problems.push(`normal: expected one of ${show(accepted)}, got ${show(res.normal)}`);
  }
  return problems;
}

/** Is the unit vector n an outward normal of a face within tol of the hit point? */
function normalAccepted(n, want, tol) {
  const close = (a) => a.every((x, i) => Math.abs(x - n[i]) <= TOL);
  if (want.faces.some((f) => f.dist <= tol && close(f.normal))) return true;
  if (want.sphere) {
    // Any surface point c + r n within the tolerance of the hit point.
    const { center: c, radius: r } = want.sphere;
    const s = c.map((x, i) => x + r * n[i]);
    return s.every((x, i) => Math.abs(x - want.point[i]) <= tol);
  }
  return false;
}

/**
 * Judge one result against the oracle. The class (hit / inside) must be the
 * exact one; opts.allowance (default true) enables the nudges of the numbers
 * outside the exact class.
 */
export function judgeCase(caseObj, res, opts = {}) {
  const allowance = opts.allowance !== false;
  const ora = oracle(caseObj);
  if (res === null || typeof res !== 'object' || Array.isArray(res)) return [`result is not an object: ${show(res)}`];
  const problems = [];
  const id = caseObj && typeof caseObj === 'object' ? caseObj.id : undefined;
  if (typeof id === 'string' && res.id !== id) problems.push(`id: expected ${show(id)}, got ${show(res.id)}`);

  if (ora.error) {
    if (ora.borderline && !('error' in res)) return problems.concat(judgeValid(ora.asValid, res, allowance));
    if (typeof res.error !== 'string') problems.push(`error: expected an error (${ora.message}), got ${show(res.error ?? 'a result')}`);
    return problems;
  }
  if ('error' in res) {
    if (!ora.borderline) problems.push(`error: unexpected error ${show(res.error)}`);
    return problems;
  }
  // capsules: exact classes and the 2^-20 bound of docs/semantics.md "Capsules" (no nudges)
  if (ora.capsule) return problems.concat(judgeCapsule(ora.input, res));
  return problems.concat(judgeValid(ora, res, allowance));
}

/** Does the result's class (hit / inside) differ from the exact one? (No nudge may explain that.) */
function classDiffers(want, res, query) {
  if (query === 'closest_point') return false;
  const field = query === 'contains' ? 'inside' : 'hit';
  return res[field] !== want[field];
}

function judgeValid(ora, res, allowance) {
  const ctx = {
    scale: ora.scale,
    dirLen: ora.dirLen,
    query: ora.input.query,
    lenientSign: allowance && !ora.exactClass,
  };
  const first = compare(ora.result, res, ctx);
  if (first.length === 0 || !allowance || ora.exactClass || classDiffers(ora.result, res, ctx.query)) return first;
  const unexplained = () => first.map((p) => `${p} (no 1e-6 nudge of the inputs explains it)`);

  // 1. Does the result agree with the oracle on one of the nudged inputs?
  const evals = [ora.result];
  for (const ex of nudges(ora.exact, ctx.scale)) {
    const r = evaluate(ex);
    if (compare(r, res, ctx).length === 0) return [];
    evals.push(r);
  }

  // 2. First-order reach: where the values are ill-conditioned (a ray almost
  // parallel to a face or a plane), a nudge can move them by much more than
  // the tolerance. Take as base an evaluation with the result's
  // classification, estimate how far nudging each input number by +-eps
  // moves each value (summed over the numbers), and compare with that slack.
  if (ctx.query !== 'raycast' && ctx.query !== 'closest_point') return unexplained();
  const sameClass = (r) => ctx.query === 'closest_point' || r.hit === res.hit;
  const base = evals.find(sameClass);
  if (!base || (ctx.query === 'raycast' && !base.hit)) return unexplained();
  const slack = { t: 0, tEnter: 0, tExit: 0, point: [0, 0, 0] };
  const faces = [...(base.faces ?? [])];
  for (const pair of singleNudges(ora.exact, ctx.scale)) {
    const dev = { t: 0, tEnter: 0, tExit: 0, point: [0, 0, 0] };
    for (const ex of pair) {
      const r = evaluate(ex);
      if (!sameClass(r)) continue;
      for (let i = 0; i < 3; i++) dev.point[i] = Math.max(dev.point[i], Math.abs(r.point[i] - base.point[i]));
      if (ctx.query !== 'raycast') continue;
      for (const k of ['t', 'tEnter', 'tExit']) dev[k] = Math.max(dev[k], Math.abs(r[k] - base[k]));
      faces.push(...r.faces);
    }
    for (const k of ['t', 'tEnter', 'tExit']) slack[k] += dev[k];
    for (let i = 0; i < 3; i++) slack.point[i] += dev.point[i];
  }
  for (const r of evals) if (r.hit && sameClass(r)) faces.push(...r.faces);
  if (compare({ ...base, faces }, res, ctx, slack).length === 0) return [];
  return unexplained();
}
