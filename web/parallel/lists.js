// lists.js: the answers of castRayAll and the overlaps on a parallel world, whose items have as
// many answers as they have hits. An answer is a list: start (an Int32Array of n + 1: item i's
// hits are start[i] to start[i + 1] - 1), then the hits' arrays (index; castRayAll also t and
// normal, 3 floats per hit). Workers answer lists of their slices; these join them, checking
// each piece, as a worker's message is data from another thread.
import { SlabcastError } from '../core/errors.js';
import { taCopy, taExact, taKind, taLength, taSet } from '../core/typed.js';
import { OUT } from './protocol.js';

/** Throws (and the caller fails the pool) when worker k's list for m items is malformed. */
function checkList(q, k, m, answer) {
  const bad = (what) => { throw new SlabcastError(`parallel world: worker ${k} answered ${q.name} with ${what}`); };
  const start = answer.start;
  if (taKind(start) !== 'Int32Array' || taLength(start) !== m + 1) bad(`a start that is not an Int32Array of ${m + 1}`);
  if (start[0] !== 0) bad('a start that does not begin at 0');
  for (let i = 0; i < m; i++) if (!(start[i + 1] >= start[i])) bad(`a start that decreases at ${i}`);
  const hits = start[m];
  for (const [key, Type, per] of OUT[q.out]) {
    const a = answer[key];
    if (taKind(a) !== Type.name || taLength(a) !== per * hits) bad(`${key} that is not a ${Type.name} of ${per * hits}`);
  }
  return hits;
}

/** One list for all n items from the workers' answers; worker k's slice is items starts[k] to starts[k + 1] - 1. */
export function assembleLists(q, answers, n, starts) {
  let hits = 0;
  const counts = answers.map((a, k) => {
    const h = checkList(q, k, starts[k + 1] - starts[k], a);
    hits += h;
    return h;
  });
  const out = { start: new Int32Array(n + 1) };
  for (const [key, Type, per] of OUT[q.out]) out[key] = new Type(per * hits);
  let at = 0;
  answers.forEach((a, k) => {
    const item = starts[k];
    const m = starts[k + 1] - item;
    for (let i = 1; i <= m; i++) out.start[item + i] = at + a.start[i];
    for (const [key, , per] of OUT[q.out]) taSet(out[key], a[key], per * at);
    at += counts[k];
  });
  return out;
}

/**
 * A growing list, for a worker's slice or the shared engine's answers: add(item's arrays) per
 * item in order, then done() gives {start, index, ...} with exactly the hits.
 */
export class ListBuilder {
  constructor(q, m) {
    this.q = q;
    this.start = new Int32Array(m + 1);
    this.items = 0;
    this.hits = 0;
    this.arrays = OUT[q.out].map(([key, Type, per]) => [key, Type, per, new Type(per * Math.max(16, m))]);
  }

  /** Appends one item's hits: parts[key] holds its arrays (index, ...), `count` hits of them. */
  add(parts, count) {
    for (const entry of this.arrays) {
      const [key, Type, per] = entry;
      let a = entry[3];
      if (taLength(a) < per * (this.hits + count)) {
        const b = new Type(Math.max(per * (this.hits + count), 2 * taLength(a)));
        taSet(b, a);
        a = b;
        entry[3] = a;
      }
      taSet(a, taExact(parts[key], Type, 0, per * count), per * this.hits);
    }
    this.hits += count;
    this.start[++this.items] = this.hits;
  }

  done() {
    const out = { start: this.start };
    for (const [key, Type, per, a] of this.arrays) out[key] = taCopy(a, Type, 0, per * this.hits);
    return out;
  }
}

/** One overlap item (the World's call for its shape) into out; returns the count. */
function overlapOne(world, q, v, out, options) {
  switch (q.kind) {
    case 1: return world.overlapAABB([v[0], v[1], v[2]], [v[3], v[4], v[5]], out, options);
    case 3: return world.overlapSphere([v[0], v[1], v[2]], v[3], out, options);
    case 5: return world.overlapCapsule([v[0], v[1], v[2]], [v[3], v[4], v[5]], v[6], out, options);
    case 2: return world.overlapOBB(v, out, options);
    default: return world.overlapFrustum(v, out, options);
  }
}

/**
 * The lists of n items (castRayAll, overlaps) from a World: its call per item, in order, with
 * options o ({mask, inside, exclude: one index per item}, or null). A refused item throws with
 * its index among the n (error.item).
 */
export function answerList(world, q, input, n, o) {
  const list = new ListBuilder(q, n);
  const room = new Int32Array(world.count); // an overlap finds each object once at most
  for (let i = 0; i < n; i++) {
    // views through the engine's own constructor: input may be the caller's array (a subclass)
    const v = taExact(input, Float32Array, q.per * i, q.per);
    const options = o === null || o === undefined ? undefined
      : { mask: o.mask, inside: o.inside, exclude: o.exclude === undefined ? undefined : taExact(o.exclude, Int32Array, i, 1) };
    try {
      if (q.out === 'all') {
        const r = world.castRayAll(v, undefined, options);
        list.add(r, r.count);
      } else {
        const count = overlapOne(world, q, v, room, options);
        list.add({ index: room }, count);
      }
    } catch (e) {
      e.item = i;
      throw e;
    }
  }
  return list.done();
}
